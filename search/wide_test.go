package search

import (
	"context"
	"flag"
	"fmt"
	"testing"
	"time"

	"emergo/eval"
	"emergo/rules"
)

var (
	wideDepth = flag.Int("wide.depth", 8, "depth of BenchmarkWide's searches")
	depthTime = flag.Duration("depthat.movetime", 100*time.Millisecond, "time of each of BenchmarkDepthAt's searches")
)

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

// BenchmarkDepthAt searches the positions of BenchmarkWide for
// -depthat.movetime each (100 ms by default), as the engine searches a
// move given that time, on a fresh 16 MiB table each, and reports the
// mean depth (Result.Depth) on each board and the nodes per second:
// what a change of speed or of evaluation costs in depth at a move's
// time. `go test ./search -run '^$' -bench DepthAt -benchtime 1x` (one
// pass: 120 searches, at most 12 s at 100 ms, less where a search ends
// early on a forced line); a loaded machine reaches less deep. The
// search has no endgame tables here (package egtb is the player's).
func BenchmarkDepthAt(b *testing.B) {
	e := New(Options{HashMiB: 16, Eval: &eval.Default})
	ps := widePositions(60)
	var depths, searches map[int]int
	var nodes uint64
	var spent time.Duration
	for b.Loop() {
		depths, searches, nodes, spent = map[int]int{}, map[int]int{}, 0, 0
		for _, p := range ps {
			e.NewGame()
			r := e.Search(context.Background(), p, nil, Limits{MoveTime: *depthTime}, nil)
			size := p.Geometry().N
			depths[size] += r.Depth
			searches[size]++
			nodes += r.Nodes
			spent += r.Time
		}
	}
	for _, size := range []int{9, 7} {
		if searches[size] > 0 {
			b.ReportMetric(float64(depths[size])/float64(searches[size]), fmt.Sprintf("depth-%dx%d", size, size))
		}
	}
	b.ReportMetric(float64(nodes)/spent.Seconds(), "nodes/s")
}
