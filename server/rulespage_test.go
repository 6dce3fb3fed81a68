package server_test

import (
	"flag"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"emergo/rules"
	"emergo/server/internal/diagram"
)

var update = flag.Bool("update", false, "draw the diagrams of web/rules.html and ../docs/rules.md again from their sources")

const (
	rulesPage = "web/rules.html"
	rulesDoc  = "../docs/rules.md"
)

// TestRulesPageDiagrams draws every diagram of the rules page again from
// the source comment beside it and wants the page unchanged; -update
// writes the new drawings into the page.
func TestRulesPageDiagrams(t *testing.T) {
	goldenRewrite(t, rulesPage, func(s string) (string, error) {
		out, specs, err := diagram.Rewrite(s, diagram.English, nil)
		if err == nil && len(specs) == 0 {
			t.Errorf("%s has no diagram sources", rulesPage)
		}
		return out, err
	})
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
	page, err := os.ReadFile(rulesPage)
	if err != nil {
		t.Fatal(err)
	}
	_, specs, err := diagram.Rewrite(string(page), diagram.English, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range specs {
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

// TestRulesPageNumbering checks that the page and docs/rules.md number the
// rules alike, since messages cite them by number ("RULES 4.4"): the same
// numbered sections with the same titles, and every numbered rule of the
// document's sections on the page, and no other.
func TestRulesPageNumbering(t *testing.T) {
	page, err := os.ReadFile(rulesPage)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(rulesDoc)
	if err != nil {
		t.Fatal(err)
	}
	pageSections := regexp.MustCompile(`<h2>(\d+\. [^<]+)</h2>`).FindAllStringSubmatch(string(page), -1)
	docSections := regexp.MustCompile(`(?m)^## (\d+\. .+)$`).FindAllStringSubmatch(string(doc), -1)
	var ps, ds []string
	for _, m := range pageSections {
		ps = append(ps, m[1])
	}
	for _, m := range docSections {
		ds = append(ds, m[1])
	}
	if len(ps) == 0 || len(ds) < len(ps) || !slices.Equal(ps, ds[:len(ps)]) {
		t.Errorf("sections of the page %q, of docs/rules.md %q", ps, ds)
	}

	pageRules := regexp.MustCompile(`<p><strong>(\d+\.\d+)</strong>`).FindAllStringSubmatch(string(page), -1)
	docRules := regexp.MustCompile(`(?m)^\*\*(\d+\.\d+)\*\*`).FindAllStringSubmatch(string(doc), -1)
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
		t.Errorf("numbered rules of the page %q, of docs/rules.md %q", pr, dr)
	}
}
