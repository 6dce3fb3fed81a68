package game_test

import (
	"errors"
	"testing"
	"time"

	"emergo/game"
	"emergo/notation"
	"emergo/rules"
)

// fakeTime is the clock of the tests: time moves when they say so.
type fakeTime struct{ t time.Time }

func newTime() *fakeTime                     { return &fakeTime{time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }
func (f *fakeTime) Now() time.Time           { return f.t }
func (f *fakeTime) pass(d time.Duration)     { f.t = f.t.Add(d) }
func (f *fakeTime) since(t time.Time) string { return f.t.Sub(t).String() }

// Positions of the tests.
const (
	// White captures every black man with d4xb6xd8xf6xd4xb6 (docs/rules.md D1).
	winInOne = "9x9 w 0/0 d4:W3 c5:B2w2 e5:B1 c7:B1 e7:B1"
	// a1-b2 g7-f6 b2-c3 f6-g7 c3-b2 g7-f6 b2-c3 f6-g7 c3-b2 repeats a
	// position for the third time.
	walkers = "7x7 w 0/0 a1:W1b4 g7:B4w7"
	// White has a column but no move (RULES 6.2).
	blocked = "7x7 w 0/1 a7:W1 b6:B2w3 c5:B5w4"
)

var cycle = []string{"a1-b2", "g7-f6", "b2-c3", "f6-g7", "c3-b2", "g7-f6", "b2-c3", "f6-g7", "c3-b2"}

// start returns a new game from the position text (the empty 7x7 board
// for "").
func start(t *testing.T, pos string, opts game.Options) *game.Game {
	t.Helper()
	board := rules.NewGame(rules.Geometry7)
	if pos != "" {
		p, err := notation.ParsePosition(pos)
		if err != nil {
			t.Fatal(err)
		}
		board = rules.NewGameFrom(p)
	}
	return game.New(board, opts)
}

// move parses text in the current position.
func move(t *testing.T, g *game.Game, text string) rules.Move {
	t.Helper()
	p := g.Rules().Position()
	m, err := notation.ParseMove(&p, text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// play plays the texts for the players to move, which must succeed.
func play(t *testing.T, g *game.Game, texts ...string) {
	t.Helper()
	for _, text := range texts {
		if err := g.Play(g.Side(), move(t, g, text)); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
}

// Every ending of RULES 6, on the board and off it, with what ends the
// game and the ending it gives.
func TestEndings(t *testing.T) {
	tests := []struct {
		name string
		pos  string
		end  func(t *testing.T, g *game.Game) error
		want game.Ending
	}{
		{"6.1 all men taken prisoner", winInOne, func(t *testing.T, g *game.Game) error {
			return g.Play(rules.White, move(t, g, "d4xb6xd8xf6xd4xb6"))
		}, game.Ending{rules.WhiteWins, game.NoMen}},
		{"6.2 no legal move", blocked, func(*testing.T, *game.Game) error { return nil },
			game.Ending{rules.Draw, game.NoMove}},
		{"6.3 threefold repetition", walkers, func(t *testing.T, g *game.Game) error {
			play(t, g, cycle...)
			return nil
		}, game.Ending{rules.Draw, game.Repetition}},
		{"resignation on the opponent's turn", "", func(t *testing.T, g *game.Game) error {
			return g.Resign(rules.Black)
		}, game.Ending{rules.WhiteWins, game.Resignation}},
		{"agreement", "", func(t *testing.T, g *game.Game) error {
			if err := g.OfferDraw(rules.White); err != nil {
				return err
			}
			return g.AcceptDraw(rules.Black)
		}, game.Ending{rules.Draw, game.Agreement}},
		{"adjudication", walkers, func(t *testing.T, g *game.Game) error {
			return g.End(game.Outside(rules.Draw))
		}, game.Ending{rules.Draw, game.Adjudication}},
		{"abort", "", func(t *testing.T, g *game.Game) error {
			play(t, g, "a1")
			return g.Abort()
		}, game.Ending{Termination: game.Aborted}},
		{"illegal move in a match", "", func(t *testing.T, g *game.Game) error {
			return g.End(game.Loss(rules.White, game.IllegalMove))
		}, game.Ending{rules.BlackWins, game.IllegalMove}},
		{"crash in a match", "", func(t *testing.T, g *game.Game) error {
			return g.End(game.Loss(rules.Black, game.Crash))
		}, game.Ending{rules.WhiteWins, game.Crash}},
		{"a hung program's time forfeit", "", func(t *testing.T, g *game.Game) error {
			return g.End(game.Loss(rules.White, game.TimeForfeit))
		}, game.Ending{rules.BlackWins, game.TimeForfeit}},
		{"abandoned by the player to move", "", func(t *testing.T, g *game.Game) error {
			play(t, g, "a1", "g7")
			return g.End(game.Loss(g.Side(), game.Abandoned))
		}, game.Ending{rules.BlackWins, game.Abandoned}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := start(t, tc.pos, game.Options{})
			if err := tc.end(t, g); err != nil {
				t.Fatal(err)
			}
			if got := g.Ending(); got != tc.want || !g.Over() {
				t.Fatalf("ending %v, want %v", got, tc.want)
			}
			// Nothing more happens in a game that is over.
			var oe *game.OverError
			if err := g.Resign(rules.White); !errors.As(err, &oe) || !errors.Is(err, game.ErrOver) || oe.Ending != tc.want {
				t.Errorf("resigning after the end: %v", err)
			}
			if err := g.OfferDraw(g.Side()); !errors.Is(err, game.ErrOver) {
				t.Errorf("offering a draw after the end: %v", err)
			}
			if legal := g.Rules().Legal(); len(legal) > 0 {
				if err := g.Play(g.Side(), legal[0]); !errors.Is(err, game.ErrOver) {
					t.Errorf("a move after the end: %v", err)
				}
			}
		})
	}
}

// End takes the endings off the board only, with a result that fits.
func TestEndRefuses(t *testing.T) {
	tests := []struct {
		name string
		e    game.Ending
	}{
		{"the board's", game.Ending{rules.Draw, game.Repetition}},
		{"the board's loss", game.Loss(rules.White, game.NoMen)},
		{"a game that goes on", game.Ending{}},
		{"a drawn resignation", game.Ending{rules.Draw, game.Resignation}},
		{"a won agreement", game.Ending{rules.BlackWins, game.Agreement}},
		{"an adjudication without a result", game.Ending{Termination: game.Adjudication}},
		{"an abort with a result", game.Ending{rules.WhiteWins, game.Aborted}},
		{"an abort after both have moved", game.Ending{Termination: game.Aborted}},
		{"an abandonment drawn", game.Ending{rules.Draw, game.Abandoned}},
		{"an unknown termination", game.Ending{rules.WhiteWins, game.Abandoned + 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := start(t, "", game.Options{})
			play(t, g, "a1", "g7")
			if err := g.End(tc.e); err == nil || g.Over() {
				t.Errorf("End(%v) = %v, game over: %v", tc.e, err, g.Ending())
			}
		})
	}
}

func TestPlayRefuses(t *testing.T) {
	g := start(t, "", game.Options{})
	if err := g.Play(rules.Black, move(t, g, "a1")); !errors.Is(err, game.ErrNotYourTurn) {
		t.Errorf("Black on White's turn: %v", err)
	}
	play(t, g, "a1")
	// An entry on a1, where White's man stands.
	err := g.Play(rules.Black, rules.EntryMove(rules.Geometry7.At(0, 0)))
	if !errors.Is(err, rules.ErrIllegal) || g.Len() != 1 {
		t.Errorf("an illegal move: %v, %d moves", err, g.Len())
	}
}

// Abort is for games in which a player at least has not moved yet.
func TestAbort(t *testing.T) {
	for plies, ok := range []bool{true, true, false, false} {
		g := start(t, "", game.Options{})
		play(t, g, []string{"a1", "g7", "c1"}[:plies]...)
		if g.CanAbort() != ok {
			t.Errorf("after %d moves: CanAbort %v", plies, !ok)
		}
		err := g.Abort()
		if ok && (err != nil || g.Ending() != (game.Ending{Termination: game.Aborted})) {
			t.Errorf("after %d moves: %v, %v", plies, err, g.Ending())
		}
		if !ok && (!errors.Is(err, game.ErrTooLate) || g.Over()) {
			t.Errorf("after %d moves: %v, %v", plies, err, g.Ending())
		}
	}
}

// Undo takes back a move whatever the state: an ending goes with it.
func TestUndo(t *testing.T) {
	g := start(t, winInOne, game.Options{})
	if g.Undo() {
		t.Error("Undo at the start")
	}
	play(t, g, "d4xb6xd8xf6xd4xb6")
	if !g.Undo() || g.Over() || g.Len() != 0 || len(g.Stamps()) != 0 {
		t.Errorf("after Undo: %v, %d moves", g.Ending(), g.Len())
	}
	g = start(t, "", game.Options{})
	play(t, g, "a1")
	g.Resign(rules.Black)
	if !g.Undo() || g.Over() || g.Len() != 0 {
		t.Errorf("after undoing the move of a resigned game: %v, %d moves", g.Ending(), g.Len())
	}
}

// A game started on a board with moves counts them as played at New, and
// a board the rules have decided is over at once.
func TestNewOnPlayedBoard(t *testing.T) {
	now := newTime()
	board := rules.NewGame(rules.Geometry7)
	if err := notation.PlayMoves(board, []string{"a1", "g7"}); err != nil {
		t.Fatal(err)
	}
	g := game.New(board, game.Options{Now: now.Now})
	if len(g.Stamps()) != 2 || g.Stamps()[1].At != now.Now() || g.Over() {
		t.Errorf("stamps %v, ending %v", g.Stamps(), g.Ending())
	}
	if g := start(t, blocked, game.Options{}); g.Ending() != (game.Ending{rules.Draw, game.NoMove}) {
		t.Errorf("a blocked start: %v", g.Ending())
	}
}

func TestClone(t *testing.T) {
	g := start(t, "", game.Options{})
	play(t, g, "a1")
	c := g.Clone()
	play(t, c, "g7")
	c.Resign(rules.White)
	if g.Len() != 1 || len(g.Stamps()) != 1 || g.Over() {
		t.Errorf("the original changed with its clone: %d moves, %v", g.Len(), g.Ending())
	}
}
