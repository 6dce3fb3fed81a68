package trf

import (
	"reflect"
	"testing"

	"emergo/tournament/pairing"
)

// TestSwiss reads the small tournament as the Dutch system's input for
// its round 3 (the round taken back but for player 1's half-point bye,
// which makes him absent): the forfeits are not games played, and a
// forfeit won or the pairing-allocated bye ends a player's right to the
// bye.
func TestSwiss(t *testing.T) {
	tour := read(t, small)
	if r := tour.NextRound(); r != 4 {
		t.Fatalf("NextRound = %d, want 4 (round 3 has a game: 2-4)", r)
	}
	// Round 3 is paired already; take it back but for player 1's bye.
	for _, id := range []int{2, 4} {
		p := tour.Player(id)
		p.Rounds = p.Rounds[:2]
	}
	if r := tour.NextRound(); r != 3 {
		t.Fatalf("NextRound = %d, want 3", r)
	}
	s := tour.Swiss()
	if s.Rounds != 5 || s.FirstColour != pairing.Black {
		t.Errorf("rounds %d, first colour %d", s.Rounds, s.FirstColour)
	}
	want := []pairing.Entrant{
		{ID: 1, Absent: true, Games: []pairing.Game{
			{Opponent: 2, Colour: pairing.White, Played: true, Points: 2, Paired: true},
			{Opponent: 3, Colour: pairing.Black, Played: true, Points: 1, Paired: true},
		}},
		{ID: 2, Games: []pairing.Game{
			{Opponent: 1, Colour: pairing.Black, Played: true, Points: 0, Paired: true},
			{Points: 2, Paired: true, NoMoreBye: true},
		}},
		{ID: 3, Games: []pairing.Game{
			{Opponent: 4, Points: 2, Paired: true, NoMoreBye: true},
			{Opponent: 1, Colour: pairing.White, Played: true, Points: 1, Paired: true},
		}},
		{ID: 4, Games: []pairing.Game{
			{Opponent: 3, Points: 0, Paired: true},
			{Points: 0},
		}},
	}
	if !reflect.DeepEqual(s.Players, want) {
		t.Errorf("players:\n got %+v\nwant %+v", s.Players, want)
	}
	pairs, err := pairing.Dutch(s)
	if err != nil {
		t.Fatal(err)
	}
	// 2 and 3 may not have the bye again; 4 has it. 2 had Black, 3
	// White: 2-3.
	if want := []pairing.Pair{{White: 2, Black: 3}, {White: 4}}; !reflect.DeepEqual(pairs, want) {
		t.Errorf("round 3: %v, want %v", pairs, want)
	}
}
