package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"emergo/server"
)

// fetchPage fetches path as the browser c, with the Accept-Language
// header al ("" sends none), and returns the answer and its body.
func (c *client) fetchPage(path, al string) (*http.Response, string) {
	c.e.t.Helper()
	req, _ := http.NewRequest("GET", c.e.ts.URL+path, nil)
	if al != "" {
		req.Header.Set("Accept-Language", al)
	}
	resp, err := c.c.Do(req)
	if err != nil {
		c.e.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// pageLang fetches path as fetchPage does and returns the language of its
// <html lang> and its Content-Language. The 404 page (a game or a path
// that does not exist) is a page in the reader's language as well.
func (c *client) pageLang(path, al string) (string, string) {
	c.e.t.Helper()
	resp, body := c.fetchPage(path, al)
	if resp.StatusCode != 200 && resp.StatusCode != 404 {
		c.e.t.Fatalf("%s: %d", path, resp.StatusCode)
	}
	m := regexp.MustCompile(`<html lang="([^"]*)">`).FindStringSubmatch(body)
	if m == nil {
		c.e.t.Fatalf("%s has no <html lang>", path)
	}
	return m[1], resp.Header.Get("Content-Language")
}

// langCookie is the browser's emergo_lang cookie, "" if none.
func (c *client) langCookie() string {
	u, _ := url.Parse(c.e.ts.URL)
	for _, k := range c.c.Jar.Cookies(u) {
		if k.Name == "emergo_lang" {
			return k.Value
		}
	}
	return ""
}

// TestLanguageFromAcceptLanguage: without a choice of its own, a browser
// gets the site's language that best suits its Accept-Language, by
// golang.org/x/text's matcher, and English when none does; every page
// says it in <html lang> and Content-Language.
func TestLanguageFromAcceptLanguage(t *testing.T) {
	e := newEnv(t, server.Config{})
	for _, tc := range []struct{ name, header, want string }{
		{"no header", "", "en"},
		{"English", "en-US,en;q=0.9", "en"},
		{"Brazilian Portuguese", "pt-BR,pt;q=0.9,en;q=0.8", "pt"},
		{"European Portuguese", "pt-PT", "pt"},
		{"Russian", "ru-RU,ru;q=0.9", "ru"},
		{"Elefen", "lfn", "lfn"},
		{"Elefen by weight", "fr, lfn;q=0.5, en;q=0.1", "lfn"},
		{"weights decide", "ru;q=0.1, pt;q=0.9", "pt"},
		{"first unknown then known", "de-DE, de;q=0.9, ru;q=0.5", "ru"},
		{"Belarusian reads Russian", "be", "ru"},
		{"Ukrainian is not Russian", "uk", "en"},
		{"Spanish is not Portuguese", "es-ES, es", "en"},
		{"unknown language", "de-DE,de;q=0.9", "en"},
		{"any language", "*", "en"},
		{"an unknown tag beside a known one", "zz-ZZ;q=0.8, ru;q=0.5", "ru"},
		{"malformed", "a;;;b,,", "en"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"/", "/g/abc", "/my", "/lobby", "/@/alice", "/rules", "/nope"} {
				lang, content := e.client().pageLang(path, tc.header)
				if lang != tc.want || content != tc.want {
					t.Errorf("%s with Accept-Language %q: <html lang=%q>, Content-Language %q; want %s", path, tc.header, lang, content, tc.want)
				}
			}
		})
	}
}

// TestLanguageSwitch: the switch's choice (POST /api/lang) is this
// browser's from then on, over its Accept-Language, and another
// browser's is its own; an unknown language is refused.
func TestLanguageSwitch(t *testing.T) {
	e := newEnv(t, server.Config{})
	c := e.client()
	if lang, _ := c.pageLang("/", "pt-BR"); lang != "pt" {
		t.Fatalf("before any choice: %s, want pt", lang)
	}
	code, _, body := c.do("POST", "/api/lang", map[string]string{"lang": "ru"})
	if code != 200 || body != "{\"lang\":\"ru\"}\n" {
		t.Fatalf("switch to ru: %d %s", code, body)
	}
	if got := c.langCookie(); got != "ru" {
		t.Errorf("after the switch the cookie is %q, want ru", got)
	}
	for _, al := range []string{"", "pt-BR", "en"} {
		if lang, _ := c.pageLang("/lobby", al); lang != "ru" {
			t.Errorf("after switching to ru, with Accept-Language %q: %s", al, lang)
		}
	}
	if lang, _ := e.client().pageLang("/", "pt"); lang != "pt" {
		t.Errorf("another browser: %s, want pt (its own Accept-Language)", lang)
	}
	for _, bad := range []any{map[string]string{"lang": "de"}, map[string]string{"lang": ""}, map[string]string{"lang": "RU"}, "{"} {
		code, st, _ := c.do("POST", "/api/lang", bad)
		if code != 400 || st.Error == "" {
			t.Errorf("switch to %v: %d %q, want 400 with a message", bad, code, st.Error)
		}
	}
	if lang, _ := c.pageLang("/", ""); lang != "ru" {
		t.Errorf("after refused switches: %s, want ru still", lang)
	}
	// A cookie of no language of the site is ignored.
	odd := e.client()
	u, _ := url.Parse(e.ts.URL)
	odd.c.Jar.SetCookies(u, []*http.Cookie{{Name: "emergo_lang", Value: "xx", Path: "/"}})
	if lang, _ := odd.pageLang("/", "ru"); lang != "ru" {
		t.Errorf("with the cookie xx and Accept-Language ru: %s, want ru", lang)
	}
}

// TestAccountLanguage: a logged-in player's switch is his account's too:
// it follows him to another browser, over that browser's own choice and
// its Accept-Language, and a login there makes it the browser's. It ends
// with the session: a guest gets his own choice again.
func TestAccountLanguage(t *testing.T) {
	e := accountEnv(t, server.Config{})
	home := e.client()
	if code, _, _ := home.account("signup", creds("alice", "password1")); code != 201 {
		t.Fatalf("signup: %d", code)
	}
	me := func(c *client) string {
		t.Helper()
		_, _, raw := c.do("GET", "/api/account/me", nil)
		var u struct{ Lang string }
		if err := json.Unmarshal([]byte(raw), &u); err != nil {
			t.Fatalf("me: %q: %v", raw, err)
		}
		return u.Lang
	}
	if got := me(home); got != "" {
		t.Errorf("a new account's language: %q, want none", got)
	}
	if lang, _ := home.pageLang("/", "pt"); lang != "pt" {
		t.Errorf("a new account, Accept-Language pt: %s", lang)
	}
	if code, _, body := home.do("POST", "/api/lang", map[string]string{"lang": "lfn"}); code != 200 {
		t.Fatalf("switch: %d %s", code, body)
	}
	if got := me(home); got != "lfn" {
		t.Errorf("after the switch the account's language is %q, want lfn", got)
	}

	// Another browser, which chose Russian as a guest, logged in to the
	// same account by its session: the account's choice wins.
	other := e.withSession(home.session())
	u, _ := url.Parse(e.ts.URL)
	other.c.Jar.SetCookies(u, []*http.Cookie{{Name: "emergo_lang", Value: "ru", Path: "/"}})
	for _, path := range []string{"/", "/g/abc", "/rules"} {
		if lang, _ := other.pageLang(path, "pt"); lang != "lfn" {
			t.Errorf("%s in another browser of the account: %s, want lfn", path, lang)
		}
	}

	// A third browser logs in: the account's language becomes its own.
	third := e.client()
	if code, _, _ := third.account("login", creds("alice", "password1")); code != 200 {
		t.Fatalf("login: %d", code)
	}
	if got := third.langCookie(); got != "lfn" {
		t.Errorf("after the login the browser's cookie is %q, want lfn", got)
	}
	if code, _, _ := third.account("logout", nil); code != 200 {
		t.Fatalf("logout: %d", code)
	}
	if lang, _ := third.pageLang("/", "ru"); lang != "lfn" {
		t.Errorf("after the logout the browser keeps the account's language: %s, want lfn", lang)
	}

	// The browser with its own choice, its session ended, is a guest with
	// that choice again.
	if code, _, _ := other.account("logout", nil); code != 200 {
		t.Fatalf("logout: %d", code)
	}
	other.c.Jar.SetCookies(u, []*http.Cookie{{Name: "emergo_lang", Value: "ru", Path: "/"}})
	if lang, _ := other.pageLang("/", "pt"); lang != "ru" {
		t.Errorf("a guest again, with the cookie ru: %s", lang)
	}
}

// TestNoscriptInReadersLanguage: the line a reader without JavaScript
// sees on each page that needs it is written by the server in the
// reader's language, with its link to the rules, which need no script.
func TestNoscriptInReadersLanguage(t *testing.T) {
	e := newEnv(t, server.Config{})
	for _, tc := range []struct{ al, lang, play, rules string }{
		{"", "en", "Playing needs JavaScript.", "The rules can be read without it."},
		{"pt-PT", "pt", "Para jogar é preciso JavaScript.", "As regras podem ser lidas sem ele."},
		{"ru", "ru", "Для игры нужен JavaScript.", "Правила можно прочитать и без него."},
		{"lfn", "lfn", "Per jua, on nesesa JavaScript.", "On pote leje la regulas sin lo."},
	} {
		for _, path := range []string{"/", "/lobby", "/explorer", "/learn", "/puzzles", "/analysis"} {
			_, body := e.client().fetchPage(path, tc.al)
			m := regexp.MustCompile(`<noscript>(.*)</noscript>`).FindStringSubmatch(body)
			if m == nil {
				t.Fatalf("%s has no <noscript> line", path)
			}
			line := m[1]
			if !strings.Contains(line, `<a href="/rules" data-i18n="noscript.rules">`+tc.rules+`</a>`) {
				t.Errorf("%s in %s: %s, want the rules link %q", path, tc.lang, line, tc.rules)
			}
			if (path == "/" || path == "/lobby") && !strings.Contains(line, tc.play) {
				t.Errorf("%s in %s: %s, want %q", path, tc.lang, line, tc.play)
			}
			if tc.lang != "en" && (strings.Contains(line, "needs JavaScript") || strings.Contains(line, "need JavaScript")) {
				t.Errorf("%s in %s: English left: %s", path, tc.lang, line)
			}
		}
	}
}
