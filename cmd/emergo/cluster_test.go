package main

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"emergo/store/storetest"
)

// patience bounds every wait of the cluster test for something that must
// happen: it fails after it, and passes as soon as the thing happens.
const patience = time.Minute

// TestCluster runs the site as docs/deploy.md deploys it, in processes of
// this command (the test binary runs as the command, see TestMain) on one
// PostgreSQL database (EMERGO_TEST_POSTGRES, a schema of the test's own):
// two `emergo serve` instances that do no engine work, and a worker. A
// friend game is played across the instances; the worker searching an
// engine's move is killed, and another makes the move, once; a flag falls
// once after the instance that held its game is killed.
func TestCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	dsn := os.Getenv("EMERGO_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("the cluster test skipped: it needs PostgreSQL: set EMERGO_TEST_POSTGRES to a connection URL; .ci/run does")
	}
	db := storetest.PostgresSchema(t, dsn)
	a, b := startServe(t, db), startServe(t, db)
	t.Run("FriendGameAcrossInstances", func(t *testing.T) { clusterFriendGame(t, a, b) })
	t.Run("WorkerKilledMidSearch", func(t *testing.T) { clusterWorkerKilled(t, a, b, db) })
	t.Run("FlagFallsOnceAfterItsInstanceDies", func(t *testing.T) { clusterFlag(t, a, b, startServe(t, db)) })
}

// clusterFriendGame: a friend game created on a and joined on b, its
// moves sent to a and b in turn (and each player's to both), none
// refused, and every move seen on the event streams of both.
func clusterFriendGame(t *testing.T, a, b *proc) {
	alice, bob, watcher := newClient(), newClient(), newClient()
	g := call(t, alice, "POST", a.base+"/api/games", map[string]any{"mode": "friend", "size": 7, "color": "white", "name": "alice"})
	streams := map[string]<-chan gameState{
		"a": follow(t, watcher, a.base+"/api/games/"+g.ID+"/events"),
		"b": follow(t, watcher, b.base+"/api/games/"+g.ID+"/events"),
	}
	st := call(t, bob, "POST", b.base+"/api/games/"+g.ID+"/join", map[string]any{"name": "bob", "invite": g.Invite})
	for name, events := range streams {
		await(t, name+" sees the join", events, func(e gameState) bool { return e.Version >= st.Version })
	}
	instances := []*proc{a, b}
	for ply := 0; ply < 12 && len(st.Legal) > 0; ply++ {
		// a, b, a, b... for the first six moves, then b, a, b, a...:
		// alice's and bob's moves go to both.
		at := instances[(ply+ply/6)%2]
		player := alice
		if ply%2 == 1 {
			player = bob
		}
		mv := st.Legal[0]
		st = call(t, player, "POST", at.base+"/api/games/"+g.ID+"/move", map[string]any{"move": mv, "ply": ply})
		for name, events := range streams {
			await(t, fmt.Sprintf("%s sees move %d, %s", name, ply+1, mv), events, func(e gameState) bool {
				return len(e.Moves) > ply && e.Moves[ply] == mv
			})
		}
	}
	if len(st.Moves) != 12 {
		t.Errorf("%d moves played, want 12: %v", len(st.Moves), st.Moves)
	}
}

// clusterWorkerKilled: an engine game at full strength (a search of a
// second or two) on a, its move's job claimed by a worker, which is
// killed while it searches; a second worker takes the job over once the
// first one's lease runs out, and its move reaches the viewers of a and
// b. The job was claimed twice and done once, and one move was played.
func clusterWorkerKilled(t *testing.T, a, b *proc, db string) {
	jobs, err := sql.Open("pgx", db)
	if err != nil {
		t.Fatal(err)
	}
	defer jobs.Close()
	first := startWorker(t, db, "1s")
	alice, watcher := newClient(), newClient()
	g := call(t, alice, "POST", a.base+"/api/games", map[string]any{"mode": "engine", "size": 9, "level": 10, "color": "white"})
	streams := map[string]<-chan gameState{
		"a": follow(t, watcher, a.base+"/api/games/"+g.ID+"/events"),
		"b": follow(t, watcher, b.base+"/api/games/"+g.ID+"/events"),
	}
	moved := call(t, alice, "POST", a.base+"/api/games/"+g.ID+"/move", map[string]any{"move": g.Legal[0], "ply": 0})
	// The job is the worker's once it is running: its search has begun.
	timeout := time.After(patience)
	for {
		var state string
		err := jobs.QueryRow(`SELECT state FROM jobs WHERE game_id = $1 AND kind = 'move'`, g.ID).Scan(&state)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			t.Fatal(err)
		}
		if state == "running" {
			break
		}
		if state != "" && state != "queued" {
			t.Fatalf("the engine's move is %s before the worker was killed", state)
		}
		select {
		case <-timeout:
			t.Fatalf("no worker took the engine's move within %v:\n%s", patience, first.log)
		case <-time.After(10 * time.Millisecond):
		}
	}
	first.kill(t)
	// The second worker's lease is long: on a busy machine a late renewal
	// of a short one would let a claim of its own take the job over, and
	// the job would count three claims.
	startWorker(t, db, patience.String())
	for name, events := range streams {
		st := await(t, name+" sees the engine's move", events, func(e gameState) bool { return len(e.Moves) >= 2 })
		if len(st.Moves) != 2 || st.Version != moved.Version+1 || st.Turn != "white" {
			t.Errorf("on %s after the engine's move: %d moves, version %d, %s to move; want 2, %d, white",
				name, len(st.Moves), st.Version, st.Turn, moved.Version+1)
		}
	}
	// The worker plays the move, then records its job as done: the
	// viewers may see the move first.
	var n, claims int
	var state string
	timeout = time.After(patience)
	for {
		if err := jobs.QueryRow(`SELECT count(*), max(claims), max(state) FROM jobs WHERE game_id = $1 AND kind = 'move'`, g.ID).Scan(&n, &claims, &state); err != nil {
			t.Fatal(err)
		}
		if state != "running" {
			break
		}
		select {
		case <-timeout:
			t.Fatalf("the engine's move still running %v after it was played", patience)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if n != 1 || claims != 2 || state != "done" {
		t.Errorf("the engine's move: %d jobs, claimed %d times, %s; want one job claimed twice, done", n, claims, state)
	}
}

// clusterFlag: a game with a clock played on c, which is killed while
// White's clock runs; the other instances end the game when the flag
// falls, once: one write after the last move, a time forfeit.
func clusterFlag(t *testing.T, a, b, c *proc) {
	alice, bob, watcher := newClient(), newClient(), newClient()
	g := call(t, alice, "POST", c.base+"/api/games", map[string]any{"mode": "friend", "size": 7, "color": "white", "name": "alice",
		"clock": map[string]any{"initial": 10, "increment": 0}})
	call(t, bob, "POST", c.base+"/api/games/"+g.ID+"/join", map[string]any{"name": "bob", "invite": g.Invite})
	// The first moves are free; after them White's clock runs.
	first := call(t, alice, "POST", c.base+"/api/games/"+g.ID+"/move", map[string]any{"move": g.Legal[0], "ply": 0})
	last := call(t, bob, "POST", c.base+"/api/games/"+g.ID+"/move", map[string]any{"move": first.Legal[0], "ply": 1})
	if last.Clock == nil || last.Clock.Running != "white" {
		t.Fatalf("after two moves the clock is %+v, want White's running", last.Clock)
	}
	c.kill(t)
	for name, p := range map[string]*proc{"a": a, "b": b} {
		events := follow(t, watcher, p.base+"/api/games/"+g.ID+"/events")
		end := await(t, name+" sees the flag fall", events, func(e gameState) bool { return e.Result != "*" })
		if end.Result != "0-1" || end.Reason != "time forfeit" || end.Version != last.Version+1 || len(end.Moves) != 2 {
			t.Errorf("on %s the game ended %s %q at version %d after %d moves, want 0-1 by time forfeit at version %d, after 2",
				name, end.Result, end.Reason, end.Version, len(end.Moves), last.Version+1)
		}
	}
	resp, err := watcher.Get(a.base + "/api/games/" + g.ID + "/record.pgn")
	if err != nil {
		t.Fatal(err)
	}
	var pgn bytes.Buffer
	pgn.ReadFrom(resp.Body)
	resp.Body.Close()
	if n := strings.Count(pgn.String(), "[Termination "); n != 1 || !strings.Contains(pgn.String(), `[Result "0-1"]`) {
		t.Errorf("the record has %d Termination tags, want one, and the result 0-1:\n%s", n, pgn.String())
	}
}

// proc is a process of this command that the test started: a server or a
// worker.
type proc struct {
	cmd    *exec.Cmd
	base   string // a server's URL
	log    *syncBuffer
	exited chan struct{}
}

// syncBuffer is a buffer that a process writes while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startEmergo starts this command with args, its output kept, and kills
// it after the test. ready, if not nil, reads its standard output.
func startEmergo(t *testing.T, ready func(*bufio.Scanner), args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(os.Args[0], args...), log: &syncBuffer{}, exited: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), "EMERGO_TEST_MAIN=1")
	p.cmd.Stderr = p.log
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	go func() {
		if ready != nil {
			ready(sc)
		}
		for sc.Scan() {
			p.log.Write(append(sc.Bytes(), '\n'))
		}
		p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() { p.kill(t) })
	return p
}

// startServe starts `emergo serve` on the PostgreSQL database db, on a
// free port, and returns when it is ready.
func startServe(t *testing.T, db string) *proc {
	t.Helper()
	url := make(chan string, 1)
	p := startEmergo(t, func(sc *bufio.Scanner) {
		for sc.Scan() {
			if base, ok := strings.CutPrefix(sc.Text(), "Emergo is ready: open "); ok {
				url <- base
				return
			}
		}
	}, "serve", "-addr", "127.0.0.1:0", "-postgres", db, "-rate", "-1", "-workers", "0")
	select {
	case p.base = <-url:
		return p
	case <-p.exited:
		t.Fatalf("serve ended before it was ready:\n%s", p.log)
	case <-time.After(patience):
		t.Fatalf("serve not ready after %v:\n%s", patience, p.log)
	}
	return nil
}

// startWorker starts `emergo worker` on the PostgreSQL database db, with
// the lease given, and returns when it is ready.
func startWorker(t *testing.T, db, lease string) *proc {
	t.Helper()
	ready := make(chan struct{})
	p := startEmergo(t, func(sc *bufio.Scanner) {
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "Emergo worker is ready") {
				close(ready)
				return
			}
		}
	}, "worker", "-postgres", db, "-threads", "2", "-lease", lease)
	select {
	case <-ready:
		return p
	case <-p.exited:
		t.Fatalf("the worker ended before it was ready:\n%s", p.log)
	case <-time.After(patience):
		t.Fatalf("the worker not ready after %v:\n%s", patience, p.log)
	}
	return nil
}

// kill ends the process with SIGKILL, if it runs, and waits for its end.
func (p *proc) kill(t *testing.T) {
	p.cmd.Process.Kill()
	<-p.exited
}

func newClient() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar}
}

// follow returns the states of a game's event stream.
func follow(t *testing.T, c *http.Client, url string) <-chan gameState {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		t.Fatalf("GET %s: %d", url, resp.StatusCode)
	}
	t.Cleanup(func() { resp.Body.Close() })
	out := make(chan gameState, 64)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		// The game's states only: its stream has chat lines and the
		// spectators' count beside them.
		event := ""
		for sc.Scan() {
			if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				event = name
			} else if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok && event == "state" {
				var st gameState
				json.Unmarshal([]byte(data), &st)
				out <- st
			}
		}
	}()
	return out
}

// await returns the first state of events that ok accepts.
func await(t *testing.T, what string, events <-chan gameState, ok func(gameState) bool) gameState {
	t.Helper()
	timeout := time.After(patience)
	for {
		select {
		case st, open := <-events:
			if !open {
				t.Fatalf("%s: the event stream ended", what)
			}
			if ok(st) {
				return st
			}
		case <-timeout:
			t.Fatalf("%s: not within %v", what, patience)
		}
	}
}
