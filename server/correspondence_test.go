package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"emergo/record"
	"emergo/server"
	"emergo/store"
	"emergo/store/sqlstore"
)

const day = 24 * time.Hour

// corrState is the correspondence part of a game's state.
type corrState struct {
	Clock          any `json:"clock"`
	Correspondence *struct {
		Days     int     `json:"days"`
		Deadline *string `json:"deadline"`
		LeftMS   int64   `json:"left_ms"`
		Running  *string `json:"running"`
	} `json:"correspondence"`
}

// time is the server's time now.
func (e *env) time() time.Time { return time.Now().Add(time.Duration(e.now.Load())) }

// getJSON reads the answer to a GET of path into v.
func (c *client) getJSON(t *testing.T, path string, v any) {
	t.Helper()
	code, _, body := c.do("GET", path, nil)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, code, body)
	}
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
}

// corr reads the correspondence part of game id as c sees it.
func (c *client) corr(t *testing.T, id string) corrState {
	t.Helper()
	var cs corrState
	c.getJSON(t, "/api/games/"+id, &cs)
	return cs
}

// deadline returns the deadline of the state, failing if none runs.
func (cs corrState) deadline(t *testing.T) time.Time {
	t.Helper()
	c := cs.Correspondence
	if c == nil || c.Deadline == nil {
		t.Fatalf("no deadline runs: %+v", c)
	}
	d, err := time.Parse(time.RFC3339Nano, *c.Deadline)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// A game of days per move shows its days and, from the moment both
// players are there, the deadline of the player to move; it has no clock.
func TestCorrespondenceState(t *testing.T) {
	e := newEnv(t, server.Config{})
	a, b := e.client(), e.client()
	id := a.create(t, map[string]any{"mode": "friend", "size": 7, "color": "white", "days": 3}).ID
	cs := a.corr(t, id)
	if cs.Clock != nil || cs.Correspondence == nil || cs.Correspondence.Days != 3 || cs.Correspondence.Deadline != nil {
		t.Fatalf("before the friend joins: %+v %+v", cs.Clock, cs.Correspondence)
	}
	before := e.time()
	b.join(t, id, "bob", a.invite(t, id))
	cs = a.corr(t, id)
	within(t, "White's deadline", cs.deadline(t), before.Add(3*day), e.time().Add(3*day))
	if c := cs.Correspondence; *c.Running != "white" || c.LeftMS <= 0 || c.LeftMS > (3*day).Milliseconds() {
		t.Errorf("after the join: %+v", c)
	}
	e.now.Add(int64(2 * day))
	before = e.time()
	a.move(id, "a1", 0)
	cs = b.corr(t, id)
	within(t, "Black's deadline", cs.deadline(t), before.Add(3*day), e.time().Add(3*day))
	if *cs.Correspondence.Running != "black" {
		t.Errorf("after White's move: %+v", cs.Correspondence)
	}
	// The record says one move in three days, as PGN writes a time per move.
	resp, err := a.c.Get(e.ts.URL + "/api/games/" + id + "/record.pgn")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	recs, err := record.ReadPGN(resp.Body)
	if err != nil || len(recs) != 1 || recs[0].Tag("TimeControl") != "1/259200" {
		t.Errorf("the record's time control: %v %v", recs, err)
	}
}

// within checks that the time t is from lo to hi, to the millisecond.
func within(tt *testing.T, what string, t, lo, hi time.Time) {
	tt.Helper()
	if t.Before(lo.Truncate(time.Millisecond)) || t.After(hi) {
		tt.Errorf("%s is %v, want from %v to %v", what, t, lo, hi)
	}
}

// Creating a game checks its days per move.
func TestCorrespondenceCreate(t *testing.T) {
	e := newEnv(t, server.Config{})
	a := e.client()
	tests := []struct {
		name string
		req  map[string]any
		code int
		want string
	}{
		{"a week", map[string]any{"mode": "friend", "days": 7}, http.StatusCreated, ""},
		{"not a choice", map[string]any{"mode": "friend", "days": 4}, http.StatusBadRequest, "days per move must be one of [1 2 3 7 14]"},
		{"negative", map[string]any{"mode": "friend", "days": -1}, http.StatusBadRequest, "days per move must be one of"},
		{"with a clock too", map[string]any{"mode": "friend", "days": 3, "clock": map[string]any{"initial": 60, "increment": 0}}, http.StatusBadRequest, "give a clock or days per move, not both"},
		{"against the engine", map[string]any{"mode": "engine", "days": 3}, http.StatusBadRequest, "days per move are for games between people"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, st, body := a.do("POST", "/api/games", tc.req)
			if code != tc.code || !strings.HasPrefix(st.Error, tc.want) {
				t.Errorf("%d %s, want %d %q", code, body, tc.code, tc.want)
			}
		})
	}
}

// When the deadline passes the server ends the game on time, by itself:
// the sweep finds the game in the store, though no timer was set for a
// deadline days away. A move after the deadline is refused.
func TestCorrespondenceForfeit(t *testing.T) {
	tests := []struct {
		name string
		// sweep is how often the server looks for deadlines: on a late
		// move, too seldom to end the game before the move comes.
		sweep time.Duration
		end   func(t *testing.T, e *env, id string, b *client)
	}{
		{"by itself", 10 * time.Millisecond, func(t *testing.T, e *env, id string, b *client) {}},
		{"on a late move", time.Hour, func(t *testing.T, e *env, id string, b *client) {
			if code, st := b.move(id, "g7", 1); code != http.StatusConflict || st.Error != "your time ran out" {
				t.Errorf("a move after the deadline: %d %q", code, st.Error)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, server.Config{DeadlineSweep: tc.sweep})
			id, a, b := friendGame(t, e, map[string]any{"days": 1})
			if code, _ := a.move(id, "a1", 0); code != 200 {
				t.Fatalf("first move: %d", code)
			}
			e.now.Add(int64(day - time.Minute))
			if st := b.corr(t, id); st.Correspondence.LeftMS > time.Minute.Milliseconds() {
				t.Errorf("a minute before the deadline %d ms are left", st.Correspondence.LeftMS)
			}
			e.now.Add(int64(time.Minute))
			tc.end(t, e, id, b)
			st := waitFor(t, a, id, func(s state) bool { return s.Result != "*" })
			if st.Result != "1-0" || st.Reason != "time forfeit" || len(st.Moves) != 1 {
				t.Errorf("after the deadline: %s (%s) after %d moves", st.Result, st.Reason, len(st.Moves))
			}
			if cs := a.corr(t, id); cs.Correspondence.Deadline != nil {
				t.Errorf("a deadline after the end: %+v", cs.Correspondence)
			}
		})
	}
}

// A correspondence game goes on across restarts of the server: its
// deadline holds, whatever the time the server was down, and when it has
// passed, the server that starts next ends the game on time.
func TestCorrespondenceAcrossRestart(t *testing.T) {
	st, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	correspondenceRestartTest(t, st)
}

func correspondenceRestartTest(t *testing.T, st store.Store) {
	t.Cleanup(func() { st.Close() })
	// restart closes the server of e and starts another on the store,
	// its clock later by ahead; the clients go to it.
	restart := func(e *env, ahead time.Duration, clients ...*client) *env {
		e.ts.Close()
		e.srv.Close()
		next := newEnvAhead(t, server.Config{Store: keepOpen{st}}, time.Duration(e.now.Load())+ahead)
		for _, c := range clients {
			c.e = next
		}
		return next
	}
	first := newEnv(t, server.Config{Store: keepOpen{st}})
	id, a, b := friendGame(t, first, map[string]any{"days": 3})
	a.move(id, "a1", 0)
	before := a.corr(t, id).deadline(t)

	second := restart(first, 2*day, a, b)
	if n := second.srv.Cached(); n != 0 {
		t.Errorf("%d games in memory after the start: a correspondence game days from its deadline waits in the store", n)
	}
	after := b.corr(t, id)
	if d := after.deadline(t); !d.Equal(before) {
		t.Errorf("the deadline was %v, after the restart %v", before, d)
	}
	if left := after.Correspondence.LeftMS; left > day.Milliseconds() || left < (day-time.Hour).Milliseconds() {
		t.Errorf("two days into three, %v left", time.Duration(left)*time.Millisecond)
	}
	if code, st := b.move(id, "g7", 1); code != 200 || len(st.Moves) != 2 {
		t.Fatalf("a move after the restart: %d %+v", code, st)
	}
	white := a.corr(t, id).deadline(t)

	third := restart(second, 3*day+time.Minute, a, b)
	if third.time().Before(white) {
		t.Fatalf("the third server starts at %v, before White's deadline %v", third.time(), white)
	}
	_, end, _ := a.do("GET", "/api/games/"+id, nil)
	if end.Result != "0-1" || end.Reason != "time forfeit" || len(end.Moves) != 2 {
		t.Errorf("White's deadline passed while the server was down: %s (%s) after %d moves", end.Result, end.Reason, len(end.Moves))
	}
}

// A correspondence game whose deadline is days away leaves memory like
// any idle game: no timer holds it.
func TestCorrespondenceLeavesMemory(t *testing.T) {
	e := newEnv(t, server.Config{EvictAfter: 50 * time.Millisecond})
	id, a, b := friendGame(t, e, map[string]any{"days": 14})
	a.move(id, "a1", 0)
	deadline := time.Now().Add(patience)
	for e.srv.Cached() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d games in memory, want none", e.srv.Cached())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if code, st := b.move(id, "g7", 1); code != 200 || len(st.Moves) != 2 {
		t.Errorf("a move in the game loaded again: %d %+v", code, st)
	}
}
