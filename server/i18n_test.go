package server_test

// The catalogues of the site's languages (web/i18n/*.json): one key set in
// every language, each message in the same shape with the same places,
// plural forms for every category of its language, and every key used by
// the pages and no key used that is missing. Keys are found where they are
// written out: t('home.title') and the other quoted keys of the modules,
// data-i18n="key" (and data-i18n-placeholder, -title, ...) in the pages,
// and the keys of the lessons' texts (package lessons).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"emergo/lessons"
)

// siteLanguages are the catalogues, English first: the one the others
// are checked against.
var siteLanguages = []string{"en", "pt", "ru", "lfn"}

// pluralForms are the plural categories each language's counts take
// (CLDR, as Intl.PluralRules has them; Elefen's rule is the site's own,
// web/i18n.js). Portuguese's "many" (a million) falls back to "other".
var pluralForms = map[string][]string{
	"en":  {"one", "other"},
	"pt":  {"one", "other"},
	"ru":  {"few", "many", "one", "other"},
	"lfn": {"one", "other"},
}

// catalogue reads web/i18n/{lang}.json: each key's message, a string or
// its plural forms. A key written twice is an error.
func catalogue(t *testing.T, lang string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("web", "i18n", lang+".json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("%s.json: want an object of messages, got %v %v", lang, tok, err)
	}
	c := map[string]any{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("%s.json: %v", lang, err)
		}
		key := tok.(string)
		var msg any
		if err := dec.Decode(&msg); err != nil {
			t.Fatalf("%s.json: %s: %v", lang, key, err)
		}
		if _, ok := c[key]; ok {
			t.Errorf("%s.json: %s is written twice", lang, key)
		}
		c[key] = msg
	}
	return c
}

var placeRE = regexp.MustCompile(`\{([a-zA-Z_][a-zA-Z0-9_]*)\}`)

// places are the names of the {places} of a message, in all its forms.
func places(msg any) []string {
	var texts []string
	switch m := msg.(type) {
	case string:
		texts = []string{m}
	case map[string]any:
		for _, f := range m {
			s, _ := f.(string)
			texts = append(texts, s)
		}
	}
	set := map[string]bool{}
	for _, s := range texts {
		for _, p := range placeRE.FindAllStringSubmatch(s, -1) {
			set[p[1]] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// TestCatalogues: every language has every key of English, and no other;
// each message is a text where English has a text, and plural forms,
// every one its language needs and no other, where English has them; it
// is not empty and has the places English has.
func TestCatalogues(t *testing.T) {
	en := catalogue(t, "en")
	if len(en) == 0 {
		t.Fatal("the English catalogue is empty")
	}
	for _, lang := range siteLanguages {
		c := catalogue(t, lang)
		for key := range en {
			if _, ok := c[key]; !ok {
				t.Errorf("%s.json has no %s", lang, key)
			}
		}
		for _, key := range slices.Sorted(maps.Keys(c)) {
			msg, ok := en[key]
			if !ok {
				t.Errorf("%s.json has %s, which English has not", lang, key)
				continue
			}
			if err := checkMessage(lang, c[key], msg); err != nil {
				t.Errorf("%s.json: %s: %v", lang, key, err)
			}
		}
	}
}

// checkMessage checks the message msg of lang against English's, en.
func checkMessage(lang string, msg, en any) error {
	switch m := msg.(type) {
	case string:
		if _, ok := en.(string); !ok {
			return fmt.Errorf("a text where English has plural forms")
		}
		if strings.TrimSpace(m) == "" {
			return fmt.Errorf("empty")
		}
	case map[string]any:
		if _, ok := en.(map[string]any); !ok {
			return fmt.Errorf("plural forms where English has a text")
		}
		if forms := slices.Sorted(maps.Keys(m)); !slices.Equal(forms, pluralForms[lang]) {
			return fmt.Errorf("plural forms %v, want %v", forms, pluralForms[lang])
		}
		for form, f := range m {
			if s, ok := f.(string); !ok || strings.TrimSpace(s) == "" {
				return fmt.Errorf("plural form %s is %v, want a text", form, f)
			}
		}
		if !slices.Contains(places(m), "n") {
			return fmt.Errorf("plural forms without the count {n}")
		}
	default:
		return fmt.Errorf("%T, want a text or plural forms", msg)
	}
	if got, want := places(msg), places(en); !slices.Equal(got, want) {
		return fmt.Errorf("places %v, English has %v", got, want)
	}
	return nil
}

var (
	// quotedKeyRE finds the quoted texts of the modules that look like
	// keys: words joined by dots.
	quotedKeyRE = regexp.MustCompile(`'([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)'`)
	// callKeyRE finds the keys given to t and tParts, which must exist.
	callKeyRE = regexp.MustCompile(`\b(?:t|tParts)\(\s*'([^']*)'`)
	// attrKeyRE finds the keys of the pages' data-i18n attributes.
	attrKeyRE = regexp.MustCompile(`\bdata-i18n(?:-(?:placeholder|title|aria-label|alt))?="([^"]*)"`)
)

// TestCatalogueKeysUsed: every key of the catalogues is used by a module
// or a page, and every key a module or a page asks for is there. The
// messages of the server's errors (error.*) are checked against the
// server's error codes instead (TestErrorCodesTranslated).
func TestCatalogueKeysUsed(t *testing.T) {
	en := catalogue(t, "en")
	sources, err := filepath.Glob(filepath.Join("web", "*.js"))
	if err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob(filepath.Join("web", "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	// i18n.js is the machinery, and speaks of keys only in general.
	sources = slices.DeleteFunc(sources, func(p string) bool { return filepath.Base(p) == "i18n.js" })
	used := map[string]bool{}
	for _, path := range append(sources, pages...) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		for _, m := range quotedKeyRE.FindAllStringSubmatch(text, -1) {
			if _, ok := en[m[1]]; ok {
				used[m[1]] = true
			}
		}
		asked := append(callKeyRE.FindAllStringSubmatch(text, -1), attrKeyRE.FindAllStringSubmatch(text, -1)...)
		for _, m := range asked {
			if _, ok := en[m[1]]; !ok {
				t.Errorf("%s asks for %q, which the catalogues have not", path, m[1])
			}
			used[m[1]] = true
		}
	}
	// The lessons' texts: the page takes their keys from the course
	// (package lessons, through GET /api/lessons).
	for _, l := range lessons.All() {
		for _, key := range l.Keys() {
			if _, ok := en[key]; !ok {
				t.Errorf("lesson %s asks for %q, which the catalogues have not", l.ID, key)
			}
			used[key] = true
		}
	}
	for _, key := range slices.Sorted(maps.Keys(en)) {
		if !used[key] && !strings.HasPrefix(key, "error.") {
			t.Errorf("%s is in the catalogues but no module or page uses it", key)
		}
	}
}
