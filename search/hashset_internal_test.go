package search

import (
	"math/rand/v2"
	"testing"
)

func TestHashSet(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var hs hashSet
	for _, n := range []int{0, 1, 5, 100, 1000} {
		keys := make([]uint64, n)
		in := map[uint64]bool{}
		for i := range keys {
			keys[i] = r.Uint64() & 0xffff // small keys: many collide in the table
			if i%50 == 7 {
				keys[i] = 0
			}
			in[keys[i]] = true
		}
		hs.reset(keys)
		for k := uint64(0); k < 0x10000; k += 7 {
			if hs.has(k) != in[k] {
				t.Fatalf("n=%d: has(%d) = %v, want %v", n, k, hs.has(k), in[k])
			}
		}
		for _, k := range keys {
			if !hs.has(k) {
				t.Fatalf("n=%d: inserted key %d not found", n, k)
			}
		}
	}
}
