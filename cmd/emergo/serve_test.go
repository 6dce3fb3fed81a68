package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain lets a test start this package's main as a child process (the
// server), so it can be killed with SIGKILL and started again.
func TestMain(m *testing.M) {
	if os.Getenv("EMERGO_TEST_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type serverProc struct {
	t    *testing.T
	cmd  *exec.Cmd
	base string
	log  *bytes.Buffer
}

func startServer(t *testing.T, addr, db string) *serverProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "serve", "-addr", addr, "-db", db, "-rate", "-1")
	cmd.Env = append(os.Environ(), "EMERGO_TEST_MAIN=1")
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &serverProc{t: t, cmd: cmd, base: "http://" + addr, log: &log}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get(p.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not start: %v\n%s", err, log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

type gameState struct {
	ID      string   `json:"id"`
	Moves   []string `json:"moves"`
	Legal   []string `json:"legal"`
	Result  string   `json:"result"`
	Reason  string   `json:"reason"`
	Version int64    `json:"version"`
	Turn    string   `json:"turn"`
	Clock   *struct {
		WhiteMS int64  `json:"white_ms"`
		BlackMS int64  `json:"black_ms"`
		Running string `json:"running"`
	} `json:"clock"`
	Position string `json:"position"`
	Invite   string `json:"invite"`
}

func call(t *testing.T, c *http.Client, method, url string, body any) gameState {
	t.Helper()
	var rd io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		rd = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, url, rd)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		t.Fatalf("%s %s: %d %s", method, url, resp.StatusCode, data)
	}
	var st gameState
	json.Unmarshal(data, &st)
	return st
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestServerSurvivesSIGKILL plays, kills the server with SIGKILL in the
// middle of the games, starts it again on the same database and checks
// that every game is exactly as it was, clocks included, and goes on.
func TestServerSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	addr := freeAddr(t)
	db := filepath.Join(t.TempDir(), "games.db")
	srv := startServer(t, addr, db)
	jarA, _ := cookiejar.New(nil)
	jarB, _ := cookiejar.New(nil)
	a, b := &http.Client{Jar: jarA}, &http.Client{Jar: jarB}

	// A clocked game between two people, three moves in.
	g := call(t, a, "POST", srv.base+"/api/games", map[string]any{"mode": "friend", "size": 9, "color": "white", "clock": map[string]any{"initial": 300, "increment": 3}})
	call(t, b, "POST", srv.base+"/api/games/"+g.ID+"/join", map[string]any{"name": "bob", "invite": g.Invite})
	moves := []string{"d6", "c1", "b4"}
	var last gameState
	for i, mv := range moves {
		c := a
		if i%2 == 1 {
			c = b
		}
		last = call(t, c, "POST", srv.base+"/api/games/"+g.ID+"/move", map[string]any{"move": mv, "ply": i})
	}
	// An engine game where the engine has replied once.
	e := call(t, a, "POST", srv.base+"/api/games", map[string]any{"mode": "engine", "size": 7, "level": 2, "color": "white"})
	call(t, a, "POST", srv.base+"/api/games/"+e.ID+"/move", map[string]any{"move": "a1", "ply": 0})
	var eng gameState
	for deadline := time.Now().Add(20 * time.Second); ; {
		eng = call(t, a, "GET", srv.base+"/api/games/"+e.ID, nil)
		if len(eng.Moves) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the engine did not reply")
		}
		time.Sleep(20 * time.Millisecond)
	}
	before := call(t, a, "GET", srv.base+"/api/games/"+g.ID, nil)

	if err := srv.cmd.Process.Signal(os.Kill); err != nil {
		t.Fatal(err)
	}
	srv.cmd.Wait()
	srv = startServer(t, addr, db)

	after := call(t, a, "GET", srv.base+"/api/games/"+g.ID, nil)
	if fmt.Sprint(after.Moves) != fmt.Sprint(before.Moves) || after.Version != before.Version ||
		after.Result != before.Result || after.Position != before.Position {
		t.Fatalf("after the restart the game is\n%+v\nbefore it was\n%+v", after, before)
	}
	// White's clock was stopped: exactly as stored after its last move.
	// Black's runs again from the time it had when its turn began.
	if after.Clock.WhiteMS != last.Clock.WhiteMS {
		t.Errorf("white's clock %d ms after the restart, %d before", after.Clock.WhiteMS, last.Clock.WhiteMS)
	}
	if d := last.Clock.BlackMS - after.Clock.BlackMS; d < 0 || d > 3000 || after.Clock.Running != "black" {
		t.Errorf("black's running clock: %d ms before, %d after (running %q)", last.Clock.BlackMS, after.Clock.BlackMS, after.Clock.Running)
	}
	engAfter := call(t, a, "GET", srv.base+"/api/games/"+e.ID, nil)
	if fmt.Sprint(engAfter.Moves) != fmt.Sprint(eng.Moves) {
		t.Errorf("engine game after the restart: %v, before %v", engAfter.Moves, eng.Moves)
	}
	// Play goes on with the same seats (the cookies still hold them).
	next := call(t, b, "POST", srv.base+"/api/games/"+g.ID+"/move", map[string]any{"move": after.Legal[0], "ply": 3})
	if len(next.Moves) != 4 {
		t.Errorf("a move after the restart: %+v", next)
	}
}

// serve binds its address before it opens the database: a busy port
// leaves no new database behind. Its flag errors are usage errors, and a
// database it cannot open is named.
func TestServeFailsEarly(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	dir := t.TempDir()
	db := filepath.Join(dir, "games.db")
	for _, c := range []struct {
		name  string
		args  []string
		want  string
		usage bool
	}{
		{"busy port", []string{"-addr", busy.Addr().String(), "-db", db}, "address already in use", false},
		{"missing directory", []string{"-addr", "127.0.0.1:0", "-db", "/nonexistent/x.db"}, "database /nonexistent/x.db: no directory /nonexistent", false},
		{"two stores", []string{"-addr", "127.0.0.1:0", "-db", db, "-postgres", "postgres://x@localhost/y"}, "give -db or -postgres, not both", true},
		{"an argument", []string{"now"}, `serve takes no arguments, got "now"`, true},
		{"a proxy that is no address", []string{"-addr", "127.0.0.1:0", "-db", db, "-trusted-proxies", "10.0.0.5,proxy.example"}, `"proxy.example" is not an address or a network`, true},
		{"an upload storage that is no size", []string{"-addr", "127.0.0.1:0", "-db", db, "-upload-storage", "lots"}, `"lots" is not a size`, true},
		{"a VAPID key file that is not one", []string{"-addr", "127.0.0.1:0", "-db", db, "-vapid-key", "serve_test.go"}, "-vapid-key: notify: serve_test.go", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := emergo(t, "", append([]string{"serve"}, c.args...)...)
			if err == nil || !strings.Contains(err.Error(), c.want) || (exitCode(err) == 2) != c.usage {
				t.Errorf("error %v, want a usage error %v with %q", err, c.usage, c.want)
			}
			if _, err := os.Stat(db); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the database was created: %v", err)
			}
		})
	}
}

// SIGINT, sent to the server process alone, stops it: open requests (an
// event stream here) end, the database is closed, and it exits 0.
func TestServeStopsOnSIGINT(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process")
	}
	db := filepath.Join(t.TempDir(), "games.db")
	cmd := exec.Command(os.Args[0], "serve", "-addr", "127.0.0.1:0", "-db", db)
	cmd.Env = append(os.Environ(), "EMERGO_TEST_MAIN=1")
	var log bytes.Buffer
	cmd.Stderr = &log
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "Emergo is ready: open ")
	if err != nil || !ok {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("first line %q, %v\n%s", line, err, log.String())
	}
	c := &http.Client{}
	g := call(t, c, "POST", base+"/api/games", map[string]any{"mode": "friend", "size": 7, "color": "white"})
	resp, err := c.Get(base + "/api/games/" + g.ID + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := bufio.NewReader(resp.Body)
	if first, err := events.ReadString('\n'); err != nil || first != "event: state\n" {
		t.Fatalf("event stream: %q, %v", first, err)
	}

	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve ended with %v\n%s", err, log.String())
	}
	if _, err := io.ReadAll(events); err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("the event stream after the shutdown: %v", err)
	}
	if !strings.Contains(log.String(), "shutting down") {
		t.Errorf("no shutdown in the log:\n%s", log.String())
	}
	// SQLite removes its write-ahead log when the last connection closes.
	if _, err := os.Stat(db + "-wal"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the database was not closed: %s-wal is left (%v)", db, err)
	}
}

// -trusted-proxies takes addresses and networks separated by commas.
func TestTrustedProxiesFlag(t *testing.T) {
	for _, c := range []struct {
		name, value, want string
	}{
		{"an address", "10.0.0.5", "10.0.0.5/32"},
		{"a network", "192.0.2.0/24", "192.0.2.0/24"},
		{"a network by one of its addresses", "192.0.2.9/24", "192.0.2.0/24"},
		{"IPv6", "::1,2001:db8::/32", "::1/128,2001:db8::/32"},
		{"spaces and empty fields", " 10.0.0.5 , ,127.0.0.0/8", "10.0.0.5/32,127.0.0.0/8"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var p prefixes
			if err := p.Set(c.value); err != nil {
				t.Fatal(err)
			}
			if got := p.String(); got != c.want {
				t.Errorf("%q: %s, want %s", c.value, got, c.want)
			}
		})
	}
}

// -upload-storage takes bytes, or a number and a unit.
func TestByteSizeFlag(t *testing.T) {
	for _, c := range []struct {
		value string
		bytes int64
		text  string // as written back, or the error
	}{
		{"1GiB", 1 << 30, "1GiB"},
		{"512MiB", 512 << 20, "512MiB"},
		{"1536 MiB", 1536 << 20, "1536MiB"},
		{"2GB", 2e9, "1953125KiB"},
		{"100000", 100000, "100000"},
		{"4096B", 4096, "4KiB"},
		{"1.5GiB", 0, `"1.5GiB" is not a size`},
		{"-1", 0, `"-1" is not a size`},
		{"0", 0, `"0" is not a size`},
		{"lots", 0, `"lots" is not a size`},
		{"9000000TiB", 0, `"9000000TiB" is not a size`},
	} {
		t.Run(c.value, func(t *testing.T) {
			var b byteSize
			err := b.Set(c.value)
			switch {
			case c.bytes == 0 && (err == nil || !strings.Contains(err.Error(), c.text)):
				t.Errorf("%q: %v, want an error with %s", c.value, err, c.text)
			case c.bytes != 0 && (err != nil || int64(b) != c.bytes || b.String() != c.text):
				t.Errorf("%q: %d bytes written %q, %v; want %d written %q", c.value, int64(b), b.String(), err, c.bytes, c.text)
			}
		})
	}
}
