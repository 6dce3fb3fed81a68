package eval_test

import (
	"math/rand/v2"
	"testing"

	"emergo/eval"
	"emergo/notation"
	"emergo/rules"
)

func TestFeaturesOfAHandMadePosition(t *testing.T) {
	// RULE_CASES D1: d4 W3 between c5 B2w2 and e5 B1.
	p, err := notation.ParsePosition("9x9 w 0/0 d4:W3 c5:B2w2 e5:B1 c7:B1 e7:B1 a9:B1w1")
	if err != nil {
		t.Fatal(err)
	}
	var w, b [eval.NumFeatures]int32
	eval.Features(&p, rules.White, &w)
	eval.Features(&p, rules.Black, &b)
	want := map[string][2]int32{ // white, black
		"free men":        {3, 6},
		"hostages":        {1, 0}, // a white man under the single black man on a9
		"exposed columns": {1, 2}, // d4; c5 and e5
		"exposed men":     {1, 2},
		"columns":         {1, 5},
		"mobility":        {2, 15}, // c5 3, e5 3, c7 4, e7 4, a9 1
		"edge":            {0, 1},
		"tall":            {1, 1},
		"hand":            {0, 0},
		"forks":           {0, 1}, // c5 and e5, a man at stake on each
		"entries":         {0, 0}, // no man in hand
	}
	for i, name := range eval.FeatureNames {
		if got := [2]int32{w[i], b[i]}; got != want[name] {
			t.Errorf("%s: white, black = %v, want %v", name, got, want[name])
		}
	}
}

// Forks counts the stake of the second most valuable exposed column: the
// men its jump would take or free.
func TestForks(t *testing.T) {
	for _, tc := range []struct {
		pos  string
		want int32 // white's
	}{
		{"9x9 w 0/0 d4:W1 c5:B1 a9:B1", 0},                         // one exposed column
		{"9x9 w 0/0 d4:W1b2 c5:B1 f4:W1 g5:B1 a9:B1", 1},           // stakes 3 and 1
		{"9x9 w 0/0 d4:W1b2 c5:B1 f4:W1b1 g5:B1 a9:B1", 2},         // 3 and 2
		{"9x9 w 0/0 d4:W1b1 c5:B1 f4:W1b2 g5:B1 a9:B1", 2},         // 2 and 3
		{"9x9 w 0/0 d4:W2b2 c5:B1 f4:W1b3 g5:B1 h6:W1b1 a9:B1", 2}, // 1 (two white men on top), 4 and 2
	} {
		p, err := notation.ParsePosition(tc.pos)
		if err != nil {
			t.Fatal(err)
		}
		var f [eval.NumFeatures]int32
		eval.Features(&p, rules.White, &f)
		if f[eval.Forks] != tc.want {
			t.Errorf("%s: forks %d, want %d", tc.pos, f[eval.Forks], tc.want)
		}
	}
}

// Entries counts, for a side with men in hand, the empty squares where a
// man entered could not be jumped at once: not next to an enemy column
// with an empty square beyond.
func TestEntries(t *testing.T) {
	for _, tc := range []struct {
		pos          string
		white, black int32
	}{
		{"7x7 w 2/3 d4:B1", 20, 24},       // c3, e3, c5, e5 in reach of d4
		{"7x7 w 1/1 b2:B1", 23, 24},       // only c3: a1, c1 and a3 have nothing beyond
		{"7x7 w 1/1 d4:B1 f2:W1", 20, 23}, // e3 is covered by f2; e3 has d4 beyond
		{"7x7 w 0/1 d4:B1 f2:W1", 0, 23},  // White has nothing in hand
		{"9x9 b 3/0 e5:W1 a9:B1", 38, 0},  // of 39 empty squares, b8 in reach of a9
		{"9x9 b 0/3 e5:W1 a9:B1", 0, 35},  // d4, f4, d6 and f6 in reach of e5
	} {
		p, err := notation.ParsePosition(tc.pos)
		if err != nil {
			t.Fatal(err)
		}
		var w, b [eval.NumFeatures]int32
		eval.Features(&p, rules.White, &w)
		eval.Features(&p, rules.Black, &b)
		if w[eval.Entries] != tc.white || b[eval.Entries] != tc.black {
			t.Errorf("%s: entries %d and %d, want %d and %d", tc.pos, w[eval.Entries], b[eval.Entries], tc.white, tc.black)
		}
	}
}

// The handcrafted score is from the side to move: the same board with the
// other side to move scores the same for that side, up to the tempo
// bonus. (A trained evaluation's tables are not so: they weigh each line
// knowing who moves next, as a threat is worth more to the side that can
// carry it out at once.)
func TestEvaluateIsFromTheSideToMove(t *testing.T) {
	a, _ := notation.ParsePosition("7x7 w 2/3 a1:W3b1 c3:B1 e5:W1")
	b, _ := notation.ParsePosition("7x7 b 2/3 a1:W3b1 c3:B1 e5:W1")
	sa, sb := eval.Default7.Evaluate(&a), eval.Default7.Evaluate(&b)
	tempo := eval.Default7.Tempo
	if sa-tempo != -(sb - tempo) {
		t.Errorf("white to move %d, black to move %d: not opposite apart from the tempo %d", sa, sb, tempo)
	}
	if sa <= 0 {
		t.Errorf("white, a man ahead, scores %d", sa)
	}
}

// Default scores each board with the weights fitted to it: the 7x7 board
// with Trained7, the 9x9 board with its own, and the two differ.
func TestDefaultWeighsEachBoardApart(t *testing.T) {
	// The same men on both boards: an exposed white column, black on the
	// edge.
	const men = "c3:W2 d4:B1 a5:B1 e5:W1b1"
	for _, tc := range []struct {
		pos   string
		want  *eval.Weights // the board's own weights
		gives *eval.Weights // what Default.For gives
	}{
		{"7x7 w 3/3 " + men, &eval.Trained7, &eval.Trained7},
		{"9x9 w 5/5 " + men, &eval.Weights{W: eval.Default.W, Tempo: eval.Default.Tempo, Patterns: eval.Patterns9}, &eval.Default},
	} {
		p, err := notation.ParsePosition(tc.pos)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := eval.Default.Evaluate(&p), tc.want.Evaluate(&p); got != want {
			t.Errorf("%s: Default scores %d, the board's own weights %d", tc.pos, got, want)
		}
		if got := eval.Default.For(&p); got != tc.gives {
			t.Errorf("%s: Default.For gives %p, want %p", tc.pos, got, tc.gives)
		}
	}
	if eval.Default.W == eval.Trained7.W {
		t.Error("the 9x9 and 7x7 weights are the same")
	}
	// Weights without Small score every board with themselves.
	p, _ := notation.ParsePosition("7x7 w 3/3 " + men)
	if got := eval.Novice.For(&p); got != &eval.Novice {
		t.Errorf("Novice.For(7x7) = %p, want Novice itself", got)
	}
}

// Evaluate counts both sides in one pass; it must agree with Features
// taken one colour at a time (and the tables of a trained evaluation),
// in every position of random games of both boards.
func TestEvaluateAgreesWithFeatures(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, g := range []*rules.Geometry{rules.Geometry9, rules.Geometry7} {
		for range 40 {
			gm := rules.NewGame(g)
			for !gm.Outcome().Over() && gm.Len() < 200 {
				p := gm.Position()
				var a, b [eval.NumFeatures]int32
				eval.Features(&p, p.Side(), &a)
				eval.Features(&p, p.Side().Other(), &b)
				w := eval.Default.For(&p)
				want := w.Tempo
				for i := range a {
					want += w.W[i] * (a[i] - b[i])
				}
				if w.Patterns != nil {
					want += w.Patterns.Score(&p)
				}
				if got := eval.Evaluate(&p); got != want {
					t.Fatalf("%s: Evaluate %d, Features say %d", notation.FormatPosition(&p), got, want)
				}
				legal := gm.Legal()
				gm.Play(legal[r.IntN(len(legal))])
			}
		}
	}
}
