package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"emergo/match"
	"emergo/record"
	"emergo/rules"
)

func init() {
	register("match", "play a match between two players and measure the Elo difference", runMatch)
}

func runMatch(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("match", "[-report FILE...]",
		"Plays a match of game pairs between two players: every opening is played\n"+
			"twice, the colours swapped. Prints, at the end, the score, the Elo\n"+
			"difference with its 95% interval, the likelihood of superiority, the game\n"+
			"pairs, White's score, the draw rate and the SPRT if asked (docs/match.md).\n"+
			"-out is created before the first game and gets every game as it finishes.\n"+
			"Ctrl-C stops and reports the games played so far.\n\n"+
			"With -report it plays nothing: it reads the games of one or more matches\n"+
			"from the files -out wrote and prints the same report for all of them\n"+
			"together, their game pairs pooled (two matches on different openings\n"+
			"measured as one).\n\n"+
			progressHelp+" A step is a game: its result and the\n"+
			"score so far.\n\n"+
			"A player SPEC is one of:\n  "+strings.ReplaceAll(match.SpecHelp, "\n", "\n  ")+"\n\n"+
			"A time control (-tc, -tc1, -tc2) is 10s+0.1s (clock plus increment),\n"+
			"100ms/move, or none.", stderr)
	p1 := fs.String("p1", "", "the first `SPEC`, whose score and Elo are reported")
	p2 := fs.String("p2", "", "the second `SPEC`")
	games := fs.Int("games", 20, "games to play, rounded up to an even number")
	size := fs.String("size", "9", "board: 9, 7 or both (alternating by pair)")
	movetime := fs.Duration("movetime", 100*time.Millisecond, "time per move of both players")
	tc := fs.String("tc", "", "time control of both players, such as 10s+0.1s; overrides -movetime")
	tc1 := fs.String("tc1", "", "time control of the first player; overrides -tc and -movetime")
	tc2 := fs.String("tc2", "", "time control of the second player; overrides -tc and -movetime")
	grace := fs.Duration("grace", match.DefaultGrace, "how far a player may overrun its time before it loses on time")
	concurrency := fs.Int("concurrency", 1, "game pairs played at once")
	maxPlies := fs.Int("maxplies", 300, "adjudicate a draw after this many plies; 0 for no limit")
	sprt := fs.String("sprt", "", "test \"elo0 elo1 alpha beta\" and stop when it decides, such as \"0 10 0.05 0.05\"")
	out := fs.String("out", "", "write the games to this PGN-style `file`")
	openings := fs.String("openings", "random", "where the games begin: random (balanced random openings) or empty (the empty board)")
	times := fs.String("times", "", "write the time of every move to this CSV `file`: game, size, ply, colour, player, clock before the move and time taken (ms)")
	seed := fs.Uint64("seed", 1, "seed of the openings and the players' randomness")
	hash := fs.Int("hash", 16, "transposition table of level:N players, MiB")
	verbose := fs.Bool("v", false, "a progress line per game, also when standard error is not a terminal")
	quiet := fs.Bool("quiet", false, "no progress")
	reportOnly := fs.Bool("report", false, "play nothing: report the matches whose records are the arguments, pooled")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *reportOnly {
		return reportMatches(fs.Args(), stdout)
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("match takes no arguments without -report, got %q", fs.Arg(0))}
	}
	if *p1 == "" || *p2 == "" {
		return usageError{"match needs both -p1 and -p2"}
	}
	cfg := match.Config{
		Games: *games, Concurrency: *concurrency, MaxPlies: *maxPlies,
		Grace: *grace, Seed: *seed,
	}
	var err error
	if cfg.Sizes, err = parseSizes(*size); err != nil {
		return err
	}
	switch *openings {
	case "random":
	case "empty":
		for _, n := range cfg.Sizes {
			cfg.Openings = append(cfg.Openings, match.Opening{Start: rules.NewPosition(rules.GeometryOf(n))})
		}
	default:
		return usageError{fmt.Sprintf("-openings %q: want random or empty", *openings)}
	}
	opts := match.SpecOptions{HashMiB: *hash, EngineStderr: stderr}
	if cfg.P1, err = match.ParseSpec(*p1, opts); err != nil {
		return settingUsage("", err)
	}
	if cfg.P2, err = match.ParseSpec(*p2, opts); err != nil {
		return settingUsage("", err)
	}
	if cfg.TC, err = timeControls(*movetime, *tc, *tc1, *tc2); err != nil {
		return err
	}
	if *sprt != "" {
		s, err := match.ParseSPRT(*sprt)
		if err != nil {
			return settingUsage("", err)
		}
		cfg.SPRT = &s
	}
	if *games < 1 {
		return usageError{fmt.Sprintf("-games %d: at least one game", *games)}
	}
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		cfg.PGN = f
	}

	var timesOut io.Writer
	if *times != "" {
		f, err := os.Create(*times)
		if err != nil {
			return err
		}
		defer f.Close()
		timesOut = f
		fmt.Fprintln(f, "game,size,ply,colour,player,left_ms,took_ms")
	}

	ctx, stop := interruptible()
	defer stop()
	prog := newProgress(stderr, *verbose, *quiet)
	sum, err := match.Run(ctx, cfg, func(p match.Progress) {
		if timesOut != nil {
			writeTimes(timesOut, p.Game, cfg.P1.Text, cfg.P2.Text)
		}
		prog.status("%s", progressLine(p, cfg.P1.Text))
	})
	prog.done()
	if werr := sum.WriteReport(stdout); werr != nil && err == nil {
		err = werr
	}
	if *out != "" && len(sum.Games) > 0 {
		fmt.Fprintf(stdout, "Games written to %s\n", *out)
	}
	if errors.Is(err, context.Canceled) {
		return errors.New("match interrupted")
	}
	return err
}

// reportMatches prints the report of the matches recorded in files, as
// one match.
func reportMatches(files []string, stdout io.Writer) error {
	if len(files) == 0 {
		return usageError{"-report needs the record files of one or more matches"}
	}
	var all [][]match.GameResult
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		recs, err := record.ReadPGN(f)
		f.Close()
		var games []match.GameResult
		if err == nil {
			games, err = match.GamesOf(recs)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		all = append(all, games)
	}
	sum := match.Pool(all...)
	return sum.WriteReport(stdout)
}

// writeTimes writes the time of every move of g as lines of CSV.
func writeTimes(w io.Writer, g *match.GameResult, p1, p2 string) {
	for _, t := range g.Times {
		who := p1
		if (t.Side == rules.White) != g.P1White {
			who = p2
		}
		fmt.Fprintf(w, "%d,%d,%d,%s,%q,%d,%d\n", g.Number, g.Size, t.Ply, strings.ToLower(t.Side.String()), who,
			t.Left.Milliseconds(), t.Took.Milliseconds())
	}
}

// settingUsage turns the *match.SettingError of a flag's text into a
// usage error, which says the flag after prefix; other errors pass.
func settingUsage(prefix string, err error) error {
	var se *match.SettingError
	if errors.As(err, &se) {
		return usageError{prefix + se.Detail}
	}
	return err
}

// progressLine describes the game just finished and the score so far.
func progressLine(p match.Progress, p1 string) string {
	g := p.Game
	colour := "White"
	if !g.P1White {
		colour = "Black"
	}
	return fmt.Sprintf("game %d (%dx%d, %s %s): %s, %s; %s",
		g.Number, g.Size, g.Size, p1, colour, g.Result, g.Termination, p)
}

// parseSizes reads -size: 9, 7 or both.
func parseSizes(s string) ([]int, error) {
	switch s {
	case "9":
		return []int{9}, nil
	case "7":
		return []int{7}, nil
	case "both", "mix", "9,7":
		return []int{9, 7}, nil
	}
	return nil, usageError{fmt.Sprintf("-size %q: want 9, 7 or both", s)}
}

// timeControls returns the time controls of both players from -movetime,
// -tc and the per-player -tc1 and -tc2, each overriding the ones before.
func timeControls(movetime time.Duration, tc, tc1, tc2 string) ([2]match.TimeControl, error) {
	if movetime < 0 {
		return [2]match.TimeControl{}, usageError{fmt.Sprintf("-movetime %v is negative", movetime)}
	}
	base := match.TimeControl{MoveTime: movetime}
	parse := func(flag, text string, into *match.TimeControl) error {
		if text == "" {
			return nil
		}
		t, err := match.ParseTimeControl(text)
		if err != nil {
			return settingUsage("-"+flag+": ", err)
		}
		*into = t
		return nil
	}
	if err := parse("tc", tc, &base); err != nil {
		return [2]match.TimeControl{}, err
	}
	out := [2]match.TimeControl{base, base}
	if err := parse("tc1", tc1, &out[0]); err != nil {
		return out, err
	}
	return out, parse("tc2", tc2, &out[1])
}
