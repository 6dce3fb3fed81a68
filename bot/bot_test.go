package bot_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"emergo/account"
	"emergo/bot"
	"emergo/engine"
	"emergo/notation"
	"emergo/rules"
	"emergo/server"
	"emergo/store/sqlstore"
)

// The test binary doubles as the bots' engines: run with engineEnv set
// and the argument "ours", it is the program's engine (package engine, at
// level 1, so that a game takes seconds); with "tiny", a small engine
// written here, which plays a random legal move; "tiny FILE" holds its
// third move until FILE exists, so that a test restarts the site while
// the game surely goes on.
const engineEnv = "EMERGO_BOT_TEST_ENGINE"

func TestMain(m *testing.M) {
	if os.Getenv(engineEnv) == "1" && len(os.Args) >= 2 {
		switch os.Args[1] {
		case "ours":
			err := engine.Run(context.Background(), os.Stdin, os.Stdout, engine.Options{HashMiB: 1, Level: 1, Seed: 7})
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			os.Exit(0)
		case "tiny":
			hold := ""
			if len(os.Args) > 2 {
				hold = os.Args[2]
			}
			tinyEngine(os.Stdin, os.Stdout, hold)
			os.Exit(0)
		}
	}
	os.Setenv(engineEnv, "1")
	os.Exit(m.Run())
}

// tinyEngine speaks the protocol's minimum (docs/protocol.md): ugi,
// isready, setoption name Size, position, go, quit; it answers go with a
// random legal move at once, but for its third when hold names a file
// that does not exist yet: that one waits for the file.
func tinyEngine(in io.Reader, out io.Writer, hold string) {
	w := bufio.NewWriter(out)
	say := func(s string) { w.WriteString(s + "\n"); w.Flush() }
	size := 9
	var game *rules.Game
	rng := rand.New(rand.NewPCG(1, 2))
	gos := 0
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "ugi":
			say("id name tiny")
			say("option name Size type combo default 9 var 9 var 7")
			say("ugiok")
		case "isready":
			say("readyok")
		case "setoption":
			if len(f) == 5 && f[2] == "Size" {
				size, _ = strconv.Atoi(f[4])
			}
		case "position":
			game = nil
			moves := len(f)
			for i, s := range f {
				if s == "moves" {
					moves = i
				}
			}
			start := rules.NewPosition(rules.GeometryOf(size))
			if f[1] != "startpos" {
				p, err := notation.ParsePosition(strings.Join(f[1:moves], " "))
				if err != nil {
					continue
				}
				start = p
			}
			g := rules.NewGameFrom(start)
			if notation.PlayMoves(g, f[min(moves+1, len(f)):]) == nil {
				game = g
			}
		case "go":
			if gos++; gos == 3 && hold != "" {
				for {
					if _, err := os.Stat(hold); err == nil {
						break
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
			if game == nil || len(game.Legal()) == 0 {
				say("bestmove (none)")
				continue
			}
			legal := game.Legal()
			say("bestmove " + legal[rng.IntN(len(legal))].Text(game.Geometry()))
		case "quit":
			return
		}
	}
}

// engineCmd is the command line of the test binary as the engine kind,
// with its arguments.
func engineCmd(kind string, args ...string) string {
	cmd := strconv.Quote(os.Args[0]) + " " + kind
	for _, a := range args {
		cmd += " " + strconv.Quote(a)
	}
	return cmd
}

// site is a server on a SQLite file behind a proxy whose address stays
// when the server is replaced by another on the same file (a restart).
type site struct {
	t       *testing.T
	path    string
	front   *httptest.Server
	backend atomic.Pointer[httputil.ReverseProxy]
	srv     *server.Server
	ts      *httptest.Server
	db      *sqlstore.DB
}

func newSite(t *testing.T) *site {
	s := &site{t: t, path: filepath.Join(t.TempDir(), "games.db")}
	s.front = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := s.backend.Load()
		if p == nil {
			http.Error(w, `{"error":"the site is down","code":"server.unavailable"}`, http.StatusBadGateway)
			return
		}
		p.ServeHTTP(w, r)
	}))
	s.start()
	t.Cleanup(func() {
		s.stop()
		s.front.Close()
	})
	return s
}

// start starts a server on the site's file.
func (s *site) start() {
	db, err := sqlstore.OpenSQLite(context.Background(), s.path)
	if err != nil {
		s.t.Fatal(err)
	}
	srv, err := server.New(context.Background(), server.Config{
		Store: db, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), RateLimit: -1, EngineWorkers: 1,
		StreamKeepAlive: 200 * time.Millisecond,
		Account:         account.Config{Params: account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}},
	})
	if err != nil {
		s.t.Fatal(err)
	}
	s.db, s.srv, s.ts = db, srv, httptest.NewServer(srv.Handler())
	u, _ := url.Parse(s.ts.URL)
	p := httputil.NewSingleHostReverseProxy(u)
	p.FlushInterval = -1
	p.ErrorLog = nil
	s.backend.Store(p)
}

// stop stops the server as `emergo serve` does on SIGTERM: the streams
// end, the requests in flight are answered, and the store is closed.
func (s *site) stop() {
	if s.srv == nil {
		return
	}
	s.backend.Store(nil)
	s.srv.Drain()
	s.ts.Close()
	s.srv.Close()
	s.db.Close()
	s.srv = nil
}

// account signs name up and returns a token of its, with every scope.
func (s *site) account(name string) string {
	s.t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	post := func(path, body string) []byte {
		resp, err := c.Post(s.front.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			s.t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusCreated {
			s.t.Fatalf("%s: %d %s", path, resp.StatusCode, data)
		}
		return data
	}
	post("/api/account/signup", fmt.Sprintf(`{"username": %q, "password": "a long password"}`, name))
	var tok struct{ Token string }
	json.Unmarshal(post("/api/account/tokens", `{"description": "the bot"}`), &tok)
	return tok.Token
}

// get reads the API's answer at path into v.
func (s *site) get(path string, v any) {
	s.t.Helper()
	resp, err := http.Get(s.front.URL + path)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		s.t.Fatalf("%s: %v", path, err)
	}
}

// playerGames are an account's games as its profile lists them.
type playerGames struct {
	Games []struct {
		ID     string `json:"id"`
		Size   int    `json:"size"`
		Result string `json:"result"`
		Reason string `json:"reason"`
		Plies  int    `json:"plies"`
		Rated  bool   `json:"rated"`
		Rating *struct {
			Before, After float64
		} `json:"rating"`
		Opponent struct {
			Name string `json:"name"`
			Bot  bool   `json:"bot"`
		} `json:"opponent"`
	} `json:"games"`
}

// twoBots runs a game of two bots on a site: "tiny" accepts challenges
// with the small engine, "ourbot" challenges it to a rated 7x7 game at
// 1+1 with the program's engine. during, if not nil, runs once the game
// has moves, while it is played. It returns the game as the challenger's
// list shows it at its end.
func twoBots(t *testing.T, s *site, during func(id string)) playerGames {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tinyTok, oursTok := s.account("tiny"), s.account("ourbot")
	logs := slog.New(slog.NewTextHandler(io.Discard, nil))
	var hold []string
	if during != nil {
		hold = append(hold, filepath.Join(t.TempDir(), "play"))
	}
	run := func(tok, kind string, cfg bot.Config) <-chan error {
		cfg.Client = &bot.Client{URL: s.front.URL, Token: tok}
		if _, err := cfg.Client.Upgrade(ctx); err != nil {
			t.Fatal(err)
		}
		args := hold
		if kind != "tiny" {
			args = nil
		}
		cfg.Engine = bot.ShellEngine(engineCmd(kind, args...), os.Stderr)
		cfg.Backoff, cfg.MaxBackoff, cfg.Logger = 20*time.Millisecond, 300*time.Millisecond, logs
		done := make(chan error, 1)
		go func() { done <- bot.Run(ctx, cfg) }()
		return done
	}
	stopTiny := make(chan struct{})
	tiny := run(tinyTok, "tiny", bot.Config{Stop: stopTiny})
	ours := run(oursTok, "ours", bot.Config{
		Send:  &bot.Offer{To: "tiny", Size: 7, Clock: &bot.Clock{Initial: 60, Increment: 1}, Rated: true, Color: "white"},
		Games: 1,
	})
	if during != nil {
		var id string
		for deadline := time.Now().Add(time.Minute); id == ""; {
			var pg playerGames
			s.get("/api/users/ourbot/games", &pg)
			if len(pg.Games) == 1 && pg.Games[0].Plies >= 5 && pg.Games[0].Result == "*" {
				id = pg.Games[0].ID
			}
			if time.Now().After(deadline) {
				t.Fatalf("the game has not five moves after a minute: %+v", pg.Games)
			}
			time.Sleep(10 * time.Millisecond)
		}
		during(id)
		if err := os.WriteFile(hold[0], nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := <-ours; err != nil {
		t.Fatalf("the challenger: %v", err)
	}
	close(stopTiny)
	if err := <-tiny; err != nil {
		t.Fatalf("the bot that accepted: %v", err)
	}
	var pg playerGames
	s.get("/api/users/ourbot/games", &pg)
	if len(pg.Games) != 1 {
		t.Fatalf("the challenger's games: %+v, want one", pg.Games)
	}
	g := pg.Games[0]
	t.Logf("the game: %d plies, %s by %s", g.Plies, g.Result, g.Reason)
	if g.Size != 7 || !g.Rated || g.Result == "*" || g.Reason == "" || g.Rating == nil || !g.Opponent.Bot || g.Opponent.Name != "tiny" {
		t.Errorf("the game: %+v; want a rated 7x7 game against the bot tiny, over and rated", g)
	}
	var prof struct {
		Bot     bool
		Ratings []struct{ Size, Games int }
	}
	s.get("/api/users/tiny", &prof)
	rated := 0
	for _, r := range prof.Ratings {
		if r.Games > 0 && r.Size == 7 {
			rated += r.Games
		}
	}
	if !prof.Bot || rated != 1 {
		t.Errorf("tiny's profile: %+v, want a bot with one rated 7x7 game", prof)
	}
	return pg
}

func TestTwoBotsPlayARatedGame(t *testing.T) {
	twoBots(t, newSite(t), nil)
}

func TestTwoBotsThroughARestart(t *testing.T) {
	s := newSite(t)
	var at int
	pg := twoBots(t, s, func(id string) {
		var before struct {
			Moves []string
			Over  bool
		}
		s.get("/api/games/"+id, &before)
		s.stop()
		s.start()
		var after struct{ Moves []string }
		s.get("/api/games/"+id, &after)
		at = len(after.Moves)
		if before.Over || at != len(before.Moves) {
			t.Errorf("the game before the restart: %d moves, over %v; after: %d moves", len(before.Moves), before.Over, at)
		}
	})
	if pg.Games[0].Plies <= at {
		t.Errorf("the game ended with %d moves, as many as at the restart", pg.Games[0].Plies)
	}
}

func TestParseAccept(t *testing.T) {
	clock := func(m, s float64) *bot.Clock { return &bot.Clock{Initial: m * 60, Increment: s} }
	live7 := bot.Challenge{Size: 7, Rated: true, Clock: clock(1, 1)}
	corr9 := bot.Challenge{Size: 9, Days: 3}
	for _, tt := range []struct {
		text        string
		live, corr  bool
		errExpected bool
	}{
		{"", true, true, false},
		{"7", true, false, false},
		{"9,7", true, true, false},
		{"rated", true, false, false},
		{"casual", false, true, false},
		{"1+1", true, false, false},
		{"3+2", false, false, false},
		{"live", true, false, false},
		{"days,9", false, true, false},
		{"7,rated,1+1", true, false, false},
		{"8", false, false, true},
		{"1+", false, false, true},
	} {
		f, err := bot.ParseAccept(tt.text)
		if (err != nil) != tt.errExpected {
			t.Errorf("ParseAccept(%q): error %v", tt.text, err)
			continue
		}
		if err != nil {
			continue
		}
		if f(live7) != tt.live || f(corr9) != tt.corr {
			t.Errorf("ParseAccept(%q): 7x7 rated 1+1 %v, 9x9 3 days %v; want %v, %v", tt.text, f(live7), f(corr9), tt.live, tt.corr)
		}
	}
}

// A bot stopped with OnStop Resign resigns its games under way, and Run
// returns.
func TestStopResigns(t *testing.T) {
	s := newSite(t)
	tok := s.account("tiny")
	person := s.account("alice")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := &bot.Client{URL: s.front.URL, Token: tok}
	if _, err := c.Upgrade(ctx); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- bot.Run(ctx, bot.Config{Client: c, Engine: bot.ShellEngine(engineCmd("tiny"), os.Stderr), OnStop: bot.Resign,
			Stop: stop, Backoff: 20 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	}()
	alice := &bot.Client{URL: s.front.URL, Token: person}
	var game string
	for deadline := time.Now().Add(time.Minute); game == ""; time.Sleep(10 * time.Millisecond) {
		// The bot accepts once its event stream is open: until then the
		// challenge waits, and is sent again.
		id, err := alice.Challenge(ctx, bot.Offer{To: "tiny", Size: 9, Clock: &bot.Clock{Initial: 600}, Color: "white"})
		if err != nil {
			t.Fatal(err)
		}
		for wait := time.Now().Add(time.Second); game == "" && time.Now().Before(wait); time.Sleep(10 * time.Millisecond) {
			var pg playerGames
			s.get("/api/users/alice/games", &pg)
			if len(pg.Games) > 0 {
				game = pg.Games[0].ID
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bot did not accept challenge %s", id)
		}
	}
	// Alice moves, and once the bot has answered it surely plays the
	// game.
	var legal struct{ Legal []string }
	s.get("/api/games/"+game, &legal)
	req, _ := http.NewRequest("POST", s.front.URL+"/api/games/"+game+"/move", strings.NewReader(`{"move": "`+legal.Legal[0]+`", "ply": 0}`))
	req.Header.Set("Authorization", "Bearer "+person)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("alice's move: %v %v", resp, err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		var g struct{ Moves []string }
		s.get("/api/games/"+game, &g)
		if len(g.Moves) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the bot did not answer alice's move")
		}
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var st struct{ Result, Reason string }
	s.get("/api/games/"+game, &st)
	if st.Result != "1-0" || st.Reason != "resignation" {
		t.Errorf("the game after the stop: %s by %s, want 1-0 by resignation", st.Result, st.Reason)
	}
}
