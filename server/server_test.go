package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"emergo/enginework"
	"emergo/lobby"
	"emergo/record"
	"emergo/server"
	"emergo/store"
	"emergo/store/sqlstore"
	"emergo/store/storetest"
)

type env struct {
	t   *testing.T
	srv *server.Server
	ts  *httptest.Server
	now atomic.Int64 // offset added to the real time, in ns
	// rt carries the clients' requests, default http.DefaultTransport.
	rt http.RoundTripper
}

// newEnv starts a server on cfg.Store, or on a fresh SQLite file.
func newEnv(t *testing.T, cfg server.Config) *env {
	t.Helper()
	return newEnvAhead(t, cfg, 0)
}

// newEnvAhead is newEnv with the server's clock ahead of the real time
// by ahead from its start on.
func newEnvAhead(t *testing.T, cfg server.Config, ahead time.Duration) *env {
	t.Helper()
	st := cfg.Store
	if st == nil {
		sq, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
		if err != nil {
			t.Fatal(err)
		}
		st = sq
	}
	var err error
	e := &env{t: t}
	e.now.Store(int64(ahead))
	cfg.Store = st
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	cfg.Now = func() time.Time { return time.Now().Add(time.Duration(e.now.Load())) }
	if cfg.RateLimit == 0 {
		cfg.RateLimit = -1
	}
	e.srv, err = server.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.ts = httptest.NewServer(e.srv.Handler())
	t.Cleanup(func() {
		e.ts.Close()
		e.srv.Close()
		st.Close()
	})
	return e
}

// client is one browser: its own cookie jar.
type client struct {
	e *env
	c *http.Client
}

func (e *env) client() *client {
	jar, _ := cookiejar.New(nil)
	return &client{e: e, c: &http.Client{Jar: jar, Timeout: patience, Transport: e.rt}}
}

// state is the part of the API's game state the tests read.
type state struct {
	ID        string   `json:"id"`
	Size      int      `json:"size"`
	Mode      string   `json:"mode"`
	Level     int      `json:"level"`
	Moves     []string `json:"moves"`
	Legal     []string `json:"legal"`
	Turn      string   `json:"turn"`
	Result    string   `json:"result"`
	Reason    string   `json:"reason"`
	Over      bool     `json:"over"`
	Abortable bool     `json:"abortable"`
	Analysis  bool     `json:"analysis"`
	Invite    *string  `json:"invite"`
	Invited   bool     `json:"invited"`
	You       *string  `json:"you"`
	Thinking  bool     `json:"thinking"`
	Version   int64    `json:"version"`
	Position  string   `json:"position"`
	Shadow    int      `json:"shadow"`
	Clock     *struct {
		WhiteMS int64  `json:"white_ms"`
		BlackMS int64  `json:"black_ms"`
		Running string `json:"running"`
	} `json:"clock"`
	DrawOffer *string `json:"drawOffer"`
	Takeback  *string `json:"takeback"`
	Idle      *struct {
		AbortMS   int64 `json:"abort_ms"`
		AbandonMS int64 `json:"abandon_ms"`
	} `json:"idle"`
	Players map[string]struct {
		Name string `json:"name"`
	} `json:"players"`
	Error string `json:"error"`
}

func (c *client) do(method, path string, body any, hdr ...string) (int, state, string) {
	c.e.t.Helper()
	resp, data := c.send(method, path, body, hdr...)
	var st state
	json.Unmarshal(data, &st)
	return resp.StatusCode, st, string(data)
}

// send makes a request of c with body (none for nil, a string as it is,
// anything else as JSON) and the header pairs hdr, and returns the
// response with its body read.
func (c *client) send(method, path string, body any, hdr ...string) (*http.Response, []byte) {
	c.e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, _ := json.Marshal(b)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, c.e.ts.URL+path, rd)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := c.c.Do(req)
	if err != nil {
		c.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp, data
}

func (c *client) create(t *testing.T, req map[string]any) state {
	t.Helper()
	code, st, body := c.do("POST", "/api/games", req)
	if code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, body)
	}
	return st
}

func (c *client) move(id, mv string, ply int) (int, state) {
	code, st, _ := c.do("POST", "/api/games/"+id+"/move", map[string]any{"move": mv, "ply": ply})
	return code, st
}

// invite returns the invitation of game id that c, its creator, sends.
func (c *client) invite(t *testing.T, id string) string {
	t.Helper()
	_, st, body := c.do("GET", "/api/games/"+id, nil)
	if st.Invite == nil {
		t.Fatalf("no invitation in the state of game %s: %s", id, body)
	}
	return *st.Invite
}

// join takes the open seat of game id with the invitation.
func (c *client) join(t *testing.T, id, name, invite string) {
	t.Helper()
	if code, _, body := c.do("POST", "/api/games/"+id+"/join", map[string]any{"name": name, "invite": invite}); code != 200 {
		t.Fatalf("join: %d %s", code, body)
	}
}

// friendGame creates a 7x7 game between two clients, the second invited,
// and returns its id.
func friendGame(t *testing.T, e *env, extra map[string]any) (string, *client, *client) {
	t.Helper()
	a, b := e.client(), e.client()
	req := map[string]any{"mode": "friend", "size": 7, "color": "white", "name": "alice"}
	for k, v := range extra {
		req[k] = v
	}
	st := a.create(t, req)
	b.join(t, st.ID, "bob", *st.Invite)
	return st.ID, a, b
}

func TestFriendGame(t *testing.T) { friendGameTest(t, newEnv(t, server.Config{})) }

func friendGameTest(t *testing.T, e *env) {
	id, a, b := friendGame(t, e, nil)
	watcher := e.client()

	code, st := a.move(id, "a1", 0)
	if code != 200 || len(st.Moves) != 1 || *st.You != "white" {
		t.Fatalf("first move: %d %+v", code, st)
	}
	// Not your turn; wrong seat; spectator; illegal; stale ply.
	if code, _ := a.move(id, "g7", 1); code != http.StatusConflict {
		t.Errorf("white moving twice: %d, want 409", code)
	}
	if code, _ := watcher.move(id, "g7", 1); code != http.StatusForbidden {
		t.Errorf("spectator moving: %d, want 403", code)
	}
	if code, st := b.move(id, "b2", 1); code != http.StatusBadRequest || !strings.Contains(st.Error, "no feeding") {
		t.Errorf("illegal entry: %d %q, want 400 naming the no-feeding rule", code, st.Error)
	}
	if code, st := b.move(id, "h9", 1); code != http.StatusBadRequest || !strings.Contains(st.Error, "off the 7x7 board") {
		t.Errorf("off-board move: %d %q", code, st.Error)
	}
	if code, _ := b.move(id, "g7", 0); code != http.StatusConflict {
		t.Errorf("stale ply: %d, want 409", code)
	}
	if code, st := b.move(id, "g7", 1); code != 200 || st.Turn != "white" {
		t.Fatalf("black's move: %d %+v", code, st)
	}
	// A third browser cannot join a full game.
	if code, _, _ := watcher.do("POST", "/api/games/"+id+"/join", map[string]any{"name": "eve"}); code != http.StatusConflict {
		t.Errorf("third join: %d, want 409", code)
	}
	_, st, _ = watcher.do("GET", "/api/games/"+id, nil)
	if st.You != nil || len(st.Moves) != 2 {
		t.Errorf("watcher sees %+v", st)
	}
	// Resign ends it; moves after the end are refused.
	if code, st, _ := b.do("POST", "/api/games/"+id+"/resign", nil); code != 200 || st.Result != "1-0" || st.Reason != "resignation" {
		t.Errorf("resign: %d %+v", code, st)
	}
	if code, st := a.move(id, "c1", 2); code != http.StatusConflict || !strings.Contains(st.Error, "over") {
		t.Errorf("move after the end: %d %q", code, st.Error)
	}
}

func TestBadRequests(t *testing.T) {
	e := newEnv(t, server.Config{})
	id, a, _ := friendGame(t, e, nil)
	cases := []struct {
		name, method, path string
		body               any
		code               int
		want               string
	}{
		{"malformed JSON", "POST", "/api/games/" + id + "/move", `{"move": `, 400, "malformed"},
		{"unknown field", "POST", "/api/games/" + id + "/move", `{"mvoe": "a1", "ply": 0}`, 400, "unknown field"},
		{"missing ply", "POST", "/api/games/" + id + "/move", `{"move": "a1"}`, 400, "ply"},
		{"no body", "POST", "/api/games", ``, 400, "no body"},
		{"bad size", "POST", "/api/games", `{"mode":"friend","size":8}`, 400, "size"},
		{"bad mode", "POST", "/api/games", `{"mode":"chess"}`, 400, "mode"},
		{"bad level", "POST", "/api/games", `{"mode":"engine","level":11}`, 400, "level"},
		{"unknown game", "GET", "/api/games/nosuchgame", nil, 404, "no such game"},
		{"unknown game move", "POST", "/api/games/nosuchgame/move", `{"move":"a1","ply":0}`, 404, "no such game"},
		{"unknown endpoint", "GET", "/api/nothing", nil, 404, "no such"},
		{"oversized body", "POST", "/api/games/" + id + "/move", `{"move": "` + strings.Repeat("x", 70<<10) + `", "ply": 0}`, 413, "too large"},
		{"bad ply", "GET", "/api/games/" + id + "/at/99", nil, 400, "ply"},
		{"bad draw action", "POST", "/api/games/" + id + "/draw", `{"action":"maybe"}`, 400, "action"},
	}
	for _, c := range cases {
		code, st, body := a.do(c.method, c.path, c.body)
		if code != c.code || !strings.Contains(st.Error, c.want) {
			t.Errorf("%s: %d %s, want %d with %q", c.name, code, body, c.code, c.want)
		}
		if strings.Contains(body, "goroutine") || strings.Contains(body, ".go:") {
			t.Errorf("%s: internals in the response: %s", c.name, body)
		}
	}
}

func TestRacingMovesExactlyOneWins(t *testing.T) { racingTest(t, newEnv(t, server.Config{})) }

func racingTest(t *testing.T, e *env) {
	id, a, _ := friendGame(t, e, nil)
	const n = 10
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			codes[i], _ = a.move(id, []string{"a1", "c1", "e1", "g1", "b2"}[i%5], 0)
		}(i)
	}
	wg.Wait()
	ok := 0
	for _, c := range codes {
		if c == 200 {
			ok++
		} else if c != http.StatusConflict {
			t.Errorf("racing move answered %d", c)
		}
	}
	_, st, _ := a.do("GET", "/api/games/"+id, nil)
	if ok != 1 || len(st.Moves) != 1 {
		t.Errorf("%d racing moves accepted, %d stored; want exactly 1", ok, len(st.Moves))
	}
}

func TestEngineReplies(t *testing.T) {
	e := newEnv(t, server.Config{})
	a := e.client()
	st := a.create(t, map[string]any{"mode": "engine", "size": 7, "level": 1, "color": "black"})
	// The engine is White: it moves first by itself.
	st = waitFor(t, a, st.ID, func(s state) bool { return len(s.Moves) == 1 })
	if *st.You != "black" || st.Thinking {
		t.Fatalf("after the engine's first move: %+v", st)
	}
	if code, _ := a.move(st.ID, st.Legal[0], 1); code != 200 {
		t.Fatalf("reply: %d", code)
	}
	waitFor(t, a, st.ID, func(s state) bool { return len(s.Moves) == 3 })
	// A take-back against the engine is granted at once, back to our turn.
	code, tb, _ := a.do("POST", "/api/games/"+st.ID+"/takeback", map[string]any{"action": "request"})
	if code != 200 || len(tb.Moves) != 1 || tb.Turn != "black" {
		t.Errorf("take-back: %d %+v", code, tb)
	}
}

// patience bounds a wait for something that must happen: long enough that
// only a server that never does it fails, however busy the machine.
const patience = time.Minute

func waitFor(t *testing.T, c *client, id string, ok func(state) bool) state {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		_, st, _ := c.do("GET", "/api/games/"+id, nil)
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out; last state %+v", st)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestEventsArriveLive(t *testing.T) { eventsTest(t, newEnv(t, server.Config{})) }

func eventsTest(t *testing.T, e *env) {
	id, a, b := friendGame(t, e, nil)
	stream := events[state](t, b, "/api/games/"+id+"/events")
	first := <-stream
	if len(first.Moves) != 0 || first.You == nil || *first.You != "black" {
		t.Fatalf("first event %+v", first)
	}
	sent := time.Now()
	a.move(id, "c3", 0)
	select {
	case st := <-stream:
		if len(st.Moves) != 1 || st.Moves[0] != "c3" {
			t.Errorf("event after the move: %+v", st)
		}
		t.Logf("event after %v", time.Since(sent))
	case <-time.After(patience):
		t.Fatalf("no event within %v of the move", patience)
	}
}

func TestDrawAndTakeback(t *testing.T) {
	e := newEnv(t, server.Config{})
	id, a, b := friendGame(t, e, nil)
	a.move(id, "a1", 0)
	b.move(id, "g7", 1)
	// Take-back asked by White after Black replied: two plies go.
	if code, st, _ := a.do("POST", "/api/games/"+id+"/takeback", map[string]any{"action": "request"}); code != 200 || *st.Takeback != "white" {
		t.Fatalf("request: %d %+v", code, st)
	}
	if code, _, _ := a.do("POST", "/api/games/"+id+"/takeback", map[string]any{"action": "accept"}); code != http.StatusConflict {
		t.Errorf("accepting one's own request: %d", code)
	}
	code, st, _ := b.do("POST", "/api/games/"+id+"/takeback", map[string]any{"action": "accept"})
	if code != 200 || len(st.Moves) != 0 || st.Turn != "white" || st.Takeback != nil {
		t.Fatalf("accept: %d %+v", code, st)
	}
	a.move(id, "a1", 0)
	if code, st, _ := b.do("POST", "/api/games/"+id+"/draw", map[string]any{"action": "offer"}); code != 200 || *st.DrawOffer != "black" {
		t.Fatalf("offer: %d %+v", code, st)
	}
	if code, st, _ := a.do("POST", "/api/games/"+id+"/draw", map[string]any{"action": "accept"}); code != 200 || st.Result != "1/2-1/2" || st.Reason != "agreement" {
		t.Errorf("accept draw: %d %+v", code, st)
	}
}

func TestClockFlags(t *testing.T) { clockTest(t, newEnv(t, server.Config{})) }

// Each player's clock runs from his first move on (as on lichess): the
// first moves are free, however long they take; after them the flag falls.
func clockTest(t *testing.T, e *env) {
	id, a, b := friendGame(t, e, map[string]any{"clock": map[string]any{"initial": 60, "increment": 5}})
	e.now.Add(int64(61 * time.Second))
	if code, st := a.move(id, "a1", 0); code != 200 || st.Clock.WhiteMS != 60000 || st.Clock.Running != "" {
		t.Fatalf("White's first move after a minute: %d %+v, want 60 s left and no clock running", code, st.Clock)
	}
	e.now.Add(int64(61 * time.Second))
	if code, st := b.move(id, "g7", 1); code != 200 || st.Clock.BlackMS != 60000 || st.Clock.Running != "white" {
		t.Fatalf("Black's first move after a minute: %d %+v, want 60 s left and White's clock running", code, st.Clock)
	}
	e.now.Add(int64(61 * time.Second))
	code, st := a.move(id, "c1", 2)
	if code != http.StatusConflict || !strings.Contains(st.Error, "time") {
		t.Errorf("move after the flag fell: %d %q", code, st.Error)
	}
	_, st, _ = a.do("GET", "/api/games/"+id, nil)
	if st.Result != "0-1" || st.Reason != "time forfeit" || st.Clock.WhiteMS != 0 {
		t.Errorf("after the flag: %+v %+v", st, st.Clock)
	}
}

func TestRecords(t *testing.T) {
	e := newEnv(t, server.Config{})
	id, a, b := friendGame(t, e, nil)
	a.move(id, "a1", 0)
	b.move(id, "g7", 1)
	resp, err := a.c.Get(e.ts.URL + "/api/games/" + id + "/record.pgn")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	recs, err := record.ReadPGN(bytes.NewReader(data))
	if err != nil || len(recs) != 1 || len(recs[0].Moves) != 2 || recs[0].Tag("White") != "alice" {
		t.Fatalf("downloaded record: %v\n%s", err, data)
	}
	resp, _ = a.c.Get(e.ts.URL + "/api/games/" + id + "/record.json")
	jdata, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if _, err := record.ReadAPJSON(jdata); err != nil {
		t.Errorf("downloaded JSON record: %v\n%s", err, jdata)
	}
	code, st, body := a.do("POST", "/api/records", string(data))
	if code != http.StatusCreated || len(st.Moves) != 2 || len(st.Legal) != 0 {
		t.Errorf("upload: %d %s", code, body)
	}
	if code, st, _ := a.do("POST", "/api/records", "1. e6 *"); code != 400 || !strings.Contains(st.Error, "not a playable square") {
		t.Errorf("bad upload: %d %q", code, st.Error)
	}
}

// Uploads are read by their content as record files are everywhere: an
// Abstract Play array ending in "resign", with a byte-order mark, and a
// game that goes on past a repetition, kept up to where our rules end it.
func TestUploadAbstractPlay(t *testing.T) {
	e := newEnv(t, server.Config{})
	a := e.client()
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("..", "record", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	tests := []struct {
		name, body     string
		result, reason string
		moves          int
	}{
		{"array with a byte-order mark", "\ufeff" + read("ap-array.json"), "0-1", "resignation", 10},
		{"past a repetition", read("repetition.apjson"), "1/2-1/2", "threefold repetition", 40},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, st, body := a.do("POST", "/api/records", tc.body)
			if code != http.StatusCreated {
				t.Fatalf("upload: %d %s", code, body)
			}
			if st.Result != tc.result || st.Reason != tc.reason || len(st.Moves) != tc.moves {
				t.Errorf("uploaded game: %s by %s after %d moves, want %s by %s after %d",
					st.Result, st.Reason, len(st.Moves), tc.result, tc.reason, tc.moves)
			}
		})
	}
}

func TestAnalyze(t *testing.T) {
	e := newEnv(t, server.Config{})
	a := e.client()
	code, _, body := a.do("POST", "/api/analyze", map[string]any{"position": "9x9 w 0/0 d4:W3 c5:B2w2 e5:B1 c7:B1 e7:B1", "depth": 3})
	var res struct {
		Best string   `json:"best"`
		Mate int      `json:"mate"`
		PV   []string `json:"pv"`
	}
	json.Unmarshal([]byte(body), &res)
	if code != 200 || res.Best != "d4xb6xd8xf6xd4xb6" || res.Mate != 1 {
		t.Errorf("analyze: %d %s", code, body)
	}
	// An illegal line is refused as a move to a game is, with its place.
	code, _, body = a.do("POST", "/api/analyze", map[string]any{"moves": []string{"a1", "a1"}})
	if got := decodeErr(t, body); code != 400 || got.Code != "move.occupied" || got.Params["index"] != 1.0 {
		t.Errorf("analyze an illegal line: %d %s, want 400 move.occupied at index 1", code, body)
	}
	// A line longer than a position's is refused before it is replayed.
	long := make([]string, 2001)
	for i := range long {
		long[i] = "a1"
	}
	code, _, body = a.do("POST", "/api/analyze", map[string]any{"moves": long})
	if got := decodeErr(t, body); code != 400 || got.Code != "request.invalid" || !strings.Contains(got.Error, "2000") {
		t.Errorf("analyze 2001 moves: %d %s, want 400 request.invalid naming 2000", code, body)
	}
	// Two columns, no man in hand: the endgame tables' value (Black to
	// move wins in 25 plies, 13 of its moves), and a search that agrees.
	code, _, body = a.do("POST", "/api/analyze", map[string]any{"position": "7x7 b 0/0 c3:W5b2 e5:B6w3", "depth": 3})
	var solved struct {
		Mate  int `json:"mate"`
		Table *struct {
			Outcome int `json:"outcome"`
			Plies   int `json:"plies"`
		} `json:"table"`
	}
	json.Unmarshal([]byte(body), &solved)
	if code != 200 || solved.Table == nil || solved.Table.Outcome != 1 || solved.Table.Plies != 25 || solved.Mate != 13 {
		t.Errorf("analyze a solved position: %d %s", code, body)
	}
}

func TestRateLimitAndCrossOrigin(t *testing.T) {
	e := newEnv(t, server.Config{RateLimit: 1, RateBurst: 3})
	a := e.client()
	limited := false
	for i := 0; i < 10; i++ {
		if code, _, _ := a.do("GET", "/api/games", nil); code == http.StatusTooManyRequests {
			limited = true
		}
	}
	if !limited {
		t.Error("10 quick requests with a rate of 1/s and a burst of 3 were never refused")
	}
	e2 := newEnv(t, server.Config{})
	c := e2.client()
	code, _, _ := c.do("POST", "/api/games", map[string]any{"mode": "friend"}, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	if code != http.StatusForbidden {
		t.Errorf("cross-origin create: %d, want 403", code)
	}
}

func TestUIIsServed(t *testing.T) {
	e := newEnv(t, server.Config{})
	game := e.client().create(t, map[string]any{"mode": "friend"})
	for _, path := range []string{"/", "/g/" + game.ID, "/my", "/rules", "/analysis", "/app.js"} {
		resp, err := http.Get(e.ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d", path, resp.StatusCode)
		}
	}
}

// TestOnPostgres plays the tests that depend most on the store on
// PostgreSQL, when EMERGO_TEST_POSTGRES names a database (.ci/run does).
func TestOnPostgres(t *testing.T) {
	dsn := os.Getenv("EMERGO_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("PostgreSQL server tests skipped: set EMERGO_TEST_POSTGRES to a connection URL to run them; .ci/run does")
	}
	pgStore := func(t *testing.T) store.Store { return openPostgres(t, pgSchema(t, dsn)) }
	pg := func(t *testing.T) *env { return newEnv(t, server.Config{Store: pgStore(t)}) }
	t.Run("FriendGame", func(t *testing.T) { friendGameTest(t, pg(t)) })
	t.Run("Racing", func(t *testing.T) { racingTest(t, pg(t)) })
	t.Run("Events", func(t *testing.T) { eventsTest(t, pg(t)) })
	t.Run("Clock", func(t *testing.T) { clockTest(t, pg(t)) })
	t.Run("CorrespondenceRestart", func(t *testing.T) { correspondenceRestartTest(t, pgStore(t)) })
	t.Run("MyGames", func(t *testing.T) { myGamesTest(t, pg(t)) })
	t.Run("Accounts", func(t *testing.T) { accountsTest(t, pg(t)) })
	t.Run("SeatsOfAccounts", func(t *testing.T) { seatsOfAccountsTest(t, pg(t)) })
	t.Run("Profiles", func(t *testing.T) { profilesTest(t, pgStore(t)) })
	t.Run("Explorer", func(t *testing.T) { explorerCountsTest(t, pgStore(t)) })
	t.Run("Challenges", func(t *testing.T) {
		e, _ := lobbyEnv(t, pgStore(t))
		challengesTest(t, e)
	})
	t.Run("RatedGames", func(t *testing.T) {
		e, st := lobbyEnv(t, pgStore(t))
		ratedGamesTest(t, e, st)
	})
	t.Run("LobbyFlood", func(t *testing.T) { lobbyFloodTest(t, crowdEnv(t, pgStore(t), lobby.Limits{})) })
	t.Run("LobbyCrowd", func(t *testing.T) { lobbyCrowdTest(t, crowdEnv(t, pgStore(t), lobby.Limits{})) })
	t.Run("ChallengeLimitAcrossServers", func(t *testing.T) {
		schema := pgSchema(t, dsn)
		challengeLimitAcrossServersTest(t, openPostgres(t, schema), openPostgres(t, schema))
	})
	t.Run("ThrottlesAcrossServers", func(t *testing.T) {
		schema := pgSchema(t, dsn)
		throttlesAcrossServersTest(t, openPostgres(t, schema), openPostgres(t, schema))
	})
	t.Run("WorkerProcesses", func(t *testing.T) {
		st := pgStore(t)
		feed, err := st.(*sqlstore.DB).Feed(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		workersTest(t, st, st.(enginework.Store), feed)
	})
}

// pgSchema makes a schema of its own for a test in the database dsn
// names, dropped after it, and returns the URL that works in it.
func pgSchema(t testing.TB, dsn string) string { return storetest.PostgresSchema(t, dsn) }

func openPostgres(t testing.TB, dsn string) store.Store {
	st, err := sqlstore.OpenPostgres(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// Games nobody asks for leave memory and come back from the store; a game
// someone watches stays.
func TestIdleGamesLeaveMemory(t *testing.T) {
	e := newEnv(t, server.Config{EvictAfter: 50 * time.Millisecond})
	id, a, b := friendGame(t, e, nil)
	a.move(id, "a1", 0)
	watched, c, _ := friendGame(t, e, nil)
	req, _ := http.NewRequest("GET", e.ts.URL+"/api/games/"+watched+"/events", nil)
	resp, err := c.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	deadline := time.Now().Add(patience)
	for e.srv.Cached() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("%d games in memory, want only the watched one", e.srv.Cached())
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The dropped game is loaded again, as it was, and play goes on.
	if code, st := b.move(id, "g7", 1); code != 200 || len(st.Moves) != 2 {
		t.Errorf("move in a game loaded again: %d %+v", code, st)
	}
}

func TestStreamLimit(t *testing.T) {
	e := newEnv(t, server.Config{MaxStreams: 2})
	id, a, _ := friendGame(t, e, nil)
	var codes []int
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequest("GET", e.ts.URL+"/api/games/"+id+"/events", nil)
		resp, err := a.c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		codes = append(codes, resp.StatusCode)
	}
	if codes[0] != 200 || codes[1] != 200 || codes[2] != http.StatusTooManyRequests {
		t.Errorf("three streams from one address: %v, want 200 200 429", codes)
	}
}

func TestMetrics(t *testing.T) {
	e := newEnv(t, server.Config{})
	id, a, b := friendGame(t, e, nil)
	a.move(id, "a1", 0)
	b.move(id, "g7", 1)
	m := vars(t, e)
	if m["games_created"] != 1 || m["moves_accepted"] != 2 || m["games_in_memory"] != 1 || m["store_errors"] != 0 {
		t.Errorf("metrics %v", m)
	}
}

// The metrics count the answers, those refused by a limit and the
// server's errors, and show the store's connections.
func TestMetricsOfAnswers(t *testing.T) {
	e := newEnv(t, server.Config{RateLimit: 0.001, RateBurst: 3})
	c := e.client()
	var codes []int
	for range 4 {
		code, _, _ := c.do("GET", "/api/games/nothing", nil)
		codes = append(codes, code)
	}
	if fmt.Sprint(codes) != "[404 404 404 429]" {
		t.Fatalf("answers %v, want 404 404 404 429", codes)
	}
	m := vars(t, e)
	if m["requests"] != 4 || m["too_many_requests"] != 1 || m["server_errors"] != 0 || m["db_conns_open"] < 1 {
		t.Errorf("metrics %v, want 4 requests, 1 too many, no error and a connection open", m)
	}
	for _, k := range []string{"db_conns_in_use", "db_waits", "db_wait_ms"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %s in %v", k, m)
		}
	}
}
