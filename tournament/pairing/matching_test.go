package pairing

import (
	"math/rand/v2"
	"testing"
)

// bruteMatching returns the greatest number of edges of a matching and
// the greatest weight among matchings of that many, by trying them all.
func bruteMatching(n int, edges []edge) (int, int64) {
	w64 := func(w weight) int64 { return int64(w[0]) }
	used := make([]bool, n)
	var best struct {
		size int
		w    int64
	}
	var rec func(k, size int, w int64)
	rec = func(k, size int, w int64) {
		if size > best.size || size == best.size && w > best.w {
			best.size, best.w = size, w
		}
		for ; k < len(edges); k++ {
			e := edges[k]
			if !used[e.i] && !used[e.j] {
				used[e.i], used[e.j] = true, true
				rec(k+1, size+1, w+w64(e.w))
				used[e.i], used[e.j] = false, false
			}
		}
	}
	rec(0, 0, 0)
	return best.size, best.w
}

// TestMatchingAgainstBruteForce compares the blossom algorithm with every
// matching of small random graphs: the most edges, then the most weight.
func TestMatchingAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 3000 {
		n := 2 + rng.IntN(9)
		var edges []edge
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if rng.IntN(100) < 55 {
					edges = append(edges, edge{i, j, small(uint64(1 + rng.Int64N(20)))})
				}
			}
		}
		mate := maxWeightMatching(n, edges)
		size, w := 0, int64(0)
		for _, e := range edges {
			if mate[e.i] == e.j {
				if mate[e.j] != e.i {
					t.Fatalf("trial %d: the mates disagree", trial)
				}
				size++
				w += int64(e.w[0])
			}
		}
		for v, u := range mate {
			if u >= 0 && mate[u] != v {
				t.Fatalf("trial %d: %d's mate %d has mate %d", trial, v, u, mate[u])
			}
		}
		bs, bw := bruteMatching(n, edges)
		if size != bs || w != bw {
			t.Fatalf("trial %d (%d vertices, %v): %d edges of weight %d, want %d of %d", trial, n, edges, size, w, bs, bw)
		}
	}
}
