package game_test

import (
	"errors"
	"testing"
	"time"

	"emergo/game"
	"emergo/rules"
)

func TestDaysPerMove(t *testing.T) {
	tests := []struct {
		name string
		days int
		ok   bool
	}{
		{"one day", 1, true},
		{"two days", 2, true},
		{"three days", 3, true},
		{"a week", 7, true},
		{"two weeks", 14, true},
		{"none", 0, false},
		{"negative", -3, false},
		{"between the choices", 4, false},
		{"a month", 30, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := game.DaysPerMove(tc.days)
			if (err == nil) != tc.ok {
				t.Fatalf("DaysPerMove(%d): %v, want ok %v", tc.days, err, tc.ok)
			}
			if tc.ok && (c.Days != tc.days || !c.Correspondence() || c.None()) {
				t.Errorf("DaysPerMove(%d) = %+v", tc.days, c)
			}
		})
	}
}

func TestCorrespondenceString(t *testing.T) {
	for days, want := range map[int]string{1: "1 day/move", 3: "3 days/move", 14: "14 days/move"} {
		if got := (game.Control{Days: days}).String(); got != want {
			t.Errorf("%d days: %q, want %q", days, got, want)
		}
	}
}

// correspondence returns a started game on the empty 7x7 board with days
// per move for both players.
func correspondence(t *testing.T, now *fakeTime, days int, opts game.Options) *game.Game {
	t.Helper()
	c, err := game.DaysPerMove(days)
	if err != nil {
		t.Fatal(err)
	}
	return fischer(t, now, c, opts)
}

// wantDeadline checks that the player to move must move by at.
func wantDeadline(t *testing.T, g *game.Game, at time.Time) {
	t.Helper()
	if d, ok := g.Deadline(); !ok || !d.Equal(at) {
		t.Errorf("deadline %v (%v), want %v", d, ok, at)
	}
}

// Each turn has the days anew from its start: time saved on one move is
// not carried to the next, and the deadline is the turn's start plus the
// days.
func TestCorrespondenceDeadline(t *testing.T) {
	now := newTime()
	g := correspondence(t, now, 3, game.Options{})
	wantDeadline(t, g, now.Now().Add(3*game.Day))
	now.pass(game.Day)
	wantLeft(t, g, 2*game.Day, 3*game.Day)
	play(t, g, "a1")
	wantDeadline(t, g, now.Now().Add(3*game.Day))
	wantLeft(t, g, 3*game.Day, 3*game.Day)
	now.pass(3*game.Day - time.Millisecond)
	if g.Flag() {
		t.Fatal("the flag fell before the deadline")
	}
	play(t, g, "g7")
	wantLeft(t, g, 3*game.Day, 3*game.Day)
	wantDeadline(t, g, now.Now().Add(3*game.Day))
	if st := g.Stamps(); st[1].Left != [2]time.Duration{3 * game.Day, 3 * game.Day} {
		t.Errorf("stamp after Black's move: %v", st[1].Left)
	}
}

// When the deadline passes the mover has lost on time: a move then fails
// and Flag ends the game.
func TestCorrespondenceForfeit(t *testing.T) {
	now := newTime()
	g := correspondence(t, now, 1, game.Options{})
	play(t, g, "a1")
	now.pass(game.Day)
	if err := g.Play(rules.Black, move(t, g, "g7")); !errors.Is(err, game.ErrTimeOut) {
		t.Fatalf("a move after the deadline: %v", err)
	}
	if !g.Flag() || g.Ending() != game.Loss(rules.Black, game.TimeForfeit) {
		t.Fatalf("after the deadline: %v", g.Ending())
	}
	if _, ok := g.Deadline(); ok {
		t.Error("a deadline after the end")
	}
}

// A correspondence control counts the first turn too, even when the clock
// starts only after each player's first move: a game whose first move
// never comes must end.
func TestCorrespondenceFirstMove(t *testing.T) {
	now := newTime()
	g := correspondence(t, now, 2, game.Options{ClockStart: game.ClockAfterFirstMove})
	wantDeadline(t, g, now.Now().Add(2*game.Day))
	now.pass(2 * game.Day)
	if !g.Flag() || g.Ending() != game.Loss(rules.White, game.TimeForfeit) {
		t.Errorf("White never moved: %v", g.Ending())
	}
}

// The deadline is not running until Start: an invitation waits for the
// friend, and the first turn begins when both are there.
func TestCorrespondenceWaitsForStart(t *testing.T) {
	now := newTime()
	g := start(t, "", game.Options{Now: now.Now, Control: [2]game.Control{{Days: 1}, {Days: 1}}})
	now.pass(5 * game.Day)
	if _, ok := g.Deadline(); ok || g.Flag() {
		t.Fatal("a deadline before Start")
	}
	g.Start()
	wantDeadline(t, g, now.Now().Add(game.Day))
}

// A take-back begins the turn of the player to move anew, with his days.
func TestCorrespondenceTakeBack(t *testing.T) {
	now := newTime()
	g := correspondence(t, now, 7, game.Options{})
	play(t, g, "a1")
	now.pass(6 * game.Day)
	if err := g.TakeBack(rules.White); err != nil {
		t.Fatal(err)
	}
	wantDeadline(t, g, now.Now().Add(7*game.Day))
}

// A game kept and restored has the same deadline, however much later it
// is restored: the deadline is a time, not a time left.
func TestCorrespondenceRestore(t *testing.T) {
	now := newTime()
	g := correspondence(t, now, 3, game.Options{})
	now.pass(time.Hour)
	play(t, g, "a1")
	want, _ := g.Deadline()
	now.pass(2 * game.Day)
	r, err := game.Restore(g.State(), game.Options{Now: now.Now, Control: [2]game.Control{{Days: 3}, {Days: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	wantDeadline(t, r, want)
	wantLeft(t, r, 3*game.Day, game.Day)
	now.pass(game.Day)
	if !r.Flag() || r.Ending() != game.Loss(rules.Black, game.TimeForfeit) {
		t.Errorf("past the restored deadline: %v", r.Ending())
	}
}

// A postponed turn keeps the player's time, counted from its new start:
// the deadline moves by the postponement, and back when it is taken
// back; the flag does not fall at the old deadline. A move in the
// postponed turn gives the opponent his days anew.
func TestCorrespondencePostpone(t *testing.T) {
	now := newTime()
	g := correspondence(t, now, 3, game.Options{})
	play(t, g, "a1")
	begun := now.Now()
	now.pass(game.Day)
	g.Postpone(10 * game.Day)
	wantDeadline(t, g, begun.Add(13*game.Day))
	now.pass(5 * game.Day)
	if g.Flag() {
		t.Fatal("the flag fell in a postponed turn")
	}
	g.Postpone(-4 * game.Day)
	wantDeadline(t, g, begun.Add(9*game.Day))
	play(t, g, "g7")
	wantDeadline(t, g, now.Now().Add(3*game.Day))
	wantLeft(t, g, 3*game.Day, 3*game.Day)
}

// Postpone does nothing to a game whose clock does not run.
func TestPostponeWithoutClock(t *testing.T) {
	now := newTime()
	g := start(t, "", game.Options{Now: now.Now, Control: [2]game.Control{{Days: 1}, {Days: 1}}})
	g.Postpone(game.Day)
	g.Start()
	wantDeadline(t, g, now.Now().Add(game.Day))
}

// A take-back in a postponed turn charges the player nothing and gives
// him nothing: his time is his days per move, not more.
func TestPostponedTakeBack(t *testing.T) {
	now := newTime()
	g := correspondence(t, now, 3, game.Options{})
	play(t, g, "a1")
	g.Postpone(10 * game.Day)
	now.pass(game.Day)
	if err := g.TakeBack(rules.White); err != nil {
		t.Fatal(err)
	}
	wantLeft(t, g, 3*game.Day, 3*game.Day)
	wantDeadline(t, g, now.Now().Add(3*game.Day))
}
