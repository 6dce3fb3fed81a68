package server_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"emergo/puzzle"
)

// TestBrowserPuzzleGiveUpKeepsFocus asks for a puzzle's solution by the
// keyboard: the button hides itself, and the focus goes on to the next
// puzzle's button rather than falling to the body.
func TestBrowserPuzzleGiveUpKeepsFocus(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	b := newBrowser(t, exe, "keyboard")
	id := ""
	for _, p := range puzzle.Set(7).Puzzles {
		if len(p.Line) >= 3 {
			id = p.ID
			break
		}
	}
	if id == "" {
		t.Fatal("no puzzle of 7x7 with a line of three moves")
	}
	b.do("open a puzzle of three moves", chromedp.Navigate(ts.URL+"/puzzles#"+id))
	poll(b, "the puzzle's board", func() (bool, error) { return tryJS[bool](b, boardReadyJS) }, func(ok bool) bool { return ok })
	b.do("Enter on the solution button", chromedp.Focus(chromedp.CSS(`[data-testid="puzzle-give-up"]`)), chromedp.KeyEvent("\r"))
	poll(b, "the solution said", func() (string, error) { return tryJS[string](b, `document.querySelector('#feedback').innerText`) },
		func(s string) bool { return s != "" })
	b.waitFocus("after asking for the solution", "puzzle-next")

	// The solution's moves: one Tab stop, the arrow keys from move to move.
	stops := `document.querySelectorAll('#solution-list button:not([tabindex="-1"])').length`
	if n := evalJS[int](b, stops); n != 1 {
		t.Errorf("the solution's list has %d Tab stops, want 1", n)
	}
	if n := evalJS[int](b, `document.querySelectorAll('#solution-list button').length`); n < 3 {
		t.Fatalf("the solution's list has %d moves, want 3 or more", n)
	}
	b.do("ArrowRight in the solution", chromedp.Focus(chromedp.CSS(`#solution-list button[tabindex="0"]`)), chromedp.KeyEvent(kb.ArrowRight))
	onSecond := `document.activeElement.dataset.ply === '2'`
	poll(b, "the focus on the solution's second move", func() (bool, error) { return tryJS[bool](b, onSecond) }, func(ok bool) bool { return ok })
}
