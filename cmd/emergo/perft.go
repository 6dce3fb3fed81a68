package main

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"emergo/notation"
	"emergo/rules"
)

func init() {
	register("perft", "count the leaves of the move tree to a depth", runPerft)
}

func runPerft(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("perft", "DEPTH",
		"Counts the leaf positions DEPTH plies ahead, one per move path, and prints\n"+
			"the count, the time and the leaves per second. With -divide, prints the\n"+
			"count below each first move as it completes.", stderr)
	bf := addBoardFlags(fs)
	moves := fs.String("moves", "", "moves to play first, separated by spaces")
	divide := fs.Bool("divide", false, "print the count below each legal move")
	makeAll := fs.Bool("make", false, "make every leaf move instead of counting the last ply in bulk")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{"perft needs one DEPTH argument"}
	}
	depth, err := strconv.Atoi(fs.Arg(0))
	if err != nil || depth < 0 || depth > 64 {
		return usageError{fmt.Sprintf("depth %q: want a number from 0 to 64", fs.Arg(0))}
	}
	gm, err := bf.game()
	if err != nil {
		return err
	}
	if err := notation.PlayMoves(gm, moveFields(*moves)); err != nil {
		return err
	}
	p := gm.Position()
	pf := rules.Perft{Bulk: !*makeAll}
	start := time.Now()
	var total uint64
	if *divide && depth > 0 {
		g := p.Geometry()
		legal := p.Legal(nil)
		texts := notation.SortedMoves(g, legal)
		byText := make(map[string]rules.Move, len(legal))
		for _, m := range legal {
			byText[m.Text(g)] = m
		}
		for _, t := range texts {
			child := p.After(byText[t])
			n := pf.Count(&child, depth-1)
			total += n
			fmt.Fprintf(stdout, "%s %d\n", t, n)
		}
		fmt.Fprintln(stdout)
	} else {
		total = pf.Count(&p, depth)
	}
	el := time.Since(start)
	fmt.Fprintln(stdout, total)
	rate := float64(total) / el.Seconds()
	fmt.Fprintf(stdout, "time %v, %.0f leaves/s\n", el.Round(time.Microsecond), rate)
	return nil
}
