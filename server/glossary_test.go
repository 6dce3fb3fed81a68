package server_test

// The glossary: each language names each thing of the game with one word,
// the word its players know from the articles the site's translations were
// read against. testdata/glossary.json holds the chosen words and the
// variants they replaced, so that the test needs nothing outside the
// repository; the catalogue and the rules page of each language are read
// against it.

import (
	"encoding/json"
	"html"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// glossaryTerms are one language's terms in testdata/glossary.json.
type glossaryTerms struct {
	// Cite is the word that cites a rule by its number: "regra 4.4".
	Cite string `json:"cite"`
	// Chosen are the words the language uses, each at least once.
	Chosen []string `json:"chosen"`
	// Forbidden are the variants no text may use: regular expressions,
	// matched without case at the beginning of a word.
	Forbidden []string `json:"forbidden"`
	// Keys are messages that must use a chosen word, where the same word
	// means something else in other messages.
	Keys map[string]string `json:"keys"`
}

// readGlossary reads testdata/glossary.json: every site language's terms.
func readGlossary(t *testing.T) map[string]glossaryTerms {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "glossary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Languages map[string]glossaryTerms `json:"languages"`
	}
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatalf("testdata/glossary.json: %v", err)
	}
	for _, lang := range siteLanguages {
		if _, ok := g.Languages[lang]; !ok {
			t.Fatalf("testdata/glossary.json has no terms for %s", lang)
		}
	}
	return g.Languages
}

// messageTexts are the texts of a message, a string or its plural forms.
func messageTexts(msg any) []string {
	switch m := msg.(type) {
	case string:
		return []string{m}
	case map[string]any:
		var texts []string
		for _, form := range slices.Sorted(maps.Keys(m)) {
			s, _ := m[form].(string)
			texts = append(texts, s)
		}
		return texts
	}
	return nil
}

// rulesPageText is the text of lang's rules page as a reader sees it:
// without its tags, its entities decoded. The diagrams' sources stay: they
// are the captions, written in the page's language.
func rulesPageText(t *testing.T, lang string) string {
	t.Helper()
	name := "rules.html"
	if lang != "en" {
		name = "rules." + lang + ".html"
	}
	page, err := os.ReadFile(filepath.Join("web", name))
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile(`(?s)<(script|style)\b.*?</(script|style)>`).ReplaceAllString(string(page), " ")
	text = regexp.MustCompile(`<[^>]*>`).ReplaceAllString(text, " ")
	return html.UnescapeString(text)
}

// wordAt matches pattern at the beginning of a word, in any case.
func wordAt(t *testing.T, pattern string) *regexp.Regexp {
	t.Helper()
	re, err := regexp.Compile(`(?i)(?:^|[^\p{L}])(?:` + pattern + `)`)
	if err != nil {
		t.Fatalf("testdata/glossary.json: %q: %v", pattern, err)
	}
	return re
}

// TestGlossary: each language's catalogue and rules page use its chosen
// words and none of the variants they replaced; the keys that name a
// take-back or a record use the chosen word; and every rule a message
// cites, by its {rule} place or by number in a lesson, is cited with the
// one word the language chose ("regra 4.4", never "REGRAS 4.4").
func TestGlossary(t *testing.T) {
	glossary := readGlossary(t)
	ruleRef := regexp.MustCompile(`(\p{L}+) (?:\{rule\}|\d+\.\d+\))`)
	for _, lang := range siteLanguages {
		t.Run(lang, func(t *testing.T) {
			terms := glossary[lang]
			c := catalogue(t, lang)
			texts := map[string]string{"rules page": rulesPageText(t, lang)}
			for key, msg := range c {
				texts[lang+".json: "+key] = strings.Join(messageTexts(msg), "\n")
			}
			places := slices.Sorted(maps.Keys(texts))

			for _, word := range terms.Chosen {
				re := wordAt(t, regexp.QuoteMeta(word))
				if !slices.ContainsFunc(places, func(p string) bool { return re.MatchString(texts[p]) }) {
					t.Errorf("%q, the chosen word, is used nowhere in %s.json or its rules page", word, lang)
				}
			}
			for _, pattern := range terms.Forbidden {
				re := wordAt(t, pattern)
				for _, p := range places {
					if m := re.FindString(texts[p]); m != "" {
						t.Errorf("%s: %q, a variant the glossary replaced (%s)", p, strings.TrimSpace(m), pattern)
					}
				}
			}
			for _, key := range slices.Sorted(maps.Keys(terms.Keys)) {
				msg, ok := c[key]
				if !ok {
					t.Errorf("%s.json has no %s, which the glossary names", lang, key)
					continue
				}
				re := wordAt(t, regexp.QuoteMeta(terms.Keys[key]))
				for _, text := range messageTexts(msg) {
					if !re.MatchString(text) {
						t.Errorf("%s.json: %s = %q: want %q", lang, key, text, terms.Keys[key])
					}
				}
			}
			for _, key := range slices.Sorted(maps.Keys(c)) {
				for _, text := range messageTexts(c[key]) {
					for _, m := range ruleRef.FindAllStringSubmatch(text, -1) {
						if m[1] != terms.Cite {
							t.Errorf("%s.json: %s cites %q, want %q", lang, key, m[0], terms.Cite+" …")
						}
					}
				}
			}
		})
	}
}
