package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"emergo/player"
	"emergo/rules"
	"emergo/store/sqlstore"
)

// takeSlot takes one of the engine slots of s, as a search would, until
// the function it returns gives it back.
func takeSlot(t *testing.T, s *Server) (release func()) {
	t.Helper()
	entered, done, finished := make(chan struct{}), make(chan struct{}), make(chan error)
	go func() {
		finished <- s.engineWork(context.Background(), func(*player.Searcher) error {
			close(entered)
			<-done
			return nil
		})
	}()
	<-entered
	return func() {
		close(done)
		if err := <-finished; err != nil {
			t.Error(err)
		}
	}
}

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

	release := takeSlot(t, s)
	if n := s.metrics.searching.Value(); n != 1 {
		t.Errorf("searching %d while one search runs", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := rules.NewGame(rules.Geometry7)
	if _, err := s.analyse(ctx, g, 1); !errors.Is(err, context.Canceled) {
		t.Errorf("analysis with the slot taken and its request gone: %v, want context.Canceled", err)
	}
	release()
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

// A thought the engine drops, because the game changed while it thought
// (here a take-back), reaches the viewers as a change: without it their
// pages would say that the engine thinks until they reload.
func TestDroppedThoughtIsPublished(t *testing.T) {
	st, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := New(context.Background(), Config{Store: st, EngineWorkers: 1, EngineHashMiB: 1, RateLimit: -1,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	post := func(path, body string) map[string]any {
		t.Helper()
		resp, err := c.Post(ts.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var v map[string]any
		json.NewDecoder(resp.Body).Decode(&v)
		if resp.StatusCode >= 300 {
			t.Fatalf("%s: %d %v", path, resp.StatusCode, v)
		}
		return v
	}
	wait := func(what string, ch <-chan struct{}) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(time.Minute):
			t.Fatalf("%s: not within a minute", what)
		}
	}

	// The engine's only slot is taken, so its thought waits for it.
	release := takeSlot(t, s)
	id := post("/api/games", `{"mode": "engine", "size": 7, "level": 1, "color": "white"}`)["id"].(string)
	post("/api/games/"+id+"/move", `{"move": "a1", "ply": 0}`)
	lv, err := s.load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	wake := make(chan struct{}, 1)
	lv.mu.Lock()
	lv.subs[wake] = struct{}{}
	lv.mu.Unlock()
	post("/api/games/"+id+"/takeback", `{"action": "request"}`)
	wait("the take-back is published", wake)
	lv.mu.Lock()
	thinking, moves := lv.thinking, lv.r.game.Len()
	lv.mu.Unlock()
	if !thinking || moves != 0 {
		t.Fatalf("after the take-back: thinking %v, %d moves; want the engine still on its thought, no moves", thinking, moves)
	}

	release()
	wait("the dropped thought is published", wake)
	lv.mu.Lock()
	state := s.state(lv, viewer{})
	lv.mu.Unlock()
	if state.Thinking || len(state.Moves) != 0 {
		t.Errorf("the state published after the dropped thought: thinking %v, moves %v; want no thought and no moves", state.Thinking, state.Moves)
	}
}
