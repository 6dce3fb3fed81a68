package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"emergo/enginework"
	"emergo/server"
	"emergo/store/sqlstore"
)

// bounded serves e's site through the server's Listener, with its bounds
// on connections.
func bounded(t *testing.T, e *env) string {
	t.Helper()
	ts := httptest.NewUnstartedServer(e.srv.Handler())
	ts.Listener = e.srv.Listener(ts.Listener)
	ts.Start()
	t.Cleanup(ts.Close)
	return ts.Listener.Addr().String()
}

// rawConn is one TCP connection from the loopback address from (the
// clients of a test differ by their address in 127.0.0.0/8).
func rawConn(t *testing.T, addr, from string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: patience}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// get sends a GET of path on c, kept alive, and returns the answer's
// status and body.
func get(t *testing.T, c net.Conn, path string) (int, string) {
	t.Helper()
	c.SetDeadline(time.Now().Add(patience))
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: emergo\r\n\r\n", path)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// errorCode is the code of an API error's JSON.
func errorCode(body string) string {
	var e struct{ Code string }
	json.Unmarshal([]byte(body), &e)
	return e.Code
}

// One client holds at most MaxClientConns connections: one more is
// refused with the API's JSON error, while another client is served; a
// closed connection frees its place.
func TestConnectionsPerClient(t *testing.T) {
	e := newEnv(t, server.Config{MaxClientConns: 3})
	addr := bounded(t, e)
	var open []net.Conn
	for i := range 3 {
		c := rawConn(t, addr, "127.0.0.1")
		if code, body := get(t, c, "/api/games"); code != 200 {
			t.Fatalf("connection %d: %d %s", i+1, code, body)
		}
		open = append(open, c)
	}
	c := rawConn(t, addr, "127.0.0.1")
	if code, body := get(t, c, "/api/games"); code != http.StatusTooManyRequests || errorCode(body) != "request.too_many_connections" {
		t.Errorf("a fourth connection: %d %s, want 429 request.too_many_connections", code, body)
	}
	other := rawConn(t, addr, "127.0.0.2")
	if code, body := get(t, other, "/api/games"); code != 200 {
		t.Errorf("another client meanwhile: %d %s", code, body)
	}
	open[0].Close()
	deadline := time.Now().Add(patience)
	for {
		c := rawConn(t, addr, "127.0.0.1")
		code, body := get(t, c, "/api/games")
		if code == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a closed connection never freed its place: %d %s", code, body)
		}
		c.Close()
	}
}

// The server holds at most MaxConns connections in all: one more, from
// any client, is refused 503 with the API's JSON error.
func TestConnectionsInAll(t *testing.T) {
	e := newEnv(t, server.Config{MaxConns: 2})
	addr := bounded(t, e)
	for i, from := range []string{"127.0.0.1", "127.0.0.2"} {
		if code, body := get(t, rawConn(t, addr, from), "/api/games"); code != 200 {
			t.Fatalf("connection %d: %d %s", i+1, code, body)
		}
	}
	if code, body := get(t, rawConn(t, addr, "127.0.0.3"), "/api/games"); code != http.StatusServiceUnavailable || errorCode(body) != "server.busy" {
		t.Errorf("a third connection: %d %s, want 503 server.busy", code, body)
	}
}

// A body that does not arrive within BodyTimeout is cut with a 408 and
// the API's JSON error; the server serves others meanwhile, and a handler
// that waits after its body is in is not cut by the deadline.
func TestSlowBodyIsCut(t *testing.T) {
	e := newEnv(t, server.Config{BodyTimeout: time.Second})
	addr := bounded(t, e)
	slow := rawConn(t, addr, "127.0.0.1")
	slow.SetDeadline(time.Now().Add(patience))
	fmt.Fprintf(slow, "POST /api/games HTTP/1.1\r\nHost: emergo\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"mode\":")
	if code, body := get(t, rawConn(t, addr, "127.0.0.2"), "/api/games"); code != 200 {
		t.Errorf("another client while a body trickles: %d %s", code, body)
	}
	resp, err := http.ReadResponse(bufio.NewReader(slow), nil)
	if err != nil {
		t.Fatalf("the slow body's answer: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout || errorCode(string(body)) != "request.timeout" {
		t.Errorf("slow body: %d %s, want 408 request.timeout", resp.StatusCode, body)
	}
	// A whole body is read at once, and the request then served.
	c := e.client()
	if code, _, body := c.do("POST", "/api/games", map[string]any{"mode": "friend", "size": 7}); code != http.StatusCreated {
		t.Errorf("a prompt body: %d %s", code, body)
	}
}

// A cross-origin request is refused with the API's JSON error.
func TestCrossOriginIsJSON(t *testing.T) {
	e := newEnv(t, server.Config{})
	code, _, body := e.client().do("POST", "/api/games", map[string]any{"mode": "friend"}, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
	if code != http.StatusForbidden || errorCode(body) != "request.cross_origin" {
		t.Errorf("cross-origin: %d %s, want 403 request.cross_origin", code, body)
	}
}

// /readyz says whether the store answers; /healthz only that the process
// does.
func TestReadyz(t *testing.T) {
	st, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, server.Config{Store: st})
	c := e.client()
	if code, _, body := c.do("GET", "/readyz", nil); code != 200 {
		t.Errorf("readyz with the store up: %d %s", code, body)
	}
	st.Close()
	if code, _, body := c.do("GET", "/readyz", nil); code != http.StatusServiceUnavailable || errorCode(body) != "server.unavailable" {
		t.Errorf("readyz with the store down: %d %s, want 503 server.unavailable", code, body)
	}
	if code, _, _ := c.do("GET", "/healthz", nil); code != 200 {
		t.Errorf("healthz: %d", code)
	}
}

// A puzzle request whose store fails is answered 503, and the cause is
// logged.
func TestPuzzleStoreFailure(t *testing.T) {
	st, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	e := newEnv(t, server.Config{Store: st, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	st.Close()
	code, _, body := e.client().do("GET", "/api/puzzles/next?size=7", nil)
	if code != http.StatusServiceUnavailable || errorCode(body) != "server.unavailable" {
		t.Errorf("puzzle with the store down: %d %s, want 503 server.unavailable", code, body)
	}
	if !strings.Contains(logs.String(), "puzzles: read") || !strings.Contains(logs.String(), "closed") {
		t.Errorf("the failure's cause is not logged:\n%s", logs.String())
	}
}

// A ply is digits only.
func TestAtTakesDigitsOnly(t *testing.T) {
	e := newEnv(t, server.Config{})
	id, a, b := friendGame(t, e, nil)
	a.move(id, "a1", 0)
	b.move(id, "g7", 1)
	for _, ply := range []string{"3abc", "1x", "+1", "-1", "3", " 1"} {
		code, _, body := a.do("GET", "/api/games/"+id+"/at/"+strings.ReplaceAll(ply, " ", "%20"), nil)
		if code != http.StatusBadRequest {
			t.Errorf("at %q: %d %s, want 400", ply, code, body)
		}
	}
	if code, _, body := a.do("GET", "/api/games/"+id+"/at/2", nil); code != 200 {
		t.Errorf("at 2: %d %s", code, body)
	}
}

// Drain ends the event streams, so that a shutdown need not wait for
// them, while the server still answers requests until Close.
func TestDrainEndsStreams(t *testing.T) {
	e := newEnv(t, server.Config{})
	id, a, _ := friendGame(t, e, nil)
	req, _ := http.NewRequest("GET", e.ts.URL+"/api/games/"+id+"/events", nil)
	resp, err := a.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	first := make([]byte, 1)
	if _, err := resp.Body.Read(first); err != nil {
		t.Fatalf("the stream's first event: %v", err)
	}
	e.srv.Drain()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Fatalf("the stream after Drain: %v", err)
	}
	if code, _, body := a.do("GET", "/api/games/"+id, nil); code != 200 {
		t.Errorf("a request after Drain: %d %s", code, body)
	}
	if code, _, body := a.do("GET", "/readyz", nil); code != http.StatusServiceUnavailable {
		t.Errorf("readyz after Drain: %d %s, want 503", code, body)
	}
}

// syncBuffer is a log that handlers may write at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A refusal of a total bound (the analysis queue full) is the site doing
// its job: it is counted as refused, not as a server error, and not
// logged as an error.
func TestBusyIsNoServerError(t *testing.T) {
	var logs syncBuffer
	jobs := enginework.NewMemory()
	e := newEnv(t, server.Config{
		EngineWorkers: -1, Jobs: jobs, BehindProxy: true, // nobody searches: the first analysis waits
		AnalysisLimits: enginework.Limits{PerClient: 1, Queue: 1},
		Logger:         slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	waiting := make(chan struct{})
	go func() {
		defer close(waiting)
		req, _ := http.NewRequestWithContext(ctx, "POST", e.ts.URL+"/api/analyze", strings.NewReader(`{"size":7}`))
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	for deadline := time.Now().Add(patience); len(jobs.Jobs()) == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the first analysis was never queued")
		}
		time.Sleep(time.Millisecond) // polls the condition
	}
	// Another client: the first holds the queue's one place.
	code, _, body := e.client().do("POST", "/api/analyze", map[string]any{"size": 7}, "X-Forwarded-For", "192.0.2.9")
	if code != http.StatusServiceUnavailable || errorCode(body) != "analysis.queue_full" {
		t.Fatalf("the analysis queue full: %d %s, want 503 analysis.queue_full", code, body)
	}
	cancel()
	<-waiting
	m := vars(t, e)
	if m["server_errors"] != 0 || m["refused_busy"] < 1 {
		t.Errorf("metrics %v: want no server error and the refusal counted", m)
	}
	if strings.Contains(logs.String(), "level=ERROR") {
		t.Errorf("a refusal logged as an error:\n%s", logs.String())
	}
}

// vars reads the server's metrics.
func vars(t *testing.T, e *env) map[string]int {
	t.Helper()
	resp, err := http.Get(e.ts.URL + "/debug/vars")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct {
		Emergo map[string]int `json:"emergo"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v.Emergo
}
