package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"emergo/enginework"
	"emergo/player"
	"emergo/rules"
	"emergo/server"
	"emergo/store/sqlstore"
	"emergo/throttle"
)

// createFrom asks for a new game for c as a client at addr (the server
// trusts the proxy's X-Forwarded-For), and returns the status, the state
// and the error.
func (c *client) createFrom(addr string, req map[string]any) (int, state, apiErr) {
	c.e.t.Helper()
	code, st, body := c.do("POST", "/api/games", req, "X-Forwarded-For", addr)
	var e apiErr
	json.Unmarshal([]byte(body), &e)
	return code, st, e
}

// engineAt is the request of a 7x7 game against the engine at level 1, the
// person playing color.
func engineAt(color string) map[string]any {
	return map[string]any{"mode": "engine", "size": 7, "level": 1, "color": color}
}

// A client has three engine games in progress at most, counted for a
// guest by its browser and by its address, for a person logged in by his
// account; the site has its own bound. Another client is served
// meanwhile, and a game that ended counts no more.
func TestEngineGameBounds(t *testing.T) {
	jobs := enginework.NewMemory()
	// No worker takes the jobs: each game waits for the engine's first
	// move, in progress.
	e := accountEnv(t, server.Config{Jobs: jobs, EngineWorkers: -1, BehindProxy: true,
		EngineGames: server.EngineGameLimits{PerClient: 3, Total: 8, Rate: throttle.Limit{Every: -1}}})
	created := func(what string, c *client, addr string) state {
		t.Helper()
		code, st, err := c.createFrom(addr, engineAt("black"))
		if code != http.StatusCreated {
			t.Fatalf("%s: %d %+v, want 201", what, code, err)
		}
		return st
	}
	refused := func(what string, c *client, addr string) {
		t.Helper()
		code, _, err := c.createFrom(addr, engineAt("black"))
		if code != http.StatusTooManyRequests || err.Code != "game.too_many_engine_games" || err.Params["n"] != float64(3) ||
			err.Error != "you have 3 games against the engine in progress, as many as you may: finish, resign or abort one first" {
			t.Errorf("%s: %d %+v, want 429 game.too_many_engine_games, n 3", what, code, err)
		}
	}
	guest := e.client()
	first := created("the guest's first", guest, "10.0.0.1")
	created("the guest's second", guest, "10.0.0.1")
	created("the guest's third", guest, "10.0.0.1")
	refused("the guest's fourth", guest, "10.0.0.1")
	refused("another browser at the guest's address", e.client(), "10.0.0.1")
	refused("the guest's browser at another address", guest, "10.0.0.2")

	other := created("another client", e.client(), "10.0.0.3")
	waitJobs(t, jobs, "the other client's engine move queued", func(js []enginework.Job) bool {
		for _, j := range js {
			if j.Game == other.ID && j.Kind == enginework.Move && j.State == enginework.Queued && j.Client == "10.0.0.3" {
				return true
			}
		}
		return false
	})

	member := e.client()
	if code, msg, _ := member.account("signup", creds("ann", "a good password"), "X-Forwarded-For", "10.0.0.4"); code != http.StatusCreated {
		t.Fatalf("signup: %d %s", code, msg)
	}
	for i := range 3 {
		created(fmt.Sprintf("the account's game %d", i+1), member, "10.0.0.4")
	}
	refused("the account's fourth", member, "10.0.0.4")
	refused("the account's fourth from another address", member, "10.0.0.5")
	// The account's games are its own, not its address's guests'.
	created("a guest at the account's address", e.client(), "10.0.0.4")

	// Eight games in progress: the site takes no more.
	code, _, err := e.client().createFrom("10.0.0.6", engineAt("black"))
	if code != http.StatusServiceUnavailable || err.Code != "game.engine_games_full" {
		t.Errorf("a ninth game on the site: %d %+v, want 503 game.engine_games_full", code, err)
	}
	// A game between people is not one of them.
	if code, _, err := guest.createFrom("10.0.0.1", map[string]any{"mode": "friend", "size": 7}); code != http.StatusCreated {
		t.Errorf("a friend game of the guest: %d %+v", code, err)
	}
	// A game that ended counts no more.
	if code, _, body := guest.do("POST", "/api/games/"+first.ID+"/abort", nil, "X-Forwarded-For", "10.0.0.1"); code != http.StatusOK {
		t.Fatalf("abort: %d %s", code, body)
	}
	created("the guest's game once one ended", guest, "10.0.0.1")
}

// A client starts engine games at the rate of the limit, by its browser
// and by its address; a game refused for the client's games in progress
// does not count.
func TestEngineGameRate(t *testing.T) {
	jobs := enginework.NewMemory()
	e := newEnv(t, server.Config{Jobs: jobs, EngineWorkers: -1, BehindProxy: true,
		EngineGames: server.EngineGameLimits{PerClient: 1, Rate: throttle.Limit{Burst: 2, Every: time.Hour}}})
	guest := e.client()
	create := func(c *client, addr string) (int, state, apiErr) { return c.createFrom(addr, engineAt("white")) }
	abort := func(id string) {
		t.Helper()
		if code, _, body := guest.do("POST", "/api/games/"+id+"/abort", nil, "X-Forwarded-For", "10.0.0.1"); code != http.StatusOK {
			t.Fatalf("abort: %d %s", code, body)
		}
	}
	code, st, err := create(guest, "10.0.0.1")
	if code != http.StatusCreated {
		t.Fatalf("the first game: %d %+v", code, err)
	}
	if code, _, err := create(guest, "10.0.0.1"); code != http.StatusTooManyRequests || err.Code != "game.too_many_engine_games" {
		t.Fatalf("a second game while the first goes on: %d %+v, want 429 game.too_many_engine_games", code, err)
	}
	abort(st.ID)
	if code, st, err = create(guest, "10.0.0.1"); code != http.StatusCreated {
		t.Fatalf("the second game, the refused one not counted: %d %+v", code, err)
	}
	abort(st.ID)
	tooFastByEachName(t, e, guest, engineAt("white"), "game.engine_games_too_fast")
	if code, _, err := create(e.client(), "10.0.0.3"); code != http.StatusCreated {
		t.Errorf("a guest elsewhere: %d %+v", code, err)
	}
}

// tooFastByEachName checks that the guest, at 10.0.0.1, has spent its
// rate of creations of games as req asks (a burst, then one an hour), by
// its browser and by its address: the guest there, another browser there,
// and the guest's browser elsewhere are refused with 429 code, the
// seconds to wait in n.
func tooFastByEachName(t *testing.T, e *env, guest *client, req map[string]any, code string) {
	t.Helper()
	for _, c := range []struct {
		name string
		who  *client
		addr string
	}{
		{"the guest again", guest, "10.0.0.1"},
		{"another browser at the guest's address", e.client(), "10.0.0.1"},
		{"the guest's browser at another address", guest, "10.0.0.2"},
	} {
		status, _, err := c.who.createFrom(c.addr, req)
		if n, _ := err.Params["n"].(float64); status != http.StatusTooManyRequests || err.Code != code || n < 3000 || n > 3600 {
			t.Errorf("%s: %d %+v, want 429 %s, n the seconds to wait", c.name, status, err, code)
		}
	}
}

// One client floods the queue with level-10 engine moves (beyond the
// games its bound lets it make, as one that the bounds did not stop
// would), while another plays the engine at level 3 on 7x7: the other's
// reply comes within 5 s, since its move passes the flooder's waiting
// ones, and the queue's own times show it.
func TestEngineQueueFair(t *testing.T) {
	if testing.Short() {
		t.Skip("the flood runs level-10 searches of seconds; skipped under -short")
	}
	ctx := context.Background()
	jobs := enginework.NewMemory()
	e := newEnv(t, server.Config{Jobs: jobs, EngineWorkers: 2, EngineHashMiB: 4, BehindProxy: true})
	const flooder = "10.0.9.1"
	admitted := 0
	for range 6 {
		if code, _, _ := e.client().createFrom(flooder, map[string]any{"mode": "engine", "size": 9, "level": 10, "color": "black"}); code == http.StatusCreated {
			admitted++
		}
	}
	if admitted != server.DefaultEngineGameLimits.PerClient {
		t.Errorf("%d engine games of six browsers at one address, want its bound, %d", admitted, server.DefaultEngineGameLimits.PerClient)
	}
	task := enginework.TaskOf(rules.NewGame(rules.GeometryOf(9)))
	task.Level, task.Clock = 10, player.Clock{MoveTime: 2 * time.Second}
	for i := range 40 {
		j := &enginework.Job{Kind: enginework.Move, Game: fmt.Sprintf("flood%d", i), Version: 1, Client: flooder,
			Created: time.Now(), Task: task}
		if err := jobs.AddJob(ctx, j, enginework.DefaultLimits); err != nil {
			t.Fatal(err)
		}
	}
	defer func() {
		for _, j := range jobs.Jobs() {
			jobs.CancelJob(ctx, j.ID, time.Now())
		}
	}()
	waitJobs(t, jobs, "both workers on the flood", func(js []enginework.Job) bool {
		n := 0
		for _, j := range js {
			if j.Client == flooder && j.State == enginework.Running {
				n++
			}
		}
		return n == 2
	})

	p := e.client()
	code, g, err := p.createFrom("10.0.9.2", map[string]any{"mode": "engine", "size": 7, "level": 3, "color": "white"})
	if code != http.StatusCreated {
		t.Fatalf("the other client's game: %d %+v", code, err)
	}
	start := time.Now()
	if code, _ := p.move(g.ID, g.Legal[0], 0); code != http.StatusOK {
		t.Fatalf("the other client's move: %d", code)
	}
	waitFor(t, p, g.ID, func(s state) bool { return len(s.Moves) == 2 })
	// The time is said, not judged: a loaded machine stretches it. What
	// bounds it is judged below: no job of the flood was claimed while the
	// reply waited, so it waited for a running search at most (2 s, the
	// engine's cap on a move without a clock), not for the flood.
	reply := time.Since(start)

	var mine *enginework.Job
	all := jobs.Jobs()
	for i, j := range all {
		if j.Game == g.ID && j.Kind == enginework.Move {
			mine = &all[i]
		}
	}
	if mine == nil || mine.State != enginework.Done {
		t.Fatalf("the other client's engine move: %+v, want done", mine)
	}
	passed, after := 0, 0
	for _, j := range all {
		if j.Client != flooder || j.Kind != enginework.Move {
			continue
		}
		if j.Created.Before(mine.Created) && (j.Started.IsZero() || j.Started.After(mine.Started)) {
			passed++ // waiting before it, claimed after it
		}
		if j.Started.After(mine.Created) && j.Started.Before(mine.Started) {
			after++ // claimed while it waited
		}
	}
	if passed == 0 || after != 0 {
		t.Errorf("the other client's move passed %d of the flood's moves waiting before it, and %d were claimed while it waited; want some, and none",
			passed, after)
	}
	t.Logf("level-3 reply during the flood: %v; the move waited %v in the queue and ran %v", reply, mine.Wait(), mine.Ran())
}

// An engine game nobody plays is ended, on the server's clock: aborted
// when both players have not moved within 10 minutes, lost by the person
// as abandoned after his turn has lasted 30. The sweep ends those a
// server holds, and a server that starts ends those that waited too long
// while it was down, without loading them or asking for their engine's
// moves; their engine work is dropped.
func TestIdleEngineGamesEnded(t *testing.T) {
	st, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	jobs := enginework.NewMemory() // survives the restarts, as PostgreSQL's would
	start := func(ahead time.Duration, workers int) *env {
		return newEnvAhead(t, server.Config{Store: keepOpen{st}, Jobs: jobs, EngineWorkers: workers,
			EngineGames: server.EngineGameLimits{Sweep: 10 * time.Millisecond}}, ahead)
	}
	stop := func(e *env) {
		e.ts.Close()
		e.srv.Close()
	}
	p := (&env{t: t}).client()
	// started plays the person's first move, White's, and waits for the
	// engine's reply: the person's turn, both having moved.
	started := func() string {
		g := p.create(t, engineAt("white"))
		if code, _ := p.move(g.ID, g.Legal[0], 0); code != http.StatusOK {
			t.Fatalf("the person's first move: %d", code)
		}
		waitFor(t, p, g.ID, func(s state) bool { return len(s.Moves) == 2 && !s.Thinking })
		return g.ID
	}
	ended := func(what, id, result, reason string) {
		t.Helper()
		s := waitFor(t, p, id, func(s state) bool { return s.Over })
		if s.Result != result || s.Reason != reason {
			t.Errorf("%s: %s (%s), want %s (%s)", what, s.Result, s.Reason, result, reason)
		}
	}
	goesOn := func(what, id string) {
		t.Helper()
		if _, s, body := p.do("GET", "/api/games/"+id, nil); s.Over || s.Idle == nil {
			t.Errorf("%s: %s, want it going on, with its idle times", what, body)
		}
	}

	// The sweep, on the games a server holds.
	first := start(0, 1)
	p.e = first
	s1, u1 := started(), p.create(t, engineAt("white")).ID
	first.now.Add(int64(11 * time.Minute))
	ended("unstarted for 11 minutes", u1, "*", "aborted")
	goesOn("the person's turn for 11 minutes", s1)
	first.now.Add(int64(20 * time.Minute))
	ended("the person's turn for 31 minutes", s1, "0-1", "abandoned")

	// The start, on the games the store holds.
	s2, u2 := started(), p.create(t, engineAt("white")).ID
	stop(first)
	second := start(time.Duration(first.now.Load())+time.Minute, -1)
	p.e = second
	f := p.create(t, engineAt("black")) // the engine's first move waits: no worker
	queued := waitJobs(t, jobs, "the engine's first move queued", func(js []enginework.Job) bool {
		return len(js) > 0 && js[len(js)-1].Game == f.ID && js[len(js)-1].State == enginework.Queued
	})
	move := queued[len(queued)-1]
	stop(second)
	third := start(time.Duration(second.now.Load())+31*time.Minute, -1)
	p.e = third
	if n := third.srv.Cached(); n != 0 {
		t.Errorf("%d games in memory after the start, want none: the idle ones ended in the store, none resumed", n)
	}
	for _, j := range jobs.Jobs() {
		if (j.Game == s2 || j.Game == u2 || j.Game == f.ID) && !j.State.Ended() {
			t.Errorf("job %d of idle game %s %s after the start, want none pending", j.ID, j.Game, j.State)
		}
	}
	if j, err := jobs.Job(context.Background(), move.ID); err != nil || j.State != enginework.Dropped {
		t.Errorf("the engine's first move of the game left: %+v %v, want dropped", j, err)
	}
	ended("unstarted while the server was down", u2, "*", "aborted")
	ended("the engine's first move waiting while the server was down", f.ID, "*", "aborted")
	ended("the person's turn while the server was down", s2, "0-1", "abandoned")

	// The sweep, on a game whose engine's move waits.
	g := p.create(t, engineAt("black"))
	waitJobs(t, jobs, "the engine's first move queued", func(js []enginework.Job) bool {
		return len(js) > 0 && js[len(js)-1].Game == g.ID && js[len(js)-1].State == enginework.Queued
	})
	goesOn("a game just made", g.ID)
	third.now.Add(int64(11 * time.Minute))
	ended("unstarted for 11 minutes, the engine's move waiting", g.ID, "*", "aborted")
	waitJobs(t, jobs, "the engine's move dropped", func(js []enginework.Job) bool {
		return js[len(js)-1].Game == g.ID && js[len(js)-1].State == enginework.Dropped
	})

	// The recent games say how each ended: none of them is still playing.
	var list struct {
		Games []struct{ ID, Result, Reason string }
	}
	if code, _, body := p.do("GET", "/api/games", nil); code != http.StatusOK || json.Unmarshal([]byte(body), &list) != nil {
		t.Fatalf("the recent games: %d %s", code, body)
	}
	want := map[string]string{s1: "0-1 abandoned", u1: "* aborted", s2: "0-1 abandoned", u2: "* aborted", f.ID: "* aborted", g.ID: "* aborted"}
	for _, it := range list.Games {
		if w, ok := want[it.ID]; ok {
			if got := it.Result + " " + it.Reason; got != w {
				t.Errorf("game %s in the recent games: %s, want %s", it.ID, got, w)
			}
			delete(want, it.ID)
		}
	}
	if len(want) > 0 {
		t.Errorf("games missing from the recent games: %v", want)
	}
}
