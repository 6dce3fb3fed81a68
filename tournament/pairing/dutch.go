package pairing

import (
	"errors"
	"fmt"
	"sort"
)

// Colour is a colour of a game: NoColour for a round not played over the
// board.
type Colour int8

// The colours.
const (
	NoColour Colour = iota
	White
	Black
)

func (c Colour) opposite() Colour {
	switch c {
	case White:
		return Black
	case Black:
		return White
	}
	return NoColour
}

// Game is a player's round: the opponent (0 for none), the colour of a
// game played over the board, whether it was (a forfeit was not), and
// the points it gave, in half-points.
type Game struct {
	Opponent int
	Colour   Colour
	Played   bool
	Points   int
	// Paired is true of a round in which the pairing placed the player:
	// a game, played or forfeited, or the pairing-allocated bye.
	Paired bool
	// NoMoreBye marks the rounds after which a player may not have the
	// pairing-allocated bye (C.04.3 C.2): the bye itself, a forfeit won,
	// a full-point bye: a win's points scored without playing.
	NoMoreBye bool
}

// Entrant is a player of a Swiss tournament: his start number (the
// pairing number, in the order of the initial ranking), his rounds so
// far (a late entrant's first rounds are unplayed, with no points), and
// whether he is absent from the round to pair (withdrawn, or with a bye
// he asked for).
type Entrant struct {
	ID     int
	Games  []Game
	Absent bool
}

// Swiss is a Swiss tournament to pair: the number of rounds it will have,
// the colour of the first player in round 1 (the initial colour) and the
// players.
type Swiss struct {
	Rounds      int
	FirstColour Colour
	Players     []Entrant
}

// ErrNoPairing is the error of a round that cannot be paired: no pairing
// of every player present (but one for the bye) keeps the absolute
// criteria (no two players meet twice, the bye at most once...).
var ErrNoPairing = errors.New("pairing: no pairing of the round keeps the absolute criteria")

// player is an entrant as the Dutch system sees him before the round.
type player struct {
	id       int
	score    int // half-points
	colours  []Colour
	cd       int // whites minus blacks
	pref     Colour
	strength int // 0 none, 1 mild, 2 strong, 3 absolute
	met      map[int]bool
	noBye    bool
	floats   [2]int // the float of the last round and of the one before: -1 down, +1 up, 0 none
	top      bool   // a topscorer (final round only)
	group    int    // score group, 0 the highest
	rank     int    // place in the ranking, 0 the first
	number   int    // pairing number among the players entered (E.5)
	inGroup  int    // place in its score group
}

func scoreBefore(games []Game, round int) int {
	s := 0
	for _, g := range games[:min(round, len(games))] {
		s += g.Points
	}
	return s
}

func newPlayer(e Entrant, byID map[int]Entrant) *player {
	p := &player{id: e.ID, met: map[int]bool{}}
	for _, g := range e.Games {
		p.score += g.Points
		if g.Played {
			p.met[g.Opponent] = true
			p.colours = append(p.colours, g.Colour)
			if g.Colour == White {
				p.cd++
			} else {
				p.cd--
			}
		}
		if g.NoMoreBye {
			p.noBye = true
		}
	}
	n := len(p.colours)
	switch {
	case n == 0:
	case p.cd > 1 || p.cd < -1 || n >= 2 && p.colours[n-1] == p.colours[n-2]:
		p.strength = 3
		if p.cd > 1 {
			p.pref = Black
		} else if p.cd < -1 {
			p.pref = White
		} else {
			p.pref = p.colours[n-1].opposite()
		}
	case p.cd != 0:
		p.strength = 2
		if p.cd > 0 {
			p.pref = Black
		} else {
			p.pref = White
		}
	default:
		p.strength = 1
		p.pref = p.colours[n-1].opposite()
	}
	for back := 1; back <= 2; back++ {
		r := len(e.Games) - back
		if r < 0 {
			continue
		}
		g := e.Games[r]
		if !g.Played {
			if g.Points > 0 {
				p.floats[back-1] = -1
			}
			continue
		}
		mine, theirs := scoreBefore(e.Games, r), scoreBefore(byID[g.Opponent].Games, r)
		if mine > theirs {
			p.floats[back-1] = -1
		} else if mine < theirs {
			p.floats[back-1] = 1
		}
	}
	return p
}

// Dutch pairs the next round of s by the FIDE Dutch system: every player
// present is paired, but one who has the pairing-allocated bye (Black 0)
// when they are odd in number. The pairs are in board order: the
// higher scores first.
//
// The pairing is a maximum weighted matching of the players present: an
// edge joins two players who may meet (C.1, C.3), and a player who may
// have the bye (C.2) to the bye; its weight holds the quality criteria
// of the score brackets, bracket by bracket from the top, each bracket's
// criteria in the rules' order (the pairs within the bracket and its
// floaters, C.5-C.7; the colour preferences granted, C.10-C.11; floats
// repeated, C.12-C.15), and last the order in which the rules try the
// bracket's candidates (the upper half against the lower one, the lowest
// player floating). The matching of most pairs and, among those, of the
// greatest weight is the pairing; the colours follow rules E.1-E.5.
func Dutch(s Swiss) ([]Pair, error) {
	byID := map[int]Entrant{}
	for _, e := range s.Players {
		if _, dup := byID[e.ID]; dup || e.ID < 1 {
			return nil, fmt.Errorf("pairing: start number %d twice or not positive", e.ID)
		}
		byID[e.ID] = e
	}
	played := 0
	for _, e := range s.Players {
		played = max(played, len(e.Games))
	}
	// The pairing numbers of E.5 count the players entered: those who
	// have been paired before, or are paired now (not a late entrant
	// absent so far).
	ordered := append([]Entrant(nil), s.Players...)
	sort.Slice(ordered, func(i, j int) bool { return ordered[i].ID < ordered[j].ID })
	var ps []*player
	number := 0
	for _, e := range ordered {
		entered := !e.Absent
		for _, g := range e.Games {
			entered = entered || g.Paired
		}
		if entered {
			number++
		}
		if !e.Absent {
			p := newPlayer(e, byID)
			p.number = number
			ps = append(ps, p)
		}
	}
	if len(ps) < 2 {
		return nil, ErrNoPairing
	}
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].score != ps[j].score {
			return ps[i].score > ps[j].score
		}
		return ps[i].id < ps[j].id
	})
	last := s.Rounds > 0 && played+1 >= s.Rounds
	groups := 0
	for i, p := range ps {
		p.rank = i
		if i > 0 && p.score != ps[i-1].score {
			groups++
			p.inGroup = 0
		} else if i > 0 {
			p.inGroup = ps[i-1].inGroup + 1
		}
		p.group = groups
		p.top = last && p.score > played
	}
	groups++
	size := make([]int, groups+1)
	for _, p := range ps {
		size[p.group]++
	}
	n := len(ps)
	bye := -1
	if n%2 == 1 {
		bye = n
		size[groups] = 1
	}
	lay := newLayout(groups+1, n)

	var edges []edge
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			a, b := ps[i], ps[j]
			if a.met[b.id] {
				continue
			}
			if a.strength == 3 && b.strength == 3 && a.pref == b.pref && !a.top && !b.top {
				continue
			}
			edges = append(edges, edge{i, j, lay.pairWeight(a, b, size)})
		}
		if bye >= 0 && !ps[i].noBye {
			edges = append(edges, edge{i, bye, lay.byeWeight(ps[i], groups, n)})
		}
	}
	vertices := n
	if bye >= 0 {
		vertices++
	}
	mate := maxWeightMatching(vertices, edges)
	var pairs []Pair
	var byePair *Pair
	for i := 0; i < n; i++ {
		j := mate[i]
		if j < 0 {
			return nil, ErrNoPairing
		}
		if j == bye {
			byePair = &Pair{ps[i].id, 0}
			continue
		}
		if j < i {
			continue
		}
		w, b := colours(ps[i], ps[j], s.FirstColour)
		pairs = append(pairs, Pair{w.id, b.id})
	}
	if bye >= 0 && mate[bye] < 0 {
		return nil, ErrNoPairing
	}
	byRank := map[int]*player{}
	for _, p := range ps {
		byRank[p.id] = p
	}
	// Board order: the higher score of the two, then the lower, then the
	// higher player's rank.
	sort.Slice(pairs, func(x, y int) bool {
		a1, a2 := byRank[pairs[x].White], byRank[pairs[x].Black]
		b1, b2 := byRank[pairs[y].White], byRank[pairs[y].Black]
		ha, la := hiLo(a1, a2)
		hb, lb := hiLo(b1, b2)
		if ha.score != hb.score {
			return ha.score > hb.score
		}
		if la.score != lb.score {
			return la.score > lb.score
		}
		return ha.rank < hb.rank
	})
	if byePair != nil {
		pairs = append(pairs, *byePair)
	}
	return pairs, nil
}

func hiLo(a, b *player) (*player, *player) {
	if a.rank < b.rank {
		return a, b
	}
	return b, a
}

// colours allocates the colours of a pair by C.04.3 E.1-E.5: it returns
// White and Black.
func colours(a, b *player, initial Colour) (*player, *player) {
	hi, lo := hiLo(a, b)
	give := func(p *player, c Colour) (*player, *player) {
		if c == White {
			return p, other(p, a, b)
		}
		return other(p, a, b), p
	}
	// E.1: both preferences granted.
	if hi.pref != NoColour && lo.pref != NoColour && hi.pref != lo.pref {
		return give(hi, hi.pref)
	}
	if hi.pref == NoColour && lo.pref != NoColour {
		return give(lo, lo.pref)
	}
	if lo.pref == NoColour && hi.pref != NoColour {
		return give(hi, hi.pref)
	}
	if hi.pref != NoColour {
		// E.2: the stronger preference; between two absolute ones, the
		// wider colour difference.
		if hi.strength != lo.strength {
			if hi.strength > lo.strength {
				return give(hi, hi.pref)
			}
			return give(lo, lo.pref)
		}
		if hi.strength == 3 && abs(hi.cd) != abs(lo.cd) {
			if abs(hi.cd) > abs(lo.cd) {
				return give(hi, hi.pref)
			}
			return give(lo, lo.pref)
		}
		// E.3: alternate to the latest round in which they differed.
		for k := 1; k <= min(len(hi.colours), len(lo.colours)); k++ {
			ch, cl := hi.colours[len(hi.colours)-k], lo.colours[len(lo.colours)-k]
			if ch != cl {
				return give(hi, ch.opposite())
			}
		}
		// E.4: the higher player's preference.
		return give(hi, hi.pref)
	}
	// E.5: the initial colour to the higher player of an odd pairing number.
	if initial == NoColour {
		initial = White
	}
	if hi.number%2 == 1 {
		return give(hi, initial)
	}
	return give(hi, initial.opposite())
}

func other(p, a, b *player) *player {
	if p == a {
		return b
	}
	return a
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
