package server_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"emergo/server"
	"emergo/store/sqlstore"
	"emergo/throttle"
)

var (
	loadGames = flag.Int("load.games", 1000, "concurrent games of BenchmarkLoad")
	loadMoves = flag.Int("load.moves", 20, "moves per game of BenchmarkLoad")
	loadThink = flag.Duration("load.think", 500*time.Millisecond, "mean think time of a scripted player")
)

// BenchmarkLoad plays many concurrent games between scripted players over
// HTTP on 127.0.0.1, against a server on SQLite, and reports the moves per
// second and the latency of a move request (from sending it to the answer,
// the move being durable by then). Players think for a random time around
// -load.think between moves, as people do; there is no engine, so engine
// time is excluded. One iteration is the whole run:
//
//	go test ./server -run '^$' -bench Load -benchtime 1x
func BenchmarkLoad(b *testing.B) {
	st, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(b.TempDir(), "load.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	srv, err := server.New(context.Background(), server.Config{
		Store: st, RateLimit: -1, Invitations: loadInvitations(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	loadRun(b, []string{ts.URL})
}

// loadInvitations lift the bounds on invitations for the players of the
// benchmarks, who all come from 127.0.0.1 and make their games at once:
// the bounds are a client's, and these stand for many.
func loadInvitations() server.InvitationLimits {
	return server.InvitationLimits{PerClient: *loadGames, Total: *loadGames, Rate: throttle.Limit{Every: -1}}
}

// BenchmarkLoadTwoServers is BenchmarkLoad on two servers sharing one
// PostgreSQL database (EMERGO_TEST_POSTGRES, a schema of its own), joined
// by its feed: the two players of each game on the two servers, so that
// every move is written on one and announced to the other.
//
//	go test ./server -run '^$' -bench LoadTwoServers -benchtime 1x
func BenchmarkLoadTwoServers(b *testing.B) {
	dsn := os.Getenv("EMERGO_TEST_POSTGRES")
	if dsn == "" {
		b.Skip("needs PostgreSQL: set EMERGO_TEST_POSTGRES to a connection URL")
	}
	schema := pgSchema(b, dsn)
	var urls []string
	for range 2 {
		st := openPostgres(b, schema).(*sqlstore.DB)
		defer st.Close()
		feed, err := st.Feed(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		srv, err := server.New(context.Background(), server.Config{
			Store: st, Feed: feed, RateLimit: -1, Invitations: loadInvitations(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		})
		if err != nil {
			b.Fatal(err)
		}
		defer srv.Close()
		ts := httptest.NewServer(srv.Handler())
		defer ts.Close()
		urls = append(urls, ts.URL)
	}
	loadRun(b, urls)
	// The size of the tables and their indexes, for the sizing of
	// docs/deploy.md.
	db, err := sql.Open("pgx", schema)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	var size, games, moves float64
	if err := db.QueryRow(`SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c
		JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'`).Scan(&size); err != nil {
		b.Fatal(err)
	}
	if err := db.QueryRow(`SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM moves)`).Scan(&games, &moves); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(size/games/1024, "db-KiB/game")
	b.ReportMetric(size/moves, "db-B/move")
}

// loadRun plays BenchmarkLoad's games on the servers at urls: the two
// players of a game on two servers in turn, when there are two.
func loadRun(b *testing.B, urls []string) {
	tr := &http.Transport{MaxIdleConns: 4 * *loadGames, MaxIdleConnsPerHost: 4 * *loadGames}
	defer tr.CloseIdleConnections()

	for i := 0; i < b.N; i++ {
		var mu sync.Mutex
		var lat []time.Duration
		var failures int
		var wg sync.WaitGroup
		// Moves start once every game is set up, so the figures are
		// those of steady play, not of the burst of creations.
		var ready sync.WaitGroup
		ready.Add(*loadGames)
		var start time.Time
		go func() { ready.Wait(); start = time.Now() }()
		for gi := 0; gi < *loadGames; gi++ {
			wg.Add(1)
			go func(gi int) {
				defer wg.Done()
				r := rand.New(rand.NewPCG(uint64(gi), 1))
				var players [2]*http.Client
				for c := range players {
					jar, _ := cookiejar.New(nil)
					players[c] = &http.Client{Jar: jar, Transport: tr, Timeout: 30 * time.Second}
				}
				var st loadState
				var at [2]string // each player's server
				for c := range at {
					at[c] = urls[(gi+c)%len(urls)]
				}
				if post(players[0], at[0]+"/api/games", map[string]any{"mode": "friend", "size": 9}, &st) != nil ||
					post(players[1], at[1]+"/api/games/"+st.ID+"/join", map[string]any{"name": "b", "invite": st.Invite}, &st) != nil {
					mu.Lock()
					failures++
					mu.Unlock()
					ready.Done()
					return
				}
				ready.Done()
				ready.Wait()
				// Players start at random times, then think between moves.
				time.Sleep(time.Duration(r.Int64N(int64(*loadThink) + 1)))
				for ply := 0; ply < *loadMoves && len(st.Legal) > 0; ply++ {
					mv := st.Legal[r.IntN(len(st.Legal))]
					t0 := time.Now()
					err := post(players[ply%2], at[ply%2]+"/api/games/"+st.ID+"/move", map[string]any{"move": mv, "ply": ply}, &st)
					d := time.Since(t0)
					mu.Lock()
					if err != nil {
						failures++
					} else {
						lat = append(lat, d)
					}
					mu.Unlock()
					if err != nil {
						return
					}
					time.Sleep(time.Duration(r.Int64N(2*int64(*loadThink) + 1)))
				}
			}(gi)
		}
		wg.Wait()
		el := time.Since(start)
		slices.Sort(lat)
		pct := func(p float64) float64 {
			if len(lat) == 0 {
				return 0
			}
			return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
		}
		b.ReportMetric(float64(len(lat))/el.Seconds(), "moves/s")
		b.ReportMetric(pct(0.50), "p50-ms")
		b.ReportMetric(pct(0.90), "p90-ms")
		b.ReportMetric(pct(0.99), "p99-ms")
		b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ms")
		b.ReportMetric(float64(failures), "failures")
	}
}

type loadState struct {
	ID     string   `json:"id"`
	Legal  []string `json:"legal"`
	Invite string   `json:"invite"`
}

func post(c *http.Client, url string, body any, out *loadState) error {
	data, _ := json.Marshal(body)
	resp, err := c.Post(url, "application/json", bytes.NewReader(data))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		msg, _ := io.ReadAll(resp.Body)
		return &httpError{resp.StatusCode, string(msg)}
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

type httpError struct {
	code int
	msg  string
}

func (e *httpError) Error() string { return e.msg }
