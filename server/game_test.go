package server_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"emergo/server"
	"emergo/store"
	"emergo/store/sqlstore"
)

// Every refusal of an action on a game comes with its status and its
// message (here, its start), whether the site or the game decides it.
func TestGameErrors(t *testing.T) {
	e := newEnv(t, server.Config{})
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
	b.do("POST", "/api/games/"+id+"/draw", map[string]any{"action": "offer"})
	_, before, _ := a.do("GET", "/api/games/"+id, nil)
	first.ts.Close()
	first.srv.Close()

	second := newEnv(t, server.Config{Store: st})
	a.e, b.e = second, second
	code, after, body := a.do("GET", "/api/games/"+id, nil)
	if code != 200 || after.Result != "*" || len(after.Moves) != 1 || after.DrawOffer == nil || *after.DrawOffer != "black" {
		t.Fatalf("after the restart: %d %s", code, body)
	}
	if c := after.Clock; c == nil || c.Running != "black" || c.WhiteMS != before.Clock.WhiteMS || c.BlackMS <= 0 || c.BlackMS > 60000 {
		t.Errorf("clocks before %+v, after %+v: the hour the server was down was charged", before.Clock, after.Clock)
	}
	if code, st := b.move(id, "g7", 1); code != 200 || len(st.Moves) != 2 || st.DrawOffer != nil {
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
