package search

import (
	"context"
	"flag"
	"testing"

	"emergo/eval"
	"emergo/rules"
)

var wideDepth = flag.Int("wide.depth", 8, "depth of BenchmarkWide's searches")

// widePositions returns up to n positions of each board size, reached by
// 4 to 53 plies of one seeded line of moves each (seededLine, as the
// bench's): a wider sample of the search's work than the bench's ten
// positions, for changes (the order of moves) whose effect on ten
// positions is mostly their luck.
func widePositions(n int) []rules.Position {
	var out []rules.Position
	for _, g := range []*rules.Geometry{rules.Geometry9, rules.Geometry7} {
		x := uint32(12345)
		for k := range n {
			if p, ok := seededLine(g, 4+k%50, &x); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// BenchmarkWide searches 60 positions of each size (widePositions) to
// -wide.depth (8 by default) on a fresh 16 MiB table each, as `emergo
// bench` does its ten: `go test ./search -run '^$' -bench Wide -benchtime
// 1x -wide.depth 9` reports the nodes of one pass and the nodes per
// second.
func BenchmarkWide(b *testing.B) {
	e := New(Options{HashMiB: 16, Eval: &eval.Default})
	ps := widePositions(60)
	var nodes uint64
	for b.Loop() {
		nodes = 0
		for _, p := range ps {
			e.NewGame()
			nodes += e.Search(context.Background(), p, nil, Limits{Depth: *wideDepth}, nil).Nodes
		}
	}
	b.ReportMetric(float64(nodes), "nodes/op")
	b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}
