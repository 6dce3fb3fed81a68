package notation

import (
	"errors"
	"fmt"
	"strconv"

	"emergo/rules"
)

// MovesError is the error of PlayMoves: the move at Index of the list
// (from 0), written Text, cannot be played. Err says why: a *MoveError,
// which wraps the *rules.IllegalMoveError or the syntax error behind it,
// or the *rules.GameOverError when the game ended before that move.
//
// Its text counts the moves of the list from 1, whoever plays them, so
// that the number is the move's place among the texts the user gave:
//
//	move 14 "c3xe6": e6 is not a playable square
//
// Records number their moves in pairs instead ("7" for White, "7..." for
// Black; see MoveNumber), and say so in their own errors.
type MovesError struct {
	Index int
	Text  string
	Err   error
}

func (e *MovesError) Error() string {
	var me *MoveError
	if errors.As(e.Err, &me) && me.Text == e.Text {
		return fmt.Sprintf("move %d %v", e.Index+1, me)
	}
	return fmt.Sprintf("move %d %q: %v", e.Index+1, e.Text, e.Err)
}

// Unwrap returns the cause of e.
func (e *MovesError) Unwrap() error { return e.Err }

// PlayMoves parses each move text in the position g has reached and plays
// it. It stops at the first text that is not a legal move there, or that
// comes after the end of the game, with a *MovesError; the moves before
// it stay played.
func PlayMoves(g *rules.Game, texts []string) error {
	for i, text := range texts {
		fail := func(err error) error { return &MovesError{Index: i, Text: text, Err: err} }
		if o := g.Outcome(); o.Over() {
			return fail(&rules.GameOverError{Outcome: o})
		}
		p := g.Position()
		m, err := ParseMove(&p, text)
		if err != nil {
			return fail(err)
		}
		if err := g.Play(m); err != nil {
			return fail(err)
		}
	}
	return nil
}

// MoveNumber returns the number of the i-th move (from 0) of a game whose
// first move is first's, as records write it: "14" for White's moves and
// "14..." for Black's.
func MoveNumber(first rules.Color, i int) string {
	ply := i + int(first)
	n := strconv.Itoa(ply/2 + 1)
	if ply%2 == 1 {
		return n + "..."
	}
	return n
}
