package rules_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"emergo/rules"
)

// TestMaxMoves checks rules.MaxMoves, which the search's move buffers rely
// on, against every position of the test vectors, of many random games
// (half of them steered into captures, where the moves are most), and of
// composed positions with the most moves of each kind known, and reports
// the most it sees.
func TestMaxMoves(t *testing.T) {
	most, where := 0, ""
	check := func(t *testing.T, n int, what func() string) {
		t.Helper()
		if n > rules.MaxMoves {
			t.Errorf("%s has %d legal moves, more than rules.MaxMoves (%d)", what(), n, rules.MaxMoves)
		}
		if n > most {
			most, where = n, what()
		}
	}
	t.Run("vectors", func(t *testing.T) {
		for _, g := range readVectors(t) {
			for ply, legal := range g.Legal {
				check(t, len(legal), func() string { return fmt.Sprintf("vector game %d (%dx%d) at ply %d", g.Game, g.Size, g.Size, ply) })
			}
		}
	})
	games := 2000
	if testing.Short() {
		games = 200
	}
	for _, g := range []*rules.Geometry{rules.Geometry9, rules.Geometry7} {
		t.Run(fmt.Sprintf("random games %dx%d", g.N, g.N), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(g.N), 8))
			var buf []rules.Move
			seen, plies := 0, 0
			for i := range games {
				bias := 0.0
				if i%2 == 1 {
					bias = 0.9
				}
				for _, p := range randomGame(rng, g, 400, bias) {
					buf = p.Legal(buf[:0])
					check(t, len(buf), func() string { return positionText(&p) })
					seen, plies = max(seen, len(buf)), plies+1
				}
			}
			t.Logf("%d games, %d positions: at most %d legal moves", games, plies, seen)
		})
	}
	for _, tc := range []struct {
		name     string
		position string
		moves    int
	}{
		// The start: every square but the centre (RULES 4.3).
		{"entries", "9 w 12 12 -", 40},
		// Twelve single men, none on the rim or next to another: four
		// empty squares around each.
		{"steps", "9 w 0 0 b2:w,d2:w,f2:w,h2:w,b4:w,d4:w,f4:w,h4:w,b6:w,d6:w,f6:w,h6:w", 48},
		// The richest capture position found by a search over composed
		// positions: Black's twelve men in a diamond, each jumpable from
		// two sides, and five white men on the squares from which the
		// longest paths through the diamond start.
		{"captures", "9 w 0 0 c1:w,d2:b,f2:b,h2:w,b4:b,d4:b,f4:b,h4:b,e5:w,b6:b,d6:b,f6:b,h6:b,a7:w,d8:b,f8:b,h8:w", 56},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := parsePosition(tc.position)
			if err != nil {
				t.Fatal(err)
			}
			n := len(p.Legal(nil))
			if n != tc.moves {
				t.Errorf("%d legal moves, want %d", n, tc.moves)
			}
			check(t, n, func() string { return "the composed position of " + tc.name })
		})
	}
	t.Logf("the most legal moves seen: %d, in %s; rules.MaxMoves is %d", most, where, rules.MaxMoves)
}
