package pairing

import "fmt"

// Berger returns round round (from 1) of FIDE's Berger table for players
// players (Handbook C.05, Annex 1), boards in the table's order.
//
// For an even number n the table turns the players 1 to n-1 around the
// last one: in round r, player n meets the player a for whom 2a = r+1
// modulo n-1, with White in the even rounds and Black in the odd ones,
// on the first board; the other boards pair a+k (White) with a-k
// (Black), k = 1 ... n/2-1, counted modulo n-1 in 1 ... n-1. An odd
// number of players is paired as one more, a dummy numbered players+1,
// and the player who meets the dummy has the bye (Black 0).
//
// A double round robin (double) plays the table twice, the second cycle
// with the colours reversed; in the first cycle its last two rounds are
// swapped, as the Handbook recommends, so that no player has the same
// colour three times running across the two cycles.
func Berger(players, round int, double bool) ([]Pair, error) {
	if players < 3 || players > 16 {
		return nil, fmt.Errorf("pairing: Berger tables are for 3 to 16 players, not %d", players)
	}
	n := players + players%2
	rounds := n - 1
	total := rounds
	if double {
		total *= 2
	}
	if round < 1 || round > total {
		return nil, fmt.Errorf("pairing: a round robin of %d players has rounds 1 to %d, not %d", players, total, round)
	}
	r, reverse := round, false
	if double {
		if r > rounds {
			r, reverse = r-rounds, true
		} else if r >= rounds-1 && rounds >= 3 {
			r = 2*rounds - 1 - r // rounds-1 <-> rounds
		}
	}
	m := n - 1
	wrap := func(x int) int { return ((x-1)%m+m)%m + 1 }
	a := (r + 1) / 2
	if r%2 == 0 {
		a = (r + n) / 2
	}
	pairs := make([]Pair, 0, n/2)
	if r%2 == 1 {
		pairs = append(pairs, Pair{a, n})
	} else {
		pairs = append(pairs, Pair{n, a})
	}
	for k := 1; k < n/2; k++ {
		pairs = append(pairs, Pair{wrap(a + k), wrap(a - k)})
	}
	for i, p := range pairs {
		if reverse {
			p.White, p.Black = p.Black, p.White
		}
		if n != players { // the dummy's opponent has the bye
			if p.White == n {
				p.White, p.Black = p.Black, 0
			} else if p.Black == n {
				p.Black = 0
			}
		}
		pairs[i] = p
	}
	return pairs, nil
}
