package server_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"emergo/server"
	"emergo/store/sqlstore"
)

// BenchmarkAnalysisFlood measures what a flood of the analysis board does
// to the engine's replies on a site as docs/deploy.md deploys it: two
// servers on PostgreSQL (EMERGO_TEST_POSTGRES, a schema of its own) that
// do no engine work, and a worker of two searches, in this process. A
// person plays the engine at level 1 through one server, and the time of
// each reply is from the move's request to the reply's event on the
// other server. Ten replies are timed alone, then twenty or more during a
// flood: six clients (six addresses) each keep three searches to depth 12
// asked, on both servers, as the flood that once made a reply of 0.33 s
// take 14.5 s; the person thinks a fifth of a second between the replies,
// which go on until searches of the flood have been answered
// (analyses-200 of them while the replies were timed).
//
//	go test ./server -run '^$' -bench AnalysisFlood -benchtime 1x
func BenchmarkAnalysisFlood(b *testing.B) {
	dsn := os.Getenv("EMERGO_TEST_POSTGRES")
	if dsn == "" {
		b.Skip("needs PostgreSQL: set EMERGO_TEST_POSTGRES to a connection URL")
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	schema := pgSchema(b, dsn)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	open := func() (*sqlstore.DB, server.Feed) {
		st := openPostgres(b, schema).(*sqlstore.DB)
		feed, err := st.Feed(ctx)
		if err != nil {
			b.Fatal(err)
		}
		return st, feed
	}
	jobs, err := sql.Open("pgx", schema)
	if err != nil {
		b.Fatal(err)
	}
	defer jobs.Close()
	var urls []string
	for range 2 {
		st, feed := open()
		defer st.Close()
		srv, err := server.New(ctx, server.Config{
			Store: st, Jobs: st, Feed: feed, EngineWorkers: -1, RateLimit: -1, BehindProxy: true, Logger: quiet,
		})
		if err != nil {
			b.Fatal(err)
		}
		ts := httptest.NewServer(srv.Handler())
		defer ts.Close()
		defer srv.Close() // first: it ends the event streams, which ts.Close waits for
		urls = append(urls, ts.URL)
	}
	st, feed := open()
	defer st.Close()
	var worker sync.WaitGroup
	worker.Add(1)
	go func() {
		defer worker.Done()
		server.RunWorker(ctx, server.WorkerConfig{Store: st, Jobs: st, Feed: feed, Searches: 2, Logger: quiet})
	}()
	defer worker.Wait()
	defer stop()

	for i := 0; i < b.N; i++ {
		jar, _ := cookiejar.New(nil)
		person := &http.Client{Jar: jar, Timeout: time.Minute}
		var g loadState
		var ply int
		var states <-chan floodState
		unfollow := func() {}
		defer func() { unfollow() }()
		// newGame starts a game, and another when it ends.
		newGame := func() {
			unfollow()
			if err := post(person, urls[0]+"/api/games", map[string]any{"mode": "engine", "size": 9, "level": 1, "color": "white"}, &g); err != nil {
				b.Fatal(err)
			}
			states, unfollow = followStates(b, person, urls[1]+"/api/games/"+g.ID+"/events")
			ply = 0
		}
		newGame()
		// reply times the engine's reply to a move; false if the move
		// ended the game.
		reply := func() (time.Duration, bool) {
			start := time.Now()
			if err := post(person, urls[0]+"/api/games/"+g.ID+"/move", map[string]any{"move": g.Legal[0], "ply": ply}, &g); err != nil {
				b.Fatalf("move %d: %v", ply, err)
			}
			timeout := time.After(time.Minute)
			for {
				select {
				case st, open := <-states:
					if !open {
						b.Fatal("the event stream ended")
					}
					if st.over && st.plies == ply+1 {
						g.Legal = nil
						return 0, false
					}
					if st.plies < ply+2 {
						continue
					}
					g.Legal = st.Legal
				case <-timeout:
					b.Fatalf("no reply to move %d within a minute", ply)
				}
				break
			}
			ply += 2
			return time.Since(start), true
		}
		replies := func(n int, until func() bool) []time.Duration {
			var times []time.Duration
			for len(times) < n || !until() {
				if d, ok := reply(); ok {
					times = append(times, d)
				}
				if len(g.Legal) == 0 {
					newGame()
				}
			}
			slices.Sort(times)
			return times
		}
		alone := replies(10, func() bool { return true })

		fctx, endFlood := context.WithCancel(ctx)
		var wg sync.WaitGroup
		var mu sync.Mutex
		answers := map[int]int{}
		for c := range 6 {
			for k := range 3 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for fctx.Err() == nil {
						code := analyze(fctx, urls[(c+k)%2], fmt.Sprintf("10.0.1.%d", c+1))
						mu.Lock()
						answers[code]++
						mu.Unlock()
					}
				}()
			}
		}
		// The flood is on once its 18 searches are asked.
		for deadline := time.Now().Add(time.Minute); ; {
			var asked int
			if err := jobs.QueryRow(`SELECT count(*) FROM jobs WHERE kind = 'analysis' AND state IN ('queued', 'running')`).Scan(&asked); err != nil {
				b.Fatal(err)
			}
			if asked >= 18 {
				break
			}
			if time.Now().After(deadline) {
				b.Fatalf("%d analyses asked after a minute, want 18", asked)
			}
			time.Sleep(10 * time.Millisecond)
		}
		// Twenty replies at least, a person thinking a fifth of a second
		// before each, and until searches of the flood have been
		// answered.
		answered := func() bool {
			mu.Lock()
			defer mu.Unlock()
			return answers[http.StatusOK] >= 2
		}
		flooded := replies(20, func() bool {
			time.Sleep(200 * time.Millisecond)
			return answered()
		})
		endFlood()
		wg.Wait()

		b.ReportMetric(ms(alone[len(alone)/2]), "alone-p50-ms")
		b.ReportMetric(ms(alone[len(alone)-1]), "alone-max-ms")
		b.ReportMetric(ms(flooded[len(flooded)/2]), "flood-p50-ms")
		b.ReportMetric(ms(flooded[len(flooded)-1]), "flood-max-ms")
		b.ReportMetric(float64(len(flooded)), "flood-replies")
		b.ReportMetric(float64(answers[http.StatusOK]), "analyses-200")
		b.ReportMetric(float64(answers[http.StatusTooManyRequests]+answers[http.StatusServiceUnavailable]), "analyses-refused")
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// floodState is what BenchmarkAnalysisFlood reads of a game's events.
type floodState struct {
	plies int
	over  bool
	Legal []string
}

// followStates returns the states of a game's event stream, and the
// function that closes it.
func followStates(b *testing.B, c *http.Client, url string) (<-chan floodState, func()) {
	b.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	resp, err := (&http.Client{Jar: c.Jar}).Do(req)
	if err != nil {
		b.Fatal(err)
	}
	out := make(chan floodState, 64)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		event := ""
		for sc.Scan() {
			if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				event = name
			} else if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok && event == "state" {
				var st struct {
					Moves []string `json:"moves"`
					Legal []string `json:"legal"`
					Over  bool     `json:"over"`
				}
				json.Unmarshal([]byte(data), &st)
				out <- floodState{len(st.Moves), st.Over, st.Legal}
			}
		}
	}()
	return out, func() { resp.Body.Close() }
}

// analyze asks the server at url for a search to depth 12 of the start,
// as a client at addr behind a proxy, and returns the status.
func analyze(ctx context.Context, url, addr string) int {
	body, _ := json.Marshal(map[string]any{"size": 9, "depth": 12})
	req, _ := http.NewRequestWithContext(ctx, "POST", url+"/api/analyze", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", addr)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}
