package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"emergo/account"
	"emergo/server"
	"emergo/store"
	"emergo/store/sqlstore"
)

// events follows the Server-Sent Events of path for c, each event's data
// decoded as a T.
func events[T any](t *testing.T, c *client, path string) <-chan T {
	t.Helper()
	req, _ := http.NewRequest("GET", c.e.ts.URL+path, nil)
	resp, err := c.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("%s: content type %q", path, ct)
	}
	out := make(chan T, 16)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		// The stream's own events are named as its first; the others
		// beside them (a game's chat and spectators) are not T.
		first, event := "", ""
		for sc.Scan() {
			if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				event = name
				if first == "" {
					first = name
				}
			} else if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok && event == first {
				var v T
				json.Unmarshal([]byte(data), &v)
				out <- v
			}
		}
	}()
	return out
}

// seen is an event with the time it came.
type seen[T any] struct {
	v  T
	at time.Time
}

// stamped is events with the time each came.
func stamped[T any](events <-chan T) <-chan seen[T] {
	out := make(chan seen[T], 16)
	go func() {
		defer close(out)
		for v := range events {
			out <- seen[T]{v, time.Now()}
		}
	}()
	return out
}

// waitSeen returns the first event that ok accepts.
func waitSeen[T any](t *testing.T, what string, events <-chan seen[T], ok func(T) bool) seen[T] {
	t.Helper()
	return await(t, what, events, func(e seen[T]) bool { return ok(e.v) })
}

// await returns the first value of ch that ok accepts; the end of ch, or
// patience run out, fails the test.
func await[T any](t *testing.T, what string, ch <-chan T, ok func(T) bool) T {
	t.Helper()
	timeout := time.After(patience)
	for {
		select {
		case v, open := <-ch:
			if !open {
				t.Fatalf("the stream ended before an event with %s", what)
			}
			if ok(v) {
				return v
			}
		case <-timeout:
			t.Fatalf("no event with %s within %v", what, patience)
		}
	}
}

// on is the browser c talking to the server of e: the cookies of the
// test servers, all on 127.0.0.1, are shared by their ports.
func (c *client) on(e *env) *client { return &client{e: e, c: c.c} }

// postgresURL is the database that EMERGO_TEST_POSTGRES names; without
// one it skips the test.
func postgresURL(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("EMERGO_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("PostgreSQL server tests skipped: set EMERGO_TEST_POSTGRES to a connection URL to run them; .ci/run does")
	}
	return dsn
}

// flakyFeed is a server's feed that the test can cut: while cut, the
// changes published are lost to the server; mend says so to it, as a
// feed that listens again after a break does. A change that lose names
// is lost too, whenever it comes (the changes are announced after the
// request that made them has its answer).
type flakyFeed struct {
	server.Feed
	cut     atomic.Bool
	mu      sync.Mutex
	lost    func(error)
	changed func(store.Change)
	lose    store.Change // its game and version
	// hold is a game whose changes wait in held until release.
	hold string
	held []store.Change
}

func (f *flakyFeed) Follow(ctx context.Context, changed func(store.Change), lost func(error)) error {
	f.mu.Lock()
	f.lost, f.changed = lost, changed
	f.mu.Unlock()
	return f.Feed.Follow(ctx, func(c store.Change) {
		f.mu.Lock()
		lose, hold := f.lose, f.hold != "" && c.Game == f.hold
		if hold {
			f.held = append(f.held, c)
		}
		f.mu.Unlock()
		if !hold && !f.cut.Load() && (lose.Game == "" || c.Game != lose.Game || c.Version != lose.Version) {
			changed(c)
		}
	}, lost)
}

// release passes on the changes held, and holds no more.
func (f *flakyFeed) release() {
	f.mu.Lock()
	held, changed := f.held, f.changed
	f.hold, f.held = "", nil
	f.mu.Unlock()
	for _, c := range held {
		changed(c)
	}
}

// loseChange has the change of game id to version lost.
func (f *flakyFeed) loseChange(id string, version int64) {
	f.mu.Lock()
	f.lose = store.Change{Game: id, Version: version}
	f.mu.Unlock()
}

func (f *flakyFeed) mend() {
	f.cut.Store(false)
	f.mu.Lock()
	lost := f.lost
	f.mu.Unlock()
	lost(errors.New("the test cut the feed"))
}

// cluster is two servers on one store's data, A and B, as two instances
// behind a load balancer: each on a store connection of its own, joined
// by a feed, with one clock.
type cluster struct {
	a, b   *env
	fa, fb *flakyFeed
	sb     store.Store // B's store
}

func (c *cluster) advance(d time.Duration) {
	c.a.now.Add(int64(d))
	c.b.now.Add(int64(d))
}

// clusterKind builds a cluster's stores and feeds.
type clusterKind struct {
	name string
	// check skips the test if the kind cannot run here.
	check func(t *testing.T)
	// open returns the stores and feeds of A and B.
	open func(t *testing.T) (sa, sb store.Store, fa, fb server.Feed)
}

var clusterKinds = []clusterKind{
	{"SQLite", func(*testing.T) {}, func(t *testing.T) (store.Store, store.Store, server.Feed, server.Feed) {
		file := filepath.Join(t.TempDir(), "games.db")
		open := func() store.Store {
			st, err := sqlstore.OpenSQLite(context.Background(), file)
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		feed := server.NewLocalFeed()
		return open(), open(), feed, feed
	}},
	{"PostgreSQL", func(t *testing.T) { postgresURL(t) }, func(t *testing.T) (store.Store, store.Store, server.Feed, server.Feed) {
		schema := pgSchema(t, postgresURL(t))
		open := func() (store.Store, server.Feed) {
			st, err := sqlstore.OpenPostgres(context.Background(), schema)
			if err != nil {
				t.Fatal(err)
			}
			feed, err := st.Feed(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return st, feed
		}
		sa, fa := open()
		sb, fb := open()
		return sa, sb, fa, fb
	}},
}

func newCluster(t *testing.T, kind clusterKind, options ...func(*server.Config)) *cluster {
	t.Helper()
	sa, sb, fa, fb := kind.open(t)
	c := &cluster{fa: &flakyFeed{Feed: fa}, fb: &flakyFeed{Feed: fb}, sb: sb}
	cfg := func(st store.Store, feed server.Feed) server.Config {
		return server.Config{
			// Only the flag sweep ends a game whose server is gone, and
			// only the feed brings changes (the periodic check would,
			// within the hour).
			Store: st, Feed: feed, FlagSweep: 10 * time.Millisecond, DeadlineSweep: time.Hour, FeedCheck: time.Hour,
			Account:     account.Config{Params: cheapHashing.Params},
			EngineGames: server.EngineGameLimits{Sweep: 10 * time.Millisecond},
		}
	}
	with := func(cfg server.Config) server.Config {
		for _, o := range options {
			o(&cfg)
		}
		return cfg
	}
	c.a = newEnv(t, with(cfg(sa, c.fa)))
	c.b = newEnv(t, with(cfg(sb, c.fb)))
	return c
}

// TestCluster plays on two servers sharing a store, as one site: on one
// SQLite file joined by a LocalFeed, and on PostgreSQL with its feed.
func TestCluster(t *testing.T) {
	tests := []struct {
		name    string
		f       func(t *testing.T, c *cluster)
		options []func(*server.Config)
	}{
		{"FriendGameAcrossServers", friendGameAcrossServers, nil},
		{"EngineGameAcrossServers", engineGameAcrossServers, nil},
		{"EngineGamesBoundAcrossServers", engineGamesBoundAcrossServers, nil},
		{"LobbyAcrossServers", lobbyAcrossServers, nil},
		{"NoActionRefusedForAStaleCopy", staleCopies, nil},
		{"LostChangesAreReadAgain", lostChanges, nil},
		{"ChangesAppliedWithoutReading", changesApplied, nil},
		// The move waits for the change as long as the test takes.
		{"MoveAwaitsTheFeed", moveAwaitsTheFeed, []func(*server.Config){func(c *server.Config) { c.FeedWait = time.Hour }}},
		{"FlagFallsOnceWhenItsServerIsGone", flagOfAServerGone, nil},
		{"FlagFallsOnceOfTwoServers", flagOfTwoServers, nil},
		{"NotifiedOnceAcrossServers", notifiedOnce, nil},
		{"TVAcrossServers", tvAcrossServers, nil},
		{"VacationAcrossServers", vacationAcrossServers, nil},
		{"UploadExpiredOnBothServers", uploadExpiredOnBothServers, []func(*server.Config){func(c *server.Config) { c.UploadSweep = 10 * time.Millisecond }}},
	}
	for _, kind := range clusterKinds {
		t.Run(kind.name, func(t *testing.T) {
			kind.check(t)
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) { tc.f(t, newCluster(t, kind, tc.options...)) })
			}
		})
	}
}

// friendGameAcrossServers: a friend game created on A and joined on B,
// its moves posted to A and B in turn, each player on both; every move is
// accepted and seen on the event streams of both servers. The time from
// a move's request to the other server's event is logged.
func friendGameAcrossServers(t *testing.T, c *cluster) {
	alice := c.a.client()
	st := alice.create(t, map[string]any{"mode": "friend", "size": 7, "color": "white", "name": "alice"})
	bob := c.b.client()
	bob.join(t, st.ID, "bob", *st.Invite)
	streams := [2]<-chan seen[state]{
		stamped(events[state](t, alice, "/api/games/"+st.ID+"/events")),
		stamped(events[state](t, bob, "/api/games/"+st.ID+"/events")),
	}
	servers := [2]*env{c.a, c.b}
	players := [2]*client{alice, bob}
	var cross []time.Duration
	legal := st.Legal
	for ply := 0; ply < 16 && len(legal) > 0; ply++ {
		on := (ply + ply/2) % 2 // A, B, B, A, A, B...: each player on both
		player := players[ply%2].on(servers[on])
		sent := time.Now()
		code, after := player.move(st.ID, legal[0], ply)
		if code != http.StatusOK {
			t.Fatalf("move %d on %s: %d %q", ply+1, "AB"[on:on+1], code, after.Error)
		}
		for s, events := range streams {
			got := waitSeen(t, fmt.Sprintf("move %d on server %s", ply+1, "AB"[s:s+1]), events,
				func(v state) bool { return len(v.Moves) == ply+1 })
			if s != on {
				cross = append(cross, got.at.Sub(sent))
			}
		}
		legal = after.Legal
	}
	slices.Sort(cross)
	t.Logf("a move's request on one server to its event on the other: min %v, median %v, max %v over %d moves",
		cross[0], cross[len(cross)/2], cross[len(cross)-1], len(cross))
}

// engineGameAcrossServers: a move posted to B in a game against the
// engine created on A is answered, and the answer seen on A.
func engineGameAcrossServers(t *testing.T, c *cluster) {
	alice := c.a.client()
	st := alice.create(t, map[string]any{"mode": "engine", "size": 7, "level": 1, "color": "white"})
	onA := stamped(events[state](t, alice, "/api/games/"+st.ID+"/events"))
	if code, after := alice.on(c.b).move(st.ID, st.Legal[0], 0); code != http.StatusOK {
		t.Fatalf("move on B: %d %q", code, after.Error)
	}
	waitSeen(t, "the engine's answer on A", onA, func(v state) bool { return len(v.Moves) == 2 })
}

// engineGamesBoundAcrossServers: a guest's engine games in progress are
// counted as one on both servers, and a game left unplayed is ended by
// the sweep of either, its viewers on the other told.
func engineGamesBoundAcrossServers(t *testing.T, c *cluster) {
	guest := c.a.client()
	var ids []string
	for _, on := range []*env{c.a, c.b, c.a} {
		ids = append(ids, guest.on(on).create(t, engineAt("white")).ID)
	}
	for s, on := range []*env{c.a, c.b} {
		code, _, body := guest.on(on).do("POST", "/api/games", engineAt("white"))
		if e := decodeErr(t, body); code != http.StatusTooManyRequests || e.Code != "game.too_many_engine_games" {
			t.Errorf("a fourth game on %s: %d %s, want 429 game.too_many_engine_games", "AB"[s:s+1], code, body)
		}
	}
	onB := stamped(events[state](t, guest.on(c.b), "/api/games/"+ids[0]+"/events"))
	c.advance(11 * time.Minute)
	waitSeen(t, "the game made on A and left unplayed, ended as B sees it", onB, func(v state) bool {
		return v.Over && v.Reason == "aborted"
	})
	for _, id := range ids[1:] {
		waitFor(t, guest.on(c.a), id, func(v state) bool { return v.Over && v.Reason == "aborted" })
	}
	guest.on(c.b).create(t, engineAt("white"))
}

// lobbyAcrossServers: a challenge posted on A shows in the lobby of a
// player on B, and its acceptance on B in the challenger's on A.
func lobbyAcrossServers(t *testing.T, c *cluster) {
	alice, bob := signUp(t, c.a, "alice"), signUp(t, c.b, "bob")
	toBob := stamped(events[lobbyView](t, bob, "/api/lobby/events"))
	toAlice := stamped(events[lobbyView](t, alice, "/api/lobby/events"))
	waitSeen(t, "bob's empty lobby", toBob, func(v lobbyView) bool { return v.Me != nil && len(v.Challenges) == 0 })
	sent := time.Now()
	code, ch := alice.challenge(blitz)
	if code != http.StatusCreated {
		t.Fatalf("challenge on A: %d %s", code, ch.Error)
	}
	got := waitSeen(t, "alice's challenge on B", toBob, func(v lobbyView) bool { _, ok := v.find(ch.ID); return ok })
	t.Logf("a challenge's request on A to its event on B: %v", got.at.Sub(sent))
	code, game, msg := bob.answer(ch.ID, "accept")
	if code != http.StatusOK {
		t.Fatalf("accept on B: %d %s", code, msg)
	}
	waitSeen(t, "the game on A", toAlice, func(v lobbyView) bool {
		got, ok := v.find(ch.ID)
		return ok && got.Status == "accepted" && got.Game != nil && *got.Game == game
	})
}

// staleCopies: while A learns nothing of B's changes, its copy of a game
// goes stale; its players' actions are decided on the game as stored, not
// refused: the first move after a join on B (the seat looked open on A),
// a move after the opponent's on B (the ply looked ahead), a draw
// accepted that was offered on B.
func staleCopies(t *testing.T, c *cluster) {
	alice := c.a.client()
	st := alice.create(t, map[string]any{"mode": "friend", "size": 7, "color": "white", "name": "alice"})
	c.fa.cut.Store(true)
	bob := c.b.client()
	bob.join(t, st.ID, "bob", *st.Invite)
	code, after := alice.move(st.ID, "a1", 0)
	if code != http.StatusOK {
		t.Fatalf("the first move on A after the join on B: %d %q", code, after.Error)
	}
	if code, after := bob.move(st.ID, "g7", 1); code != http.StatusOK {
		t.Fatalf("black's move on B: %d %q", code, after.Error)
	}
	if code, after := alice.move(st.ID, "c1", 2); code != http.StatusOK || len(after.Moves) != 3 {
		t.Fatalf("white's move on A after black's on B: %d %+v", code, after)
	}
	if code, after, _ := bob.do("POST", "/api/games/"+st.ID+"/draw", map[string]any{"action": "offer"}); code != http.StatusOK {
		t.Fatalf("draw offer on B: %d %q", code, after.Error)
	}
	code, after, _ = alice.do("POST", "/api/games/"+st.ID+"/draw", map[string]any{"action": "accept"})
	if code != http.StatusOK || after.Result != "1/2-1/2" {
		t.Fatalf("accepting on A the draw offered on B: %d %+v", code, after)
	}
}

// lostChanges: the changes a server missed while its feed was broken
// reach its viewers once the feed listens again.
func lostChanges(t *testing.T, c *cluster) {
	id, alice, bob := friendGame(t, c.a, nil)
	onB := stamped(events[state](t, bob.on(c.b), "/api/games/"+id+"/events"))
	waitSeen(t, "the game on B", onB, func(v state) bool { return len(v.Moves) == 0 })
	c.fb.cut.Store(true)
	if code, after := alice.move(id, "a1", 0); code != http.StatusOK {
		t.Fatalf("move on A: %d %q", code, after.Error)
	}
	c.fb.mend()
	waitSeen(t, "the move missed by B", onB, func(v state) bool { return len(v.Moves) == 1 })
}

// changesApplied: a server holding a game takes in the moves made on the
// other as the feed carries them, without reading the game back
// (feed_applied, not feed_reloads); a change that finds it a version
// behind (one it missed) has it read the game back, and the next ones
// are applied again.
func changesApplied(t *testing.T, c *cluster) {
	id, alice, bob := friendGame(t, c.a, nil)
	onB := stamped(events[state](t, bob.on(c.b), "/api/games/"+id+"/events"))
	waitSeen(t, "the game on B", onB, func(v state) bool { return len(v.Moves) == 0 })
	before := vars(t, c.b)
	players := [2]*client{alice, bob}
	var legal []string
	play := func(ply int) state {
		t.Helper()
		move := "a1"
		if ply > 0 {
			move = legal[0]
		}
		code, after := players[ply%2].move(id, move, ply)
		if code != http.StatusOK {
			t.Fatalf("move %d on A: %d %q", ply+1, code, after.Error)
		}
		legal = after.Legal
		return after
	}
	var at state
	for ply := range 4 {
		at = play(ply)
		waitSeen(t, fmt.Sprintf("move %d on B", ply+1), onB, func(v state) bool { return len(v.Moves) == ply+1 })
	}
	after := vars(t, c.b)
	if n := after["feed_reloads"] - before["feed_reloads"]; n != 0 {
		t.Errorf("B read the game back %d times for moves it held the version before of", n)
	}
	if n := after["feed_applied"] - before["feed_applied"]; n != 4 {
		t.Errorf("B applied %d changes of the feed, want the 4 moves", n)
	}
	// B misses a move, and learns of the next: it reads the game back.
	c.fb.loseChange(id, at.Version+1)
	play(4)
	last := play(5)
	got := waitSeen(t, "move 6 on B", onB, func(v state) bool { return len(v.Moves) == 6 })
	if !slices.Equal(got.v.Moves, last.Moves) || got.v.Version != last.Version {
		t.Errorf("the game on B: moves %v at version %d; on A %v at version %d", got.v.Moves, got.v.Version, last.Moves, last.Version)
	}
	play(6)
	waitSeen(t, "move 7 on B", onB, func(v state) bool { return len(v.Moves) == 7 })
	final := vars(t, c.b)
	if n := final["feed_reloads"] - after["feed_reloads"]; n != 1 {
		t.Errorf("B read the game back %d times after missing a version, want once", n)
	}
	if n := final["feed_applied"] - after["feed_applied"]; n != 1 {
		t.Errorf("B applied %d changes of the feed after reading the game back, want the last move's", n)
	}
}

// moveAwaitsTheFeed: a player who answers on B a move made on A before
// B has heard of it waits for the feed to bring it, and his move is
// played on the game as the change made it, without reading the game
// back (feed_waits, feed_applied; not feed_reloads).
func moveAwaitsTheFeed(t *testing.T, c *cluster) {
	id, alice, bob := friendGame(t, c.a, nil)
	onB := stamped(events[state](t, bob.on(c.b), "/api/games/"+id+"/events"))
	waitSeen(t, "the game on B", onB, func(v state) bool { return len(v.Moves) == 0 })
	before := vars(t, c.b)
	c.fb.mu.Lock()
	c.fb.hold = id
	c.fb.mu.Unlock()
	code, after := alice.move(id, "a1", 0)
	if code != http.StatusOK {
		t.Fatalf("move 1 on A: %d %q", code, after.Error)
	}
	type answer struct {
		code  int
		after state
	}
	answered := make(chan answer, 1)
	go func() {
		code, after := bob.on(c.b).move(id, after.Legal[0], 1)
		answered <- answer{code, after}
	}()
	deadline := time.Now().Add(patience)
	for vars(t, c.b)["feed_waits"] == before["feed_waits"] {
		if time.Now().After(deadline) {
			t.Fatal("the move on B never waited for the feed")
		}
		select {
		case a := <-answered:
			t.Fatalf("the move on B was answered before B heard of move 1: %d %+v", a.code, a.after)
		case <-time.After(5 * time.Millisecond):
		}
	}
	c.fb.release()
	a := <-answered
	if a.code != http.StatusOK || len(a.after.Moves) != 2 {
		t.Fatalf("move 2 on B: %d %+v", a.code, a.after)
	}
	final := vars(t, c.b)
	if n := final["feed_reloads"] - before["feed_reloads"]; n != 0 {
		t.Errorf("B read the game back %d times", n)
	}
	if n := final["feed_applied"] - before["feed_applied"]; n < 1 {
		t.Errorf("B applied %d changes of the feed, want move 1's", n)
	}
}

// clockGame is a friend game with a clock of 10 s created and joined on
// A, where both players have made their first move: White's clock runs.
// It returns the game's state then.
func clockGame(t *testing.T, c *cluster) state {
	t.Helper()
	id, alice, bob := friendGame(t, c.a, map[string]any{"clock": map[string]any{"initial": 10, "increment": 0}})
	alice.move(id, "a1", 0)
	code, st := bob.move(id, "g7", 1)
	if code != http.StatusOK || st.Clock == nil || st.Clock.Running != "white" {
		t.Fatalf("black's first move: %d %+v", code, st)
	}
	return st
}

// flagOfAServerGone: a flag falls in a game held by A after A is gone,
// ended by B (its sweep: nobody on B asks for the game), once.
func flagOfAServerGone(t *testing.T, c *cluster) {
	st := clockGame(t, c)
	c.a.ts.Close()
	c.a.srv.Close()
	c.advance(11 * time.Second)
	deadline := time.Now().Add(patience)
	var g *store.Game
	for {
		var err error
		if g, err = c.sb.Get(context.Background(), st.ID); err != nil {
			t.Fatal(err)
		}
		if g.Reason != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the flag has not fallen within %v of the deadline; the game: %+v", patience, g)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if g.Result != "0-1" || g.Reason != "time forfeit" || g.Version != st.Version+1 || len(g.Moves) != 2 {
		t.Errorf("after the flag: %s by %s, version %d after %d moves; want 0-1 by time forfeit, version %d after 2",
			g.Result, g.Reason, g.Version, len(g.Moves), st.Version+1)
	}
}

// flagOfTwoServers: a flag falls once in a game that both servers hold,
// whose sweeps race to end it; the viewers of both see it fall.
func flagOfTwoServers(t *testing.T, c *cluster) {
	st := clockGame(t, c)
	watcher := c.a.client()
	streams := []<-chan seen[state]{
		stamped(events[state](t, watcher, "/api/games/"+st.ID+"/events")),
		stamped(events[state](t, watcher.on(c.b), "/api/games/"+st.ID+"/events")),
	}
	for s, events := range streams {
		waitSeen(t, fmt.Sprintf("the game on server %s", "AB"[s:s+1]), events, func(v state) bool { return len(v.Moves) == 2 })
	}
	c.advance(11 * time.Second)
	for s, events := range streams {
		got := waitSeen(t, fmt.Sprintf("the flag on server %s", "AB"[s:s+1]), events, func(v state) bool { return v.Over })
		if got.v.Result != "0-1" || got.v.Reason != "time forfeit" || got.v.Version != st.Version+1 {
			t.Errorf("server %s: %s by %s, version %d; want 0-1 by time forfeit, version %d",
				"AB"[s:s+1], got.v.Result, got.v.Reason, got.v.Version, st.Version+1)
		}
	}
}

// uploadExpiredOnBothServers: an upload held by both servers, and left
// idle past Config.UploadIdle, is deleted by the sweep of one of them;
// both answer 404 then, the other told by the feed.
func uploadExpiredOnBothServers(t *testing.T, c *cluster) {
	ada := c.a.client()
	id := ada.upload(t, "ada")
	if code, _, _ := ada.on(c.b).do("GET", "/api/games/"+id, nil); code != http.StatusOK {
		t.Fatalf("the upload on B: %d", code)
	}
	c.advance(31 * 24 * time.Hour)
	deadline := awaitDeleted(t, c.sb, id)
	for name, e := range map[string]*env{"A": c.a, "B": c.b} {
		for {
			code, _, _ := ada.on(e).do("GET", "/api/games/"+id, nil)
			if code == http.StatusNotFound {
				break
			}
			if code != http.StatusOK || time.Now().After(deadline) {
				t.Fatalf("the expired upload on %s: %d, want 404", name, code)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
