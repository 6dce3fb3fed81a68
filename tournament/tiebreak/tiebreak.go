// Package tiebreak computes the tie-breaks of FIDE's Handbook C.07
// (Tie-Break Regulations, 2023) that the site's tournaments show in
// their standings: Buchholz, Buchholz cut 1, Sonneborn-Berger, direct
// encounter and the number of wins; and ranks the players by points,
// then by the tie-breaks in the order the tournament chose.
//
// Unplayed rounds follow C.07 article 16: in a player's own tie-breaks
// each round he did not play over the board (a bye, a forfeit, an
// absence) counts as a game against a dummy opponent whose score is his
// own; in his opponents' Buchholz his score is adjusted, his voluntary
// unplayed rounds (byes he asked for, forfeits lost, absences) counted as
// draws; and a cut removes a voluntary unplayed round first. Points are
// in points (a win 1, a draw 0.5); every value is a multiple of 0.25,
// exact in a float64.
//
// The package is pure: it reads the rounds as data.
package tiebreak

import (
	"sort"
)

// Round is one round of a player.
type Round struct {
	// Opponent is the opponent's start number, 0 for none (a bye, an
	// absence).
	Opponent int
	// Points are the points the round gave: 1, 0.5 or 0.
	Points float64
	// Played is true of a game played over the board; a forfeit, won or
	// lost, is not.
	Played bool
	// Voluntary is true of a voluntary unplayed round: a bye the player
	// asked for (full, half or zero point), a forfeit he lost, an
	// absence; not the pairing-allocated bye nor a forfeit won.
	Voluntary bool
}

// Player is a player's rounds, round 1 first.
type Player struct {
	ID     int
	Rounds []Round
}

// Scores are a player's points and tie-breaks.
type Scores struct {
	ID              int
	Points          float64
	Buchholz        float64 // BH: the sum of the opponents' scores
	BuchholzCut1    float64 // BH-C1: Buchholz without its least value
	SonnebornBerger float64 // SB: each opponent's score times the points scored against him
	// DirectEncounter is DE: the points scored in the games between
	// the players tied with him on points, when all of them met each
	// other; 0 for all of them otherwise.
	DirectEncounter float64
	Wins            int // WIN: rounds won, played or not (forfeits, full-point byes)
	WinsPlayed      int // WON: games won over the board
}

// Compute returns every player's scores, in the order of players.
func Compute(players []Player) []Scores {
	points := map[int]float64{}
	adjusted := map[int]float64{} // the score in the opponents' Buchholz
	for _, p := range players {
		for _, r := range p.Rounds {
			points[p.ID] += r.Points
			if r.Voluntary {
				adjusted[p.ID] += 0.5
			} else {
				adjusted[p.ID] += r.Points
			}
		}
	}
	out := make([]Scores, len(players))
	for i, p := range players {
		s := Scores{ID: p.ID, Points: points[p.ID]}
		var values []float64 // each round's Buchholz value
		lowest, lowestVoluntary := -1, -1
		for k, r := range p.Rounds {
			opp := s.Points // the dummy opponent of an unplayed round
			bh := s.Points
			if r.Played {
				opp = points[r.Opponent]
				bh = adjusted[r.Opponent]
			}
			values = append(values, bh)
			s.Buchholz += bh
			s.SonnebornBerger += r.Points * opp
			if r.Points == 1 {
				s.Wins++
				if r.Played {
					s.WinsPlayed++
				}
			}
			if r.Voluntary && !r.Played && (lowestVoluntary < 0 || bh < values[lowestVoluntary]) {
				lowestVoluntary = k
			}
			if lowest < 0 || bh < values[lowest] {
				lowest = k
			}
		}
		s.BuchholzCut1 = s.Buchholz
		if lowestVoluntary >= 0 {
			s.BuchholzCut1 -= values[lowestVoluntary]
		} else if lowest >= 0 {
			s.BuchholzCut1 -= values[lowest]
		}
		out[i] = s
	}
	directEncounters(players, out)
	return out
}

// directEncounters fills DirectEncounter for each group of players tied
// on points in which everyone met everyone.
func directEncounters(players []Player, out []Scores) {
	groups := map[float64][]int{}
	for i, s := range out {
		groups[s.Points] = append(groups[s.Points], i)
	}
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		in := map[int]bool{}
		for _, i := range g {
			in[out[i].ID] = true
		}
		scored := make([]float64, len(g))
		allMet := true
		for k, i := range g {
			met := map[int]bool{}
			for _, r := range players[i].Rounds {
				if r.Played && in[r.Opponent] {
					met[r.Opponent] = true
					scored[k] += r.Points
				}
			}
			allMet = allMet && len(met) == len(g)-1
		}
		if !allMet {
			continue
		}
		for k, i := range g {
			out[i].DirectEncounter = scored[k]
		}
	}
}

// Kind is a tie-break.
type Kind int

// The tie-breaks.
const (
	Buchholz Kind = iota
	BuchholzCut1
	SonnebornBerger
	DirectEncounter
	Wins
	WinsPlayed
)

func (k Kind) of(s Scores) float64 {
	switch k {
	case Buchholz:
		return s.Buchholz
	case BuchholzCut1:
		return s.BuchholzCut1
	case SonnebornBerger:
		return s.SonnebornBerger
	case DirectEncounter:
		return s.DirectEncounter
	case Wins:
		return float64(s.Wins)
	case WinsPlayed:
		return float64(s.WinsPlayed)
	}
	return 0
}

// Rank orders scores by points, then by the tie-breaks in order, the
// higher first; players still tied keep their start numbers' order.
func Rank(scores []Scores, order []Kind) []Scores {
	out := append([]Scores(nil), scores...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Points != b.Points {
			return a.Points > b.Points
		}
		for _, k := range order {
			if x, y := k.of(a), k.of(b); x != y {
				return x > y
			}
		}
		return a.ID < b.ID
	})
	return out
}
