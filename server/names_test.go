package server_test

import (
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
