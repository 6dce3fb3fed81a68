package server_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBrowserBoardKeepsFocus plays on the analysis board by the keyboard
// and checks that the focus stays on the page when the board, the move
// list and the navigation buttons are drawn anew: a move chosen in the
// list keeps the focus in the list, and a navigation button disabled by
// its own press gives it to the next one that can take it.
func TestBrowserBoardKeepsFocus(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	b := newBrowser(t, exe, "keyboard")
	b.do("open the analysis board", chromedp.Navigate(ts.URL+"/analysis#size=7"))
	poll(b, "the board is ready", func() (bool, error) { return tryJS[bool](b, analysisReadyJS) }, func(ok bool) bool { return ok })
	moves := `document.querySelectorAll('#ab-moves button.mv').length`
	for n := 1; n <= 3; n++ {
		target := b.view().Targets[0]
		evalJS[bool](b, `(document.querySelector('g.sq[data-square="`+target+`"]').focus(), true)`)
		b.press("Enter on "+target, kb.Enter)
		poll(b, "the move in the list", func() (int, error) { return tryJS[int](b, moves) }, func(got int) bool { return got == n })
		b.waitFocus("after playing "+target, "square "+target)
	}
	if n := evalJS[int](b, `document.querySelectorAll('#ab-moves button:not([tabindex="-1"])').length`); n != 1 {
		t.Errorf("the move list has %d Tab stops, want 1", n)
	}

	current := func(at string) func() (bool, error) {
		return func() (bool, error) {
			return tryJS[bool](b, `document.querySelector('#ab-moves [aria-current="true"]')?.dataset.at === '`+at+`'`)
		}
	}
	inList := `document.activeElement.closest('#ab-moves') !== null && document.activeElement.getAttribute('aria-current') === 'true'`
	tests := []struct {
		name, focus, at string // the element focused and Enter pressed on, the move shown after
		want            string // the element with the focus after
	}{
		{"a move of the list", `#ab-moves button.mv`, "1", "list"},
		{"the previous move button at the first move", `[data-testid="nav-prev"]`, "", "nav-next"},
		{"the last move button", `[data-testid="nav-last"]`, "3", "flip"},
	}
	for _, tc := range tests {
		evalJS[bool](b, `(document.querySelector('`+tc.focus+`').focus(), true)`)
		b.press("Enter on "+tc.name, kb.Enter)
		if tc.at != "" {
			poll(b, tc.name+": the move shown", current(tc.at), func(ok bool) bool { return ok })
		} else {
			poll(b, tc.name+": the start shown", func() (bool, error) {
				return tryJS[bool](b, `document.querySelector('[data-testid="nav-prev"]').disabled`)
			}, func(ok bool) bool { return ok })
		}
		if tc.want == "list" {
			poll(b, tc.name+": the focus on the move shown", func() (bool, error) { return tryJS[bool](b, inList) }, func(ok bool) bool { return ok })
		} else {
			b.waitFocus(tc.name, tc.want)
		}
	}
}
