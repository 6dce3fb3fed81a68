package search

import (
	"context"
	"time"

	"emergo/rules"
)

// BenchDepth is the depth of the bench search.
const BenchDepth = 8

// BenchPositions returns the fixed positions of the bench: starts and
// openings of both sizes, and middle games reached by a fixed sequence of
// pseudo-random moves (a linear congruential choice, so the set never
// changes with a library's random generator).
func BenchPositions() []rules.Position {
	var out []rules.Position
	for _, g := range []*rules.Geometry{rules.Geometry9, rules.Geometry7} {
		for _, plies := range []int{0, 6, 20, 30, 40, 50, 60, 70} {
			x := uint32(2463534242 + plies)
			if p, ok := seededLine(g, plies, &x); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// seededLine plays plies moves from the start of a game on g, each chosen
// by the next number of the linear congruential sequence x, and reports
// whether the game got there with a legal move left.
func seededLine(g *rules.Geometry, plies int, x *uint32) (rules.Position, bool) {
	p := rules.NewPosition(g)
	var buf []rules.Move
	for range plies {
		buf = p.Legal(buf[:0])
		if len(buf) == 0 {
			return p, false
		}
		*x = *x*1664525 + 1013904223
		p.Play(buf[int(*x>>16)%len(buf)])
	}
	return p, len(p.Legal(buf[:0])) > 0
}

// Bench searches every bench position to depth on a fresh table and
// returns the total nodes and the time taken. The node count is the
// build's signature: it changes when the search or the evaluation does.
func Bench(e *Engine, depth int) (nodes uint64, elapsed time.Duration) {
	start := time.Now()
	for _, p := range BenchPositions() {
		e.NewGame()
		r := e.Search(context.Background(), p, nil, Limits{Depth: depth}, nil)
		nodes += r.Nodes
	}
	return nodes, time.Since(start)
}
