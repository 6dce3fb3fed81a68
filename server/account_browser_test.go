package server_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// recordPolicyViolations makes every document b opens keep the
// Content-Security-Policy violations it meets in window.emergoCSP.
func recordPolicyViolations(b *browser) {
	const js = `window.emergoCSP = [];
document.addEventListener('securitypolicyviolation', (e) => window.emergoCSP.push(e.violatedDirective + ' ' + e.blockedURI));`
	b.do("record policy violations", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: js})
		return err
	}))
}

// noPolicyViolations fails the test if the page met a violation of the
// policy: something the site's own pages do that the policy blocks.
func noPolicyViolations(b *browser, page string) {
	b.t.Helper()
	if v := evalJS[[]string](b, `window.emergoCSP`); len(v) > 0 {
		b.t.Errorf("%s: the %s page breaks its Content-Security-Policy: %q", b.name, page, v)
	}
}

// text is the text of the element sel, "" if there is none.
func (b *browser) text(sel string) (string, error) {
	return tryJS[string](b, `(() => { const e = document.querySelector(`+"`"+sel+"`"+`); return e ? e.innerText.trim() : ''; })()`)
}

// waitText waits until the element sel shows a text that ok accepts.
func (b *browser) waitText(what, sel string, ok func(string) bool) string {
	b.t.Helper()
	return poll(b, what, func() (string, error) { return b.text(sel) }, ok)
}

// fillAccount types a username and a password into the account dialog and
// sends it.
func (b *browser) fillAccount(what, user, password string) {
	b.t.Helper()
	b.do(what, chromedp.WaitVisible(chromedp.CSS(`[data-testid="account-username"]`)))
	evalJS[bool](b, `document.querySelector('[data-testid="account-username"]').value = '', `+
		`document.querySelector('[data-testid="account-password"]').value = '', true`)
	b.do(what,
		chromedp.SendKeys(chromedp.CSS(`[data-testid="account-username"]`), user),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="account-password"]`), password),
		chromedp.Click(chromedp.CSS(`[data-testid="account-submit"]`)),
	)
}

// TestBrowserAccount: a visitor signs up from the header, is refused a
// password too short and a wrong one with the reason, logs out, logs in
// again, and sees the name in the header of every page, with the session
// kept across a reload; and no page breaks the Content-Security-Policy.
func TestBrowserAccount(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	ann := newBrowser(t, exe, "ann")
	recordPolicyViolations(ann)
	name := `[data-testid="account-name"]`
	message := `[data-testid="account-message"]`

	ann.do("open the signup dialog",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="signup"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="signup"]`)),
	)
	ann.fillAccount("sign up with a short password", "Ann_1", "short")
	ann.waitText("the page says why", message, func(s string) bool { return s == "A password has at least 8 characters." })
	ann.screenshot("account-signup")
	ann.fillAccount("sign up", "Ann_1", "a good password")
	ann.waitText("the header shows the name", name, func(s string) bool { return s == "Ann_1" })
	if me := evalJS[map[string]any](ann, `fetch('/api/account/me').then((r) => r.json())`); me["name"] != "Ann_1" {
		t.Errorf("after signing up the server says this is %v", me)
	}
	noPolicyViolations(ann, "home")

	ann.do("log out", chromedp.Click(chromedp.CSS(`[data-testid="logout"]`)))
	ann.do("the header offers to log in", chromedp.WaitVisible(chromedp.CSS(`[data-testid="login"]`)))
	if me := evalJS[any](ann, `fetch('/api/account/me').then((r) => r.json())`); me != nil {
		t.Errorf("after logging out the server says this is %v", me)
	}

	// The name is taken, in any case.
	ann.do("open the signup dialog again", chromedp.Click(chromedp.CSS(`[data-testid="signup"]`)))
	ann.fillAccount("sign up with a taken name", "ann_1", "another password")
	ann.waitText("the server's reason is shown", message, func(s string) bool { return strings.Contains(s, "taken") })
	ann.do("cancel", chromedp.Click(chromedp.CSS(`[data-testid="account-cancel"]`)))

	ann.do("open the login dialog", chromedp.Click(chromedp.CSS(`[data-testid="login"]`)))
	ann.fillAccount("log in with a wrong password", "ANN_1", "a bad password")
	ann.waitText("the server's reason is shown", message, func(s string) bool { return s == "Wrong username or password." })
	ann.fillAccount("log in", "ANN_1", "a good password")
	ann.waitText("the header shows the name again", name, func(s string) bool { return s == "Ann_1" })

	ann.do("reload", chromedp.Reload())
	ann.waitText("the session outlives a reload", name, func(s string) bool { return s == "Ann_1" })
	noPolicyViolations(ann, "home")

	ann.do("open the rules", chromedp.Navigate(ts.URL+"/rules"))
	ann.waitText("the rules page's header shows the name", name, func(s string) bool { return s == "Ann_1" })
	noPolicyViolations(ann, "rules")

	ann.do("play a friend",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="new-friend"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="new-friend"]`)),
	)
	ann.gameID()
	ann.waitText("the game page's header shows the name", name, func(s string) bool { return s == "Ann_1" })
	ann.waitText("the seat has the account's name", ".board-col", func(s string) bool { return strings.Contains(s, "Ann_1") })
	noPolicyViolations(ann, "game")
	ann.screenshot("account-game")

	// The recording works: a style attribute, which the pages do not
	// have, is reported.
	evalJS[bool](ann, `document.body.insertAdjacentHTML('beforeend', '<p style="color: red">x</p>'), true`)
	poll(ann, "an inline style is reported", func() ([]string, error) { return tryJS[[]string](ann, `window.emergoCSP`) },
		func(v []string) bool { return len(v) == 1 && strings.HasPrefix(v[0], "style-src") })
}
