package server_test

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"emergo/server"
)

// pagePrefs fetches path as the browser c and returns the preferences
// its <html> carries: data-theme, data-board and data-sound, "" for one
// it does not.
func (c *client) pagePrefs(path string) map[string]string {
	c.e.t.Helper()
	resp, err := c.c.Get(c.e.ts.URL + path)
	if err != nil {
		c.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	tag := regexp.MustCompile(`<html [^>]*>`).Find(body)
	if tag == nil {
		c.e.t.Fatalf("%s has no <html>", path)
	}
	got := map[string]string{"theme": "", "board": "", "sound": ""}
	for _, m := range regexp.MustCompile(`data-(\w+)="([^"]*)"`).FindAllSubmatch(tag, -1) {
		got[string(m[1])] = string(m[2])
	}
	return got
}

// setPrefs posts body to /api/prefs and returns the status and the
// preferences answered.
func (c *client) setPrefs(body any) (int, map[string]string) {
	c.e.t.Helper()
	code, _, raw := c.do("POST", "/api/prefs", body)
	var p map[string]string
	if code == 200 {
		if err := json.Unmarshal([]byte(raw), &p); err != nil {
			c.e.t.Fatalf("prefs: %q: %v", raw, err)
		}
	}
	return code, p
}

func prefsOf(theme, board, sound string) map[string]string {
	return map[string]string{"theme": theme, "board": board, "sound": sound}
}

// TestPrefsOfAGuest: a guest's choices of colours, board and sound are
// kept in his browser's cookies, given one at a time, and every page he
// opens carries them in its <html>; values the site has not are refused
// and change nothing.
func TestPrefsOfAGuest(t *testing.T) {
	e := newEnv(t, server.Config{})
	c := e.client()
	none := prefsOf("", "", "")
	if got := c.pagePrefs("/"); !maps.Equal(got, none) {
		t.Fatalf("before any choice: %v, want none", got)
	}
	if code, got := c.setPrefs(map[string]string{"theme": "dark"}); code != 200 || !maps.Equal(got, prefsOf("dark", "", "")) {
		t.Fatalf("choose dark: %d %v", code, got)
	}
	if code, got := c.setPrefs(map[string]string{"board": "wood", "sound": "off"}); code != 200 || !maps.Equal(got, prefsOf("dark", "wood", "off")) {
		t.Fatalf("choose the wood board and no sound: %d %v", code, got)
	}
	want := prefsOf("dark", "wood", "off")
	for _, path := range []string{"/", "/lobby", "/rules", "/analysis", "/g/nosuchgame", "/no/such/page"} {
		if got := c.pagePrefs(path); !maps.Equal(got, want) {
			t.Errorf("%s: %v, want %v", path, got, want)
		}
	}
	for _, bad := range []any{map[string]string{"theme": "blue"}, map[string]string{"board": "DARK"}, map[string]string{"sound": "loud", "theme": "light"}, "{"} {
		if code, _, body := c.do("POST", "/api/prefs", bad); code != 400 {
			t.Errorf("choose %v: %d %s, want 400", bad, code, body)
		}
	}
	if got := c.pagePrefs("/"); !maps.Equal(got, want) {
		t.Errorf("after refused choices: %v, want %v", got, want)
	}
	if got := e.client().pagePrefs("/"); !maps.Equal(got, none) {
		t.Errorf("another browser: %v, want none", got)
	}
	// A cookie of a value the site has not is ignored.
	odd := e.client()
	u, _ := url.Parse(e.ts.URL)
	odd.c.Jar.SetCookies(u, []*http.Cookie{{Name: "emergo_theme", Value: `x" onload="y`, Path: "/"}, {Name: "emergo_board", Value: "slate", Path: "/"}})
	if got := odd.pagePrefs("/"); !maps.Equal(got, prefsOf("", "slate", "")) {
		t.Errorf("with an unknown theme in the cookie: %v, want the slate board only", got)
	}
}

// TestPrefsOfAnAccount: a logged-in player's choices are his account's
// too: /api/account/me shows them, and they follow him to another
// browser over that browser's own; once logged out, a browser has its
// own choices again.
func TestPrefsOfAnAccount(t *testing.T) {
	e := accountEnv(t, server.Config{})
	home := e.client()
	if code, _, _ := home.account("signup", creds("alice", "password1")); code != 201 {
		t.Fatalf("signup: %d", code)
	}
	me := func(c *client) map[string]string {
		t.Helper()
		_, _, raw := c.do("GET", "/api/account/me", nil)
		var u struct{ Prefs map[string]string }
		if err := json.Unmarshal([]byte(raw), &u); err != nil {
			t.Fatalf("me: %q: %v", raw, err)
		}
		return u.Prefs
	}
	if got := me(home); !maps.Equal(got, prefsOf("", "", "")) {
		t.Errorf("a new account's preferences: %v, want none", got)
	}
	if code, _ := home.setPrefs(map[string]string{"board": "slate", "theme": "light"}); code != 200 {
		t.Fatalf("choose: %d", code)
	}
	if code, _ := home.setPrefs(map[string]string{"sound": "on"}); code != 200 {
		t.Fatalf("choose: %d", code)
	}
	want := prefsOf("light", "slate", "on")
	if got := me(home); !maps.Equal(got, want) {
		t.Errorf("the account's preferences: %v, want %v", got, want)
	}

	// Another browser, which chose a dark wood board as a guest, logged
	// in to the same account: the account's choices win.
	other := e.withSession(home.session())
	u, _ := url.Parse(e.ts.URL)
	other.c.Jar.SetCookies(u, []*http.Cookie{{Name: "emergo_theme", Value: "dark", Path: "/"}, {Name: "emergo_board", Value: "wood", Path: "/"}})
	for _, path := range []string{"/", "/g/abc", "/rules", "/puzzles"} {
		if got := other.pagePrefs(path); !maps.Equal(got, want) {
			t.Errorf("%s in another browser of the account: %v, want %v", path, got, want)
		}
	}
	// That browser's session ends: its own choices come back.
	if code, _, _ := other.account("logout", nil); code != 200 {
		t.Fatalf("logout: %d", code)
	}
	if got := other.pagePrefs("/"); !maps.Equal(got, prefsOf("dark", "wood", "")) {
		t.Errorf("a guest again: %v, want his own dark wood board", got)
	}
}
