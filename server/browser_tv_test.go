package server_test

import (
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"emergo/server"
)

// tvPageView is what the TV page shows.
type tvPageView struct {
	Game     string   `json:"game"`     // the game shown, "" for none
	Last     []string `json:"last"`     // the squares marked as the last move
	Announce string   `json:"announce"` // the live region
	Result   string   `json:"result"`   // "" while the result is hidden
	None     bool     `json:"none"`     // the note that no game goes on
	Players  string   `json:"players"`
}

const tvViewJS = `(() => {
  const q = (s) => document.querySelector(s);
  const main = q('#tv');
  return {
    game: main ? main.dataset.game || '' : '',
    last: [...document.querySelectorAll('#tv-board g[data-square].last')].map((g) => g.dataset.square).sort(),
    announce: q('#tv-announce') ? q('#tv-announce').textContent : '',
    result: q('#tv-result') && !q('#tv-result').hidden ? q('#tv-result').innerText.trim() : '',
    none: Boolean(q('#tv-none') && !q('#tv-none').hidden),
    players: q('#tv-players') ? q('#tv-players').textContent : '',
  };
})()`

func (b *browser) waitTV(what string, ok func(tvPageView) bool) tvPageView {
	b.t.Helper()
	return poll(b, what, func() (tvPageView, error) { return tryJS[tvPageView](b, tvViewJS) }, ok)
}

// TestBrowserTV: a watcher on /tv sees the best game of the 9x9 board,
// each move as its players make it (through the API) on the board and in
// the live region, and when that game ends its result, then the next
// game, by itself. The switch to 7x7 shows that no game goes on there.
func TestBrowserTV(t *testing.T) {
	exe := requireChromium(t)
	ts, _ := browserServerWith(t, filepath.Join(t.TempDir(), "games.db"), server.Config{})
	e := &env{t: t, ts: ts}
	// game is a 9x9 game on a clock between two guests: its ID, White and
	// Black.
	game := func(white, black string) (string, *client, *client) {
		w, b := e.client(), e.client()
		st := w.create(t, map[string]any{"mode": "friend", "size": 9, "color": "white", "name": white,
			"clock": map[string]any{"initial": 600, "increment": 5}})
		b.join(t, st.ID, black, *st.Invite)
		return st.ID, w, b
	}
	next, _, _ := game("Nora", "Otto")
	shown, white, black := game("Ada", "Bob")
	// play makes the next move of the game shown, its first legal one.
	ply := 0
	play := func() string {
		t.Helper()
		_, st, _ := white.do("GET", "/api/games/"+shown, nil)
		mv := st.Legal[0]
		c := white
		if st.Turn == "black" {
			c = black
		}
		if code, st := c.move(shown, mv, ply); code != http.StatusOK {
			t.Fatalf("move %s: %d %+v", mv, code, st)
		}
		ply++
		return mv
	}
	// The game shown was played last: it comes first.
	play()
	if got := e.client().tv(t).ids(); got[9] != shown {
		t.Fatalf("GET /api/tv: %v, want 9x9 %s", got, shown)
	}

	b := newBrowser(t, exe, "watcher")
	b.do("open the TV", chromedp.Navigate(ts.URL+"/tv"))
	v := b.waitTV("the game shown", func(v tvPageView) bool { return v.Game == shown && len(v.Last) > 0 })
	if !strings.Contains(v.Players, "Ada") || !strings.Contains(v.Players, "Bob") {
		t.Errorf("players %q", v.Players)
	}
	b.screenshot("tv")
	b.do("switch to 7x7", chromedp.Click(chromedp.CSS(`[data-testid="tv-7"]`)))
	b.waitTV("no 7x7 game", func(v tvPageView) bool { return v.Game == "" && v.None })
	b.do("switch back to 9x9", chromedp.Click(chromedp.CSS(`[data-testid="tv-9"]`)))
	b.waitTV("the game shown again", func(v tvPageView) bool { return v.Game == shown && !v.None && len(v.Last) > 0 })

	for range 4 {
		mv := play()
		want := lastSquares(mv)
		v := b.waitTV("move "+mv, func(v tvPageView) bool {
			return slices.Equal(v.Last, want) && strings.Contains(v.Announce, squaresOf(mv)[0])
		})
		t.Logf("%s: %q", mv, v.Announce)
	}

	if code, st, _ := black.do("POST", "/api/games/"+shown+"/resign", nil); code != http.StatusOK || !st.Over {
		t.Fatalf("resign: %d %+v", code, st)
	}
	v = b.waitTV("the result", func(v tvPageView) bool { return v.Game == shown && strings.Contains(v.Result, "1-0") })
	t.Logf("result %q, said %q", v.Result, v.Announce)
	b.screenshot("tv-result")
	v = b.waitTV("the next game", func(v tvPageView) bool { return v.Game == next && v.Result == "" })
	if !strings.Contains(v.Players, "Nora") || !strings.Contains(v.Announce, "Nora") {
		t.Errorf("after the switch: players %q, said %q", v.Players, v.Announce)
	}
}
