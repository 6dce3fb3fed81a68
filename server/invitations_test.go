package server_test

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"emergo/enginework"
	"emergo/server"
	"emergo/store/sqlstore"
	"emergo/throttle"
)

// friendAt is the request of a 7x7 friend game, its creator White, with
// the settings of extra.
func friendAt(extra map[string]any) map[string]any {
	req := map[string]any{"mode": "friend", "size": 7, "color": "white", "name": "alice"}
	for k, v := range extra {
		req[k] = v
	}
	return req
}

// A client has three friend games waiting for their second player at
// most, counted for a guest by its browser and by its address, for a
// person logged in by his account; the site has its own bound. Another
// client is served meanwhile, and a game that no longer waits, joined or
// aborted, counts no more. The engine games are not among them.
func TestInvitationBounds(t *testing.T) {
	e := accountEnv(t, server.Config{Jobs: enginework.NewMemory(), EngineWorkers: -1, BehindProxy: true,
		Invitations: server.InvitationLimits{PerClient: 3, Total: 8, Rate: throttle.Limit{Every: -1}}})
	created := func(what string, c *client, addr string, extra map[string]any) state {
		t.Helper()
		code, st, err := c.createFrom(addr, friendAt(extra))
		if code != http.StatusCreated {
			t.Fatalf("%s: %d %+v, want 201", what, code, err)
		}
		return st
	}
	refused := func(what string, c *client, addr string) {
		t.Helper()
		code, _, err := c.createFrom(addr, friendAt(nil))
		if code != http.StatusTooManyRequests || err.Code != "game.too_many_invitations" || err.Params["n"] != float64(3) ||
			err.Error != "you have 3 games waiting for a friend to join, as many as you may: abort one, or wait for a friend to join it" {
			t.Errorf("%s: %d %+v, want 429 game.too_many_invitations, n 3", what, code, err)
		}
	}
	guest := e.client()
	first := created("the guest's first", guest, "10.0.0.1", nil)
	second := created("the guest's second, as Black", guest, "10.0.0.1", map[string]any{"color": "black"})
	created("the guest's third, a correspondence game", guest, "10.0.0.1", map[string]any{"days": 3})
	refused("the guest's fourth", guest, "10.0.0.1")
	refused("another browser at the guest's address", e.client(), "10.0.0.1")
	refused("the guest's browser at another address", guest, "10.0.0.2")
	created("another client", e.client(), "10.0.0.3", nil)

	member := e.client()
	if code, msg, _ := member.account("signup", creds("ann", "a good password"), "X-Forwarded-For", "10.0.0.4"); code != http.StatusCreated {
		t.Fatalf("signup: %d %s", code, msg)
	}
	for i := range 3 {
		created(fmt.Sprintf("the account's game %d", i+1), member, "10.0.0.4", nil)
	}
	refused("the account's fourth", member, "10.0.0.4")
	refused("the account's fourth from another address", member, "10.0.0.5")
	// The account's games are its own, not its address's guests'.
	created("a guest at the account's address", e.client(), "10.0.0.4", nil)

	// Eight waiting: the site takes no more.
	code, _, err := e.client().createFrom("10.0.0.6", friendAt(nil))
	if code != http.StatusServiceUnavailable || err.Code != "game.invitations_full" ||
		err.Error != "the site has as many games waiting for a second player as it can take: try again later" {
		t.Errorf("a ninth on the site: %d %+v, want 503 game.invitations_full", code, err)
	}
	// A game against the engine is not one of them.
	if code, _, err := guest.createFrom("10.0.0.1", engineAt("black")); code != http.StatusCreated {
		t.Errorf("an engine game of the guest: %d %+v", code, err)
	}

	// A game joined waits no more, nor does one aborted.
	friend := e.client()
	if code, _, body := friend.do("POST", "/api/games/"+first.ID+"/join", map[string]any{"name": "bob", "invite": *first.Invite},
		"X-Forwarded-For", "10.0.0.7"); code != http.StatusOK {
		t.Fatalf("join: %d %s", code, body)
	}
	created("the guest's game once one was joined", guest, "10.0.0.1", nil)
	refused("the guest's next", guest, "10.0.0.1")
	if code, _, body := guest.do("POST", "/api/games/"+second.ID+"/abort", nil, "X-Forwarded-For", "10.0.0.1"); code != http.StatusOK {
		t.Fatalf("abort: %d %s", code, body)
	}
	created("the guest's game once one was aborted", guest, "10.0.0.1", nil)

}

// A client makes invitations at the rate of the limit, by its browser and
// by its address; one refused for the client's invitations that wait does
// not count.
func TestInvitationRate(t *testing.T) {
	e := newEnv(t, server.Config{BehindProxy: true,
		Invitations: server.InvitationLimits{PerClient: 1, Rate: throttle.Limit{Burst: 2, Every: time.Hour}}})
	guest := e.client()
	abort := func(id string) {
		t.Helper()
		if code, _, body := guest.do("POST", "/api/games/"+id+"/abort", nil, "X-Forwarded-For", "10.0.0.1"); code != http.StatusOK {
			t.Fatalf("abort: %d %s", code, body)
		}
	}
	code, st, err := guest.createFrom("10.0.0.1", friendAt(nil))
	if code != http.StatusCreated {
		t.Fatalf("the first: %d %+v", code, err)
	}
	if code, _, err := guest.createFrom("10.0.0.1", friendAt(nil)); code != http.StatusTooManyRequests || err.Code != "game.too_many_invitations" {
		t.Fatalf("a second while the first waits: %d %+v, want 429 game.too_many_invitations", code, err)
	}
	abort(st.ID)
	if code, st, err = guest.createFrom("10.0.0.1", friendAt(nil)); code != http.StatusCreated {
		t.Fatalf("the second, the refused one not counted: %d %+v", code, err)
	}
	abort(st.ID)
	tooFastByEachName(t, e, guest, friendAt(nil), "game.invitations_too_fast")
	if code, _, err := e.client().createFrom("10.0.0.3", friendAt(nil)); code != http.StatusCreated {
		t.Errorf("a guest elsewhere: %d %+v", code, err)
	}
}

// An invitation nobody takes is aborted on the server's clock, without a
// result: a live game's after a day, a correspondence game's after a
// week. Its creator's count is freed, its page shows it aborted, and its
// link takes no seat. The sweep aborts those a server holds; a server
// that starts aborts those that waited too long while it was down.
func TestInvitationsExpire(t *testing.T) {
	st, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	start := func(ahead time.Duration) *env {
		return newEnvAhead(t, server.Config{Store: keepOpen{st}, BehindProxy: true,
			Invitations: server.InvitationLimits{PerClient: 2},
			EngineGames: server.EngineGameLimits{Sweep: 10 * time.Millisecond}}, ahead)
	}
	first := start(0)
	p, friend := first.client(), first.client()
	create := func() (int, state, apiErr) { return p.createFrom("10.0.0.1", friendAt(nil)) }
	aborted := func(what, id string) {
		t.Helper()
		s := waitFor(t, p, id, func(s state) bool { return s.Over })
		if s.Result != "*" || s.Reason != "aborted" || s.Invite != nil || s.Idle != nil {
			t.Errorf("%s: %s (%s), invite %v, idle %v; want aborted, no invitation, no idle times", what, s.Result, s.Reason, s.Invite, s.Idle)
		}
	}
	waits := func(what, id string, abortMS int64) {
		t.Helper()
		_, s, body := p.do("GET", "/api/games/"+id, nil)
		if s.Over || s.Idle == nil || s.Idle.AbortMS != abortMS {
			t.Errorf("%s: %s, want it waiting, aborted %d ms after its creation", what, body, abortMS)
		}
	}

	_, live, _ := create()
	_, corr, _ := p.createFrom("10.0.0.1", friendAt(map[string]any{"days": 3}))
	waits("a live game's invitation", live.ID, (24 * time.Hour).Milliseconds())
	waits("a correspondence game's invitation", corr.ID, (7 * 24 * time.Hour).Milliseconds())
	if code, _, err := create(); code != http.StatusTooManyRequests {
		t.Fatalf("a third: %d %+v, want 429", code, err)
	}
	first.now.Add(int64(25 * time.Hour))
	aborted("a live game's invitation after 25 hours", live.ID)
	waits("a correspondence game's invitation after 25 hours", corr.ID, (7 * 24 * time.Hour).Milliseconds())
	code, again, refusal := create()
	if code != http.StatusCreated {
		t.Fatalf("a game once one was aborted: %d %+v, want 201", code, refusal)
	}
	if code, _, body := friend.do("POST", "/api/games/"+live.ID+"/join", map[string]any{"name": "bob", "invite": *live.Invite}); code != http.StatusConflict ||
		!strings.Contains(body, `"code":"game.aborted"`) {
		t.Errorf("the aborted invitation's link: %d %s, want 409 game.aborted", code, body)
	}
	first.now.Add(int64(6 * 24 * time.Hour))
	aborted("a correspondence game's invitation after 7 days and an hour", corr.ID)

	// The start, on the invitations the store holds.
	first.ts.Close()
	first.srv.Close()
	second := start(time.Duration(first.now.Load()) + 25*time.Hour)
	p.e = second
	if n := second.srv.Cached(); n != 0 {
		t.Errorf("%d games in memory after the start, want none: the expired one aborted in the store", n)
	}
	aborted("an invitation that expired while the server was down", again.ID)
}
