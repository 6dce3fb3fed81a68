package server_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"emergo/account"
	"emergo/server"
	"emergo/throttle"
)

// post sends body to path from c, with the header pairs hdr, and returns
// the answer's status, its error, and its cookies by name.
func (c *client) post(path string, body any, hdr ...string) (int, apiErr, http.Header, map[string]*http.Cookie) {
	c.e.t.Helper()
	resp, raw := c.send("POST", path, body, append([]string{"Content-Type", "application/json"}, hdr...)...)
	var e apiErr
	if resp.StatusCode >= 300 {
		e = decodeErr(c.e.t, string(raw))
	}
	cookies := map[string]*http.Cookie{}
	for _, k := range resp.Cookies() {
		cookies[k.Name] = k
	}
	return resp.StatusCode, e, resp.Header, cookies
}

// from is the header of a request that the proxy in front of the server
// (trusted: -behind-proxy) says came from addr.
func from(addr string) []string { return []string{"X-Forwarded-For", addr} }

// Both cookies that hold a browser's secrets, the seats' emergo_id and the
// session's emergo_session, are Secure when the request came over TLS, to
// the server or to a proxy it trusts, and not over plain HTTP.
func TestCookiesSecure(t *testing.T) {
	for i, tt := range []struct {
		name   string
		cfg    server.Config
		tls    bool
		hdr    []string
		secure bool
	}{
		{"plain HTTP", server.Config{}, false, nil, false},
		{"TLS", server.Config{}, true, nil, true},
		{"a trusted proxy over https", server.Config{BehindProxy: true}, false, []string{"X-Forwarded-Proto", "https"}, true},
		{"a trusted proxy over http", server.Config{BehindProxy: true}, false, []string{"X-Forwarded-Proto", "http"}, false},
		{"the header from a client", server.Config{}, false, []string{"X-Forwarded-Proto", "https"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := accountEnv(t, tt.cfg)
			if tt.tls {
				e.ts.Close()
				e.ts = httptest.NewTLSServer(e.srv.Handler())
				e.rt = e.ts.Client().Transport
			}
			c := e.client()
			got := map[string]*http.Cookie{}
			code, _, _, cookies := c.post("/api/games", map[string]any{"mode": "friend"}, tt.hdr...)
			if code != http.StatusCreated {
				t.Fatalf("create a game: %d", code)
			}
			got["emergo_id"] = cookies["emergo_id"]
			code, _, _, cookies = c.post("/api/account/signup", creds(fmt.Sprintf("user%c", 'a'+i), "password1"), tt.hdr...)
			if code != http.StatusCreated {
				t.Fatalf("signup: %d", code)
			}
			got["emergo_session"] = cookies["emergo_session"]
			for name, k := range got {
				if k == nil {
					t.Fatalf("no %s cookie set", name)
				}
				if k.Secure != tt.secure || !k.HttpOnly || k.SameSite != http.SameSiteLaxMode {
					t.Errorf("%s: Secure %v, HttpOnly %v, SameSite %v; want Secure %v, HttpOnly, Lax", k.Name, k.Secure, k.HttpOnly, k.SameSite, tt.secure)
				}
			}
		})
	}
}

// A client failing on an account slows itself on it, not the owner
// logging in from his own address; the account's failures from all
// addresses together have a looser bound, which holds for everyone.
func TestLoginThrottledPerClientAndAccount(t *testing.T) {
	const attacker, owner = "203.0.113.66", "198.51.100.7"
	t.Run("per client and account", func(t *testing.T) {
		e := accountEnv(t, server.Config{BehindProxy: true})
		c := e.client()
		if code, _, _ := c.account("signup", creds("alice", "password1")); code != http.StatusCreated {
			t.Fatalf("signup: %d", code)
		}
		for i := range 5 {
			if code, _, _ := c.account("login", creds("alice", "wrong-pass"), from(attacker)...); code != http.StatusUnauthorized {
				t.Fatalf("the attacker's failure %d: %d", i+1, code)
			}
		}
		code, e1, hdr, _ := c.post("/api/account/login", creds("alice", "password1"), from(attacker)...)
		if code != http.StatusTooManyRequests || e1.Code != "account.throttled_minutes" || e1.Params["n"] != 1.0 || e1.Params["what"] != "login" || hdr.Get("Retry-After") != "60" {
			t.Errorf("the attacker's sixth attempt: %d %+v, Retry-After %q; want 429 account.throttled_minutes, n 1, 60", code, e1, hdr.Get("Retry-After"))
		}
		if code, msg, u := e.client().account("login", creds("Alice", "password1"), from(owner)...); code != http.StatusOK || u == nil {
			t.Errorf("the owner, from his address meanwhile: %d %q", code, msg)
		}
	})
	t.Run("per account", func(t *testing.T) {
		e := accountEnv(t, server.Config{BehindProxy: true, Account: account.Config{Limits: account.Limits{LoginAccount: throttle.Limit{Burst: 3, Every: time.Hour}}}})
		c := e.client()
		c.account("signup", creds("alice", "password1"))
		c.account("signup", creds("bob", "password1"))
		for i := range 3 {
			if code, _, _ := c.account("login", creds("alice", "wrong-pass"), from(fmt.Sprintf("203.0.113.%d", i+1))...); code != http.StatusUnauthorized {
				t.Fatalf("failure %d: %d", i+1, code)
			}
		}
		for _, addr := range []string{"203.0.113.9", owner} {
			code, e1, _, _ := c.post("/api/account/login", creds("alice", "password1"), from(addr)...)
			if code != http.StatusTooManyRequests || e1.Code != "account.throttled_minutes" || e1.Params["n"] != 60.0 {
				t.Errorf("from %s after the account's bound: %d %+v, want 429 account.throttled_minutes n 60", addr, code, e1)
			}
		}
		if code, _, _ := e.client().account("login", creds("bob", "password1"), from("203.0.113.9")...); code != http.StatusOK {
			t.Errorf("another account meanwhile: %d", code)
		}
	})
}

// Signups have a loose bound on the client's wider network too: four
// neighbours signing up at once pass, a flood spread over a /24 is refused
// past twenty with the throttle's code, and another network is served
// meanwhile.
func TestSignupThrottledPerNetwork(t *testing.T) {
	e := accountEnv(t, server.Config{BehindProxy: true})
	n := 0
	signup := func(addr string) (int, apiErr) {
		n++
		code, e1, _, _ := e.client().post("/api/account/signup", creds(fmt.Sprintf("user%d", n), "password1"), from(addr)...)
		return code, e1
	}
	for i := range 20 { // four neighbours, then a flood
		if code, e1 := signup(fmt.Sprintf("192.0.2.%d", i+1)); code != http.StatusCreated {
			t.Fatalf("signup %d of the /24: %d %+v", i+1, code, e1)
		}
	}
	if code, e1 := signup("192.0.2.21"); code != http.StatusTooManyRequests || e1.Code != "account.throttled_minutes" || e1.Params["n"] != 3.0 || e1.Params["what"] != "signup" {
		t.Errorf("the 21st of the /24: %d %+v, want 429 account.throttled_minutes, n 3, signup", code, e1)
	}
	if code, e1 := signup("192.0.3.1"); code != http.StatusCreated {
		t.Errorf("another /24 meanwhile: %d %+v", code, e1)
	}
}

// A flood of concurrent wrong logins from one client does not keep
// another client out: the flood holds one hasher and queues one login at
// most, the rest refused at once (429 account.busy), and the owner's
// logins from his address succeed meanwhile. (The account package proves
// the order: TestHashersRoundRobin.)
func TestLoginFloodServesOthers(t *testing.T) {
	e := accountEnv(t, server.Config{BehindProxy: true, Account: account.Config{
		Params: account.Params{Memory: 4 << 10, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32},
		Limits: account.Limits{LoginAddress: throttle.Limit{Burst: 1 << 20, Every: time.Millisecond}},
	}})
	if code, _, _ := e.client().account("signup", creds("alice", "password1")); code != http.StatusCreated {
		t.Fatalf("signup: %d", code)
	}
	const flood = 12
	busy := 0
	for round := 0; busy == 0; round++ {
		if round == 50 {
			t.Fatalf("no login of %d rounds of %d at once was refused as busy", round, flood)
		}
		var wg sync.WaitGroup
		answers := make(chan string, flood)
		for i := range flood {
			wg.Go(func() {
				code, e1, hdr, _ := e.client().post("/api/account/login", creds(fmt.Sprintf("nobody%d_%d", round, i), "wrong-pass"), from("203.0.113.66")...)
				answers <- fmt.Sprintf("%d %s %s", code, e1.Code, hdr.Get("Retry-After"))
			})
		}
		code, msg, _ := e.client().account("login", creds("alice", "password1"), from("198.51.100.7")...)
		wg.Wait()
		close(answers)
		if code != http.StatusOK {
			t.Fatalf("round %d: the owner's login during the flood: %d %q", round, code, msg)
		}
		for a := range answers {
			switch a {
			case "401 account.wrong_password ":
			case "429 account.busy 1":
				busy++
			default:
				t.Fatalf("round %d: a login of the flood answered %q, want 401 or 429 account.busy", round, a)
			}
		}
	}
}
