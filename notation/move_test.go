package notation_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"emergo/notation"
	"emergo/rules"
)

// stepText is a movement-phase position without captures: White's a1 is
// hemmed in by its own b2, whose steps are White's only moves.
const stepText = "9x9 w 0/0 a1:W1b10 b2:W1 h8:B1 i9:B1w10"

func TestParseSquares(t *testing.T) {
	g := rules.Geometry9
	for _, tc := range []struct {
		in   string
		kind rules.Kind
		want []string
	}{
		{"e5", rules.Entry, []string{"e5"}},
		{"@e5", rules.Entry, []string{"e5"}},
		{" a1 ", rules.Entry, []string{"a1"}},
		{"E5", rules.Entry, []string{"e5"}},
		{"c3-d4", rules.Step, []string{"c3", "d4"}},
		{"c3xe5", rules.Capture, []string{"c3", "e5"}},
		{"c3xe5xg7", rules.Capture, []string{"c3", "e5", "g7"}},
		{"C3XE5Xg7", rules.Capture, []string{"c3", "e5", "g7"}},
		{"d8xf6xd4xb6xd8", rules.Capture, []string{"d8", "f6", "d4", "b6", "d8"}},
	} {
		kind, sq, err := notation.ParseSquares(g, tc.in)
		if err != nil {
			t.Errorf("ParseSquares(%q): %v", tc.in, err)
			continue
		}
		var names []string
		for _, s := range sq {
			names = append(names, g.Name(s))
		}
		if kind != tc.kind || !slices.Equal(names, tc.want) {
			t.Errorf("ParseSquares(%q) = %v %v, want %v %v", tc.in, kind, names, tc.kind, tc.want)
		}
	}
}

func TestParseSquaresErrors(t *testing.T) {
	for _, tc := range []struct {
		size    int
		in      string
		problem notation.SyntaxProblem
		want    string
	}{
		{9, "", notation.EmptyMove, "empty move"},
		{9, "   ", notation.EmptyMove, "empty move"},
		{9, "@", notation.NotASquare, `"" is not a square name`},
		{9, "@c3-d4", notation.NotASquare, `"c3-d4" is not a square name`},
		{9, "j1", notation.NotASquare, "j1 is off the 9x9 board"},
		{7, "h2", notation.NotASquare, "h2 is off the 7x7 board"},
		{7, "a8", notation.NotASquare, "a8 is off the 7x7 board"},
		{9, "e6", notation.NotASquare, "e6 is not a playable square"},
		{9, "e55", notation.NotASquare, `"e55" is not a square name`},
		{9, "5e", notation.NotASquare, `"5e" is not a square name`},
		{9, "a0", notation.NotASquare, `"a0" is not a square name`},
		{9, "c3-d4-e5", notation.StepForm, "a step is two squares joined by -"},
		{9, "c3-", notation.NotASquare, `"" is not a square name`},
		{9, "c3x", notation.CaptureForm, "a capture is squares joined by x"},
		{9, "xc3xe5", notation.CaptureForm, "a capture is squares joined by x"},
		{9, "c3xxe5", notation.CaptureForm, "a capture is squares joined by x"},
		{9, "x", notation.CaptureForm, "a capture is squares joined by x"},
		{9, "c3-d4xe5", notation.NotASquare, `"c3-d4" is not a square name`},
		{9, "c3 - d4", notation.NotASquare, `"c3 " is not a square name`},
		{9, strings.Repeat("a1x", 13) + "a1", notation.LongCapture, "a capture has at most 12 jumps"},
	} {
		_, _, err := notation.ParseSquares(rules.GeometryOf(tc.size), tc.in)
		var me *notation.MoveError
		if !errors.As(err, &me) {
			t.Errorf("ParseSquares(%q) = %v, want a *MoveError", tc.in, err)
			continue
		}
		if me.Text != tc.in || !strings.Contains(me.Err.Error(), tc.want) {
			t.Errorf("ParseSquares(%q): %q, want the reason to contain %q", tc.in, err, tc.want)
		}
		var se *notation.SyntaxError
		if !errors.As(err, &se) || se.Problem != tc.problem {
			t.Errorf("ParseSquares(%q) = %#v, want a *SyntaxError of problem %d", tc.in, err, tc.problem)
		}
		var sq *rules.SquareError
		if got := errors.As(err, &sq); got != (tc.problem == notation.NotASquare) {
			t.Errorf("ParseSquares(%q): errors.As(*rules.SquareError) = %v", tc.in, got)
		}
	}
}

// TestParseMoveErrors checks that a well-formed but illegal move is
// explained in the terms of the rules.
func TestParseMoveErrors(t *testing.T) {
	const (
		start9  = "9x9 w 12/12 -"
		start7  = "7x7 w 8/8 -"
		afterC3 = "9x9 b 11/12 c3:W1"
	)
	for _, tc := range []struct {
		pos, move, want string
	}{
		{start9, "e5", "the first move may not be on the centre e5 (RULES 4.3)"},
		{start9, "@e5", "centre e5"},
		{start7, "d4", "the first move may not be on the centre d4"},
		{start9, "c3-d4", "White has men in hand and must enter one (RULES 4.1)"},
		{start9, "c3xe5", "White has no capture"},
		{start9, "j1", "j1 is off the 9x9 board"},
		{start9, "e6", "e6 is not a playable square"},
		{afterC3, "c3", "c3 is occupied"},
		{afterC3, "b2", "a man entered on b2 could be captured at once (no feeding, RULES 4.4)"},
		{afterC3, "d4", "no feeding"},
		{d1Text, "c7", "White must capture (RULES 3.5), for example d4xb6xd8xf6xd4xb6"},
		{d1Text, "d4-e3", "White must capture"},
		{d1Text, "d4xf6xd8xb6xd4", "a capture of 5 men is compulsory (majority rule, RULES 3.6)"},
		{d1Text, "d4xb6xd8", "a capture of 5 men is compulsory"},
		{d1Text, "c5xe3", "c5 holds no column of White"},
		{d1Text, "d4xb6xd8xf6xd4xb6xd8", "no such capture sequence"},
		{d1Text, "d4xb6xd4", "a capture of 5 men is compulsory"},
		{d1Text, "d4xf6xd8xb6xd4xf6", "no such capture sequence"},
		{d6Text, "d4", "no feeding"},
		{d6Text, "h8-g7", "Black has men in hand and must enter one"},
		{d7Text, "a1-b2", "White has no legal move"},
		{d8Text, "e5", "White has no legal move"},
		{stepText, "a1-b2", "b2 is occupied"},
		{stepText, "a1-c3", "c3 is not diagonally next to a1"},
		{stepText, "i9-h8", "i9 holds no column of White"},
		{stepText, "e5-d4", "e5 holds no column of White"},
		{stepText, "e5", "White has no men in hand"},
		{stepText, "a1xc3", "White has no capture"},
	} {
		p := mustParsePosition(t, tc.pos)
		_, err := notation.ParseMove(&p, tc.move)
		var me *notation.MoveError
		if !errors.As(err, &me) {
			t.Errorf("%s: ParseMove(%q) = %v, want a *MoveError", tc.pos, tc.move, err)
			continue
		}
		if !strings.Contains(me.Err.Error(), tc.want) {
			t.Errorf("%s: ParseMove(%q): %q, want the reason to contain %q", tc.pos, tc.move, err, tc.want)
		}
		if want := `"` + tc.move + `": `; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: ParseMove(%q): %q does not start with %q", tc.pos, tc.move, err, want)
		}
		var ie *rules.IllegalMoveError
		var se *notation.SyntaxError
		if errors.As(err, &ie) == errors.As(err, &se) {
			t.Errorf("%s: ParseMove(%q) = %#v, want either a *rules.IllegalMoveError or a *SyntaxError inside", tc.pos, tc.move, err)
		}
	}
}

// TestParseMoveD1 plays the only move of docs/rules.md, case D1, from
// its text and checks the position after it.
func TestParseMoveD1(t *testing.T) {
	p := mustParsePosition(t, d1Text)
	m, err := notation.ParseMove(&p, "d4xb6xd8xf6xd4xb6")
	if err != nil {
		t.Fatal(err)
	}
	if m.Kind() != rules.Capture || m.Jumps() != 5 {
		t.Fatalf("got %v with %d jumps", m.Kind(), m.Jumps())
	}
	p.Play(m)
	if got, want := notation.FormatPosition(&p), "9x9 b 0/0 a1:W7b7 c5:W2 b6:W3b5"; got != want {
		t.Errorf("after the capture: %q, want %q", got, want)
	}
	if !p.Lost() {
		t.Error("Black has no column left and should have lost")
	}
}

func TestParseMoveAccepts(t *testing.T) {
	for _, tc := range []struct{ pos, in, want string }{
		{"9x9 w 12/12 -", "@a1", "a1"},
		{"9x9 w 12/12 -", " c3\t", "c3"},
		{"9x9 w 12/12 -", "I9", "i9"},
		{"7x7 w 8/8 -", "g7", "g7"},
		{d6Text, "@i1", "i1"},
		{d1Text, "D4XB6XD8XF6XD4XB6", "d4xb6xd8xf6xd4xb6"},
		{d13Text, "A1-B2", "a1-b2"},
	} {
		p := mustParsePosition(t, tc.pos)
		m, err := notation.ParseMove(&p, tc.in)
		if err != nil {
			t.Errorf("%s: ParseMove(%q): %v", tc.pos, tc.in, err)
			continue
		}
		if got := notation.FormatMove(p.Geometry(), m); got != tc.want {
			t.Errorf("%s: ParseMove(%q) = %q, want %q", tc.pos, tc.in, got, tc.want)
		}
	}
}

// TestParseMoveD3 checks that two capture paths reaching the same position
// stay two moves (RULES 3.7): each text names its own path.
func TestParseMoveD3(t *testing.T) {
	p := mustParsePosition(t, "9x9 w 0/0 a1:W7b7 d4:W3 c5:B1w2 e5:B1 c7:B1 e7:B1 i9:B1")
	got := notation.SortedMoves(p.Geometry(), p.Legal(nil))
	want := []string{"d4xb6xd8xf6xd4", "d4xf6xd8xb6xd4"}
	if !slices.Equal(got, want) {
		t.Fatalf("legal moves %v, want %v", got, want)
	}
	a, errA := notation.ParseMove(&p, want[0])
	b, errB := notation.ParseMove(&p, want[1])
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if a == b {
		t.Error("the two paths parse to the same move")
	}
	if pa, pb := p.After(a), p.After(b); pa != pb {
		t.Error("the two paths should reach the same position")
	}
}

func TestSortedMoves(t *testing.T) {
	p := rules.NewPosition(rules.Geometry7)
	got := notation.SortedMoves(p.Geometry(), p.Legal(nil))
	if len(got) != 24 || !slices.IsSorted(got) || slices.Contains(got, "d4") {
		t.Errorf("SortedMoves(7x7 start) = %v", got)
	}
	if got[0] != "a1" || got[len(got)-1] != "g7" {
		t.Errorf("first and last: %q %q", got[0], got[len(got)-1])
	}
}

// TestMoveRoundTripRandomGames checks at every ply of random games that
// the text of every legal move parses back to that move, entries also
// with the @ prefix.
func TestMoveRoundTripRandomGames(t *testing.T) {
	kinds := map[rules.Kind]int{}
	randomGames(t, 40, 300, func(gm *rules.Game) {
		p := gm.Position()
		g := p.Geometry()
		texts := make(map[string]bool)
		for _, m := range gm.Legal() {
			kinds[m.Kind()]++
			text := m.Text(g)
			if texts[text] {
				t.Fatalf("ply %d: two legal moves are written %q", gm.Len(), text)
			}
			texts[text] = true
			got, err := notation.ParseMove(&p, text)
			if err != nil || got != m {
				t.Fatalf("ply %d of %q: ParseMove(%q) = %q, %v", gm.Len(), notation.FormatPosition(&p), text, got.Text(g), err)
			}
			if m.Kind() == rules.Entry {
				if got, err := notation.ParseMove(&p, "@"+text); err != nil || got != m {
					t.Fatalf("ply %d: ParseMove(%q) = %q, %v", gm.Len(), "@"+text, got.Text(g), err)
				}
			}
		}
	})
	for _, k := range []rules.Kind{rules.Entry, rules.Step, rules.Capture} {
		if kinds[k] == 0 {
			t.Errorf("no move of kind %v in the random games", k)
		}
	}
}

// fuzzPositions are the positions FuzzParseMove reads moves in: one of
// each phase, and captures with several paths.
var fuzzPositions = []string{
	"9x9 w 12/12 -", "7x7 w 8/8 -", "9x9 b 11/12 c3:W1",
	d1Text, d6Text, d7Text, d8Text, d13Text, stepText,
	"9x9 w 0/0 a1:W7b7 d4:W3 c5:B1w2 e5:B1 c7:B1 e7:B1 i9:B1",
	"9x9 b 0/2 a1:W9 g7:W1 h8:B10w2",
}

func FuzzParseMove(f *testing.F) {
	for i, m := range []string{
		"e5", "@e5", "c3-d4", "c3xe5xg7", "j1", "e6", "", "@", "x", "d4xb6xd8xf6xd4xb6",
		"D4XB6XD8XF6XD4XB6", "a1-b2", "h8xf6", "d4xf6xd8xb6xd4", "i1", "c3-d4-e5", " c3 ",
	} {
		f.Add(uint8(i), m)
	}
	positions := make([]rules.Position, len(fuzzPositions))
	for i, s := range fuzzPositions {
		positions[i] = mustParsePosition(f, s)
	}
	f.Fuzz(func(t *testing.T, which uint8, text string) {
		p := positions[int(which)%len(positions)]
		g := p.Geometry()
		m, err := notation.ParseMove(&p, text)
		if err != nil {
			var me *notation.MoveError
			if !errors.As(err, &me) || me.Text != text || me.Err == nil {
				t.Fatalf("ParseMove(%q): unexpected error %#v", text, err)
			}
			return
		}
		if !slices.Contains(p.Legal(nil), m) {
			t.Fatalf("ParseMove(%q) = %q, which is not legal", text, m.Text(g))
		}
		again, err := notation.ParseMove(&p, m.Text(g))
		if err != nil || again != m {
			t.Fatalf("ParseMove(%q) = %q, which parses back as %q, %v", text, m.Text(g), again.Text(g), err)
		}
	})
}
