package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"emergo/book"
	"emergo/notation"
	"emergo/player"
)

func init() {
	register("book", "build or show the engine's opening book", runBook)
}

const bookUsage = "Usage: emergo book build [flags]        build an opening book from self-play\n" +
	"       emergo book show [flags] [MOVE...] a position's moves in a book\n\n" +
	"Run 'emergo book build -h' or 'emergo book show -h' for the flags.\n"

func runBook(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	return runSubcommand("book", bookUsage, []subcommand{{"build", runBookBuild}, {"show", runBookShow}}, args, stdout, stderr)
}

func runBookBuild(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("book build", "",
		"Plays self-play games on one board and writes their opening book: every\n"+
			"position of the first -plies plies that at least two games reached, the\n"+
			"moves played from it with how those games ended, and the engine's\n"+
			"evaluation of it to -depth. The first -random plies of a game are random;\n"+
			"every other move searches -nodes nodes on one thread, and within the\n"+
			"book's plies the engine picks among the moves within -margin of the\n"+
			"best, so the book is a function of the flags alone: the same flags write\n"+
			"the same bytes. The output is checked before the first game and written\n"+
			"at the end (book/data holds the site's books; README.md gives their\n"+
			"commands).\n\n"+
			progressHelp, stderr)
	var cfg book.Config
	fs.IntVar(&cfg.Size, "size", 9, "board size: 9 or 7")
	fs.IntVar(&cfg.Games, "games", 1000, "self-play games")
	fs.IntVar(&cfg.Plies, "plies", 0, "the book's depth in plies (default 16 on 9x9, 12 on 7x7)")
	fs.IntVar(&cfg.Random, "random", 0, "plies played at random, all legal moves alike, at the start of every game (default 1 on 9x9, 2 on 7x7)")
	fs.Uint64Var(&cfg.Nodes, "nodes", 0, "nodes searched for every move of the games (default 4000)")
	margin := fs.Int("margin", 0, "variety: within the book's plies, moves within this many hundredths of a man of the best (default 30)")
	fs.IntVar(&cfg.Depth, "depth", 0, "depth of the evaluation of every book position (default 8)")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random seed of the games")
	out := fs.String("out", "", "output `file` (default book9.gz or book7.gz)")
	verbose := fs.Bool("v", false, "a progress line per game, also when standard error is not a terminal")
	quiet := fs.Bool("quiet", false, "no progress")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	cfg.Margin = int32(*margin)
	cfg = cfg.Defaults()
	if err := cfg.Validate(); err != nil {
		return usageError{err.Error()}
	}
	if *out == "" {
		*out = fmt.Sprintf("book%d.gz", cfg.Size)
	}
	if err := checkWritable(*out); err != nil {
		return err
	}
	prog := newProgress(stderr, *verbose, *quiet)
	ctx, stop := interruptible()
	defer stop()
	start := time.Now()
	b, err := book.Build(ctx, cfg, func(s book.Stage, done, total int) {
		prog.status("%s %d/%d", s, done, total)
	})
	prog.done()
	if errors.Is(err, context.Canceled) {
		return errors.New("book build interrupted: nothing written")
	}
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := book.Write(&buf, b); err != nil {
		return err
	}
	if err := writeFileAtomic(*out, buf.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s from %s written to %s (%d bytes) in %s\n", plural(b.Len(), "position"),
		plural(cfg.Games, "game"), *out, buf.Len(), time.Since(start).Round(time.Second))
	return nil
}

func runBookShow(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("book show", "[MOVE...]",
		"Prints a position's moves in a book, with how the games went and the\n"+
			"engine's evaluation: the position after the MOVEs from the start of\n"+
			"-size, in the book built into the program or in -book (whose board\n"+
			"-size need not give).", stderr)
	size := fs.Int("size", 9, "board size: 9 or 7")
	file := fs.String("book", "", "a book `file` written by book build, instead of the program's")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var b *book.Book
	if *file == "" {
		b = book.Embedded(*size)
	} else {
		f, err := os.Open(*file)
		if err != nil {
			return err
		}
		b, err = book.Read(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", *file, err)
		}
		if wasSet(fs, "size") && *size != b.Config.Size {
			return usageError{fmt.Sprintf("-size %d: the book %s is of %dx%d", *size, *file, b.Config.Size, b.Config.Size)}
		}
		*size = b.Config.Size
	}
	if b == nil {
		return usageError{fmt.Sprintf("-size %d: want 9 or 7", *size)}
	}
	gm, err := startGame(*size, "", true)
	if err != nil {
		return err
	}
	if err := playFrom(gm, fs.Args(), 0); err != nil {
		return err
	}
	p := gm.Position()
	fmt.Fprintf(stdout, "%s\nbook: %s (%s)\n", notation.FormatPosition(&p), b.Config, plural(b.Len(), "position"))
	e, ok := b.Lookup(&p)
	if !ok {
		fmt.Fprintln(stdout, "not in the book")
		return nil
	}
	fmt.Fprintf(stdout, "evaluation %s at depth %d, best %s; %s\n", scoreWords(e.Score), b.Config.Depth, e.Best, plural(e.Games(), "game"))
	for _, m := range e.Moves {
		fmt.Fprintf(stdout, "%-16s %5d  white %d  draws %d  black %d\n", m.Text, m.Games(), m.White, m.Draws, m.Black)
	}
	return nil
}

// scoreWords is a score for the side to move as the book shows it: in
// men ("+0.35") or a forced win ("wins in 3").
func scoreWords(score int32) string {
	if n, ok := player.MateIn(score); ok {
		if n > 0 {
			return fmt.Sprintf("wins in %d", n)
		}
		return fmt.Sprintf("loses in %d", -n)
	}
	return fmt.Sprintf("%+.2f", float64(score)/100)
}
