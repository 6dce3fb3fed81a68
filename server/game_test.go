package server_test

import (
	"context"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"emergo/server"
	"emergo/store"
	"emergo/store/sqlstore"
	"emergo/throttle"
)

// Every refusal of an action on a game comes with its status and its
// message (here, its start), whether the site or the game decides it.
func TestGameErrors(t *testing.T) {
	// Its guests, all at 127.0.0.1, make more friend games than a client
	// may: the bounds on invitations are TestInvitationBounds'.
	e := newEnv(t, server.Config{Invitations: server.InvitationLimits{PerClient: 100, Rate: throttle.Limit{Every: -1}}})
	open := func() (string, *client, *client) {
		a := e.client()
		st := a.create(t, map[string]any{"mode": "friend", "size": 7, "name": "alice"})
		return st.ID, a, e.client()
	}
	// post sends an action of c on game id: "resign", "draw", "takeback".
	post := func(c *client, id, what string, body any) (int, state) {
		code, st, _ := c.do("POST", "/api/games/"+id+"/"+what, body)
		return code, st
	}
	tests := []struct {
		name string
		do   func(t *testing.T) (int, state)
		code int
		want string
	}{
		{"not your turn", func(t *testing.T) (int, state) {
			id, a, _ := friendGame(t, e, nil)
			a.move(id, "a1", 0)
			return a.move(id, "c1", 1)
		}, http.StatusConflict, "it is not your turn"},
		{"stale board", func(t *testing.T) (int, state) {
			id, a, b := friendGame(t, e, nil)
			a.move(id, "a1", 0)
			return b.move(id, "g7", 0)
		}, http.StatusConflict, "the board has changed since you looked: your move was not played"},
		{"opponent absent", func(t *testing.T) (int, state) {
			id, a, _ := open()
			return a.move(id, "a1", 0)
		}, http.StatusConflict, "your opponent has not joined yet: send them the invite link"},
		{"not playing", func(t *testing.T) (int, state) {
			id, _, _ := friendGame(t, e, nil)
			return e.client().move(id, "a1", 0)
		}, http.StatusForbidden, "you are not playing in this game"},
		{"over", func(t *testing.T) (int, state) {
			id, a, b := friendGame(t, e, nil)
			b.do("POST", "/api/games/"+id+"/resign", nil)
			return a.move(id, "a1", 0)
		}, http.StatusConflict, "the game is over (1-0, resignation)"},
		{"join a game that is over", func(t *testing.T) (int, state) {
			id, a, b := open()
			a.do("POST", "/api/games/"+id+"/resign", nil)
			return post(b, id, "join", map[string]any{"name": "bob"})
		}, http.StatusConflict, "the game is over (0-1, resignation)"},
		{"seats taken", func(t *testing.T) (int, state) {
			id, _, _ := friendGame(t, e, nil)
			return post(e.client(), id, "join", map[string]any{"name": "eve"})
		}, http.StatusConflict, "both seats are taken; you can watch"},
		{"abort after both moved", func(t *testing.T) (int, state) {
			id, a, b := friendGame(t, e, nil)
			a.move(id, "a1", 0)
			b.move(id, "g7", 1)
			return post(a, id, "abort", nil)
		}, http.StatusConflict, "both players have moved: the game can no longer be aborted"},
		{"move in an aborted game", func(t *testing.T) (int, state) {
			id, a, b := friendGame(t, e, nil)
			post(b, id, "abort", nil)
			return a.move(id, "a1", 0)
		}, http.StatusConflict, "the game was aborted"},
		{"abort by a watcher", func(t *testing.T) (int, state) {
			id, _, _ := friendGame(t, e, nil)
			return post(e.client(), id, "abort", nil)
		}, http.StatusForbidden, "you are not playing in this game"},
		{"no draw offer", func(t *testing.T) (int, state) {
			id, a, _ := friendGame(t, e, nil)
			return post(a, id, "draw", map[string]any{"action": "accept"})
		}, http.StatusConflict, "there is no draw offer to accept"},
		{"no take-back request", func(t *testing.T) (int, state) {
			id, a, _ := friendGame(t, e, nil)
			return post(a, id, "takeback", map[string]any{"action": "decline"})
		}, http.StatusConflict, "there is no take-back request to decline"},
		{"nothing to take back", func(t *testing.T) (int, state) {
			id, a, _ := friendGame(t, e, nil)
			return post(a, id, "takeback", map[string]any{"action": "request"})
		}, http.StatusConflict, "you have no move to take back"},
		{"bad take-back action", func(t *testing.T) (int, state) {
			id, a, _ := friendGame(t, e, nil)
			return post(a, id, "takeback", map[string]any{"action": "offer"})
		}, http.StatusBadRequest, `action must be "request", "accept" or "decline"`},
		{"illegal move", func(t *testing.T) (int, state) {
			id, a, _ := friendGame(t, e, nil)
			return a.move(id, "a1-b2", 0)
		}, http.StatusBadRequest, "illegal move "},
		{"no such game", func(t *testing.T) (int, state) {
			code, st, _ := e.client().do("GET", "/api/games/nosuchgame", nil)
			return code, st
		}, http.StatusNotFound, "no such game"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, st := tc.do(t)
			if code != tc.code || !strings.HasPrefix(st.Error, tc.want) {
				t.Errorf("%d %q, want %d %q", code, st.Error, tc.code, tc.want)
			}
		})
	}
}

// keepOpen is a store that the first of two servers does not close.
type keepOpen struct{ store.Store }

func (keepOpen) Close() error { return nil }

// A server started again carries on with the game as it was stored: the
// moves, the clocks, the offers; and the time it was down is charged to
// nobody.
func TestRestartCarriesOn(t *testing.T) {
	st, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	first := newEnv(t, server.Config{Store: keepOpen{st}})
	first.now.Store(int64(-time.Hour)) // its clock runs an hour behind the second's
	id, a, b := friendGame(t, first, map[string]any{"clock": map[string]any{"initial": 60, "increment": 5}})
	a.move(id, "a1", 0)
	b.move(id, "g7", 1) // White's clock runs from now on
	b.do("POST", "/api/games/"+id+"/draw", map[string]any{"action": "offer"})
	_, before, _ := a.do("GET", "/api/games/"+id, nil)
	first.ts.Close()
	first.srv.Close()

	second := newEnv(t, server.Config{Store: st})
	a.e, b.e = second, second
	code, after, body := a.do("GET", "/api/games/"+id, nil)
	if code != 200 || after.Result != "*" || len(after.Moves) != 2 || after.DrawOffer == nil || *after.DrawOffer != "black" {
		t.Fatalf("after the restart: %d %s", code, body)
	}
	if c := after.Clock; c == nil || c.Running != "white" || c.BlackMS != before.Clock.BlackMS || c.WhiteMS <= 0 || c.WhiteMS > 60000 {
		t.Errorf("clocks before %+v, after %+v: the hour the server was down was charged", before.Clock, after.Clock)
	}
	if code, st := a.move(id, "c1", 2); code != 200 || len(st.Moves) != 3 || st.DrawOffer != nil {
		t.Errorf("a move after the restart: %d %+v", code, st)
	}
}

// An uploaded record keeps the words of its ending as they came, through
// the store.
func TestUploadKeepsItsEnding(t *testing.T) {
	e := newEnv(t, server.Config{})
	a := e.client()
	tests := []struct {
		name, pgn      string
		result, reason string
	}{
		{"ours", "[Termination \"time forfeit\"]\n\n1. d6 c1 1-0", "1-0", "time forfeit"},
		{"another program's word", "[Termination \"normal\"]\n\n1. d6 c1 0-1", "0-1", "normal"},
		{"no word", "1. d6 c1 1/2-1/2", "1/2-1/2", ""},
		{"unfinished", "[Termination \"unterminated\"]\n\n1. d6 c1 *", "*", "unterminated"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, st, body := a.do("POST", "/api/records", tc.pgn)
			if code != http.StatusCreated || st.Result != tc.result || st.Reason != tc.reason || len(st.Legal) != 0 {
				t.Errorf("upload: %d %s", code, body)
			}
		})
	}
}

// A game may be aborted, by either player, until both have moved: it ends
// without a result, and the store no longer counts it as going on.
func TestAbort(t *testing.T) {
	db, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, server.Config{Store: db})
	tests := []struct {
		name  string
		setup func(t *testing.T) (id string, by *client)
	}{
		{"the friend has not come", func(t *testing.T) (string, *client) {
			a := e.client()
			return a.create(t, map[string]any{"mode": "friend", "size": 7, "name": "alice"}).ID, a
		}},
		{"by White before any move", func(t *testing.T) (string, *client) {
			id, a, _ := friendGame(t, e, nil)
			return id, a
		}},
		{"by Black after White's first move", func(t *testing.T) (string, *client) {
			id, a, b := friendGame(t, e, map[string]any{"clock": map[string]any{"initial": 60, "increment": 0}})
			a.move(id, "a1", 0)
			return id, b
		}},
		{"by White after his first move", func(t *testing.T) (string, *client) {
			id, a, _ := friendGame(t, e, nil)
			a.move(id, "a1", 0)
			return id, a
		}},
		{"against the engine, before the person's first move", func(t *testing.T) (string, *client) {
			a := e.client()
			st := a.create(t, map[string]any{"mode": "engine", "size": 7, "level": 1, "color": "black"})
			waitFor(t, a, st.ID, func(s state) bool { return len(s.Moves) == 1 && !s.Thinking })
			return st.ID, a
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, by := tc.setup(t)
			if _, st, _ := by.do("GET", "/api/games/"+id, nil); !st.Abortable || st.Over {
				t.Errorf("before the abort: abortable %v, over %v; want true, false", st.Abortable, st.Over)
			}
			code, st, body := by.do("POST", "/api/games/"+id+"/abort", nil)
			if code != 200 || st.Result != "*" || st.Reason != "aborted" || !st.Over || st.Abortable || len(st.Legal) != 0 {
				t.Fatalf("abort: %d %s", code, body)
			}
			if st.Clock != nil && st.Clock.Running != "" {
				t.Errorf("a clock runs after the abort: %+v", st.Clock)
			}
			ids, err := db.Ongoing(context.Background())
			if err != nil || slices.Contains(ids, id) {
				t.Errorf("the store counts the aborted game as going on: %v %v", ids, err)
			}
		})
	}
}

// A draw offer stands until the opponent has had his turn, as on lichess:
// one made with one's own move is there for the opponent to see, and a
// move of the opponent declines it.
func TestDrawOfferStandsForTheReply(t *testing.T) {
	e := newEnv(t, server.Config{})
	offer := func(c *client, id string) {
		t.Helper()
		if code, _, body := c.do("POST", "/api/games/"+id+"/draw", map[string]any{"action": "offer"}); code != 200 {
			t.Fatalf("offer: %d %s", code, body)
		}
	}
	tests := []struct {
		name  string
		play  func(id string, a, b *client) state
		offer string // who offers, "" for none
	}{
		{"offered on one's own turn, then moved", func(id string, a, b *client) state {
			offer(a, id)
			_, st := a.move(id, "a1", 0)
			return st
		}, "white"},
		{"seen by the opponent after the move", func(id string, a, b *client) state {
			offer(a, id)
			a.move(id, "a1", 0)
			_, st, _ := b.do("GET", "/api/games/"+id, nil)
			return st
		}, "white"},
		{"declined by the opponent's move", func(id string, a, b *client) state {
			offer(a, id)
			a.move(id, "a1", 0)
			_, st := b.move(id, "g7", 1)
			return st
		}, ""},
		{"offered on the opponent's turn, declined by his move", func(id string, a, b *client) state {
			a.move(id, "a1", 0)
			offer(a, id)
			_, st := b.move(id, "g7", 1)
			return st
		}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, a, b := friendGame(t, e, nil)
			st := tc.play(id, a, b)
			got := ""
			if st.DrawOffer != nil {
				got = *st.DrawOffer
			}
			if got != tc.offer {
				t.Fatalf("draw offer by %q, want %q", got, tc.offer)
			}
			if tc.offer == "" {
				return
			}
			code, st, body := b.do("POST", "/api/games/"+id+"/draw", map[string]any{"action": "accept"})
			if code != 200 || st.Result != "1/2-1/2" || st.Reason != "agreement" {
				t.Errorf("accepting the standing offer: %d %s", code, body)
			}
		})
	}
}

// The engine's analysis of a game's position is refused while the game
// is played, to its players and to everyone else, and opens when it ends.
func TestAnalysisClosedDuringPlay(t *testing.T) {
	e := newEnv(t, server.Config{})
	analyse := func(c *client, id string) (int, state) {
		code, st, _ := c.do("POST", "/api/analyze", map[string]any{"game": id, "position": "7x7 w 8/8 -", "depth": 1})
		return code, st
	}
	tests := []struct {
		name  string
		setup func(t *testing.T) (id string, asks *client)
		code  int
	}{
		{"a position alone", func(t *testing.T) (string, *client) { return "", e.client() }, 200},
		{"a player during the game", func(t *testing.T) (string, *client) {
			id, a, _ := friendGame(t, e, nil)
			return id, a
		}, http.StatusForbidden},
		{"a watcher during the game", func(t *testing.T) (string, *client) {
			id, _, _ := friendGame(t, e, nil)
			return id, e.client()
		}, http.StatusForbidden},
		{"against the engine", func(t *testing.T) (string, *client) {
			a := e.client()
			return a.create(t, map[string]any{"mode": "engine", "size": 7, "level": 1, "color": "white"}).ID, a
		}, http.StatusForbidden},
		{"a player after the end", func(t *testing.T) (string, *client) {
			id, a, _ := friendGame(t, e, nil)
			a.do("POST", "/api/games/"+id+"/resign", nil)
			return id, a
		}, 200},
		{"an uploaded record", func(t *testing.T) (string, *client) {
			a := e.client()
			_, st, _ := a.do("POST", "/api/records", "1. d6 c1 *")
			return st.ID, a
		}, 200},
		{"no such game", func(t *testing.T) (string, *client) { return "nosuchgame", e.client() }, http.StatusNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			id, c := tc.setup(t)
			if id != "" {
				_, st, _ := c.do("GET", "/api/games/"+id, nil)
				if open := tc.code == 200; st.Analysis != open && tc.code != http.StatusNotFound {
					t.Errorf("the state says analysis %v, want %v", st.Analysis, open)
				}
			}
			code, st := analyse(c, id)
			if code != tc.code {
				t.Fatalf("analyse: %d %q, want %d", code, st.Error, tc.code)
			}
			if code == http.StatusForbidden && st.Error != "no engine analysis while the game is being played: it opens when the game ends" {
				t.Errorf("the refusal says %q", st.Error)
			}
		})
	}
}

// The open seat of a friend game is kept for the friend with the
// invitation: a stranger with the game's plain link cannot take it, nor
// find the game in the list of recent games; the invitation takes it. A
// game stored before invitations may be joined by anyone with its link.
func TestInvitedSeat(t *testing.T) {
	db, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	// Made within the day that an invitation waits before it is aborted.
	made := time.Now().Add(-time.Hour)
	legacy := &store.Game{
		ID: "legacy", Size: 9, Start: "9x9 w 12/12 -", Mode: "friend", Created: made, Updated: made,
		Seats:  [2]store.Seat{{Name: "old", Token: "t-old"}},
		Result: "*", DrawOffer: -1, TakeBack: -1,
	}
	if err := db.Create(context.Background(), legacy); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, server.Config{Store: db})
	const kept = "this seat is kept for the friend who was invited: only the invitation link takes it; you can watch"
	join := func(c *client, id string, body map[string]any) (int, state) {
		code, st, _ := c.do("POST", "/api/games/"+id+"/join", body)
		return code, st
	}
	open := func(t *testing.T) (id, invite string, creator *client) {
		creator = e.client()
		st := creator.create(t, map[string]any{"mode": "friend", "size": 7, "name": "alice"})
		if st.Invite == nil || *st.Invite == "" || !st.Invited {
			t.Fatalf("a new friend game: invite %v, invited %v; want the creator's invitation", st.Invite, st.Invited)
		}
		return st.ID, *st.Invite, creator
	}
	tests := []struct {
		name string
		try  func(t *testing.T) (int, state)
		code int
		want string // the error, or the seat taken
	}{
		{"a stranger with the plain link", func(t *testing.T) (int, state) {
			id, _, _ := open(t)
			return join(e.client(), id, map[string]any{"name": "eve"})
		}, http.StatusForbidden, kept},
		{"a stranger with a made-up invitation", func(t *testing.T) (int, state) {
			id, _, _ := open(t)
			return join(e.client(), id, map[string]any{"name": "eve", "invite": "AAAAAAAAAAAAAAAAAAAAAA"})
		}, http.StatusForbidden, kept},
		{"the invitation of another game", func(t *testing.T) (int, state) {
			id, _, _ := open(t)
			_, other, _ := open(t)
			return join(e.client(), id, map[string]any{"name": "eve", "invite": other})
		}, http.StatusForbidden, kept},
		{"the invited friend", func(t *testing.T) (int, state) {
			id, invite, _ := open(t)
			return join(e.client(), id, map[string]any{"name": "bob", "invite": invite})
		}, 200, "black"},
		{"the invitation once the friend is seated", func(t *testing.T) (int, state) {
			id, invite, _ := open(t)
			join(e.client(), id, map[string]any{"name": "bob", "invite": invite})
			return join(e.client(), id, map[string]any{"name": "eve", "invite": invite})
		}, http.StatusConflict, "both seats are taken; you can watch"},
		{"anyone, in a game stored before invitations", func(t *testing.T) (int, state) {
			return join(e.client(), legacy.ID, map[string]any{"name": "eve"})
		}, 200, "black"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, st := tc.try(t)
			got := st.Error
			if code == 200 && st.You != nil {
				got = *st.You
			}
			if code != tc.code || got != tc.want {
				t.Errorf("%d %q, want %d %q", code, got, tc.code, tc.want)
			}
		})
	}

	t.Run("who sees the invitation", func(t *testing.T) {
		id, invite, alice := open(t)
		listed := func() bool {
			var list struct {
				Games []struct {
					ID string `json:"id"`
				} `json:"games"`
			}
			alice.getJSON(t, "/api/games", &list)
			return slices.ContainsFunc(list.Games, func(g struct {
				ID string `json:"id"`
			}) bool {
				return g.ID == id
			})
		}
		if listed() {
			t.Error("the game waiting for the invited friend is in the list of recent games")
		}
		if _, st, _ := e.client().do("GET", "/api/games/"+id, nil); st.Invite != nil || !st.Invited {
			t.Errorf("a watcher sees invite %v, invited %v; want no invitation, the seat kept", st.Invite, st.Invited)
		}
		bob := e.client()
		bob.join(t, id, "bob", invite)
		for name, c := range map[string]*client{"alice": alice, "bob": bob} {
			if _, st, _ := c.do("GET", "/api/games/"+id, nil); st.Invite != nil || st.Invited {
				t.Errorf("%s after the join sees invite %v, invited %v; want none", name, st.Invite, st.Invited)
			}
		}
		if !listed() {
			t.Error("the game is not in the list of recent games once both are there")
		}
	})
}

// TestRecentLeavesOutLeftGames: a game going on with no clock and no days
// per move running (an untimed game, or a game whose clock has not
// started) that nobody has played for an hour is not in the recent games:
// its players left it, and it would read "playing" forever. A game whose
// clock runs stays, as its clock will end it, and so does the untimed
// game once it is played again.
func TestRecentLeavesOutLeftGames(t *testing.T) {
	e := newEnv(t, server.Config{})
	untimed, a, b := friendGame(t, e, nil)
	timed, c, d := friendGame(t, e, map[string]any{"clock": map[string]any{"initial": 600, "increment": 5}})
	if code, _ := a.move(untimed, "a1", 0); code != 200 {
		t.Fatalf("a move of the untimed game: %d", code)
	}
	// The clock runs from Black's first move on.
	if code, _ := c.move(timed, "a1", 0); code != 200 {
		t.Fatalf("a move of the timed game: %d", code)
	}
	if code, _ := d.move(timed, "g7", 1); code != 200 {
		t.Fatalf("Black's move of the timed game: %d", code)
	}
	recent := func() map[string]bool {
		var list struct{ Games []struct{ ID string } }
		e.client().getJSON(t, "/api/games", &list)
		in := map[string]bool{}
		for _, g := range list.Games {
			in[g.ID] = true
		}
		return in
	}
	if in := recent(); !in[untimed] || !in[timed] {
		t.Fatalf("the games just made are not both in the recent games: %v", in)
	}
	e.now.Add(int64(61 * time.Minute))
	if in := recent(); in[untimed] || !in[timed] {
		t.Errorf("an hour later: untimed listed %v, timed %v; want only the timed game", in[untimed], in[timed])
	}
	if code, st := b.move(untimed, "g7", 1); code != 200 {
		t.Fatalf("the untimed game's second move: %d %+v", code, st)
	}
	if in := recent(); !in[untimed] {
		t.Errorf("the untimed game played again is not in the recent games")
	}
}
