package rules_test

import (
	"math/rand/v2"
	"testing"

	"emergo/rules"
)

// benchPositions returns a reproducible set of mid-game positions: random
// games from a fixed seed, sampled after 30 to 90 plies, kept only once
// both hands are empty and the board has a column of three or more men, so
// the set is made of movement-phase positions with captures and tall
// columns rather than of the cheap entering phase.
func benchPositions(g *rules.Geometry, n int) []rules.Position {
	r := rand.New(rand.NewPCG(1, uint64(g.N)))
	var out []rules.Position
	var buf []rules.Move
	for len(out) < n {
		p := rules.NewPosition(g)
		plies := 30 + r.IntN(61)
		for i := 0; i < plies; i++ {
			buf = p.Legal(buf[:0])
			if len(buf) == 0 {
				break
			}
			p.Play(buf[r.IntN(len(buf))])
		}
		if len(p.Legal(buf[:0])) == 0 || !tall(&p) || p.Hand(rules.White)+p.Hand(rules.Black) > 0 {
			continue
		}
		out = append(out, p)
	}
	return out
}

func tall(p *rules.Position) bool {
	g := p.Geometry()
	for s := rules.Square(0); int(s) < g.Squares; s++ {
		if p.At(s).Height() >= 3 {
			return true
		}
	}
	return false
}

func benchPerft(b *testing.B, g *rules.Geometry, depth int, bulk bool) {
	ps := benchPositions(g, 32)
	pf := rules.Perft{Bulk: bulk}
	var leaves uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := &ps[i%len(ps)]
		leaves += pf.Count(p, depth)
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "nodes/s")
}

// The perft benchmarks measure the generator on mid-game positions:
// BenchmarkPerftBulk counts the last ply without making it, BenchmarkPerftMake
// makes every leaf.
func BenchmarkPerftBulk9(b *testing.B) { benchPerft(b, rules.Geometry9, 4, true) }
func BenchmarkPerftMake9(b *testing.B) { benchPerft(b, rules.Geometry9, 4, false) }
func BenchmarkPerftBulk7(b *testing.B) { benchPerft(b, rules.Geometry7, 4, true) }
func BenchmarkPerftMake7(b *testing.B) { benchPerft(b, rules.Geometry7, 4, false) }

// BenchmarkPerftStart9 is perft 5 from the empty 9x9 board (59,056,880
// leaves), dominated by entries.
func BenchmarkPerftStart9(b *testing.B) {
	p := rules.NewPosition(rules.Geometry9)
	pf := rules.Perft{Bulk: true}
	var leaves uint64
	for i := 0; i < b.N; i++ {
		leaves += pf.Count(&p, 5)
	}
	b.ReportMetric(float64(leaves)/b.Elapsed().Seconds(), "nodes/s")
}

func BenchmarkLegal9(b *testing.B) {
	ps := benchPositions(rules.Geometry9, 64)
	buf := make([]rules.Move, 0, 256)
	var n int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = ps[i%len(ps)].Legal(buf[:0])
		n += len(buf)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "moves/s")
}

func TestPerftAllocatesNothing(t *testing.T) {
	ps := benchPositions(rules.Geometry9, 4)
	for _, bulk := range []bool{true, false} {
		pf := rules.Perft{Bulk: bulk}
		pf.Count(&ps[0], 3) // warm the stacks
		allocs := testing.AllocsPerRun(5, func() {
			for i := range ps {
				pf.Count(&ps[i], 3)
			}
		})
		if allocs != 0 {
			t.Errorf("Perft{Bulk: %v}.Count allocates %.1f times per run", bulk, allocs)
		}
	}
}
