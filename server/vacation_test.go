package server_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"emergo/account"
	"emergo/server"
)

// vacationEnv is a site of accounts whose deadline sweep runs often, on
// a clock set to the first of June of next year: a test's vacations
// stay within one calendar year.
func vacationEnv(t *testing.T) *env {
	t.Helper()
	june := time.Date(time.Now().UTC().Year()+1, 6, 1, 12, 0, 0, 0, time.UTC)
	return newEnvAhead(t, server.Config{Account: cheapHashing, DeadlineSweep: 10 * time.Millisecond},
		time.Until(june))
}

// vacationAnswer is the answer of POST and DELETE /api/account/vacation,
// and the vacation's part of GET /api/account/me.
type vacationAnswer struct {
	Until             *string `json:"until"`
	DaysLeft          int     `json:"daysLeft"`
	Vacation          *string `json:"vacation"`
	VacationDaysLeft  int     `json:"vacationDaysLeft"`
	VacationAllowance int     `json:"vacationAllowance"`
	Code              string  `json:"code"`
	Params            struct {
		N int `json:"n"`
	} `json:"params"`
}

// vacation asks method of /api/account/vacation with body, and returns
// the status and the answer.
func (c *client) vacation(t *testing.T, method string, body any) (int, vacationAnswer) {
	t.Helper()
	code, _, raw := c.do(method, "/api/account/vacation", body)
	var v vacationAnswer
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("%s /api/account/vacation: %d %s", method, code, raw)
	}
	return code, v
}

// me reads c's account with its vacation.
func (c *client) vacationOf(t *testing.T) vacationAnswer {
	t.Helper()
	var v vacationAnswer
	c.getJSON(t, "/api/account/me", &v)
	return v
}

// vacationState is the vacation's part of a game's state.
type vacationState struct {
	Vacation map[string]string `json:"vacation"`
}

// parseTime reads a time of the API.
func parseTime(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

// TestVacation: through the API, a correspondence player goes on
// vacation within his allowance; his opponent is told, and the game and
// his profile show it; the deadline sweep does not end the game while
// the vacation runs, though the deadline it had has passed (another
// game, not on vacation, is ended by the same sweeps), and ends it when
// the deadline, postponed by the vacation, passes.
func TestVacation(t *testing.T) {
	e := vacationEnv(t)
	alice, bob := signUp(t, e, "alice"), signUp(t, e, "bob")
	carol, dave := signUp(t, e, "carol"), signUp(t, e, "dave")
	game := corrChallenge(t, alice, bob)
	other := acceptedGame(t, carol, dave, map[string]any{"size": 7, "days": 3, "color": "white", "to": "dave"})
	for _, g := range []struct {
		c  *client
		id string
	}{{alice, game}, {carol, other}} {
		if code, st := g.c.move(g.id, "a1", 0); code != http.StatusOK {
			t.Fatalf("first move: %d %+v", code, st)
		}
	}
	before := bob.corr(t, game).deadline(t)

	if v := bob.vacationOf(t); v.Vacation != nil || v.VacationDaysLeft != account.VacationAllowance || v.VacationAllowance != account.VacationAllowance {
		t.Errorf("bob's account before: %+v", v)
	}
	for _, days := range []int{0, account.VacationAllowance + 1} {
		if code, v := bob.vacation(t, "POST", map[string]any{"days": days}); code != http.StatusConflict || v.Code != "vacation.days" || v.Params.N != account.VacationAllowance {
			t.Errorf("a vacation of %d days: %d %+v, want 409 vacation.days", days, code, v)
		}
	}
	e.now.Add(int64(day))
	started := e.time()
	code, v := bob.vacation(t, "POST", map[string]any{"days": 5})
	if code != http.StatusOK || v.Until == nil || v.DaysLeft != account.VacationAllowance-5 {
		t.Fatalf("a vacation of 5 days: %d %+v", code, v)
	}
	until := *v.Until
	within(t, "the vacation's end", parseTime(t, until), started.Add(5*day), e.time().Add(5*day))
	if code, v := bob.vacation(t, "POST", map[string]any{"days": 1}); code != http.StatusConflict || v.Code != "vacation.already" {
		t.Errorf("a second vacation: %d %+v, want 409 vacation.already", code, v)
	}
	if v := bob.vacationOf(t); v.Vacation == nil || *v.Vacation != until || v.VacationDaysLeft != account.VacationAllowance-5 {
		t.Errorf("bob's account on vacation: %+v", v)
	}

	// His opponent is told, once, with their game; the other players not.
	if got, want := alice.notes(t).summary(), "vacation "+game+" bob *"; !slices.Contains(got, want) {
		t.Errorf("alice's notifications: %q, want %q among them", got, want)
	}
	for _, c := range []*client{carol, dave} {
		for _, n := range c.notes(t).Notifications {
			if n.Type == "vacation" {
				t.Errorf("a player who is not bob's opponent is told of his vacation: %+v", n)
			}
		}
	}
	// The game shows it to all, and his profile.
	var vs vacationState
	alice.getJSON(t, "/api/games/"+game, &vs)
	if len(vs.Vacation) != 1 || vs.Vacation["black"] != until {
		t.Errorf("the game's vacation: %v, want black until %s", vs.Vacation, until)
	}
	var profile struct {
		Vacation *string `json:"vacation"`
	}
	alice.getJSON(t, "/api/users/bob", &profile)
	if profile.Vacation == nil || *profile.Vacation != until {
		t.Errorf("bob's profile: vacation %v, want %s", profile.Vacation, until)
	}
	postponed := bob.corr(t, game).deadline(t)
	within(t, "the postponed deadline", postponed, before.Add(parseTime(t, until).Sub(e.time())), before.Add(5*day))

	// Three days later both games' deadlines have passed: the sweep ends
	// dave's, not bob's.
	e.now.Add(int64(3 * day))
	if st := waitFor(t, carol, other, func(s state) bool { return s.Result != "*" }); st.Reason != "time forfeit" {
		t.Fatalf("the game not on vacation: %s (%s)", st.Result, st.Reason)
	}
	if _, st, _ := alice.do("GET", "/api/games/"+game, nil); st.Result != "*" {
		t.Fatalf("the game on vacation ended: %s (%s)", st.Result, st.Reason)
	}
	// After the vacation, the postponed deadline counts.
	e.now.Store(int64(time.Until(postponed.Add(time.Minute))))
	if st := waitFor(t, alice, game, func(s state) bool { return s.Result != "*" }); st.Result != "1-0" || st.Reason != "time forfeit" {
		t.Errorf("after the postponed deadline: %s (%s), want 1-0 time forfeit", st.Result, st.Reason)
	}
	if v := bob.vacationOf(t); v.Vacation != nil {
		t.Errorf("bob's account after the vacation: %+v", v)
	}
}

// TestVacationEndedEarly: a vacation ended early gives back its whole
// days not reached, and takes back what it postponed beyond its end;
// the allowance once all taken, a vacation is refused.
func TestVacationEndedEarly(t *testing.T) {
	e := vacationEnv(t)
	alice, bob := signUp(t, e, "alice"), signUp(t, e, "bob")
	game := corrChallenge(t, alice, bob)
	if code, st := alice.move(game, "a1", 0); code != http.StatusOK {
		t.Fatalf("first move: %d %+v", code, st)
	}
	before := bob.corr(t, game).deadline(t)
	if code, v := bob.vacation(t, "DELETE", nil); code != http.StatusConflict || v.Code != "vacation.not_on" {
		t.Errorf("the end of no vacation: %d %+v, want 409 vacation.not_on", code, v)
	}
	if code, v := bob.vacation(t, "POST", map[string]any{"days": 10}); code != http.StatusOK {
		t.Fatalf("a vacation of 10 days: %d %+v", code, v)
	}
	start := e.time()
	e.now.Add(int64(2*day + 12*time.Hour))
	code, v := bob.vacation(t, "DELETE", nil)
	if code != http.StatusOK || v.Until != nil || v.DaysLeft != account.VacationAllowance-3 {
		t.Fatalf("the end after two days and a half: %d %+v, want %d days left", code, v, account.VacationAllowance-3)
	}
	end := e.time()
	within(t, "the deadline after the vacation", bob.corr(t, game).deadline(t), before.Add(end.Sub(start)-time.Second), before.Add(end.Sub(start)+time.Second))
	var vs vacationState
	alice.getJSON(t, "/api/games/"+game, &vs)
	if vs.Vacation != nil {
		t.Errorf("the game after the vacation: %v, want none", vs.Vacation)
	}
	// The rest of the allowance, then none left.
	if code, v := bob.vacation(t, "POST", map[string]any{"days": account.VacationAllowance - 3}); code != http.StatusOK || v.DaysLeft != 0 {
		t.Fatalf("the rest of the allowance: %d %+v", code, v)
	}
	e.now.Add(int64((account.VacationAllowance - 2) * day))
	if code, v := bob.vacation(t, "POST", map[string]any{"days": 1}); code != http.StatusConflict || v.Code != "vacation.none_left" {
		t.Errorf("a vacation with the allowance taken: %d %+v, want 409 vacation.none_left", code, v)
	}
	// A guest has no vacation.
	if code, v := e.client().vacation(t, "POST", map[string]any{"days": 1}); code != http.StatusUnauthorized || v.Code != "account.log_in" {
		t.Errorf("a guest's vacation: %d %+v, want 401 account.log_in", code, v)
	}
}

// vacationAcrossServers: a vacation begun on B postpones the game that A
// holds too, whose state shows it; neither server's sweep ends the game
// on its old deadline, which ends another game; A ends it on the
// postponed one; A reads the account's vacation that B wrote.
func vacationAcrossServers(t *testing.T, c *cluster) {
	alice, bob := signUp(t, c.a, "alice"), signUp(t, c.b, "bob")
	carol, dave := signUp(t, c.a, "carol"), signUp(t, c.b, "dave")
	game := corrChallenge(t, alice, bob)
	other := acceptedGame(t, carol, dave, map[string]any{"size": 7, "days": 3, "color": "white", "to": "dave"})
	for _, g := range []struct {
		c  *client
		id string
	}{{alice, game}, {carol, other}} {
		if code, st := g.c.move(g.id, "a1", 0); code != http.StatusOK {
			t.Fatalf("first move: %d %+v", code, st)
		}
	}
	before := alice.corr(t, game).deadline(t) // A holds the game
	bob.corr(t, game)                         // and B
	code, v := bob.vacation(t, "POST", map[string]any{"days": 5})
	if code != http.StatusOK || v.Until == nil {
		t.Fatalf("a vacation on B: %d %+v", code, v)
	}
	var vs vacationState
	deadline := time.Now().Add(patience)
	for vs.Vacation["black"] != *v.Until {
		if time.Now().After(deadline) {
			t.Fatalf("A's game shows the vacations %v, want black until %s", vs.Vacation, *v.Until)
		}
		time.Sleep(10 * time.Millisecond)
		alice.getJSON(t, "/api/games/"+game, &vs)
	}
	postponed := alice.corr(t, game).deadline(t)
	if !postponed.After(before.Add(4 * day)) {
		t.Errorf("A's deadline %v, want the old one %v postponed by five days", postponed, before)
	}
	if me := bob.on(c.a).vacationOf(t); me.Vacation == nil || *me.Vacation != *v.Until {
		t.Errorf("bob's account on A: %+v, want on vacation until %s", me, *v.Until)
	}
	c.advance(4 * day)
	waitFor(t, carol, other, func(s state) bool { return s.Over })
	if _, st, _ := alice.do("GET", "/api/games/"+game, nil); st.Over {
		t.Fatalf("the game on vacation ended on A: %s (%s)", st.Result, st.Reason)
	}
	if _, st, _ := bob.do("GET", "/api/games/"+game, nil); st.Over {
		t.Fatalf("the game on vacation ended on B: %s (%s)", st.Result, st.Reason)
	}
	c.advance(postponed.Sub(c.a.time()) + time.Minute)
	if st := waitFor(t, alice, game, func(s state) bool { return s.Over }); st.Result != "1-0" || st.Reason != "time forfeit" {
		t.Errorf("after the postponed deadline: %s (%s)", st.Result, st.Reason)
	}
}
