package server_test

// Browser tests of the game page's controls between two people: what it
// says about offers, aborting and analysis follows the game's state, in
// both players' pages, without reloading.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"emergo/account"
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

// createFriendGame has alice create a 7x7 friend game as White on the
// home page; it returns the game's id and the link her page gives her to
// send.
func createFriendGame(url string, alice *browser) (id, link string) {
	alice.t.Helper()
	alice.do("create a friend game",
		chromedp.Navigate(url+"/"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="new-friend"]`)),
		chromedp.SetValue(chromedp.CSS(`[data-testid="size"]`), "7"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="color"]`), "white"),
		chromedp.Click(chromedp.CSS(`[data-testid="new-friend"]`)),
	)
	return alice.gameID(), alice.inviteLink()
}

// inviteLink returns the link that b's game page gives to send, once it
// is shown.
func (b *browser) inviteLink() string {
	b.t.Helper()
	return poll(b, "the invite link is shown", func() (string, error) {
		return tryJS[string](b, `(document.querySelector('[data-testid="invite-link"]') || {}).value || ''`)
	}, func(s string) bool { return s != "" })
}

// startFriendGame has alice create a 7x7 friend game as White on the home
// page and bob join it by the link she was given; it returns the game's id
// once both pages know that both are there.
func startFriendGame(t *testing.T, url string, alice, bob *browser) string {
	t.Helper()
	id, link := createFriendGame(url, alice)
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

	// A take-back asked and declined: the asker is told so.
	alice.playByClicks(alice.state(id).Legal, alice.state(id).Legal[0])
	bob.waitView("Alice's move reaches Bob", func(v pageView) bool { return len(v.Moves) == 1 && v.Interactive })
	alice.click("ask for a take-back", "takeback-request")
	bob.waitPanel("Bob is asked", func(v panelView) bool { return v.TakeAnswer })
	bob.click("decline the take-back", "takeback-decline")
	alice.waitView("Alice is told of the decline", func(v pageView) bool {
		return v.Message == "Your take-back request was declined." && len(v.Moves) == 1
	})
	// And a draw offer declined, likewise.
	bob.click("offer a draw", "draw-offer")
	alice.waitPanel("Alice sees the offer", func(v panelView) bool { return v.DrawAnswer })
	alice.click("decline the draw", "draw-decline")
	bob.waitView("Bob is told of the decline", func(v pageView) bool { return v.Message == "Your draw offer was declined." })

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
	// The rematch box holds its button, with no empty label beside it
	// and no more height than its padding.
	box := evalJS[map[string]float64](alice, `(() => {
  const box = document.querySelector('[data-testid="rematch"]');
  const button = document.querySelector('[data-testid="rematch-offer"]');
  return {box: box.getBoundingClientRect().height, button: button ? button.getBoundingClientRect().height : 0,
    empty: [...box.querySelectorAll('span')].filter((s) => s.textContent.trim() === '' && !s.children.length).length};
})()`)
	if box["button"] == 0 || box["empty"] > 0 || box["box"] > box["button"]+40 {
		t.Errorf("after the abort the rematch box is %v px high for a button of %v px, with %v empty labels", box["box"], box["button"], box["empty"])
	}
	alice.screenshot("aborted")
}

// TestBrowserInvitedSeat: the seat of a friend game is kept for the friend
// with the invitation. A stranger does not find the game on the home page,
// and its plain link offers him no seat (the server refuses one with a
// clear message); the invitation link takes it, and the address keeps no
// secret afterwards.
func TestBrowserInvitedSeat(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	alice := newBrowser(t, exe, "alice")
	id, link := createFriendGame(ts.URL, alice)
	plain, secret, ok := strings.Cut(link, "#invite=")
	if !ok || plain != ts.URL+"/g/"+id || secret == "" {
		t.Fatalf("invite link %q, want %s/g/%s#invite=...", link, ts.URL, id)
	}

	eve := newBrowser(t, exe, "eve")
	eve.do("open the home page", chromedp.Navigate(ts.URL+"/"))
	list := poll(eve, "the list of games is shown", func() (string, error) {
		return tryJS[string](eve, `(document.querySelector('[data-testid="game-list"]') || {}).innerText || ''`)
	}, func(s string) bool { return s != "" && !strings.Contains(s, "Loading") })
	if links := evalJS[int](eve, `document.querySelectorAll('[data-testid="game-list"] a[href*="`+id+`"]').length`); links != 0 {
		t.Errorf("the home page lists the game waiting for the invited friend: %q", list)
	}
	eve.do("open the plain link", chromedp.Navigate(plain))
	v := eve.waitView("the page says the seat is kept", func(v pageView) bool {
		return strings.Contains(v.Status, "invited friend")
	})
	if seats := evalJS[int](eve, `document.querySelectorAll('#join-buttons button').length`); seats != 0 || !evalJS[bool](eve, `document.querySelector('#join-box').hidden`) {
		t.Errorf("a stranger is offered %d seats; status %q", seats, v.Status)
	}
	refusal := evalJS[map[string]any](eve, `fetch('/api/games/`+id+`/join', {method: 'POST', headers: {'Content-Type': 'application/json'},
		body: JSON.stringify({name: 'Eve'})}).then(async (r) => ({status: r.status, body: await r.json()}))`)
	if refusal["status"] != float64(403) || !strings.Contains(fmt.Sprint(refusal["body"]), "only the invitation link takes it") {
		t.Errorf("a stranger's request to join: %v, want 403 saying the seat is kept for the invited friend", refusal)
	}
	eve.screenshot("invited-seat-stranger")

	bob := newBrowser(t, exe, "bob")
	bob.do("open the invitation", chromedp.Navigate(link))
	bob.waitView("the page invites Bob", func(v pageView) bool { return strings.Contains(v.Status, "You are invited") })
	bob.do("join", chromedp.WaitVisible(chromedp.CSS(`[data-testid="join"]`)), chromedp.Click(chromedp.CSS(`[data-testid="join"]`)))
	bob.waitView("Bob has joined", func(v pageView) bool { return strings.Contains(v.Message, "You have joined") })
	if st := bob.state(id); st.You == nil || *st.You != "black" {
		t.Errorf("after joining Bob is %v, want black", st.You)
	}
	if hash := evalJS[string](bob, `location.hash`); hash != "" {
		t.Errorf("after joining the address still holds %q", hash)
	}
	alice.waitView("Alice may move", func(v pageView) bool { return v.Interactive })
	eve.waitView("Eve watches the game", func(v pageView) bool { return strings.Contains(v.Status, "You are watching") })
}

// overflowJS finds what sticks out sideways on a page: the page itself
// wider than the window, or a player bar, status line, list cell or
// result box wider than its box. It returns a description of each.
const overflowJS = `(() => {
  const out = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > window.innerWidth + 1) out.push('page ' + doc.scrollWidth + ' > ' + window.innerWidth);
  for (const e of document.querySelectorAll('.player, .who, .name, .status, .result, .panel, .games td, .games a, .card, main')) {
    const cut = getComputedStyle(e).textOverflow === 'ellipsis'; // meant to hide the rest
    if (e.offsetParent !== null && !cut && e.scrollWidth > e.clientWidth + 1) {
      out.push((e.className || e.tagName) + ' ' + e.scrollWidth + ' > ' + e.clientWidth);
    }
  }
  return out;
})()`

// TestBrowserLongNames: names of the longest allowed, without a space to
// break at, and a record's names cut to that length, keep every page in
// its layout, on a wide window and a phone's. The screenshots are for the
// eye.
func TestBrowserLongNames(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	long := func(c string) string { return strings.Repeat(c, account.MaxName) }
	alice := newBrowser(t, exe, "alice")
	bob := newBrowser(t, exe, "bob")
	alice.do("create a friend game under the longest name",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="new-friend"]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="name"]`), long("W")),
		chromedp.SetValue(chromedp.CSS(`[data-testid="color"]`), "white"),
		chromedp.Click(chromedp.CSS(`[data-testid="new-friend"]`)),
	)
	id, link := alice.gameID(), alice.inviteLink()
	bob.do("join under the longest name",
		chromedp.Navigate(link),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="join"]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="join-name"]`), long("M")),
		chromedp.Click(chromedp.CSS(`[data-testid="join"]`)),
	)
	alice.waitView("Alice may move", func(v pageView) bool { return v.Interactive })
	st := bob.waitState("both names are in", id, func(st state) bool { return st.Players["black"].Name == long("M") })
	if st.Players["white"].Name != long("W") {
		t.Fatalf("names %+v", st.Players)
	}
	record := evalJS[string](bob, `fetch('/api/records', {method: 'POST', body: '[White "`+strings.Repeat("Ada", 300)+`"]\n[Black "\u202eBob"]\n\n1. d6 c1 *'}).then((r) => r.json()).then((s) => s.id)`)

	pages := []struct{ name, path string }{
		{"game", "/g/" + id},
		{"record", "/g/" + record},
		{"home", "/"},
		{"my-games", "/my"},
	}
	for _, size := range []struct {
		name string
		w, h int64
	}{{"wide", 1280, 960}, {"phone", 390, 844}} {
		bob.do("a "+size.name+" window", chromedp.EmulateViewport(size.w, size.h))
		for _, p := range pages {
			bob.do("open the "+p.name+" page", chromedp.Navigate(ts.URL+p.path))
			poll(bob, "the "+p.name+" page shows the names", func() (string, error) {
				return tryJS[string](bob, `document.body.innerText`)
			}, func(s string) bool {
				return strings.Contains(s, "MMMMMMMMMM") || strings.Contains(s, "WWWWWWWWWW") || strings.Contains(s, "AdaAdaAda")
			})
			if out := evalJS[[]string](bob, overflowJS); len(out) > 0 {
				t.Errorf("%s page, %s window: sticks out: %v", p.name, size.name, out)
			}
			bob.screenshot("long-names-" + p.name + "-" + size.name)
		}
	}
}

// TestBrowserPlayAgain: a finished game against the engine offers "Play
// again", which starts a new game with its settings (board, level,
// colour, clock) and goes to it.
func TestBrowserPlayAgain(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	b := newBrowser(t, exe, "player")
	b.do("open the site", chromedp.Navigate(ts.URL+"/"))
	id := evalJS[map[string]any](b, `fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json'},
		body: JSON.stringify({mode: 'engine', size: 7, color: 'black', level: 1, clock: {initial: 300, increment: 2}})}).then((r) => r.json())`)["id"].(string)
	b.do("open the game", chromedp.Navigate(ts.URL+"/g/"+id))
	b.waitView("the engine has moved", func(v pageView) bool { return len(v.Moves) == 1 && v.Interactive })
	if evalJS[bool](b, `Boolean(document.querySelector('[data-testid="play-again"]'))`) {
		t.Errorf("Play again is offered while the game goes on")
	}
	b.click("resign", "resign")
	b.click("confirm", "resign-confirm")
	b.waitView("the result shows", func(v pageView) bool { return v.Result != "" })
	b.click("play again", "play-again")
	v := b.waitView("the new game opens", func(v pageView) bool {
		return strings.HasPrefix(v.Path, "/g/") && v.Path != "/g/"+id && v.Status != ""
	})
	got := evalJS[map[string]any](b, `fetch('/api/games/`+strings.TrimPrefix(v.Path, "/g/")+`').then((r) => r.json())`)
	clock, _ := got["clock"].(map[string]any)
	if got["mode"] != "engine" || got["size"] != 7.0 || got["level"] != 1.0 || got["you"] != "black" || got["over"] != false ||
		clock == nil || clock["initial_ms"] != 300000.0 || clock["increment_ms"] != 2000.0 {
		t.Errorf("the new game is %v, want an engine game like the last: 7x7, level 1, Black, 5 min + 2 s", got)
	}
}
