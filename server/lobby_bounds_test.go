package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"emergo/account"
	"emergo/lobby"
	"emergo/server"
	"emergo/store"
	"emergo/store/sqlstore"
	"emergo/throttle"
)

// crowdEnv is a server on st (a fresh SQLite store if nil) whose clients
// may sign up many accounts from one address, with the challenge limits
// l.
func crowdEnv(t *testing.T, st store.Store, l lobby.Limits) *env {
	t.Helper()
	return accountEnv(t, server.Config{
		Store: st, ChallengeLimits: l,
		Account: account.Config{Params: cheapHashing.Params, Limits: account.Limits{
			SignupAddress: throttle.Limit{Burst: 100, Every: time.Millisecond},
			SignupNetwork: throttle.Limit{Burst: 100, Every: time.Millisecond},
		}},
	})
}

// posted is a challenge as the tests know it: its ID, challenger and the
// player it was made to ("" for an open one).
type posted struct{ id, from, to string }

// concerns reports whether viewer (a username, "" for a guest) is shown c.
func (c posted) concerns(viewer string) bool {
	return c.to == "" || (viewer != "" && (c.from == viewer || c.to == viewer))
}

// checkView reports what v, the lobby of viewer, shows wrongly of all:
// every challenge of all that concerns viewer, and only those, with its
// mine and forYou; "" if all is well.
func checkView(viewer string, v lobbyView, all []posted) string {
	want := map[string]posted{}
	for _, c := range all {
		if c.concerns(viewer) {
			want[c.id] = c
		}
	}
	got := map[string]bool{}
	for _, c := range v.Challenges {
		p, ok := want[c.ID]
		switch {
		case !ok:
			return fmt.Sprintf("shows %s, %s's to %q", c.ID, c.From, *c.To)
		case c.Mine != (p.from == viewer) || c.ForYou != (p.to != "" && p.to == viewer):
			return fmt.Sprintf("shows %+v as mine %v, for him %v", p, c.Mine, c.ForYou)
		}
		got[c.ID] = true
	}
	for id, c := range want {
		if !got[id] {
			return fmt.Sprintf("does not show %+v (%d shown of %d)", c, len(got), len(want))
		}
	}
	return ""
}

// TestLobbyFloodedByOneAccount: an account that posts 250 challenges, open
// and to Alice, has ten of them pending (the others refused); every other
// challenge is seen by all it concerns, in the lobby and on its event
// stream, and the flooder sees his own.
func TestLobbyFloodedByOneAccount(t *testing.T) { lobbyFloodTest(t, crowdEnv(t, nil, lobby.Limits{})) }

func lobbyFloodTest(t *testing.T, e *env) {
	names := []string{"flood", "alice", "bob", "carol", "dave", ""}
	viewers := map[string]*client{"": e.client()}
	streams := map[string]<-chan lobbyView{}
	for _, name := range names {
		if name != "" {
			viewers[name] = signUp(t, e, name)
		}
		streams[name] = viewers[name].lobbyEvents(t)
	}
	var all []posted
	refused := 0
	for i := range 250 {
		to, body := "", blitz
		if i%2 == 1 {
			to, body = "alice", with(blitz, "to", "alice")
		}
		switch code, v := viewers["flood"].challenge(body); {
		case code == http.StatusCreated:
			all = append(all, posted{v.ID, "flood", to})
		case code == http.StatusTooManyRequests && v.Code == "challenge.too_many" && v.Params["n"] == float64(lobby.DefaultLimits.Account):
			refused++
		default:
			t.Fatalf("challenge %d: %d %+v", i+1, code, v)
		}
	}
	if len(all) != lobby.DefaultLimits.Account || refused != 250-lobby.DefaultLimits.Account {
		t.Fatalf("%d challenges posted and %d refused, want %d posted", len(all), refused, lobby.DefaultLimits.Account)
	}
	for _, c := range []posted{{"", "alice", ""}, {"", "bob", "carol"}, {"", "dave", "alice"}, {"", "carol", ""}} {
		body := blitz
		if c.to != "" {
			body = with(blitz, "to", c.to)
		}
		code, v := viewers[c.from].challenge(body)
		if code != http.StatusCreated {
			t.Fatalf("%s's challenge: %d %+v", c.from, code, v)
		}
		c.id = v.ID
		all = append(all, c)
	}
	for _, name := range names {
		if msg := checkView(name, viewers[name].lobby(t), all); msg != "" {
			t.Errorf("the lobby of %q %s", name, msg)
		}
		waitLobby(t, fmt.Sprintf("every challenge that concerns %q", name), streams[name], func(v lobbyView) bool {
			return checkView(name, v, all) == ""
		})
	}
}

// TestLobbyCrowdedByManyAccounts: 25 accounts with ten open challenges
// each, more than the lobby shows, share its list in equal parts; each
// sees his own ten; a direct challenge made last is seen by its two
// players, on the event stream too.
func TestLobbyCrowdedByManyAccounts(t *testing.T) {
	lobbyCrowdTest(t, crowdEnv(t, nil, lobby.Limits{}))
}

func lobbyCrowdTest(t *testing.T, e *env) {
	const accounts = 25
	var crowd []*client
	var all []posted
	for i := range accounts {
		name := fmt.Sprintf("crowd%02d", i)
		c := signUp(t, e, name)
		crowd = append(crowd, c)
		for range lobby.DefaultLimits.Account {
			code, v := c.challenge(blitz)
			if code != http.StatusCreated {
				t.Fatalf("%s's challenge: %d %+v", name, code, v)
			}
			all = append(all, posted{v.ID, name, ""})
		}
	}
	alice, bob := signUp(t, e, "alice"), signUp(t, e, "bob")
	toBob := bob.lobbyEvents(t)
	code, direct := alice.challenge(with(blitz, "to", "bob"))
	if code != http.StatusCreated {
		t.Fatalf("alice's challenge to bob: %d %+v", code, direct)
	}
	for who, cl := range map[string]*client{"alice": alice, "bob": bob} {
		if got, ok := cl.lobby(t).find(direct.ID); !ok || got.Mine != (who == "alice") || got.ForYou != (who == "bob") {
			t.Errorf("%s sees the direct challenge: %v %+v", who, ok, got)
		}
	}
	waitLobby(t, "alice's challenge to bob", toBob, func(v lobbyView) bool { c, ok := v.find(direct.ID); return ok && c.ForYou })

	// A guest sees 200 of the 250, eight of each account.
	byFrom := map[string]int{}
	for _, c := range e.client().lobby(t).Challenges {
		byFrom[c.From]++
	}
	for i := range accounts {
		if n := byFrom[fmt.Sprintf("crowd%02d", i)]; n != 8 {
			t.Errorf("a guest sees %d challenges of crowd%02d, want 8 (all: %v)", n, i, byFrom)
			break
		}
	}
	if len(byFrom) != accounts {
		t.Errorf("a guest sees the challenges of %v", slices.Sorted(maps.Keys(byFrom)))
	}
	// Each sees his own ten.
	for i, c := range crowd {
		var want, mine []string
		for _, p := range all {
			if p.from == fmt.Sprintf("crowd%02d", i) {
				want = append(want, p.id)
			}
		}
		for _, ch := range c.lobby(t).Challenges {
			if ch.Mine {
				mine = append(mine, ch.ID)
			}
		}
		slices.Sort(want)
		slices.Sort(mine)
		if !slices.Equal(mine, want) {
			t.Errorf("crowd%02d sees %v of his, want %v", i, mine, want)
		}
	}
}

// refusedTooMany checks that a challenge was refused for the challenger's
// limit n.
func refusedTooMany(t *testing.T, what string, code int, v challengeView, n int) {
	t.Helper()
	if code != http.StatusTooManyRequests || v.Code != "challenge.too_many" || v.Params["n"] != float64(n) || v.Error == "" {
		t.Errorf("%s: %d %+v, want 429 challenge.too_many of %d", what, code, v, n)
	}
}

// TestChallengeLimit: an account has ten challenges pending at most; one
// withdrawn, declined, accepted or expired frees a place.
func TestChallengeLimit(t *testing.T) {
	e := crowdEnv(t, nil, lobby.Limits{})
	alice, bob := signUp(t, e, "alice"), signUp(t, e, "bob")
	limit := lobby.DefaultLimits.Account
	var ids []string
	for i := range limit {
		body := blitz
		if i%2 == 1 {
			body = with(blitz, "to", "bob")
		}
		code, v := alice.challenge(body)
		if code != http.StatusCreated {
			t.Fatalf("challenge %d: %d %+v", i+1, code, v)
		}
		ids = append(ids, v.ID)
	}
	code, v := alice.challenge(blitz)
	refusedTooMany(t, "one more", code, v, limit)
	if got := alice.lobby(t).Challenges; len(got) != limit {
		t.Errorf("alice has %d challenges, want %d", len(got), limit)
	}
	for _, free := range []struct {
		how    string
		who    *client
		id     string
		action string
	}{
		{"withdrawn", alice, ids[0], "cancel"},
		{"declined", bob, ids[1], "decline"},
		{"accepted", bob, ids[2], "accept"},
	} {
		if code, _, msg := free.who.answer(free.id, free.action); code != http.StatusOK {
			t.Fatalf("%s: %d %q", free.how, code, msg)
		}
		if code, v := alice.challenge(blitz); code != http.StatusCreated {
			t.Errorf("after one %s: %d %+v", free.how, code, v)
		}
		code, v := alice.challenge(blitz)
		refusedTooMany(t, "one more after one "+free.how, code, v, limit)
	}
	e.now.Add(int64(lobby.LiveWait))
	for i := range limit {
		if code, v := alice.challenge(blitz); code != http.StatusCreated {
			t.Fatalf("after the expiry, challenge %d: %d %+v", i+1, code, v)
		}
	}
	code, v = alice.challenge(blitz)
	refusedTooMany(t, "one more after the expiry", code, v, limit)
}

// TestChallengeLimitAcrossServers: the limit holds for an account that
// posts through two servers on one database.
func TestChallengeLimitAcrossServers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	open := func() store.Store {
		st, err := sqlstore.OpenSQLite(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	challengeLimitAcrossServersTest(t, open(), open())
}

func challengeLimitAcrossServersTest(t *testing.T, a, b store.Store) {
	ea, eb := crowdEnv(t, a, lobby.Limits{}), crowdEnv(t, b, lobby.Limits{})
	alice := signUp(t, ea, "alice")
	on := [2]*client{alice, alice.on(eb)}
	limit := lobby.DefaultLimits.Account
	for i := range limit + 2 {
		code, v := on[i%2].challenge(blitz)
		if i < limit {
			if code != http.StatusCreated {
				t.Fatalf("challenge %d, on server %d: %d %+v", i+1, i%2+1, code, v)
			}
			continue
		}
		refusedTooMany(t, fmt.Sprintf("challenge %d, on server %d", i+1, i%2+1), code, v, limit)
	}
}

// finishedGuestGame is a finished 7x7 friend game between the guest a
// and a new guest, who is returned.
func finishedGuestGame(t *testing.T, e *env, a *client) (string, *client) {
	t.Helper()
	st := a.create(t, map[string]any{"mode": "friend", "size": 7, "color": "white", "name": "Xavier", "clock": map[string]any{"initial": 60, "increment": 1}})
	b := e.client()
	b.join(t, st.ID, "Yves", *st.Invite)
	a.move(st.ID, "a1", 0)
	b.move(st.ID, "g7", 1)
	if code, st, _ := b.do("POST", "/api/games/"+st.ID+"/resign", nil); code != http.StatusOK || !st.Over {
		t.Fatalf("resign: %d %+v", code, st)
	}
	return st.ID, b
}

// TestGuestRematchLimit: a guest has three rematches pending at most; one
// declined frees a place. His lobby shows them, as his opponents' show
// theirs.
func TestGuestRematchLimit(t *testing.T) {
	e := crowdEnv(t, nil, lobby.Limits{})
	a := e.client()
	limit := lobby.DefaultLimits.Guest
	var games []string
	var opponents []*client
	for i := range limit + 1 {
		id, b := finishedGuestGame(t, e, a)
		games, opponents = append(games, id), append(opponents, b)
		code, _, raw := a.do("POST", "/api/games/"+id+"/rematch", map[string]any{"action": "offer"})
		if i < limit {
			if code != http.StatusOK {
				t.Fatalf("rematch %d: %d %s", i+1, code, raw)
			}
			continue
		}
		var v challengeView
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			t.Fatal(err)
		}
		refusedTooMany(t, "one more rematch", code, v, limit)
	}
	mine := 0
	for _, c := range a.lobby(t).Challenges {
		if c.Mine && c.Rematch != nil {
			mine++
		}
	}
	if mine != limit {
		t.Errorf("the guest's lobby shows %d rematches of his, want %d", mine, limit)
	}
	if v := opponents[1].lobby(t); len(v.Challenges) != 1 || !v.Challenges[0].ForYou || *v.Challenges[0].Rematch != games[1] {
		t.Errorf("an opponent's lobby: %+v", v.Challenges)
	}
	if code, _, msg := opponents[0].rematch(games[0], "decline"); code != http.StatusOK {
		t.Fatalf("decline: %d %q", code, msg)
	}
	if code, v, msg := a.rematch(games[limit], "offer"); code != http.StatusOK || v.Rematch == nil || v.Rematch.Status != "pending" {
		t.Errorf("the rematch after a decline: %d %q %+v", code, msg, v.Rematch)
	}
}

// TestLobbyFull: the lobby holds ChallengeLimits.Total challenges pending
// at most, then refuses more until one goes.
func TestLobbyFull(t *testing.T) {
	e := crowdEnv(t, nil, lobby.Limits{Total: 3})
	alice, bob, carol := signUp(t, e, "alice"), signUp(t, e, "bob"), signUp(t, e, "carol")
	_, first := alice.challenge(blitz)
	alice.challenge(blitz)
	bob.challenge(blitz)
	if code, v := carol.challenge(blitz); code != http.StatusServiceUnavailable || v.Code != "lobby.full" || v.Error == "" {
		t.Errorf("a fourth challenge: %d %+v, want 503 lobby.full", code, v)
	}
	alice.answer(first.ID, "cancel")
	if code, v := carol.challenge(blitz); code != http.StatusCreated {
		t.Errorf("after a withdrawal: %d %+v", code, v)
	}
}

// A player who posts and withdraws challenges in turn, which the cap on
// those pending does not bound, is bounded by the rate of his posts
// (429 challenge.too_fast, with Retry-After); a post the cap refuses is
// not counted, and another player posts meanwhile.
func TestChallengeRate(t *testing.T) {
	e := crowdEnv(t, nil, lobby.Limits{})
	churner, other := signUp(t, e, "churner"), signUp(t, e, "patient")
	posted := 0
	for ; posted < 100; posted++ {
		code, _, raw := churner.do("POST", "/api/challenges", blitz)
		if code != http.StatusCreated {
			if code != http.StatusTooManyRequests || errorCode(raw) != "challenge.too_fast" {
				t.Fatalf("post %d: %d %s, want 201 or 429 challenge.too_fast", posted+1, code, raw)
			}
			break
		}
		var v challengeView
		json.Unmarshal([]byte(raw), &v)
		if code, _, msg := churner.answer(v.ID, "cancel"); code != http.StatusOK {
			t.Fatalf("withdraw %d: %d %s", posted+1, code, msg)
		}
	}
	if posted != 20 {
		t.Errorf("%d posts went through before the rate refused one, want 20", posted)
	}
	if code, v := other.challenge(blitz); code != http.StatusCreated {
		t.Errorf("another player meanwhile: %d %+v", code, v)
	}
	// Refused by the cap: not counted by the rate.
	capped := signUp(t, e, "capped")
	for i := range lobby.DefaultLimits.Account {
		if code, v := capped.challenge(blitz); code != http.StatusCreated {
			t.Fatalf("capped's challenge %d: %d %+v", i+1, code, v)
		}
	}
	for i := range 30 {
		if code, _, raw := capped.do("POST", "/api/challenges", blitz); code != http.StatusTooManyRequests || errorCode(raw) != "challenge.too_many" {
			t.Fatalf("capped's post %d past the cap: %d %s, want 429 challenge.too_many", i+1, code, raw)
		}
	}
}
