package trf

import "emergo/tournament/pairing"

// NextRound returns the round the file's next pairing is of: one after
// the last round in which anyone was paired (a game, a forfeit, the
// pairing-allocated bye). The byes already written for that round (H, F,
// Z, or an absence) are the players not to pair.
func (t *Tournament) NextRound() int {
	paired := 0
	for _, p := range t.Players {
		for i, r := range p.Rounds {
			if r.Opponent > 0 || r.Result == PairingBye {
				paired = max(paired, i+1)
			}
		}
	}
	return paired + 1
}

// Swiss returns the tournament as package pairing pairs its next round
// (NextRound): every player's rounds before it, and as absent the players
// whose line already gives that round (a bye asked for, an absence).
func (t *Tournament) Swiss() pairing.Swiss {
	next := t.NextRound()
	s := pairing.Swiss{Rounds: t.Rounds}
	switch t.FirstColourOf() {
	case White:
		s.FirstColour = pairing.White
	case Black:
		s.FirstColour = pairing.Black
	}
	for _, p := range t.Players {
		e := pairing.Entrant{ID: p.ID, Absent: len(p.Rounds) >= next && p.Rounds[next-1].Result != NotPlayed}
		for i := 0; i < next-1; i++ {
			var r Round
			if i < len(p.Rounds) {
				r = p.Rounds[i]
			}
			g := pairing.Game{Opponent: r.Opponent, Played: r.Played(), Points: r.Points(),
				Paired: r.Opponent > 0 || r.Result == PairingBye}
			if g.Played {
				g.Colour = pairing.White
				if r.Colour == Black {
					g.Colour = pairing.Black
				}
			}
			switch r.Result {
			case PairingBye, FullPointBye, ForfeitWin:
				g.NoMoreBye = true
			}
			e.Games = append(e.Games, g)
		}
		s.Players = append(s.Players, e)
	}
	return s
}
