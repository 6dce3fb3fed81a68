package pairing

import (
	"errors"
	"fmt"
	"math/bits"
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

// ErrTooLarge is the error of a tournament whose criteria do not fit the
// weights of the matching: some hundreds of players over many rounds.
var ErrTooLarge = errors.New("pairing: the tournament is too large to pair")

// player is an entrant as the Dutch system sees him before the round.
type player struct {
	id        int
	number    int // pairing number among the players entered, from 0 (E.5)
	score     int // half-points
	games     []Game
	played    int // games played over the board
	imbalance int // |whites - blacks|
	pref      Colour
	repeated  Colour // the colour of the last two games played, if alike
	strong    bool   // a strong preference: an imbalance of one
	met       map[int]bool
	eligible  bool // may have the pairing-allocated bye (C.2)
	colours   []Colour
}

// absolute reports an absolute colour preference: an imbalance over one,
// or the same colour in the last two games played.
func (p *player) absolute() bool { return p.imbalance > 1 || p.repeated != NoColour }

func newPlayer(e Entrant) *player {
	p := &player{id: e.ID, games: e.Games, met: map[int]bool{}, eligible: true}
	whites, blacks, run := 0, 0, 0
	var last Colour
	for _, g := range e.Games {
		p.score += g.Points
		if g.NoMoreBye {
			p.eligible = false
		}
		if !g.Played {
			continue
		}
		p.met[g.Opponent] = true
		p.played++
		p.colours = append(p.colours, g.Colour)
		if g.Colour == White {
			whites++
		} else {
			blacks++
		}
		if run == 0 || g.Colour != last {
			run = 1
		} else {
			run++
		}
		last = g.Colour
	}
	lower := White
	if whites > blacks {
		lower = Black
	}
	p.imbalance = abs(whites - blacks)
	switch {
	case p.imbalance > 1:
		p.pref = lower
	case run > 1:
		p.pref = last.opposite()
	case p.imbalance > 0:
		p.pref = lower
	case run > 0:
		p.pref = last.opposite()
	}
	if run > 1 {
		p.repeated = last
	}
	p.strong = !p.absolute() && p.imbalance > 0
	return p
}

// scoreBefore is p's score before the round roundsBack rounds before the
// one to pair.
func (p *player) scoreBefore(roundsBack int) int {
	s := 0
	for _, g := range p.games[:len(p.games)-roundsBack] {
		s += g.Points
	}
	return s
}

// Float directions.
const (
	floatNone = iota
	floatDown
	floatUp
)

// float is p's float in the round roundsBack rounds before the one to
// pair: down when he met a lower score or scored without playing, up
// when he met a higher score.
func (p *player) float(roundsBack int, byID map[int]*player) int {
	r := len(p.games) - roundsBack
	if r < 0 {
		return floatNone
	}
	g := p.games[r]
	if !g.Played {
		if g.Points > 0 {
			return floatDown
		}
		return floatNone
	}
	o := byID[g.Opponent]
	if o == nil || len(o.games) <= r {
		return floatNone
	}
	mine, theirs := p.scoreBefore(roundsBack), o.scoreBefore(len(o.games)-r)
	switch {
	case mine > theirs:
		return floatDown
	case mine < theirs:
		return floatUp
	}
	return floatNone
}

// Dutch pairs the next round of s by the FIDE Dutch system: every player
// present is paired, but one who has the pairing-allocated bye (Black 0)
// when they are odd in number. The pairs are in board order: the higher
// scores first, the bye last.
//
// The pairing is built bracket by bracket from the top, as the rules
// build it, each decision a maximum weighted matching of all the players
// still unpaired (so that the rest of the round can always be completed,
// C.4): an edge joins two players who may meet (C.1, C.3), and its weight
// holds, most significant first, the completion and the bye (C.2), then
// the current bracket's quality criteria in the rules' order (the pairs
// and the scores paired in this bracket and the next, C.5-C.8; the bye
// to the player with the fewest unplayed games, C.9; the colour criteria,
// C.10-C.13; the floats repeated and their scores, C.14-C.21). Then, in
// the low bits, the order of the candidates (section D): the moved-down
// players to pair, highest first, and their opponents; the fewest
// exchanges between the halves of the remainder, the smallest
// differences of the exchanged players' numbers, the lowest of the upper
// half and the highest of the lower half exchanged first; each upper
// player against the highest possible of the lower half. Each decision
// is fixed before the next is taken. The colours follow E.1-E.5.
func Dutch(s Swiss) ([]Pair, error) {
	for i, e := range s.Players {
		if e.ID < 1 {
			return nil, fmt.Errorf("pairing: start number %d is not positive", e.ID)
		}
		for _, f := range s.Players[:i] {
			if f.ID == e.ID {
				return nil, fmt.Errorf("pairing: start number %d twice", e.ID)
			}
		}
	}
	ordered := append([]Entrant(nil), s.Players...)
	sort.Slice(ordered, func(i, j int) bool { return ordered[i].ID < ordered[j].ID })
	playedRounds := 0
	for _, e := range ordered {
		playedRounds = max(playedRounds, len(e.Games))
	}
	// Every player's rounds, a late entrant's first ones unplayed.
	for i := range ordered {
		e := &ordered[i]
		if len(e.Games) < playedRounds {
			e.Games = append(make([]Game, playedRounds-len(e.Games)), e.Games...)
		}
	}
	byID := map[int]*player{}
	var sorted []*player
	number := 0
	for _, e := range ordered {
		// The pairing numbers count the players entered: those paired
		// before or now (not a late entrant absent so far).
		entered := !e.Absent
		for _, g := range e.Games {
			entered = entered || g.Paired
		}
		p := newPlayer(e)
		p.number = number
		if entered {
			number++
		}
		byID[p.id] = p
		if !e.Absent {
			sorted = append(sorted, p)
		}
	}
	if len(sorted) < 2 {
		return nil, ErrNoPairing
	}
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].score != sorted[j].score {
			return sorted[i].score > sorted[j].score
		}
		return sorted[i].number < sorted[j].number
	})
	d := &dutch{sorted: sorted, byID: byID, played: playedRounds, last: s.Rounds > 0 && playedRounds >= s.Rounds-1}
	mate, err := d.pair()
	if err != nil {
		return nil, err
	}
	var pairs []Pair
	var bye []Pair
	for v, m := range mate {
		a := sorted[v]
		if m == v {
			bye = append(bye, Pair{a.id, 0})
			continue
		}
		b := sorted[m]
		if a.id > b.id {
			continue
		}
		if colourOf(a, b, s.FirstColour) == White {
			pairs = append(pairs, Pair{a.id, b.id})
		} else {
			pairs = append(pairs, Pair{b.id, a.id})
		}
	}
	// Board order: the higher score of the two, then the lower, then the
	// higher player's number.
	sort.Slice(pairs, func(x, y int) bool {
		ha, la := hiLo(byID[pairs[x].White], byID[pairs[x].Black])
		hb, lb := hiLo(byID[pairs[y].White], byID[pairs[y].Black])
		if ha.score != hb.score {
			return ha.score > hb.score
		}
		if la.score != lb.score {
			return la.score > lb.score
		}
		return ha.number < hb.number
	})
	return append(pairs, bye...), nil
}

// hiLo returns the higher ranked of a and b first: the higher score, then
// the lower pairing number.
func hiLo(a, b *player) (*player, *player) {
	if a.score > b.score || a.score == b.score && a.number < b.number {
		return a, b
	}
	return b, a
}

// colourOf returns the colour of a against b by C.04.3 E.1-E.5.
func colourOf(a, b *player, initial Colour) Colour {
	if c := neutralColour(a, b); c != NoColour {
		return c
	}
	hi, _ := hiLo(a, b)
	if a.pref != NoColour {
		// E.4: the higher player's preference.
		if hi == a {
			return a.pref
		}
		return b.pref.opposite()
	}
	// E.5: the initial colour to the higher player if his pairing number
	// is odd (counted from 1), the other if it is even.
	if initial == NoColour {
		initial = White
	}
	c := initial
	if hi.number%2 == 1 {
		c = initial.opposite()
	}
	if hi != a {
		c = c.opposite()
	}
	return c
}

// neutralColour is a's colour by E.1-E.3 (both preferences, the stronger
// one, the alternation from the latest round in which they differed), or
// NoColour when those do not decide.
func neutralColour(a, b *player) Colour {
	if compatiblePrefs(a.pref, b.pref) {
		switch {
		case a.pref != NoColour:
			return a.pref
		case b.pref != NoColour:
			return b.pref.opposite()
		}
		return NoColour
	}
	switch {
	case a.absolute() && (a.imbalance > b.imbalance || !b.absolute()):
		return a.pref
	case b.absolute() && (b.imbalance > a.imbalance || !a.absolute()):
		return b.pref.opposite()
	case a.strong && !b.strong:
		return a.pref
	case b.strong && !a.strong:
		return b.pref.opposite()
	}
	for i, j := len(a.colours)-1, len(b.colours)-1; i >= 0 && j >= 0; i, j = i-1, j-1 {
		if a.colours[i] != b.colours[j] {
			return b.colours[j]
		}
	}
	return NoColour
}

func compatiblePrefs(a, b Colour) bool { return a == NoColour || b == NoColour || a != b }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// bitsFor is the number of bits that hold n.
func bitsFor(n int) uint { return uint(bits.Len(uint(n))) }
