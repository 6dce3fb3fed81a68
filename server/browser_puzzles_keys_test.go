package server_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserPuzzleGiveUpKeepsFocus asks for a puzzle's solution by the
// keyboard: the button hides itself, and the focus goes on to the next
// puzzle's button rather than falling to the body.
func TestBrowserPuzzleGiveUpKeepsFocus(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	b := newBrowser(t, exe, "keyboard")
	b.do("open a puzzle", chromedp.Navigate(ts.URL+"/puzzles?size=7"))
	poll(b, "the puzzle's board", func() (bool, error) { return tryJS[bool](b, boardReadyJS) }, func(ok bool) bool { return ok })
	b.do("Enter on the solution button", chromedp.Focus(chromedp.CSS(`[data-testid="puzzle-give-up"]`)), chromedp.KeyEvent("\r"))
	poll(b, "the solution said", func() (string, error) { return tryJS[string](b, `document.querySelector('#feedback').innerText`) },
		func(s string) bool { return s != "" })
	b.waitFocus("after asking for the solution", "puzzle-next")
}
