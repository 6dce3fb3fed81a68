package eval_test

import (
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
	}
	for i, name := range eval.FeatureNames {
		if got := [2]int32{w[i], b[i]}; got != want[name] {
			t.Errorf("%s: white, black = %v, want %v", name, got, want[name])
		}
	}
}

// The score is from the side to move: the same board with the other side
// to move scores the same for that side, up to the tempo bonus.
func TestEvaluateIsFromTheSideToMove(t *testing.T) {
	a, _ := notation.ParsePosition("7x7 w 2/3 a1:W3b1 c3:B1 e5:W1")
	b, _ := notation.ParsePosition("7x7 b 2/3 a1:W3b1 c3:B1 e5:W1")
	sa, sb := eval.Evaluate(&a), eval.Evaluate(&b)
	if sa-eval.Default.Tempo != -(sb - eval.Default.Tempo) {
		t.Errorf("white to move %d, black to move %d: not opposite apart from the tempo %d", sa, sb, eval.Default.Tempo)
	}
	if sa <= 0 {
		t.Errorf("white, a man ahead, scores %d", sa)
	}
}
