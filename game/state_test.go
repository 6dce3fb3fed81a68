package game_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"emergo/game"
	"emergo/notation"
	"emergo/rules"
)

// A game restored from its State is the same game: same state, and it
// goes on the same way.
func TestStateRoundTrip(t *testing.T) {
	now := newTime()
	c := game.Control{Time: 60 * s, Increment: 5 * s}
	opts := game.Options{Now: now.Now, Control: [2]game.Control{c, c}}
	tests := []struct {
		name string
		do   func(g *game.Game)
	}{
		{"new", func(g *game.Game) {}},
		{"started", func(g *game.Game) { g.Start() }},
		{"moves and offers", func(g *game.Game) {
			g.Start()
			play(t, g, "a1")
			now.pass(3 * s)
			play(t, g, "g7")
			g.OfferDraw(white)
			g.RequestTakeBack(black)
		}},
		{"paused", func(g *game.Game) {
			g.Start()
			play(t, g, "a1")
			now.pass(s)
			g.Pause()
		}},
		{"resigned", func(g *game.Game) {
			g.Start()
			play(t, g, "a1")
			g.Resign(white)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := start(t, "", opts)
			tc.do(g)
			now.pass(2 * s)
			st := g.State()
			r, err := game.Restore(st, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.State(); !reflect.DeepEqual(got, st) {
				t.Errorf("restored\n%+v\nwant\n%+v", got, st)
			}
			if r.Left(white) != g.Left(white) || r.Left(black) != g.Left(black) {
				t.Errorf("clocks %v %v, want %v %v", r.Left(white), r.Left(black), g.Left(white), g.Left(black))
			}
			if !g.Over() {
				now.pass(s)
				play(t, g, "c1")
				play(t, r, "c1")
				if !reflect.DeepEqual(g.State(), r.State()) {
					t.Errorf("the games went apart: %+v and %+v", g.State(), r.State())
				}
			}
		})
	}
}

// Restore replays the move texts and names the first that fails by its
// index.
func TestRestoreErrors(t *testing.T) {
	start7 := rules.NewPosition(rules.Geometry7)
	walk, err := notation.ParsePosition(walkers)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		state game.State
		index int // of the move at fault, or -1
	}{
		{"illegal move", game.State{Start: start7, Moves: []string{"a1", "g7", "a1"}}, 2},
		{"not a move", game.State{Start: start7, Moves: []string{"a1", "z9"}}, 1},
		{"after the end", game.State{Start: walk, Moves: append(append([]string(nil), cycle...), "g7-f6")}, len(cycle)},
		{"stamps", game.State{Start: start7, Moves: []string{"a1"}, Stamps: make([]game.Stamp, 2)}, -1},
		{"no start", game.State{Moves: []string{"a1"}}, -1},
		{"the board's ending claimed", game.State{Start: start7, Ending: game.Ending{rules.Draw, game.Repetition}}, -1},
		{"a result that does not fit", game.State{Start: start7, Ending: game.Ending{rules.Draw, game.Resignation}}, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := game.Restore(tc.state, game.Options{})
			var me *notation.MovesError
			switch {
			case err == nil:
				t.Fatal("no error")
			case tc.index >= 0 && (!errors.As(err, &me) || me.Index != tc.index):
				t.Errorf("%v, want the move at %d", err, tc.index)
			}
			t.Log(err)
		})
	}
}

// Where the board decides, its ending stands, whatever the state says.
func TestRestoreBoardEnding(t *testing.T) {
	walk, _ := notation.ParsePosition(walkers)
	g, err := game.Restore(game.State{Start: walk, Moves: cycle, Ending: game.Outside(rules.Draw), DrawOffer: game.Offer{Open: true}}, game.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Ending() != (game.Ending{rules.Draw, game.Repetition}) || g.DrawOffer().Open {
		t.Errorf("ending %v, offer %+v", g.Ending(), g.DrawOffer())
	}
	// Without stamps every move is at the turn's start.
	at := time.Unix(1e9, 0)
	g, err = game.Restore(game.State{Start: walk, Moves: cycle[:2], TurnStart: at}, game.Options{})
	if err != nil || len(g.Stamps()) != 2 || g.Stamps()[1].At != at {
		t.Errorf("stamps %v, %v", g.Stamps(), err)
	}
}

// The stamps of a restored game are its state's, whether the first are
// equal (as a record's moves are, all at one time, which the game keeps
// once) or not, through moves and take-backs across the equal ones.
func TestRestoreStamps(t *testing.T) {
	walk, _ := notation.ParsePosition(walkers)
	t0 := time.Unix(1e9, 0).UTC()
	var stamps []game.Stamp
	for i := range 6 {
		at := t0
		if i >= 3 {
			at = t0.Add(time.Duration(i) * time.Second)
		}
		stamps = append(stamps, game.Stamp{At: at, Left: [2]time.Duration{time.Duration(i), 0}})
	}
	stamps[1].Left, stamps[2].Left = stamps[0].Left, stamps[0].Left
	now := newTime()
	g, err := game.Restore(game.State{Start: walk, Moves: cycle[:6], Stamps: stamps, TurnStart: t0}, game.Options{Now: now.Now})
	if err != nil {
		t.Fatal(err)
	}
	if got := g.State().Stamps; !reflect.DeepEqual(got, stamps) {
		t.Fatalf("stamps %v, want %v", got, stamps)
	}
	play(t, g, cycle[6])
	want := append(stamps, game.Stamp{At: now.Now()})
	for n := 7; n >= 0; n-- {
		if got := g.Stamps(); len(got) != n || n > 0 && !reflect.DeepEqual(got, want[:n]) {
			t.Fatalf("%d moves: stamps %v, want %v", n, got, want[:n])
		}
		g.Undo()
	}
}
