package egtb_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"emergo/egtb"
	"emergo/eval"
	"emergo/rules"
	"emergo/search"
)

// randomTwoColumns returns a position of the tables: two distinct squares,
// random top counts, a random side to move.
func randomTwoColumns(g *rules.Geometry, r *rand.Rand) rules.Position {
	for {
		a, b := rules.Square(r.IntN(g.Squares)), rules.Square(r.IntN(g.Squares))
		if a == b {
			continue
		}
		kw, kb := 1+r.IntN(g.Men), 1+r.IntN(g.Men)
		p, err := rules.PositionOf(g, map[rules.Square]rules.Column{
			a: {Owner: rules.White, Top: kw, Prisoners: g.Men - kb},
			b: {Owner: rules.Black, Top: kb, Prisoners: g.Men - kw},
		}, [2]int{}, rules.Color(r.IntN(2)))
		if err != nil {
			panic(err)
		}
		return p
	}
}

// The tables against a plain search without them (no reductions, a fresh
// table each time): where the search sees the end, it finds the table's
// result at the table's distance; and wherever the table's distance is
// within the search's depth, the search sees that end.
func TestTablesAgreeWithSearch(t *testing.T) {
	for _, tc := range []struct {
		geo      *rules.Geometry
		depth, n int
	}{{rules.Geometry7, 13, 300}, {rules.Geometry9, 11, 200}} {
		r := rand.New(rand.NewPCG(7, uint64(tc.geo.N)))
		seen, within := 0, 0
		for range tc.n {
			p := randomTwoColumns(tc.geo, r)
			v, ok := egtb.Probe(&p)
			if !ok {
				t.Fatalf("%v: not in the tables", p)
			}
			e := search.New(search.Options{HashMiB: 1, Eval: &eval.Default, NoReductions: true})
			res := e.Search(context.Background(), p, nil, search.Limits{Depth: tc.depth}, nil)
			plies, found := mateDistance(res.Score)
			if found {
				seen++
				if plies != v.Plies || (res.Score > 0) != (v.Outcome > 0) {
					t.Errorf("%v: the search says %d (%d plies), the table %v", p, res.Score, plies, v)
				}
			}
			if v.Plies <= tc.depth {
				within++
				if !found {
					t.Errorf("%v: the table says %v, the search at depth %d scores %d", p, v, tc.depth, res.Score)
				}
			}
		}
		t.Logf("%dx%d: %d positions, %d ends seen by the search, %d within its depth", tc.geo.N, tc.geo.N, tc.n, seen, within)
		if seen < tc.n/10 {
			t.Errorf("%dx%d: only %d of %d positions compared", tc.geo.N, tc.geo.N, seen, tc.n)
		}
	}
}

// mateDistance reads a search score as plies to the end.
func mateDistance(s int32) (int, bool) {
	switch {
	case s >= search.MateBound:
		return int(search.Mate - s), true
	case s <= -search.MateBound:
		return int(search.Mate + s), true
	}
	return 0, false
}

// The three-column table against a plain search, as the two-column
// tables are.
func TestThreeAgreesWithSearch(t *testing.T) {
	tab, err := egtb.ThreeFor(rules.Geometry7)
	if err != nil || tab == nil {
		t.Fatalf("the three-column table: %v, %v", tab, err)
	}
	depth, n := 13, 300
	if testing.Short() {
		depth = 11
	}
	r := rand.New(rand.NewPCG(11, 7))
	seen, within, draws := 0, 0, 0
	for range n {
		p := egtb.RandomThree(rules.Geometry7, r)
		v, ok := tab.Probe(&p)
		if w, ok2 := egtb.Probe(&p); !ok || !ok2 || w != v {
			t.Fatalf("%v: the table says %v (%v), Probe %v (%v)", p, v, ok, w, ok2)
		}
		if v.Outcome == 0 {
			draws++
		}
		e := search.New(search.Options{HashMiB: 1, Eval: &eval.Default, NoReductions: true})
		res := e.Search(context.Background(), p, nil, search.Limits{Depth: depth}, nil)
		plies, found := mateDistance(res.Score)
		// Beyond its depth the search sees ends through its captures
		// alone (forced, RULES 3.5), never sooner than the best play's.
		if found {
			seen++
			if v.Outcome == 0 || (res.Score > 0) != (v.Outcome > 0) || plies < v.Plies || v.Plies <= depth && plies != v.Plies {
				t.Errorf("%v: the search says %d (%d plies), the table %v", p, res.Score, plies, v)
			}
		}
		if v.Outcome != 0 && v.Plies <= depth {
			within++
			if !found {
				t.Errorf("%v: the table says %v, the search at depth %d scores %d", p, v, depth, res.Score)
			}
		}
	}
	t.Logf("7x7, three columns: %d positions, %d drawn, %d ends seen by the search, %d within its depth", n, draws, seen, within)
	if seen < n/10 {
		t.Errorf("only %d of %d positions compared", seen, n)
	}
}
