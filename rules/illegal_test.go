package rules_test

import (
	"errors"
	"strings"
	"testing"

	"emergo/rules"
)

// moveOf builds the move written as text ("e5", "c3-d4", "c3xe5xg7")
// whether it is legal or not.
func moveOf(t testing.TB, g *rules.Geometry, text string) rules.Move {
	t.Helper()
	if a, b, ok := strings.Cut(text, "-"); ok {
		return rules.StepMove(mustSquare(t, g, a), mustSquare(t, g, b))
	}
	names := strings.Split(text, "x")
	if len(names) == 1 {
		return rules.EntryMove(mustSquare(t, g, text))
	}
	path := make([]rules.Square, len(names))
	for i, name := range names {
		path[i] = mustSquare(t, g, name)
	}
	m, ok := rules.CaptureMove(path)
	if !ok {
		t.Fatalf("CaptureMove(%s) refused the path", text)
	}
	return m
}

// TestWhy checks every reason Position.Why gives, with the rule it rests
// on, its parameters and its text.
func TestWhy(t *testing.T) {
	var (
		start = func(t *testing.T) rules.Position { return rules.NewPosition(g9) }
		// White's c3 is on the board; Black enters.
		afterC3 = func(t *testing.T) rules.Position {
			return makePosition(t, g9, board{"c3": "W1"}, [2]int{11, 12}, rules.Black)
		}
		// D1: White's only move is d4xb6xd8xf6xd4xb6, of five men.
		d1 = func(t *testing.T) rules.Position {
			return makePosition(t, g9, board{"a1": "W7b7", "d4": "W3", "c5": "B2w2", "e5": "B1", "c7": "B1", "e7": "B1"}, [2]int{}, rules.White)
		}
		// D6: Black enters, White's e5 may not be fed.
		d6 = func(t *testing.T) rules.Position {
			return makePosition(t, g9, board{"a1": "W9", "e5": "W1", "h8": "B10w2"}, [2]int{0, 2}, rules.Black)
		}
		// D7: White's only column is blocked (RULES 6.2).
		d7 = func(t *testing.T) rules.Position {
			return makePosition(t, g9, board{"a1": "W1", "b2": "B1w6", "c3": "B11w5"}, [2]int{}, rules.White)
		}
		// D8: every White man is a prisoner (RULES 6.1).
		d8 = func(t *testing.T) rules.Position {
			return makePosition(t, g9, board{"e5": "B10w12"}, [2]int{0, 2}, rules.White)
		}
		// The movement phase without captures: White's a1 is hemmed in
		// by its own b2.
		steps = func(t *testing.T) rules.Position {
			return makePosition(t, g9, board{"a1": "W1b10", "b2": "W1", "h8": "B1", "i9": "B1w10"}, [2]int{}, rules.White)
		}
	)
	seen := map[rules.IllegalReason]bool{}
	for _, tc := range []struct {
		name    string
		pos     func(t *testing.T) rules.Position
		move    string // "" for the zero Move
		reason  rules.IllegalReason
		rule    string
		square  string // "" for NoSquare
		count   int
		example string
		text    string
	}{
		{"not a move", start, "", rules.NotAMove, "", "", 0, "", "not a move of the 9x9 board"},
		{"no legal move", d7, "a1-b2", rules.NoLegalMove, "6.2", "", 0, "", "White has no legal move"},
		{"lost", d8, "e5", rules.NoLegalMove, "6.1", "", 0, "", "White has no legal move"},
		{"must capture, entry", d1, "c7", rules.MustCapture, "3.5", "", 0, "d4xb6xd8xf6xd4xb6",
			"White must capture (RULES 3.5), for example d4xb6xd8xf6xd4xb6"},
		{"must capture, step", d1, "d4-e3", rules.MustCapture, "3.5", "", 0, "d4xb6xd8xf6xd4xb6",
			"White must capture (RULES 3.5), for example d4xb6xd8xf6xd4xb6"},
		{"no men in hand", steps, "e5", rules.NoMenInHand, "5.1", "", 0, "", "White has no men in hand"},
		{"entry occupied", afterC3, "c3", rules.Occupied, "4.1", "c3", 0, "", "c3 is occupied"},
		{"centre first", start, "e5", rules.CentreFirst, "4.3", "e5", 0, "", "the first move may not be on the centre e5 (RULES 4.3)"},
		{"feeding", afterC3, "b2", rules.Feeding, "4.4", "b2", 0, "",
			"a man entered on b2 could be captured at once (no feeding, RULES 4.4)"},
		{"feeding D6", d6, "d4", rules.Feeding, "4.4", "d4", 0, "",
			"a man entered on d4 could be captured at once (no feeding, RULES 4.4)"},
		{"must enter", start, "c3-d4", rules.MustEnter, "4.1", "", 0, "", "White has men in hand and must enter one (RULES 4.1)"},
		{"must enter D6", d6, "h8-g7", rules.MustEnter, "4.1", "", 0, "", "Black has men in hand and must enter one (RULES 4.1)"},
		{"step from an empty square", steps, "e5-d4", rules.NotYours, "5.1", "e5", 0, "", "e5 holds no column of White"},
		{"step of the other's column", steps, "i9-h8", rules.NotYours, "5.1", "i9", 0, "", "i9 holds no column of White"},
		{"not adjacent", steps, "a1-c3", rules.NotAdjacent, "5.1", "", 0, "", "c3 is not diagonally next to a1"},
		{"step occupied", steps, "a1-b2", rules.Occupied, "5.1", "b2", 0, "", "b2 is occupied"},
		{"no capture", start, "c3xe5", rules.NoCapture, "3.1", "", 0, "", "White has no capture"},
		{"no capture, steps", steps, "a1xc3", rules.NoCapture, "3.1", "", 0, "", "White has no capture"},
		{"capture of the other's column", d1, "c5xe3", rules.NotYours, "3.1", "c5", 0, "", "c5 holds no column of White"},
		{"majority", d1, "d4xb6xd8", rules.Majority, "3.6", "", 5, "", "a capture of 5 men is compulsory (majority rule, RULES 3.6)"},
		{"majority, reversal", d1, "d4xb6xd4", rules.Majority, "3.6", "", 5, "", "a capture of 5 men is compulsory (majority rule, RULES 3.6)"},
		{"no such capture, too long", d1, "d4xb6xd8xf6xd4xb6xd8", rules.NoSuchCapture, "3.1-3.4", "", 0, "",
			"no such capture sequence: every jump must take an enemy-topped column onto an empty square, without turning straight back, and continue while it can"},
		{"no such capture, other way", d1, "d4xf6xd8xb6xd4xf6", rules.NoSuchCapture, "3.1-3.4", "", 0, "",
			"no such capture sequence: every jump must take an enemy-topped column onto an empty square, without turning straight back, and continue while it can"},
	} {
		seen[tc.reason] = true
		t.Run(tc.name, func(t *testing.T) {
			p := tc.pos(t)
			g := p.Geometry()
			var m rules.Move
			if tc.move != "" {
				m = moveOf(t, g, tc.move)
			}
			e := p.Why(m)
			if e == nil {
				t.Fatalf("Why(%s) = nil, want %v", m.Text(g), tc.reason)
			}
			square := ""
			if e.Square != rules.NoSquare {
				square = g.Name(e.Square)
			}
			example := ""
			if !e.Example.IsZero() {
				example = e.Example.Text(g)
				if p.Why(e.Example) != nil {
					t.Errorf("the example %s is not legal", example)
				}
			}
			if e.Reason != tc.reason || e.Rule != tc.rule || square != tc.square || e.Count != tc.count || example != tc.example {
				t.Errorf("Why(%s) = reason %d, rule %q, square %q, count %d, example %q; want %d, %q, %q, %d, %q",
					m.Text(g), e.Reason, e.Rule, square, e.Count, example, tc.reason, tc.rule, tc.square, tc.count, tc.example)
			}
			if e.Side != p.Side() || e.Move != m || e.Geometry() != g {
				t.Errorf("Why(%s) = side %v, move %s, want %v, %s", m.Text(g), e.Side, e.Move.Text(g), p.Side(), m.Text(g))
			}
			if e.Error() != tc.text {
				t.Errorf("Why(%s):\n%s\nwant\n%s", m.Text(g), e, tc.text)
			}
			if !errors.Is(e, rules.ErrIllegal) {
				t.Error("the error does not match ErrIllegal")
			}
		})
	}
	for r := rules.NotAMove; r <= rules.NoSuchCapture; r++ {
		if !seen[r] {
			t.Errorf("no case of reason %d", r)
		}
	}
}

// TestWhyLegal checks that Why has nothing to say about a legal move,
// in random games with every kind of move.
func TestWhyLegal(t *testing.T) {
	for _, g := range []*rules.Geometry{g9, g7} {
		for seed := range uint64(4) {
			gm := playRandom(t, g, seed)
			for i := 0; i < gm.Len(); i++ {
				p := gm.PositionAt(i)
				if e := p.Why(gm.Moves()[i]); e != nil {
					t.Fatalf("%dx%d seed %d ply %d: Why(%s) = %v, want nil", g.N, g.N, seed, i, gm.Moves()[i].Text(g), e)
				}
			}
		}
	}
}

// TestPlayIllegal checks that Game.Play answers an illegal move with the
// error Why gives, and a move after the end with a *GameOverError.
func TestPlayIllegal(t *testing.T) {
	gm := rules.NewGame(g9)
	centre := moveOf(t, g9, "e5")
	err := gm.Play(centre)
	var e *rules.IllegalMoveError
	if !errors.As(err, &e) || e.Reason != rules.CentreFirst || e.Rule != "4.3" || gm.Len() != 0 {
		t.Errorf("Play(e5) at the start = %v, want the centre rule", err)
	}
	if err := gm.Play(rules.Move{}); !errors.As(err, &e) || e.Reason != rules.NotAMove {
		t.Errorf("Play(zero Move) = %v, want NotAMove", err)
	}
	off := rules.StepMove(0, rules.Square(g9.Squares))
	if err := gm.Play(off); !errors.As(err, &e) || e.Reason != rules.NotAMove {
		t.Errorf("Play(a step off the board) = %v, want NotAMove", err)
	}
	d8 := makePosition(t, g9, board{"e5": "B10w12"}, [2]int{0, 2}, rules.White)
	over := rules.NewGameFrom(d8)
	err = over.Play(moveOf(t, g9, "a1"))
	var ge *rules.GameOverError
	if !errors.As(err, &ge) || ge.Outcome != over.Outcome() || !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("Play after the end = %v, want a *GameOverError with the outcome", err)
	}
	if want := "the game is over (0-1, all men taken prisoner)"; err.Error() != want {
		t.Errorf("Play after the end: %q, want %q", err, want)
	}
}

func TestParseSquareErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		g       *rules.Geometry
		in      string
		problem rules.SquareProblem
		text    string
	}{
		{"empty", g9, "", rules.NotAName, `"" is not a square name`},
		{"long", g9, "e55", rules.NotAName, `"e55" is not a square name`},
		{"rank first", g9, "5e", rules.NotAName, `"5e" is not a square name`},
		{"rank 0", g9, "a0", rules.NotAName, `"a0" is not a square name`},
		{"file off 9x9", g9, "j1", rules.OffBoard, "j1 is off the 9x9 board"},
		{"rank off 7x7", g7, "a8", rules.OffBoard, "a8 is off the 7x7 board"},
		{"light", g9, "e6", rules.LightSquare, "e6 is not a playable square"},
	} {
		_, err := tc.g.ParseSquare(tc.in)
		var e *rules.SquareError
		if !errors.As(err, &e) || e.Problem != tc.problem || e.Name != tc.in || e.N != tc.g.N || err.Error() != tc.text {
			t.Errorf("%s: ParseSquare(%q) = %v, want problem %d, %q", tc.name, tc.in, err, tc.problem, tc.text)
		}
	}
}
