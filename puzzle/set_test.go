package puzzle

import (
	"context"
	"testing"
)

// minPuzzles is the least a shipped set holds of each board size: the
// 9x9 set kept 483 of its 560 puzzles when it was verified again to
// depth 14, and 367 of those when the engine gained its trained
// evaluation (README.md, "Puzzles").
const minPuzzles = 350

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

// minDeep is the least depth to which the shipped 9x9 set was verified
// again: its own criteria's depth (10) let through puzzles whose second
// move holds as well at depth 16, and a search to 14 drops them.
const minDeep = 14

// TestSetsHoldDeeper checks the 9x9 set's "verified depth" line and a
// sample of its puzzles at that depth (about one in ten; two under
// -short): each solver move is still the only good one. The 7x7 set,
// verified at 12 when made, is checked the same way if it carries the
// line.
func TestSetsHoldDeeper(t *testing.T) {
	if c := Set(9); c.Deep < minDeep {
		t.Errorf("the 9x9 set was verified again to depth %d, want %d at least", c.Deep, minDeep)
	}
	for _, size := range []int{9, 7} {
		c := Set(size)
		if c.Deep == 0 {
			continue
		}
		t.Run(map[int]string{9: "9x9", 7: "7x7"}[size], func(t *testing.T) {
			t.Parallel()
			if c.Deep <= c.Criteria.Depth {
				t.Fatalf("verified depth %d, not deeper than the criteria's %d", c.Deep, c.Criteria.Depth)
			}
			deep := c.Criteria
			deep.Depth = c.Deep
			step := max(1, len(c.Puzzles)/50)
			if testing.Short() {
				step = max(1, len(c.Puzzles)/2)
			}
			v := NewVerifier(deep)
			for i := step / 2; i < len(c.Puzzles); i += step {
				if err := v.Check(context.Background(), &c.Puzzles[i]); err != nil {
					t.Errorf("at depth %d: %v", deep.Depth, err)
				}
			}
		})
	}
}
