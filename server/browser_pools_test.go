package server_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserQuickPairing: two people sign up and click the same pool on
// the home page; the first waits, told so, until the second comes; both
// pages then open the one game the pool made, rated, on the pool's board
// and clock, one player a colour. A guest sees the pools but is asked to
// log in.
func TestBrowserQuickPairing(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	guest := newBrowser(t, exe, "guest")
	guest.do("open the home page as a guest", chromedp.Navigate(ts.URL+"/"))
	guest.waitText("the guest is asked to log in", `[data-testid="quick-guest"]`, func(s string) bool { return strings.Contains(s, "Log in") })
	if disabled := poll(guest, "the pools' buttons", func() (bool, error) {
		return tryJS[bool](guest, `(() => { const b = document.querySelectorAll('[data-testid="quick-pools"] button'); return b.length === 3 && [...b].every((x) => x.disabled); })()`)
	}, func(ok bool) bool { return ok }); !disabled {
		t.Fatal("a guest can click a pool")
	}

	ann, ben := newBrowser(t, exe, "ann"), newBrowser(t, exe, "ben")
	ann.signUpOn(ts.URL, "Ann")
	ben.signUpOn(ts.URL, "Ben")
	for _, b := range []*browser{ann, ben} {
		b.do("open the home page", chromedp.Navigate(ts.URL+"/"),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="pool-7x7-3+2"]`)))
		b.waitText(b.name+"'s pool button", `[data-testid="pool-7x7-3+2"]`, func(s string) bool { return s == "7×7 · 3+2" })
	}
	ann.do("Ann joins the 7x7 pool", chromedp.Click(chromedp.CSS(`[data-testid="pool-7x7-3+2"]`)))
	ann.waitText("Ann waits", `[data-testid="quick-status"]`, func(s string) bool { return strings.Contains(s, "Looking for an opponent") })
	ann.mark()
	ben.do("Ben joins the same pool", chromedp.Click(chromedp.CSS(`[data-testid="pool-7x7-3+2"]`)))
	id := ben.gameID()
	annView := ann.waitView("Ann's page opens the game", func(v pageView) bool { return v.Path == "/g/"+id })
	if annView.Marked {
		t.Errorf("Ann's page did not open the game: %+v", annView)
	}
	a, b := ann.state(id), ben.state(id)
	if a.Size != 7 || a.Clock == nil || a.You == nil || b.You == nil || *a.You == *b.You {
		t.Fatalf("the game paired: Ann sees %+v, Ben %+v", a, b)
	}

	// The guest watches: the players' pages count one spectator, and
	// none once he has gone.
	guest.do("the guest watches the game", chromedp.Navigate(ts.URL+"/g/"+id))
	ann.waitText("Ann's page counts the spectator", `[data-testid="spectators"]`, func(s string) bool { return s == "1 spectator" })
	guest.do("the guest leaves", chromedp.Navigate(ts.URL+"/"))
	poll(ann, "Ann's page counts none", func() (bool, error) {
		return tryJS[bool](ann, `document.querySelector('[data-testid="spectators"]').hidden`)
	}, func(ok bool) bool { return ok })
}
