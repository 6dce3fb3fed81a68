package server_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserExplorerKeyboard walks the opening explorer by the keyboard
// only: each table of moves and the line are one Tab stop with the arrow
// keys inside, and the focus stays where it was when a move of a table or
// of the line is chosen or a navigation button is disabled by its own
// press; it never falls to the body.
func TestBrowserExplorerKeyboard(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	b := newBrowser(t, exe, "keyboard")
	b.do("open the explorer", chromedp.Navigate(ts.URL+"/explorer?size=7"))
	start := positionAfter(t, 7)
	v := b.waitExplorer("the book's moves from the start", start, func(v explorerView) bool { return len(v.Book) > 1 })

	focusFirst := func(what, sel string) {
		t.Helper()
		evalJS[bool](b, `(document.querySelector('`+sel+`').focus(), true)`)
		b.waitFocus(what, "explorer-move")
	}
	focusFirst("the book's first move", `#explorer-book [data-testid="explorer-move"]`)
	b.press("Tab out of the book's table", kb.Tab)
	poll(b, "Tab leaves the book's table", b.focused, func(f string) bool { return f != "explorer-move" })
	if n := evalJS[int](b, `document.querySelectorAll('#explorer-book button[tabindex="0"], #explorer-book button:not([tabindex])').length`); n != 1 {
		t.Errorf("the book's table has %d Tab stops, want 1", n)
	}

	focusFirst("the book's first move", `#explorer-book [data-testid="explorer-move"]`)
	b.press("ArrowDown in the book's table", kb.ArrowDown)
	second := `document.activeElement.dataset.move === document.querySelectorAll('#explorer-book [data-testid="explorer-move"]')[1].dataset.move`
	poll(b, "ArrowDown focuses the book's second move", func() (bool, error) { return tryJS[bool](b, second) }, func(ok bool) bool { return ok })
	played := evalJS[string](b, `document.activeElement.dataset.move`)
	b.press("Enter on "+played, kb.Enter)
	b.waitExplorer("the position after "+played, positionAfter(t, 7, played), nil)
	b.waitFocus("after choosing "+played+" in the book's table", "explorer-move")

	b.press("Enter on the next move of the book", kb.Enter)
	v = poll(b, "two moves played", b.explorerView, func(v explorerView) bool {
		return len(v.Line) == 2 && v.Current == 2 && v.Shown == v.Position && !v.Busy
	})
	if n := evalJS[int](b, `document.querySelectorAll('#explorer-line button[tabindex="0"], #explorer-line button:not([tabindex])').length`); n != 1 {
		t.Errorf("the line of %d moves has %d Tab stops, want 1", len(v.Line), n)
	}

	evalJS[bool](b, `(document.querySelector('#explorer-line button[tabindex="0"]').focus(), true)`)
	b.press("ArrowLeft in the line", kb.ArrowLeft)
	poll(b, "back to the first move", b.explorerView, func(v explorerView) bool { return v.Current == 1 && v.Shown == v.Position && !v.Busy })
	onFirst := `document.activeElement.closest('#explorer-line') !== null && document.activeElement.dataset.ply === '1'`
	poll(b, "the focus on the line's first move", func() (bool, error) { return tryJS[bool](b, onFirst) }, func(ok bool) bool { return ok })

	evalJS[bool](b, `(document.querySelector('[data-testid="explorer-prev"]').focus(), true)`)
	b.press("Enter on the previous move button", kb.Enter)
	poll(b, "back at the start", b.explorerView, func(v explorerView) bool { return v.Current == 0 && !v.Prev && v.Shown == v.Position && !v.Busy })
	b.waitFocus("the previous move button disabled", "explorer-next")
}
