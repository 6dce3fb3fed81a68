package notation_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"emergo/notation"
	"emergo/rules"
)

// Rule cases of docs/rules.md in position text. The diagrams there leave out
// men that play no part, which a composed position may do; d1 adds the
// filler column a1:W7b7 all the same, so that it is also a position a game
// could reach. It cannot move before White's capture and leaves Black
// without a column after it, as in the original.
const (
	d1Text  = "9x9 w 0/0 a1:W7b7 d4:W3 c5:B2w2 e5:B1 c7:B1 e7:B1"
	d6Text  = "9x9 b 0/2 a1:W9 e5:W1 h8:B10w2"
	d7Text  = "9x9 w 0/0 a1:W1 b2:B1w6 c3:B11w5"
	d8Text  = "9x9 w 0/2 e5:B10w12"
	d13Text = "9x9 w 0/0 a1:W1b11 i9:B1w11"
)

func mustParsePosition(t testing.TB, text string) rules.Position {
	t.Helper()
	p, err := notation.ParsePosition(text)
	if err != nil {
		t.Fatalf("ParsePosition(%q): %v", text, err)
	}
	return p
}

func TestFormatPositionStart(t *testing.T) {
	for _, tc := range []struct {
		g    *rules.Geometry
		want string
	}{
		{rules.Geometry9, "9x9 w 12/12 -"},
		{rules.Geometry7, "7x7 w 8/8 -"},
	} {
		p := rules.NewPosition(tc.g)
		if got := notation.FormatPosition(&p); got != tc.want {
			t.Errorf("FormatPosition(start %dx%d) = %q, want %q", tc.g.N, tc.g.N, got, tc.want)
		}
		if q := mustParsePosition(t, tc.want); q != p {
			t.Errorf("ParsePosition(%q) is not the start position", tc.want)
		}
	}
}

// TestFormatPositionColumns builds positions column by column and checks
// the canonical text, which fixes the order of the columns and the
// spelling of each.
func TestFormatPositionColumns(t *testing.T) {
	W, B := rules.White, rules.Black
	g := rules.Geometry9
	sq := func(name string) rules.Square {
		s, err := g.ParseSquare(name)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, tc := range []struct {
		name string
		cols map[string]rules.Column
		hand [2]int
		side rules.Color
		want string
	}{
		{"D1 with filler", map[string]rules.Column{
			"e7": {Owner: B, Top: 1}, "c7": {Owner: B, Top: 1}, "e5": {Owner: B, Top: 1},
			"c5": {Owner: B, Top: 2, Prisoners: 2}, "d4": {Owner: W, Top: 3},
			"a1": {Owner: W, Top: 7, Prisoners: 7},
		}, [2]int{0, 0}, W, d1Text},
		{"D6", map[string]rules.Column{
			"h8": {Owner: B, Top: 10, Prisoners: 2}, "e5": {Owner: W, Top: 1}, "a1": {Owner: W, Top: 9},
		}, [2]int{0, 2}, B, d6Text},
		{"D13", map[string]rules.Column{
			"i9": {Owner: B, Top: 1, Prisoners: 11}, "a1": {Owner: W, Top: 1, Prisoners: 11},
		}, [2]int{0, 0}, W, d13Text},
		{"entering", map[string]rules.Column{
			"e5": {Owner: W, Top: 1}, "c3": {Owner: B, Top: 1},
		}, [2]int{11, 11}, W, "9x9 w 11/11 c3:B1 e5:W1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cols := make(map[rules.Square]rules.Column)
			for name, c := range tc.cols {
				cols[sq(name)] = c
			}
			p, err := rules.PositionOf(g, cols, tc.hand, tc.side)
			if err != nil {
				t.Fatal(err)
			}
			if got := notation.FormatPosition(&p); got != tc.want {
				t.Errorf("FormatPosition = %q, want %q", got, tc.want)
			}
			if q := mustParsePosition(t, tc.want); q != p || q.Hash() != p.Hash() {
				t.Errorf("ParsePosition(%q) differs from the position built by PositionOf", tc.want)
			}
		})
	}
}

// TestParsePositionCanonical parses canonical texts, checks the parts and
// formats them back unchanged.
func TestParsePositionCanonical(t *testing.T) {
	for _, tc := range []struct {
		text       string
		size       int
		side       rules.Color
		handW      int
		handB      int
		columns    int
		checkSq    string
		checkCol   rules.Column
		wantLegals int // -1 to skip
	}{
		{"9x9 w 12/12 -", 9, rules.White, 12, 12, 0, "e5", rules.Column{}, 40},
		{"7x7 w 8/8 -", 7, rules.White, 8, 8, 0, "d4", rules.Column{}, 24},
		{"7x7 b 7/8 d4:W1", 7, rules.Black, 7, 8, 1, "d4", rules.Column{Owner: rules.White, Top: 1}, -1},
		{"7x7 w 0/0 a1:W4b3 c3:W1 g7:B5w3", 7, rules.White, 0, 0, 3, "g7", rules.Column{Owner: rules.Black, Top: 5, Prisoners: 3}, -1},
		{d1Text, 9, rules.White, 0, 0, 6, "c5", rules.Column{Owner: rules.Black, Top: 2, Prisoners: 2}, 1},
		{d6Text, 9, rules.Black, 0, 2, 3, "h8", rules.Column{Owner: rules.Black, Top: 10, Prisoners: 2}, 33},
		{d7Text, 9, rules.White, 0, 0, 3, "c3", rules.Column{Owner: rules.Black, Top: 11, Prisoners: 5}, 0},
		{d8Text, 9, rules.White, 0, 2, 1, "e5", rules.Column{Owner: rules.Black, Top: 10, Prisoners: 12}, 0},
		{d13Text, 9, rules.White, 0, 0, 2, "a1", rules.Column{Owner: rules.White, Top: 1, Prisoners: 11}, 1},
		{"9x9 b 10/11 c5:W1 h6:B1 i7:W1", 9, rules.Black, 10, 11, 3, "i7", rules.Column{Owner: rules.White, Top: 1}, 38},
	} {
		t.Run(tc.text, func(t *testing.T) {
			p := mustParsePosition(t, tc.text)
			g := p.Geometry()
			if g.N != tc.size || p.Side() != tc.side || p.Hand(rules.White) != tc.handW || p.Hand(rules.Black) != tc.handB {
				t.Errorf("got %dx%d, side %v, hands %d/%d", g.N, g.N, p.Side(), p.Hand(rules.White), p.Hand(rules.Black))
			}
			n := 0
			for s := rules.Square(0); int(s) < g.Squares; s++ {
				if !p.At(s).Empty() {
					n++
				}
			}
			if n != tc.columns {
				t.Errorf("%d columns, want %d", n, tc.columns)
			}
			s, err := g.ParseSquare(tc.checkSq)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.At(s); got != tc.checkCol {
				t.Errorf("column on %s = %+v, want %+v", tc.checkSq, got, tc.checkCol)
			}
			if tc.wantLegals >= 0 {
				if got := len(p.Legal(nil)); got != tc.wantLegals {
					t.Errorf("%d legal moves, want %d", got, tc.wantLegals)
				}
			}
			if err := p.Validate(); err != nil {
				t.Error(err)
			}
			if got := notation.FormatPosition(&p); got != tc.text {
				t.Errorf("FormatPosition = %q, want %q", got, tc.text)
			}
		})
	}
}

// TestParsePositionLenient checks the freedoms of the parser: any order of
// columns, any white space, commas between columns.
func TestParsePositionLenient(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"  9x9   w\t12/12   -  ", "9x9 w 12/12 -"},
		{"9x9 w 12/12 -\n", "9x9 w 12/12 -"},
		{"9x9 w 0/0 e7:B1 c7:B1 e5:B1 c5:B2w2 d4:W3 a1:W7b7", d1Text},
		{"9x9 w 0/0 e7:B1, c7:B1, e5:B1, c5:B2w2, d4:W3, a1:W7b7", d1Text},
		{"9x9 w 0/0 e7:B1,c7:B1,e5:B1,c5:B2w2,d4:W3,a1:W7b7", d1Text},
		{"9x9 w 0/0 e7:B1 ,c7:B1 , e5:B1 c5:B2w2\td4:W3\n a1:W7b7", d1Text},
		{"9x9 b 0/2 h8:B10w2 e5:W1 a1:W9", d6Text},
	} {
		p, err := notation.ParsePosition(tc.in)
		if err != nil {
			t.Errorf("ParsePosition(%q): %v", tc.in, err)
			continue
		}
		if got := notation.FormatPosition(&p); got != tc.want {
			t.Errorf("FormatPosition(ParsePosition(%q)) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParsePositionErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // fragments of the message, in order
	}{
		{"", []string{`notation: position "": missing the size`, `such as "9x9 w 12/12 -"`}},
		{"9x9", []string{"missing the side to move"}},
		{"9x9 w", []string{"missing the men in hand"}},
		{"9x9 w 12/12", []string{"missing the columns (- for an empty board)"}},
		{"9x9 w 12/12   ", []string{"missing the columns"}},
		{"8x8 w 12/12 -", []string{`size "8x8": the board is 9x9 or 7x7`}},
		{"9X9 w 12/12 -", []string{`size "9X9"`}},
		{"9 w 12/12 -", []string{`size "9"`}},
		{"9x9 W 12/12 -", []string{`side "W": the side to move is w or b`}},
		{"9x9 white 12/12 -", []string{`side "white"`}},
		{"9x9 w 12-12 -", []string{`hands "12-12": write the men in hand as white/black`}},
		{"9x9 w 13/12 -", []string{`hands "13/12": White's hand "13" is not a number from 0 to 12`}},
		{"7x7 w 8/9 -", []string{`Black's hand "9" is not a number from 0 to 8`}},
		{"9x9 w 12/-1 -", []string{`Black's hand "-1"`}},
		{"9x9 w 012/12 -", []string{`White's hand "012"`}},
		{"9x9 w /12 -", []string{`White's hand ""`}},
		{"9x9 w 12/12/12 -", []string{`Black's hand "12/12"`}},
		{"9x9 w 12/12 - d4:W1", []string{`column "-": - stands for an empty board`}},
		{"9x9 w 11/12 d4:W1 -", []string{`column "-"`}},
		{"9x9 w 11/12 d4:W1,", []string{"a comma without a column on both sides"}},
		{"9x9 w 10/12 d4:W1,,e5:W1", []string{"a comma without a column"}},
		{"9x9 w 11/12 ,d4:W1", []string{"a comma without a column"}},
		{"9x9 w 12/12 c6:W3", []string{`notation: position "9x9 w 12/12 c6:W3": column "c6:W3": c6 is not a playable square`}},
		{"7x7 w 8/8 h8:W1", []string{`column "h8:W1": h8 is off the 7x7 board`}},
		{"9x9 w 12/12 j1:W1", []string{`j1 is off the 9x9 board`}},
		{"9x9 w 12/12 E5:W1", []string{`"E5" is not a square name`}},
		{"9x9 w 11/12 d4W1", []string{`column "d4W1": a column is square:owner and men`}},
		{"9x9 w 11/12 d4:", []string{`column "d4:": a column is`}},
		{"9x9 w 11/12 d4:X1", []string{`column "d4:X1": a column is`}},
		{"9x9 w 11/12 d4:w1", []string{`column "d4:w1": the owner is written in upper case`}},
		{"9x9 w 11/12 d4:W", []string{`column "d4:W": "" is not a number of men on top from 1 to 12`}},
		{"9x9 w 12/12 d4:W0", []string{`"0" is not a number of men on top`}},
		{"9x9 w 0/12 d4:W13", []string{`"13" is not a number of men on top from 1 to 12`}},
		{"9x9 w 11/12 d4:W01", []string{`"01" is not a number of men on top`}},
		{"9x9 w 11/12 d4:W+1", []string{`"" is not a number of men on top`}},
		{"9x9 w 0/0 d4:W3w1", []string{`column "d4:W3w1": prisoners are of the other colour: under W men they are written b`}},
		{"9x9 w 0/0 d4:B3b1", []string{`under B men they are written w`}},
		{"9x9 w 0/0 d4:W3B1", []string{`column "d4:W3B1": prisoners are written in lower case`}},
		{"9x9 w 0/0 d4:W3b", []string{`"" is not a number of prisoners from 1 to 12`}},
		{"9x9 w 0/0 d4:W3b0", []string{`"0" is not a number of prisoners`}},
		{"9x9 w 0/0 d4:W3b13", []string{`"13" is not a number of prisoners`}},
		{"9x9 w 0/0 d4:W3b1x", []string{`"1x" is not a number of prisoners`}},
		{"9x9 w 0/0 d4:W3b1w1", []string{`"1w1" is not a number of prisoners`}},
		{"9x9 w 0/0 d4:W3:b1", []string{`column "d4:W3:b1": a column is`}},
		{"9x9 w 10/12 d4:W1 d4:W1", []string{`column "d4:W1": d4 is given twice`}},
		{"9x9 w 10/12 d4:W1, e5:W1, d4:B1", []string{`column "d4:B1": d4 is given twice`}},
		{"9x9 w 12/12 d4:W1", []string{`: White has 1 man on the board and 12 in hand; 12 at most`}},
		{"9x9 w 0/0 d4:W3 c5:B12w2 e5:B1", []string{`Black has 13 men on the board and 0 in hand; 12 at most`}},
		{"7x7 b 8/7 d4:B2", []string{`Black has 2 men on the board and 7 in hand; 8 at most`}},
	} {
		_, err := notation.ParsePosition(tc.in)
		if err == nil {
			t.Errorf("ParsePosition(%q) succeeded, want an error", tc.in)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "notation: position ") {
			t.Errorf("ParsePosition(%q): %q lacks the prefix", tc.in, msg)
		}
		var pe *notation.PositionError
		if !errors.As(err, &pe) || pe.Text != tc.in {
			t.Errorf("ParsePosition(%q): %#v is not a *PositionError for the text", tc.in, err)
		}
		at := 0
		for _, frag := range tc.want {
			i := strings.Index(msg[at:], frag)
			if i < 0 {
				t.Errorf("ParsePosition(%q) error\n %s\nlacks %q", tc.in, msg, frag)
				break
			}
			at += i + len(frag)
		}
	}
}

// TestParsePositionWrapsRules checks that a count of men that does not add
// up keeps the error of package rules inside the PositionError.
func TestParsePositionWrapsRules(t *testing.T) {
	_, err := notation.ParsePosition("9x9 w 12/12 d4:W1")
	var pe *notation.PositionError
	if !errors.As(err, &pe) || pe.Err == nil || !strings.HasPrefix(pe.Err.Error(), "rules: ") {
		t.Fatalf("got %#v, want a PositionError wrapping the rules error", err)
	}
	if errors.Unwrap(err) != pe.Err {
		t.Error("Unwrap does not return the rules error")
	}
}

// randomGames plays seeded random games on both sizes and calls visit
// before every move and at the end. Games are cut at maxPly so a long
// stepping phase cannot dominate the run.
func randomGames(t *testing.T, games, maxPly int, visit func(gm *rules.Game)) {
	t.Helper()
	for _, g := range []*rules.Geometry{rules.Geometry9, rules.Geometry7} {
		rng := rand.New(rand.NewPCG(uint64(g.N), 2024))
		for range games {
			gm := rules.NewGame(g)
			for {
				visit(gm)
				legal := gm.Legal()
				if len(legal) == 0 || gm.Len() >= maxPly {
					break
				}
				if err := gm.Play(legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// TestPositionRoundTripRandomGames is the lossless property: at every ply
// of random games the text parses back to the same Position, hash
// included, and the parsed position formats to the same text.
func TestPositionRoundTripRandomGames(t *testing.T) {
	plies := 0
	randomGames(t, 60, 300, func(gm *rules.Game) {
		plies++
		p := gm.Position()
		text := notation.FormatPosition(&p)
		q, err := notation.ParsePosition(text)
		if err != nil {
			t.Fatalf("ply %d: ParsePosition(FormatPosition) = %v", gm.Len(), err)
		}
		if q != p || q.Hash() != p.Hash() {
			t.Fatalf("ply %d: %q parses to a different position", gm.Len(), text)
		}
		if again := notation.FormatPosition(&q); again != text {
			t.Fatalf("ply %d: %q formats back as %q", gm.Len(), text, again)
		}
		// Each column is spelt as the diagram spells it.
		g := p.Geometry()
		var want strings.Builder
		for s := rules.Square(0); int(s) < g.Squares; s++ {
			if c := p.At(s); !c.Empty() {
				fmt.Fprintf(&want, " %s:%s", g.Name(s), notation.ColumnText(c))
			}
		}
		if !strings.HasSuffix(text, want.String()) {
			t.Fatalf("ply %d: %q does not end in the columns%s", gm.Len(), text, want.String())
		}
	})
	if plies < 1000 {
		t.Errorf("only %d plies checked", plies)
	}
}

func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{
		"9x9 w 12/12 -", "7x7 w 8/8 -", d1Text, d6Text, d7Text, d8Text, d13Text,
		"9x9 w 0/0 e7:B1, c7:B1, e5:B1, c5:B2w2, d4:W3, a1:W7b7",
		"7x7 w 0/0 a1:W4b3 c3:W1 g7:B5w3",
		"9x9 w 12/12 c6:W3", "9x9 w 0/0 d4:W3w1", "9x9 w 10/12 d4:W1 d4:W1", "",
		"9x9 b 0/0 a1:W7b7 c5:W2 b6:W3b5",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p, err := notation.ParsePosition(text)
		if err != nil {
			var pe *notation.PositionError
			if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "notation: position ") {
				t.Fatalf("ParsePosition(%q): unexpected error %#v", text, err)
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("ParsePosition(%q) gave an invalid position: %v", text, err)
		}
		s := notation.FormatPosition(&p)
		q, err := notation.ParsePosition(s)
		if err != nil {
			t.Fatalf("ParsePosition(%q) -> %q: %v", text, s, err)
		}
		if q != p {
			t.Fatalf("ParsePosition(%q) -> %q parses to a different position", text, s)
		}
		if again := notation.FormatPosition(&q); again != s {
			t.Fatalf("%q formats back as %q", s, again)
		}
	})
}

func ExampleFormatPosition() {
	p := rules.NewPosition(rules.Geometry9)
	fmt.Println(notation.FormatPosition(&p))
	m, err := notation.ParseMove(&p, "c3")
	if err != nil {
		panic(err)
	}
	p.Play(m)
	fmt.Println(notation.FormatPosition(&p))
	// Output:
	// 9x9 w 12/12 -
	// 9x9 b 11/12 c3:W1
}

func ExampleParsePosition() {
	// Columns may come in any order, separated by spaces or commas.
	p, err := notation.ParsePosition("9x9 b 0/2 h8:B10w2, e5:W1, a1:W9")
	if err != nil {
		panic(err)
	}
	fmt.Println(notation.FormatPosition(&p))
	fmt.Println(len(p.Legal(nil)), "legal entries of the shadow piece")

	_, err = notation.ParsePosition("9x9 w 12/12 c6:W3")
	fmt.Println(err)
	// Output:
	// 9x9 b 0/2 a1:W9 e5:W1 h8:B10w2
	// 33 legal entries of the shadow piece
	// notation: position "9x9 w 12/12 c6:W3": column "c6:W3": c6 is not a playable square
}
