package server_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"emergo/book"
	"emergo/notation"
	"emergo/rules"
	"emergo/store/sqlstore"
	"emergo/store/storetest"
)

// explorerView is what the explorer's page shows.
type explorerView struct {
	Search   string   `json:"search"`
	Position string   `json:"position"` // the page's position text
	Shown    string   `json:"shown"`    // the position of the tables (data-position)
	Busy     bool     `json:"busy"`
	Line     []string `json:"line"`
	Current  int      `json:"current"` // the ply of the move marked in the line
	Link     string   `json:"link"`
	Eval     string   `json:"eval"`
	Turn     string   `json:"turn"`
	Book     []string `json:"book"` // each row: move, games, the results in words
	Site     []string `json:"site"`
	SiteNote string   `json:"siteNote"`
	Legal    []string `json:"legal"` // the board's targets and movable squares
	Prev     bool     `json:"prev"`  // enabled
	Next     bool     `json:"next"`
	Message  string   `json:"message"`
	Size     string   `json:"size"`
}

const explorerJS = `(() => {
  const q = (s) => document.querySelector(s);
  const text = (s) => (q(s) ? q(s).textContent.trim() : '');
  const rows = (id) => [...document.querySelectorAll('#' + id + ':not([hidden]) tbody tr')].map((r) =>
    [r.querySelector('button').textContent, r.querySelector('[data-testid="explorer-games"]').textContent,
     r.querySelector('[data-testid="explorer-results"]').textContent].join(' | '));
  const cur = q('#explorer-line .mv.current');
  return {
    search: location.search,
    position: text('[data-testid="explorer-position"]'),
    shown: q('#explorer').dataset.position || '',
    busy: q('#explorer').hasAttribute('aria-busy'),
    line: [...document.querySelectorAll('#explorer-line .mv')].map((b) => b.textContent),
    current: cur ? Number(cur.dataset.ply) : 0,
    link: q('[data-testid="explorer-link"]').getAttribute('href'),
    eval: text('[data-testid="explorer-eval"]'),
    turn: text('[data-testid="explorer-turn"]'),
    book: rows('explorer-book'),
    site: rows('explorer-site'),
    siteNote: text('[data-testid="explorer-site-note"]'),
    legal: [...document.querySelectorAll('g[data-square].target, g[data-square].movable')].map((g) => g.dataset.square).sort(),
    prev: !q('[data-testid="explorer-prev"]').disabled,
    next: !q('[data-testid="explorer-next"]').disabled,
    message: text('[data-testid="explorer-message"]'),
    size: q('[data-testid="explorer-size"]').value,
  };
})()`

func (b *browser) explorerView() (explorerView, error) { return tryJS[explorerView](b, explorerJS) }

// waitExplorer waits until the page shows the position pos, its answer in
// and nothing on its way, and ok accepts the rest.
func (b *browser) waitExplorer(what, pos string, ok func(explorerView) bool) explorerView {
	b.t.Helper()
	return poll(b, what, b.explorerView, func(v explorerView) bool {
		return v.Position == pos && v.Shown == pos && !v.Busy && (ok == nil || ok(v))
	})
}

// siteRows are the rows the site's table should show for moves.
func siteRows(ms []book.Move) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, fmt.Sprintf("%s | %d | %s", m.Text, m.Games(), resultsText(m)))
	}
	return out
}

// resultsText is the results of a move as a screen reader hears them.
func resultsText(m book.Move) string {
	pct := shares(m)
	return fmt.Sprintf("White won %d%% (%d), drawn %d%% (%d), Black won %d%% (%d)", pct[0], m.White, pct[1], m.Draws, pct[2], m.Black)
}

// shares are opening.js's shares: whole percentages adding up to 100, the
// largest remainders rounded up.
func shares(m book.Move) [3]int {
	n := [3]int{m.White, m.Draws, m.Black}
	total := m.Games()
	var out [3]int
	if total == 0 {
		return out
	}
	left := 100
	for i := range n {
		out[i] = n[i] * 100 / total
		left -= out[i]
	}
	order := []int{0, 1, 2}
	slices.SortStableFunc(order, func(a, b int) int { return n[b]*100%total - n[a]*100%total })
	for _, i := range order[:left] {
		out[i]++
	}
	return out
}

func positionAfter(t *testing.T, size int, moves ...string) string {
	t.Helper()
	g := rules.NewGame(rules.GeometryOf(size))
	if err := notation.PlayMoves(g, moves); err != nil {
		t.Fatal(err)
	}
	p := g.Position()
	return notation.FormatPosition(&p)
}

// TestBrowserExplorer: the explorer shows the counts of the games in the
// store, position by position, and the book's moves with the engine's
// evaluation; a move clicked in a table or played on the board goes on,
// the buttons and keys go back and forward along the line, the link
// restores the position; on a wide window and a phone's. Screenshots go
// to docs/screenshots when EMERGO_SCREENSHOTS says so.
func TestBrowserExplorer(t *testing.T) {
	exe := requireChromium(t)
	path := filepath.Join(t.TempDir(), "games.db")
	st, err := sqlstore.OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	games := storetest.ExplorerGames()
	for _, g := range games {
		if err := st.Create(context.Background(), g); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	ts, _ := browserServerOn(t, path, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	b := newBrowser(t, exe, "visitor")

	start9 := positionAfter(t, 9)
	b.do("open the explorer", chromedp.Navigate(ts.URL+"/explorer"))
	want := siteRows(storetest.NaiveExplorerMoves(t, games, start9))
	v := b.waitExplorer("the site's games from the start", start9, func(v explorerView) bool {
		return slices.Equal(v.Site, want) && len(v.Book) > 0 && strings.Contains(v.Eval, "depth")
	})
	if !strings.HasPrefix(v.SiteNote, "14 finished games") {
		t.Errorf("the site's note says %q, want 14 finished games", v.SiteNote)
	}
	bk := book.Embedded(9)
	start := rules.NewPosition(rules.GeometryOf(9))
	entry, _ := bk.Lookup(&start)
	if got, want := v.Book, siteRows(entry.Moves); !slices.Equal(got, want) {
		t.Errorf("the book's rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if v.Prev || v.Next || v.Turn != "White to move" {
		t.Errorf("at the start: prev %v next %v turn %q", v.Prev, v.Next, v.Turn)
	}
	b.screenshot("explorer-desktop")

	// A move of the site's table: the counts of the position after it.
	first := strings.Split(v.Site[0], " | ")[0]
	b.do("click "+first+" in the site's table", chromedp.Click(chromedp.CSS(`#explorer-site button[data-move="`+first+`"]`)))
	after1 := positionAfter(t, 9, first)
	want = siteRows(storetest.NaiveExplorerMoves(t, games, after1))
	v = b.waitExplorer("the position after "+first, after1, func(v explorerView) bool {
		return slices.Equal(v.Site, want) && slices.Equal(v.Line, []string{first}) && v.Search == "?size=9&moves="+first
	})
	if v.Turn != "Black to move" || !v.Prev || v.Next {
		t.Errorf("after %s: turn %q, prev %v, next %v", first, v.Turn, v.Prev, v.Next)
	}

	// A move on the board: an entry no game played.
	var entry2 string
	for _, sq := range v.Legal {
		if !slices.ContainsFunc(v.Site, func(r string) bool { return strings.HasPrefix(r, sq+" ") }) {
			entry2 = sq
			break
		}
	}
	b.clickSquare(entry2)
	after2 := positionAfter(t, 9, first, entry2)
	// Not in the book: the evaluation is a search of the analysis queue.
	v = b.waitExplorer("the position after "+entry2+" played on the board, evaluated", after2, func(v explorerView) bool {
		return slices.Equal(v.Line, []string{first, entry2}) && v.Current == 2 && strings.Contains(v.Eval, "search, depth")
	})
	if len(v.Site) != 0 || !strings.Contains(v.SiteNote, "No finished game") {
		t.Errorf("after a move nobody played: site %v, note %q", v.Site, v.SiteNote)
	}
	b.screenshot("explorer-line")

	// Back and forward, by the buttons and by the keys, keep the line.
	b.do("back", chromedp.Click(chromedp.CSS(`[data-testid="explorer-prev"]`)))
	b.waitExplorer("back to the position after "+first, after1, func(v explorerView) bool {
		return slices.Equal(v.Line, []string{first, entry2}) && v.Current == 1 && v.Next
	})
	b.do("forward", chromedp.Click(chromedp.CSS(`[data-testid="explorer-next"]`)))
	b.waitExplorer("forward again", after2, func(v explorerView) bool { return v.Current == 2 })
	b.do("Home", chromedp.KeyEvent(kb.Home))
	b.waitExplorer("Home goes to the start", start9, func(v explorerView) bool { return v.Current == 0 && len(v.Line) == 2 })
	b.do("End", chromedp.KeyEvent(kb.End))
	v = b.waitExplorer("End goes to the end of the line", after2, func(v explorerView) bool { return v.Current == 2 })

	// The link restores the position in a page of its own.
	b.do("open the link", chromedp.Navigate(ts.URL+v.Link))
	b.waitExplorer("the link's position", after2, func(v explorerView) bool {
		return slices.Equal(v.Line, []string{first, entry2}) && v.Current == 2
	})

	// The other board.
	b.do("open the explorer", chromedp.Navigate(ts.URL+"/explorer"))
	b.waitExplorer("the 9x9 start", start9, nil)
	evalJS[bool](b, `(() => {
  const s = document.querySelector('[data-testid="explorer-size"]');
  s.value = '7';
  return s.dispatchEvent(new Event('change'));
})()`)
	start7 := positionAfter(t, 7)
	want = siteRows(storetest.NaiveExplorerMoves(t, games, start7))
	b.waitExplorer("the 7x7 start", start7, func(v explorerView) bool {
		return slices.Equal(v.Site, want) && len(v.Book) > 0 && v.Search == "?size=7"
	})

	// A phone: nothing sticks out, a move of the book's table goes on.
	b.do("a phone's window", chromedp.EmulateViewport(390, 844))
	if out := evalJS[[]string](b, overflowJS); len(out) > 0 {
		t.Errorf("the explorer on a phone: sticks out: %v", out)
	}
	b.screenshot("explorer-phone")
	move7 := strings.Split(b.waitExplorer("the 7x7 start", start7, nil).Book[0], " | ")[0]
	b.do("click "+move7+" in the book", chromedp.Click(chromedp.CSS(`#explorer-book button[data-move="`+move7+`"]`)))
	b.waitExplorer("the position after "+move7, positionAfter(t, 7, move7), func(v explorerView) bool {
		return slices.Equal(v.Line, []string{move7})
	})
	if out := evalJS[[]string](b, overflowJS); len(out) > 0 {
		t.Errorf("the explorer on a phone after %s: sticks out: %v", move7, out)
	}
	b.screenshot("explorer-phone-move")
}
