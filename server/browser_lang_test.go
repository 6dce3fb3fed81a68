package server_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// langView is what the header of a page says of its language.
type langView struct {
	Lang   string `json:"lang"`   // the language the page is translated into (<html data-translated>)
	Switch string `json:"switch"` // the switch's choice
	Nav    string `json:"nav"`    // the header's links
	Text   string `json:"text"`   // all the page shows
	Title  string `json:"title"`
	Listed bool   `json:"listed"` // the home page's list of games is in
	Marked bool   `json:"marked"` // the page has not been loaded again since mark
}

const langJS = `(() => {
  const s = document.querySelector('[data-testid="lang"]');
  return {
    lang: document.documentElement.dataset.translated || '',
    switch: s && !s.hidden ? s.value : '',
    nav: document.querySelector('.topbar nav').innerText,
    text: document.body.innerText,
    title: document.title,
    listed: Boolean(document.querySelector('#games')) && !document.querySelector('#games [data-i18n]'),
    marked: window.emergoTestMark === true,
  };
})()`

func (b *browser) langView() (langView, error) { return tryJS[langView](b, langJS) }

// switchLanguage chooses code in the header's switch, as a person does,
// once the page has set the switch up. The page is marked first, so that
// the one loaded again in the new language shows unmarked.
func (b *browser) switchLanguage(code string) {
	b.t.Helper()
	poll(b, "the switch is ready", b.langView, func(v langView) bool { return v.Switch != "" && v.Switch == v.Lang })
	b.mark()
	evalJS[bool](b, `(() => {
  const s = document.querySelector('[data-testid="lang"]');
  s.value = '`+code+`';
  s.dispatchEvent(new Event('change', {bubbles: true}));
  return true;
})()`)
}

// englishTexts are the messages of the English catalogue that lang says
// otherwise, by key (plural forms one by one), for finding English left
// on a page in lang. Messages shorter than four letters are left out:
// they are too often part of other words.
func englishTexts(t *testing.T, lang string) map[string]string {
	t.Helper()
	en, own := catalogue(t, "en"), catalogue(t, lang)
	texts := map[string]string{}
	add := func(key string, msg, other any) {
		s, _ := msg.(string)
		o, _ := other.(string)
		// Only the text around the places: the places hold names and figures.
		for i, part := range placeRE.Split(s, -1) {
			part = strings.TrimSpace(part)
			if len([]rune(part)) >= 4 && !strings.Contains(o, part) {
				texts[key+"#"+string(rune('0'+i))] = part
			}
		}
	}
	for key, msg := range en {
		if forms, ok := msg.(map[string]any); ok {
			other, _ := own[key].(map[string]any)
			for form, f := range forms {
				add(key+"."+form, f, other["other"])
			}
			continue
		}
		add(key, msg, own[key])
	}
	return texts
}

// properNames are the names a page shows in every language, which may
// hold an English word.
var properNames = []string{"Abstract Play"}

// englishIn finds the English left in text, a page's in lang: the texts
// of englishTexts that it holds as whole words, each as "key: text", in
// order. Proper names are not English.
func englishIn(t *testing.T, lang, text string) []string {
	t.Helper()
	for _, name := range properNames {
		text = strings.ReplaceAll(text, name, "")
	}
	var found []string
	for key, s := range englishTexts(t, lang) {
		word := regexp.MustCompile(`(?:^|[^\p{L}\p{N}])` + regexp.QuoteMeta(s) + `(?:$|[^\p{L}\p{N}])`)
		if word.MatchString(text) {
			found = append(found, key+": "+s)
		}
	}
	slices.Sort(found)
	return found
}

// TestBrowserLanguageSwitch: a person whose browser asks for English
// chooses Русский in the header: the page comes back in Russian, and
// stays so after a reload and on the other pages. Each language's home
// page holds on a phone, and shows no English.
func TestBrowserLanguageSwitch(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	b := newBrowser(t, exe, "reader")

	b.do("open the home page", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lang"]`)))
	v := poll(b, "the page is in English", b.langView, func(v langView) bool { return v.Switch == "en" })
	if v.Lang != "en" || !strings.Contains(v.Nav, "New game") {
		t.Fatalf("before any choice: %+v, want English", v)
	}
	options := evalJS[[]string](b, `[...document.querySelectorAll('[data-testid="lang"] option')].map((o) => o.value + ' ' + o.textContent)`)
	if want := []string{"en English", "pt Português", "ru Русский", "lfn Elefen"}; !slices.Equal(options, want) {
		t.Errorf("the switch offers %q, want %q", options, want)
	}

	b.switchLanguage("ru")
	russian := func(v langView) bool {
		return !v.Marked && v.Lang == "ru" && v.Switch == "ru" && strings.Contains(v.Nav, "Новая партия") && strings.Contains(v.Text, "Играть в Эмерго")
	}
	poll(b, "the page comes back in Russian", b.langView, russian)
	b.mark()
	b.do("reload", chromedp.Reload())
	poll(b, "after a reload the page is still Russian", b.langView, russian)
	for _, path := range []string{"/lobby", "/my", "/rules", "/g/nosuchgame"} {
		b.do("open "+path, chromedp.Navigate(ts.URL+path))
		poll(b, path+" is in Russian", b.langView, func(v langView) bool {
			return v.Lang == "ru" && v.Switch == "ru" && strings.Contains(v.Nav, "Мои партии")
		})
	}

	shots := os.Getenv("EMERGO_SCREENSHOTS")
	if shots == "" {
		shots = filepath.Join("testdata", "screenshots")
	}
	b.do("a phone's window", chromedp.EmulateViewport(390, 844))
	for _, lang := range []string{"ru", "pt", "lfn", "en"} {
		b.do("open the home page", chromedp.Navigate(ts.URL+"/"))
		b.switchLanguage(lang)
		v := poll(b, "the home page in "+lang, b.langView, func(v langView) bool {
			return !v.Marked && v.Lang == lang && v.Switch == lang && v.Listed
		})
		if out := evalJS[[]string](b, overflowJS); len(out) > 0 {
			t.Errorf("the home page in %s on a phone: sticks out: %v", lang, out)
		}
		if lang != "en" {
			if found := englishIn(t, lang, v.Text); len(found) > 0 {
				t.Errorf("the home page in %s shows English: %q", lang, found)
			}
		}
		b.screenshot("lang-home-" + lang + "-phone")
	}
	t.Logf("screenshots in %s", shots)
}

// pageReadyJS reports whether the page shown is in lang and has drawn
// what it shows: no list still loading, the game's status and the
// player's counts written.
const pageReadyJS = `((lang) => {
  const m = document.querySelector('main:not([hidden])');
  if (!m || document.documentElement.dataset.translated !== lang || m.querySelector('[data-i18n="common.loading"]')) return false;
  for (const id of ['status', 'profile-counts']) {
    const e = m.querySelector('[data-testid="' + id + '"]');
    if (e && !e.textContent) return false;
  }
  return true;
})`

// fetchJS posts body to path from the page, with its cookies, and answers
// the JSON answer.
func fetchJS(path, body string) string {
	return `fetch('` + path + `', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(` + body + `)}).then((r) => r.json())`
}

// TestBrowserLanguagesLayout: every page of the site in each language, on
// a phone and a wide window: nothing sticks out, and no English is left
// on a page in another language. A player with an account, a game against the
// engine with a refused move, a game waiting for a friend, a game over, a
// challenge in the lobby. The
// screenshots are for the eye.
func TestBrowserLanguagesLayout(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	b := newBrowser(t, exe, "reader")
	b.do("open the home page", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lang"]`)))
	evalJS[map[string]any](b, fetchJS("/api/account/signup", `{username: 'Leitora', password: 'a long password'}`))
	waiting := evalJS[map[string]any](b, fetchJS("/api/games", `{mode: 'friend', size: 7, color: 'white'}`))["id"].(string)
	playing := evalJS[map[string]any](b, fetchJS("/api/games", `{mode: 'engine', size: 7, color: 'white', level: 1}`))["id"].(string)
	over := evalJS[map[string]any](b, fetchJS("/api/games", `{mode: 'engine', size: 7, color: 'white', level: 1}`))["id"].(string)
	evalJS[map[string]any](b, fetchJS("/api/games/"+over+"/move", `{move: 'a1', ply: 0}`))
	evalJS[map[string]any](b, fetchJS("/api/games/"+over+"/resign", `{}`))
	evalJS[map[string]any](b, fetchJS("/api/challenges", `{size: 9, clock: {initial: 300, increment: 3}, rated: true, color: 'random'}`))
	tour := evalJS[map[string]any](b, fetchJS("/api/tournaments", `{name: 'Leitora 2026', system: 'swiss', size: 9, clock: {initial: 300, increment: 3}, rated: true, rounds: 3, conditions: {minRating: 1200, minRatedGames: 2}}`))["id"].(string)
	evalJS[map[string]any](b, fetchJS("/api/tournaments/"+tour+"/join", `{}`))

	pages := []struct{ name, path string }{
		{"home", "/"},
		{"game", "/g/" + playing},
		{"friend", "/g/" + waiting},
		{"over", "/g/" + over},
		{"lobby", "/lobby"},
		{"my", "/my"},
		{"profile", "/@/Leitora"},
		{"notifications", "/notifications"},
		{"following", "/following"},
		{"tv", "/tv?size=7"},
		{"rules", "/rules"},
		{"analysis", "/analysis"},
		{"lessons", "/learn"},
		{"lesson", "/learn#turn"},
		{"puzzles", "/puzzles"},
		{"explorer", "/explorer?size=7&moves=c3"},
		{"tournaments", "/tournaments"},
		{"tournament", "/t/" + tour},
	}
	for _, lang := range []string{"ru", "pt", "lfn", "en"} {
		evalJS[map[string]any](b, fetchJS("/api/lang", `{lang: '`+lang+`'}`))
		for _, size := range []struct {
			name string
			w, h int64
		}{{"phone", 390, 844}, {"wide", 1280, 960}} {
			b.do("a "+size.name+" window", chromedp.EmulateViewport(size.w, size.h))
			for _, p := range pages {
				b.do("open the "+p.name+" page", chromedp.Navigate(ts.URL+p.path))
				poll(b, "the "+p.name+" page in "+lang, func() (bool, error) {
					return tryJS[bool](b, pageReadyJS+`('`+lang+`')`)
				}, func(ok bool) bool { return ok })
				if p.name == "game" {
					// A refused move: the rules' reason in the page's language.
					b.do("type the centre", chromedp.SendKeys(chromedp.CSS(`[data-testid="move-input"]`), "d4\n"))
					b.waitView("the reason is shown", func(v pageView) bool { return v.Message != "" })
					if want := map[string]string{"en": "rule 4.3", "pt": "regra 4.3", "ru": "правило 4.3", "lfn": "regula 4.3"}[lang]; !strings.Contains(b.view().Message, want) {
						t.Errorf("the centre refused in %s: %q, want the rule cited as %q", lang, b.view().Message, want)
					}
				}
				if out := evalJS[[]string](b, overflowJS); len(out) > 0 {
					t.Errorf("the %s page in %s, %s window: sticks out: %v", p.name, lang, size.name, out)
				}
				if lang != "en" {
					if found := englishIn(t, lang, evalJS[string](b, `document.body.innerText`)); len(found) > 0 {
						t.Errorf("the %s page in %s shows English: %q", p.name, lang, found)
					}
				}
				b.screenshot("lang-" + p.name + "-" + lang + "-" + size.name)
			}
		}
	}
}
