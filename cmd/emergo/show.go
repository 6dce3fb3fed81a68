package main

import (
	"fmt"
	"io"

	"emergo/notation"
	"emergo/rules"
)

func init() {
	register("show", "draw the position after a sequence of moves", runShow)
}

func runShow(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("show", "[MOVE...]",
		"Draws the position after the given moves: every column as owner and height\n"+
			"over prisoners (B2w3 is two black men on three white prisoners), the last\n"+
			"move in brackets, the men in hand, the side to move and the result.", stderr)
	bf := addBoardFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	gm, err := bf.game()
	if err != nil {
		return err
	}
	if err := notation.PlayMoves(gm, fs.Args()); err != nil {
		return err
	}
	var last rules.Move
	if n := gm.Len(); n > 0 {
		last = gm.Moves()[n-1]
	}
	p := gm.Position()
	fmt.Fprint(stdout, describe(gm, &p, last))
	return nil
}

// describe is the board with everything a player needs under it.
func describe(gm *rules.Game, p *rules.Position, last rules.Move) string {
	g := p.Geometry()
	s := notation.Diagram(p, last)
	s += fmt.Sprintf("In hand: White %d, Black %d\n", p.Hand(rules.White), p.Hand(rules.Black))
	if !last.IsZero() {
		s += fmt.Sprintf("Last move: %s\n", last.Text(g))
	}
	if o := gm.Outcome(); o.Over() {
		s += fmt.Sprintf("Result: %s\n", o)
	} else {
		me := p.Side()
		s += fmt.Sprintf("%s to move, %s", me, plural(len(gm.Legal()), "legal move"))
		switch {
		case p.CanCapture():
			s += fmt.Sprintf(" (must capture %d)", gm.Legal()[0].Jumps())
		case p.Hand(me) > 1 && p.Hand(me.Other()) == 0:
			s += fmt.Sprintf(" (the shadow piece: all %d men enter as one column)", p.Hand(me))
		}
		s += "\n"
	}
	s += "Position: " + notation.FormatPosition(p) + "\n"
	return s
}
