package server_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPageHeaders: every page of the site in English has the header of
// index.html, the same links in the same order, its own marked as the
// current page (aria-current), so that a page added links the others and
// is linked from them. The translated rules pages are held to rules.html
// by TestRulesPageHeaders.
func TestPageHeaders(t *testing.T) {
	header := regexp.MustCompile(`(?s)<header class="topbar">.*?</header>`)
	read := func(t *testing.T, path string) string {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		h := header.FindString(string(data))
		if h == "" {
			t.Fatalf("%s has no header", path)
		}
		return strings.ReplaceAll(h, ` aria-current="page"`, "")
	}
	want := read(t, filepath.Join("web", "index.html"))
	pages, err := filepath.Glob(filepath.Join("web", "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	translated := regexp.MustCompile(`^rules\.[a-z]+\.html$`)
	for _, path := range pages {
		if translated.MatchString(filepath.Base(path)) {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			if got := read(t, path); got != want {
				t.Errorf("the header of %s:\n%s\nindex.html's:\n%s", path, got, want)
			}
		})
	}
}
