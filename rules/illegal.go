package rules

import (
	"errors"
	"fmt"
)

// ErrIllegal is matched (errors.Is) by every *IllegalMoveError.
var ErrIllegal = errors.New("illegal move")

// IllegalReason says why a move is not legal. With the parameters of its
// *IllegalMoveError (each constant names the ones it uses) it is all a
// message needs, in any language.
type IllegalReason uint8

const (
	NotAMove      IllegalReason = iota + 1 // the zero Move, or a square off the board
	NoLegalMove                            // Side has no legal move at all (RULES 6.1, 6.2)
	MustCapture                            // Side can capture and must (RULES 3.5); Example is a capture
	NoMenInHand                            // an entry, but Side has no men in hand (RULES 5.1)
	Occupied                               // Square is occupied (RULES 4.1 for an entry, 5.1 for a step)
	CentreFirst                            // the very first move is on the centre, Square (RULES 4.3)
	Feeding                                // a man entered on Square could be captured at once (RULES 4.4)
	MustEnter                              // a step, but Side has men in hand (RULES 4.1)
	NotYours                               // Square, where the move starts, holds no column of Side (RULES 5.1, 3.1)
	NotAdjacent                            // a step whose squares are not diagonal neighbours (RULES 5.1)
	NoCapture                              // a capture, but Side has none (RULES 3.1)
	Majority                               // a capture of fewer than Count men, the most there are (RULES 3.6)
	NoSuchCapture                          // a path that is no capture sequence of Side (RULES 3.1-3.4)
)

// IllegalMoveError says why Move is not legal in a position: the reason,
// the rule it rests on and its parameters. Its text is the English one,
// such as "a man entered on b2 could be captured at once (no feeding,
// RULES 4.4)".
type IllegalMoveError struct {
	Reason  IllegalReason
	Rule    string // the number in docs/rules.md, such as "4.4"; "" for NotAMove
	Side    Color  // the player to move
	Move    Move   // the move as given: its kind and squares
	Square  Square // the square the reason is about, or NoSquare
	Count   int    // for Majority: the men a capture must take
	Example Move   // for MustCapture: a legal capture
	geo     *Geometry
}

// Geometry returns the board of the position, which names the squares.
func (e *IllegalMoveError) Geometry() *Geometry { return e.geo }

func (e *IllegalMoveError) Error() string {
	g, me := e.geo, e.Side
	switch e.Reason {
	case NoLegalMove:
		return fmt.Sprintf("%s has no legal move", me)
	case MustCapture:
		return fmt.Sprintf("%s must capture (RULES 3.5), for example %s", me, e.Example.Text(g))
	case NoMenInHand:
		return fmt.Sprintf("%s has no men in hand", me)
	case Occupied:
		return fmt.Sprintf("%s is occupied", g.Name(e.Square))
	case CentreFirst:
		return fmt.Sprintf("the first move may not be on the centre %s (RULES 4.3)", g.Name(e.Square))
	case Feeding:
		return fmt.Sprintf("a man entered on %s could be captured at once (no feeding, RULES 4.4)", g.Name(e.Square))
	case MustEnter:
		return fmt.Sprintf("%s has men in hand and must enter one (RULES 4.1)", me)
	case NotYours:
		return fmt.Sprintf("%s holds no column of %s", g.Name(e.Square), me)
	case NotAdjacent:
		return fmt.Sprintf("%s is not diagonally next to %s", g.Name(e.Move.To()), g.Name(e.Move.From()))
	case NoCapture:
		return fmt.Sprintf("%s has no capture", me)
	case Majority:
		return fmt.Sprintf("a capture of %d men is compulsory (majority rule, RULES 3.6)", e.Count)
	case NoSuchCapture:
		return "no such capture sequence: every jump must take an enemy-topped column onto an empty square, without turning straight back, and continue while it can"
	}
	return fmt.Sprintf("not a move of the %dx%d board", g.N, g.N)
}

// Is reports whether target is ErrIllegal.
func (e *IllegalMoveError) Is(target error) bool { return target == ErrIllegal }

// Why says why m is not a legal move of p, in the terms of the rules, or
// returns nil if it is legal. It asks the questions in the order a player
// would: is there a move at all, must he capture, and then what is wrong
// with this entry, step or capture.
func (p *Position) Why(m Move) *IllegalMoveError {
	g, me := p.geo, p.side
	e := &IllegalMoveError{Side: me, Move: m, Square: NoSquare, geo: g}
	fail := func(r IllegalReason, rule string) *IllegalMoveError {
		e.Reason, e.Rule = r, rule
		return e
	}
	if m.IsZero() {
		return fail(NotAMove, "")
	}
	for i := 0; i < m.Len(); i++ {
		if int(m.At(i)) >= g.Squares {
			return fail(NotAMove, "")
		}
	}
	legal := p.Legal(nil)
	for _, l := range legal {
		if l == m {
			return nil
		}
	}
	switch {
	case p.Lost():
		return fail(NoLegalMove, "6.1")
	case len(legal) == 0:
		return fail(NoLegalMove, "6.2")
	case p.CanCapture() && m.kind != Capture:
		e.Example = legal[0]
		return fail(MustCapture, "3.5")
	}
	a := m.From()
	mine := !p.At(a).Empty() && p.At(a).Owner == me
	switch m.kind {
	case Entry:
		if p.Hand(me) == 0 {
			return fail(NoMenInHand, "5.1")
		}
		e.Square = a
		switch {
		case !p.At(a).Empty():
			return fail(Occupied, "4.1")
		case p.FirstMove() && a == g.Centre:
			return fail(CentreFirst, "4.3")
		}
		return fail(Feeding, "4.4")
	case Step:
		switch {
		case p.Hand(me) > 0:
			return fail(MustEnter, "4.1")
		case !mine:
			e.Square = a
			return fail(NotYours, "5.1")
		case !adjacent(g, a, m.To()):
			return fail(NotAdjacent, "5.1")
		}
		e.Square = m.To()
		return fail(Occupied, "5.1")
	}
	switch {
	case !p.CanCapture():
		return fail(NoCapture, "3.1")
	case !mine:
		e.Square = a
		return fail(NotYours, "3.1")
	case m.Jumps() < legal[0].Jumps():
		e.Count = legal[0].Jumps()
		return fail(Majority, "3.6")
	}
	return fail(NoSuchCapture, "3.1-3.4")
}

// adjacent reports whether a and b are diagonal neighbours.
func adjacent(g *Geometry, a, b Square) bool {
	for d := 0; d < 4; d++ {
		if g.Neighbour(a, d) == b {
			return true
		}
	}
	return false
}
