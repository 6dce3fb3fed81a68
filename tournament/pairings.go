package tournament

import (
	"errors"
	"sort"

	"emergo/tournament/pairing"
)

// Results of a pairing, as the API shows them.
const (
	Pending      = "*"
	WhiteWins    = "1-0"
	BlackWins    = "0-1"
	Drawn        = "1/2-1/2"
	WhiteForfeit = "-+" // White did not play: Black wins without a game
	BlackForfeit = "+-" // Black did not play
	Bye          = "bye"
)

// Pairing is a board of a round: White and Black (accounts), the game
// they play and its result. A Black of 0 is White's bye; a forfeit has
// no game.
type Pairing struct {
	Round, Board int
	White, Black int64
	Game         string
	Result       string
}

// Done reports whether the pairing has its result.
func (p Pairing) Done() bool { return p.Result != Pending }

// IsBye reports whether the pairing is White's bye.
func (p Pairing) IsBye() bool { return p.Black == 0 }

// Has reports whether user plays in p.
func (p Pairing) Has(user int64) bool { return p.White == user || (p.Black == user && user != 0) }

// Opponent is the other player of p for user, 0 for a bye.
func (p Pairing) Opponent(user int64) int64 {
	if p.White == user {
		return p.Black
	}
	return p.White
}

// halfPoints returns what p gave user in half-points: a win 2, a draw 1;
// a bye is a point in a Swiss (the pairing-allocated bye) and nothing in
// a round robin (the round a player sits out).
func (p Pairing) halfPoints(user int64, sys System) int {
	white := p.White == user
	switch p.Result {
	case WhiteWins, BlackForfeit:
		if white {
			return 2
		}
	case BlackWins, WhiteForfeit:
		if !white {
			return 2
		}
	case Drawn:
		return 1
	case Bye:
		if sys == Swiss {
			return 2
		}
	}
	return 0
}

// played reports whether p was a game played over the board.
func (p Pairing) played() bool {
	return p.Result == WhiteWins || p.Result == BlackWins || p.Result == Drawn
}

// ResultOf returns the result of a pairing whose game ended with result
// ("1-0", "0-1", "1/2-1/2", or "*" for a game aborted) after plies
// plies: an aborted game is lost by forfeit by the player who did not
// move, White if no one did.
func ResultOf(result string, plies int) string {
	switch result {
	case WhiteWins, BlackWins, Drawn:
		return result
	}
	if plies == 0 {
		return WhiteForfeit
	}
	return BlackForfeit
}

// Numbers returns each entry's start number, from 1: the players who
// entered before the start by their rating, the higher first (then by
// the time they entered), and the late entrants after them in the order
// they came. The numbers follow from the entries alone, so every server
// gives the same.
func Numbers(t *Tournament, entries []Entry) map[int64]int {
	order := append([]Entry(nil), entries...)
	late := func(e Entry) bool { return !t.Started.IsZero() && e.Joined.After(t.Started) }
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if late(a) != late(b) {
			return !late(a)
		}
		if !late(a) && a.Rating != b.Rating {
			return a.Rating > b.Rating
		}
		if !a.Joined.Equal(b.Joined) {
			return a.Joined.Before(b.Joined)
		}
		return a.User < b.User
	})
	out := map[int64]int{}
	for i, e := range order {
		out[e.User] = i + 1
	}
	return out
}

// TableRounds returns the rounds of a round robin of n players.
func TableRounds(n int, double bool) int {
	r := n - 1 + n%2
	if double {
		r *= 2
	}
	return r
}

// ErrNoRound is Next's error when no round is left to pair: the
// tournament has played its rounds, or too few players are present, or
// no pairing keeps the rules (two players cannot meet twice).
var ErrNoRound = errors.New("tournament: no round left to pair")

// Next returns the pairings of round t.Round+1 of a Swiss or a round
// robin, given its entries and the pairings so far, boards numbered from
// 1. A round robin's withdrawn player loses his remaining games by
// forfeit; a Swiss's is not paired.
func Next(t *Tournament, entries []Entry, ps []Pairing) ([]Pairing, error) {
	round := t.Round + 1
	if t.Rounds > 0 && round > t.Rounds {
		return nil, ErrNoRound
	}
	numbers := Numbers(t, entries)
	byNumber := map[int]Entry{}
	for _, e := range entries {
		byNumber[numbers[e.User]] = e
	}
	var pairs []pairing.Pair
	var err error
	switch t.System {
	case RoundRobin:
		pairs, err = pairing.Berger(len(entries), round, t.Double)
	case Swiss:
		present := 0
		for _, e := range entries {
			if !e.Withdrawn {
				present++
			}
		}
		if present < 2 {
			return nil, ErrNoRound
		}
		pairs, err = pairing.Dutch(swissOf(t, entries, ps, numbers))
		if errors.Is(err, pairing.ErrNoPairing) {
			err = ErrNoRound
		}
	default:
		return nil, errors.New("tournament: an arena has no rounds")
	}
	if err != nil {
		return nil, err
	}
	out := make([]Pairing, 0, len(pairs))
	for i, pr := range pairs {
		w := byNumber[pr.White]
		p := Pairing{Round: round, Board: i + 1, White: w.User, Result: Pending}
		if pr.Black == 0 {
			p.Result = Bye
		} else {
			b := byNumber[pr.Black]
			p.Black = b.User
			switch {
			case w.Withdrawn:
				p.Result = WhiteForfeit
			case b.Withdrawn:
				p.Result = BlackForfeit
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// swissOf is the Swiss as package pairing pairs its next round: every
// player's rounds, and the withdrawn absent.
func swissOf(t *Tournament, entries []Entry, ps []Pairing, numbers map[int64]int) pairing.Swiss {
	of := byPlayerRound(ps)
	s := pairing.Swiss{Rounds: t.Rounds, FirstColour: pairing.White}
	for _, e := range entries {
		en := pairing.Entrant{ID: numbers[e.User], Absent: e.Withdrawn}
		for r := 1; r <= t.Round; r++ {
			var g pairing.Game
			if p, ok := of[key{e.User, r}]; ok {
				g = pairing.Game{Paired: true, Points: p.halfPoints(e.User, Swiss)}
				switch {
				case p.IsBye():
					g.NoMoreBye = true
				default:
					g.Opponent = numbers[p.Opponent(e.User)]
					g.Played = p.played()
					if g.Played {
						g.Colour = pairing.White
						if p.White != e.User {
							g.Colour = pairing.Black
						}
					}
					g.NoMoreBye = !g.Played && g.Points == 2
				}
			}
			en.Games = append(en.Games, g)
		}
		s.Players = append(s.Players, en)
	}
	return s
}

type key struct {
	user  int64
	round int
}

// byPlayerRound indexes the pairings by player and round.
func byPlayerRound(ps []Pairing) map[key]Pairing {
	out := map[key]Pairing{}
	for _, p := range ps {
		out[key{p.White, p.Round}] = p
		if p.Black != 0 {
			out[key{p.Black, p.Round}] = p
		}
	}
	return out
}

// RoundDone reports whether every pairing of round has its result.
func RoundDone(ps []Pairing, round int) bool {
	for _, p := range ps {
		if p.Round == round && !p.Done() {
			return false
		}
	}
	return true
}

// Playing returns the players with a pairing without its result.
func Playing(ps []Pairing) map[int64]bool {
	out := map[int64]bool{}
	for _, p := range ps {
		if !p.Done() {
			out[p.White] = true
			out[p.Black] = true
		}
	}
	return out
}

// ArenaPairs pairs the waiting players of an arena as batch round: those
// in it (not withdrawn) without a game in progress, by their score and
// then rating, each with the nearest below him whom he did not just
// play; a rematch only when no one else plays or waits. The player who
// had White more often has Black.
func ArenaPairs(entries []Entry, ps []Pairing, round int) []Pairing {
	playing := Playing(ps)
	points := map[int64]float64{}
	for _, s := range Standings(&Tournament{System: Arena}, entries, ps) {
		points[s.Entry.User] = s.Points
	}
	last := map[int64]int64{}
	whites := map[int64]int{}
	for _, p := range ps { // in the order paired
		if p.IsBye() {
			continue
		}
		last[p.White], last[p.Black] = p.Black, p.White
		whites[p.White]++
		whites[p.Black]--
	}
	var waiting []Entry
	for _, e := range entries {
		if !e.Withdrawn && !playing[e.User] {
			waiting = append(waiting, e)
		}
	}
	sort.SliceStable(waiting, func(i, j int) bool {
		a, b := waiting[i], waiting[j]
		if points[a.User] != points[b.User] {
			return points[a.User] > points[b.User]
		}
		return a.Rating > b.Rating
	})
	alone := len(playing) == 0 && len(waiting) == 2
	taken := map[int64]bool{}
	var out []Pairing
	for i, a := range waiting {
		if taken[a.User] {
			continue
		}
		for _, b := range waiting[i+1:] {
			if taken[b.User] || (!alone && (last[a.User] == b.User || last[b.User] == a.User)) {
				continue
			}
			taken[a.User], taken[b.User] = true, true
			w, bl := a.User, b.User
			if whites[w] > whites[bl] {
				w, bl = bl, w
			}
			out = append(out, Pairing{Round: round, Board: len(out) + 1, White: w, Black: bl, Result: Pending})
			break
		}
	}
	return out
}
