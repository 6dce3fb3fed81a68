package notation_test

import (
	"errors"
	"strings"
	"testing"

	"emergo/notation"
	"emergo/rules"
)

func TestPlayMoves(t *testing.T) {
	// In D13 the start comes back every four moves.
	cycle := strings.Fields("a1-b2 i9-h8 b2-a1 h8-i9 a1-b2 i9-h8 b2-a1 h8-i9")
	for _, tc := range []struct {
		name  string
		start string
		moves []string
		index int    // of the failing move, -1 for none
		text  string // of the error
		over  bool   // the error matches rules.ErrGameOver
		why   rules.IllegalReason
	}{
		{"none", "9x9 w 12/12 -", nil, -1, "", false, 0},
		{"all legal", "9x9 w 12/12 -", []string{"c3", "g7", "@a1"}, -1, "", false, 0},
		{"repetition reached", d13Text, cycle, -1, "", false, 0},
		{"not a square", "9x9 w 12/12 -", []string{"c3", "zz"}, 1, `move 2 "zz": "zz" is not a square name`, false, 0},
		{"bad shape", "9x9 w 12/12 -", []string{"c3-d4-e5"}, 0, `move 1 "c3-d4-e5": a step is two squares joined by -, such as c3-d4`, false, 0},
		{"illegal", "9x9 w 12/12 -", []string{"c3", "g7", "c3"}, 2, `move 3 "c3": c3 is occupied`, false, rules.Occupied},
		{"first move", "7x7 w 8/8 -", []string{"d4"}, 0, `move 1 "d4": the first move may not be on the centre d4 (RULES 4.3)`, false, rules.CentreFirst},
		{"after the end", d13Text, append(cycle, "a1-b2"), 8, `move 9 "a1-b2": the game is over (1/2-1/2, threefold repetition)`, true, 0},
		{"after a blocked position", d7Text, []string{"a1-b2"}, 0, `move 1 "a1-b2": the game is over (1/2-1/2, no legal move)`, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := rules.NewGameFrom(mustParsePosition(t, tc.start))
			err := notation.PlayMoves(g, tc.moves)
			if tc.index < 0 {
				if err != nil {
					t.Fatalf("PlayMoves: %v", err)
				}
				if g.Len() != len(tc.moves) {
					t.Errorf("%d moves played, want %d", g.Len(), len(tc.moves))
				}
				return
			}
			var me *notation.MovesError
			if !errors.As(err, &me) {
				t.Fatalf("PlayMoves = %v, want a *MovesError", err)
			}
			if me.Index != tc.index || me.Text != tc.moves[tc.index] || err.Error() != tc.text {
				t.Errorf("PlayMoves = %d %q %q, want %d %q %q", me.Index, me.Text, err, tc.index, tc.moves[tc.index], tc.text)
			}
			if g.Len() != tc.index {
				t.Errorf("%d moves played before the error, want %d", g.Len(), tc.index)
			}
			if got := errors.Is(err, rules.ErrGameOver); got != tc.over {
				t.Errorf("errors.Is(err, rules.ErrGameOver) = %v, want %v", got, tc.over)
			}
			var ie *rules.IllegalMoveError
			if errors.As(err, &ie) != (tc.why != 0) || tc.why != 0 && ie.Reason != tc.why {
				t.Errorf("errors.As(err, *rules.IllegalMoveError) gives %v, want reason %d", ie, tc.why)
			}
			var move *notation.MoveError
			if got := errors.As(err, &move); got == tc.over {
				t.Errorf("errors.As(err, *MoveError) = %v, want %v", got, !tc.over)
			} else if got && move.Text != me.Text {
				t.Errorf("the *MoveError is of %q, want %q", move.Text, me.Text)
			}
		})
	}
}

func TestMoveNumber(t *testing.T) {
	for _, tc := range []struct {
		name  string
		first rules.Color
		i     int
		want  string
	}{
		{"White's first", rules.White, 0, "1"},
		{"Black's first", rules.White, 1, "1..."},
		{"White's second", rules.White, 2, "2"},
		{"White's 14th", rules.White, 26, "14"},
		{"Black starts", rules.Black, 0, "1..."},
		{"then White", rules.Black, 1, "2"},
		{"then Black", rules.Black, 2, "2..."},
	} {
		if got := notation.MoveNumber(tc.first, tc.i); got != tc.want {
			t.Errorf("%s: MoveNumber(%v, %d) = %q, want %q", tc.name, tc.first, tc.i, got, tc.want)
		}
	}
}
