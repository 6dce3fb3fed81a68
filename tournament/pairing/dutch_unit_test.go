package pairing

import (
	"errors"
	"fmt"
	"testing"
)

// TestDutchFirstRound: the upper half against the lower half, the
// colours alternating from the initial colour, the last player's bye.
func TestDutchFirstRound(t *testing.T) {
	for _, c := range []struct {
		players int
		initial Colour
		want    string
	}{
		{6, White, "[{1 4} {5 2} {3 6}]"},
		{6, Black, "[{4 1} {2 5} {6 3}]"},
		{7, White, "[{1 4} {5 2} {3 6} {7 0}]"},
	} {
		s := Swiss{Rounds: 5, FirstColour: c.initial}
		for id := 1; id <= c.players; id++ {
			s.Players = append(s.Players, Entrant{ID: id})
		}
		got, err := Dutch(s)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != c.want {
			t.Errorf("%d players, initial %d: %v, want %s", c.players, c.initial, got, c.want)
		}
	}
}

// TestDutchSecondRound works a round out by hand. After round 1 of six
// players (1-4 1-0, 5-2 ½-½, 3-6 1-0) the brackets are {1, 3}, {2, 5}
// and {4, 6}. 1 and 3 meet: both had White and want Black, equally
// (E.1, E.2), with no round in which their colours differed (E.3), so the
// higher, 1, has his preference (E.4): 3-1. 2 and 5 have met: both move
// down to {4, 6}, the higher, 2, against the higher resident, 4; both
// want White and had Black: 2, the higher, has it: 2-4. 5 had White and
// 6 Black: 6-5.
func TestDutchSecondRound(t *testing.T) {
	g := func(opp int, c Colour, pts int) []Game {
		return []Game{{Opponent: opp, Colour: c, Played: true, Points: pts, Paired: true}}
	}
	s := Swiss{Rounds: 5, FirstColour: White, Players: []Entrant{
		{ID: 1, Games: g(4, White, 2)},
		{ID: 2, Games: g(5, Black, 1)},
		{ID: 3, Games: g(6, White, 2)},
		{ID: 4, Games: g(1, Black, 0)},
		{ID: 5, Games: g(2, White, 1)},
		{ID: 6, Games: g(3, Black, 0)},
	}}
	got, err := Dutch(s)
	if err != nil {
		t.Fatal(err)
	}
	if want := "[{3 1} {2 4} {6 5}]"; fmt.Sprint(got) != want {
		t.Errorf("round 2: %v, want %s", got, want)
	}
}

// TestDutchByeOnce: of three players, the two who had a win's points
// without playing (the bye, a forfeit won) cannot have the bye (C.2).
func TestDutchByeOnce(t *testing.T) {
	s := Swiss{Rounds: 3, Players: []Entrant{
		{ID: 1, Games: []Game{{Points: 2, NoMoreBye: true, Paired: true}}},
		{ID: 2, Games: []Game{{Opponent: 3, Points: 2, NoMoreBye: true, Paired: true}}},
		{ID: 3, Games: []Game{{Opponent: 2, Paired: true}}},
	}}
	got, err := Dutch(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1] != (Pair{3, 0}) {
		t.Errorf("%v: the bye is not 3's", got)
	}
}

func TestDutchRefuses(t *testing.T) {
	met := []Game{{Opponent: 2, Colour: White, Played: true, Points: 2, Paired: true}}
	metToo := []Game{{Opponent: 1, Colour: Black, Played: true, Points: 0, Paired: true}}
	for name, c := range map[string]struct {
		s    Swiss
		want error
	}{
		"the only two have met": {Swiss{Rounds: 3, Players: []Entrant{{ID: 1, Games: met}, {ID: 2, Games: metToo}}}, ErrNoPairing},
		"one player":            {Swiss{Rounds: 3, Players: []Entrant{{ID: 1}}}, ErrNoPairing},
		"three, none of whom may have the bye": {Swiss{Rounds: 3, Players: []Entrant{
			{ID: 1, Games: []Game{{Points: 2, NoMoreBye: true, Paired: true}}},
			{ID: 2, Games: []Game{{Points: 2, NoMoreBye: true, Paired: true}}},
			{ID: 3, Games: []Game{{Points: 2, NoMoreBye: true, Paired: true}}},
		}}, ErrNoPairing},
	} {
		_, err := Dutch(c.s)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
	if _, err := Dutch(Swiss{Players: []Entrant{{ID: 1}, {ID: 1}}}); err == nil {
		t.Error("a start number twice: no error")
	}
}

// TestDutchTooLarge: criteria that do not fit the weights are refused,
// not paired wrongly.
func TestDutchTooLarge(t *testing.T) {
	var s Swiss
	for id := 1; id <= 1200; id++ {
		s.Players = append(s.Players, Entrant{ID: id, Games: []Game{{Points: id}}})
	}
	if _, err := Dutch(s); !errors.Is(err, ErrTooLarge) {
		t.Errorf("1,200 score groups: %v, want ErrTooLarge", err)
	}
}
