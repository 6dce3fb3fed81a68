package rules_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"emergo/rules"
)

// The rule cases of docs/rules.md, one test each, with the moves, counts,
// columns and outcomes the document states. The diagrams are built
// exactly as drawn: PositionOf accepts composed positions that show fewer
// than all the men, and the document's figures come from an
// implementation that took them so.

var g9 = rules.Geometry9

// D1: majority, revisiting the start square, a column jumped twice,
// freed prisoners and the win.
func TestD1_MindSportsDiagram(t *testing.T) {
	cols := board{"c5": "B2w2", "c7": "B1", "e7": "B1", "d4": "W3", "e5": "B1"}
	p := makePosition(t, g9, cols, [2]int{0, 0}, rules.White)
	wantMoves(t, &p, "d4xb6xd8xf6xd4xb6")

	// The anticlockwise route is a complete sequence of 4 men, dropped by
	// the majority rule only.
	nb := nFrom(&p)
	if all := nTexts(nb.captures()); !slices.Contains(all, "d4xf6xd8xb6xd4") {
		t.Errorf("complete sequences %v lack the anticlockwise d4xf6xd8xb6xd4", all)
	}

	gm := rules.NewGameFrom(p)
	playText(t, gm, "d4xb6xd8xf6xd4xb6")
	q := gm.Position()
	wantColumns(t, &q, board{"b6": "W3b5", "c5": "W2"})
	if got, want := gm.Outcome(), (rules.Outcome{Result: rules.WhiteWins, Reason: rules.NoMen}); got != want {
		t.Errorf("outcome %v, want %v", got, want)
	}
}

// D2: no immediate 180-degree turn, and a capture that frees.
func TestD2_NoReversal(t *testing.T) {
	cols := board{"d4": "B2", "c3": "W1"}
	p := makePosition(t, g9, cols, [2]int{0, 0}, rules.White)
	wantMoves(t, &p, "c3xe5")
	p = after(t, p, "c3xe5")
	wantColumns(t, &p, board{"d4": "B1", "e5": "W1b1"})

	wantMoves(t, &p, "d4xf6")
	p = after(t, p, "d4xf6")
	wantColumns(t, &p, board{"e5": "B1", "f6": "B1w1"})
}

// D3: two routes of 4 men tie; the first frees c5, which then cannot be
// jumped again; both reach the same position and are still two moves.
func TestD3_TieAndFreedColumnNotJumped(t *testing.T) {
	cols := board{"c5": "B1w2", "c7": "B1", "e7": "B1", "d4": "W3", "e5": "B1"}
	p := makePosition(t, g9, cols, [2]int{0, 0}, rules.White)
	wantMoves(t, &p, "d4xb6xd8xf6xd4", "d4xf6xd8xb6xd4")
	if n := p.CountLegal(); n != 2 {
		t.Errorf("CountLegal %d, want 2", n)
	}
	pf := rules.Perft{}
	if n := pf.Count(&p, 1); n != 2 {
		t.Errorf("perft(1) %d, want 2 (RULES 3.7)", n)
	}
	a := after(t, p, "d4xb6xd8xf6xd4")
	b := after(t, p, "d4xf6xd8xb6xd4")
	want := board{"d4": "W3b4", "c5": "W2"}
	wantColumns(t, &a, want)
	wantColumns(t, &b, want)
	if a != b {
		t.Error("the two routes reach different positions")
	}
}

// D4: a lone white man bans the four squares around it.
func TestD4_EntryRestriction(t *testing.T) {
	p := makePosition(t, g9, board{"e5": "W1"}, [2]int{11, 12}, rules.Black)
	want := emptySquaresExcept(&p, "d4", "f4", "d6", "f6")
	if len(want) != 36 {
		t.Fatalf("test setup: %d squares", len(want))
	}
	wantMoves(t, &p, want...)
	// D14: with men in hand and no capture, no step appears.
	for _, m := range p.Legal(nil) {
		if m.Kind() != rules.Entry {
			t.Errorf("%s is not an entry", m.Text(g9))
		}
	}
}

// D5: White threatens h6 from the edge, where Black cannot take it, so
// Black is released and may enter anywhere.
func TestD5_Released(t *testing.T) {
	p := makePosition(t, g9, board{"i7": "W1", "h6": "B1", "c5": "W1"}, [2]int{10, 11}, rules.Black)
	want := emptySquaresExcept(&p)
	if len(want) != 38 {
		t.Fatalf("test setup: %d squares", len(want))
	}
	for _, s := range []string{"b4", "b6", "d4", "d6", "g5"} {
		if !slices.Contains(want, s) {
			t.Fatalf("test setup: %s missing", s)
		}
	}
	wantMoves(t, &p, want...)
}

// D5b: without the threat Black is not released.
func TestD5b_NotReleased(t *testing.T) {
	p := makePosition(t, g9, board{"h6": "B1", "c5": "W1"}, [2]int{11, 11}, rules.Black)
	want := emptySquaresExcept(&p, "b4", "b6", "d4", "d6")
	if len(want) != 35 {
		t.Fatalf("test setup: %d squares", len(want))
	}
	wantMoves(t, &p, want...)
}

// D5c: White may enter next to h6 on the edge, where it cannot be
// jumped, but not on g5 or g7.
func TestD5c_EdgeEntryThreatens(t *testing.T) {
	p := makePosition(t, g9, board{"h6": "B1", "c5": "W1"}, [2]int{11, 11}, rules.White)
	want := emptySquaresExcept(&p, "g5", "g7")
	if len(want) != 37 {
		t.Fatalf("test setup: %d squares", len(want))
	}
	wantMoves(t, &p, want...)
	// Entering on i7 makes the D5 position.
	q := after(t, p, "i7")
	d5 := makePosition(t, g9, board{"i7": "W1", "h6": "B1", "c5": "W1"}, [2]int{10, 11}, rules.Black)
	if q != d5 {
		t.Errorf("after i7: %v, want the D5 position", positionText(&q))
	}
}

// D6: the shadow piece of 2, under the no-feeding rule.
func TestD6_ShadowPiece(t *testing.T) {
	p := makePosition(t, g9, board{"h8": "B10w2", "e5": "W1", "a1": "W9"}, [2]int{0, 2}, rules.Black)
	want := emptySquaresExcept(&p, "b2", "d4", "f4", "d6", "f6")
	if len(want) != 33 {
		t.Fatalf("test setup: %d squares", len(want))
	}
	wantMoves(t, &p, want...)
	for _, m := range p.Legal(nil) {
		q := p.After(m)
		if c := q.At(m.To()); c != (rules.Column{Owner: rules.Black, Top: 2}) {
			t.Fatalf("%s enters %s, want B2", m.Text(g9), columnText(c))
		}
		if q.Hand(rules.White) != 0 || q.Hand(rules.Black) != 0 {
			t.Fatalf("%s: hands %d/%d, want 0/0", m.Text(g9), q.Hand(rules.White), q.Hand(rules.Black))
		}
		wantValid(t, &q)
	}
	// After the entry the movement phase begins: White steps.
	q := after(t, p, "a9")
	for _, m := range q.Legal(nil) {
		if m.Kind() != rules.Step {
			t.Errorf("after the shadow piece: %s is not a step", m.Text(g9))
		}
	}
}

// D6b: a capture before the shadow piece, then the mixed phase.
func TestD6b_CaptureBeforeShadow(t *testing.T) {
	p := makePosition(t, g9, board{"h8": "B10w2", "g7": "W1", "a1": "W9"}, [2]int{0, 2}, rules.Black)
	wantMoves(t, &p, "h8xf6")
	p = after(t, p, "h8xf6")
	wantColumns(t, &p, board{"f6": "B10w3", "a1": "W9"})
	if p.Hand(rules.Black) != 2 {
		t.Fatalf("Black has %d in hand, want 2", p.Hand(rules.Black))
	}
	wantMoves(t, &p, "a1-b2")
	p = after(t, p, "a1-b2")
	want := emptySquaresExcept(&p, "c3")
	if len(want) != 38 {
		t.Fatalf("test setup: %d squares", len(want))
	}
	wantMoves(t, &p, want...)
	q := after(t, p, "c5")
	wantColumns(t, &q, board{"f6": "B10w3", "b2": "W9", "c5": "B2"})
}

// D7: White has a column but no move: a draw.
func TestD7_BlockedDraw(t *testing.T) {
	p := makePosition(t, g9, board{"a1": "W1", "b2": "B1w6", "c3": "B11w5"}, [2]int{0, 0}, rules.White)
	wantMoves(t, &p)
	if p.Lost() {
		t.Error("Lost: White still has a column")
	}
	gm := rules.NewGameFrom(p)
	if got, want := gm.Outcome(), (rules.Outcome{Result: rules.Draw, Reason: rules.NoMove}); got != want {
		t.Errorf("outcome %v, want %v", got, want)
	}
}

// D8: every white man is a prisoner and White has none in hand: White
// has lost, although Black still holds men.
func TestD8_NoMaterialLoses(t *testing.T) {
	p := makePosition(t, g9, board{"e5": "B10w12"}, [2]int{0, 2}, rules.White)
	if !p.Lost() {
		t.Error("Lost is false")
	}
	wantMoves(t, &p)
	gm := rules.NewGameFrom(p)
	if got, want := gm.Outcome(), (rules.Outcome{Result: rules.BlackWins, Reason: rules.NoMen}); got != want {
		t.Errorf("outcome %v, want %v", got, want)
	}
	if len(gm.Legal()) != 0 {
		t.Error("a lost game has legal moves")
	}
}

// d9 is the D9 position: Black to move, no square to enter on.
var d9 = board{
	"a9": "W1", "c9": "W1", "e9": "B1", "g9": "B1", "i9": "W1",
	"f8": "B1",
	"a7": "B1", "i7": "B1",
	"d6": "W1", "f6": "W1",
	"a5": "W1", "c5": "W1", "i5": "W1",
	"b4": "W1", "f4": "W1",
	"a3": "B1", "i3": "B1",
	"b2": "B1",
	"a1": "B1", "c1": "B1", "e1": "W1", "g1": "B1", "i1": "W1",
}

// D9: no legal entry and no step instead: a draw.
func TestD9_NoLegalEntryDraw(t *testing.T) {
	p := makePosition(t, g9, d9, [2]int{0, 1}, rules.Black)
	wantMoves(t, &p)
	if p.CanCapture() || p.Entries() != 0 {
		t.Errorf("CanCapture %v, Entries %b", p.CanCapture(), p.Entries())
	}
	gm := rules.NewGameFrom(p)
	if got, want := gm.Outcome(), (rules.Outcome{Result: rules.Draw, Reason: rules.NoMove}); got != want {
		t.Errorf("outcome %v, want %v", got, want)
	}
}

// D10: opening counts and the first-move ban on the centre.
func TestD10_Openings(t *testing.T) {
	start := rules.NewPosition(g9)
	wantMoves(t, &start, squaresExcept(g9, "e5")...)
	for _, c := range []struct {
		moves  []string
		banned []string
		count  int
	}{
		{[]string{"c3"}, []string{"b2", "b4", "d2", "d4"}, 36},
		{[]string{"e3"}, []string{"d2", "d4", "f2", "f4"}, 36},
		{[]string{"e1"}, []string{"d2", "f2"}, 38},
		{[]string{"a1"}, []string{"b2"}, 39},
		{[]string{"a1", "i9"}, []string{"h8"}, 38}, // i9 could jump h8
	} {
		t.Run(strings.Join(c.moves, "_"), func(t *testing.T) {
			p := start
			for _, m := range c.moves {
				p = after(t, p, m)
			}
			want := emptySquaresExcept(&p, c.banned...)
			if len(want) != c.count {
				t.Fatalf("test setup: %d squares", len(want))
			}
			wantMoves(t, &p, want...)
		})
	}
	// The ban is for the first move only: e5 after 1.a1 i9.
	p := after(t, after(t, start, "a1"), "i9")
	findMove(t, &p, "e5")

	s7 := rules.NewPosition(rules.Geometry7)
	wantMoves(t, &s7, squaresExcept(rules.Geometry7, "d4")...)
	if n := s7.CountLegal(); n != 24 {
		t.Errorf("7x7 start: %d entries, want 24", n)
	}
}

// D11: the majority rule across different columns.
func TestD11_MajorityAcrossColumns(t *testing.T) {
	cols := board{"d4": "B1", "h4": "B1", "i3": "W1", "b2": "B1", "a1": "W1"}
	p := makePosition(t, g9, cols, [2]int{0, 0}, rules.White)
	wantMoves(t, &p, "a1xc3xe5")
	// Without the majority rule i3xg5 would be a move too.
	nb := nFrom(&p)
	if all := nTexts(nb.captures()); !slices.Equal(all, []string{"a1xc3xe5", "i3xg5"}) {
		t.Errorf("complete sequences %v", all)
	}
}

// D12: a column on the edge cannot be jumped.
func TestD12_EdgeNotCaptured(t *testing.T) {
	cols := board{"a5": "B1", "b4": "W1", "b6": "W1"}
	p := makePosition(t, g9, cols, [2]int{0, 0}, rules.White)
	wantMoves(t, &p, "b4-a3", "b4-c3", "b4-c5", "b6-a7", "b6-c5", "b6-c7")
	if p.CanCapture() {
		t.Error("CanCapture is true")
	}
}

// D13: threefold repetition, the start counting as the first occurrence.
func TestD13_Threefold(t *testing.T) {
	p := makePosition(t, g9, board{"a1": "W1b11", "i9": "B1w11"}, [2]int{0, 0}, rules.White)
	gm := rules.NewGameFrom(p)
	cycle := []string{"a1-b2", "i9-h8", "b2-a1", "h8-i9"}
	for round := 1; round <= 2; round++ {
		for i, m := range cycle {
			if gm.Outcome().Over() {
				t.Fatalf("round %d: game over before %s: %v", round, m, gm.Outcome())
			}
			if p := gm.Position(); p.CanCapture() {
				t.Fatalf("round %d: a capture before %s", round, m)
			}
			playText(t, gm, m)
			if i == len(cycle)-1 {
				if n := gm.Occurrences(); n != round+1 {
					t.Errorf("round %d: occurrence %d, want %d", round, n, round+1)
				}
			}
		}
	}
	if got, want := gm.Outcome(), (rules.Outcome{Result: rules.Draw, Reason: rules.Repetition}); got != want {
		t.Errorf("outcome %v, want %v", got, want)
	}
	if len(gm.Legal()) != 0 {
		t.Error("a drawn game has legal moves")
	}
	if err := gm.Play(rules.StepMove(mustSquare(t, g9, "a1"), mustSquare(t, g9, "b2"))); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("Play after the draw: %v, want ErrGameOver", err)
	}
	// Undo reopens the game: the position before the last move has
	// occurred twice.
	if !gm.Undo() || gm.Outcome().Over() || gm.Occurrences() != 2 {
		t.Errorf("after Undo: outcome %v, occurrences %d", gm.Outcome(), gm.Occurrences())
	}
}

func mustSquare(t testing.TB, g *rules.Geometry, name string) rules.Square {
	t.Helper()
	s, err := g.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// D14: the unit checks without diagrams.
func TestD14_UnitChecks(t *testing.T) {
	t.Run("OwnColumnNeverJumped", func(t *testing.T) {
		// W1 next to W1 with an empty square beyond: only steps.
		p := makePosition(t, g9, board{"c3": "W1", "d4": "W1"}, [2]int{0, 0}, rules.White)
		if p.CanCapture() {
			t.Fatal("CanCapture is true")
		}
		for _, m := range p.Legal(nil) {
			if m.Kind() != rules.Step {
				t.Errorf("%s is not a step", m.Text(g9))
			}
		}
		// A column freed earlier in the sequence is not jumped: D3.
		q := makePosition(t, g9, board{"c5": "B1w2", "c7": "B1", "e7": "B1", "d4": "W3", "e5": "B1"}, [2]int{0, 0}, rules.White)
		for _, m := range q.Legal(nil) {
			if m.Jumps() != 4 {
				t.Errorf("%s takes %d men, want 4", m.Text(g9), m.Jumps())
			}
		}
	})
	t.Run("NoStopWhileAJumpRemains", func(t *testing.T) {
		p := makePosition(t, g9, board{"c5": "B2w2", "c7": "B1", "e7": "B1", "d4": "W3", "e5": "B1"}, [2]int{0, 0}, rules.White)
		path := []rules.Square{mustSquare(t, g9, "d4"), mustSquare(t, g9, "b6"), mustSquare(t, g9, "d8")}
		m, ok := rules.CaptureMove(path)
		if !ok {
			t.Fatal("CaptureMove refused the path")
		}
		gm := rules.NewGameFrom(p)
		if err := gm.Play(m); !errors.Is(err, rules.ErrIllegal) {
			t.Errorf("Play(d4xb6xd8): %v, want ErrIllegal", err)
		}
		if gm.Len() != 0 {
			t.Error("an illegal move was played")
		}
	})
	t.Run("OneManPerEntry", func(t *testing.T) {
		gm := rules.NewGame(g9)
		entries := []string{"a1", "i9", "c1", "g9", "e1", "e9", "i1", "a9"}
		for i, m := range entries {
			playText(t, gm, m)
			p := gm.Position()
			w, b := 12-(i+2)/2, 12-(i+1)/2
			if p.Hand(rules.White) != w || p.Hand(rules.Black) != b {
				t.Fatalf("after %s: hands %d/%d, want %d/%d", m, p.Hand(rules.White), p.Hand(rules.Black), w, b)
			}
			if c := p.At(mustSquare(t, g9, m)); c.Height() != 1 {
				t.Fatalf("after %s: column %s", m, columnText(c))
			}
		}
		// The shadow piece empties the hand at once (D6).
		p := makePosition(t, g9, board{"h8": "B10w2", "e5": "W1", "a1": "W9"}, [2]int{0, 2}, rules.Black)
		p = after(t, p, "i1")
		if p.Hand(rules.Black) != 0 || p.At(mustSquare(t, g9, "i1")).Top != 2 {
			t.Errorf("after the shadow piece: hand %d, column %s", p.Hand(rules.Black), columnText(p.At(mustSquare(t, g9, "i1"))))
		}
	})
	t.Run("ConservationAndShape", func(t *testing.T) {
		// Checked after every move of S1-S3 (playSequence) and of every
		// random game (TestInvariants); here on D1, which frees prisoners.
		p := makePosition(t, g9, board{"c5": "B2w2", "c7": "B1", "e7": "B1", "d4": "W3", "e5": "B1"}, [2]int{0, 0}, rules.White)
		for _, m := range p.Legal(nil) {
			q := p.After(m)
			wantValid(t, &q)
			if q.Men(rules.White) != p.Men(rules.White) || q.Men(rules.Black) != p.Men(rules.Black) {
				t.Errorf("%s: men %d/%d, were %d/%d", m.Text(g9), q.Men(rules.White), q.Men(rules.Black), p.Men(rules.White), p.Men(rules.Black))
			}
		}
	})
}

// playSequence plays a game record written as in docs/rules.md (S1-S3) from
// the start of g, checking the invariants after every move.
func playSequence(t *testing.T, g *rules.Geometry, record string) *rules.Game {
	t.Helper()
	gm := rules.NewGame(g)
	for _, tok := range strings.Fields(record) {
		if tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*" {
			continue
		}
		if i := strings.LastIndexByte(tok, '.'); i >= 0 {
			tok = tok[i+1:]
		}
		playText(t, gm, tok)
		p := gm.Position()
		wantValid(t, &p)
	}
	return gm
}

const (
	s1 = `1.d6 c1 2.b4 b2 3.f4 g9 4.i1 f8 5.c9 a1 6.f6 a7 7.i9 g1 8.c5 i7 9.i5 a3
	10.e1 i3 11.a5 e9 12.a9      1/2-1/2`
	s2 = `1.g1 d2 2.f2 e7 3.a9 f4 4.c9 f8 5.d8 b6 6.d8xf6 h8 7.a3 i9 8.c1 h6
	9.c1xe3xg5xi7xg9xe7 h6 10.i7 d4 11.i7xg5 e9 12.c5 i5 13.c5xe3 b6-c7
	14.a1 c7-d8 15.e3-f4 i5-h6 16.g5xi7 e9-f8 17.e7xg9 d8-e9 18.f6-g7 i9-h8
	19.g7xi9 e9-f8 20.g9xe7   1-0`
	s3 = `1.g5 a3 2.e7 g1 3.d2 g9 4.f6 i1 5.c5 a9 6.c1 h8 7.i3 e1 8.f2 e1xg3 9.h6 b2
	10.e5 f2 11.e9 i5 12.e1 i5xg7 13.d2-c3 b2xd4xb6 14.e5-d4 g7xe5xc3 15.g5-f4 g3xe5
	16.e1xg3 c5 17.i3-h4 g9-f8 18.e7xg9xi7 c5-d4 19.g3-f4 e5xg3xi5 20.c1-d2 c3xe1
	21.i7-h8 g1-f2 22.h8-i7 i1-h2 23.e9-f8 f2-e3 24.i7-h6 i5xg7xe9   0-1`
)

// ply returns the index of a move in a record: White's n-th move or
// Black's.
func ply(n int, c rules.Color) int { return 2*(n-1) + int(c) }

// S1: a forced entering phase that ends in the D9 position, a draw.
func TestS1_NoLegalEntry(t *testing.T) {
	gm := playSequence(t, g9, s1)
	if gm.Len() != 23 {
		t.Fatalf("%d plies, want 23", gm.Len())
	}
	p := gm.Position()
	wantColumns(t, &p, d9)
	if p.Side() != rules.Black || p.Hand(rules.White) != 0 || p.Hand(rules.Black) != 1 {
		t.Errorf("%v to move, hands %d/%d", p.Side(), p.Hand(rules.White), p.Hand(rules.Black))
	}
	for i := 0; i <= gm.Len(); i++ {
		q := gm.PositionAt(i)
		if q.CanCapture() {
			t.Errorf("ply %d: a capture", i+1)
		}
	}
	if got, want := gm.Outcome(), (rules.Outcome{Result: rules.Draw, Reason: rules.NoMove}); got != want {
		t.Errorf("outcome %v, want %v", got, want)
	}
}

// S2: a capture in the entering phase, a 5-man capture, the mixed phase
// and a shadow piece of 3.
func TestS2_ShadowOfThree(t *testing.T) {
	gm := playSequence(t, g9, s2)
	moves := gm.Moves()
	// 6.d8xf6: White must capture while holding men.
	i := ply(6, rules.White)
	p := gm.PositionAt(i)
	if p.Hand(rules.White) == 0 || moves[i].Kind() != rules.Capture {
		t.Errorf("6.d8xf6: White hand %d, kind %v", p.Hand(rules.White), moves[i].Kind())
	}
	for _, m := range p.Legal(nil) {
		if m.Kind() != rules.Capture {
			t.Errorf("6.: %s is legal next to a capture", m.Text(g9))
		}
	}
	// 9.c1xe3xg5xi7xg9xe7 takes 5 men.
	if m := moves[ply(9, rules.White)]; m.Jumps() != 5 {
		t.Errorf("9.: %s takes %d men", m.Text(g9), m.Jumps())
	}
	// 12...i5: Black's last entry.
	if p := gm.PositionAt(ply(12, rules.Black) + 1); p.Hand(rules.Black) != 0 {
		t.Errorf("after 12...i5 Black holds %d", p.Hand(rules.Black))
	}
	// 13.c5xe3 with 3 men in hand.
	if p := gm.PositionAt(ply(13, rules.White)); p.Hand(rules.White) != 3 {
		t.Errorf("13.c5xe3: White holds %d, want 3", p.Hand(rules.White))
	}
	// 13...b6-c7: Black steps while White still holds men.
	i = ply(13, rules.Black)
	if p := gm.PositionAt(i); p.Hand(rules.Black) != 0 || p.Hand(rules.White) != 3 || moves[i].Kind() != rules.Step {
		t.Errorf("13...b6-c7: hands %d/%d, kind %v", p.Hand(rules.White), p.Hand(rules.Black), moves[i].Kind())
	}
	// 14.a1: the shadow piece of 3.
	i = ply(14, rules.White)
	if p := gm.PositionAt(i + 1); p.Hand(rules.White) != 0 || p.At(mustSquare(t, g9, "a1")) != (rules.Column{Owner: rules.White, Top: 3}) {
		t.Errorf("after 14.a1: hand %d, a1 %s", p.Hand(rules.White), columnText(p.At(mustSquare(t, g9, "a1"))))
	}
	// 20.g9xe7: Black has nothing left.
	if gm.Len() != ply(20, rules.White)+1 {
		t.Errorf("%d plies", gm.Len())
	}
	if p := gm.Position(); !p.Lost() || p.Owned(rules.Black) != 0 || p.Hand(rules.Black) != 0 {
		t.Error("Black is not left without men")
	}
	if got, want := gm.Outcome(), (rules.Outcome{Result: rules.WhiteWins, Reason: rules.NoMen}); got != want {
		t.Errorf("outcome %v, want %v", got, want)
	}
}

// S3: Black captures in the entering phase, multi-captures, a shadow
// piece of 2.
func TestS3_ShadowOfTwo(t *testing.T) {
	gm := playSequence(t, g9, s3)
	moves := gm.Moves()
	// White's hand empties at 12.e1; it steps from move 13 while Black
	// still holds men.
	if p := gm.PositionAt(ply(12, rules.White) + 1); p.Hand(rules.White) != 0 || p.Hand(rules.Black) == 0 {
		t.Errorf("after 12.e1: hands %d/%d", p.Hand(rules.White), p.Hand(rules.Black))
	}
	if m := moves[ply(13, rules.White)]; m.Kind() != rules.Step {
		t.Errorf("13.%s is not a step", m.Text(g9))
	}
	// 8...e1xg3: Black captures with men in hand.
	if i, p := ply(8, rules.Black), gm.PositionAt(ply(8, rules.Black)); moves[i].Kind() != rules.Capture || p.Hand(rules.Black) == 0 {
		t.Errorf("8...%s", moves[i].Text(g9))
	}
	// 16...c5: the shadow piece of 2 on a square emptied by a capture.
	i := ply(16, rules.Black)
	c5 := mustSquare(t, g9, "c5")
	if p := gm.PositionAt(i); p.Hand(rules.Black) != 2 || p.Hand(rules.White) != 0 || !p.At(c5).Empty() {
		t.Errorf("before 16...c5: hands %d/%d, c5 %s", p.Hand(rules.White), p.Hand(rules.Black), columnText(p.At(c5)))
	}
	if p := gm.PositionAt(ply(5, rules.White) + 1); p.At(c5).Empty() {
		t.Error("c5 is empty after 5.c5")
	}
	if p := gm.PositionAt(i + 1); p.At(c5) != (rules.Column{Owner: rules.Black, Top: 2}) || p.Hand(rules.Black) != 0 {
		t.Errorf("after 16...c5: c5 %s, hand %d", columnText(p.At(c5)), p.Hand(rules.Black))
	}
	if got, want := gm.Outcome(), (rules.Outcome{Result: rules.BlackWins, Reason: rules.NoMen}); got != want {
		t.Errorf("outcome %v, want %v", got, want)
	}
}
