package puzzle

import (
	"context"
	"testing"
)

// minPuzzles is the least a shipped set holds of each board size.
const minPuzzles = 500

// shortSample is how many puzzles of each set -short checks: every n-th
// one, n chosen to check about this many.
const shortSample = 40

// TestSetsAreUnique verifies every puzzle of the shipped sets again at
// the depth of their criteria: each move of the solver is the only good
// one, as when the set was made. A change of the search or the evaluation
// that breaks it needs the sets made again with the commands in their
// first lines (README.md, "Puzzles"). Under -short it checks a fixed
// sample of each set.
func TestSetsAreUnique(t *testing.T) {
	for _, size := range []int{9, 7} {
		t.Run(map[int]string{9: "9x9", 7: "7x7"}[size], func(t *testing.T) {
			t.Parallel()
			c := Set(size)
			if len(c.Puzzles) < minPuzzles {
				t.Errorf("%d puzzles, want %d at least", len(c.Puzzles), minPuzzles)
			}
			if c.Criteria != DefaultCriteria[size] {
				t.Errorf("criteria %v, want the default %v", c.Criteria, DefaultCriteria[size])
			}
			step := 1
			if testing.Short() {
				step = max(1, len(c.Puzzles)/shortSample)
			}
			v := NewVerifier(c.Criteria)
			for i := 0; i < len(c.Puzzles); i += step {
				p := &c.Puzzles[i]
				if err := v.Check(context.Background(), p); err != nil {
					t.Error(err)
				}
				if want := IDOf(&p.Start, p.Line[0].Move); p.ID != want {
					t.Errorf("puzzle %s: id, want %s", p.ID, want)
				}
			}
		})
	}
}
