package server_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserBadHash: an address whose hash or path holds escapes that are
// no text ("#%zz", "%E0%A4": typed or cut badly) is read as it is, so that
// the page says there is no such lesson, puzzle, game or player, instead of
// stopping before it shows anything.
func TestBrowserBadHash(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	b := newBrowser(t, exe, "visitor")
	for _, c := range []struct {
		name, url, message, want string
	}{
		{"lesson", "/learn#%zz", "learn-message", "There is no lesson %zz."},
		{"puzzle", "/puzzles#%zz", "puzzle-message", "There is no such puzzle."},
		{"game", "/g/%E0%A4", "notfound-game", "There is no game at this address"},
		{"player", "/@/%E0%A4", "profile-message", "%E0%A4"},
	} {
		b.do("open "+c.url, chromedp.Navigate(ts.URL+c.url))
		js := `[...document.querySelectorAll('[data-testid="` + c.message + `"]')].map((m) => m.textContent.trim()).join(' ')`
		poll(b, c.name+": the page says what is missing", func() (string, error) { return tryJS[string](b, js) },
			func(s string) bool { return strings.Contains(s, c.want) })
	}
}
