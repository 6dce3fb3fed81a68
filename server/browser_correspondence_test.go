package server_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// myRow is a game in the list of the page "My games".
type myRow struct {
	ID       string `json:"id"`
	YourTurn bool   `json:"yourTurn"` // marked as the viewer's turn
	Text     string `json:"text"`
}

const myRowsJS = `[...document.querySelectorAll('[data-testid="my-game"]')].map((r) => ({
  id: r.dataset.game, yourTurn: r.classList.contains('your-turn'), text: r.innerText,
}))`

// myRow waits until the page "My games" lists game id as ok wants it.
func (b *browser) myRow(what, id string, ok func(myRow) bool) myRow {
	b.t.Helper()
	find := func(rows []myRow) (myRow, bool) {
		for _, r := range rows {
			if r.ID == id {
				return r, true
			}
		}
		return myRow{}, false
	}
	rows := poll(b, what, func() ([]myRow, error) { return tryJS[[]myRow](b, myRowsJS) }, func(rows []myRow) bool {
		r, found := find(rows)
		return found && ok(r)
	})
	r, _ := find(rows)
	return r
}

// deadlineText is what the game page says of the days per move.
func (b *browser) deadlineText() (string, error) {
	return tryJS[string](b, `(() => { const d = document.querySelector('[data-testid="deadline"]'); return d && !d.hidden ? d.innerText : ''; })()`)
}

// TestBrowserCorrespondence: two people in two browsers play a game of
// three days per move, made on the home page, and the server is
// restarted between their moves: a new server on the same SQLite file, a
// day later, at a new address, where the browsers open the game again.
// The game goes on with its deadline, and "My games" shows each whose
// turn it is.
func TestBrowserCorrespondence(t *testing.T) {
	exe := requireChromium(t)
	path := filepath.Join(t.TempDir(), "games.db")
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	ts, stop := browserServerOn(t, path, start)
	alice := newBrowser(t, exe, "alice")
	bob := newBrowser(t, exe, "bob")

	alice.do("create a correspondence game",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="new-friend"]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="name"]`), "Alice"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="size"]`), "7"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="color"]`), "white"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="days"]`), "3"),
		chromedp.Click(chromedp.CSS(`[data-testid="new-friend"]`)),
	)
	id := alice.gameID()
	poll(alice, "the page says the days per move", alice.deadlineText, func(s string) bool { return s == "3 days per move" })
	link := alice.inviteLink()
	bob.do("join by the invite link",
		chromedp.Navigate(link),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="join"]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="join-name"]`), "Bob"),
		chromedp.Click(chromedp.CSS(`[data-testid="join"]`)),
	)
	alice.waitView("Alice learns that Bob joined", func(v pageView) bool { return v.Interactive })
	// The server's clock stands still; the page counts down from the
	// state, so the three days are a little less by now.
	text := poll(alice, "the page says the time left", alice.deadlineText, func(s string) bool {
		return strings.HasPrefix(s, "3 days per move, 2 days 23 hours") && strings.HasSuffix(s, " left")
	})
	t.Logf("the deadline as the page says it: %q", text)

	people := [2]*browser{alice, bob}
	// play makes the next move, of the player whose turn it is, by
	// clicks, and waits until the mover's page shows it, and the
	// opponent's if he has the game open.
	ply := 0
	play := func(opponentLooks bool) {
		t.Helper()
		mover, opponent := people[ply%2], people[1-ply%2]
		mover.waitView("my turn", func(v pageView) bool {
			return v.Interactive && len(v.Moves) == ply && !v.Animating
		})
		st := mover.state(id)
		mv := st.Legal[(ply*5)%len(st.Legal)]
		mover.playByClicks(st.Legal, mv)
		shown := []*browser{mover}
		if opponentLooks {
			shown = append(shown, opponent)
		}
		for _, p := range shown {
			p.waitView(mv+" in "+p.name+"'s list", func(v pageView) bool {
				return len(v.Moves) == ply+1 && v.Moves[ply] == mv
			})
		}
		ply++
	}
	play(true)
	play(true)

	// The restart: the first server goes, a new one opens the same file a
	// day later, and the browsers open the game at its address.
	stop()
	ts, _ = browserServerOn(t, path, start.Add(24*time.Hour))
	for _, p := range people {
		p.do("open the game on the new server", chromedp.Navigate(ts.URL+"/g/"+id))
		p.waitView(p.name+" sees the game as it was", func(v pageView) bool { return len(v.Moves) == ply })
	}
	if st := alice.state(id); st.Result != "*" || st.Turn != "white" || st.You == nil || *st.You != "white" {
		t.Fatalf("after the restart Alice sees %+v", st)
	}
	// White's turn began at Black's move, a day before the new server's
	// time: two of the three days are left.
	poll(alice, "the deadline held across the restart", alice.deadlineText, func(s string) bool {
		return strings.HasPrefix(s, "3 days per move, 1 day 23 hours")
	})
	alice.screenshot("correspondence-game")
	play(true)
	play(true)

	alice.do("open My games from the header", chromedp.Click(chromedp.CSS(`[data-testid="nav-my"]`)))
	row := alice.myRow("Alice's list marks her turn", id, func(r myRow) bool { return r.YourTurn })
	if !strings.Contains(row.Text, "Your turn") || !strings.Contains(row.Text, "Bob") || !strings.Contains(row.Text, "3 days per move") {
		t.Errorf("Alice's list says %q", row.Text)
	}
	bob.do("open My games", chromedp.Navigate(ts.URL+"/my"))
	row = bob.myRow("Bob's list says he waits for Alice", id, func(r myRow) bool { return strings.Contains(r.Text, "Waiting for Alice") })
	if row.YourTurn {
		t.Errorf("Bob's list marks his turn: %q", row.Text)
	}
	alice.screenshot("correspondence-my-games")

	// From the list to the game, and the move that makes it Bob's turn.
	alice.do("open the game from the list", chromedp.Click(chromedp.CSS(`[data-testid="my-game"][data-game="`+id+`"] a`)))
	play(false)
	bob.do("look at My games again", chromedp.Reload())
	bob.myRow("Bob's list now marks his turn", id, func(r myRow) bool {
		return r.YourTurn && strings.Contains(r.Text, "Your turn")
	})
	bob.screenshot("correspondence-my-games-bob")
}
