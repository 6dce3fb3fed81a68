package player

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"emergo/rules"
)

// playTexts plays moves written in the notation on g.
func playTexts(t *testing.T, g *rules.Game, moves ...string) {
	t.Helper()
	for _, text := range moves {
		var m rules.Move
		for _, l := range g.Legal() {
			if l.Text(g.Geometry()) == text {
				m = l
			}
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
}

// The search sees the game's earlier positions: a move that repeats the
// start a third time scores as a draw (RULES 6.3; docs/rules.md, D13),
// while the same position searched alone knows nothing of it.
func TestSearcherSeesTheGame(t *testing.T) {
	g := rules.NewGameFrom(mustPosition(t, "9x9 w 0/0 a1:W1b11 i9:B1w11"))
	playTexts(t, g, "a1-b2", "i9-h8", "b2-a1", "h8-i9", "a1-b2", "i9-h8", "b2-a1")
	lim := Limits{Depth: 3, MultiPV: 4}
	score := func(g *rules.Game) int32 {
		t.Helper()
		r := NewSearcher(SearchOptions{HashMiB: 1}).Search(context.Background(), g, lim, nil)
		for _, l := range r.Lines {
			if l.PV[0].Text(g.Geometry()) == "h8-i9" {
				return l.Score
			}
		}
		t.Fatal("h8-i9 is not among the lines")
		return 0
	}
	if s := score(g); s != 0 {
		t.Errorf("in the game, h8-i9 repeats the start a third time but scores %d", s)
	}
	if s := score(rules.NewGameFrom(g.Position())); s == 0 {
		t.Errorf("alone, the position has no past, but h8-i9 scores a draw")
	}
}

// A search from the pool depends only on its position and limits, not on
// what the search lent before it saw.
func TestPoolClearsTheTable(t *testing.T) {
	ctx := context.Background()
	pool := NewPool(1, 1)
	g := rules.NewGameFrom(BenchPositions()[3])
	lim := Limits{Depth: 5}
	fresh := NewSearcher(SearchOptions{HashMiB: 1}).Search(ctx, g, lim, nil)
	for i := range 3 {
		s, err := pool.Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		r := s.Search(ctx, g, lim, nil)
		pool.Put(s)
		if r.Move != fresh.Move || r.Score != fresh.Score || r.Nodes != fresh.Nodes {
			t.Errorf("search %d from the pool: %s %d in %d nodes, fresh: %s %d in %d nodes", i+1,
				r.Move.Text(g.Geometry()), r.Score, r.Nodes, fresh.Move.Text(g.Geometry()), fresh.Score, fresh.Nodes)
		}
	}
}

// Get waits while every search is lent, and gives up when its context
// ends.
func TestPoolWaitsForAFreeSearch(t *testing.T) {
	pool := NewPool(2, 1)
	if pool.Size() != 2 {
		t.Fatalf("size %d, want 2", pool.Size())
	}
	var lent []*Searcher
	for range 2 {
		s, err := pool.Get(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		lent = append(lent, s)
	}
	if lent[0] == lent[1] {
		t.Fatal("the pool lent one search twice")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := pool.Get(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Get with every search lent and its context done: %v, want context.Canceled", err)
	}
	got := make(chan *Searcher)
	go func() {
		s, err := pool.Get(context.Background())
		if err != nil {
			t.Error(err)
		}
		got <- s
	}()
	pool.Put(lent[0])
	pool.Put(<-got)
	pool.Put(lent[1])
}

// However many ask at once, no more than Size searches are lent.
func TestPoolBoundsTheSearches(t *testing.T) {
	const size, workers = 3, 12
	pool := NewPool(size, 1)
	var out, most atomic.Int32
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range 20 {
				s, err := pool.Get(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				n := out.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				out.Add(-1)
				pool.Put(s)
			}
		})
	}
	wg.Wait()
	if m := most.Load(); m > size {
		t.Errorf("%d searches lent at once, want at most %d", m, size)
	}
}

func TestMaxLevel(t *testing.T) {
	for _, tc := range []struct {
		name  string
		level int
		ok    bool
	}{
		{"below", 0, false},
		{"weakest", 1, true},
		{"full strength", MaxLevel, true},
		{"above", MaxLevel + 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewEngine(tc.level, EngineOptions{HashMiB: 1})
			if (err == nil) != tc.ok {
				t.Errorf("NewEngine(%d): %v", tc.level, err)
			}
		})
	}
	if Levels[MaxLevel] != (Level{}) {
		t.Errorf("level %d has limits %+v; full strength has none but the clock", MaxLevel, Levels[MaxLevel])
	}
}
