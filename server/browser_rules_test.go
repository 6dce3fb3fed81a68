package server_test

import (
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"emergo/server/internal/diagram"
)

// TestBrowserRulesLanguages: a reader on a phone opens the rules and
// chooses each language with the header's switch, on the rules page
// itself: the page comes back as that language's rules page, translated
// to the last word of its header, holds on the phone, and shows no text
// of the English catalogue. The screenshots are for the eye.
func TestBrowserRulesLanguages(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	b := newBrowser(t, exe, "reader")
	b.do("a phone's window", chromedp.EmulateViewport(390, 844))
	b.do("open the rules", chromedp.Navigate(ts.URL+"/rules"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lang"]`)))
	title := regexp.MustCompile(`<title>([^<]*)</title>`)
	for _, l := range []*diagram.Lang{diagram.Russian, diagram.Portuguese, diagram.Elefen, diagram.English} {
		page, err := os.ReadFile(rulesPath(l))
		if err != nil {
			t.Fatal(err)
		}
		want := title.FindSubmatch(page)[1]
		b.switchLanguage(l.Code)
		v := poll(b, "the rules in "+l.Code, b.langView, func(v langView) bool {
			return !v.Marked && v.Lang == l.Code && v.Switch == l.Code && v.Title == string(want)
		})
		if out := evalJS[[]string](b, overflowJS); len(out) > 0 {
			t.Errorf("the rules in %s on a phone: sticks out: %v", l.Code, out)
		}
		if l != diagram.English {
			if found := englishIn(t, l.Code, v.Text); len(found) > 0 {
				t.Errorf("the rules in %s show English: %q", l.Code, found)
			}
		}
		b.screenshot("rules-" + l.Code + "-phone")
	}
}
