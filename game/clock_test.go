package game_test

import (
	"errors"
	"testing"
	"time"

	"emergo/game"
	"emergo/rules"
)

const s = time.Second

// fischer returns a game on the empty 7x7 board with the clock c for both
// players, started.
func fischer(t *testing.T, now *fakeTime, c game.Control, opts game.Options) *game.Game {
	t.Helper()
	opts.Now, opts.Control = now.Now, [2]game.Control{c, c}
	g := start(t, "", opts)
	g.Start()
	return g
}

// wantLeft checks both players' time now.
func wantLeft(t *testing.T, g *game.Game, white, black time.Duration) {
	t.Helper()
	if w, b := g.Left(rules.White), g.Left(rules.Black); w != white || b != black {
		t.Errorf("clocks %v %v, want %v %v", w, b, white, black)
	}
}

// The mover is charged for his time and gets his increment; the clock of
// the player to move runs, the other's stands.
func TestClockIncrement(t *testing.T) {
	now := newTime()
	g := fischer(t, now, game.Control{Time: 60 * s, Increment: 5 * s}, game.Options{})
	wantLeft(t, g, 60*s, 60*s)
	now.pass(10 * s)
	wantLeft(t, g, 50*s, 60*s)
	play(t, g, "a1")
	wantLeft(t, g, 55*s, 60*s)
	if side, ok := g.Running(); !ok || side != rules.Black || g.TurnStart() != now.Now() {
		t.Errorf("running %v %v since %v", side, ok, g.TurnStart())
	}
	now.pass(3 * s)
	wantLeft(t, g, 55*s, 57*s)
	play(t, g, "g7")
	wantLeft(t, g, 55*s, 62*s)
	st := g.Stamps()
	if len(st) != 2 || st[0].Left != [2]time.Duration{55 * s, 60 * s} || st[1].Left != [2]time.Duration{55 * s, 62 * s} || st[1].At != now.Now() {
		t.Errorf("stamps %+v", st)
	}
}

// The flag falls when the time is gone: a move then fails and Flag ends
// the game, the loser's clock at zero.
func TestClockFlag(t *testing.T) {
	now := newTime()
	g := fischer(t, now, game.Control{Time: 10 * s, Increment: 1 * s}, game.Options{})
	play(t, g, "a1")
	if d, ok := g.Deadline(); !ok || d != now.Now().Add(10*s) {
		t.Errorf("deadline %v %v, want in 10s", d, ok)
	}
	now.pass(10*s - 1)
	if g.Flag() {
		t.Fatal("the flag fell with time left")
	}
	now.pass(1)
	if err := g.Play(rules.Black, move(t, g, "g7")); !errors.Is(err, game.ErrTimeOut) || g.Len() != 1 || g.Over() {
		t.Fatalf("a move after the flag fell: %v, %d moves, %v", err, g.Len(), g.Ending())
	}
	if !g.Flag() || g.Ending() != game.Loss(rules.Black, game.TimeForfeit) {
		t.Fatalf("Flag: %v", g.Ending())
	}
	now.pass(time.Hour)
	wantLeft(t, g, 11*s, 0)
	if _, ok := g.Running(); ok || g.Flag() {
		t.Error("the clock runs after the end")
	}
	if _, ok := g.Deadline(); ok {
		t.Error("a deadline after the end")
	}
}

// A grace lets a player overrun by less than it: his clock stands at
// zero before the increment.
func TestClockGrace(t *testing.T) {
	now := newTime()
	g := fischer(t, now, game.Control{Time: 10 * s, Increment: 2 * s}, game.Options{Grace: s})
	now.pass(10*s + 500*time.Millisecond)
	play(t, g, "a1")
	wantLeft(t, g, 2*s, 10*s)
	if d, _ := g.Deadline(); d != now.Now().Add(11*s) {
		t.Errorf("deadline %s after now, want 11s", d.Sub(now.Now()))
	}
	now.pass(11 * s)
	if !g.Flag() {
		t.Error("no flag at the end of the grace")
	}
}

// A time per move is given anew every turn, and overrunning it loses.
func TestClockMoveTime(t *testing.T) {
	now := newTime()
	g := fischer(t, now, game.Control{MoveTime: 2 * s}, game.Options{})
	now.pass(1500 * time.Millisecond)
	wantLeft(t, g, 500*time.Millisecond, 2*s)
	play(t, g, "a1")
	wantLeft(t, g, 2*s, 2*s)
	now.pass(2 * s)
	if !g.Flag() || g.Ending() != game.Loss(rules.Black, game.TimeForfeit) {
		t.Errorf("after 2s on a move: %v", g.Ending())
	}
}

// Each colour has its own control; a player without one never loses on
// time.
func TestClockOneSided(t *testing.T) {
	now := newTime()
	g := start(t, "", game.Options{Now: now.Now, Control: [2]game.Control{{}, {Time: 5 * s}}})
	g.Start()
	if _, ok := g.Running(); ok {
		t.Error("White's clock runs without a control")
	}
	now.pass(time.Hour)
	if g.Flag() {
		t.Error("White lost on time without a control")
	}
	play(t, g, "a1")
	now.pass(5 * s)
	if !g.Flag() {
		t.Error("Black's flag did not fall")
	}
}

// Pause stops the clock, the time so far charged; Start resumes it.
func TestClockPause(t *testing.T) {
	now := newTime()
	g := fischer(t, now, game.Control{Time: 60 * s}, game.Options{})
	now.pass(10 * s)
	g.Pause()
	now.pass(time.Hour)
	wantLeft(t, g, 50*s, 60*s)
	if _, ok := g.Running(); ok || g.Flag() {
		t.Error("the paused clock runs")
	}
	g.Start()
	now.pass(5 * s)
	wantLeft(t, g, 45*s, 60*s)
	g.Start() // running already: nothing changes
	wantLeft(t, g, 45*s, 60*s)
}

// Before Start nothing is charged: the clock of an invitation waits for
// both players.
func TestClockNotStarted(t *testing.T) {
	now := newTime()
	g := start(t, "", game.Options{Now: now.Now, Control: [2]game.Control{{Time: 60 * s, Increment: 5 * s}, {Time: 60 * s, Increment: 5 * s}}})
	now.pass(time.Hour)
	if _, ok := g.Running(); ok || g.Flag() {
		t.Error("the clock runs before Start")
	}
	g.Start()
	if g.TurnStart() != now.Now() {
		t.Errorf("the turn began %s ago", now.since(g.TurnStart()))
	}
	now.pass(s)
	wantLeft(t, g, 59*s, 60*s)
}

// With ClockAfterFirstMove each player's first move is free: his clock
// runs from his second turn, and no increment comes before.
func TestClockAfterFirstMove(t *testing.T) {
	now := newTime()
	g := fischer(t, now, game.Control{Time: 60 * s, Increment: 5 * s}, game.Options{ClockStart: game.ClockAfterFirstMove})
	now.pass(time.Hour)
	if _, ok := g.Running(); ok || g.Flag() {
		t.Fatal("White's clock runs before his first move")
	}
	play(t, g, "a1")
	now.pass(time.Hour)
	if _, ok := g.Running(); ok {
		t.Fatal("Black's clock runs before his first move")
	}
	play(t, g, "g7")
	wantLeft(t, g, 60*s, 60*s)
	now.pass(10 * s)
	play(t, g, "c1")
	wantLeft(t, g, 55*s, 60*s)
	if side, ok := g.Running(); !ok || side != rules.Black {
		t.Error("Black's clock does not run on his second turn")
	}
}

// An ending stops the clock with the time so far charged.
func TestClockStopsAtTheEnd(t *testing.T) {
	now := newTime()
	g := fischer(t, now, game.Control{Time: 60 * s}, game.Options{})
	now.pass(7 * s)
	g.Resign(rules.Black)
	now.pass(time.Hour)
	wantLeft(t, g, 53*s, 60*s)
}

// A take-back leaves every clock as it is now, and the turn of the
// player to move begins again.
func TestClockTakeBack(t *testing.T) {
	now := newTime()
	g := fischer(t, now, game.Control{Time: 60 * s, Increment: 2 * s}, game.Options{})
	now.pass(10 * s)
	play(t, g, "a1")
	now.pass(4 * s)
	if err := g.TakeBack(rules.White); err != nil {
		t.Fatal(err)
	}
	wantLeft(t, g, 52*s, 56*s)
	if g.TurnStart() != now.Now() || g.Side() != rules.White || len(g.Stamps()) != 0 {
		t.Errorf("after the take-back: %s to move since %s ago, %d stamps", g.Side(), now.since(g.TurnStart()), len(g.Stamps()))
	}
}

// New refuses a clock without a time to read: the game could not run it.
func TestClockNeedsNow(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	start(t, "", game.Options{Control: [2]game.Control{{Time: s}, {Time: s}}})
}

func TestControlString(t *testing.T) {
	tests := []struct {
		c    game.Control
		want string
	}{
		{game.Control{}, "none"},
		{game.Control{MoveTime: 100 * time.Millisecond}, "100ms/move"},
		{game.Control{Time: 10 * s, Increment: 100 * time.Millisecond}, "10s+100ms"},
		{game.Control{Time: 5 * time.Minute}, "5m0s+0s"},
	}
	for _, tc := range tests {
		if got := tc.c.String(); got != tc.want || tc.c.None() != (tc.want == "none") {
			t.Errorf("%#v: %q, want %q", tc.c, got, tc.want)
		}
	}
}
