package tournament

import (
	"sort"
	"strconv"

	"emergo/tournament/tiebreak"
)

// Standing is a player's line in the standings.
type Standing struct {
	Rank   int
	Entry  Entry
	Number int // the start number
	// Points are an arena's points, or a Swiss's and a round robin's (a
	// win 1, a draw 0.5).
	Points float64
	// Games are the games he finished over the board.
	Games  int
	Scores tiebreak.Scores
	// Streak says that an arena player's next win or draw counts double.
	Streak bool
	// Sheet is his rounds in order: W, D, L for a game, + and - for a
	// forfeit won or lost, B for a bye, - for a round he was not in, * for
	// a game that goes on; in an arena, the points of each game ("4" for
	// a win on a streak).
	Sheet []string
}

// Tie-breaks in the order each system ranks by: a round robin's players
// all met, so the direct encounter comes first there.
var (
	swissOrder = []tiebreak.Kind{tiebreak.BuchholzCut1, tiebreak.Buchholz, tiebreak.SonnebornBerger, tiebreak.DirectEncounter, tiebreak.Wins}
	tableOrder = []tiebreak.Kind{tiebreak.SonnebornBerger, tiebreak.DirectEncounter, tiebreak.Wins}
	arenaOrder = []tiebreak.Kind{tiebreak.Wins}
)

// Standings returns the standings of a tournament from its entries and
// pairings, the first first. A Swiss and a round robin count the rounds
// played to their end; an arena counts each game as it ends.
func Standings(t *Tournament, entries []Entry, ps []Pairing) []Standing {
	numbers := Numbers(t, entries)
	lines := make([]Standing, len(entries))
	byNumber := map[int]*Standing{}
	players := make([]tiebreak.Player, len(entries))
	if t.System == Arena {
		for i, e := range entries {
			lines[i] = arenaLine(e, ps)
			lines[i].Number = numbers[e.User]
			lines[i].Scores = tiebreak.Scores{ID: lines[i].Number, Points: lines[i].Points, Wins: lines[i].Scores.Wins}
		}
	} else {
		of := byPlayerRound(ps)
		for i, e := range entries {
			n := numbers[e.User]
			lines[i] = Standing{Entry: e, Number: n}
			players[i] = tiebreak.Player{ID: n}
			for r := 1; r <= t.Round; r++ {
				p, ok := of[key{e.User, r}]
				if ok && !p.Done() {
					lines[i].Sheet = append(lines[i].Sheet, "*")
					continue
				}
				tr, mark := roundOf(p, ok, e.User, t.System, numbers)
				lines[i].Sheet = append(lines[i].Sheet, mark)
				players[i].Rounds = append(players[i].Rounds, tr)
				if tr.Played {
					lines[i].Games++
				}
			}
		}
		for i, s := range tiebreak.Compute(players) {
			lines[i].Scores, lines[i].Points = s, s.Points
		}
	}
	order := swissOrder
	switch t.System {
	case RoundRobin:
		order = tableOrder
	case Arena:
		order = arenaOrder
	}
	scores := make([]tiebreak.Scores, len(lines))
	for i, l := range lines {
		byNumber[l.Number] = &lines[i]
		scores[i] = l.Scores
	}
	out := make([]Standing, 0, len(lines))
	for i, s := range tiebreak.Rank(scores, order) {
		l := *byNumber[s.ID]
		l.Rank = i + 1
		if i > 0 && same(l.Scores, out[i-1].Scores) {
			l.Rank = out[i-1].Rank
		}
		out = append(out, l)
	}
	return out
}

// same reports whether a and b are tied on points and every tie-break:
// they share a rank.
func same(a, b tiebreak.Scores) bool {
	a.ID, b.ID = 0, 0
	return a == b
}

// roundOf is a finished round of user's as package tiebreak counts it,
// and its mark on his sheet; ok is false for a round he was not paired
// in (an absence, or before he entered).
func roundOf(p Pairing, ok bool, user int64, sys System, numbers map[int64]int) (tiebreak.Round, string) {
	if !ok {
		return tiebreak.Round{Voluntary: true}, "-"
	}
	pts := float64(p.halfPoints(user, sys)) / 2
	if p.IsBye() {
		return tiebreak.Round{Points: pts}, "B"
	}
	r := tiebreak.Round{Opponent: numbers[p.Opponent(user)], Points: pts, Played: p.played()}
	switch {
	case !r.Played && pts == 1:
		return r, "+"
	case !r.Played:
		r.Voluntary = true
		return r, "-"
	case pts == 1:
		return r, "W"
	case pts == 0.5:
		return r, "D"
	}
	return r, "L"
}

// arenaLine is an arena player's points, games and sheet: a win 2
// points, a draw 1, a loss 0; after two wins in a row each game counts
// double, until one is not won (a draw on a streak is 2 points and ends
// it). A forfeit won is 2 points and leaves the streak as it was; a
// forfeit lost ends it.
func arenaLine(e Entry, ps []Pairing) Standing {
	l := Standing{Entry: e}
	var mine []Pairing
	for _, p := range ps {
		if p.Has(e.User) && p.Done() {
			mine = append(mine, p)
		}
	}
	sort.SliceStable(mine, func(i, j int) bool { return mine[i].Round < mine[j].Round })
	run := 0 // wins in a row
	for _, p := range mine {
		half := p.halfPoints(e.User, Arena)
		pts := 0
		switch {
		case !p.played() && half == 2:
			pts = 2
			l.Scores.Wins++
		case !p.played():
			run = 0
		default:
			l.Games++
			pts = half // 2, 1 or 0
			if run >= 2 {
				pts *= 2
			}
			if half == 2 {
				run++
				l.Scores.Wins++
			} else {
				run = 0
			}
		}
		l.Points += float64(pts)
		l.Sheet = append(l.Sheet, strconv.Itoa(pts))
	}
	l.Streak = run >= 2
	return l
}
