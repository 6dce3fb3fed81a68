package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"emergo/account"
	"emergo/server"
)

// Names are cleaned and limited wherever they enter: a guest's name when
// he creates or joins a game (too long is refused, nothing left is
// "Anonymous"), and the players of an uploaded record, whose tags may
// hold anything (cut to account.MaxName characters).
func TestNamesCleanedWhereTheyEnter(t *testing.T) {
	e := newEnv(t, server.Config{})
	long := strings.Repeat("W", account.MaxName)
	post := func(c *client, path string, body any) (int, state) {
		code, st, _ := c.do("POST", path, body)
		return code, st
	}
	tests := []struct {
		name  string
		do    func(t *testing.T) (int, state)
		code  int
		white string // the name White plays under, or the error
		black string
	}{
		{"a name kept as it is", func(t *testing.T) (int, state) {
			return post(e.client(), "/api/games", map[string]any{"mode": "friend", "name": "Ada Lovelace"})
		}, http.StatusCreated, "Ada Lovelace", ""},
		{"spaces folded, controls and bidirectional characters dropped", func(t *testing.T) (int, state) {
			return post(e.client(), "/api/games", map[string]any{"mode": "friend", "name": "  Ada\t\t\u202eLove\u0007lace\u200f "})
		}, http.StatusCreated, "Ada Lovelace", ""},
		{"the longest name", func(t *testing.T) (int, state) {
			return post(e.client(), "/api/games", map[string]any{"mode": "friend", "name": long})
		}, http.StatusCreated, long, ""},
		{"a name too long", func(t *testing.T) (int, state) {
			return post(e.client(), "/api/games", map[string]any{"mode": "friend", "name": long + "W"})
		}, http.StatusBadRequest, "a name has at most 40 characters, this one 41", ""},
		{"nothing left", func(t *testing.T) (int, state) {
			return post(e.client(), "/api/games", map[string]any{"mode": "friend", "name": "\u202e\u0000 "})
		}, http.StatusCreated, "Anonymous", ""},
		{"joining", func(t *testing.T) (int, state) {
			a := e.client()
			st := a.create(t, map[string]any{"mode": "friend", "color": "white", "name": "alice"})
			return post(e.client(), "/api/games/"+st.ID+"/join", map[string]any{"name": "\u202ebob\u202c", "invite": *st.Invite})
		}, http.StatusOK, "alice", "bob"},
		{"joining under a name too long", func(t *testing.T) (int, state) {
			a := e.client()
			st := a.create(t, map[string]any{"mode": "friend", "color": "white", "name": "alice"})
			return post(e.client(), "/api/games/"+st.ID+"/join", map[string]any{"name": long + "W", "invite": *st.Invite})
		}, http.StatusBadRequest, "a name has at most 40 characters, this one 41", ""},
		{"a record's huge tag and bidirectional characters", func(t *testing.T) (int, state) {
			pgn := "[White \"" + strings.Repeat("Ada ", 900<<10/4) + "\"]\n[Black \"Bob\u202e \u2066Evil\u2069\"]\n\n1. d6 c1 *"
			return post(e.client(), "/api/records", pgn)
		}, http.StatusCreated, strings.Repeat("Ada ", 10)[:account.MaxName-1] + "…", "Bob Evil"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, st := tc.do(t)
			if code != tc.code {
				t.Fatalf("%d %q, want %d", code, st.Error, tc.code)
			}
			if code >= 300 {
				if st.Error != tc.white {
					t.Errorf("refused with %q, want %q", st.Error, tc.white)
				}
				return
			}
			white, black := st.Players["white"].Name, st.Players["black"].Name
			if white != tc.white || black != tc.black {
				t.Errorf("White %q, Black %q; want %q, %q", white, black, tc.white, tc.black)
			}
			for _, n := range []string{white, black} {
				if utf8.RuneCountInString(n) > account.MaxName || strings.ContainsAny(n, "\u202e\u2066\u200f") {
					t.Errorf("the name %q is longer than %d characters or holds a bidirectional control", n, account.MaxName)
				}
			}
		})
	}
}

// A guest cannot play under the engine's names, a name that passes for
// someone in charge, or an account's username (whatever its case): he is
// refused with name.reserved, and asked to choose another or log in. A
// guest's seat is marked in the state and in the list of games, so that
// a name without the mark is always an account's or the engine's.
func TestGuestNames(t *testing.T) {
	e := accountEnv(t, server.Config{})
	if code, _, _ := e.client().account("signup", creds("Alice", "password1")); code != http.StatusCreated {
		t.Fatalf("signup: %d", code)
	}
	for _, name := range []string{"Emergo", "Emergo level 3", "emergo LEVEL 9", "Emergo-bot", "Admin", "alice", " ALICE "} {
		t.Run("refused "+name, func(t *testing.T) {
			code, e1, _, _ := e.client().post("/api/games", map[string]any{"mode": "friend", "name": name})
			if code != http.StatusBadRequest || e1.Code != "name.reserved" || e1.Params["name"] != strings.TrimSpace(name) {
				t.Errorf("a game created by a guest %q: %d %+v, want 400 name.reserved", name, code, e1)
			}
		})
	}
	a := e.client()
	st := a.create(t, map[string]any{"mode": "friend", "color": "white", "name": "Alice Smith"})
	code, e1, _, _ := e.client().post("/api/games/"+st.ID+"/join", map[string]any{"name": "Emergo level 5", "invite": *st.Invite})
	if code != http.StatusBadRequest || e1.Code != "name.reserved" {
		t.Errorf("joining as the engine: %d %+v, want 400 name.reserved", code, e1)
	}
	alice := e.client()
	alice.account("login", creds("alice", "password1"))
	alice.join(t, st.ID, "Emergo", *st.Invite) // an account plays under its username
	type player struct {
		Name                   string
		Guest, Account, Engine bool
	}
	var got struct{ Players map[string]player }
	_, _, body := e.client().do("GET", "/api/games/"+st.ID, nil)
	json.Unmarshal([]byte(body), &got)
	want := map[string]player{"white": {Name: "Alice Smith", Guest: true}, "black": {Name: "Alice", Account: true}}
	if got.Players["white"] != want["white"] || got.Players["black"] != want["black"] {
		t.Errorf("players %+v, want %+v", got.Players, want)
	}
	engine := a.create(t, map[string]any{"mode": "engine", "color": "white", "level": 2})
	_, _, body = e.client().do("GET", "/api/games/"+engine.ID, nil)
	json.Unmarshal([]byte(body), &got)
	if w, b := got.Players["white"], got.Players["black"]; w != (player{Name: "Anonymous", Guest: true}) || b != (player{Name: "Emergo level 2", Engine: true}) {
		t.Errorf("a guest against the engine: %+v, %+v", w, b)
	}
	var list struct {
		Games []struct {
			ID                     string
			WhiteGuest, BlackGuest bool
		}
	}
	_, _, body = e.client().do("GET", "/api/games", nil)
	json.Unmarshal([]byte(body), &list)
	seen := 0
	for _, g := range list.Games {
		if g.ID == st.ID || g.ID == engine.ID {
			seen++
			if !g.WhiteGuest || g.BlackGuest {
				t.Errorf("the list's game %s: whiteGuest %v, blackGuest %v; want true, false", g.ID, g.WhiteGuest, g.BlackGuest)
			}
		}
	}
	if seen != 2 {
		t.Errorf("%d of the two games in the list: %s", seen, body)
	}
}
