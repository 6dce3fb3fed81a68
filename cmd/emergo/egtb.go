package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"emergo/egtb"
	"emergo/notation"
	"emergo/rules"
)

func init() {
	register("egtb", "generate or probe the endgame tables of two and three columns", runEgtb)
}

const egtbUsage = "Usage: emergo egtb gen [-size 9|7] [-columns 2|3] [-out FILE]   solve every two-column (or 7x7 three-column) position and write the table\n" +
	"       emergo egtb probe POSITION                 the tables' value of a position and of each move\n\n" +
	"Run 'emergo egtb gen -h' or 'emergo egtb probe -h' for the flags.\n"

func runEgtb(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	return runSubcommand("egtb", egtbUsage, []subcommand{{"gen", runEgtbGen}, {"probe", runEgtbProbe}}, args, stdout, stderr)
}

func runEgtbGen(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("egtb gen", "",
		"Solves every position with two columns, one of each player, and no man in\n"+
			"hand (or, with -columns 3, on 7x7, every position of three columns, two of\n"+
			"one player and one of the other), by retrograde analysis, and writes the\n"+
			"table: one byte per entry, 0\n"+
			"for a draw, else the plies to the end, odd when the side to move wins\n"+
			"(package egtb gives the order). The bytes depend on the board alone; the\n"+
			"engine embeds the tables of both boards, compressed.", stderr)
	size := fs.Int("size", 9, "board: 9 or 7")
	columns := fs.Int("columns", 2, "columns on the board: 2, or 3 (two of one player and one of the other; 7x7 only)")
	out := fs.String("out", "", "output `file` (default two9.bin, two7.bin or three7.bin), replaced")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	g := rules.GeometryOf(*size)
	if g == nil {
		return usageError{fmt.Sprintf("-size %d: want 9 or 7", *size)}
	}
	if *columns != 2 && (*columns != 3 || *size != 7) {
		return usageError{fmt.Sprintf("-columns %d -size %d: want 2 columns, or 3 on 7x7", *columns, *size)}
	}
	if *out == "" {
		*out = fmt.Sprintf("%s%d.bin", map[int]string{2: "two", 3: "three"}[*columns], *size)
	}
	start := time.Now()
	var data []byte
	var st egtb.Stats
	if *columns == 2 {
		t, s, err := egtb.Generate(g)
		if err != nil {
			return err
		}
		data, st = t.Bytes(), s
	} else {
		t, s, err := egtb.GenerateThree(g, egtb.For(g), func(pass, found int) {
			if pass == 0 {
				fmt.Fprintf(stderr, "moves of %d positions made in %v\n", found, time.Since(start).Round(time.Millisecond))
			} else if pass%10 == 0 || found > 0 && pass < 10 {
				fmt.Fprintf(stderr, "pass %d: %d positions solved (%v)\n", pass, found, time.Since(start).Round(time.Millisecond))
			}
		})
		if err != nil {
			return err
		}
		data, st = t.Bytes(), s
	}
	el := time.Since(start)
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%dx%d: %d positions: %d won, %d lost, %d drawn by the side to move; longest %d plies; %d passes in %v\n",
		g.N, g.N, st.Positions, st.Wins, st.Losses, st.Draws, st.Longest, st.Passes, el.Round(time.Millisecond))
	fmt.Fprintf(stdout, "%d bytes written to %s\n", len(data), *out)
	return nil
}

func runEgtbProbe(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("egtb probe", "POSITION",
		"Prints the tables' value of POSITION (a position text, docs/notation.md)\n"+
			"for the side to move, and the value of every legal move.", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{"egtb probe needs one POSITION, such as \"7x7 b 0/0 c3:W5b2 e5:B6w3\""}
	}
	p, err := notation.ParsePosition(fs.Arg(0))
	if err != nil {
		return err
	}
	if _, err := egtb.ThreeFor(p.Geometry()); err != nil {
		return err
	}
	v, ok := egtb.Probe(&p)
	if !ok {
		return fmt.Errorf("%s is not a position of the tables: two columns, one of each player, or three on 7x7, every man on the board and none in hand", fs.Arg(0))
	}
	fmt.Fprintf(stdout, "%s to move: %v\n", p.Side(), v)
	for _, m := range p.Legal(nil) {
		q := p.After(m)
		switch w, ok := egtb.Probe(&q); {
		case q.Lost():
			fmt.Fprintf(stdout, "%s: won in 1\n", m.Text(p.Geometry()))
		case ok:
			fmt.Fprintf(stdout, "%s: %v\n", m.Text(p.Geometry()), egtb.Value{Outcome: -w.Outcome, Plies: w.Plies + 1})
		}
	}
	return nil
}
