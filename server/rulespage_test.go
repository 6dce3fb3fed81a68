package server_test

import (
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"emergo/rules"
	"emergo/server"
	"emergo/server/internal/diagram"
)

var update = flag.Bool("update", false, "draw the diagrams of the rules pages in web/ and ../docs/rules.md again from their sources")

const (
	rulesPage = "web/rules.html"
	rulesDoc  = "../docs/rules.md"
)

// rulesPath is the rules page in the language l: web/rules.html in
// English, which holds the diagrams' sources, web/rules.pt.html and so on
// in the others.
func rulesPath(l *diagram.Lang) string {
	if l == diagram.English {
		return rulesPage
	}
	return "web/rules." + l.Code + ".html"
}

// rulesSources returns the diagrams of the English rules page, the
// sources of every page's diagrams.
func rulesSources(t *testing.T) []diagram.Spec {
	t.Helper()
	page, err := os.ReadFile(rulesPage)
	if err != nil {
		t.Fatal(err)
	}
	_, specs, err := diagram.Rewrite(string(page), diagram.English, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) == 0 {
		t.Fatalf("%s has no diagram sources", rulesPage)
	}
	return specs
}

// TestRulesPageDiagrams draws every diagram of the rules pages again, the
// English page's from the source comment beside it and the translations'
// from the English source with their own label and caption, and wants the
// pages unchanged; -update writes the new drawings into the pages.
func TestRulesPageDiagrams(t *testing.T) {
	for _, l := range diagram.Langs {
		t.Run(l.Code, func(t *testing.T) {
			// The English page first, so that -update draws the others
			// from its sources as they are now.
			var sources []diagram.Spec
			if l != diagram.English {
				sources = rulesSources(t)
			}
			goldenRewrite(t, rulesPath(l), func(s string) (string, error) {
				out, _, err := diagram.Rewrite(s, l, sources)
				return out, err
			})
		})
	}
}

// TestRulesDocDiagrams does the same for the text diagrams of the rule
// cases in docs/rules.md.
func TestRulesDocDiagrams(t *testing.T) {
	goldenRewrite(t, rulesDoc, diagram.RewriteText)
}

// goldenRewrite compares the file at path with rewrite's output, or
// replaces it with -update.
func goldenRewrite(t *testing.T, path string, rewrite func(string) (string, error)) {
	t.Helper()
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := rewrite(string(old))
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got == string(old) {
		return
	}
	want := strings.Split(string(old), "\n")
	for i, l := range strings.Split(got, "\n") {
		if i >= len(want) || l != want[i] {
			t.Fatalf("%s:%d differs from its sources (run go test ./server -run Rules -update and review git diff):\n%.300s", path, i+1, l)
		}
	}
	t.Fatalf("%s is longer than its sources make it (run go test ./server -run Rules -update)", path)
}

// TestRulesPagePositionsReachable replays the game of every diagram from
// the empty board and checks the invariants of play after every move: the
// columns have their shape, each colour keeps all its men on the board and
// in hand, and the hands only ever shrink, the mover's alone. Spec.Game
// has checked that the moves are legal and reach the position shown.
func TestRulesPagePositionsReachable(t *testing.T) {
	for _, s := range rulesSources(t) {
		gm, err := s.Game()
		if err != nil {
			t.Error(err)
			continue
		}
		g := gm.Geometry()
		for i := 0; i <= gm.Len(); i++ {
			p := gm.PositionAt(i)
			if err := p.Validate(); err != nil {
				t.Errorf("line %d, after %d moves: %v", s.Line, i, err)
			}
			for _, c := range []rules.Color{rules.White, rules.Black} {
				if n := p.Men(c); n != g.Men {
					t.Errorf("line %d, after %d moves: %s has %d men, want %d", s.Line, i, c, n, g.Men)
				}
			}
			if i == 0 {
				continue
			}
			prev := gm.PositionAt(i - 1)
			me := prev.Side()
			if prev.Hand(me.Other()) != p.Hand(me.Other()) || p.Hand(me) > prev.Hand(me) {
				t.Errorf("line %d, move %d: hands %d/%d after %d/%d", s.Line, i,
					p.Hand(rules.White), p.Hand(rules.Black), prev.Hand(rules.White), prev.Hand(rules.Black))
			}
		}
	}
}

// TestRulesPageNumbering checks that every rules page numbers the rules as
// docs/rules.md does, since messages cite them by number ("RULES 4.4"):
// the same numbered sections, with the same titles on the English page,
// with the same anchors on every page, and every numbered rule of the
// document's sections on the page, and no other.
func TestRulesPageNumbering(t *testing.T) {
	doc, err := os.ReadFile(rulesDoc)
	if err != nil {
		t.Fatal(err)
	}
	docSections := regexp.MustCompile(`(?m)^## (\d+)\. (.+)$`).FindAllStringSubmatch(string(doc), -1)
	docRules := regexp.MustCompile(`(?m)^\*\*(\d+\.\d+)\*\*`).FindAllStringSubmatch(string(doc), -1)
	english := rulesAnchors(t, rulesPage)
	for _, l := range diagram.Langs {
		t.Run(l.Code, func(t *testing.T) {
			path := rulesPath(l)
			page, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			pageSections := regexp.MustCompile(`<h2>(\d+)\. ([^<]+)</h2>`).FindAllStringSubmatch(string(page), -1)
			var ps, ds []string
			for i, m := range pageSections {
				ps = append(ps, m[1])
				if i < len(docSections) {
					ds = append(ds, docSections[i][1])
					if l == diagram.English && m[2] != docSections[i][2] {
						t.Errorf("section %s is %q on the page, %q in docs/rules.md", m[1], m[2], docSections[i][2])
					}
				}
			}
			if len(ps) == 0 || len(docSections) < len(ps) || !slices.Equal(ps, ds) {
				t.Errorf("sections of %s %q, of docs/rules.md %q", path, ps, ds)
			}

			pageRules := regexp.MustCompile(`<p><strong>(\d+\.\d+)</strong>`).FindAllStringSubmatch(string(page), -1)
			var pr, dr []string
			for _, m := range pageRules {
				pr = append(pr, m[1])
			}
			for _, m := range docRules {
				section, _, _ := strings.Cut(m[1], ".")
				if n, _ := strconv.Atoi(section); n <= len(ps) {
					dr = append(dr, m[1])
				}
			}
			if len(pr) == 0 || !slices.Equal(pr, dr) {
				t.Errorf("numbered rules of %s %q, of docs/rules.md %q", path, pr, dr)
			}
			if got := rulesAnchors(t, path); !slices.Equal(got, english) {
				t.Errorf("anchors and links of %s %q, of the English page %q", path, got, english)
			}
		})
	}
}

// rulesAnchors lists the ids of the sections of the rules page at path
// and the links of its table of contents.
func rulesAnchors(t *testing.T, path string) []string {
	t.Helper()
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range regexp.MustCompile(`<section id="([^"]+)">|<a href="(#[^"]+)">`).FindAllStringSubmatch(string(page), -1) {
		ids = append(ids, m[1]+m[2])
	}
	return ids
}

// TestRulesPagesAlike checks that every translation of the rules page
// draws the English page's diagrams, in the same order and the same
// sections, identical apart from the texts in the page's language: the
// label, the columns' tooltips and the caption.
func TestRulesPagesAlike(t *testing.T) {
	english := rulesSkeleton(t, rulesPage)
	for _, l := range diagram.Langs[1:] {
		t.Run(l.Code, func(t *testing.T) {
			got := rulesSkeleton(t, rulesPath(l))
			if len(got) != len(english) {
				t.Fatalf("%s has %d sections and figures, the English page %d", rulesPath(l), len(got), len(english))
			}
			for i := range got {
				if got[i] != english[i] {
					t.Errorf("%s differs from the English page in its part %d:\n%.300s\nthe English page:\n%.300s", rulesPath(l), i, got[i], english[i])
				}
			}
		})
	}
}

var (
	skeletonPart = regexp.MustCompile(`(?s)<section id="[^"]+">|<div class="figs">|<figure[^>]*>.*?</figure>`)
	// What a translation words itself: the diagram's comment (which names
	// it), its label, the tooltips and the caption.
	skeletonText = regexp.MustCompile(`(?s)<!-- diagram.*?-->|aria-label="[^"]*"|<title>[^<]*</title>|<figcaption>.*?</figcaption>`)
	diagramName  = regexp.MustCompile(`<!-- diagram (\S+)`)
)

// rulesSkeleton returns the sections and the figures of the rules page at
// path, each figure without its texts but with its diagram's name.
func rulesSkeleton(t *testing.T, path string) []string {
	t.Helper()
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, part := range skeletonPart.FindAllString(string(page), -1) {
		name := diagramName.FindStringSubmatch(part)
		if name != nil {
			part = name[1] + ": " + skeletonText.ReplaceAllString(part, "")
		}
		parts = append(parts, part)
	}
	return parts
}

// untranslated are English words that betray untranslated text on a
// rules page in another language; none is a word of Portuguese, Russian
// or Elefen (which leaves out a, an, as, do, for, no, on, move, table).
var untranslated = func() map[string]bool {
	words := map[string]bool{}
	for _, w := range strings.Fields(`the and of with is are to in it at by from this that if or but not when
		each only can may must his he has have be before after new my contents column columns prisoner
		prisoners white black capture captures captured capturing board square squares hand hands enter
		enters entering entry jump jumps player players opponent shadow piece feeding draw game games
		rule rules win wins loss turn man men`) {
		words[w] = true
	}
	return words
}()

// TestRulesPagesTranslated checks that no English is left on the rules
// pages of the other languages: none of a list of common English words
// in their text and in the attributes a reader hears (labels, titles,
// alternative texts), outside notation (<code>), English words quoted as
// such (<i lang="en">, as the colours' names that W and B stand for), the
// diagrams' sources and names such as Abstract Play.
func TestRulesPagesTranslated(t *testing.T) {
	strip := regexp.MustCompile(`(?s)<!--.*?-->|<code>.*?</code>|<i lang="en">.*?</i>|<(script|style)\b.*?</(script|style)>`)
	tag := regexp.MustCompile(`<[^>]*>`)
	heard := regexp.MustCompile(`\b(?:aria-label|title|alt|placeholder)="([^"]*)"`)
	word := regexp.MustCompile(`\p{L}+`)
	for _, l := range diagram.Langs[1:] {
		t.Run(l.Code, func(t *testing.T) {
			page, err := os.ReadFile(rulesPath(l))
			if err != nil {
				t.Fatal(err)
			}
			text := tag.ReplaceAllStringFunc(strip.ReplaceAllString(string(page), " "), func(tag string) string {
				var b strings.Builder
				for _, m := range heard.FindAllStringSubmatch(tag, -1) {
					b.WriteString(" " + m[1] + " ")
				}
				return b.String() + " "
			})
			for _, line := range strings.Split(text, "\n") {
				var english []string
				for _, w := range word.FindAllString(line, -1) {
					if untranslated[strings.ToLower(w)] {
						english = append(english, w)
					}
				}
				if english != nil {
					t.Errorf("%s: English %q in %q", rulesPath(l), english, strings.TrimSpace(line))
				}
			}
		})
	}
}

// TestRulesPageLanguage: /rules is the rules page in the language of the
// request, the browser's choice over its Accept-Language, each language's
// own page with its <html lang>.
func TestRulesPageLanguage(t *testing.T) {
	e := newEnv(t, server.Config{})
	for _, tc := range []struct {
		name, header, cookie string
		want                 *diagram.Lang
	}{
		{"Russian", "ru-RU,ru;q=0.9,en;q=0.8", "", diagram.Russian},
		{"Brazilian Portuguese", "pt-BR", "", diagram.Portuguese},
		{"Elefen", "lfn, en;q=0.5", "", diagram.Elefen},
		{"English", "en-GB", "", diagram.English},
		{"no language of the site", "de-DE, de;q=0.9", "", diagram.English},
		{"the choice over the header", "ru", "pt", diagram.Portuguese},
		{"English chosen", "ru", "en", diagram.English},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := e.client()
			if tc.cookie != "" {
				u, _ := url.Parse(e.ts.URL)
				c.c.Jar.SetCookies(u, []*http.Cookie{{Name: "emergo_lang", Value: tc.cookie, Path: "/"}})
			}
			req, _ := http.NewRequest("GET", e.ts.URL+"/rules", nil)
			req.Header.Set("Accept-Language", tc.header)
			resp, err := c.c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(rulesPath(tc.want))
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != http.StatusOK || string(body) != string(want) || resp.Header.Get("Content-Language") != tc.want.Code {
				t.Errorf("/rules: %d, Content-Language %q, %.200q; want %s", resp.StatusCode, resp.Header.Get("Content-Language"), body, rulesPath(tc.want))
			}
			if lang := `<html lang="` + tc.want.Code + `">`; !strings.Contains(string(body), lang) {
				t.Errorf("/rules lacks %s", lang)
			}
		})
	}
}

// TestRulesPageHeaders checks that every rules page has the header of the
// site's other pages: the English page's markup, with the texts of the
// page's language from its catalogue (web/i18n), so that the page reads
// right before its script translates it, and without a script at all.
func TestRulesPageHeaders(t *testing.T) {
	header := regexp.MustCompile(`(?s)<header class="topbar">.*?</header>`)
	// An element's text or attribute that the catalogue translates.
	text := regexp.MustCompile(`data-i18n="([^"]+)">([^<]*)<`)
	tag := regexp.MustCompile(`<[^>]* data-i18n-[^>]*>`)
	attr := regexp.MustCompile(` data-i18n-([\w-]+)="([^"]+)"`)
	keyed := func(t *testing.T, l *diagram.Lang) string {
		t.Helper()
		page, err := os.ReadFile(rulesPath(l))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile("web/i18n/" + l.Code + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var catalogue map[string]any
		if err := json.Unmarshal(raw, &catalogue); err != nil {
			t.Fatal(err)
		}
		h := header.FindString(string(page))
		if h == "" {
			t.Fatalf("%s has no header", rulesPath(l))
		}
		h = text.ReplaceAllStringFunc(h, func(m string) string {
			sub := text.FindStringSubmatch(m)
			if catalogue[sub[1]] != sub[2] {
				t.Errorf("%s: the text of %s is %q, the catalogue's %q", rulesPath(l), sub[1], sub[2], catalogue[sub[1]])
			}
			return `data-i18n="` + sub[1] + `">{` + sub[1] + `}<`
		})
		// An attribute data-i18n-X="key" translates is X="...".
		return tag.ReplaceAllStringFunc(h, func(m string) string {
			for _, sub := range attr.FindAllStringSubmatch(m, -1) {
				value := regexp.MustCompile(` ` + sub[1] + `="([^"]*)"`)
				v := value.FindStringSubmatch(m)
				if v == nil {
					continue
				}
				if catalogue[sub[2]] != v[1] {
					t.Errorf("%s: the %s of %s is %q, the catalogue's %q", rulesPath(l), sub[1], sub[2], v[1], catalogue[sub[2]])
				}
				m = value.ReplaceAllLiteralString(m, ` `+sub[1]+`="{`+sub[2]+`}"`)
			}
			return m
		})
	}
	english := keyed(t, diagram.English)
	for _, l := range diagram.Langs[1:] {
		t.Run(l.Code, func(t *testing.T) {
			if got := keyed(t, l); got != english {
				t.Errorf("the header of %s:\n%s\nthe English page's:\n%s", rulesPath(l), got, english)
			}
		})
	}
}
