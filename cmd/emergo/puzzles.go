package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"emergo/puzzle"
	"emergo/record"
	"emergo/rules"
)

func init() {
	register("puzzles", "make puzzles from self-play games and records", runPuzzles)
}

const puzzlesUsage = "Usage: emergo puzzles gen [flags]          find puzzles in games and write them\n" +
	"       emergo puzzles verify [flags] IN   verify a set again, deeper, and keep what holds\n\n" +
	"Run 'emergo puzzles gen -h' for the flags.\n"

func runPuzzles(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	return runSubcommand("puzzles", puzzlesUsage, []subcommand{{"gen", runPuzzlesGen}, {"verify", runPuzzlesVerify}}, args, stdout, stderr)
}

func runPuzzlesGen(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("puzzles gen", "",
		"Looks for puzzles in the games of -from (a record file, PGN-style or Abstract\n"+
			"Play JSON; games of other sizes are passed over) and in -games self-play\n"+
			"games between noisy engines: positions where one move, verified by a search\n"+
			"to -depth, scores at least -win hundredths of a man and every other at most\n"+
			"-equal, with the line that follows while the solver's move stays the only\n"+
			"good one. Every position is screened first by a search to -screen. The\n"+
			"puzzles are written as they are found (gzipped if -out ends in .gz), so an\n"+
			"interrupted run keeps them; the output is a function of the flags and\n"+
			"-from alone (one thread, fixed depths).\n\n"+progressHelp, stderr)
	size := fs.Int("size", 9, "board size: 9 or 7")
	games := fs.Int("games", 100, "self-play games")
	from := fs.String("from", "", "a record `file` whose games are looked through first")
	seed := fs.Uint64("seed", 1, "random seed of the self-play games")
	count := fs.Int("count", 0, "stop after this many puzzles (0: when the games are done)")
	depth := fs.Int("depth", 0, "verification depth (default: 10 on 9x9, 12 on 7x7)")
	win := fs.Int("win", 200, "the solution scores at least this, in hundredths of a man")
	equal := fs.Int("equal", 50, "every other move scores at most this")
	screen := fs.Int("screen", 4, "depth of the screening search")
	out := fs.String("out", "", "output `file`, replaced (default puzzlesN.txt.gz, N the size)")
	verbose := fs.Bool("v", false, "a progress line per puzzle, also when standard error is not a terminal")
	quiet := fs.Bool("quiet", false, "no progress")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if rules.GeometryOf(*size) == nil {
		return usageError{fmt.Sprintf("-size %d: want 9 or 7", *size)}
	}
	crit := puzzle.DefaultCriteria[*size]
	crit.Win, crit.Equal = int32(*win), int32(*equal)
	if *depth != 0 {
		crit.Depth = *depth
	}
	switch {
	case crit.Depth < 1 || crit.Depth > maxSearchDepth:
		return usageError{fmt.Sprintf("-depth %d: want 1 to %d", crit.Depth, maxSearchDepth)}
	case *screen < 1 || *screen > crit.Depth:
		return usageError{fmt.Sprintf("-screen %d: want 1 to the verification depth, %d", *screen, crit.Depth)}
	case crit.Win <= crit.Equal:
		return usageError{fmt.Sprintf("-win %d must be above -equal %d", crit.Win, crit.Equal)}
	case *games < 0 || *count < 0:
		return usageError{"-games and -count must not be negative"}
	}
	cfg := puzzle.GenConfig{Size: *size, Games: *games, Seed: *seed, Criteria: crit, Count: *count, ScreenDepth: *screen}
	if *from != "" {
		data, err := os.ReadFile(*from)
		if err != nil {
			return err
		}
		recs, err := record.ReadOptions{Lenient: true}.ReadAll(data)
		if err != nil {
			return fmt.Errorf("%s: %w", *from, err)
		}
		for _, r := range recs {
			g, err := r.Game()
			if err != nil {
				return fmt.Errorf("%s: %w", *from, err)
			}
			cfg.Records = append(cfg.Records, g)
		}
	}
	if *out == "" {
		*out = fmt.Sprintf("puzzles%d.txt.gz", *size)
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	defer f.Close()
	w := newPuzzleWriter(f, strings.HasSuffix(*out, ".gz"))
	w.comment("emergo puzzles gen " + strings.Join(args, " "))
	w.comment("criteria " + crit.String())
	prog := newProgress(stderr, *verbose, *quiet)
	ctx, stop := interruptible()
	defer stop()
	emit := func(p puzzle.Puzzle) error {
		if err := w.puzzle(&p); err != nil {
			return fmt.Errorf("writing %s: %w", *out, err)
		}
		prog.status("puzzle %d: %s %s (%s)", w.n, p.ID, p.Origin, strings.Join(themeNames(p.Themes), ","))
		return nil
	}
	st, err := puzzle.Gen(ctx, cfg, emit, func(s puzzle.GenStats) {
		prog.update("games %d, positions %d, candidates %d, puzzles %d", s.Games, s.Positions, s.Candidates, s.Puzzles)
	})
	prog.done()
	if cerr := w.close(); err == nil && cerr != nil {
		err = cerr
	}
	fmt.Fprintf(stdout, "%s from %s (%s, %s screened) written to %s\n", plural(st.Puzzles, "puzzle"),
		plural(st.Games, "game"), plural(st.Candidates, "candidate"), plural(st.Positions, "position"), *out)
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("puzzles gen interrupted after %s", plural(st.Puzzles, "puzzle"))
	}
	return err
}

func runPuzzlesVerify(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("puzzles verify", "IN",
		"Verifies every puzzle of the set IN (written by 'puzzles gen') again with a\n"+
			"search to -depth, deeper than the set's own: each move of the solver must\n"+
			"still be the only good one, by the set's win and equal margins, at -depth\n"+
			"and at the set's own depth (the search may have changed). Writes the\n"+
			"puzzles that hold to -out, in their order, with the set's header and a line\n"+
			"'# verified depth=N' (the site's set says so, and its tests check it), and\n"+
			"names each dropped puzzle on stdout with the reason. -threads searches run\n"+
			"at once, each with its own table cleared before every search, so the output\n"+
			"does not depend on them.\n\n"+progressHelp, stderr)
	depth := fs.Int("depth", 14, "verification depth")
	out := fs.String("out", "", "output `file` (gzipped), replaced; required")
	threads := fs.Int("threads", 1, "puzzles verified at once")
	verbose := fs.Bool("v", false, "a progress line per puzzle, also when standard error is not a terminal")
	quiet := fs.Bool("quiet", false, "no progress")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() != 1:
		return usageError{"puzzles verify takes one set file"}
	case *out == "":
		return usageError{"puzzles verify needs -out"}
	case *depth < 1 || *depth > maxSearchDepth:
		return usageError{fmt.Sprintf("-depth %d: want 1 to %d", *depth, maxSearchDepth)}
	case *threads < 1:
		return usageError{fmt.Sprintf("-threads %d: want 1 or more", *threads)}
	}
	in, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	set, err := puzzle.Read(in)
	in.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	if *depth <= set.Criteria.Depth {
		return usageError{fmt.Sprintf("-depth %d: want deeper than the set's %d", *depth, set.Criteria.Depth)}
	}
	crit := set.Criteria
	crit.Depth = *depth
	ctx, stop := interruptible()
	defer stop()
	prog := newProgress(stderr, *verbose, *quiet)
	// A puzzle is kept if it holds at both depths: the set's own tests
	// check it at its criteria's, and a change of the search (deeper
	// tables) can make a move that is the only good one at the deeper
	// depth one of two at the set's own.
	var errs []error
	for _, c := range []puzzle.Criteria{crit, set.Criteria} {
		at := puzzle.VerifyAll(ctx, c, set.Puzzles, *threads, func(done int) {
			prog.update("verified %d of %d at depth %d", done, len(set.Puzzles), c.Depth)
		})
		if errs == nil {
			errs = at
		}
		for i, err := range at {
			if errs[i] == nil {
				errs[i] = err
			}
		}
	}
	prog.done()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("puzzles verify interrupted: %w", err)
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	w := newPuzzleWriter(f, true)
	w.comment(set.Command)
	w.comment("criteria " + set.Criteria.String())
	w.comment("emergo puzzles verify " + strings.Join(args, " "))
	w.comment(fmt.Sprintf("verified depth=%d", *depth))
	dropped := 0
	for i := range set.Puzzles {
		if errs[i] != nil {
			dropped++
			fmt.Fprintf(stdout, "dropped %v\n", errs[i])
			continue
		}
		w.puzzle(&set.Puzzles[i])
	}
	if err := w.close(); err != nil {
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	fmt.Fprintf(stdout, "%s of %d kept at depth %d (%d dropped), written to %s\n",
		plural(w.n, "puzzle"), len(set.Puzzles), *depth, dropped, *out)
	return nil
}

func themeNames(ts []puzzle.Theme) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t)
	}
	return out
}

// puzzleWriter writes a set line by line, flushing each, so that an
// interrupted run leaves every puzzle found readable (a gzip stream is
// flushed, and readable up to the last flush without its trailer).
type puzzleWriter struct {
	f   *os.File
	gz  *gzip.Writer
	buf *bufio.Writer
	n   int
	err error
}

func newPuzzleWriter(f *os.File, compress bool) *puzzleWriter {
	w := &puzzleWriter{f: f}
	var dst io.Writer = f
	if compress {
		w.gz, _ = gzip.NewWriterLevel(f, gzip.BestCompression)
		dst = w.gz
	}
	w.buf = bufio.NewWriter(dst)
	return w
}

func (w *puzzleWriter) line(s string) error {
	if w.err == nil {
		_, w.err = w.buf.WriteString(s + "\n")
	}
	if w.err == nil {
		w.err = w.buf.Flush()
	}
	if w.err == nil && w.gz != nil {
		w.err = w.gz.Flush()
	}
	return w.err
}

func (w *puzzleWriter) comment(s string) { w.line("# " + s) }

func (w *puzzleWriter) puzzle(p *puzzle.Puzzle) error {
	w.n++
	return w.line(puzzle.Format(p))
}

func (w *puzzleWriter) close() error {
	if w.err == nil && w.gz != nil {
		w.err = w.gz.Close()
	}
	if err := w.f.Close(); w.err == nil {
		w.err = err
	}
	return w.err
}
