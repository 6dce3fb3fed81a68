package search

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"unsafe"

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

// TestTableMemory: a table of n MiB has n MiB of buckets, all empty, that
// take entries; on Linux they are aligned to a
// huge page (allocBuckets).
func TestTableMemory(t *testing.T) {
	for _, mib := range []int{1, 4, 16} {
		tt := newTable(mib)
		if got, want := len(tt.buckets), mib<<20/bucketBytes; got != want {
			t.Fatalf("%d MiB: %d buckets, want %d", mib, got, want)
		}
		for i := range tt.buckets {
			if tt.buckets[i] != (bucket{}) {
				t.Fatalf("%d MiB: bucket %d not empty", mib, i)
			}
		}
		if runtime.GOOS == "linux" {
			if a := uintptr(unsafe.Pointer(&tt.buckets[0])); a%hugePageBytes != 0 {
				t.Errorf("%d MiB: buckets at %#x, not aligned to a huge page", mib, a)
			}
		}
		for i := range uint64(1000) {
			key := i*0x9e3779b97f4a7c15 | 1
			tt.store(key, entry{score: int32(i), depth: 3, bound: boundExact, move: 1})
			if e, ok := tt.probe(key); !ok || e.score != int32(i) {
				t.Fatalf("%d MiB: entry %d stored and not found (%v, %v)", mib, i, e, ok)
			}
		}
	}
}
