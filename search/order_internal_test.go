package search

import (
	"testing"

	"emergo/eval"
	"emergo/rules"
)

// TestOrder: pick hands out every move of a node once, the hash move
// first, then the killer, then the move with a history, and the moves
// without one in the reverse of their generation order, the first places
// picked one by one and the rest sorted (sortFrom).
func TestOrder(t *testing.T) {
	for _, g := range []*rules.Geometry{rules.Geometry9, rules.Geometry7} {
		p := rules.NewPosition(g)
		th := newThread(New(Options{HashMiB: 1, Eval: &eval.Default}), 0)
		f := &th.stack[0]
		f.pos = p
		f.moves = p.Legal(f.moves[:0])
		n := len(f.moves)
		if n < 10 {
			t.Fatalf("%dx%d: %d moves, want the entries of an empty board", g.N, g.N, n)
		}
		const tt, killer, hist = 3, 5, 7 // generation indices
		th.killers[0][0] = f.moves[killer]
		th.hist[p.Side()][f.moves[hist].From()][f.moves[hist].To()] = 40
		th.order(f, 0, tt)

		seen := make([]bool, n)
		var order []uint8
		for i := range n {
			idx := th.pick(f, i)
			if seen[idx] {
				t.Fatalf("%dx%d: move %d picked twice", g.N, g.N, idx)
			}
			seen[idx] = true
			order = append(order, idx)
		}
		if order[0] != tt || order[1] != killer || order[2] != hist {
			t.Errorf("%dx%d: first picks %v, want the hash move %d, the killer %d, the move with history %d", g.N, g.N, order[:3], tt, killer, hist)
		}
		for i := 4; i < n; i++ {
			if order[i] >= order[i-1] {
				t.Errorf("%dx%d: move %d picked after move %d: want the later generated first", g.N, g.N, order[i], order[i-1])
			}
		}
	}
}
