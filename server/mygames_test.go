package server_test

import (
	"net/http"
	"slices"
	"testing"

	"emergo/server"
)

// myGame is one game of /api/my-games.
type myGame struct {
	ID       string  `json:"id"`
	You      string  `json:"you"`
	Turn     *string `json:"turn"`
	YourTurn bool    `json:"yourTurn"`
	Joined   bool    `json:"joined"`
	Result   string  `json:"result"`
	Days     int     `json:"days"`
	Deadline *string `json:"deadline"`
	LeftMS   *int64  `json:"left_ms"`
}

func (c *client) myGames(t *testing.T) []myGame {
	t.Helper()
	var out struct {
		Games []myGame `json:"games"`
	}
	c.getJSON(t, "/api/my-games", &out)
	return out.Games
}

// "My games" lists the games where the browser holds a seat: where it is
// its turn first, the soonest deadline first, then the other games going
// on, then the finished ones.
func TestMyGames(t *testing.T) { myGamesTest(t, newEnv(t, server.Config{})) }

func myGamesTest(t *testing.T, e *env) {
	alice, bob := e.client(), e.client()
	join := func(id string) {
		t.Helper()
		bob.join(t, id, "bob", alice.invite(t, id))
	}
	game := func(extra map[string]any) string {
		t.Helper()
		req := map[string]any{"mode": "friend", "size": 7, "color": "white", "name": "alice"}
		for k, v := range extra {
			req[k] = v
		}
		return alice.create(t, req).ID
	}
	// Bob's turn in week and day (the day's deadline sooner), Alice's in
	// live; open waits for a friend; over is over.
	week, dayGame, live, open, over := game(map[string]any{"days": 7}), game(map[string]any{"days": 1}), game(nil), game(nil), game(nil)
	for _, id := range []string{week, dayGame, live, over} {
		join(id)
	}
	for _, id := range []string{week, dayGame} {
		if code, _ := alice.move(id, "a1", 0); code != 200 {
			t.Fatalf("move: %d", code)
		}
	}
	alice.do("POST", "/api/games/"+over+"/resign", nil)

	type row struct {
		id               string
		you, turn        string
		yourTurn, joined bool
		result           string
		deadline         bool
	}
	rowOf := func(g myGame) row {
		r := row{id: g.ID, you: g.You, yourTurn: g.YourTurn, joined: g.Joined, result: g.Result, deadline: g.Deadline != nil && g.LeftMS != nil}
		if g.Turn != nil {
			r.turn = *g.Turn
		}
		return r
	}
	tests := []struct {
		name string
		c    *client
		// first are the leading rows in order; rest the others going on,
		// in any order; last the finished one.
		first, rest []row
	}{
		{"alice", alice,
			[]row{{live, "white", "white", true, true, "*", false}},
			[]row{
				{week, "white", "black", false, true, "*", true},
				{dayGame, "white", "black", false, true, "*", true},
				{open, "white", "white", false, false, "*", false},
			}},
		{"bob", bob,
			[]row{
				{dayGame, "black", "black", true, true, "*", true},
				{week, "black", "black", true, true, "*", true},
			},
			[]row{{live, "black", "white", false, true, "*", false}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			games := tc.c.myGames(t)
			if len(games) != len(tc.first)+len(tc.rest)+1 {
				t.Fatalf("%d games: %+v", len(games), games)
			}
			for i, want := range tc.first {
				if got := rowOf(games[i]); got != want {
					t.Errorf("game %d: %+v, want %+v", i, got, want)
				}
			}
			rest := map[string]row{}
			for _, g := range games[len(tc.first) : len(games)-1] {
				rest[g.ID] = rowOf(g)
			}
			for _, want := range tc.rest {
				if got := rest[want.id]; got != want {
					t.Errorf("%s: %+v, want %+v", want.id, got, want)
				}
			}
			last := games[len(games)-1]
			if last.ID != over || last.Result != "0-1" || last.Turn != nil || last.YourTurn {
				t.Errorf("the finished game: %+v", last)
			}
		})
	}
	if g := bob.myGames(t)[0]; g.Days != 1 || *g.LeftMS <= 0 || *g.LeftMS > day.Milliseconds() {
		t.Errorf("the day game's time: %+v", g)
	}

	// A browser without a seat has no games, and gets no cookie for asking.
	stranger := e.client()
	if games := stranger.myGames(t); len(games) != 0 {
		t.Errorf("a stranger's games: %+v", games)
	}
	resp, err := http.Get(e.ts.URL + "/api/my-games")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if c := resp.Header.Get("Set-Cookie"); c != "" {
		t.Errorf("asking for my games set a cookie: %s", c)
	}
}

// An aborted game is over although it has no result: nobody's turn, and
// listed after the games that go on.
func TestMyGamesAbortedIsOver(t *testing.T) {
	e := newEnv(t, server.Config{})
	aborted, alice, _ := friendGame(t, e, nil)
	if code, _, body := alice.do("POST", "/api/games/"+aborted+"/abort", nil); code != 200 {
		t.Fatalf("abort: %d %s", code, body)
	}
	// Alice's second game, waiting for a friend, goes on.
	live := alice.create(t, map[string]any{"mode": "friend", "size": 7, "color": "white", "name": "alice"}).ID
	games := alice.myGames(t)
	if len(games) != 2 || games[0].ID != live || games[1].ID != aborted {
		t.Fatalf("Alice's games %+v, want %s going on, then the aborted %s", games, live, aborted)
	}
	if g := games[1]; g.Turn != nil || g.YourTurn || g.Result != "*" {
		t.Errorf("the aborted game: %+v, want no turn", g)
	}
}

// An account's games are its own in every browser where it logs in; a
// guest's are its browser's; a browser logged out no longer lists the
// account's games, whose seats are the account's alone.
func TestMyGamesOfAccounts(t *testing.T) {
	e := accountEnv(t, server.Config{})
	home, other, bob := e.client(), e.client(), e.client()
	game := func(c *client) string {
		t.Helper()
		st := c.create(t, map[string]any{"mode": "friend", "size": 7, "color": "white", "days": 3})
		bob.join(t, st.ID, "bob", *st.Invite)
		return st.ID
	}
	guest := game(home) // before the account: the browser's
	home.account("signup", creds("Alice", "password1"))
	mine := game(home) // the account's
	other.account("login", creds("alice", "password1"))

	ids := func(c *client) []string {
		var out []string
		for _, g := range c.myGames(t) {
			out = append(out, g.ID)
		}
		slices.Sort(out)
		return out
	}
	both := []string{guest, mine}
	slices.Sort(both)
	tests := []struct {
		name   string
		c      *client
		logout bool
		want   []string
	}{
		{"the browser of both, logged in", home, false, both},
		{"another browser of the account", other, false, []string{mine}},
		{"the opponent, a guest", bob, false, both},
		{"the browser of both, logged out", home, true, []string{guest}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.logout {
				tc.c.account("logout", nil)
			}
			if got := ids(tc.c); !slices.Equal(got, tc.want) {
				t.Errorf("games %v, want %v", got, tc.want)
			}
		})
	}
}
