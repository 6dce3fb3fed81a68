// Package view is a position as the site shows it, the one view that the
// server's API and the browser's engine (package wasm) both answer with:
// the board (the columns and the men in hand), the side to move, the
// legal moves, the shadow piece and the outcome (view.go); the replay of
// moves from a start, refused for a position that is not one, a move that
// cannot be played and a move after the end (replay.go); one refusal, a
// code of the pages' catalogues with its parameters (refusal.go); and the
// requests and answers of the browser's rules as JSON text (browser.go).
//
// A page asks the server or its own engine alike and gets the same
// answer, field for field and code for code, because both are made here.
package view

import (
	"errors"
	"slices"

	"emergo/notation"
	"emergo/rules"
)

// ColorNames are the words of the colours in every answer, by
// rules.Color.
var ColorNames = [2]string{"white", "black"}

// Square is a column on the board: its square, the colour on top (the
// owner), the owner's men on top and the prisoners under them.
type Square struct {
	Square    string `json:"square"`
	Owner     string `json:"owner"`
	Top       int    `json:"top"`
	Prisoners int    `json:"prisoners"`
}

// Board is a position as the board draws it: the board's size, the
// position's text, the side to move, the men in hand by colour and the
// columns, in the order of the squares. An editor sends one without the
// text to have it (ParseBoard).
type Board struct {
	Size     int            `json:"size"`
	Position string         `json:"position"`
	Turn     string         `json:"turn"`
	Hands    map[string]int `json:"hands"`
	Board    []Square       `json:"board"`
}

// BoardOf is the board of p.
func BoardOf(p *rules.Position) Board {
	g := p.Geometry()
	b := Board{
		Size: g.N, Position: notation.FormatPosition(p), Turn: ColorNames[p.Side()],
		Hands: map[string]int{"white": p.Hand(rules.White), "black": p.Hand(rules.Black)},
		Board: []Square{},
	}
	for sq := rules.Square(0); int(sq) < g.Squares; sq++ {
		if c := p.At(sq); !c.Empty() {
			b.Board = append(b.Board, Square{g.Name(sq), ColorNames[c.Owner], c.Top, c.Prisoners})
		}
	}
	return b
}

// ParseBoard is the position b describes, its text aside, if it is one
// (RULES 1.4: every man of each side in hand, on top or prisoner); else a
// position.invalid Refusal saying why.
func ParseBoard(b Board) (rules.Position, error) {
	fail := func(detail string) (rules.Position, error) { return rules.Position{}, positionInvalid(detail) }
	g := geometry(b.Size)
	if g == nil {
		return fail(badSize)
	}
	side := slices.Index(ColorNames[:], b.Turn)
	if side < 0 {
		return fail(`the side to move is "white" or "black"`)
	}
	cols := map[rules.Square]rules.Column{}
	for _, sq := range b.Board {
		s, err := g.ParseSquare(sq.Square)
		if err != nil {
			return fail(err.Error())
		}
		owner := slices.Index(ColorNames[:], sq.Owner)
		if owner < 0 {
			return fail(sq.Square + `: the owner is "white" or "black"`)
		}
		if _, dup := cols[s]; dup {
			return fail(sq.Square + " is given twice")
		}
		cols[s] = rules.Column{Owner: rules.Color(owner), Top: sq.Top, Prisoners: sq.Prisoners}
	}
	p, err := rules.PositionOf(g, cols, [2]int{b.Hands["white"], b.Hands["black"]}, rules.Color(side))
	if err != nil {
		var pe *rules.PositionError
		if errors.As(err, &pe) {
			return fail(pe.Detail)
		}
		return fail(err.Error())
	}
	return p, nil
}

// Position is a position with what a board needs to play on from it: its
// legal moves, in byte order (RULES 7.4), and the move that led to it
// (its text, or null). The lessons and the puzzles show positions so.
type Position struct {
	Board
	Legal    []string `json:"legal"`
	LastMove any      `json:"lastMove"`
}

// PositionOf is the view of p, reached by last (zero for none). Its legal
// moves are the position's: a game that has ended by repetition has none,
// which GameOf knows.
func PositionOf(p *rules.Position, last rules.Move) Position {
	out := Position{Board: BoardOf(p), Legal: notation.SortedMoves(p.Geometry(), p.Legal(nil))}
	if !last.IsZero() {
		out.LastMove = last.Text(p.Geometry())
	}
	return out
}

// Game is where moves from a start lead, by the rules: the position with
// its legal moves (none once the game is over), the shadow piece's size
// while it goes on (RULES 4.5), the outcome ("*" and no reason until the
// end), the moves as the rules write them and the position they start
// from. POST /api/position and the browser's rules (State) answer it.
type Game struct {
	Position
	Shadow int      `json:"shadow"`
	Over   bool     `json:"over"`
	Result string   `json:"result"`
	Reason string   `json:"reason"`
	Moves  []string `json:"moves"`
	Start  string   `json:"start"`
}

// GameOf is the view of g where it stands.
func GameOf(g *rules.Game) Game {
	p := g.Position()
	geo := p.Geometry()
	start := g.Start()
	var last rules.Move
	moves := g.Moves()
	if n := len(moves); n > 0 {
		last = moves[n-1]
	}
	out := Game{
		Position: Position{Board: BoardOf(&p), Legal: notation.SortedMoves(geo, g.Legal())},
		Result:   g.Outcome().Result.String(), Moves: make([]string, len(moves)), Start: notation.FormatPosition(&start),
	}
	if !last.IsZero() {
		out.LastMove = last.Text(geo)
	}
	for i, m := range moves {
		out.Moves[i] = m.Text(geo)
	}
	if o := g.Outcome(); o.Over() {
		out.Over, out.Reason = true, o.Reason.String()
	} else {
		out.Shadow = p.EntrySize()
	}
	return out
}
