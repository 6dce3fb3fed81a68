package view

import (
	"errors"
	"strings"

	"emergo/notation"
	"emergo/rules"
)

// Request is a game as the pages give it: a position text, or none for
// the empty board of Size (9 when 0), and the moves played since, in the
// notation of RULES 7.
type Request struct {
	Position string   `json:"position"`
	Size     int      `json:"size"`
	Moves    []string `json:"moves"`
}

func geometry(size int) *rules.Geometry {
	if size == 0 {
		size = 9
	}
	return rules.GeometryOf(size)
}

// Start is the position r's moves start from, or a position.invalid
// Refusal.
func (r Request) Start() (rules.Position, error) {
	if strings.TrimSpace(r.Position) != "" {
		p, err := notation.ParsePosition(r.Position)
		if err != nil {
			return rules.Position{}, PositionRefusal(err)
		}
		return p, nil
	}
	g := geometry(r.Size)
	if g == nil {
		return rules.Position{}, positionInvalid(badSize)
	}
	return rules.NewPosition(g), nil
}

// Play plays r's moves from its start, with the history that repetitions
// and the end of the game need. It is refused with a Refusal: the
// position's (position.invalid), or the first move's that cannot be
// played, with its place in the list as params.index: a move.* code, or
// game.over for a move after the end.
func (r Request) Play() (*rules.Game, error) {
	p, err := r.Start()
	if err != nil {
		return nil, err
	}
	g := rules.NewGameFrom(p)
	if err := notation.PlayMoves(g, r.Moves); err != nil {
		var me *notation.MovesError
		if !errors.As(err, &me) {
			panic("view: PlayMoves failed without a MovesError: " + err.Error()) // its only error
		}
		return nil, movesRefusal(me)
	}
	return g, nil
}

// Try reads text as a move of the position g has reached: the move, or
// the Refusal of it (game.over once the game has ended; no index, as the
// move is not one of a list).
func Try(g *rules.Game, text string) (rules.Move, *Refusal) {
	if o := g.Outcome(); o.Over() {
		return rules.Move{}, OverRefusal(o)
	}
	p := g.Position()
	m, err := notation.ParseMove(&p, text)
	if err != nil {
		var me *notation.MoveError
		if !errors.As(err, &me) {
			me = &notation.MoveError{Text: text, Err: err}
		}
		return rules.Move{}, MoveRefusal(me)
	}
	return m, nil
}
