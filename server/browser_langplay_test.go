package server_test

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"emergo/notation"
	"emergo/rules"
	"emergo/server/internal/diagram"
)

// inLanguage starts a browser in the language code, as a person whose
// Chromium speaks it: its interface and the Accept-Language it sends.
func inLanguage(code string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.Flag("lang", code),
		chromedp.Flag("accept-lang", code),
	}
}

// shownJS is all the text a person can meet on the page: what it shows,
// its title, and the labels, tooltips and placeholders of what is not
// hidden (the board's tooltips among them).
const shownJS = `(() => {
  const seen = [document.title, document.body.innerText];
  for (const e of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    if (e.closest('[hidden]')) continue;
    for (const a of ['aria-label', 'title', 'placeholder']) {
      if (e.getAttribute(a)) seen.push(e.getAttribute(a));
    }
  }
  for (const e of document.querySelectorAll('svg title')) seen.push(e.textContent);
  return seen.join('\n');
})()`

// knownEnglish are the English texts a page in another language still
// shows, by the key under which the test finds them, each with why: they
// are reported in the log instead of failing the test. Empty when every
// page is translated.
var knownEnglish = map[string]string{}

// noEnglish fails the test for every text of the English catalogue that
// b's page, in lang, shows to a person, naming the page and the key.
func (b *browser) noEnglish(page, lang string) {
	b.t.Helper()
	if lang == "en" {
		return
	}
	for _, found := range englishIn(b.t, lang, evalJS[string](b, shownJS)) {
		key, _, _ := strings.Cut(found, ": ")
		if why, ok := knownEnglish[key]; ok {
			b.t.Logf("the %s page in %s shows the English %s, known: %s", page, lang, found, why)
			continue
		}
		b.t.Errorf("the %s page in %s shows the English %s", page, lang, found)
	}
}

// TestBrowserPlaysInEachLanguage: a person whose browser speaks one of the
// site's languages, and who has chosen nothing, finds the home page in it,
// plays the engine on the 7×7 board (a typed move refused, a capture),
// resigns, reads the result, and opens the rules: every page is in that
// language, with no text of the English catalogue, nor the English reason
// of the refused move or of the result. Each step's screenshot is saved.
func TestBrowserPlaysInEachLanguage(t *testing.T) {
	exe := requireChromium(t)
	// The English reason the rules give for the refused move.
	start := rules.NewPosition(rules.GeometryOf(7))
	_, err := notation.ParseMove(&start, "d4")
	var illegal *notation.MoveError
	if !errors.As(err, &illegal) {
		t.Fatalf("d4 as the first move: %v, want a move error", err)
	}
	// The page cites a rule as its catalogue does ("rule 4.3"), the
	// rules package's message as the API's ("RULES 4.3").
	refused := pageCitation(illegal.Err.Error())
	title := regexp.MustCompile(`<title>([^<]*)</title>`)

	for _, l := range diagram.Langs {
		t.Run(l.Code, func(t *testing.T) {
			// The clock of TestBrowserPlaysEngine: the person's policy
			// captures early in this game.
			ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 4, 0, time.UTC))
			b := newBrowser(t, exe, "person-"+l.Code, inLanguage(l.Code)...)
			shot := func(step string) { b.screenshot("lang-play-" + l.Code + "-" + step) }

			b.do("open the home page", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="new-engine"]`)))
			poll(b, "the home page in the browser's language", b.langView, func(v langView) bool {
				return v.Lang == l.Code && v.Switch == l.Code && v.Listed
			})
			b.noEnglish("home", l.Code)
			shot("1-home")

			b.do("create the game on the home page",
				chromedp.SendKeys(chromedp.CSS(`[data-testid="name"]`), "Ada"),
				chromedp.SetValue(chromedp.CSS(`[data-testid="size"]`), "7"),
				chromedp.SetValue(chromedp.CSS(`[data-testid="level"]`), "1"),
				chromedp.SetValue(chromedp.CSS(`[data-testid="color"]`), "white"),
				chromedp.Click(chromedp.CSS(`[data-testid="new-engine"]`)),
			)
			id := b.gameID()
			b.mark()
			b.waitView("the board is ready for the first move", func(v pageView) bool { return v.Interactive })
			poll(b, "the game page in the browser's language", b.langView, func(v langView) bool { return v.Lang == l.Code })
			b.noEnglish("game", l.Code)

			b.do("type an illegal move", chromedp.SendKeys(chromedp.CSS(`[data-testid="move-input"]`), "d4\n"))
			v := b.waitView("the refusal is shown", func(v pageView) bool { return v.Message != "" })
			if len(v.Moves) != 0 || !v.Interactive {
				t.Errorf("after an illegal move the page shows %+v, want no move and the board still playable", v)
			}
			said := strings.Contains(strings.ToLower(v.Message), strings.ToLower(refused))
			if l == diagram.English && !said {
				t.Errorf("d4 refused with %q, want the rules' reason %q", v.Message, refused)
			}
			if l != diagram.English && said {
				t.Errorf("d4 refused in %s with %q: the rules' reason in English", l.Code, v.Message)
			}
			b.noEnglish("game with a refused move", l.Code)
			shot("2-refused")
			evalJS[string](b, `document.querySelector('[data-testid="move-input"]').value = ''`)

			capture := b.playToCapture(id)
			b.noEnglish("game after a capture", l.Code)
			shot("3-capture")

			b.do("resign", chromedp.Click(chromedp.CSS(`[data-testid="resign"]`)),
				chromedp.Click(chromedp.CSS(`[data-testid="resign-confirm"]`)))
			v = b.waitView("the result is shown", func(v pageView) bool { return v.Result != "" })
			st := b.state(id)
			t.Logf("%d plies, the person's capture %s, %s (%s): %q", len(st.Moves), capture, st.Result, st.Reason, v.Result)
			if st.Result != "0-1" {
				t.Fatalf("after White resigned the game is %s (%s), want 0-1", st.Result, st.Reason)
			}
			// The result box says it as the language's catalogue does.
			own := catalogue(t, l.Code)
			for _, key := range []string{"result.black_wins", "reason.resignation", "result.you_lost"} {
				if want, _ := own[key].(string); want == "" || !strings.Contains(v.Result, want) {
					t.Errorf("the result box in %s says %q, want %s %q", l.Code, v.Result, key, want)
				}
			}
			if l != diagram.English {
				for _, s := range []string{resultHeads[st.Result], st.Reason} {
					if strings.Contains(strings.ToLower(v.Result), strings.ToLower(s)) {
						t.Errorf("the result box in %s says %q: the English %q", l.Code, v.Result, s)
					}
				}
			}
			if !v.Marked {
				t.Error("the page was reloaded during the game")
			}
			b.noEnglish("game over", l.Code)
			shot("4-result")

			page, err := os.ReadFile(rulesPath(l))
			if err != nil {
				t.Fatal(err)
			}
			want := string(title.FindSubmatch(page)[1])
			b.do("open the rules", chromedp.Navigate(ts.URL+"/rules"))
			poll(b, "the rules in the browser's language", b.langView, func(v langView) bool {
				return v.Lang == l.Code && v.Switch == l.Code && v.Title == want
			})
			b.noEnglish("rules", l.Code)
			shot("5-rules")
		})
	}
}

// playToCapture plays the person's side (White) of the engine game id by
// clicks, with personMove's policy, until the person has captured and the
// engine has replied, and returns the capture. The game must not end
// before.
func (b *browser) playToCapture(id string) string {
	b.t.Helper()
	const plyCap = 60
	geo := rules.GeometryOf(7)
	for {
		st := b.waitState("the engine replies", id, func(st state) bool {
			return st.Result != "*" || (st.Turn == "white" && !st.Thinking)
		})
		n := len(st.Moves)
		if st.Result != "*" || n >= plyCap {
			b.t.Fatalf("no capture by the person in %d plies: %s (%s)", n, st.Result, st.Reason)
		}
		b.waitView("the engine's reply shows and the board takes a move", func(v pageView) bool {
			return slices.Equal(v.Moves, st.Moves) && v.Interactive && !v.Animating
		})
		m := personMove(b.t, replay(b.t, 7, st.Moves), true)
		mv := m.Text(geo)
		b.playByClicks(st.Legal, mv)
		b.waitView(fmt.Sprintf("the clicked move %s is in the move list", mv), func(v pageView) bool {
			return len(v.Moves) > n && v.Moves[n] == mv
		})
		if m.Jumps() > 0 {
			b.waitState("the engine replies to the capture", id, func(st state) bool {
				return st.Result != "*" || (st.Turn == "white" && !st.Thinking)
			})
			return mv
		}
	}
}
