package server_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// langView is what the header of a page says of its language.
type langView struct {
	Lang   string `json:"lang"`   // <html lang>
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
    lang: document.documentElement.lang,
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
			for key, s := range englishTexts(t, lang) {
				if strings.Contains(v.Text, s) {
					t.Errorf("the home page in %s shows the English %q (%s)", lang, s, key)
				}
			}
		}
		b.screenshot("lang-home-" + lang + "-phone")
	}
	t.Logf("screenshots in %s", shots)
}
