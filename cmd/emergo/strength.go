package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"emergo/match"
)

func init() {
	register("strength", "measure the levels against each other and the baselines", runStrength)
}

func runStrength(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("strength", "",
		"Plays the ladder of the levels, one match of game pairs per row: the random\n"+
			"mover against level 1, every level against the next one up and against the\n"+
			"one two above, and fits one Elo to every player from all the rows at once,\n"+
			"the random mover at 0, with a 95% interval (a seeded bootstrap over the game\n"+
			"pairs). The pairs alternate between the 9x9 and the 7x7 board. The top level\n"+
			"thinks -movetime per move; the other levels play by their depth and node\n"+
			"limits, without a clock. Writes the scale and the rows, with the command, as\n"+
			"markdown to -out, checked before the first game and rewritten after every\n"+
			"row: an interrupted run (Ctrl-C) keeps the rows it finished, and the page says\n"+
			"how many of the rows it holds. -ladder measures other players, -rows plays\n"+
			"any rows without a scale.\n\n"+
			progressHelp+" A finished row is a line of its own.", stderr)
	games := fs.Int("games", 40, "games of each row between neighbours of the ladder, rounded up to an even number (with -rows: of every row)")
	games2 := fs.Int("games2", 20, "games of each row between players two apart on the ladder")
	ladder := fs.String("ladder", "", "the players of the ladder, weakest first, the first at 0: \"P1; P2; P3\" (default random and the levels)")
	movetime := fs.Duration("movetime", 100*time.Millisecond, "time per move of the top level and of cmd: engines (the other levels play by their limits)")
	size := fs.String("size", "both", "board: 9, 7 or both (alternating by pair)")
	concurrency := fs.Int("concurrency", 1, "game pairs played at once")
	maxPlies := fs.Int("maxplies", 300, "adjudicate a draw after this many plies; 0 for no limit")
	seed := fs.Uint64("seed", 1, "seed of the openings and the players' randomness")
	out := fs.String("out", "strength.md", "write the markdown table to this `file`, rewritten after every row; - for standard output at the end")
	pgn := fs.String("pgn", "", "also write every game to this PGN-style `file`")
	rows := fs.String("rows", "", "play these rows instead of the standard table: \"P1 vs P2; P1 vs P2\"")
	verbose := fs.Bool("v", false, "a progress line per game, also when standard error is not a terminal")
	quiet := fs.Bool("quiet", false, "no progress")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	for _, g := range []struct {
		flag string
		n    int
	}{{"-games", *games}, {"-games2", *games2}} {
		if g.n < 1 {
			return usageError{fmt.Sprintf("%s %d: at least one game", g.flag, g.n)}
		}
	}
	cfg := match.StrengthConfig{
		Games: *games, MoveTime: *movetime, Concurrency: *concurrency,
		MaxPlies: *maxPlies, Seed: *seed,
		SpecOptions: match.SpecOptions{EngineStderr: stderr},
	}
	var err error
	if cfg.Sizes, err = parseSizes(*size); err != nil {
		return err
	}
	switch {
	case *rows != "" && *ladder != "":
		return usageError{"-rows and -ladder: give one of them"}
	case *rows != "":
		if cfg.Pairings, err = parseRows(*rows); err != nil {
			return err
		}
	default:
		cfg.Ladder = match.LadderPlayers()
		if *ladder != "" {
			if cfg.Ladder, err = parseLadder(*ladder); err != nil {
				return err
			}
		}
		cfg.Pairings = match.LadderPairings(cfg.Ladder, *games, *games2)
	}
	for _, p := range cfg.Pairings {
		for _, s := range []string{p.P1, p.P2} {
			if _, err := match.ParseSpec(s, cfg.SpecOptions); err != nil {
				return settingUsage("", err)
			}
		}
	}
	if *out != "-" {
		if err := checkWritable(*out); err != nil {
			return err
		}
	}
	if *pgn != "" {
		f, err := os.Create(*pgn)
		if err != nil {
			return err
		}
		defer f.Close()
		cfg.PGN = f
	}

	command := "emergo strength"
	for _, a := range args {
		command += " " + shellQuote(a)
	}
	start := time.Now()
	page := func(rows []match.StrengthRow) ([]byte, error) {
		var b bytes.Buffer
		if err := match.WriteStrengthMarkdown(&b, rows, cfg, command, time.Since(start)); err != nil {
			return nil, err
		}
		if len(rows) < len(cfg.Pairings) {
			fmt.Fprintf(&b, "\nThe table holds %d of the %s of the run.\n", len(rows), plural(len(cfg.Pairings), "row"))
		}
		return b.Bytes(), nil
	}
	prog := newProgress(stderr, *verbose, *quiet)
	cfg.Progress = func(row int, p match.Progress) {
		pr := cfg.Pairings[row]
		prog.status("row %d/%d, %s vs %s: %s", row+1, len(cfg.Pairings), pr.P1, pr.P2, progressLine(p, pr.P1))
	}
	cfg.Row = func(rows []match.StrengthRow) error {
		r := rows[len(rows)-1]
		n := r.Summary.Counts.Games()
		prog.note("row %d/%d, %s vs %s: %s", len(rows), len(cfg.Pairings), r.P1, r.P2,
			match.Progress{Played: n, Total: n, Counts: r.Summary.Counts})
		if *out == "-" {
			return nil
		}
		data, err := page(rows)
		if err != nil {
			return err
		}
		return writeFileAtomic(*out, data)
	}

	ctx, stop := interruptible()
	defer stop()
	results, err := match.RunStrength(ctx, cfg)
	prog.done()
	if *out == "-" {
		data, werr := page(results)
		if werr != nil {
			return werr
		}
		if _, werr := stdout.Write(data); werr != nil {
			return werr
		}
	} else if len(results) > 0 {
		fmt.Fprintf(stdout, "%s written to %s\n", plural(len(results), "row"), *out)
	}
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("strength interrupted after %d of %s", len(results), plural(len(cfg.Pairings), "row"))
	}
	return err
}

// parseRows reads -rows: pairings "P1 vs P2" separated by semicolons.
func parseRows(s string) ([]match.Pairing, error) {
	var out []match.Pairing
	for _, part := range strings.Split(s, ";") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		a, b, ok := strings.Cut(part, " vs ")
		if !ok || strings.TrimSpace(a) == "" || strings.TrimSpace(b) == "" {
			return nil, usageError{fmt.Sprintf("-rows: %q is not \"P1 vs P2\"", strings.TrimSpace(part))}
		}
		out = append(out, match.Pairing{P1: strings.TrimSpace(a), P2: strings.TrimSpace(b)})
	}
	if len(out) == 0 {
		return nil, usageError{"-rows: no row given"}
	}
	return out, nil
}

// parseLadder reads -ladder: player specs separated by semicolons,
// weakest first.
func parseLadder(s string) ([]string, error) {
	var out []string
	for _, part := range strings.Split(s, ";") {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	if len(out) < 2 {
		return nil, usageError{fmt.Sprintf("-ladder %q: at least two players", s)}
	}
	return out, nil
}

// shellQuote quotes an argument for a POSIX shell when it needs it, so
// that the command written to the page can be pasted back.
func shellQuote(a string) string {
	if a != "" && strings.IndexFunc(a, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=+,@", r))
	}) < 0 {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}
