package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"emergo/enginework"
	"emergo/server"
	"emergo/store"
	"emergo/store/sqlstore"
)

// analyzeFrom posts a search of the analysis board for c, from the
// client address addr (the server trusts the proxy's X-Forwarded-For),
// until ctx ends, and returns the status and the error message.
func (c *client) analyzeFrom(ctx context.Context, addr string, depth int) (int, string) {
	body, _ := json.Marshal(map[string]any{"size": 9, "depth": depth})
	req, _ := http.NewRequestWithContext(ctx, "POST", c.e.ts.URL+"/api/analyze", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", addr)
	resp, err := c.c.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	var v struct{ Error string }
	json.NewDecoder(resp.Body).Decode(&v)
	return resp.StatusCode, v.Error
}

// waitJobs waits until the jobs of the queue satisfy ok.
func waitJobs(t *testing.T, jobs *enginework.Memory, what string, ok func([]enginework.Job) bool) []enginework.Job {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		js := jobs.Jobs()
		if ok(js) {
			return js
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v; the jobs: %+v", what, patience, js)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// count counts the jobs of kind in state ("" for any).
func count(js []enginework.Job, kind enginework.Kind, state enginework.State) int {
	n := 0
	for _, j := range js {
		if j.Kind == kind && (state == "" || j.State == state) {
			n++
		}
	}
	return n
}

// The analysis board is limited per client, by address and by account,
// and in total; the refusals say what to do.
func TestAnalysisLimits(t *testing.T) {
	jobs := enginework.NewMemory()
	// No worker takes the jobs: each search admitted waits until its
	// request ends.
	e := accountEnv(t, server.Config{Jobs: jobs, EngineWorkers: -1, BehindProxy: true,
		AnalysisLimits: enginework.Limits{PerClient: 1, Queue: 3}})
	guest, member := e.client(), e.client()
	if code, _, _ := member.account("signup", creds("ann", "a good password")); code != 201 {
		t.Fatalf("signup: %d", code)
	}
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { stop(); wg.Wait() }()
	waiting := 0
	wait := func(c *client, addr string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.analyzeFrom(ctx, addr, 12)
		}()
		waiting++
		waitJobs(t, jobs, "the analysis queued", func(js []enginework.Job) bool {
			return count(js, enginework.Analysis, enginework.Queued) == waiting
		})
	}
	wait(guest, "10.0.0.1")
	wait(member, "10.0.0.2")
	for _, c := range []struct {
		name string
		who  *client
		addr string
		code int
		want string
	}{
		{"a second of one address", guest, "10.0.0.1", http.StatusTooManyRequests, "you have as many analyses waiting as you may: wait for one to finish"},
		{"a second of one account, from another address", member, "10.0.0.3", http.StatusTooManyRequests, "you have as many analyses waiting as you may: wait for one to finish"},
		{"a guest of the account's address", e.client(), "10.0.0.2", http.StatusTooManyRequests, "you have as many analyses waiting as you may: wait for one to finish"},
	} {
		if code, msg := c.who.analyzeFrom(ctx, c.addr, 12); code != c.code || msg != c.want {
			t.Errorf("%s: %d %q, want %d %q", c.name, code, msg, c.code, c.want)
		}
	}
	wait(e.client(), "10.0.0.4")
	if code, msg := e.client().analyzeFrom(ctx, "10.0.0.5", 12); code != http.StatusServiceUnavailable || msg != "the analysis queue is full, try again in a moment" {
		t.Errorf("a fourth analysis with the queue's three waiting: %d %q, want 503", code, msg)
	}
	// A request that goes drops its job, which counts no more.
	stop()
	wg.Wait()
	waitJobs(t, jobs, "the analyses of the requests gone dropped", func(js []enginework.Job) bool {
		return count(js, enginework.Analysis, enginework.Dropped) == 3
	})
	if n := vars(t, e)["analysis_refused"]; n != 4 {
		t.Errorf("analysis_refused %d, want 4", n)
	}
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// TestWorkerProcesses runs a server that does no engine work, and two
// worker processes that race for it on the queue they share. With the
// feed the workers learn of the jobs as they are queued (they poll for
// none) and the server of a move as it is played; without, the workers
// find the jobs by polling, and the server learns the move when it sees
// its job done.
func TestWorkerProcesses(t *testing.T) {
	for _, c := range []struct {
		name string
		feed server.Feed
	}{
		{"with the feed", server.NewLocalFeed()},
		{"without a feed", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, err := sqlstore.OpenSQLite(context.Background(), t.TempDir()+"/games.db")
			if err != nil {
				t.Fatal(err)
			}
			workersTest(t, st, enginework.NewMemory(), c.feed)
		})
	}
}

func workersTest(t *testing.T, st store.Store, jobs enginework.Store, feed server.Feed) {
	e := newEnv(t, server.Config{Store: st, Jobs: jobs, EngineWorkers: -1, Feed: feed})
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cfg := server.WorkerConfig{Store: st, Jobs: jobs, Feed: feed, Searches: 1, HashMiB: 1, Logger: quietLogger()}
			if feed != nil {
				cfg.Poll = time.Hour
			}
			err := server.RunWorker(ctx, cfg)
			if err != nil {
				t.Error(err)
			}
		}()
	}
	t.Cleanup(func() { stop(); wg.Wait() }) // before the store closes
	a := e.client()
	id := a.create(t, map[string]any{"mode": "engine", "size": 7, "level": 1, "color": "black"}).ID
	// The engine is White: a worker makes its first move, and then
	// answers each of ours, once.
	for ply := 1; ply <= 5; ply += 2 {
		st := waitFor(t, a, id, func(s state) bool { return len(s.Moves) >= ply && !s.Thinking })
		if len(st.Moves) != ply || st.Turn != "black" {
			t.Fatalf("after the engine's move: %d moves, %s to move; want %d, black", len(st.Moves), st.Turn, ply)
		}
		if code, _ := a.move(id, st.Legal[0], ply); code != 200 {
			t.Fatalf("our move at ply %d: %d", ply, code)
		}
	}
	if st := waitFor(t, a, id, func(s state) bool { return len(s.Moves) >= 7 && !s.Thinking }); len(st.Moves) != 7 {
		t.Errorf("%d moves, want 7: each of the engine's made once", len(st.Moves))
	}
	code, _, body := a.do("POST", "/api/analyze", map[string]any{"size": 7, "depth": 3})
	if code != 200 {
		t.Errorf("analysis by the workers: %d %s", code, body)
	}
	// The engine's answer to a draw offer, by the workers too.
	if code, _, body := a.do("POST", "/api/games/"+id+"/draw", map[string]any{"action": "offer"}); code != 200 && code != http.StatusConflict {
		t.Errorf("draw offer: %d %s, want the engine's answer", code, body)
	}
}

// TestAnalysisFlood is the flood of the analysis board that once made
// the engine's replies wait for seconds: six clients each keep three
// searches to depth 12 waiting or running, while a person plays the
// engine at level 1. The replies come as they do without the flood: the
// engine's moves pass the analyses waiting, and take no worker from
// them. The queue's own times show it.
func TestAnalysisFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("the flood runs until an analysis of it ends (seconds); skipped under -short")
	}
	jobs := enginework.NewMemory()
	e := newEnv(t, server.Config{Jobs: jobs, EngineWorkers: 2, EngineHashMiB: 4, BehindProxy: true})
	p := e.client()
	g := p.create(t, map[string]any{"mode": "engine", "size": 9, "level": 1, "color": "white"})
	replies := func(n int) []time.Duration {
		var times []time.Duration
		for range n {
			ply := len(g.Moves)
			start := time.Now()
			if code, _ := p.move(g.ID, g.Legal[0], ply); code != 200 {
				t.Fatalf("our move at ply %d: %d", ply, code)
			}
			g = waitFor(t, p, g.ID, func(s state) bool { return len(s.Moves) == ply+2 })
			times = append(times, time.Since(start))
		}
		return times
	}
	quiet := replies(3)

	const clients, each = 6, 3
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { stop(); wg.Wait() }()
	var mu sync.Mutex
	codes := map[int]int{}
	for c := range clients {
		for range each {
			wg.Add(1)
			go func() {
				defer wg.Done()
				code, _ := e.client().analyzeFrom(ctx, fmt.Sprintf("10.0.1.%d", c+1), 12)
				mu.Lock()
				codes[code]++
				mu.Unlock()
			}()
		}
	}
	flood := waitJobs(t, jobs, "the flood queued", func(js []enginework.Job) bool {
		return count(js, enginework.Analysis, "") == clients*each && count(js, enginework.Analysis, enginework.Running) == 1
	})
	var floodAt time.Time // when the last analysis of the flood was queued
	for _, j := range flood {
		if j.Kind == enginework.Analysis && j.Created.After(floodAt) {
			floodAt = j.Created
		}
	}
	flooded := replies(3)
	// The flood goes on until one of its analyses has run to its end.
	waitJobs(t, jobs, "an analysis of the flood ended", func(js []enginework.Job) bool {
		return count(js, enginework.Analysis, enginework.Done) > 0
	})
	stop()
	wg.Wait()

	var moves, ran []enginework.Job
	for _, j := range jobs.Jobs() {
		switch {
		case j.Kind == enginework.Move && j.Created.After(floodAt):
			moves = append(moves, j)
		case j.Kind == enginework.Analysis && j.State == enginework.Done:
			ran = append(ran, j)
		}
	}
	if len(moves) != len(flooded) || len(ran) == 0 {
		t.Fatalf("%d engine moves asked during the flood, %d replies; %d analyses done", len(moves), len(flooded), len(ran))
	}
	for _, m := range moves {
		passed := 0 // analyses queued before the move, claimed after it
		for _, a := range flood {
			if a.Kind == enginework.Analysis && a.Created.Before(m.Created) {
				if a, _ := jobs.Job(context.Background(), a.ID); a.Started.IsZero() || a.Started.After(m.Started) {
					passed++
				}
			}
		}
		if m.State != enginework.Done || passed == 0 {
			t.Errorf("engine move %d: %s, passed %d analyses waiting before it; want done, having passed some", m.ID, m.State, passed)
		}
		for _, a := range ran {
			if m.Wait() >= a.Ran() {
				t.Errorf("engine move %d waited %v in the queue, as long as analysis %d ran (%v)", m.ID, m.Wait(), a.ID, a.Ran())
			}
		}
		t.Logf("engine move %d: waited %v, ran %v", m.ID, m.Wait(), m.Ran())
	}
	for _, a := range ran {
		t.Logf("analysis %d: waited %v, ran %v", a.ID, a.Wait(), a.Ran())
	}
	t.Logf("level-1 replies without the flood %v, during it %v; the flood's answers by status %v", quiet, flooded, codes)
}
