package tiebreak

import (
	"reflect"
	"testing"
)

// game returns both players' rounds of a game played: a scored pa.
func game(a, b int, pa float64) (Round, Round) {
	return Round{Opponent: b, Points: pa, Played: true}, Round{Opponent: a, Points: 1 - pa, Played: true}
}

// build makes the players 1..n from rounds of (player, round) pairs.
func build(n int, rounds ...map[int]Round) []Player {
	ps := make([]Player, n)
	for i := range ps {
		ps[i].ID = i + 1
	}
	for _, r := range rounds {
		for id := 1; id <= n; id++ {
			ps[id-1].Rounds = append(ps[id-1].Rounds, r[id])
		}
	}
	return ps
}

func round(games ...[3]float64) map[int]Round {
	m := map[int]Round{}
	for _, g := range games {
		a, b := int(g[0]), int(g[1])
		m[a], m[b] = game(a, b, g[2])
	}
	return m
}

// TestWorkedSwiss is a worked example written out by hand for this test:
// a Swiss of six players and three rounds, every game played.
//
//	round 1: 1-4 1-0, 2-5 ½-½, 3-6 1-0
//	round 2: 1-3 1-0, 2-6 1-0, 4-5 ½-½
//	round 3: 1-2 ½-½, 3-5 1-0, 4-6 0-1
//
// Points: 1 2½, 2 2, 3 2, 4 ½, 5 1, 6 1.
// Buchholz, the opponents' points: player 1 met 4, 3 and 2: ½+2+2 = 4.5;
// player 2 met 5, 6, 1: 1+1+2½ = 4.5; player 3 met 6, 1, 5: 1+2½+1 =
// 4.5; player 4 met 1, 5, 6: 2½+1+1 = 4.5; 5 met 2, 4, 3: 2+½+2 = 4.5;
// 6 met 3, 2, 4: 2+2+½ = 4.5. Cut 1 takes the least away: 4, 3.5, 3.5,
// 3.5, 4, 4. Sonneborn-Berger, each opponent's points times the points
// scored against him: player 1: 1×½ + 1×2 + ½×2 = 3.5; player 2: ½×1 +
// 1×1 + ½×2½ = 2.75; player 3: 1×1 + 0 + 1×1 = 2; player 4: ½×1 = 0.5;
// player 5: ½×2 + ½×½ = 1.25; player 6: 1×½ = 0.5.
// Players 2 and 3 tie on 2 points and on Buchholz and its cut;
// Sonneborn-Berger puts 2 first, the number of wins 3 (2 against 1).
// They did not meet: no direct encounter.
func TestWorkedSwiss(t *testing.T) {
	ps := build(6,
		round([3]float64{1, 4, 1}, [3]float64{2, 5, 0.5}, [3]float64{3, 6, 1}),
		round([3]float64{1, 3, 1}, [3]float64{2, 6, 1}, [3]float64{4, 5, 0.5}),
		round([3]float64{1, 2, 0.5}, [3]float64{3, 5, 1}, [3]float64{4, 6, 0}),
	)
	want := []Scores{
		{ID: 1, Points: 2.5, Buchholz: 4.5, BuchholzCut1: 4, SonnebornBerger: 3.5, Wins: 2, WinsPlayed: 2},
		{ID: 2, Points: 2, Buchholz: 4.5, BuchholzCut1: 3.5, SonnebornBerger: 2.75, Wins: 1, WinsPlayed: 1},
		{ID: 3, Points: 2, Buchholz: 4.5, BuchholzCut1: 3.5, SonnebornBerger: 2, Wins: 2, WinsPlayed: 2},
		{ID: 4, Points: 0.5, Buchholz: 4.5, BuchholzCut1: 3.5, SonnebornBerger: 0.5},
		{ID: 5, Points: 1, Buchholz: 4.5, BuchholzCut1: 4, SonnebornBerger: 1.25},
		{ID: 6, Points: 1, Buchholz: 4.5, BuchholzCut1: 4, SonnebornBerger: 0.5, Wins: 1, WinsPlayed: 1},
	}
	got := Compute(ps)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Compute:\n got %+v\nwant %+v", got, want)
	}
	for _, c := range []struct {
		order []Kind
		want  []int
	}{
		{[]Kind{Buchholz, BuchholzCut1, SonnebornBerger}, []int{1, 2, 3, 5, 6, 4}},
		{[]Kind{Buchholz, Wins}, []int{1, 3, 2, 6, 5, 4}},
		{[]Kind{DirectEncounter}, []int{1, 2, 3, 5, 6, 4}},
	} {
		var ids []int
		for _, s := range Rank(got, c.order) {
			ids = append(ids, s.ID)
		}
		if !reflect.DeepEqual(ids, c.want) {
			t.Errorf("Rank by %v: %v, want %v", c.order, ids, c.want)
		}
	}
}

// TestWorkedUnplayed is a second example written out by hand: five
// players, three rounds, with the pairing-allocated bye, a forfeit and a
// half-point bye.
//
//	round 1: 1-2 1-0, 3-4 ½-½, 5 the pairing-allocated bye (1)
//	round 2: 1-3 0-1, 5-2 1-0 by forfeit (2 absent), 4 the bye (1)
//	round 3: 4-1 0-1, 3-5 ½-½, 2 a half-point bye he asked for
//
// Points: 1 2, 2 ½, 3 2, 4 1½, 5 2½. In his opponents' Buchholz player
// 2's voluntary unplayed rounds (the forfeit lost, the half-point bye)
// count as draws: 1. Buchholz: player 1 met 2, 3, 4: 1+2+1½ = 4.5;
// player 2 met 1 (2) and has two unplayed rounds at his own ½: 3;
// player 3 met 4, 1, 5: 1½+2+2½ = 6; player 4 met 3 (2) and 1 (2), and
// the bye at his own 1½: 5.5; player 5 has two unplayed rounds at his
// own 2½ and met 3 (2): 7. Cut 1: 1 cuts 1: 3.5; 2 cuts a voluntary
// unplayed round first: 2.5; 3 cuts 1½: 4.5; 4 cuts 1½: 4; 5 has no
// voluntary unplayed round and cuts 2: 5. Sonneborn-Berger: player 1:
// 1×½ + 0 + 1×1½ = 2; player 2: ½×½ (the half-point bye against his own
// score) = 0.25; player 3: ½×1½ + 1×2 + ½×2½ = 4; player 4: ½×2 + 1×1½
// (the bye) = 2.5; player 5: 1×2½ + 1×2½ + ½×2 = 6. Players 1 and 3 tie
// on 2 points; 3 won their game: direct encounter 1 to 0.
func TestWorkedUnplayed(t *testing.T) {
	bye := Round{Points: 1}
	r1 := round([3]float64{1, 2, 1}, [3]float64{3, 4, 0.5})
	r1[5] = bye
	r2 := round([3]float64{1, 3, 0})
	r2[5] = Round{Opponent: 2, Points: 1}
	r2[2] = Round{Opponent: 5, Points: 0, Voluntary: true}
	r2[4] = bye
	r3 := round([3]float64{4, 1, 0}, [3]float64{3, 5, 0.5})
	r3[2] = Round{Points: 0.5, Voluntary: true}
	got := Compute(build(5, r1, r2, r3))
	want := []Scores{
		{ID: 1, Points: 2, Buchholz: 4.5, BuchholzCut1: 3.5, SonnebornBerger: 2, Wins: 2, WinsPlayed: 2},
		{ID: 2, Points: 0.5, Buchholz: 3, BuchholzCut1: 2.5, SonnebornBerger: 0.25},
		{ID: 3, Points: 2, Buchholz: 6, BuchholzCut1: 4.5, SonnebornBerger: 4, DirectEncounter: 1, Wins: 1, WinsPlayed: 1},
		{ID: 4, Points: 1.5, Buchholz: 5.5, BuchholzCut1: 4, SonnebornBerger: 2.5, Wins: 1},
		{ID: 5, Points: 2.5, Buchholz: 7, BuchholzCut1: 5, SonnebornBerger: 6, Wins: 2},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Compute:\n got %+v\nwant %+v", got, want)
	}
	var ids []int
	for _, s := range Rank(got, []Kind{DirectEncounter, Buchholz}) {
		ids = append(ids, s.ID)
	}
	if want := []int{5, 3, 1, 4, 2}; !reflect.DeepEqual(ids, want) {
		t.Errorf("Rank: %v, want %v", ids, want)
	}
}
