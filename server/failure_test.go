package server_test

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"emergo/server"
	"emergo/store"
	"emergo/store/sqlstore"
)

// failingStore is a store whose writes fail while broken is set, as on a
// full disk.
type failingStore struct {
	store.Store
	broken atomic.Bool
}

var errDiskFull = errors.New("disk I/O error: database or disk is full")

func (f *failingStore) Update(ctx context.Context, g *store.Game, keep int) error {
	if f.broken.Load() {
		return errDiskFull
	}
	return f.Store.Update(ctx, g, keep)
}

// A write that fails gives the player a clear error, changes nothing, and
// play goes on once the store works again.
func TestStorageFailureLosesNothing(t *testing.T) {
	sq, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	fs := &failingStore{Store: sq}
	e := newEnv(t, server.Config{Store: fs})
	id, a, b := friendGame(t, e, nil)
	if code, _ := a.move(id, "a1", 0); code != 200 {
		t.Fatal("first move refused")
	}
	fs.broken.Store(true)
	code, st := b.move(id, "g7", 1)
	if code != http.StatusServiceUnavailable || !strings.Contains(st.Error, "could not be saved") {
		t.Errorf("move on a full disk: %d %q, want 503 with a clear message", code, st.Error)
	}
	if strings.Contains(st.Error, "disk I/O") {
		t.Errorf("the error shows internals: %q", st.Error)
	}
	_, st, _ = b.do("GET", "/api/games/"+id, nil)
	if len(st.Moves) != 1 || st.Turn != "black" {
		t.Errorf("after the failed write the game is %+v; want the acknowledged move only", st)
	}
	fs.broken.Store(false)
	if code, st := b.move(id, "g7", 1); code != 200 || len(st.Moves) != 2 {
		t.Errorf("move after the store recovered: %d %+v", code, st)
	}
	// What was acknowledged is in the store itself.
	g, err := sq.Get(context.Background(), id)
	if err != nil || len(g.Moves) != 2 || g.Moves[0].Text != "a1" || g.Moves[1].Text != "g7" {
		t.Errorf("stored game: %v %+v", err, g)
	}
}
