package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"emergo/player"
	"emergo/rules"
	"emergo/store/sqlstore"
)

// Engine moves and analyses share the engine slots: while the only slot
// is taken, both wait, and the gauge counts the search running.
func TestEngineWorkSharesTheSlots(t *testing.T) {
	st, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := New(context.Background(), Config{Store: st, EngineWorkers: 1, EngineHashMiB: 1,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	entered, release, done := make(chan struct{}), make(chan struct{}), make(chan error)
	go func() {
		done <- s.engineWork(context.Background(), func(*player.Searcher) error {
			close(entered)
			<-release
			return nil
		})
	}()
	<-entered
	if n := s.metrics.searching.Value(); n != 1 {
		t.Errorf("searching %d while one search runs", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := rules.NewGame(rules.Geometry7)
	if _, err := s.analyse(ctx, g, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("analysis with the slot taken and its request gone: %v, want context.Canceled", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := s.metrics.searching.Value(); n != 0 {
		t.Errorf("searching %d after the search ended", n)
	}
	res, err := s.analyse(context.Background(), g, 1)
	if err != nil || res.Move.IsZero() {
		t.Errorf("analysis with the slot free: %v, move %v", err, res.Move)
	}
	if _, err := s.engineMove(g, player.MaxLevel+1, 0, player.Clock{}); err == nil {
		t.Error("an engine move at a level that does not exist succeeded")
	}
	if n := s.metrics.engineMoves.Value(); n != 0 {
		t.Errorf("engine moves %d after a failed one", n)
	}
	if _, err := s.engineMove(g, 1, 0, player.Clock{}); err != nil {
		t.Error(err)
	}
	if n := s.metrics.engineMoves.Value(); n != 1 {
		t.Errorf("engine moves %d after one", n)
	}
}
