package server_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// chatLog waits until the chat's log of b's page, its lines' texts one a
// line ("ann: good luck"), is one that ok accepts, and returns it.
func (b *browser) chatLog(what string, ok func(string) bool) string {
	b.t.Helper()
	const js = `[...document.querySelectorAll('[data-testid="chat-line"]')].map((p) => p.innerText.trim()).join('\n')`
	return poll(b, what, func() (string, error) { return tryJS[string](b, js) }, ok)
}

// TestBrowserChat: two players of a game chat on its page, each line
// written with the keyboard reaching the other's page in the log, a
// polite live region; then one blocks the other from the page: the
// blocked one's lines leave the blocker's page, and his next ones never
// reach it, while he is told nothing (his page shows his lines as ever).
func TestBrowserChat(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	ann, ben := newBrowser(t, exe, "ann"), newBrowser(t, exe, "ben")
	for _, b := range []*browser{ann, ben} {
		recordPolicyViolations(b)
		b.do("open the site", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lang"]`)))
		evalJS[map[string]any](b, fetchJS("/api/account/signup", `{username: '`+b.name+`', password: 'a long password'}`))
	}
	challenge := evalJS[map[string]any](ann, fetchJS("/api/challenges", `{size: 7, clock: {initial: 300, increment: 3}, color: 'white', to: 'ben'}`))
	id := evalJS[map[string]any](ben, fetchJS("/api/challenges/"+challenge["id"].(string)+"/accept", `{}`))["game"].(string)
	for _, b := range []*browser{ann, ben} {
		b.do("open the game", chromedp.Navigate(ts.URL+"/g/"+id))
		b.waitText(b.name+"'s page shows the players' chat", `#chat-title`, func(s string) bool { return s == "Players' chat" })
		poll(b, "the chat's form is open to "+b.name, func() (bool, error) {
			return tryJS[bool](b, `!document.querySelector('#chat-form').hidden`)
		}, func(ok bool) bool { return ok })
	}
	if live := evalJS[string](ben, `document.querySelector('[data-testid="chat-log"]').getAttribute('aria-live')`); live != "polite" {
		t.Errorf("the chat's log is aria-live %q, want polite", live)
	}

	// Ann writes with the keyboard alone: the field, the text, Enter.
	ann.do("write a line",
		chromedp.Focus(chromedp.CSS(`[data-testid="chat-input"]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="chat-input"]`), "good luck <b>ben</b>"+kb.Enter),
	)
	ben.chatLog("Ann's line reaches Ben", func(s string) bool { return s == "ann: good luck <b>ben</b>" })
	if bold := evalJS[int](ben, `document.querySelectorAll('[data-testid="chat-log"] b').length`); bold != 0 {
		t.Error("a line's markup was made markup: it must stay text")
	}
	ben.do("answer", chromedp.SendKeys(chromedp.CSS(`[data-testid="chat-input"]`), "thanks"+kb.Enter))
	ann.chatLog("Ben's answer reaches Ann", func(s string) bool {
		return s == "ann: good luck <b>ben</b>\nben: thanks"
	})
	ben.screenshot("chat")

	// Ben blocks Ann from his page.
	ben.waitText("the block button names Ann", `[data-testid="chat-block"]`, func(s string) bool { return s == "Block ann" })
	ben.do("block Ann", chromedp.Click(chromedp.CSS(`[data-testid="chat-block"]`)))
	ben.waitText("Ben is told", `[data-testid="chat-message"]`, func(s string) bool { return strings.Contains(s, "You have blocked ann") })
	ben.chatLog("Ann's line left Ben's log", func(s string) bool { return s == "ben: thanks" })

	// Ann writes again, then Ben through the API (not his page's form):
	// his line reaches his page on the stream, after hers had it come.
	ann.do("write after the block", chromedp.SendKeys(chromedp.CSS(`[data-testid="chat-input"]`), "hello?"+kb.Enter))
	ann.chatLog("Ann sees her line as ever", func(s string) bool { return strings.HasSuffix(s, "ann: hello?") })
	evalJS[map[string]any](ben, fetchJS("/api/games/"+id+"/chat", `{text: 'still here'}`))
	got := ben.chatLog("Ben's own line comes on his stream", func(s string) bool { return strings.HasSuffix(s, "ben: still here") })
	if strings.Contains(got, "hello?") {
		t.Errorf("Ann's line after the block reached Ben's page: %q", got)
	}
	ann.chatLog("Ann gets Ben's line: she was told nothing", func(s string) bool { return strings.HasSuffix(s, "ben: still here") })
	if msg := evalJS[string](ann, `document.querySelector('[data-testid="chat-message"]').innerText`); msg != "" {
		t.Errorf("Ann's page says %q", msg)
	}

	// Opened again, Ben's page has none of Ann's lines.
	ben.do("open the game again", chromedp.Navigate(ts.URL+"/g/"+id))
	got = ben.chatLog("Ben's lines come back", func(s string) bool { return strings.Contains(s, "ben: still here") })
	if strings.Contains(got, "ann:") {
		t.Errorf("Ben's page opened again shows Ann's lines: %q", got)
	}
	for _, b := range []*browser{ann, ben} {
		noPolicyViolations(b, "game")
	}
}
