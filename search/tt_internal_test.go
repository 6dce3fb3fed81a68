package search

import (
	"context"
	"sync/atomic"
	"testing"

	"emergo/eval"
)

// TestTableKeepsNoDepthZero: the table serves the nodes of depth 1 and
// more, never the chains of captures searched at depth 0 beyond the
// horizon. The bench's positions are full of such chains; after searching
// them, every entry of the table has a depth of at least 1, and there are
// entries.
func TestTableKeepsNoDepthZero(t *testing.T) {
	e := New(Options{HashMiB: 1, Eval: &eval.Default})
	for i, p := range BenchPositions() {
		e.NewGame()
		e.Search(context.Background(), p, nil, Limits{Depth: 6}, nil)
		stored := 0
		for b := range e.tt.buckets {
			for j := range e.tt.buckets[b] {
				d := atomic.LoadUint64(&e.tt.buckets[b][j].data)
				if d == 0 {
					continue
				}
				stored++
				if en := unpack(d); en.depth < 1 {
					t.Fatalf("bench position %d: an entry of depth %d in the table", i, en.depth)
				}
			}
		}
		if stored == 0 {
			t.Fatalf("bench position %d: nothing stored", i)
		}
	}
}
