package notation_test

import (
	"strings"
	"testing"

	"emergo/notation"
	"emergo/rules"
)

// The line coordinates docs/rules.md gives for cases D1 and D9.
func TestMindSportsSquares(t *testing.T) {
	pairs := "c5=d4 c7=c5 d4=e4 e5=e5 e7=d6 a1=e1 a3=d2 a5=c3 a7=b4 a9=a5 b2=e2 b4=d3 c1=f2 " +
		"c9=b6 d6=d5 e1=g3 e9=c7 f4=f5 f6=e6 f8=d7 g1=h4 g9=d8 i1=i5 i3=h6 i5=g7 i7=f8 i9=e9"
	g := rules.Geometry9
	for _, pair := range strings.Fields(pairs) {
		ours, theirs, _ := strings.Cut(pair, "=")
		s, err := g.ParseSquare(ours)
		if err != nil {
			t.Fatal(err)
		}
		if got := notation.MindSportsSquare(g, s); got != theirs {
			t.Errorf("%s: MindSports %s, want %s", ours, got, theirs)
		}
		back, err := notation.ParseMindSportsSquare(g, theirs)
		if err != nil || back != s {
			t.Errorf("%s: read back as %v, %v", theirs, back, err)
		}
	}
	// Every square of both boards round-trips; off-board names are errors.
	for _, g := range []*rules.Geometry{rules.Geometry9, rules.Geometry7} {
		seen := map[string]bool{}
		for s := rules.Square(0); int(s) < g.Squares; s++ {
			name := notation.MindSportsSquare(g, s)
			if seen[name] {
				t.Errorf("%dx%d: %s named twice", g.N, g.N, name)
			}
			seen[name] = true
			if back, err := notation.ParseMindSportsSquare(g, name); err != nil || back != s {
				t.Errorf("%dx%d %s: %v %v", g.N, g.N, name, back, err)
			}
		}
	}
	if _, err := notation.ParseMindSportsSquare(rules.Geometry9, "a1"); err == nil {
		t.Error("a1 is not a MindSports square of 9x9, but it was read")
	}
}

// docs/rules.md, case D1: the MindSports example e4-c4-c6-e6-e4 is the
// start of White's only move, d4xb6xd8xf6xd4xb6, which is
// e4-c4-c6-e6-e4-c4.
func TestMindSportsMoves(t *testing.T) {
	p, err := notation.ParsePosition("9x9 w 0/0 d4:W3 c5:B2w2 e5:B1 c7:B1 e7:B1")
	if err != nil {
		t.Fatal(err)
	}
	m, err := notation.ParseMindSportsMove(&p, "e4-c4-c6-e6-e4-c4")
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Text(p.Geometry()); got != "d4xb6xd8xf6xd4xb6" {
		t.Errorf("read as %s", got)
	}
	if got := notation.MindSportsMove(p.Geometry(), m); got != "e4-c4-c6-e6-e4-c4" {
		t.Errorf("written as %s", got)
	}
	_, err = notation.ParseMindSportsMove(&p, "e4-c4-c6-e6-e4")
	if err == nil || !strings.Contains(err.Error(), "majority") {
		t.Errorf("the 4-man prefix: %v, want the majority rule named", err)
	}
	start := rules.NewPosition(rules.Geometry9)
	if _, err := notation.ParseMindSportsMove(&start, "e5"); err == nil || !strings.Contains(err.Error(), "centre") {
		t.Errorf("entry on the centre: %v", err)
	}
}
