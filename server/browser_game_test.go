package server_test

// Browser tests of the game page's controls between two people: what it
// says about offers, aborting and analysis follows the game's state, in
// both players' pages, without reloading.

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// panelView is what the side panel of a game page offers and says.
type panelView struct {
	Abort        bool   `json:"abort"`        // the abort button is shown
	Analyse      bool   `json:"analyse"`      // the analyse button can be clicked
	AnalysisNote string `json:"analysisNote"` // why it cannot, if shown
	Score        string `json:"score"`        // the analysis' score, once in
	DrawAnswer   bool   `json:"drawAnswer"`   // a draw offer to accept is shown
	TakeAnswer   bool   `json:"takeAnswer"`   // a take-back request to accept is shown
	Text         string `json:"text"`         // everything the panel says
}

const panelJS = `(() => {
  const q = (s) => document.querySelector(s);
  const shown = (s) => Boolean(q(s) && q(s).offsetParent !== null);
  const note = q('[data-testid="analysis-note"]');
  return {
    abort: shown('[data-testid="abort"]'),
    analyse: Boolean(q('[data-testid="analyse"]') && !q('[data-testid="analyse"]').disabled),
    analysisNote: note && !note.hidden ? note.innerText.trim() : '',
    score: (q('[data-testid="analysis-score"]') || {}).innerText || '',
    drawAnswer: shown('[data-testid="draw-accept"]'),
    takeAnswer: shown('[data-testid="takeback-accept"]'),
    text: (q('.panel') || {}).innerText || '',
  };
})()`

func (b *browser) tryPanel() (panelView, error) { return tryJS[panelView](b, panelJS) }

// waitPanel polls the panel until ok accepts what it shows.
func (b *browser) waitPanel(what string, ok func(panelView) bool) panelView {
	b.t.Helper()
	return poll(b, what, b.tryPanel, ok)
}

func (b *browser) click(what, testid string) {
	b.t.Helper()
	b.do(what, chromedp.Click(chromedp.CSS(`[data-testid="`+testid+`"]`)))
}

// startFriendGame has alice create a 7x7 friend game as White on the home
// page and bob join it by the link she was given; it returns the game's id
// once both pages know that both are there.
func startFriendGame(t *testing.T, url string, alice, bob *browser) string {
	t.Helper()
	alice.do("create a friend game",
		chromedp.Navigate(url+"/"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="new-friend"]`)),
		chromedp.SetValue(chromedp.CSS(`[data-testid="size"]`), "7"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="color"]`), "white"),
		chromedp.Click(chromedp.CSS(`[data-testid="new-friend"]`)),
	)
	id := alice.gameID()
	link := poll(alice, "the invite link is shown", func() (string, error) {
		return tryJS[string](alice, `(document.querySelector('[data-testid="invite-link"]') || {}).value || ''`)
	}, func(s string) bool { return s != "" })
	bob.do("open the invite link and join",
		chromedp.Navigate(link),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="join"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="join"]`)),
	)
	bob.waitView("Bob has joined", func(v pageView) bool { return strings.Contains(v.Message, "You have joined") })
	alice.waitView("Alice may move", func(v pageView) bool { return v.Interactive })
	return id
}

// TestBrowserOffersAbortAnalysis: a draw offered with one's own move is
// there for the opponent; the texts of offers go when the offers do; the
// abort button is there until both have moved; the analysis is closed to
// players and watchers while the game is played and opens at its end.
func TestBrowserOffersAbortAnalysis(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	alice := newBrowser(t, exe, "alice")
	bob := newBrowser(t, exe, "bob")
	id := startFriendGame(t, ts.URL, alice, bob)
	alice.mark()
	bob.mark()

	closed := func(p panelView) bool { return !p.Analyse && strings.Contains(p.AnalysisNote, "once it has ended") }
	for _, p := range []*browser{alice, bob} {
		p.waitPanel("abort offered, analysis closed at the start", func(v panelView) bool { return v.Abort && closed(v) })
	}

	// Alice offers a draw on her turn, then moves: Bob sees the offer.
	alice.click("offer a draw", "draw-offer")
	alice.waitPanel("Alice's offer is shown to her", func(v panelView) bool {
		return strings.Contains(v.Text, "You offered a draw")
	})
	st := alice.state(id)
	alice.playByClicks(st.Legal, st.Legal[0])
	bob.waitView("Alice's move reaches Bob", func(v pageView) bool { return len(v.Moves) == 1 && v.Interactive })
	bob.waitPanel("Bob can answer the offer made with the move", func(v panelView) bool { return v.DrawAnswer })

	// Bob's move declines it; now both have moved, and the abort goes.
	st = bob.state(id)
	bob.playByClicks(st.Legal, st.Legal[0])
	for _, p := range []*browser{alice, bob} {
		p.waitPanel("no offer and no abort after both moved", func(v panelView) bool {
			return !v.Abort && !v.DrawAnswer && !strings.Contains(v.Text, "offered a draw") && !strings.Contains(v.Text, "offers a draw")
		})
	}
	watcher := newBrowser(t, exe, "watcher")
	watcher.do("watch", chromedp.Navigate(ts.URL+"/g/"+id))
	watcher.waitView("the watcher sees both moves", func(v pageView) bool { return len(v.Moves) == 2 })
	watcher.waitPanel("the analysis is closed to the watcher", closed)

	// A take-back asked and granted leaves no word of it.
	alice.click("ask for a take-back", "takeback-request")
	bob.waitPanel("Bob is asked", func(v panelView) bool { return v.TakeAnswer })
	bob.click("grant the take-back", "takeback-accept")
	alice.waitView("the take-back reaches Alice", func(v pageView) bool { return len(v.Moves) == 0 && v.Interactive })
	alice.waitPanel("no word of the take-back remains", func(v panelView) bool {
		return !strings.Contains(v.Text, "Take-back asked") && !strings.Contains(v.Text, "take back a move")
	})

	// A draw offered and then the game resigned: no word of the offer
	// under the result, and the analysis opens.
	alice.click("offer a draw", "draw-offer")
	bob.waitPanel("Bob sees the offer", func(v panelView) bool { return v.DrawAnswer })
	alice.click("resign", "resign")
	alice.click("confirm", "resign-confirm")
	for _, p := range []*browser{alice, bob, watcher} {
		v := p.waitView("the result shows", func(v pageView) bool { return v.Result != "" })
		if v.Status != "Game over." {
			t.Errorf("%s: status %q after the resignation, want %q", p.name, v.Status, "Game over.")
		}
		p.waitPanel("no offer under the result, analysis open", func(v panelView) bool {
			return v.Analyse && v.AnalysisNote == "" && !strings.Contains(v.Text, "Draw offered") && !strings.Contains(v.Text, "offered a draw")
		})
	}
	bob.click("analyse", "analyse")
	bob.waitPanel("the analysis is shown", func(v panelView) bool { return v.Score != "" })
	for _, p := range []*browser{alice, bob} {
		if !p.view().Marked {
			t.Errorf("%s's page was reloaded", p.name)
		}
	}
	bob.screenshot("offers-analysis-after-the-end")

	// A new game, aborted by Bob before he has moved.
	id = startFriendGame(t, ts.URL, alice, bob)
	st = alice.state(id)
	alice.playByClicks(st.Legal, st.Legal[0])
	bob.waitView("Alice's move reaches Bob", func(v pageView) bool { return len(v.Moves) == 1 && v.Interactive })
	bob.waitPanel("Bob may abort", func(v panelView) bool { return v.Abort })
	bob.click("abort", "abort")
	for _, p := range []*browser{alice, bob} {
		v := p.waitView("the game is aborted", func(v pageView) bool { return strings.Contains(v.Result, "Aborted") })
		if v.Status != "Game aborted." || v.Interactive {
			t.Errorf("%s: after the abort the page says %q, interactive %v", p.name, v.Status, v.Interactive)
		}
	}
	alice.screenshot("aborted")
}
