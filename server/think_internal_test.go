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

	"emergo/enginework"
	"emergo/store/sqlstore"
)

// idleServer is a server on SQLite whose engine work waits on jobs, in
// the memory store it returns, that no worker takes: the tests play them
// by hand.
func idleServer(t *testing.T) (*Server, *sqlstore.DB, *enginework.Memory, func(path, body string) map[string]any) {
	t.Helper()
	st, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	jobs := enginework.NewMemory()
	s, err := New(context.Background(), Config{Store: st, Jobs: jobs, EngineWorkers: -1, RateLimit: -1,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		ts.Close()
		s.Close()
		st.Close()
	})
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
	return s, st, jobs, post
}

// thought returns the engine's move job of game id, asked for and not
// taken, with its game in memory.
func thought(t *testing.T, s *Server, jobs *enginework.Memory, id string) (*live, *enginework.Job) {
	t.Helper()
	lv, err := s.load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	lv.mu.Lock()
	job := lv.job
	lv.mu.Unlock()
	j, err := jobs.Job(context.Background(), job)
	if err != nil || j.Kind != enginework.Move || j.State != enginework.Queued {
		t.Fatalf("the engine's thought: job %d %+v, %v; want a move queued", job, j, err)
	}
	return lv, j
}

// A take-back while the engine thinks drops its thought at once, and the
// viewers learn both: without it their pages would say that the engine
// thinks until they reload.
func TestTakeBackDropsTheThought(t *testing.T) {
	s, _, jobs, post := idleServer(t)
	id := post("/api/games", `{"mode": "engine", "size": 7, "level": 1, "color": "white"}`)["id"].(string)
	post("/api/games/"+id+"/move", `{"move": "a1", "ply": 0}`)
	lv, j := thought(t, s, jobs, id)
	wake := make(chan struct{}, 1)
	lv.mu.Lock()
	lv.subs[wake] = struct{}{}
	lv.mu.Unlock()
	post("/api/games/"+id+"/takeback", `{"action": "request"}`)
	select {
	case <-wake:
	case <-time.After(time.Minute):
		t.Fatal("the take-back is not published")
	}
	lv.mu.Lock()
	state := s.state(lv, viewer{})
	lv.mu.Unlock()
	if state.Thinking || len(state.Moves) != 0 {
		t.Errorf("the state published after the take-back: thinking %v, moves %v; want no thought and no moves", state.Thinking, state.Moves)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		got, err := jobs.Job(context.Background(), j.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.State == enginework.Dropped {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job of the thought taken back is %s, want dropped", got.State)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// An engine move is played once: by the first of the workers that found
// it, in the game held in memory (a server's workers) or as stored (a
// worker process); a second is refused by the game's version, as is a
// move for a version that has gone.
func TestEngineMovePlayedOnce(t *testing.T) {
	for _, c := range []struct {
		name  string
		apply func(*Server) enginework.Apply
	}{
		{"in memory", func(s *Server) enginework.Apply { return s.applyMove }},
		{"as stored", func(s *Server) enginework.Apply { return s.applyStored }},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, st, jobs, post := idleServer(t)
			ctx := context.Background()
			id := post("/api/games", `{"mode": "engine", "size": 7, "level": 1, "color": "white"}`)["id"].(string)
			post("/api/games/"+id+"/move", `{"move": "a1", "ply": 0}`)
			_, j := thought(t, s, jobs, id)
			apply := c.apply(s)
			if err := apply(ctx, j, "g7"); err != nil {
				t.Fatalf("the first worker's move: %v", err)
			}
			if err := apply(ctx, j, "f6"); !errors.Is(err, enginework.ErrStale) {
				t.Errorf("the second worker's move: %v, want ErrStale", err)
			}
			old := *j
			old.Version--
			if err := apply(ctx, &old, "f6"); !errors.Is(err, enginework.ErrStale) {
				t.Errorf("a move for a version that has gone: %v, want ErrStale", err)
			}
			g, err := st.Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Moves) != 2 || g.Moves[1].Text != "g7" || g.Version != j.Version+1 {
				t.Errorf("the stored game: moves %v, version %d; want a1 g7 at version %d", g.Moves, g.Version, j.Version+1)
			}
		})
	}
}
