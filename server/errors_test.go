package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"emergo/server"
	"emergo/view"
)

// apiErr is an error as the API answers it.
type apiErr struct {
	Error  string         `json:"error"`
	Code   string         `json:"code"`
	Params map[string]any `json:"params"`
}

func decodeErr(t *testing.T, body string) apiErr {
	t.Helper()
	var e apiErr
	if err := json.Unmarshal([]byte(body), &e); err != nil {
		t.Fatalf("error body %q: %v", body, err)
	}
	return e
}

// codeRE finds the error codes of errors.go: every code is written there,
// and only there, as a quoted "area.what".
var codeRE = regexp.MustCompile(`"([a-z]+\.[a-z_]+)"`)

// TestErrorCodesTranslated: every error code of the server and of the
// notation's problems (which the browser's rules give too) has its
// message, error.CODE, in every catalogue of the pages, and the
// catalogues have no message of a code neither has; and every code of
// package view's refusals is one of them.
func TestErrorCodesTranslated(t *testing.T) {
	codes := map[string]bool{}
	for _, file := range []string{"errors.go", "../notation/problem.go"} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range codeRE.FindAllStringSubmatch(string(src), -1) {
			codes[m[1]] = true
		}
	}
	if len(codes) < 40 {
		t.Fatalf("errors.go has %d codes: the pattern misses them", len(codes))
	}
	// The rules' refusals (package view) are the server's answers and the
	// browser engine's alike: each of their codes is one of the server's.
	for _, code := range view.Codes {
		if !codes[code] {
			t.Errorf("package view refuses with %s, which errors.go does not list", code)
		}
	}
	for _, lang := range siteLanguages {
		c := catalogue(t, lang)
		for code := range codes {
			if _, ok := c["error."+code]; !ok {
				t.Errorf("%s.json has no message for the error code %s (error.%s)", lang, code, code)
			}
		}
		for key := range c {
			if code, ok := strings.CutPrefix(key, "error."); ok && !codes[code] {
				t.Errorf("%s.json has %s, but the server has no error code %s", lang, key, code)
			}
		}
	}
}

// TestErrorCodes: the API's errors carry a code and its parameters, from
// which a page says them in its language, beside the English message;
// an illegal move's are the rules' reason, rule, square, count and an
// example (a 7x7 game: d4 is the centre).
func TestErrorCodes(t *testing.T) {
	e := accountEnv(t, server.Config{})
	id, a, b := friendGame(t, e, nil)
	capture, ca, cb := friendGame(t, e, nil)
	for i, mv := range []string{"d6", "c7", "f6"} {
		c := []*client{ca, cb}[i%2]
		if code, st := c.move(capture, mv, i); code != 200 {
			t.Fatalf("%s: %d %+v", mv, code, st)
		}
	}
	// After d6 c7 f6 Black must capture c7xe5xg7; after d6 alone, White
	// would capture a man entered on e5 (d6xf4).
	feed, fa, fb := friendGame(t, e, nil)
	if code, st := fa.move(feed, "d6", 0); code != 200 {
		t.Fatalf("d6: %d %+v", code, st)
	}
	move := func(c *client, id, mv string, ply int) func() (int, string) {
		return func() (int, string) {
			code, _, body := c.do("POST", "/api/games/"+id+"/move", map[string]any{"move": mv, "ply": ply})
			return code, body
		}
	}
	post := func(c *client, path string, body any) func() (int, string) {
		return func() (int, string) {
			code, _, raw := c.do("POST", path, body)
			return code, raw
		}
	}
	for _, tc := range []struct {
		name   string
		do     func() (int, string)
		status int
		code   string
		params map[string]any
	}{
		{"the centre first", move(a, id, "d4", 0), 400, "move.centre_first",
			map[string]any{"move": "d4", "side": "white", "rule": "4.3", "square": "d4"}},
		{"must capture", move(cb, capture, "a1", 3), 400, "move.must_capture",
			map[string]any{"move": "a1", "side": "black", "rule": "3.5", "example": "c7xe5xg7"}},
		{"the majority", move(cb, capture, "c7xe5", 3), 400, "move.majority",
			map[string]any{"move": "c7xe5", "side": "black", "rule": "3.6", "n": 2.0}},
		{"feeding", move(fb, feed, "e5", 1), 400, "move.feeding",
			map[string]any{"move": "e5", "side": "black", "rule": "4.4", "square": "e5"}},
		{"occupied", move(fb, feed, "d6", 1), 400, "move.occupied",
			map[string]any{"move": "d6", "side": "black", "rule": "4.1", "square": "d6"}},
		{"not a square", move(a, id, "e55", 0), 400, "move.not_a_square", map[string]any{"move": "e55", "square": "e55", "n": 7.0}},
		{"off the board", move(a, id, "h8", 0), 400, "move.off_board", map[string]any{"move": "h8", "square": "h8", "n": 7.0}},
		{"a light square", move(a, id, "d5", 0), 400, "move.light_square", map[string]any{"move": "d5", "square": "d5", "n": 7.0}},
		{"a step's form", move(a, id, "c3-d4-e5", 0), 400, "move.step_form", map[string]any{"move": "c3-d4-e5"}},
		{"not your turn", move(b, id, "a1", 0), 409, "game.not_your_turn", nil},
		{"stale", move(a, id, "a1", 5), 409, "game.stale", nil},
		{"not playing", move(e.client(), id, "a1", 0), 403, "game.not_playing", nil},
		{"no such game", move(a, "nosuchgame", "a1", 0), 404, "game.not_found", nil},
		{"no draw offer", post(a, "/api/games/"+id+"/draw", map[string]string{"action": "accept"}), 409, "offer.no_draw", nil},
		{"nothing to take back", post(a, "/api/games/"+id+"/takeback", map[string]string{"action": "request"}), 409, "offer.nothing_to_take_back", nil},
		{"seats taken", post(e.client(), "/api/games/"+id+"/join", map[string]string{"name": "eve"}), 409, "game.seats_taken", nil},
		{"an invalid value", post(a, "/api/games", map[string]any{"mode": "friend", "size": 8}), 400, "request.invalid", nil},
		{"malformed", post(a, "/api/games", "{"), 400, "request.malformed", nil},
		{"a guest's name too long", post(a, "/api/games", map[string]any{"mode": "friend", "size": 7, "name": strings.Repeat("n", 41)}),
			400, "name.too_long", map[string]any{"n": 40.0}},
		{"a reserved username", post(e.client(), "/api/account/signup", creds("admin", "password1")), 400, "account.username_reserved",
			map[string]any{"name": "admin"}},
		{"a short password", post(e.client(), "/api/account/signup", creds("carol", "short")), 400, "account.password_short",
			map[string]any{"n": 8.0}},
		{"a wrong password", post(e.client(), "/api/account/login", creds("nobody", "password1")), 401, "account.wrong_password", nil},
		{"an unknown language", post(a, "/api/lang", map[string]string{"lang": "de"}), 400, "request.invalid", nil},
		{"no such endpoint", func() (int, string) {
			code, _, body := a.do("GET", "/api/nothing", nil)
			return code, body
		}, 404, "request.not_found", nil},
		{"a method the endpoint does not take", func() (int, string) {
			code, _, body := a.do("GET", "/api/position", nil)
			return code, body
		}, 405, "request.method_not_allowed", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := tc.do()
			got := decodeErr(t, body)
			if status != tc.status || got.Code != tc.code || got.Error == "" {
				t.Fatalf("%d %s, want %d with the code %s and a message", status, body, tc.status, tc.code)
			}
			if diff := cmp.Diff(tc.params, got.Params); diff != "" {
				t.Errorf("params (-want +got):\n%s", diff)
			}
		})
	}
}

// A request whose JSON the API cannot read is told what is wrong in the
// API's terms, never in the server's own types.
func TestMalformedRequestSaysWhat(t *testing.T) {
	e := newEnv(t, server.Config{})
	c := e.client()
	for _, tc := range []struct{ name, body, want string }{
		{"an array for the request", `[]`, "malformed request: the request takes an object, not array"},
		{"a string for a number", `{"mode": "friend", "size": "7"}`, `malformed request: field "size" takes a whole number, not string`},
		{"a number for a string", `{"mode": 7}`, `malformed request: field "mode" takes a string, not number`},
		{"a stray comma", `{"mode": "friend",}`, "malformed request: not JSON at byte 19"},
		{"an unknown field", `{"colour": "white"}`, `malformed request: unknown field "colour"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, raw := c.do("POST", "/api/games", tc.body)
			got := decodeErr(t, raw)
			if code != 400 || got.Code != "request.malformed" || got.Error != tc.want {
				t.Errorf("%d %s %q, want 400 request.malformed %q", code, got.Code, got.Error, tc.want)
			}
		})
	}
}

// A path of the API asked with a method it does not take says which it
// takes, in the Allow header and the message; a path that is none is not
// found.
func TestMethodNotAllowed(t *testing.T) {
	e := newEnv(t, server.Config{})
	for _, tc := range []struct {
		name, method, path string
		status             int
		allow, msg         string
	}{
		{"a POST endpoint asked with GET", "GET", "/api/position", 405, "POST", "GET /api/position is not an endpoint: use POST"},
		{"a GET endpoint asked with PUT", "PUT", "/api/explorer", 405, "GET", "PUT /api/explorer is not an endpoint: use GET"},
		{"a game asked with DELETE", "DELETE", "/api/games/abc", 405, "GET", "DELETE /api/games/abc is not an endpoint: use GET"},
		{"both methods", "PUT", "/api/games", 405, "GET, POST", "PUT /api/games is not an endpoint: use GET or POST"},
		{"no endpoint", "GET", "/api/nothing", 404, "", "no such API endpoint"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, e.ts.URL+tc.path, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			data, _ := io.ReadAll(resp.Body)
			got := decodeErr(t, string(data))
			if resp.StatusCode != tc.status || resp.Header.Get("Allow") != tc.allow || got.Error != tc.msg {
				t.Errorf("%d Allow %q %q, want %d Allow %q %q", resp.StatusCode, resp.Header.Get("Allow"), got.Error, tc.status, tc.allow, tc.msg)
			}
		})
	}
}
