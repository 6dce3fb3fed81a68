package server_test

import (
	"bufio"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"emergo/account"
	"emergo/server"
	"emergo/throttle"
)

// bearerTransport sends every request with an Authorization: Bearer
// header, as a program does.
type bearerTransport struct{ token string }

func (t bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+t.token)
	return http.DefaultTransport.RoundTrip(r)
}

// program is a client that sends token and keeps no cookie of its own
// but those the site sets (a program's HTTP client may keep them).
func (e *env) program(token string) *client {
	jar, _ := cookiejar.New(nil)
	return &client{e: e, c: &http.Client{Jar: jar, Timeout: patience, Transport: bearerTransport{token}}}
}

// tokenView is an API token as the API answers it.
type tokenView struct {
	ID          string   `json:"id"`
	Token       string   `json:"token"`
	Description string   `json:"description"`
	Scopes      []string `json:"scopes"`
	Code        string   `json:"code"`
}

// newToken makes a token of c's account with scopes (all for none).
func (c *client) newToken(t *testing.T, scopes ...string) tokenView {
	t.Helper()
	body := map[string]any{"description": "test"}
	if scopes != nil {
		body["scopes"] = scopes
	}
	code, _, raw := c.do("POST", "/api/account/tokens", body)
	var tv tokenView
	json.Unmarshal([]byte(raw), &tv)
	if code != http.StatusCreated || !strings.HasPrefix(tv.Token, account.TokenPrefix) {
		t.Fatalf("new token: %d %s", code, raw)
	}
	return tv
}

// errCode is the code of an error answer.
func errCode(raw string) string {
	var e struct{ Code string }
	json.Unmarshal([]byte(raw), &e)
	return e.Code
}

// expect checks a request's status and error code ("" for none).
func expect(t *testing.T, what string, c *client, method, path string, body any, status int, code string, hdr ...string) string {
	t.Helper()
	got, _, raw := c.do(method, path, body, hdr...)
	if got != status || errCode(raw) != code {
		t.Errorf("%s: %d %s, want %d %q", what, got, raw, status, code)
	}
	return raw
}

// liveGame makes a rated 7x7 game of from (who challenges) and to (who
// accepts) at 1+1, and returns its ID.
func liveGame(t *testing.T, from, to *client, toName string, extra ...any) string {
	t.Helper()
	body := map[string]any{"to": toName, "size": 7, "rated": true, "color": "white", "clock": map[string]any{"initial": 60, "increment": 1}}
	for i := 0; i+1 < len(extra); i += 2 {
		body[extra[i].(string)] = extra[i+1]
	}
	code, v := from.challenge(body)
	if code != http.StatusCreated {
		t.Fatalf("challenge %s: %d %s", toName, code, v.Error)
	}
	code, _, raw := to.do("POST", "/api/challenges/"+v.ID+"/accept", nil)
	var out struct{ Game string }
	json.Unmarshal([]byte(raw), &out)
	if code != http.StatusOK || out.Game == "" {
		t.Fatalf("accept: %d %s", code, raw)
	}
	return out.Game
}

func TestTokens(t *testing.T) {
	logs := &syncBuffer{}
	e := accountEnv(t, server.Config{
		Logger:  slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Account: account.Config{Params: cheapHashing.Params, Limits: account.Limits{LoginAddress: throttle.Limit{Burst: 3, Every: time.Hour}}},
	})
	alice, bob := signUp(t, e, "alice"), signUp(t, e, "bob")
	all := alice.newToken(t)
	if len(all.Scopes) != len(account.Scopes) {
		t.Errorf("a token asked for without scopes holds %v, want %v", all.Scopes, account.Scopes)
	}
	board := alice.newToken(t, account.ScopeBoardPlay)
	prog := e.program(all.Token)

	t.Run("ActsAsItsAccount", func(t *testing.T) {
		_, _, raw := prog.do("GET", "/api/account/me", nil)
		if !strings.Contains(raw, `"name":"alice"`) {
			t.Errorf("me with alice's token: %s", raw)
		}
		raw = expect(t, "the list", alice, "GET", "/api/account/tokens", nil, http.StatusOK, "")
		if strings.Contains(raw, all.Token) || !strings.Contains(raw, all.ID) {
			t.Errorf("the list of tokens shows a secret, or not the token: %s", raw)
		}
	})
	t.Run("CrossOrigin", func(t *testing.T) {
		foreign := []string{"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"}
		body := map[string]any{"size": 7, "clock": map[string]any{"initial": 60, "increment": 0}}
		expect(t, "a browser's cross-origin challenge", alice, "POST", "/api/challenges", body, http.StatusForbidden, "request.cross_origin", foreign...)
		expect(t, "a program's", prog, "POST", "/api/challenges", body, http.StatusCreated, "", foreign...)
		expect(t, "a wrong token's", e.program("emg_nothing"), "POST", "/api/challenges", body, http.StatusUnauthorized, "token.invalid", foreign...)
	})
	t.Run("Scopes", func(t *testing.T) {
		narrow := e.program(board.Token)
		expect(t, "a challenge with board:play alone", narrow, "POST", "/api/challenges", map[string]any{"to": "bob", "clock": map[string]any{"initial": 60}},
			http.StatusForbidden, "token.scope")
		expect(t, "the bot upgrade with board:play alone", narrow, "POST", "/api/bot/account/upgrade", nil, http.StatusForbidden, "token.scope")
		expect(t, "a token made with a token", prog, "POST", "/api/account/tokens", map[string]any{}, http.StatusForbidden, "token.session_only")
		expect(t, "an unknown scope", alice, "POST", "/api/account/tokens", map[string]any{"scopes": []string{"admin"}}, http.StatusBadRequest, "request.invalid")
		id := liveGame(t, bob, alice, "alice")
		expect(t, "a move with board:play", narrow, "POST", "/api/games/"+id+"/move", map[string]any{"move": "zz", "ply": 0}, http.StatusConflict, "game.not_your_turn")
		chal := e.program(alice.newToken(t, account.ScopeChallengeWrite).Token)
		expect(t, "a move with challenge:write alone", chal, "POST", "/api/games/"+id+"/resign", nil, http.StatusForbidden, "token.scope")
	})
	t.Run("NotForAnotherAccount", func(t *testing.T) {
		carol := signUp(t, e, "carol")
		carolProg := e.program(carol.newToken(t).Token)
		id := liveGame(t, alice, bob, "bob")
		expect(t, "carol's token resigns alice's game", carolProg, "POST", "/api/games/"+id+"/resign", nil, http.StatusForbidden, "game.not_playing")
		expect(t, "carol revokes alice's token", carol, "DELETE", "/api/account/tokens/"+all.ID, nil, http.StatusNotFound, "token.not_found")
		expect(t, "alice's token after", prog, "GET", "/api/account/me", nil, http.StatusOK, "")
	})
	t.Run("Bound", func(t *testing.T) {
		dave := signUp(t, e, "dave")
		for range account.MaxTokens {
			dave.newToken(t)
		}
		expect(t, "a token past the bound", dave, "POST", "/api/account/tokens", map[string]any{}, http.StatusConflict, "token.too_many")
	})
	t.Run("RevokedIsDead", func(t *testing.T) {
		tv := alice.newToken(t)
		p := e.program(tv.Token)
		expect(t, "before", p, "GET", "/api/my-games", nil, http.StatusOK, "")
		expect(t, "revoke", alice, "DELETE", "/api/account/tokens/"+tv.ID, nil, http.StatusOK, "")
		expect(t, "after", p, "GET", "/api/my-games", nil, http.StatusUnauthorized, "token.invalid")
	})
	t.Run("WrongTokensThrottled", func(t *testing.T) {
		// Three wrong tokens are allowed an address (the test's login
		// limit); the revoked one of RevokedIsDead and the wrong one of
		// CrossOrigin were two.
		wrong := e.program("emg_wrong")
		expect(t, "a third wrong token", wrong, "GET", "/api/my-games", nil, http.StatusUnauthorized, "token.invalid")
		expect(t, "a fourth", wrong, "GET", "/api/my-games", nil, http.StatusTooManyRequests, "account.throttled_minutes")
		expect(t, "a right token from the throttled address", prog, "GET", "/api/my-games", nil, http.StatusTooManyRequests, "account.throttled_minutes")
	})
	t.Run("NeverLogged", func(t *testing.T) {
		out := logs.String()
		if !strings.Contains(out, "token created") {
			t.Fatalf("the log has no token's creation: is it captured?\n%s", out)
		}
		for _, secret := range []string{all.Token, board.Token, "emg_wrong", "emg_nothing", strings.TrimPrefix(all.Token, account.TokenPrefix)} {
			if strings.Contains(out, secret) {
				t.Errorf("the log holds the token %q", secret)
			}
		}
	})
}

func TestBotAccounts(t *testing.T) {
	e := accountEnv(t, server.Config{})
	alice, bob := signUp(t, e, "alice"), signUp(t, e, "bob")
	botc := signUp(t, e, "robot")
	bot := e.program(botc.newToken(t).Token)
	expect(t, "the bot API before the upgrade", bot, "POST", "/api/bot/game/nothing/resign", nil, http.StatusForbidden, "bot.not_a_bot")
	raw := expect(t, "upgrade", bot, "POST", "/api/bot/account/upgrade", nil, http.StatusOK, "")
	if !strings.Contains(raw, `"bot":true`) {
		t.Errorf("upgrade answers %s", raw)
	}
	id := liveGame(t, alice, bob, "bob")
	expect(t, "the upgrade of an account that has played", alice, "POST", "/api/bot/account/upgrade", nil, http.StatusConflict, "bot.has_games")
	expect(t, "a bot's move in a game it holds no seat in", bot, "POST", "/api/bot/game/"+id+"/move/a1", nil, http.StatusForbidden, "game.not_playing")
	expect(t, "a bot's resignation there", bot, "POST", "/api/bot/game/"+id+"/resign", nil, http.StatusForbidden, "game.not_playing")

	open := map[string]any{"size": 7, "clock": map[string]any{"initial": 60, "increment": 1}}
	_, people := alice.challenge(open)
	expect(t, "a bot takes a challenge for people", bot, "POST", "/api/challenges/"+people.ID+"/accept", nil, http.StatusForbidden, "challenge.for_people")
	open["allowBots"] = true
	_, bots := alice.challenge(open)
	expect(t, "a bot takes a challenge allowing bots", bot, "POST", "/api/challenges/"+bots.ID+"/accept", nil, http.StatusOK, "")

	// The bot mark, where the names show.
	botGame := liveGame(t, bob, bot, "robot")
	var st struct {
		Players map[string]struct{ Bot bool } `json:"players"`
	}
	bob.getJSON(t, "/api/games/"+botGame, &st)
	if !st.Players["black"].Bot || st.Players["white"].Bot {
		t.Errorf("the game's players: %+v, want black a bot", st.Players)
	}
	var prof struct{ Bot bool }
	bob.getJSON(t, "/api/users/robot", &prof)
	if !prof.Bot {
		t.Error("the bot's profile has no bot mark")
	}
	var lobby struct {
		Challenges []struct {
			From string `json:"from"`
			Bot  bool   `json:"bot"`
		} `json:"challenges"`
	}
	bot.do("POST", "/api/challenges", open)
	alice.getJSON(t, "/api/lobby", &lobby)
	marked := false
	for _, c := range lobby.Challenges {
		if c.From == "robot" {
			marked = c.Bot
		}
	}
	if !marked {
		t.Errorf("the bot's challenge in the lobby has no bot mark: %+v", lobby.Challenges)
	}
}

// ndjsonLines reads the lines of an NDJSON stream of c at path: each
// object, and "" for each keep-alive line. The stream ends with the test.
func ndjsonLines(t *testing.T, c *client, path string) <-chan string {
	t.Helper()
	req, _ := http.NewRequest("GET", c.e.ts.URL+path, nil)
	stream := &http.Client{Jar: c.c.Jar, Transport: c.c.Transport}
	resp, err := stream.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("%s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out := make(chan string, 100)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			out <- sc.Text()
		}
	}()
	t.Cleanup(func() { resp.Body.Close() })
	return out
}

// awaitLine waits for a line of lines that contains want, and returns it.
func awaitLine(t *testing.T, lines <-chan string, want string) string {
	t.Helper()
	timeout := time.After(patience)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the stream ended before a line with %q", want)
			}
			if strings.Contains(l, want) || (want == "" && l == "") {
				return l
			}
		case <-timeout:
			t.Fatalf("no line with %q within %v", want, patience)
		}
	}
}

func TestBotStreams(t *testing.T) {
	e := accountEnv(t, server.Config{StreamKeepAlive: 20 * time.Millisecond})
	alice := signUp(t, e, "alice")
	botc := signUp(t, e, "robot")
	bot := e.program(botc.newToken(t).Token)
	expect(t, "upgrade", bot, "POST", "/api/bot/account/upgrade", nil, http.StatusOK, "")

	events := ndjsonLines(t, bot, "/api/stream/event")
	awaitLine(t, events, "") // a keep-alive line
	code, v := alice.challenge(map[string]any{"to": "robot", "size": 7, "rated": true, "color": "white", "clock": map[string]any{"initial": 60, "increment": 1}})
	if code != http.StatusCreated {
		t.Fatalf("challenge: %d", code)
	}
	awaitLine(t, events, `"type":"challenge"`)
	expect(t, "accept", bot, "POST", "/api/challenges/"+v.ID+"/accept", nil, http.StatusOK, "")
	start := awaitLine(t, events, `"type":"gameStart"`)
	var ev struct {
		Game struct {
			ID, Color string
			Size      int
		}
	}
	json.Unmarshal([]byte(start), &ev)
	if ev.Game.Color != "black" || ev.Game.Size != 7 {
		t.Errorf("gameStart: %s", start)
	}
	id := ev.Game.ID

	game := ndjsonLines(t, bot, "/api/bot/game/stream/"+id)
	full := awaitLine(t, game, `"type":"gameFull"`)
	if !strings.Contains(full, `"initialFen":"startpos"`) || !strings.Contains(full, `"bot":true`) {
		t.Errorf("gameFull: %s", full)
	}
	var legal state
	alice.getJSON(t, "/api/games/"+id, &legal)
	expect(t, "the bot moves out of turn", bot, "POST", "/api/bot/game/"+id+"/move/"+legal.Legal[0], nil, http.StatusConflict, "game.not_your_turn")
	if code, _ := alice.move(id, legal.Legal[0], 0); code != http.StatusOK {
		t.Fatalf("alice's move: %d", code)
	}
	awaitLine(t, game, `"moves":"`+legal.Legal[0]+`"`)
	var after state
	alice.getJSON(t, "/api/games/"+id, &after)
	expect(t, "the bot's move", bot, "POST", "/api/bot/game/"+id+"/move/"+after.Legal[0], nil, http.StatusOK, "")
	awaitLine(t, game, `"moves":"`+legal.Legal[0]+" "+after.Legal[0]+`"`)
	awaitLine(t, game, "") // a keep-alive line
	// A line of the players' chat reaches the bot's game stream.
	if code, _, body := alice.do("POST", "/api/games/"+id+"/chat", map[string]any{"text": "good luck"}); code != http.StatusCreated && code != http.StatusOK {
		t.Fatalf("alice's chat line: %d %s", code, body)
	}
	if line := awaitLine(t, game, `"type":"chatLine"`); line != `{"type":"chatLine","room":"player","username":"alice","text":"good luck"}` {
		t.Errorf("chatLine: %s", line)
	}

	again := ndjsonLines(t, bot, "/api/bot/game/stream/"+id)
	awaitLine(t, again, `"type":"gameFull"`)

	expect(t, "the bot offers a draw", bot, "POST", "/api/bot/game/"+id+"/draw/yes", nil, http.StatusOK, "")
	awaitLine(t, game, `"bdraw":true`)
	expect(t, "the bot resigns", bot, "POST", "/api/bot/game/"+id+"/resign", nil, http.StatusOK, "")
	end := awaitLine(t, game, `"winner"`)
	if !strings.Contains(end, `"winner":"white"`) {
		t.Errorf("the last state: %s", end)
	}
	awaitLine(t, events, `"type":"gameFinish"`)
}
