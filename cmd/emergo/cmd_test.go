package main

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"emergo/rules"
)

// emergo runs the command in-process and returns its output and error.
func emergo(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), err
}

func TestPerftPrintsTheRulesFigures(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"perft", "-size", "9", "4"}, "1828116"},
		{[]string{"perft", "-size", "7", "5"}, "3488508"},
		{[]string{"perft", "-size", "7", "-make", "3"}, "11140"},
		{[]string{"perft", "-moves", "c3", "1"}, "36"}, // RULE_CASES D10
	} {
		out, _, err := emergo(t, "", c.args...)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if first := strings.SplitN(out, "\n", 2)[0]; first != c.want {
			t.Errorf("%v: first line %q, want %q", c.args, first, c.want)
		}
		if !strings.Contains(out, "leaves/s") {
			t.Errorf("%v: no speed in %q", c.args, out)
		}
	}
}

func TestPerftDivide(t *testing.T) {
	out, _, err := emergo(t, "", "perft", "-size", "7", "-divide", "2")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	// 24 first moves, a blank line, the total.
	if len(lines) < 26 || lines[0] != "a1 23" || lines[25] != "528" {
		t.Errorf("divide output:\n%s", out)
	}
}

func TestLegal(t *testing.T) {
	out, _, err := emergo(t, "", "legal", "-size", "7")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Fields(out)); n != 24 || strings.Contains(out, "d4") {
		t.Errorf("7x7 start: %d moves %q, want 24 without d4", n, out)
	}
	_, _, err = emergo(t, "", "legal", "d6", "c1", "e6")
	if err == nil || !strings.Contains(err.Error(), `move 3 "e6": e6 is not a playable square`) {
		t.Errorf("illegal move: error %v", err)
	}
}

func TestLegalBatch(t *testing.T) {
	in := strings.Join([]string{
		"",                  // the start: 40 entries
		"d6 c1 zz",          // an error on the third move
		"1. g1 d2 2. f2 e7", // move numbers are skipped
		"d6 c1 b4 b2 f4 g9 i1 f8 c9 a1 f6 a7 i9 g1 c5 i7 i5 a3 e1 i3 a5 e9 a9", // S1: no legal entry, a draw
		"d6 c1 b4 b2 f4 g9 i1 f8 c9 a1 f6 a7 i9 g1 c5 i7 i5 a3 e1 i3 a5 e9 a9 e7",
	}, "\n") + "\n"
	out, _, err := emergo(t, in, "legal", "-batch")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	if len(lines) != 6 || lines[5] != "" {
		t.Fatalf("want 5 lines, got %q", out)
	}
	if n := len(strings.Fields(lines[0])); n != 40 {
		t.Errorf("start: %d moves", n)
	}
	if lines[1] != `error: move 3 "zz": "zz" is not a square name` {
		t.Errorf("error line %q", lines[1])
	}
	if !strings.HasPrefix(lines[2], "a1 a3 ") {
		t.Errorf("numbered movetext: %q", lines[2])
	}
	if lines[3] != "" {
		t.Errorf("finished game: %q, want an empty line", lines[3])
	}
	if !strings.HasPrefix(lines[4], `error: move 24 "e7": the game is over`) {
		t.Errorf("move after the end: %q", lines[4])
	}
}

func TestShow(t *testing.T) {
	out, _, err := emergo(t, "", "show", "-position", "9x9 w 0/0 d4:W3 c5:B2w2 e5:B1 c7:B1 e7:B1", "d4xb6xd8xf6xd4xb6")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[W3b5]", "W2", "Result: 1-0 (all men taken prisoner)", "Last move: d4xb6xd8xf6xd4xb6"} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"nosuch"}, {"perft"}, {"perft", "x"}, {"legal", "-size", "8"}, {"show", "-size", "7", "-position", "9x9 w 12/12 -"}} {
		if _, _, err := emergo(t, "", args...); err == nil || exitCode(err) != 2 {
			t.Errorf("%v: error %v, want a usage error", args, err)
		}
	}
}

// The batch mode keeps the game of the previous line; whatever the order of
// the lines, each answer must be the one a fresh game gives.
func TestLegalBatchMatchesFreshGames(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	var lines []string
	for game := 0; game < 12; game++ {
		gm := rules.NewGame(rules.Geometry7)
		var moves []string
		for gm.Len() < 60 && !gm.Outcome().Over() {
			l := gm.Legal()
			m := l[r.IntN(len(l))]
			moves = append(moves, m.Text(gm.Geometry()))
			gm.Play(m)
		}
		for i := 0; i <= len(moves); i += 1 + r.IntN(4) {
			lines = append(lines, strings.Join(moves[:i], " "))
		}
		// A wrong move in the middle, then the game goes on.
		if len(moves) > 6 {
			bad := append(append([]string{}, moves[:5]...), "a1-a2")
			lines = append(lines, strings.Join(bad, " "), strings.Join(moves, " "))
		}
	}
	r.Shuffle(len(lines)/2, func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	out, _, err := emergo(t, strings.Join(lines, "\n")+"\n", "legal", "-batch", "-size", "7")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(got) != len(lines) {
		t.Fatalf("%d answers to %d lines", len(got), len(lines))
	}
	for i, line := range lines {
		fresh, _, err := emergo(t, "", append([]string{"legal", "-size", "7"}, strings.Fields(line)...)...)
		want := strings.Join(strings.Fields(fresh), " ")
		if err != nil {
			want = "error: " + err.Error()
		}
		if got[i] != want {
			t.Fatalf("line %d %q:\n got %q\nwant %q", i+1, line, got[i], want)
		}
	}
}
