package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"emergo/account"
	"emergo/server"
	"emergo/store/sqlstore"
	"emergo/throttle"
)

// lineView is a chat line as the API says it.
type lineView struct {
	ID   int64     `json:"id"`
	User string    `json:"user"`
	Room string    `json:"room"`
	Text string    `json:"text"`
	Time time.Time `json:"time"`
	// Code is the error's, when the answer is one.
	Code string `json:"code"`
}

// chatEnv is a server with accounts and chat on a fresh SQLite store,
// and the store.
func chatEnv(t *testing.T, cfg server.Config) (*env, *sqlstore.DB) {
	t.Helper()
	st, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Store = st
	return accountEnv(t, cfg), st
}

// chatGame is a game between alice (White) and bob, accounts, made by
// a direct challenge on e.
func chatGame(t *testing.T, e *env) (id string, alice, bob *client) {
	t.Helper()
	alice, bob = signUp(t, e, "alice"), signUp(t, e, "bob")
	code, c := alice.challenge(with(blitz, "to", "bob", "color", "white"))
	if code != http.StatusCreated {
		t.Fatalf("challenge: %d", code)
	}
	code, id, msg := bob.answer(c.ID, "accept")
	if code != http.StatusOK {
		t.Fatalf("accept: %d %s", code, msg)
	}
	return id, alice, bob
}

// say posts text to the room of game id as c, and returns the status and
// the line or error answered.
func (c *client) say(id, room, text string) (int, lineView) {
	c.e.t.Helper()
	body := map[string]any{"text": text}
	if room != "" {
		body["room"] = room
	}
	resp, data := c.send("POST", "/api/games/"+id+"/chat", body)
	var l lineView
	json.Unmarshal(data, &l)
	return resp.StatusCode, l
}

// mustSay posts text as say does, and fails the test unless it is
// taken.
func (c *client) mustSay(t *testing.T, id, room, text string) lineView {
	t.Helper()
	code, l := c.say(id, room, text)
	if code != http.StatusCreated {
		t.Fatalf("chat %q: %d %s", text, code, l.Code)
	}
	return l
}

// chatEvents follows the chat events of game id's stream as c sees them.
func chatEvents(t *testing.T, c *client, id string) <-chan lineView {
	t.Helper()
	req, _ := http.NewRequest("GET", c.e.ts.URL+"/api/games/"+id+"/events", nil)
	resp, err := c.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	out := make(chan lineView, 64)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		event := ""
		for sc.Scan() {
			line := sc.Text()
			if name, ok := strings.CutPrefix(line, "event: "); ok {
				event = name
			} else if data, ok := strings.CutPrefix(line, "data: "); ok && event == "chat" {
				var l lineView
				json.Unmarshal([]byte(data), &l)
				out <- l
			}
		}
	}()
	return out
}

// nextLine returns the next line of events, failing the test if none
// comes within patience.
func nextLine(t *testing.T, who string, events <-chan lineView) lineView {
	t.Helper()
	return await(t, "a chat line for "+who, events, func(lineView) bool { return true })
}

// lines is GET /api/games/{id}/chat as c sees it: the texts.
func (c *client) lines(t *testing.T, id string) []string {
	t.Helper()
	var out struct{ Lines []lineView }
	c.getJSON(t, "/api/games/"+id+"/chat", &out)
	texts := []string{}
	for _, l := range out.Lines {
		texts = append(texts, l.Text)
	}
	return texts
}

// postCode posts body to path as c and returns the status and the error
// code answered ("" for none).
func (c *client) postCode(path string, body any) (int, string) {
	c.e.t.Helper()
	resp, data := c.send("POST", path, body)
	var e struct{ Code string }
	json.Unmarshal(data, &e)
	return resp.StatusCode, e.Code
}

// TestChatReachesTheOpponent: a line of a player's reaches the other's
// event stream, in the players' room, and no spectator's; a spectator's
// line reaches the spectators and not the players while the game goes
// on; a page opened later gets the lines it may read.
func TestChatReachesTheOpponent(t *testing.T) {
	e, _ := chatEnv(t, server.Config{})
	id, alice, bob := chatGame(t, e)
	carol := signUp(t, e, "carol")
	guest := e.client()
	toBob, toCarol, toGuest := chatEvents(t, bob, id), chatEvents(t, carol, id), chatEvents(t, guest, id)

	sent := alice.mustSay(t, id, "", "good luck")
	if sent.User != "alice" || sent.Room != "players" || sent.Text != "good luck" || sent.ID == 0 {
		t.Errorf("the line answered: %+v", sent)
	}
	if got := nextLine(t, "bob", toBob); got != sent {
		t.Errorf("bob's stream: %+v, want %+v", got, sent)
	}
	watched := carol.mustSay(t, id, "spectators", "nice opening")
	if got := nextLine(t, "carol", toCarol); got != watched {
		t.Errorf("carol's stream: %+v, want her own line %+v (and not the players')", got, watched)
	}
	if got := nextLine(t, "a guest", toGuest); got != watched {
		t.Errorf("a guest's stream: %+v, want %+v", got, watched)
	}
	bob.mustSay(t, id, "players", "gl")
	if got := nextLine(t, "bob", toBob); got.Text != "gl" {
		t.Errorf("bob's stream after a spectator's line: %+v, want his own next line, not the spectator's", got)
	}
	if got := strings.Join(alice.lines(t, id), "|"); got != "good luck|gl" {
		t.Errorf("alice's page opened later reads %q", got)
	}
	if got := strings.Join(guest.lines(t, id), "|"); got != "nice opening" {
		t.Errorf("a guest's page opened later reads %q", got)
	}
	// A stream opened later begins with the lines its viewer reads.
	if got := nextLine(t, "alice", chatEvents(t, alice, id)); got != sent {
		t.Errorf("alice's stream opened later begins with %+v, want %+v", got, sent)
	}
}

// TestChatWhoWrites: a guest reads but does not write; a spectator does
// not write in the players' room, nor a player in the spectators' while
// the game goes on, but after it he does; an unknown room is refused.
func TestChatWhoWrites(t *testing.T) {
	e, _ := chatEnv(t, server.Config{})
	id, alice, bob := chatGame(t, e)
	carol := signUp(t, e, "carol")
	for _, tt := range []struct {
		name       string
		c          *client
		room       string
		status     int
		code, text string
	}{
		{"a guest", e.client(), "spectators", http.StatusForbidden, "chat.log_in", "hi"},
		{"a spectator among the players", carol, "players", http.StatusForbidden, "chat.not_player", "hi"},
		{"a player among the spectators", alice, "spectators", http.StatusForbidden, "chat.playing", "hi"},
		{"no such room", alice, "everyone", http.StatusBadRequest, "request.invalid", "hi"},
	} {
		if code, l := tt.c.say(id, tt.room, tt.text); code != tt.status || l.Code != tt.code {
			t.Errorf("%s: %d %s, want %d %s", tt.name, code, l.Code, tt.status, tt.code)
		}
	}
	if code, l := alice.say("nope", "", "hi"); code != http.StatusNotFound || l.Code != "game.not_found" {
		t.Errorf("a line in no game: %d %s", code, l.Code)
	}
	if code, _, _ := bob.do("POST", "/api/games/"+id+"/resign", nil); code != http.StatusOK {
		t.Fatalf("resign: %d", code)
	}
	alice.mustSay(t, id, "spectators", "thanks for watching")
	if got := strings.Join(carol.lines(t, id), "|"); got != "thanks for watching" {
		t.Errorf("carol reads %q after the game", got)
	}
	// Once the game is over a player reads the spectators' room too.
	if got := strings.Join(bob.lines(t, id), "|"); got != "thanks for watching" {
		t.Errorf("bob reads %q after the game", got)
	}
}

// TestChatCleaned: a line is cleaned of control and bidirectional
// characters, kept as text (a link or markup as written, for the page to
// show as text), at most 140 characters.
func TestChatCleaned(t *testing.T) {
	e, _ := chatEnv(t, server.Config{ChatRate: throttle.Limit{Every: -1}})
	id, alice, _ := chatGame(t, e)
	for _, tt := range []struct{ in, want string }{
		{"\u202egg\u202c  wp\u2066!\u2069", "gg wp!"},
		{"a\u200e\u200fb\x00c\x1b[31m", "abc[31m"},
		{"see https://example.com <b>bold</b>", "see https://example.com <b>bold</b>"},
		{strings.Repeat("ж", 140), strings.Repeat("ж", 140)},
	} {
		if got := alice.mustSay(t, id, "", tt.in); got.Text != tt.want {
			t.Errorf("%q was kept as %q, want %q", tt.in, got.Text, tt.want)
		}
	}
	for _, tt := range []struct{ in, code string }{
		{strings.Repeat("ж", 141), "chat.too_long"},
		{" \u202e\u200b ", "chat.empty"},
	} {
		if code, l := alice.say(id, "", tt.in); code != http.StatusBadRequest || l.Code != tt.code {
			t.Errorf("%q: %d %s, want 400 %s", tt.in, code, l.Code, tt.code)
		}
	}
}

// TestChatBounds: an account's lines beyond its burst are refused until
// its bucket drains (429 with Retry-After), another's are not; so are
// the reports beyond an account's ten.
func TestChatBounds(t *testing.T) {
	e, st := chatEnv(t, server.Config{ChatRate: throttle.Limit{Burst: 2, Every: time.Hour}})
	id, alice, bob := chatGame(t, e)
	alice.mustSay(t, id, "", "one")
	alice.mustSay(t, id, "", "two")
	resp, data := alice.send("POST", "/api/games/"+id+"/chat", map[string]any{"text": "three"})
	var l lineView
	json.Unmarshal(data, &l)
	if resp.StatusCode != http.StatusTooManyRequests || l.Code != "chat.too_fast" || resp.Header.Get("Retry-After") == "" {
		t.Errorf("a third line at once: %d %s (Retry-After %q), want 429 chat.too_fast", resp.StatusCode, data, resp.Header.Get("Retry-After"))
	}
	bob.mustSay(t, id, "", "mine is mine")
	e.now.Add(int64(time.Hour))
	alice.mustSay(t, id, "", "three, an hour later")

	for i := range 10 {
		if code, msg := alice.postCode("/api/users/bob/report", map[string]any{"reason": "spam", "game": id}); code != http.StatusCreated {
			t.Fatalf("report %d: %d %s", i+1, code, msg)
		}
	}
	if code, msg := alice.postCode("/api/users/bob/report", map[string]any{"reason": "spam"}); code != http.StatusTooManyRequests || msg != "report.too_fast" {
		t.Errorf("an eleventh report at once: %d %s, want 429 report.too_fast", code, msg)
	}
	reports, err := st.Reports(context.Background(), 20)
	if err != nil || len(reports) != 10 || reports[0].ByName != "alice" || reports[0].AboutName != "bob" || reports[0].Game != id || reports[0].Reason != "spam" {
		t.Errorf("the reports kept for the moderators: %+v, %v", reports, err)
	}
	for _, tt := range []struct {
		body         map[string]any
		status       int
		code, reason string
	}{
		{map[string]any{"reason": " \u202e "}, http.StatusBadRequest, "report.no_reason", "no reason"},
		{map[string]any{"reason": "x", "game": "nope"}, http.StatusNotFound, "game.not_found", "no such game"},
	} {
		if code, msg := bob.postCode("/api/users/alice/report", tt.body); code != tt.status || msg != tt.code {
			t.Errorf("a report with %s: %d %s, want %d %s", tt.reason, code, msg, tt.status, tt.code)
		}
	}
}

// TestBlock: once bob blocks alice, her lines no longer reach him, on
// the stream he had open too, nor his page opened later, and her
// challenges are not shown to him; she is told nothing (her lines and
// challenges are taken as ever). Unblocked, she is heard again.
func TestBlock(t *testing.T) {
	e, _ := chatEnv(t, server.Config{ChatRate: throttle.Limit{Every: -1}})
	id, alice, bob := chatGame(t, e)
	toBob := chatEvents(t, bob, id)
	alice.mustSay(t, id, "", "before")
	if got := nextLine(t, "bob", toBob); got.Text != "before" {
		t.Fatalf("bob's stream: %+v", got)
	}
	if code, msg := bob.postCode("/api/users/alice/block", nil); code != http.StatusOK {
		t.Fatalf("block: %d %s", code, msg)
	}
	alice.mustSay(t, id, "", "after")
	// Lines come in their order: bob's own next line is the first he
	// gets if hers was held back.
	bob.mustSay(t, id, "", "mine")
	if got := nextLine(t, "bob", toBob); got.Text != "mine" {
		t.Errorf("bob's open stream after the block: %+v, want his own line, not hers", got)
	}
	if got := strings.Join(bob.lines(t, id), "|"); got != "mine" {
		t.Errorf("bob's page opened after the block reads %q", got)
	}
	if got := strings.Join(alice.lines(t, id), "|"); got != "before|after|mine" {
		t.Errorf("alice reads %q: she must see her lines as ever", got)
	}
	code, c := alice.challenge(with(blitz, "to", "bob"))
	if code != http.StatusCreated {
		t.Errorf("alice's challenge to bob who blocks her: %d, want it taken as any", code)
	}
	if _, shown := bob.lobby(t).find(c.ID); shown {
		t.Error("bob's lobby shows the challenge of alice, whom he blocks")
	}

	for _, tt := range []struct {
		c          *client
		path, code string
		status     int
	}{
		{bob, "/api/users/bob/block", "chat.self", http.StatusBadRequest},
		{bob, "/api/users/nobody/block", "player.not_found", http.StatusNotFound},
		{e.client(), "/api/users/alice/block", "chat.log_in", http.StatusForbidden},
	} {
		if code, msg := tt.c.postCode(tt.path, nil); code != tt.status || msg != tt.code {
			t.Errorf("%s: %d %s, want %d %s", tt.path, code, msg, tt.status, tt.code)
		}
	}

	if code, msg := bob.postCode("/api/users/alice/unblock", nil); code != http.StatusOK {
		t.Fatalf("unblock: %d %s", code, msg)
	}
	alice.mustSay(t, id, "", "heard again")
	if got := nextLine(t, "bob", toBob); got.Text != "heard again" {
		t.Errorf("bob's stream after the unblock: %+v", got)
	}
}

// TestMute: a moderator mutes an account, whose lines are then shown to
// him alone (he is told nothing); someone else may not mute.
func TestMute(t *testing.T) {
	e, st := chatEnv(t, server.Config{ChatRate: throttle.Limit{Every: -1}})
	id, alice, bob := chatGame(t, e)
	mod := signUp(t, e, "marta")
	if err := serverSetModerator(st, "marta"); err != nil {
		t.Fatal(err)
	}
	if code, msg := bob.postCode("/api/users/alice/mute", nil); code != http.StatusForbidden || msg != "moderation.forbidden" {
		t.Errorf("a mute by bob: %d %s, want 403 moderation.forbidden", code, msg)
	}
	if code, msg := mod.postCode("/api/users/alice/mute", nil); code != http.StatusOK {
		t.Fatalf("mute: %d %s", code, msg)
	}
	toAlice, toBob := chatEvents(t, alice, id), chatEvents(t, bob, id)
	alice.mustSay(t, id, "", "muted words")
	if got := nextLine(t, "alice", toAlice); got.Text != "muted words" {
		t.Errorf("alice's own stream: %+v, want her line", got)
	}
	bob.mustSay(t, id, "", "bob's")
	if got := nextLine(t, "bob", toBob); got.Text != "bob's" {
		t.Errorf("bob's stream: %+v, want his line, not the muted one", got)
	}
	if code, msg := mod.postCode("/api/users/alice/unmute", nil); code != http.StatusOK {
		t.Fatalf("unmute: %d %s", code, msg)
	}
	alice.mustSay(t, id, "", "heard")
	if got := nextLine(t, "bob", toBob); got.Text != "heard" {
		t.Errorf("bob's stream after the unmute: %+v", got)
	}
}

// serverSetModerator makes the account name a moderator in st, as
// emergo admin does.
func serverSetModerator(st *sqlstore.DB, name string) error {
	u, err := st.UserByKey(context.Background(), account.Key(name))
	if err != nil {
		return err
	}
	return st.SetModerator(context.Background(), u.ID, true)
}

// chatAcrossServers: a line posted on A reaches a player's stream and a
// spectator's on B, and a block made on A takes effect on the blocker's
// stream open on B.
func chatAcrossServers(t *testing.T, c *cluster) {
	id, alice, bob := chatGame(t, c.a)
	carol := signUp(t, c.a, "carol")
	toBob := chatEvents(t, bob.on(c.b), id)
	toCarol := chatEvents(t, carol.on(c.b), id)
	sent := alice.mustSay(t, id, "", "across")
	if got := nextLine(t, "bob on B", toBob); got != sent {
		t.Errorf("bob's stream on B: %+v, want %+v", got, sent)
	}
	watched := carol.mustSay(t, id, "spectators", "watching")
	if got := nextLine(t, "carol on B", toCarol); got != watched {
		t.Errorf("carol's stream on B: %+v, want %+v", got, watched)
	}
	if code, msg := bob.postCode("/api/users/alice/block", nil); code != http.StatusOK {
		t.Fatalf("block on A: %d %s", code, msg)
	}
	// The block is announced before her next line, and B takes the
	// chat's changes in their order: it holds there before her line
	// comes.
	alice.mustSay(t, id, "", "hers again")
	bob.mustSay(t, id, "", "his again")
	if got := nextLine(t, "bob on B", toBob); got.Text != "his again" {
		t.Errorf("bob's stream on B after the block: %+v", got)
	}
}

// TestChatCluster: the chat on two servers sharing a store, as one site.
func TestChatCluster(t *testing.T) {
	for _, kind := range clusterKinds {
		t.Run(kind.name, func(t *testing.T) {
			kind.check(t)
			chatAcrossServers(t, newCluster(t, kind, func(c *server.Config) { c.ChatRate = throttle.Limit{Every: -1} }))
		})
	}
}
