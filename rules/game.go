package rules

import (
	"errors"
	"fmt"
)

// Result is the state of a game as the board decides it.
type Result uint8

const (
	Ongoing Result = iota
	WhiteWins
	BlackWins
	Draw
)

func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "1-0"
	case BlackWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// Reason says why a game ended on the board (RULES 6.1-6.3).
type Reason uint8

const (
	NotOver    Reason = iota
	NoMen             // the loser has no men in hand and no column (RULES 6.1)
	NoMove            // the player to move has no legal move (RULES 6.2)
	Repetition        // the same position for the third time (RULES 6.3)
)

func (r Reason) String() string {
	switch r {
	case NoMen:
		return "all men taken prisoner"
	case NoMove:
		return "no legal move"
	case Repetition:
		return "threefold repetition"
	}
	return "not over"
}

// Outcome is the result of a game with its reason.
type Outcome struct {
	Result Result
	Reason Reason
}

// Over reports whether the game has ended.
func (o Outcome) Over() bool { return o.Result != Ongoing }

func (o Outcome) String() string {
	if !o.Over() {
		return "*"
	}
	return fmt.Sprintf("%s (%s)", o.Result, o.Reason)
}

// Game is a sequence of moves from a start position, with the history the
// repetition rule needs. It is the convenient API over Position: Legal,
// Play and Outcome check everything; the layers above use it rather than
// the raw generator.
//
// A game keeps its moves and the hash of every position, not every
// position: a position is about 120 bytes, eight times a move, and a site
// holds many games in memory. Every markEvery-th position is kept, and
// PositionAt replays the moves after the nearest one. The search never
// goes through a Game (it copies Positions), so this costs it nothing.
type Game struct {
	moves []Move
	// hashes[i] is the hash of the position before moves[i].
	hashes []uint64
	// marks[k] is the position before move k*markEvery: marks[0] is the
	// start, and there is one for each multiple of markEvery up to Len.
	marks   []Position
	cur     Position // the current position
	legal   []Move   // legal moves of the current position, or nil if over
	outcome Outcome
}

// markEvery is how often a game keeps a whole position: PositionAt plays
// at most markEvery-1 moves, and a position costs a game under 4 bytes a
// ply.
const markEvery = 32

// NewGame starts a game from the empty board of g.
func NewGame(g *Geometry) *Game { return NewGameFrom(NewPosition(g)) }

// NewGameFrom starts a game from p, which counts as the first occurrence
// of itself.
func NewGameFrom(p Position) *Game {
	gm := &Game{marks: []Position{p}, cur: p}
	gm.settle()
	return gm
}

// Geometry returns the board of the game.
func (gm *Game) Geometry() *Geometry { return gm.cur.geo }

// Start returns the position the game started from.
func (gm *Game) Start() Position { return gm.marks[0] }

// Position returns the current position.
func (gm *Game) Position() Position { return gm.cur }

// PositionAt returns the position before move i (0 is the start; Len() the
// current position). It replays up to markEvery-1 moves.
func (gm *Game) PositionAt(i int) Position {
	if i == len(gm.moves) {
		return gm.cur
	}
	p := gm.marks[i/markEvery]
	for _, m := range gm.moves[i/markEvery*markEvery : i] {
		p.Play(m)
	}
	return p
}

// HashAt returns the hash of the position before move i (0 is the start;
// Len() the current position), as PositionAt(i).Hash() but at once.
func (gm *Game) HashAt(i int) uint64 {
	if i == len(gm.moves) {
		return gm.cur.hash
	}
	return gm.hashes[i]
}

// Moves returns the moves played so far. The slice is shared: do not
// modify it.
func (gm *Game) Moves() []Move { return gm.moves }

// Len returns the number of moves played.
func (gm *Game) Len() int { return len(gm.moves) }

// Legal returns the legal moves of the current position; none once the
// game is over. The slice is shared: do not modify it.
func (gm *Game) Legal() []Move { return gm.legal }

// Outcome returns the result of the game so far.
func (gm *Game) Outcome() Outcome { return gm.outcome }

// ErrGameOver is matched (errors.Is) by the *GameOverError of Play after
// the end of the game.
var ErrGameOver = errors.New("rules: the game is over")

// GameOverError is the error of a move after the end of the game: its
// text is "the game is over (1/2-1/2, threefold repetition)".
type GameOverError struct {
	Outcome Outcome
}

func (e *GameOverError) Error() string {
	return fmt.Sprintf("the game is over (%s, %s)", e.Outcome.Result, e.Outcome.Reason)
}

// Is reports whether target is ErrGameOver.
func (e *GameOverError) Is(target error) bool { return target == ErrGameOver }

// Play plays m if it is legal in the current position. Otherwise it
// returns a *GameOverError after the end of the game, or the
// *IllegalMoveError that says why m is not legal.
func (gm *Game) Play(m Move) error {
	if gm.outcome.Over() {
		return &GameOverError{Outcome: gm.outcome}
	}
	for _, l := range gm.legal {
		if l == m {
			gm.hashes = append(gm.hashes, gm.cur.hash)
			gm.moves = append(gm.moves, m)
			gm.cur.Play(m)
			if len(gm.moves)%markEvery == 0 {
				gm.marks = append(gm.marks, gm.cur)
			}
			gm.settle()
			return nil
		}
	}
	if e := gm.cur.Why(m); e != nil {
		return e
	}
	panic("rules: a legal move is missing from Game.Legal")
}

// Undo takes back the last move; it returns false at the start.
func (gm *Game) Undo() bool {
	n := len(gm.moves) - 1
	if n < 0 {
		return false
	}
	gm.cur = gm.PositionAt(n)
	gm.moves = gm.moves[:n]
	gm.hashes = gm.hashes[:n]
	gm.marks = gm.marks[:n/markEvery+1]
	gm.settle()
	return true
}

// settle computes the legal moves and the outcome of the current position,
// in the order of RULES 6: loss, then no legal move, then repetition.
func (gm *Game) settle() {
	p := &gm.cur
	gm.legal = p.Legal(nil)
	gm.outcome = Outcome{}
	switch {
	case p.Lost():
		gm.outcome = Outcome{Result: WhiteWins, Reason: NoMen}
		if p.side == White {
			gm.outcome.Result = BlackWins
		}
	case len(gm.legal) == 0:
		gm.outcome = Outcome{Result: Draw, Reason: NoMove}
	case gm.Occurrences() >= 3:
		gm.outcome = Outcome{Result: Draw, Reason: Repetition}
	}
	if gm.outcome.Over() {
		gm.legal = gm.legal[:0]
	}
}

// Occurrences returns how many times the current position has occurred in
// the game, itself included. Only an entry changes the game for good (men
// in hand never come back); a capture that frees prisoners can restore an
// earlier position, so the search goes back to the last entry.
func (gm *Game) Occurrences() int {
	cur := gm.cur
	n := 1
	for i := len(gm.moves) - 1; i >= 0 && gm.moves[i].kind != Entry; i-- {
		if gm.hashes[i] == cur.hash {
			if q := gm.PositionAt(i); q == cur {
				n++
			}
		}
	}
	return n
}

// Clone returns an independent copy of the game, for work that must not
// see later changes (an engine thinking while players act).
func (gm *Game) Clone() *Game {
	return &Game{
		moves:   append([]Move(nil), gm.moves...),
		hashes:  append([]uint64(nil), gm.hashes...),
		marks:   append([]Position(nil), gm.marks...),
		cur:     gm.cur,
		legal:   append([]Move(nil), gm.legal...),
		outcome: gm.outcome,
	}
}
