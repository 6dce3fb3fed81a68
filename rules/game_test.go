package rules_test

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"emergo/rules"
)

// longWalk plays up to plies moves from the start of g, at random but
// never into a position seen twice already, nor one that ends the game,
// and rather into one not seen yet; it goes back a few moves where it is
// stuck. That makes a long game, as no real game lasts, with positions
// that occur twice. It returns the moves and the positions, the start
// included, computed without Game.
func longWalk(rng *rand.Rand, g *rules.Geometry, plies int) ([]rules.Move, []rules.Position) {
	pos := []rules.Position{rules.NewPosition(g)}
	var moves []rules.Move
	seen := map[uint64]int{pos[0].Hash(): 1}
	for len(moves) < plies {
		p := pos[len(pos)-1]
		var best rules.Move
		bestScore := -1
		for _, m := range p.Legal(nil) {
			q := p.After(m)
			if q.Lost() || q.CountLegal() == 0 || seen[q.Hash()] >= 2 {
				continue
			}
			if score := seen[q.Hash()]*10 + rng.IntN(5); bestScore < 0 || score < bestScore {
				best, bestScore = m, score
			}
		}
		if bestScore < 0 {
			// Stuck: the positions gone back over stay counted, which
			// only keeps the walk further from a third occurrence.
			n := max(len(moves)-1-rng.IntN(6), 0)
			moves, pos = moves[:n], pos[:n+1]
			continue
		}
		q := p.After(best)
		seen[q.Hash()]++
		moves, pos = append(moves, best), append(pos, q)
	}
	return moves, pos
}

// TestGameHistory: a Game that keeps hashes and every markEvery-th
// position gives back every position of a long game, counts its
// occurrences as a naive count over all positions does, and undoes its
// moves back to the start.
func TestGameHistory(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, g := range []*rules.Geometry{rules.Geometry9, rules.Geometry7} {
		moves, pos := longWalk(rng, g, 300)
		gm := rules.NewGame(g)
		for i, m := range moves {
			if err := gm.Play(m); err != nil {
				t.Fatalf("%dx%d ply %d: %v", g.N, g.N, i, err)
			}
			want := 1
			for j := i; j >= 0 && moves[j].Kind() != rules.Entry; j-- {
				if pos[j] == pos[i+1] {
					want++
				}
			}
			if n := gm.Occurrences(); n != want {
				t.Fatalf("%dx%d ply %d: %d occurrences, want %d", g.N, g.N, i+1, n, want)
			}
		}
		clone := gm.Clone()
		for i := range pos {
			if p := gm.PositionAt(i); p != pos[i] || gm.HashAt(i) != pos[i].Hash() {
				t.Fatalf("%dx%d: PositionAt or HashAt(%d) is not the position before move %d", g.N, g.N, i, i)
			}
		}
		for n := len(moves); n > 0; n-- {
			if !gm.Undo() || gm.Len() != n-1 || gm.Position() != pos[n-1] {
				t.Fatalf("%dx%d: Undo to ply %d", g.N, g.N, n-1)
			}
			if n-1 > 0 && gm.PositionAt(n-2) != pos[n-2] {
				t.Fatalf("%dx%d: PositionAt(%d) after Undo", g.N, g.N, n-2)
			}
		}
		if clone.Len() != len(moves) || clone.Position() != pos[len(moves)] {
			t.Errorf("%dx%d: undoing the game changed its clone", g.N, g.N)
		}
	}
}

// TestGameMemory: a game holds its moves and hashes, not its positions:
// under 48 bytes a ply (a move is 16, a hash 8, a position about 120), so
// that a server holds many long games.
func TestGameMemory(t *testing.T) {
	const plies = 4000
	moves, _ := longWalk(rand.New(rand.NewPCG(7, 8)), rules.Geometry9, plies)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	gm := rules.NewGame(rules.Geometry9)
	for _, m := range moves {
		if err := gm.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(gm)
	runtime.KeepAlive(moves)
	perPly := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / plies
	t.Logf("%.1f bytes a ply", perPly)
	if perPly > 48 {
		t.Errorf("a game of %d plies holds %.0f bytes a ply, want under 48", plies, perPly)
	}
}

// BenchmarkGamePlay plays a long game through Game, with the
// repetition check of every move.
func BenchmarkGamePlay(b *testing.B) {
	moves, _ := longWalk(rand.New(rand.NewPCG(7, 8)), rules.Geometry9, 1000)
	for b.Loop() {
		gm := rules.NewGame(rules.Geometry9)
		for _, m := range moves {
			gm.Play(m)
		}
	}
	b.ReportMetric(float64(len(moves)*b.N)/b.Elapsed().Seconds(), "plies/s")
}
