package server

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"emergo/record"
	"emergo/store"
)

// TestHeldUploadMemory: a record of 1,000 plies, the longest the site
// takes, costs the server some tens of KB while it holds its game in
// memory (for Config.EvictAfter after its last request): the game keeps
// its moves, not a position and a stamp for every ply.
func TestHeldUploadMemory(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "record", "testdata", "long.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := record.ReadAll(data)
	if err != nil {
		t.Fatal(err)
	}
	rec := recs[0]
	g := rec.Start.Geometry()
	created := time.UnixMilli(1.8e12).UTC()
	sg := &store.Game{ID: "held", Size: 9, Start: "9x9 w 12/12 -", Mode: "analysis", Result: "*", Created: created, Updated: created,
		DrawOffer: -1, TakeBack: -1, TurnStart: created, Version: 1, Seats: [2]store.Seat{{Name: "Ada"}, {Name: "Bob"}}}
	for _, m := range rec.Moves[:maxUploadPlies] {
		sg.Moves = append(sg.Moves, store.Move{Text: m.Text(g), At: created})
	}
	s := &Server{now: time.Now, started: time.Now()}
	const n = 20
	held := make([]*live, 0, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range n {
		r, err := s.roundOf(sg)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, &live{r: r, subs: map[chan struct{}]struct{}{}})
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(held)
	runtime.KeepAlive(sg)
	each := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n
	t.Logf("a held game of %d plies: %d bytes", maxUploadPlies, each)
	if each > 64<<10 {
		t.Errorf("a held game of %d plies takes %d KB, want under 64", maxUploadPlies, each>>10)
	}
}
