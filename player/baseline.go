package player

import (
	"context"
	"math"
	"math/rand/v2"

	"emergo/eval"
	"emergo/rules"
)

// Random plays a uniformly random legal move.
type Random struct {
	rng *rand.Rand
}

// The second words of the movers' generators, "RAND", "GREE" and "MCTS"
// in ASCII: each mover draws from a stream of its own for the same seed.
const (
	randomStream = 0x52414e44
	greedyStream = 0x47524545
	mctsStream   = 0x4d435453
)

// NewRandom returns a random mover seeded with seed.
func NewRandom(seed uint64) *Random {
	return &Random{rng: rand.New(rand.NewPCG(seed, randomStream))}
}

func (r *Random) Name() string { return "random" }

func (r *Random) Move(_ context.Context, g *rules.Game, _ Clock) (rules.Move, error) {
	legal := g.Legal()
	if len(legal) == 0 {
		return rules.Move{}, errNoMove
	}
	return legal[r.rng.IntN(len(legal))], nil
}

// Greedy plays the move after which it has the most material: its free
// men (on top or in hand) minus the opponent's, looking one ply ahead.
// Ties are broken at random, so that games between greedy players differ.
type Greedy struct {
	rng *rand.Rand
}

// NewGreedy returns a greedy mover seeded with seed.
func NewGreedy(seed uint64) *Greedy {
	return &Greedy{rng: rand.New(rand.NewPCG(seed, greedyStream))}
}

func (gr *Greedy) Name() string { return "greedy" }

func (gr *Greedy) Move(_ context.Context, g *rules.Game, _ Clock) (rules.Move, error) {
	legal := g.Legal()
	if len(legal) == 0 {
		return rules.Move{}, errNoMove
	}
	p := g.Position()
	me := p.Side()
	best, n := int32(math.MinInt32), 0
	var choice rules.Move
	for _, m := range legal {
		q := p.After(m)
		s := Material(&q, me)
		if q.Lost() {
			s = math.MaxInt32 // a win is worth more than any material
		}
		switch {
		case s > best:
			best, choice, n = s, m, 1
		case s == best:
			// Reservoir sampling among equal moves.
			n++
			if gr.rng.IntN(n) == 0 {
				choice = m
			}
		}
	}
	return choice, nil
}

// Material is c's free men minus the opponent's: men on top of columns
// plus men in hand.
func Material(p *rules.Position, c rules.Color) int32 {
	var a, b [eval.NumFeatures]int32
	eval.Features(p, c, &a)
	eval.Features(p, c.Other(), &b)
	return a[eval.FreeMen] - b[eval.FreeMen]
}
