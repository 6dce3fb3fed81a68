package server_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"emergo/account"
	"emergo/server"
	"emergo/store"
	"emergo/store/sqlstore"
	"emergo/throttle"
)

// cheapHashing makes the tests' password hashes fast; the code is that of
// the real parameters.
var cheapHashing = account.Config{Params: account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}}

func accountEnv(t *testing.T, cfg server.Config) *env {
	t.Helper()
	if cfg.Account.Params == (account.Params{}) {
		cfg.Account.Params = cheapHashing.Params
	}
	return newEnv(t, cfg)
}

// account posts to /api/account/{what} and returns the status, the
// error message and the user answered (nil for null).
func (c *client) account(what string, body any, hdr ...string) (int, string, *struct{ Name string }) {
	c.e.t.Helper()
	method := "POST"
	if what == "me" {
		method = "GET"
	}
	code, st, raw := c.do(method, "/api/account/"+what, body, hdr...)
	var u *struct{ Name string }
	if code < 300 {
		if err := json.Unmarshal([]byte(raw), &u); err != nil {
			c.e.t.Fatalf("%s: %d %q: %v", what, code, raw, err)
		}
	}
	return code, st.Error, u
}

func creds(name, password string) map[string]string {
	return map[string]string{"username": name, "password": password}
}

// session is the browser's session token, "" if none.
func (c *client) session() string {
	u, _ := url.Parse(c.e.ts.URL)
	for _, k := range c.c.Jar.Cookies(u) {
		if k.Name == "emergo_session" {
			return k.Value
		}
	}
	return ""
}

// withSession is a new browser holding the session token.
func (e *env) withSession(token string) *client {
	c := e.client()
	u, _ := url.Parse(e.ts.URL)
	c.c.Jar.SetCookies(u, []*http.Cookie{{Name: "emergo_session", Value: token, Path: "/"}})
	return c
}

func TestAccounts(t *testing.T) { accountsTest(t, accountEnv(t, server.Config{})) }

func accountsTest(t *testing.T, e *env) {
	a := e.client()
	if code, _, u := a.account("me", nil); code != 200 || u != nil {
		t.Fatalf("me as a guest: %d %+v, want 200 null", code, u)
	}
	t.Run("SignupRefuses", func(t *testing.T) {
		for _, tt := range []struct {
			name string
			body any
			code int
			want string
		}{
			{"short name", creds("al", "password1"), 400, "3 to 20 characters"},
			{"long name", creds(strings.Repeat("a", 21), "password1"), 400, "3 to 20 characters"},
			{"digit first", creds("9lives", "password1"), 400, "starts with a letter"},
			{"space", creds("al ice", "password1"), 400, "only letters"},
			{"bidi control", creds("bob\u202e", "password1"), 400, "only letters"},
			{"reserved", creds("Emergo", "password1"), 400, "reserved"},
			{"short password", creds("carol", "1234567"), 400, "at least 8 characters"},
			{"long password", creds("carol", strings.Repeat("p", 257)), 400, "at most 256 characters"},
			{"unknown field", `{"username": "carol", "password": "password1", "admin": true}`, 400, "unknown field"},
			{"no body", nil, 400, "no body"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				code, msg, _ := e.client().account("signup", tt.body)
				if code != tt.code || !strings.Contains(msg, tt.want) {
					t.Errorf("signup: %d %q, want %d with %q", code, msg, tt.code, tt.want)
				}
			})
		}
	})

	code, _, u := a.account("signup", creds("Alice", "password1"))
	if code != http.StatusCreated || u == nil || u.Name != "Alice" {
		t.Fatalf("signup: %d %+v", code, u)
	}
	first := a.session()
	if len(first) != 43 {
		t.Fatalf("session token %q after signup: want 43 characters", first)
	}
	if _, _, u := a.account("me", nil); u == nil || u.Name != "Alice" {
		t.Errorf("me after signup: %+v", u)
	}
	for _, name := range []string{"Alice", "alice", "ALICE"} {
		if code, msg, _ := e.client().account("signup", creds(name, "password2")); code != http.StatusConflict || !strings.Contains(msg, "taken") {
			t.Errorf("signup of %s after Alice: %d %q, want 409 taken", name, code, msg)
		}
	}
	t.Run("LoginRefuses", func(t *testing.T) {
		for _, tt := range []struct{ name, user, password string }{
			{"wrong password", "Alice", "password2"},
			{"unknown user", "Zed", "password1"},
			{"empty", "", ""},
		} {
			t.Run(tt.name, func(t *testing.T) {
				c := e.client()
				code, msg, _ := c.account("login", creds(tt.user, tt.password))
				if code != http.StatusUnauthorized || msg != "wrong username or password" {
					t.Errorf("login: %d %q, want 401", code, msg)
				}
				if c.session() != "" {
					t.Errorf("a refused login left a session cookie")
				}
			})
		}
	})

	// Logging in again rotates the session: a new token, the old one ended.
	if code, _, u := a.account("login", creds("aLiCe", "password1")); code != 200 || u.Name != "Alice" {
		t.Fatalf("login: %d %+v", code, u)
	}
	second := a.session()
	if second == "" || second == first {
		t.Fatalf("the session token after login is %q, before %q: want a new one", second, first)
	}
	old := e.withSession(first)
	if _, _, u := old.account("me", nil); u != nil {
		t.Errorf("the session before the login still works: %+v", u)
	}
	if old.session() != "" {
		t.Errorf("the ended session's cookie was not cleared")
	}

	// Another browser's session is its own.
	b := e.client()
	if code, _, _ := b.account("login", creds("alice", "password1")); code != 200 {
		t.Fatalf("login in a second browser: %d", code)
	}
	if code, _, u := a.account("logout", nil); code != 200 || u != nil {
		t.Errorf("logout: %d %+v", code, u)
	}
	if a.session() != "" {
		t.Errorf("logout left the cookie")
	}
	if _, _, u := a.account("me", nil); u != nil {
		t.Errorf("me after logout: %+v", u)
	}
	if _, _, u := e.withSession(second).account("me", nil); u != nil {
		t.Errorf("the logged-out token still works: %+v", u)
	}
	if _, _, u := b.account("me", nil); u == nil || u.Name != "Alice" {
		t.Errorf("the other browser was logged out too: %+v", u)
	}
	if code, _, _ := a.account("logout", nil); code != 200 {
		t.Errorf("logging out when logged out: %d", code)
	}
}

func TestLoginThrottled(t *testing.T) {
	// The accounts' clock stands still but when the test moves it, so
	// that the waits it names are exact however long the requests take.
	var ahead atomic.Int64
	start := time.Now()
	e := accountEnv(t, server.Config{Account: account.Config{
		Now: func() time.Time { return start.Add(time.Duration(ahead.Load())) },
		Limits: account.Limits{
			LoginAddress:  throttle.Limit{Burst: 8, Every: 15 * time.Second},
			SignupAddress: throttle.Limit{Burst: 3, Every: 6 * time.Minute},
		}}})
	c := e.client()
	if code, _, _ := c.account("signup", creds("alice", "password1")); code != 201 {
		t.Fatalf("signup: %d", code)
	}
	throttled := func(what string, body any, retry, msg string) {
		t.Helper()
		data, _ := json.Marshal(body)
		resp, err := c.c.Post(e.ts.URL+"/api/account/"+what, "application/json", bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var got struct{ Error string }
		json.NewDecoder(resp.Body).Decode(&got)
		if resp.StatusCode != http.StatusTooManyRequests || got.Error != msg || resp.Header.Get("Retry-After") != retry {
			t.Errorf("%s: %d %q, Retry-After %q; want 429 %q, %s", what, resp.StatusCode, got.Error, resp.Header.Get("Retry-After"), msg, retry)
		}
	}
	// A client on an account: five failures, then one attempt a minute.
	for i := range 5 {
		if code, _, _ := c.account("login", creds("alice", "wrong-pass")); code != 401 {
			t.Fatalf("failure %d: %d, want 401", i+1, code)
		}
	}
	throttled("login", creds("alice", "password1"), "60", "too many login attempts: wait a minute and try again")
	ahead.Add(int64(30 * time.Second))
	throttled("login", creds("alice", "password1"), "30", "too many login attempts: wait 30 seconds and try again")
	ahead.Add(int64(30 * time.Second))
	if code, _, _ := c.account("login", creds("alice", "password1")); code != 200 {
		t.Fatalf("a minute later: %d, want 200", code)
	}
	// An address: eight failures, whatever the accounts. It has one left
	// of the five above (four drained in the minute; a success is given
	// back), and fails seven more.
	for i := range 7 {
		if code, _, _ := c.account("login", creds("nobody"+string(rune('a'+i)), "wrong-pass")); code != 401 {
			t.Fatalf("failure %d of the address: %d, want 401", i+2, code)
		}
	}
	throttled("login", creds("alice", "password1"), "15", "too many login attempts: wait 15 seconds and try again")
	// Signups: three an address, then one each six minutes.
	for _, name := range []string{"bob", "carol"} {
		if code, _, _ := c.account("signup", creds(name, "password1")); code != 201 {
			t.Fatalf("signup %s: %d", name, code)
		}
	}
	throttled("signup", creds("dave", "password1"), "300", "too many signup attempts: wait 5 minutes and try again") // a sixth drained since the first
}

// The headers of every answer: pages, modules, the API, errors and
// refusals.
func TestSecurityHeaders(t *testing.T) {
	e := accountEnv(t, server.Config{})
	want := map[string]string{
		"Content-Security-Policy": "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self'; " +
			"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
		"X-Content-Type-Options": "nosniff",
		"X-Frame-Options":        "DENY",
		"Referrer-Policy":        "same-origin",
	}
	for _, tt := range []struct {
		name, method, path string
		hdr                []string
		code               int
	}{
		{"home", "GET", "/", nil, 200},
		{"no such game page", "GET", "/g/abc", nil, 404},
		{"rules", "GET", "/rules", nil, 200},
		{"module", "GET", "/app.js", nil, 200},
		{"style sheet", "GET", "/style.css", nil, 200},
		{"no such file", "GET", "/nope.html", nil, 404},
		{"API", "GET", "/api/games", nil, 200},
		{"me", "GET", "/api/account/me", nil, 200},
		{"no such game", "GET", "/api/games/nope", nil, 404},
		{"cross-origin refusal", "POST", "/api/account/login", []string{"Sec-Fetch-Site", "cross-site"}, 403},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, e.ts.URL+tt.path, strings.NewReader("{}"))
			for i := 0; i+1 < len(tt.hdr); i += 2 {
				req.Header.Set(tt.hdr[i], tt.hdr[i+1])
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.code {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.code)
			}
			for k, v := range want {
				if got := resp.Header.Get(k); got != v {
					t.Errorf("%s: %q, want %q", k, got, v)
				}
			}
		})
	}
}

// TestPagesHaveNothingInline backs the policy: the pages have no inline
// script, no event handler attribute, no style element and no style
// attribute, which it would block.
func TestPagesHaveNothingInline(t *testing.T) {
	bad := regexp.MustCompile(`(?i)<style|\sstyle\s*=|\son[a-z]+\s*=|javascript:`)
	script := regexp.MustCompile(`(?i)<script[^>]*>([^<]*)</script>`)
	pages, err := filepath.Glob("web/*.html")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages: %v", err)
	}
	for _, p := range pages {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if m := bad.Find(data); m != nil {
			t.Errorf("%s: %q would need 'unsafe-inline'", p, m)
		}
		scripts := script.FindAllSubmatch(data, -1)
		if n := bytes.Count(bytes.ToLower(data), []byte("<script")); n != len(scripts) {
			t.Errorf("%s: %d script elements, %d of them <script ...></script>", p, n, len(scripts))
		}
		for _, m := range scripts {
			if len(bytes.TrimSpace(m[1])) > 0 || !bytes.Contains(m[0], []byte(" src=")) {
				t.Errorf("%s: %q is an inline script", p, m[0])
			}
		}
	}
}

// TestCrossOriginAccountPosts: another site's page cannot sign up, log in
// or log out a visitor of this one (CSRF): the cross-origin protection
// refuses the POST before the handler runs.
func TestCrossOriginAccountPosts(t *testing.T) {
	e := accountEnv(t, server.Config{})
	c := e.client()
	if code, _, _ := c.account("signup", creds("alice", "password1")); code != 201 {
		t.Fatalf("signup: %d", code)
	}
	for _, what := range []string{"signup", "login", "logout"} {
		for _, hdr := range [][]string{
			{"Sec-Fetch-Site", "cross-site"},
			{"Sec-Fetch-Site", "same-site", "Origin", "https://sub.example.com"},
			{"Origin", "https://evil.example"},
		} {
			t.Run(what+" "+strings.Join(hdr, " "), func(t *testing.T) {
				if code, _, _ := c.account(what, creds("mallory", "password1"), hdr...); code != http.StatusForbidden {
					t.Errorf("%s with %v: %d, want 403", what, hdr, code)
				}
			})
		}
	}
	if _, _, u := c.account("me", nil); u == nil || u.Name != "alice" {
		t.Errorf("after the cross-origin logout: %+v, want alice still logged in", u)
	}
	if code, _, _ := e.client().account("login", creds("mallory", "password1")); code != http.StatusUnauthorized {
		t.Errorf("the cross-origin signup made an account: login %d", code)
	}
	if code, _, _ := e.client().account("signup", creds("bob", "password1"), "Sec-Fetch-Site", "same-origin"); code != http.StatusCreated {
		t.Errorf("a same-origin signup: %d", code)
	}
}

// The session cookie: HttpOnly, SameSite=Lax, the whole site, and Secure
// when the request came over TLS, to the server or to a proxy it trusts.
// (httptest's requests come from 192.0.2.1.)
func TestSessionCookie(t *testing.T) {
	for i, tt := range []struct {
		name    string
		proxies []netip.Prefix
		tls     bool
		hdr     string // X-Forwarded-Proto
		secure  bool
	}{
		{"plain", nil, false, "", false},
		{"TLS", nil, true, "", true},
		{"trusted proxy over https", proxyNet, false, "https", true},
		{"trusted proxy over http", proxyNet, false, "http", false},
		{"proxies, the last over https", proxyNet, false, "http, https", true},
		{"untrusted header", nil, false, "https", false},
		{"header from another peer", otherNet, false, "https", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := accountEnv(t, server.Config{TrustedProxies: tt.proxies})
			req := httptest.NewRequest("POST", "http://emergo.example/api/account/signup", strings.NewReader(`{"username": "user`+string(rune('a'+i))+`", "password": "password1"}`))
			if tt.tls {
				req.TLS = &tls.ConnectionState{}
			}
			if tt.hdr != "" {
				req.Header.Set("X-Forwarded-Proto", tt.hdr)
			}
			w := httptest.NewRecorder()
			e.srv.Handler().ServeHTTP(w, req)
			if w.Code != http.StatusCreated {
				t.Fatalf("signup: %d %s", w.Code, w.Body)
			}
			var c *http.Cookie
			for _, k := range w.Result().Cookies() {
				if k.Name == "emergo_session" {
					c = k
				}
			}
			if c == nil {
				t.Fatal("no session cookie")
			}
			if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Secure != tt.secure || c.MaxAge != 30*24*3600 {
				t.Errorf("cookie %s: want HttpOnly, SameSite=Lax, Path=/, Max-Age 30 days, Secure %v", c, tt.secure)
			}
		})
	}
}

var (
	proxyNet = []netip.Prefix{netip.MustParsePrefix("192.0.2.0/24")}
	otherNet = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
)

// Behind a trusted proxy the throttles count the client's address, the
// last of X-Forwarded-For; otherwise the header is ignored. (The test's
// client connects from 127.0.0.1.)
func TestProxyAddress(t *testing.T) {
	limits := account.Config{Params: cheapHashing.Params, Limits: account.Limits{LoginAddress: throttle.Limit{Burst: 2, Every: time.Hour}}}
	for _, tt := range []struct {
		name string
		cfg  server.Config
		// whether a third client's login is throttled after two others
		// failed twice each
		throttled bool
	}{
		{"behind a proxy on this machine", server.Config{BehindProxy: true}, false},
		{"trusted", server.Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}, false},
		{"other proxies trusted", server.Config{TrustedProxies: otherNet}, true},
		{"not trusted", server.Config{}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.Account = limits
			e := accountEnv(t, tt.cfg)
			c := e.client()
			fail := func(xff string) int {
				code, _, _ := c.account("login", creds("nobody", "wrong-pass"), "X-Forwarded-For", xff)
				return code
			}
			fail("203.0.113.1")
			fail("203.0.113.1")
			// The client cannot choose its address by writing an earlier
			// entry.
			if code := fail("198.51.100.7, 203.0.113.1"); code != http.StatusTooManyRequests {
				t.Errorf("a third failure of 203.0.113.1: %d, want 429", code)
			}
			if code := fail("203.0.113.2"); (code == http.StatusTooManyRequests) != tt.throttled {
				t.Errorf("another client's login: %d, throttled want %v", code, tt.throttled)
			}
		})
	}
}

// TestPasswordsNeverLogged logs everything, at the debug level, and finds
// no password in it.
func TestPasswordsNeverLogged(t *testing.T) {
	var buf bytes.Buffer
	st, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(context.Background(), server.Config{
		Store: st, Account: cheapHashing, RateLimit: -1,
		Logger: slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer func() {
		ts.Close()
		srv.Close()
		st.Close()
	}()
	e := &env{t: t, srv: srv, ts: ts}
	c := e.client()
	c.account("signup", creds("alice", "Secret-Pass-1"))
	c.account("signup", creds("9bad", "Secret-Pass-2"))
	c.account("signup", creds("bob", "Secret"))
	c.account("login", creds("alice", "Secret-Pass-3"))
	c.account("login", creds("alice", "Secret-Pass-1"))
	c.account("login", `{"username": "alice", "password": "Secret-Pass-4`)
	c.account("login", `{"username": "alice", "password": "Secret-Pass-5", "x": 1}`)
	c.account("logout", nil)
	if !strings.Contains(buf.String(), "/api/account/login") {
		t.Fatalf("the requests were not logged:\n%s", buf.String())
	}
	if strings.Contains(buf.String(), "Secret") {
		t.Errorf("a password is in the log:\n%s", buf.String())
	}
}

func TestSeatsOfAccounts(t *testing.T) { seatsOfAccountsTest(t, accountEnv(t, server.Config{})) }

// seatsOfAccountsTest: a seat taken by an account is that account's in
// any browser where it logs in, and nobody else's, even in the browser
// that took it once the account has logged out; a guest's seat stays its
// browser's.
func seatsOfAccountsTest(t *testing.T, e *env) {
	alice, alice2, bob, eve := e.client(), e.client(), e.client(), e.client()
	alice.account("signup", creds("Alice", "password1"))
	alice2.account("login", creds("alice", "password1"))
	eve.account("signup", creds("Eve", "password1"))
	st := alice.create(t, map[string]any{"mode": "friend", "size": 7, "color": "white", "name": "not me"})
	id := st.ID
	bob.join(t, id, "bob", *st.Invite)
	var players struct {
		Players map[string]struct{ Name string }
	}
	_, _, body := eve.do("GET", "/api/games/"+id, nil)
	json.Unmarshal([]byte(body), &players)
	if players.Players["white"].Name != "Alice" || players.Players["black"].Name != "bob" {
		t.Errorf("players %+v: want the account's name, and the guest's", players.Players)
	}
	for _, tt := range []struct {
		name string
		c    *client
		you  string
	}{
		{"the browser that took it", alice, "white"},
		{"another browser of the account", alice2, "white"},
		{"another account", eve, ""},
		{"the guest", bob, "black"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, st, _ := tt.c.do("GET", "/api/games/"+id, nil)
			if got := deref(st.You); got != tt.you {
				t.Errorf("you = %q, want %q", got, tt.you)
			}
		})
	}
	if code, st := alice2.move(id, "a1", 0); code != 200 || len(st.Moves) != 1 {
		t.Fatalf("the account's move from its other browser: %d %+v", code, st)
	}
	code, st := bob.move(id, "g7", 1)
	if code != 200 {
		t.Fatalf("the guest's move: %d", code)
	}
	next := st.Legal[0]
	if code, _ := eve.move(id, next, 2); code != http.StatusForbidden {
		t.Errorf("another account moving: %d, want 403", code)
	}
	alice.account("logout", nil)
	if code, _ := alice.move(id, next, 2); code != http.StatusForbidden {
		t.Errorf("the browser that took the seat, logged out: %d, want 403", code)
	}
	// Logged in as someone else, the browser is still not Alice.
	alice.account("login", creds("eve", "password1"))
	if code, _, _ := alice.do("POST", "/api/games/"+id+"/resign", nil); code != http.StatusForbidden {
		t.Errorf("another account in the browser that took the seat resigning: %d, want 403", code)
	}
	if code, _ := alice2.move(id, next, 2); code != 200 {
		t.Errorf("the account moving after its other browser logged out: %d", code)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func TestThrottlesAcrossServers(t *testing.T) {
	file := filepath.Join(t.TempDir(), "games.db")
	open := func() store.Store {
		st, err := sqlstore.OpenSQLite(context.Background(), file)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	throttlesAcrossServersTest(t, open(), open())
}

// Two servers on one database throttle logins together: an account's
// failures on one count on the other.
func throttlesAcrossServersTest(t *testing.T, a, b store.Store) {
	limits := account.Config{Limits: account.Limits{LoginAccount: throttle.Limit{Burst: 2, Every: time.Hour}}}
	ea, eb := accountEnv(t, server.Config{Store: a, Account: limits}), accountEnv(t, server.Config{Store: b, Account: limits})
	for i, e := range []*env{ea, eb, ea, eb} {
		want := http.StatusUnauthorized
		if i >= 2 {
			want = http.StatusTooManyRequests
		}
		if code, _, _ := e.client().account("login", creds("nobody", "wrong-pass")); code != want {
			t.Errorf("failure %d, on server %d: %d, want %d", i+1, i%2+1, code, want)
		}
	}
}
