package server_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"emergo/bot"
	"emergo/player"
	"emergo/rules"
)

// weakEngine is a bot's engine in the test's process: the engine's level
// 2, seeded (weakMove).
type weakEngine struct{ t *testing.T }

func (weakEngine) NewGame()     {}
func (weakEngine) Close() error { return nil }
func (e weakEngine) Move(_ context.Context, g *rules.Game, _ player.Clock) (rules.Move, error) {
	return weakMove(e.t, g), nil
}

// botAccount signs up name on the site at url through the API, makes it a
// bot, and returns a token of its.
func botAccount(t *testing.T, url, name string) string {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	post := func(path, body string) []byte {
		resp, err := c.Post(url+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		if resp.StatusCode >= 300 {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, data)
		}
		return data
	}
	post("/api/account/signup", `{"username": "`+name+`", "password": "a long password"}`)
	var tok struct{ Token string }
	json.Unmarshal(post("/api/account/tokens", `{"description": "the bot"}`), &tok)
	post("/api/bot/account/upgrade", `{}`)
	return tok.Token
}

// TestBrowserChallengeABot: a bot plays on the site (package bot, in the
// test's process); a person finds it on its page, marked as a bot,
// challenges it from there (the lobby's form, the bot filled in), and the
// lobby opens the game once the bot accepts; the game page marks the bot,
// and the bot answers the person's moves.
func TestBrowserChallengeABot(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	token := botAccount(t, ts.URL, "Robo")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- bot.Run(ctx, bot.Config{
			Client: &bot.Client{URL: ts.URL, Token: token},
			Engine: func(context.Context) (bot.Engine, error) { return weakEngine{t}, nil },
			OnStop: bot.Resign, Stop: stop, Backoff: 20 * time.Millisecond,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		})
	}()

	ann := newBrowser(t, exe, "ann")
	recordPolicyViolations(ann)
	ann.signUpOn(ts.URL, "Ann")
	ann.do("open the bot's page", chromedp.Navigate(ts.URL+"/@/Robo"))
	ann.waitText("the bot's page marks it", `[data-testid="profile-bot"]`, func(s string) bool { return s == "BOT" })
	ann.do("challenge it from its page", chromedp.Click(chromedp.CSS(`[data-testid="profile-challenge"]`)))
	poll(ann, "the lobby's form has the bot as the opponent", func() (string, error) {
		return tryJS[string](ann, `(document.querySelector('[data-testid="challenge-to"]') || {}).value || ''`)
	}, func(s string) bool { return s == "Robo" })
	ann.do("post the challenge",
		chromedp.SetValue(chromedp.CSS(`[data-testid="challenge-size"]`), "7"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="challenge-color"]`), "white"),
		chromedp.Click(chromedp.CSS(`[data-testid="challenge-post"]`)),
	)
	id := ann.gameID()
	ann.waitText("the game page marks the bot", `[data-testid="bot-black"]`, func(s string) bool { return s == "BOT" })
	noPolicyViolations(ann, "lobby")

	for ply := 0; ply < 6; ply += 2 {
		ann.waitView("Ann's turn", func(v pageView) bool { return v.Interactive && len(v.Moves) == ply && !v.Animating })
		st := ann.state(id)
		ann.playByClicks(st.Legal, st.Legal[0])
		ann.waitView("the bot answers", func(v pageView) bool { return len(v.Moves) == ply+2 })
	}
	close(stop)
	if err := <-done; err != nil {
		t.Fatalf("the bot: %v", err)
	}
	st := ann.waitState("the bot resigned as it stopped", id, func(st state) bool { return st.Over })
	if st.Result != "1-0" || st.Reason != "resignation" {
		t.Errorf("the game: %s by %s, want 1-0 by resignation", st.Result, st.Reason)
	}
}
