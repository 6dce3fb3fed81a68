package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"emergo/player"
	"emergo/rating"
	"emergo/ratings"
	"emergo/server"
	"emergo/store"
	"emergo/store/sqlstore"
)

// challengeView is a challenge as the lobby shows it.
type challengeView struct {
	ID      string  `json:"id"`
	From    string  `json:"from"`
	Account bool    `json:"account"`
	Rating  string  `json:"rating"`
	To      *string `json:"to"`
	Size    int     `json:"size"`
	Clock   *struct {
		Initial   float64 `json:"initial"`
		Increment float64 `json:"increment"`
	} `json:"clock"`
	Days    int     `json:"days"`
	Rated   bool    `json:"rated"`
	Color   string  `json:"color"`
	Status  string  `json:"status"`
	Game    *string `json:"game"`
	Rematch *string `json:"rematch"`
	Mine    bool    `json:"mine"`
	ForYou  bool    `json:"forYou"`
	Error   string  `json:"error"`
	// Code and Params are a refusal's.
	Code   string         `json:"code"`
	Params map[string]any `json:"params"`
}

type lobbyView struct {
	Me         *struct{ Name string } `json:"me"`
	Challenges []challengeView        `json:"challenges"`
}

// find returns the challenge id of the view, if it shows it.
func (v lobbyView) find(id string) (challengeView, bool) {
	for _, c := range v.Challenges {
		if c.ID == id {
			return c, true
		}
	}
	return challengeView{}, false
}

// ratedView is the part of a game's state about ratings and rematches.
type ratedView struct {
	Rated   bool `json:"rated"`
	Players map[string]struct {
		Name       string `json:"name"`
		Joined     bool   `json:"joined"`
		Rating     string `json:"rating"`
		RatingDiff *int   `json:"ratingDiff"`
	} `json:"players"`
	Rematch *struct {
		By     string  `json:"by"`
		Status string  `json:"status"`
		Game   *string `json:"game"`
	} `json:"rematch"`
	Clock *struct {
		InitialMS   int64 `json:"initial_ms"`
		IncrementMS int64 `json:"increment_ms"`
	} `json:"clock"`
}

// lobbyEnv is a server with accounts on st (a fresh SQLite store if nil),
// and the store, for what the test checks in it.
func lobbyEnv(t *testing.T, st store.Store) (*env, ratings.Store) {
	t.Helper()
	if st == nil {
		sq, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
		if err != nil {
			t.Fatal(err)
		}
		st = sq
	}
	return accountEnv(t, server.Config{Store: st}), st.(ratings.Store)
}

// signUp is a new browser logged in to a new account name.
func signUp(t *testing.T, e *env, name string) *client {
	t.Helper()
	c := e.client()
	if code, msg, _ := c.account("signup", creds(name, "a long password")); code != http.StatusCreated {
		t.Fatalf("signup %s: %d %s", name, code, msg)
	}
	return c
}

func (c *client) lobby(t *testing.T) lobbyView {
	t.Helper()
	var v lobbyView
	c.getJSON(t, "/api/lobby", &v)
	return v
}

// challenge posts a challenge and returns the status and the answer.
func (c *client) challenge(body map[string]any) (int, challengeView) {
	c.e.t.Helper()
	code, _, raw := c.do("POST", "/api/challenges", body)
	var v challengeView
	json.Unmarshal([]byte(raw), &v)
	return code, v
}

// answer accepts, declines or withdraws a challenge: the status, and the
// game made by an accept.
func (c *client) answer(id, action string) (int, string, string) {
	c.e.t.Helper()
	code, st, raw := c.do("POST", "/api/challenges/"+id+"/"+action, nil)
	var out struct{ Game string }
	json.Unmarshal([]byte(raw), &out)
	return code, out.Game, st.Error
}

func (c *client) rated(t *testing.T, id string) ratedView {
	t.Helper()
	var v ratedView
	c.getJSON(t, "/api/games/"+id, &v)
	return v
}

func (c *client) rematch(id, action string) (int, ratedView, string) {
	c.e.t.Helper()
	code, st, raw := c.do("POST", "/api/games/"+id+"/rematch", map[string]any{"action": action})
	var v ratedView
	json.Unmarshal([]byte(raw), &v)
	return code, v, st.Error
}

var blitz = map[string]any{"size": 7, "clock": map[string]any{"initial": 300, "increment": 3}, "rated": true, "color": "black"}

func with(m map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func TestChallenges(t *testing.T) {
	e, _ := lobbyEnv(t, nil)
	challengesTest(t, e)
}

func challengesTest(t *testing.T, e *env) {
	alice, bob, carol, guest := signUp(t, e, "alice"), signUp(t, e, "bob"), signUp(t, e, "Carol"), e.client()

	if code, v := guest.challenge(blitz); code != http.StatusUnauthorized || !strings.Contains(v.Error, "log in") {
		t.Errorf("a guest's challenge: %d %q, want 401 asking to log in", code, v.Error)
	}
	for _, c := range []struct {
		name string
		body map[string]any
		code int
		want string
	}{
		{"a board of 8", with(blitz, "size", 8), 400, "size"},
		{"no time", map[string]any{"size": 9}, 400, "clock or days"},
		{"both times", with(blitz, "days", 3), 400, "not both"},
		{"a colour of none", with(blitz, "color", "red"), 400, "colour"},
		{"to nobody", with(blitz, "to", "dave"), 404, "no player"},
		{"to oneself", with(blitz, "to", "ALICE"), 400, "yourself"},
	} {
		if code, v := alice.challenge(c.body); code != c.code || !strings.Contains(v.Error, c.want) {
			t.Errorf("%s: %d %q, want %d saying %q", c.name, code, v.Error, c.code, c.want)
		}
	}

	// An open rated challenge: everyone sees it, a guest too.
	code, open := alice.challenge(blitz)
	if code != http.StatusCreated || open.From != "alice" || !open.Account || open.Rating != "1500?" || !open.Rated || open.Color != "black" ||
		open.Status != "pending" || !open.Mine || open.To != nil || open.Size != 7 || open.Clock == nil || open.Clock.Initial != 300 {
		t.Fatalf("open challenge: %d %+v", code, open)
	}
	for _, c := range []struct {
		who  string
		cl   *client
		mine bool
	}{{"alice", alice, true}, {"bob", bob, false}, {"a guest", guest, false}} {
		got, ok := c.cl.lobby(t).find(open.ID)
		if !ok || got.Mine != c.mine || got.ForYou {
			t.Errorf("%s sees the open challenge: %v %+v", c.who, ok, got)
		}
	}
	for _, c := range []struct {
		who  string
		cl   *client
		code int
	}{{"its challenger", alice, http.StatusForbidden}, {"a guest", guest, http.StatusUnauthorized}} {
		if code, _, msg := c.cl.answer(open.ID, "accept"); code != c.code {
			t.Errorf("accepted by %s: %d %q, want %d", c.who, code, msg, c.code)
		}
	}
	if code, _, _ := bob.answer(open.ID, "decline"); code != http.StatusForbidden {
		t.Errorf("an open challenge declined: %d, want 403", code)
	}
	code, game, msg := bob.answer(open.ID, "accept")
	if code != http.StatusOK || game == "" {
		t.Fatalf("bob accepts: %d %q", code, msg)
	}
	if code, _, _ := carol.answer(open.ID, "accept"); code != http.StatusConflict {
		t.Errorf("accepted again: %d, want 409", code)
	}
	// The game: Alice Black as she asked, both seated by their accounts,
	// rated, the challenge's clock.
	for _, c := range []struct {
		cl  *client
		you string
	}{{bob, "white"}, {alice, "black"}} {
		_, st, _ := c.cl.do("GET", "/api/games/"+game, nil)
		if st.You == nil || *st.You != c.you || st.Mode != "friend" || st.Size != 7 || st.Over {
			t.Errorf("the accepted game for %s: %+v", c.you, st)
		}
	}
	v := guest.rated(t, game)
	if !v.Rated || v.Players["white"].Name != "bob" || v.Players["black"].Name != "alice" || !v.Players["white"].Joined ||
		v.Players["white"].Rating != "1500?" || v.Players["black"].Rating != "1500?" || v.Clock == nil || v.Clock.InitialMS != 300000 || v.Clock.IncrementMS != 3000 {
		t.Errorf("the accepted game as a guest sees it: %+v", v)
	}
	// Alice's lobby says where her challenge went; the others no more
	// show it.
	if got, ok := alice.lobby(t).find(open.ID); !ok || got.Status != "accepted" || got.Game == nil || *got.Game != game {
		t.Errorf("alice's accepted challenge: %v %+v", ok, got)
	}
	if _, ok := carol.lobby(t).find(open.ID); ok {
		t.Errorf("carol still sees the accepted challenge")
	}

	// Withdrawn by its challenger alone.
	_, withdrawn := alice.challenge(with(blitz, "rated", false))
	if code, _, _ := bob.answer(withdrawn.ID, "cancel"); code != http.StatusForbidden {
		t.Errorf("withdrawn by another: %d, want 403", code)
	}
	if code, _, msg := alice.answer(withdrawn.ID, "cancel"); code != http.StatusOK {
		t.Errorf("withdrawn: %d %q", code, msg)
	}
	if _, ok := guest.lobby(t).find(withdrawn.ID); ok {
		t.Errorf("a withdrawn challenge is listed")
	}

	// Direct challenges: to Carol, named in any case; only she and
	// Alice see it, only Carol answers.
	corr := map[string]any{"size": 9, "days": 3, "to": "CAROL"}
	_, direct := alice.challenge(corr)
	if direct.To == nil || *direct.To != "Carol" || direct.Days != 3 || direct.Clock != nil || direct.Rated || direct.Color != "random" {
		t.Fatalf("direct challenge: %+v", direct)
	}
	if got, ok := carol.lobby(t).find(direct.ID); !ok || !got.ForYou {
		t.Errorf("carol sees her challenge: %v %+v", ok, got)
	}
	if _, ok := bob.lobby(t).find(direct.ID); ok {
		t.Errorf("bob sees carol's challenge")
	}
	for _, action := range []string{"accept", "decline"} {
		if code, _, _ := bob.answer(direct.ID, action); code != http.StatusForbidden {
			t.Errorf("bob does %s to carol's challenge: %d, want 403", action, code)
		}
	}
	if code, _, msg := carol.answer(direct.ID, "decline"); code != http.StatusOK {
		t.Errorf("carol declines: %d %q", code, msg)
	}
	if got, ok := alice.lobby(t).find(direct.ID); !ok || got.Status != "declined" {
		t.Errorf("alice's declined challenge: %v %+v", ok, got)
	}
	if code, _, _ := carol.answer(direct.ID, "accept"); code != http.StatusConflict {
		t.Errorf("accepted after declining: %d, want 409", code)
	}
	_, direct = alice.challenge(corr)
	code, game, msg = carol.answer(direct.ID, "accept")
	if code != http.StatusOK {
		t.Fatalf("carol accepts: %d %q", code, msg)
	}
	var cs struct {
		Correspondence *struct{ Days int } `json:"correspondence"`
		Rated          bool                `json:"rated"`
		Players        map[string]struct{ Name string }
	}
	carol.getJSON(t, "/api/games/"+game, &cs)
	if cs.Correspondence == nil || cs.Correspondence.Days != 3 || cs.Rated || cs.Players["white"].Name == cs.Players["black"].Name {
		t.Errorf("the accepted correspondence game: %+v", cs)
	}
	if code, _, _ := alice.answer("nosuch", "accept"); code != http.StatusNotFound {
		t.Errorf("accepting no challenge: %d, want 404", code)
	}
}

// TestChallengeExpires: a challenge waits LiveWait for its answer.
func TestChallengeExpires(t *testing.T) {
	e, _ := lobbyEnv(t, nil)
	alice, bob := signUp(t, e, "alice"), signUp(t, e, "bob")
	_, c := alice.challenge(blitz)
	e.now.Add(int64(31 * time.Minute))
	if _, ok := bob.lobby(t).find(c.ID); ok {
		t.Errorf("an expired challenge is listed")
	}
	if code, _, _ := bob.answer(c.ID, "accept"); code != http.StatusConflict {
		t.Errorf("accepting an expired challenge: %d, want 409", code)
	}
}

// lobbyEvents follows the lobby's events as c sees them.
func (c *client) lobbyEvents(t *testing.T) <-chan lobbyView {
	t.Helper()
	return events[lobbyView](t, c, "/api/lobby/events")
}

// waitLobby returns the first view of events that ok accepts.
func waitLobby(t *testing.T, what string, events <-chan lobbyView, ok func(lobbyView) bool) lobbyView {
	t.Helper()
	timeout := time.After(patience)
	for {
		select {
		case v := <-events:
			if ok(v) {
				return v
			}
		case <-timeout:
			t.Fatalf("no lobby event with %s within %v", what, patience)
		}
	}
}

func TestLobbyEvents(t *testing.T) {
	e, _ := lobbyEnv(t, nil)
	alice, bob := signUp(t, e, "alice"), signUp(t, e, "bob")
	toBob, toAlice := bob.lobbyEvents(t), alice.lobbyEvents(t)
	waitLobby(t, "the empty lobby", toBob, func(v lobbyView) bool { return v.Me != nil && v.Me.Name == "bob" && len(v.Challenges) == 0 })
	_, c := alice.challenge(blitz)
	waitLobby(t, "alice's challenge", toBob, func(v lobbyView) bool { _, ok := v.find(c.ID); return ok })
	_, game, _ := bob.answer(c.ID, "accept")
	waitLobby(t, "the game it became", toAlice, func(v lobbyView) bool {
		got, ok := v.find(c.ID)
		return ok && got.Status == "accepted" && got.Game != nil && *got.Game == game
	})
}

// playToResignation plays a few moves of the 7x7 game id, then the side
// resigner resigns.
func playToResignation(t *testing.T, white, black *client, id string, resigner *client) {
	t.Helper()
	for i, mv := range []string{"a1", "g7", "c1"} {
		cl := white
		if i%2 == 1 {
			cl = black
		}
		if code, st := cl.move(id, mv, i); code != http.StatusOK {
			t.Fatalf("move %s: %d %+v", mv, code, st)
		}
	}
	if code, st, _ := resigner.do("POST", "/api/games/"+id+"/resign", nil); code != http.StatusOK || !st.Over {
		t.Fatalf("resign: %d %+v", code, st)
	}
}

// ratedGame has bob accept a rated 7x7 challenge of alice's (she plays
// Black) and returns the game.
func ratedGame(t *testing.T, alice, bob *client) string {
	t.Helper()
	return acceptedGame(t, alice, bob, blitz)
}

// acceptedGame has to accept the challenge of from that body asks for,
// and returns the game.
func acceptedGame(t *testing.T, from, to *client, body map[string]any) string {
	t.Helper()
	code, c := from.challenge(body)
	if code != http.StatusCreated {
		t.Fatalf("challenge: %d %+v", code, c)
	}
	code, game, msg := to.answer(c.ID, "accept")
	if code != http.StatusOK {
		t.Fatalf("accept: %d %q", code, msg)
	}
	return game
}

func TestRatedGames(t *testing.T) {
	e, st := lobbyEnv(t, nil)
	ratedGamesTest(t, e, st)
}

// ratedGamesTest plays two rated games and a rematch, and checks the
// ratings against rating.Update, exactly, game after game, and the pages'
// figures.
func ratedGamesTest(t *testing.T, e *env, st ratings.Store) {
	ctx := context.Background()
	alice, bob := signUp(t, e, "alice"), signUp(t, e, "bob")
	var users [2]int64 // alice's, bob's
	pool := ratings.Pool{Size: 7, Speed: ratings.Live}
	// expect checks the stored ratings after game, in which aliceScore
	// was Alice's, against rating.Update from those before, and the
	// figures of the game's page.
	before := [2]rating.Rating{rating.Default(), rating.Default()}
	expect := func(game string, aliceColor string, aliceScore float64) {
		t.Helper()
		changes, err := st.Changes(ctx, game)
		if err != nil || len(changes) != 2 {
			t.Fatalf("changes of %s: %+v, %v", game, changes, err)
		}
		ai := 0
		if aliceColor == "black" {
			ai = 1
		}
		users[0], users[1] = changes[ai].User, changes[1-ai].User
		wa, wb := rating.Update(before[0], before[1], aliceScore, changes[0].At)
		for i, want := range []rating.Rating{wa, wb} {
			got, err := st.Ratings(ctx, users[i])
			if err != nil || len(got) != 1 || got[0].Pool != pool || got[0].Rating != want {
				t.Errorf("%s: ratings of player %d: %+v, %v; want %+v", game, i, got, err, want)
			}
		}
		v := bob.rated(t, game)
		for i, c := range []string{aliceColor, map[string]string{"white": "black", "black": "white"}[aliceColor]} {
			want := []rating.Rating{wa, wb}[i]
			diff := int(math.Round(want.Rating - before[i].Rating))
			p := v.Players[c]
			if p.Rating != want.String() || p.RatingDiff == nil || *p.RatingDiff != diff {
				t.Errorf("%s: the page shows %s at %q %v, want %q %+d", game, c, p.Rating, p.RatingDiff, want.String(), diff)
			}
		}
		before = [2]rating.Rating{wa, wb}
	}

	// Game 1: Alice (Black) resigns.
	g1 := ratedGame(t, alice, bob)
	if v := alice.rated(t, g1); v.Players["black"].RatingDiff != nil {
		t.Errorf("a change before the end: %+v", v)
	}
	playToResignation(t, bob, alice, g1, alice)
	expect(g1, "black", 0)

	// Nothing after the end rates the game again: actions refused, and a
	// restart of the server on the same store.
	for _, path := range []string{"resign", "abort"} {
		if code, _, _ := bob.do("POST", "/api/games/"+g1+"/"+path, nil); code != http.StatusConflict {
			t.Errorf("%s after the end: %d, want 409", path, code)
		}
	}
	if got, _ := st.Ratings(ctx, users[0]); len(got) != 1 || got[0].Rating.Games != 1 {
		t.Errorf("after the end, alice's ratings: %+v", got)
	}

	// Game 2, the rematch: Bob offers, Alice accepts; the colours swap
	// (Alice White), the settings stay. Alice wins on the board... by
	// Bob's resignation.
	code, v, msg := bob.rematch(g1, "offer")
	if code != http.StatusOK || v.Rematch == nil || v.Rematch.By != "white" || v.Rematch.Status != "pending" {
		t.Fatalf("rematch offered: %d %q %+v", code, msg, v.Rematch)
	}
	if v := alice.rated(t, g1); v.Rematch == nil || v.Rematch.Status != "pending" {
		t.Errorf("alice does not see the rematch: %+v", v.Rematch)
	}
	if code, _, _ := e.client().rematch(g1, "accept"); code != http.StatusForbidden {
		t.Errorf("a watcher accepts the rematch: %d, want 403", code)
	}
	if code, _, _ := bob.rematch(g1, "accept"); code != http.StatusForbidden {
		t.Errorf("bob accepts his own rematch: %d, want 403", code)
	}
	code, v, msg = alice.rematch(g1, "accept")
	if code != http.StatusOK || v.Rematch == nil || v.Rematch.Status != "accepted" || v.Rematch.Game == nil {
		t.Fatalf("rematch accepted: %d %q %+v", code, msg, v.Rematch)
	}
	g2 := *v.Rematch.Game
	if v := bob.rated(t, g1); v.Rematch == nil || v.Rematch.Game == nil || *v.Rematch.Game != g2 {
		t.Errorf("bob's page of the first game does not lead to the rematch: %+v", v.Rematch)
	}
	v = bob.rated(t, g2)
	if !v.Rated || v.Players["white"].Name != "alice" || v.Players["black"].Name != "bob" || v.Clock == nil || v.Clock.InitialMS != 300000 {
		t.Errorf("the rematch: %+v", v)
	}
	playToResignation(t, alice, bob, g2, bob)
	expect(g2, "white", 1)

	// Game 3: both offer a rematch, which is an agreement; then a draw.
	bob.rematch(g2, "offer")
	if code, _, _ := bob.rematch(g2, "offer"); code != http.StatusOK {
		t.Errorf("offering twice: %d", code)
	}
	_, v, _ = alice.rematch(g2, "offer")
	if v.Rematch == nil || v.Rematch.Status != "accepted" || v.Rematch.Game == nil {
		t.Fatalf("two offers make no game: %+v", v.Rematch)
	}
	g3 := *v.Rematch.Game
	white, black := bob, alice // colours swapped again
	white.move(g3, "a1", 0)
	black.move(g3, "g7", 1)
	white.do("POST", "/api/games/"+g3+"/draw", map[string]any{"action": "offer"})
	if code, st, _ := black.do("POST", "/api/games/"+g3+"/draw", map[string]any{"action": "accept"}); code != http.StatusOK || st.Result != "1/2-1/2" {
		t.Fatalf("draw: %d %+v", code, st)
	}
	expect(g3, "black", 0.5)

	// A declined rematch, then withdrawn ones: no game.
	_, v, _ = alice.rematch(g3, "offer")
	if code, v2, msg := bob.rematch(g3, "decline"); code != http.StatusOK || v2.Rematch == nil || v2.Rematch.Status != "declined" {
		t.Errorf("declined: %d %q %+v", code, msg, v2.Rematch)
	}
	alice.rematch(g3, "offer")
	if code, v2, _ := alice.rematch(g3, "cancel"); code != http.StatusOK || v2.Rematch == nil || v2.Rematch.Status != "cancelled" {
		t.Errorf("withdrawn: %d %+v", code, v2.Rematch)
	}
	// An aborted rated game is not rated.
	g4 := ratedGame(t, alice, bob)
	if code, st, _ := bob.do("POST", "/api/games/"+g4+"/abort", nil); code != http.StatusOK || st.Reason != "aborted" {
		t.Fatalf("abort: %d %+v", code, st)
	}
	if changes, _ := st.Changes(ctx, g4); len(changes) != 0 {
		t.Errorf("an aborted game was rated: %+v", changes)
	}
	if got, _ := st.Ratings(ctx, users[0]); len(got) != 1 || got[0].Rating.Games != 3 {
		t.Errorf("after three rated games and an aborted one, alice has %+v", got)
	}
}

// failingFinish is a store whose Finish fails while fail is set, as a
// database that goes away at the end of a game.
type failingFinish struct {
	*sqlstore.DB
	fail atomic.Bool
}

func (f *failingFinish) Finish(ctx context.Context, g *store.Game, keep int, rated ratings.Game) ([2]ratings.Change, error) {
	if f.fail.Load() {
		return [2]ratings.Change{}, errors.New("the database is gone")
	}
	return f.DB.Finish(ctx, g, keep, rated)
}

// TestRatedOnceWithItsEnd: the end of a rated game and its rating are
// one write: when it fails, the game goes on, unrated, and the player's
// retry ends and rates it, once; a server started again on the same
// store rates nothing again.
func TestRatedOnceWithItsEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	sq, err := sqlstore.OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	st := &failingFinish{DB: sq}
	e, _ := lobbyEnv(t, st)
	alice, bob := signUp(t, e, "alice"), signUp(t, e, "bob")
	g := ratedGame(t, alice, bob)
	bob.move(g, "a1", 0)
	alice.move(g, "g7", 1)
	st.fail.Store(true)
	if code, _, _ := alice.do("POST", "/api/games/"+g+"/resign", nil); code != http.StatusServiceUnavailable {
		t.Errorf("resigning while the store fails: %d, want 503", code)
	}
	_, s, _ := alice.do("GET", "/api/games/"+g, nil)
	if s.Over {
		t.Errorf("the game ended without its rating: %+v", s)
	}
	if changes, _ := sq.Changes(context.Background(), g); len(changes) != 0 {
		t.Errorf("rated without its end: %+v", changes)
	}
	st.fail.Store(false)
	if code, s, _ := alice.do("POST", "/api/games/"+g+"/resign", nil); code != http.StatusOK || !s.Over {
		t.Fatalf("resigning again: %d %+v", code, s)
	}
	changes, _ := sq.Changes(context.Background(), g)
	if len(changes) != 2 {
		t.Fatalf("changes after the end: %+v", changes)
	}
	// Another server on the same data rates nothing again.
	e.srv.Close()
	sq2, err := sqlstore.OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	e2, _ := lobbyEnv(t, sq2)
	if v := e2.client().rated(t, g); v.Players["black"].RatingDiff == nil || *v.Players["black"].RatingDiff != int(math.Round(changes[1].Diff())) {
		t.Errorf("after a restart the page shows %+v", v.Players)
	}
	entries, _ := sq2.Ratings(context.Background(), changes[0].User)
	if len(entries) != 1 || entries[0].Rating.Games != 1 {
		t.Errorf("after a restart: %+v", entries)
	}
}

// TestGuestRematch: two guests who played a friend game may play again,
// by their browsers; a casual game, rated by nobody.
func TestGuestRematch(t *testing.T) {
	e, _ := lobbyEnv(t, nil)
	id, a, b := friendGame(t, e, map[string]any{"clock": map[string]any{"initial": 60, "increment": 1}})
	if code, _, _ := a.rematch(id, "offer"); code != http.StatusConflict {
		t.Errorf("a rematch before the end: %d, want 409", code)
	}
	a.move(id, "a1", 0)
	b.move(id, "g7", 1)
	b.do("POST", "/api/games/"+id+"/resign", nil)
	if code, v, msg := a.rematch(id, "offer"); code != http.StatusOK || v.Rematch == nil || v.Rematch.By != "white" {
		t.Fatalf("offer: %d %q %+v", code, msg, v.Rematch)
	}
	if code, _, _ := e.client().rematch(id, "accept"); code != http.StatusForbidden {
		t.Errorf("a third browser accepts: %d, want 403", code)
	}
	code, v, msg := b.rematch(id, "accept")
	if code != http.StatusOK || v.Rematch == nil || v.Rematch.Game == nil {
		t.Fatalf("accept: %d %q %+v", code, msg, v.Rematch)
	}
	_, st, _ := b.do("GET", "/api/games/"+*v.Rematch.Game, nil)
	if st.You == nil || *st.You != "white" || st.Size != 7 {
		t.Errorf("the guests' rematch: %+v", st)
	}
	if v := b.rated(t, *v.Rematch.Game); v.Rated || v.Players["white"].Rating != "" {
		t.Errorf("the guests' rematch shows ratings: %+v", v)
	}
	// Against the engine there is no rematch, and no rating.
	eng := a.create(t, map[string]any{"mode": "engine", "size": 7, "level": 1})
	a.do("POST", "/api/games/"+eng.ID+"/resign", nil)
	if code, _, _ := a.rematch(eng.ID, "offer"); code != http.StatusConflict {
		t.Errorf("a rematch of the engine: %d, want 409", code)
	}
}

func TestEngineLevels(t *testing.T) {
	e := newEnv(t, server.Config{})
	var out struct {
		Levels []struct {
			Level               int
			Elo, Margin, Rating float64
		}
	}
	e.client().getJSON(t, "/api/engines", &out)
	if len(out.Levels) != player.MaxLevel {
		t.Fatalf("%d levels, want %d", len(out.Levels), player.MaxLevel)
	}
	for i, l := range out.Levels {
		m := player.LevelElo[i+1]
		if l.Level != i+1 || l.Elo != m.Elo || l.Margin != m.Margin() || l.Rating != rating.EngineRating(m.Elo) {
			t.Errorf("level %d: %+v, want Elo %v ± %v, rating %v", i+1, l, m.Elo, m.Margin(), rating.EngineRating(m.Elo))
		}
		// Each level is stronger than the one below, on both scales.
		if i > 0 && (l.Elo <= out.Levels[i-1].Elo || l.Rating <= out.Levels[i-1].Rating) {
			t.Errorf("level %d (%+v) is not above level %d (%+v)", i+1, l, i, out.Levels[i-1])
		}
	}
}
