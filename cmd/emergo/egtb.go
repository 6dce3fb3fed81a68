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
	register("egtb", "generate or probe the endgame tables of two columns", runEgtb)
}

const egtbUsage = "Usage: emergo egtb gen [-size 9|7] [-out FILE]   solve every two-column position and write the table\n" +
	"       emergo egtb probe POSITION                 the tables' value of a position and of each move\n\n" +
	"Run 'emergo egtb gen -h' or 'emergo egtb probe -h' for the flags.\n"

func runEgtb(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	return runSubcommand("egtb", egtbUsage, []subcommand{{"gen", runEgtbGen}, {"probe", runEgtbProbe}}, args, stdout, stderr)
}

func runEgtbGen(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("egtb gen", "",
		"Solves every position with two columns, one of each player, and no man in\n"+
			"hand, by retrograde analysis, and writes the table: one byte per entry, 0\n"+
			"for a draw, else the plies to the end, odd when the side to move wins\n"+
			"(package egtb gives the order). The bytes depend on the board alone; the\n"+
			"engine embeds the tables of both boards, compressed.", stderr)
	size := fs.Int("size", 9, "board: 9 or 7")
	out := fs.String("out", "", "output `file` (default two9.bin or two7.bin), replaced")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	g := rules.GeometryOf(*size)
	if g == nil {
		return usageError{fmt.Sprintf("-size %d: want 9 or 7", *size)}
	}
	if *out == "" {
		*out = fmt.Sprintf("two%d.bin", *size)
	}
	start := time.Now()
	t, st, err := egtb.Generate(g)
	if err != nil {
		return err
	}
	el := time.Since(start)
	if err := os.WriteFile(*out, t.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%dx%d: %d positions: %d won, %d lost, %d drawn by the side to move; longest %d plies; %d passes in %v\n",
		g.N, g.N, st.Positions, st.Wins, st.Losses, st.Draws, st.Longest, st.Passes, el.Round(time.Millisecond))
	fmt.Fprintf(stdout, "%d bytes written to %s\n", len(t.Bytes()), *out)
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
	v, ok := egtb.Probe(&p)
	if !ok {
		return fmt.Errorf("%s is not a position of the tables: two columns, one of each player, every man on the board", fs.Arg(0))
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
