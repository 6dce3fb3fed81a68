// Package notation reads and writes Emergo text: moves (RULES 7), the
// one-line position text of docs/notation.md, and game records. The rules
// package knows nothing of text beyond square names; every parser of user
// input lives here and answers bad input with an error, never a panic.
package notation

import (
	"fmt"
	"slices"
	"strings"

	"emergo/rules"
)

// MoveError is the error of ParseMove: the text as given and what was
// wrong with it. Callers that know the move number add it in front, as in
// `move 14 "c3xe6": e6 is not a playable square`.
type MoveError struct {
	Text   string
	Reason string
}

func (e *MoveError) Error() string { return fmt.Sprintf("%q: %s", e.Text, e.Reason) }

// FormatMove returns m in the notation of RULES 7 on board g.
func FormatMove(g *rules.Geometry, m rules.Move) string { return m.Text(g) }

// SortedMoves returns the text of moves in byte order (RULES 7.4).
func SortedMoves(g *rules.Geometry, moves []rules.Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.Text(g)
	}
	slices.Sort(out)
	return out
}

// ParseSquares splits move text into its squares and the kind its
// separators announce, checking only the syntax and the board: "e5" or
// "@e5" is an entry, "c3-d4" a step, "c3xe5xg7" a capture.
func ParseSquares(g *rules.Geometry, text string) (rules.Kind, []rules.Square, error) {
	s := strings.TrimSpace(text)
	bad := func(reason string) (rules.Kind, []rules.Square, error) {
		return 0, nil, &MoveError{Text: text, Reason: reason}
	}
	if s == "" {
		return bad("empty move")
	}
	kind := rules.Entry
	var parts []string
	switch {
	case strings.HasPrefix(s, "@"):
		parts = []string{s[1:]}
	case strings.Contains(s, "x") || strings.Contains(s, "X"):
		kind = rules.Capture
		parts = strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == 'x' })
		if strings.Count(strings.ToLower(s), "x") != len(parts)-1 {
			return bad("a capture is squares joined by x, such as c3xe5xg7")
		}
	case strings.Contains(s, "-"):
		kind = rules.Step
		parts = strings.Split(s, "-")
		if len(parts) != 2 {
			return bad("a step is two squares joined by -, such as c3-d4")
		}
	default:
		parts = []string{s}
	}
	if kind == rules.Capture && len(parts) < 2 {
		return bad("a capture needs a start square and at least one landing square")
	}
	if len(parts) > 13 {
		return bad("a capture has at most 12 jumps")
	}
	squares := make([]rules.Square, len(parts))
	for i, name := range parts {
		sq, err := g.ParseSquare(strings.ToLower(name))
		if err != nil {
			return bad(strings.TrimPrefix(err.Error(), "rules: "))
		}
		squares[i] = sq
	}
	return kind, squares, nil
}

// ParseMove reads move text and returns the legal move of p it names.
// Every error is a *MoveError that says why the move cannot be played.
func ParseMove(p *rules.Position, text string) (rules.Move, error) {
	g := p.Geometry()
	kind, squares, err := ParseSquares(g, text)
	if err != nil {
		return rules.Move{}, err
	}
	legal := p.Legal(nil)
	for _, m := range legal {
		if m.Kind() == kind && m.Len() == len(squares) {
			same := true
			for i, s := range squares {
				if m.At(i) != s {
					same = false
					break
				}
			}
			if same {
				return m, nil
			}
		}
	}
	return rules.Move{}, &MoveError{Text: text, Reason: whyIllegal(p, legal, kind, squares)}
}

// whyIllegal explains, in the terms of the rules, why a well-formed move is
// not among the legal ones.
func whyIllegal(p *rules.Position, legal []rules.Move, kind rules.Kind, sq []rules.Square) string {
	g := p.Geometry()
	me := p.Side()
	if p.Lost() || len(legal) == 0 {
		return fmt.Sprintf("%s has no legal move", me)
	}
	if p.CanCapture() && kind != rules.Capture {
		return fmt.Sprintf("%s must capture (RULES 3.5), for example %s", me, legal[0].Text(g))
	}
	switch kind {
	case rules.Entry:
		s := sq[0]
		switch {
		case p.Hand(me) == 0:
			return fmt.Sprintf("%s has no men in hand", me)
		case !p.At(s).Empty():
			return fmt.Sprintf("%s is occupied", g.Name(s))
		case p.FirstMove() && s == g.Centre:
			return fmt.Sprintf("the first move may not be on the centre %s (RULES 4.3)", g.Name(s))
		default:
			return fmt.Sprintf("a man entered on %s could be captured at once (no feeding, RULES 4.4)", g.Name(s))
		}
	case rules.Step:
		a, b := sq[0], sq[1]
		switch {
		case p.Hand(me) > 0:
			return fmt.Sprintf("%s has men in hand and must enter one (RULES 4.1)", me)
		case p.At(a).Empty() || p.At(a).Owner != me:
			return fmt.Sprintf("%s holds no column of %s", g.Name(a), me)
		case !adjacent(g, a, b):
			return fmt.Sprintf("%s is not diagonally next to %s", g.Name(b), g.Name(a))
		default:
			return fmt.Sprintf("%s is occupied", g.Name(b))
		}
	default:
		a := sq[0]
		switch {
		case !p.CanCapture():
			return fmt.Sprintf("%s has no capture", me)
		case p.At(a).Empty() || p.At(a).Owner != me:
			return fmt.Sprintf("%s holds no column of %s", g.Name(a), me)
		}
		best := legal[0].Jumps()
		if len(sq)-1 < best {
			return fmt.Sprintf("a capture of %d men is compulsory (majority rule, RULES 3.6)", best)
		}
		return "no such capture sequence: every jump must take an enemy-topped column onto an empty square, without turning straight back, and continue while it can"
	}
}

func adjacent(g *rules.Geometry, a, b rules.Square) bool {
	for d := 0; d < 4; d++ {
		if g.Neighbour(a, d) == b {
			return true
		}
	}
	return false
}
