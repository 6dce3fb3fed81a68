package rules_test

import (
	"errors"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"emergo/rules"
)

// One test or more per numbered rule of docs/rules.md, each on its own
// hand-made position. The positions hold all the men, as in a game: the
// men that do not matter stand in one filler column on the rim (see
// filled).

var g7 = rules.Geometry7

func TestRule1_1_BoardSizes(t *testing.T) {
	for _, c := range []struct {
		g                *rules.Geometry
		size, dark, men  int
		centre, topRight string
	}{
		{g9, 9, 41, 12, "e5", "i9"},
		{g7, 7, 25, 8, "d4", "g7"},
	} {
		if rules.GeometryOf(c.size) != c.g {
			t.Errorf("GeometryOf(%d) is not the %dx%d geometry", c.size, c.size, c.size)
		}
		if c.g.N != c.size || c.g.Squares != c.dark || c.g.Men != c.men {
			t.Errorf("%dx%d: N %d, squares %d, men %d", c.size, c.size, c.g.N, c.g.Squares, c.g.Men)
		}
		used := 0
		for f := 0; f < c.size; f++ {
			for r := 0; r < c.size; r++ {
				if c.g.At(f, r) != rules.NoSquare {
					used++
				}
			}
		}
		if used != c.dark {
			t.Errorf("%dx%d: %d playable squares, want %d", c.size, c.size, used, c.dark)
		}
		p := rules.NewPosition(c.g)
		if n := bits.OnesCount64(uint64(p.Empty())); n != c.dark {
			t.Errorf("%dx%d start: %d empty squares, want %d", c.size, c.size, n, c.dark)
		}
		if c.g.Name(c.g.At(c.size-1, c.size-1)) != c.topRight {
			t.Errorf("%dx%d: top right square %s", c.size, c.size, c.g.Name(c.g.At(c.size-1, c.size-1)))
		}
	}
	for _, n := range []int{0, 8, 11} {
		if rules.GeometryOf(n) != nil {
			t.Errorf("GeometryOf(%d) is not nil", n)
		}
	}
}

func TestRule1_2_SquareNames(t *testing.T) {
	for _, g := range []*rules.Geometry{g9, g7} {
		for s := rules.Square(0); int(s) < g.Squares; s++ {
			name := g.Name(s)
			back, err := g.ParseSquare(name)
			if err != nil || back != s {
				t.Errorf("%dx%d: %s parses to %v, %v", g.N, g.N, name, back, err)
			}
			f, r := g.FileRank(s)
			if (f+r)%2 != 0 || name != string([]byte{byte('a' + f), byte('1' + r)}) {
				t.Errorf("%dx%d: square %d is %s at file %d rank %d", g.N, g.N, s, name, f, r)
			}
		}
		// The centre, a1 dark, b1 light.
		if f, r := g.FileRank(g.Centre); f != g.N/2 || r != g.N/2 {
			t.Errorf("%dx%d: centre at %d,%d", g.N, g.N, f, r)
		}
		if _, err := g.ParseSquare("a1"); err != nil {
			t.Errorf("a1: %v", err)
		}
		for _, bad := range []string{"b1", "a2", "", "a", "a10", "A1", "j1", "a0", "e4"} {
			if _, err := g.ParseSquare(bad); err == nil {
				t.Errorf("%dx%d: %q parses", g.N, g.N, bad)
			}
		}
		// Up to four neighbours; the rim squares are the edge.
		edge := 0
		for s := rules.Square(0); int(s) < g.Squares; s++ {
			n := 0
			for d := 0; d < 4; d++ {
				if g.Neighbour(s, d) != rules.NoSquare {
					n++
				}
			}
			f, r := g.FileRank(s)
			rim := f == 0 || r == 0 || f == g.N-1 || r == g.N-1
			if rim {
				edge++
			}
			want := 4
			switch {
			case (f == 0 || f == g.N-1) && (r == 0 || r == g.N-1):
				want = 1
			case rim:
				want = 2
			}
			if n != want {
				t.Errorf("%dx%d: %s has %d neighbours, want %d", g.N, g.N, g.Name(s), n, want)
			}
			if rim != (g.Edge>>s&1 == 1) {
				t.Errorf("%dx%d: %s: Edge says %v", g.N, g.N, g.Name(s), !rim)
			}
		}
		if want := 2 * (g.N - 1); edge != want {
			t.Errorf("%dx%d: %d rim squares, want %d", g.N, g.N, edge, want)
		}
	}
	if _, err := g7.ParseSquare("h8"); err == nil {
		t.Error("h8 parses on 7x7")
	}
	if _, err := g9.ParseSquare("i9"); err != nil {
		t.Errorf("i9 on 9x9: %v", err)
	}
}

// A column on the rim cannot be jumped, even with enemies on both sides.
func TestRule1_2_EdgeNeverJumped(t *testing.T) {
	p := filled(t, g7, board{"c7": "B1", "b6": "W1", "d6": "W1"}, "a1", [2]int{0, 0}, rules.White)
	wantMoves(t, &p, "b6-a5", "b6-a7", "b6-c5", "d6-c5", "d6-e5", "d6-e7")
}

func TestRule1_3_StartAndTurns(t *testing.T) {
	for _, g := range []*rules.Geometry{g9, g7} {
		p := rules.NewPosition(g)
		if p.Side() != rules.White || p.Hand(rules.White) != g.Men || p.Hand(rules.Black) != g.Men || p.Occupied() != 0 {
			t.Errorf("%dx%d start: %v to move, hands %d/%d", g.N, g.N, p.Side(), p.Hand(rules.White), p.Hand(rules.Black))
		}
		if !p.FirstMove() || p.Lost() {
			t.Errorf("%dx%d start: FirstMove %v, Lost %v", g.N, g.N, p.FirstMove(), p.Lost())
		}
		// Turns alternate strictly.
		gm := rules.NewGame(g)
		for i := 0; i < 10; i++ {
			want := rules.Color(i % 2)
			if p := gm.Position(); p.Side() != want {
				t.Fatalf("%dx%d ply %d: %v to move", g.N, g.N, i+1, p.Side())
			}
			if err := gm.Play(gm.Legal()[i%len(gm.Legal())]); err != nil {
				t.Fatal(err)
			}
		}
		// There is no pass.
		if err := gm.Play(rules.Move{}); !errors.Is(err, rules.ErrIllegal) {
			t.Errorf("Play(zero Move): %v, want ErrIllegal", err)
		}
		if gm.Len() != 10 {
			t.Errorf("%d moves after a refused pass", gm.Len())
		}
	}
	// Black has no column at the start of his first turn: not a loss.
	p := after(t, rules.NewPosition(g9), "a1")
	if p.Lost() || p.CountLegal() == 0 {
		t.Errorf("after 1.a1: Lost %v, %d moves", p.Lost(), p.CountLegal())
	}
}

func TestRule1_4_MenConserved(t *testing.T) {
	sq := func(name string) rules.Square { return mustSquare(t, g9, name) }
	// PositionOf refuses a position with more men than a colour has.
	for _, c := range []struct {
		cols  map[rules.Square]rules.Column
		hands [2]int
	}{
		{map[rules.Square]rules.Column{sq("e5"): {Owner: rules.White, Top: 1}}, [2]int{12, 12}},
		{map[rules.Square]rules.Column{sq("e5"): {Owner: rules.White, Top: 1, Prisoners: 1}}, [2]int{11, 12}},
		{map[rules.Square]rules.Column{sq("e5"): {Owner: rules.White, Top: 7}, sq("c3"): {Owner: rules.White, Top: 6}}, [2]int{0, 12}},
		{nil, [2]int{12, 13}},
		{nil, [2]int{-1, 12}},
	} {
		if _, err := rules.PositionOf(g9, c.cols, c.hands, rules.White); err == nil {
			t.Errorf("PositionOf(%v, hands %v) accepted", c.cols, c.hands)
		}
	}
	// A capture of three men, one of which frees two: still 12 each.
	p := filled(t, g9, board{"c3": "W2b1", "d4": "B1w2", "f6": "B2", "f8": "B1"}, "a9", [2]int{0, 0}, rules.White)
	for c := rules.White; c <= rules.Black; c++ {
		if p.Men(c) != 12 {
			t.Fatalf("test setup: %v has %d men", c, p.Men(c))
		}
	}
	wantMoves(t, &p, "c3xe5xg7xe9")
	q := after(t, p, "c3xe5xg7xe9")
	wantValid(t, &q)
	for c := rules.White; c <= rules.Black; c++ {
		if q.Men(c) != 12 {
			t.Errorf("%v has %d men", c, q.Men(c))
		}
	}
	wantColumns(t, &q, board{"d4": "W2", "f6": "B1", "e9": "W2b4", "a9": columnText(q.At(sq("a9")))})
	// From the start, every move of a whole game keeps 8 and 8 on 7x7
	// (and TestInvariants checks thousands of games).
	gm := playRandom(t, g7, 1)
	for i := 0; i <= gm.Len(); i++ {
		p := gm.PositionAt(i)
		if p.Men(rules.White) != 8 || p.Men(rules.Black) != 8 {
			t.Fatalf("ply %d: men %d/%d", i, p.Men(rules.White), p.Men(rules.Black))
		}
	}
}

// playRandom plays a whole random game on g, from a fixed seed, and
// returns it.
func playRandom(t testing.TB, g *rules.Geometry, seed uint64) *rules.Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	gm := rules.NewGame(g)
	for !gm.Outcome().Over() && gm.Len() < 400 {
		ms := gm.Legal()
		if err := gm.Play(ms[rng.IntN(len(ms))]); err != nil {
			t.Fatal(err)
		}
	}
	return gm
}

func TestRule2_1_OwnerIsTopMan(t *testing.T) {
	p := filled(t, g7, board{"c3": "W1", "d4": "B2w3"}, "g7", [2]int{0, 0}, rules.White)
	d4 := mustSquare(t, g7, "d4")
	if c := p.At(d4); c.Owner != rules.Black || p.Owned(rules.Black)>>d4&1 != 1 || p.Owned(rules.White)>>d4&1 != 0 {
		t.Fatalf("d4 %v is not Black's", c)
	}
	// White jumps it for its black top man.
	wantMoves(t, &p, "c3xe5")
	// Black moves it as his own.
	q := filled(t, g7, board{"a1": "W1", "d4": "B2w3"}, "g7", [2]int{0, 0}, rules.Black)
	got := legalTextsOf(&q)
	for _, m := range []string{"d4-c3", "d4-e3", "d4-c5", "d4-e5"} {
		if !slices.Contains(got, m) {
			t.Errorf("%s missing from %v", m, got)
		}
	}
}

func TestRule2_2_ColumnShape(t *testing.T) {
	sq := func(name string) rules.Square { return mustSquare(t, g7, name) }
	for _, c := range []rules.Column{
		{Owner: rules.White, Top: 0, Prisoners: 2},
		{Owner: rules.White, Top: -1},
		{Owner: rules.Black, Top: 1, Prisoners: -1},
		{Owner: 2, Top: 1},
		{Owner: rules.White, Top: 9},
	} {
		if _, err := rules.PositionOf(g7, map[rules.Square]rules.Column{sq("d4"): c}, [2]int{8 - c.Top, 8}, rules.White); err == nil {
			t.Errorf("PositionOf accepted the column %+v", c)
		}
	}
	// A column with prisoners jumps a column with prisoners: both keep
	// the shape owner men over prisoners.
	p := filled(t, g7, board{"c3": "W2b1", "d4": "B3w2"}, "g7", [2]int{0, 0}, rules.White)
	q := after(t, p, "c3xe5")
	want := map[string]rules.Column{
		"e5": {Owner: rules.White, Top: 2, Prisoners: 2},
		"d4": {Owner: rules.Black, Top: 2, Prisoners: 2},
		"c3": {},
	}
	for name, c := range want {
		if got := q.At(sq(name)); got != c {
			t.Errorf("%s: %+v, want %+v", name, got, c)
		}
		if got := q.At(sq(name)); got.Height() != c.Top+c.Prisoners || got.Empty() != (c.Top == 0) {
			t.Errorf("%s: height %d, empty %v", name, got.Height(), got.Empty())
		}
	}
	wantValid(t, &q)
}

func TestRule2_3_ColumnMovesWhole(t *testing.T) {
	// A step moves all five men.
	p := filled(t, g7, board{"c3": "W3b2"}, "g7", [2]int{0, 2}, rules.White)
	q := after(t, p, "c3-d4")
	wantColumns(t, &q, board{"d4": "W3b2", "g7": columnText(p.At(mustSquare(t, g7, "g7")))})
	// So does a capture; the men in hand are out of reach.
	p = filled(t, g7, board{"c3": "W3b2", "d4": "B1"}, "g7", [2]int{0, 2}, rules.White)
	wantMoves(t, &p, "c3xe5")
	q = after(t, p, "c3xe5")
	if c := q.At(mustSquare(t, g7, "e5")); c != (rules.Column{Owner: rules.White, Top: 3, Prisoners: 3}) {
		t.Errorf("e5: %s, want W3b3", columnText(c))
	}
	if q.Hand(rules.Black) != 2 || q.Hand(rules.White) != 0 {
		t.Errorf("hands %d/%d, want 0/2", q.Hand(rules.White), q.Hand(rules.Black))
	}
}

func TestRule3_1_JumpAdjacentToEmpty(t *testing.T) {
	for _, c := range []struct {
		name string
		cols board
		want []string
	}{
		{"adjacent, empty beyond", board{"c3": "W1", "d4": "B1"}, []string{"c3xe5"}},
		{"beyond held by White", board{"c3": "W1", "d4": "B1", "e5": "W1"}, nil},
		{"beyond held by Black", board{"c3": "W1", "d4": "B1", "e5": "B1"}, nil},
		{"not adjacent", board{"c3": "W1", "e5": "B1"}, nil},
		{"own column", board{"c3": "W1", "d4": "W1"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filled(t, g9, c.cols, "a9", [2]int{0, 0}, rules.White)
			if p.CanCapture() != (c.want != nil) {
				t.Errorf("CanCapture %v", p.CanCapture())
			}
			if c.want != nil {
				wantMoves(t, &p, c.want...)
				return
			}
			for _, m := range p.Legal(nil) {
				if m.Kind() != rules.Step {
					t.Errorf("%s is not a step", m.Text(g9))
				}
			}
		})
	}
}

func TestRule3_2_TopManTaken(t *testing.T) {
	for _, c := range []struct {
		name   string
		jumped string
		left   string // d4 after the jump
		owner  rules.Color
	}{
		{"tall column stays Black's", "B2w1", "B1w1", rules.Black},
		{"prisoners freed", "B1w3", "W3", rules.White},
		{"single man", "B1", ".", rules.White},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filled(t, g7, board{"c3": "W1", "d4": c.jumped}, "a7", [2]int{0, 0}, rules.White)
			wantMoves(t, &p, "c3xe5")
			q := after(t, p, "c3xe5")
			d4 := q.At(mustSquare(t, g7, "d4"))
			if columnText(d4) != c.left {
				t.Errorf("d4: %s, want %s", columnText(d4), c.left)
			}
			if e5 := q.At(mustSquare(t, g7, "e5")); columnText(e5) != "W1b1" {
				t.Errorf("e5: %s, want W1b1", columnText(e5))
			}
			wantValid(t, &q)
		})
	}
	// The freed column is the capturer's from his next turn: after
	// Black's reply it can step.
	p := filled(t, g7, board{"c3": "W1", "d4": "B1w3"}, "a7", [2]int{0, 0}, rules.White)
	p = after(t, p, "c3xe5")
	wantMoves(t, &p, "a7-b6")
	p = after(t, p, "a7-b6")
	wantMoves(t, &p, "d4-c3", "d4-c5", "d4-e3", "e5-d6", "e5-f4", "e5-f6")
}

func TestRule3_3_ContinueNoReversal(t *testing.T) {
	// From d4 the only further jump would go back over c3 to b2: the
	// sequence ends after one jump.
	p := filled(t, g7, board{"b2": "W1", "c3": "B3"}, "g7", [2]int{0, 0}, rules.White)
	wantMoves(t, &p, "b2xd4")
	q := after(t, p, "b2xd4")
	wantColumns(t, &q, board{"c3": "B2", "d4": "W1b1", "g7": columnText(p.At(mustSquare(t, g7, "g7")))})

	// With a man on e5 it must go on, in a new direction.
	p = filled(t, g7, board{"b2": "W1", "c3": "B3", "e5": "B1"}, "g7", [2]int{0, 0}, rules.White)
	wantMoves(t, &p, "b2xd4xf6")
	q = after(t, p, "b2xd4xf6")
	wantColumns(t, &q, board{"c3": "B2", "f6": "W1b2", "g7": columnText(p.At(mustSquare(t, g7, "g7")))})
	// Nothing else happens in that turn.
	if q.Side() != rules.Black || q.Hand(rules.White) != 0 || q.Hand(rules.Black) != 0 {
		t.Errorf("%v to move, hands %d/%d", q.Side(), q.Hand(rules.White), q.Hand(rules.Black))
	}
}

func TestRule3_4_StartSquareEmpty(t *testing.T) {
	// The column lands on its start square e5 and leaves it again; f6
	// is jumped twice while it is still topped by Black.
	p := filled(t, g9, board{"e5": "W1", "f6": "B2", "f8": "B1", "d8": "B1", "d6": "B1"}, "i1", [2]int{0, 0}, rules.White)
	wantMoves(t, &p, "e5xg7xe9xc7xe5xg7")
	q := after(t, p, "e5xg7xe9xc7xe5xg7")
	wantColumns(t, &q, board{"g7": "W1b5", "i1": columnText(p.At(mustSquare(t, g9, "i1")))})

	// Once freed, f6 is White's and is not jumped again: both routes
	// stop on e5 after four men.
	p = filled(t, g9, board{"e5": "W1", "f6": "B1w1", "f8": "B1", "d8": "B1", "d6": "B1"}, "i1", [2]int{0, 0}, rules.White)
	wantMoves(t, &p, "e5xg7xe9xc7xe5", "e5xc7xe9xg7xe5")
	for _, m := range p.Legal(nil) {
		q := p.After(m)
		wantColumns(t, &q, board{"e5": "W1b4", "f6": "W1", "i1": columnText(p.At(mustSquare(t, g9, "i1")))})
	}
}

func TestRule3_5_CaptureCompulsory(t *testing.T) {
	// Both players hold men; the one to move captures all the same.
	cols := board{"c3": "W1", "d4": "B1", "a7": "W2", "g1": "B1"}
	w := makePosition(t, g7, cols, [2]int{5, 6}, rules.White)
	wantMoves(t, &w, "c3xe5")
	b := makePosition(t, g7, cols, [2]int{5, 6}, rules.Black)
	wantMoves(t, &b, "d4xb2")
	// In the movement phase a capture excludes every step.
	p := filled(t, g9, board{"c3": "W1", "d4": "B1", "h2": "W1"}, "a9", [2]int{0, 0}, rules.White)
	wantMoves(t, &p, "c3xe5")
}

func TestRule3_6_Majority(t *testing.T) {
	// a1 can take 2 (by a5) or 3 (by g7), i3 can take 1: only the 3.
	p := filled(t, g9, board{"a1": "W1", "b2": "B1", "b4": "B1", "d4": "B1", "f6": "B1", "i3": "W1", "h2": "B1"}, "i9", [2]int{0, 0}, rules.White)
	wantMoves(t, &p, "a1xc3xe5xg7")
	nb := nFrom(&p)
	if all := nTexts(nb.captures()); !slices.Equal(all, []string{"a1xc3xa5", "a1xc3xe5xg7", "i3xg1"}) {
		t.Errorf("complete sequences %v", all)
	}
	// Two columns and two routes each, all of 2 men: free choice.
	p = filled(t, g7, board{"b2": "W1", "f2": "W1", "c3": "B1", "e3": "B1", "c5": "B1", "e5": "B1"}, "g7", [2]int{0, 0}, rules.White)
	wantMoves(t, &p, "b2xd4xb6", "b2xd4xf6", "f2xd4xb6", "f2xd4xf6")
}

func TestRule3_7_PathsAreMoves(t *testing.T) {
	// A circuit round d6 either way: the same men, the same position,
	// two moves.
	p := filled(t, g7, board{"d6": "W1", "e5": "B1", "e3": "B1", "c3": "B1", "c5": "B1"}, "a1", [2]int{0, 0}, rules.White)
	wantMoves(t, &p, "d6xb4xd2xf4xd6", "d6xf4xd2xb4xd6")
	ms := p.Legal(nil)
	a, b := p.After(ms[0]), p.After(ms[1])
	if a != b || a.Hash() != b.Hash() {
		t.Error("the two circuits reach different positions")
	}
	wantColumns(t, &a, board{"d6": "W1b4", "a1": columnText(p.At(mustSquare(t, g7, "a1")))})
	if p.CountLegal() != 2 {
		t.Errorf("CountLegal %d, want 2", p.CountLegal())
	}
	for _, bulk := range []bool{false, true} {
		pf := rules.Perft{Bulk: bulk}
		if n := pf.Count(&p, 1); n != 2 {
			t.Errorf("perft(1) bulk %v: %d, want 2", bulk, n)
		}
	}
}

func TestRule4_1_EnterOneMan(t *testing.T) {
	cols := board{"a1": "W1", "g7": "B1", "c5": "W1", "e3": "B1"}
	p := makePosition(t, g7, cols, [2]int{6, 6}, rules.White)
	// e3 could jump d2, f2 and f4, g7 could jump f6; d4 is safe because
	// c5 stands beyond it.
	wantMoves(t, &p, emptySquaresExcept(&p, "d2", "f2", "f4", "f6")...)
	q := after(t, p, "a7")
	if c := q.At(mustSquare(t, g7, "a7")); columnText(c) != "W1" {
		t.Errorf("a7: %s, want W1", columnText(c))
	}
	if q.Hand(rules.White) != 5 || q.Hand(rules.Black) != 6 {
		t.Errorf("hands %d/%d, want 5/6", q.Hand(rules.White), q.Hand(rules.Black))
	}
}

func TestRule4_2_ShadowPiece(t *testing.T) {
	p := makePosition(t, g7, board{"a1": "W5", "g7": "B8"}, [2]int{3, 0}, rules.White)
	wantMoves(t, &p, emptySquaresExcept(&p, "f6")...)
	for _, m := range p.Legal(nil) {
		q := p.After(m)
		if c := q.At(m.From()); columnText(c) != "W3" || q.Hand(rules.White) != 0 {
			t.Fatalf("%s: %s, hand %d; want W3, hand 0", m.Text(g7), columnText(c), q.Hand(rules.White))
		}
		wantValid(t, &q)
	}
	// A hand of one is a shadow piece of one man.
	p = makePosition(t, g9, board{"a1": "W11", "i9": "B12"}, [2]int{1, 0}, rules.White)
	q := after(t, p, "e5")
	if c := q.At(g9.Centre); columnText(c) != "W1" || q.Hand(rules.White) != 0 {
		t.Errorf("e5: %s, hand %d", columnText(c), q.Hand(rules.White))
	}
}

// EntrySize says how many men the next entry puts on the board, as Play
// does.
func TestRule4_2_EntrySize(t *testing.T) {
	tests := []struct {
		name  string
		cols  board
		hands [2]int
		side  rules.Color
		want  int
	}{
		{"one man while both hold men", board{"a1": "W5", "g7": "B5"}, [2]int{3, 3}, rules.White, 1},
		{"the shadow piece", board{"a1": "W5", "g7": "B8"}, [2]int{3, 0}, rules.White, 3},
		{"a shadow piece of one", board{"a1": "W7", "g7": "B8"}, [2]int{1, 0}, rules.White, 1},
		{"an empty hand", board{"a1": "W5", "g7": "B8"}, [2]int{3, 0}, rules.Black, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := makePosition(t, g7, tc.cols, tc.hands, tc.side)
			if got := p.EntrySize(); got != tc.want {
				t.Errorf("EntrySize %d, want %d", got, tc.want)
			}
			for _, m := range p.Legal(nil) {
				if q := p.After(m); m.Kind() == rules.Entry && q.At(m.From()).Top != tc.want {
					t.Errorf("%s puts %d men on the board", m.Text(g7), q.At(m.From()).Top)
				}
			}
		})
	}
}

func TestRule4_3_FirstMoveNotCentre(t *testing.T) {
	for _, g := range []*rules.Geometry{g9, g7} {
		p := rules.NewPosition(g)
		centre := g.Name(g.Centre)
		wantMoves(t, &p, squaresExcept(g, centre)...)
		if p.Entries()>>g.Centre&1 != 0 {
			t.Errorf("%dx%d: Entries holds the centre", g.N, g.N)
		}
		// Black's first move may be the centre, and so may White's second.
		p = after(t, p, "a1")
		if p.FirstMove() {
			t.Errorf("%dx%d: FirstMove after 1.a1", g.N, g.N)
		}
		findMove(t, &p, centre)
		p = after(t, p, "c1")
		findMove(t, &p, centre)
	}
}

func TestRule4_4_NoFeeding(t *testing.T) {
	cols := board{"b2": "W1", "f6": "B1"}
	// White cannot capture: Black may not enter on c3, where b2 would
	// jump it, but may enter on a1, c1 and a3, which attack b2 from
	// squares b2 cannot jump.
	p := makePosition(t, g7, cols, [2]int{7, 7}, rules.Black)
	wantMoves(t, &p, emptySquaresExcept(&p, "c3")...)
	// After a1, Black threatens a1xc3: White is released and may enter
	// on e5 too, where f6 could jump him.
	q := after(t, p, "a1")
	wantMoves(t, &q, emptySquaresExcept(&q)...)
	// Without the threat e5 is forbidden to White.
	w := makePosition(t, g7, cols, [2]int{7, 7}, rules.White)
	wantMoves(t, &w, emptySquaresExcept(&w, "e5")...)
	// The threat was real: after White's entry Black must take b2.
	r := after(t, q, "g1")
	wantMoves(t, &r, "a1xc3")
}

func TestRule4_5_ShadowPieceBans(t *testing.T) {
	// A Black shadow piece of 3 may not stand where c3 could jump it.
	p := makePosition(t, g7, board{"c3": "W8", "g7": "B5"}, [2]int{0, 3}, rules.Black)
	wantMoves(t, &p, emptySquaresExcept(&p, "b2", "d2", "b4", "d4")...)
	for _, m := range p.Legal(nil) {
		if q := p.After(m); columnText(q.At(m.From())) != "B3" {
			t.Fatalf("%s enters %s", m.Text(g7), columnText(q.At(m.From())))
		}
	}
	// White threatens f4 from the rim: the shadow piece is released.
	p = makePosition(t, g7, board{"c3": "W7", "g5": "W1", "f4": "B1", "g7": "B4"}, [2]int{0, 3}, rules.Black)
	wantMoves(t, &p, emptySquaresExcept(&p)...)
	// The centre ban of 4.3 cannot meet a shadow piece: on the first
	// move both hands are full.
}

// noEntry9 is a 9x9 position where Black, with a shadow piece of 2 to
// enter and no capture, finds every empty square attacked.
var noEntry9 = board{
	"a1": "W1", "c1": "B1", "e1": "W1", "g1": "B1", "i1": "W1",
	"a3": "B1", "i3": "B1",
	"b4": "W1", "f4": "W1",
	"a5": "W1", "c5": "W1", "i5": "W1",
	"b6": "W1", "f6": "W1",
	"a7": "B1", "i7": "B1",
	"b8": "B1",
	"a9": "B1", "c9": "B1", "e9": "W1", "g9": "B1", "i9": "W1",
}

func TestRule4_6_NoAllowedSquare(t *testing.T) {
	p := makePosition(t, g9, noEntry9, [2]int{0, 2}, rules.Black)
	wantMoves(t, &p)
	nb := nFrom(&p)
	if ms := nb.legal(); len(ms) != 0 {
		t.Errorf("naive generator: %v", nTexts(ms))
	}
	// Black has columns that could step (c1 to b2), but may not.
	if p.At(mustSquare(t, g9, "b2")) != (rules.Column{}) || p.At(mustSquare(t, g9, "c1")).Owner != rules.Black {
		t.Fatal("test setup: c1 cannot step to b2")
	}
	if p.Lost() {
		t.Error("Lost with men in hand")
	}
	gm := rules.NewGameFrom(p)
	if got, want := gm.Outcome(), (rules.Outcome{Result: rules.Draw, Reason: rules.NoMove}); got != want {
		t.Errorf("outcome %v, want %v", got, want)
	}
}

func TestRule5_1_Steps(t *testing.T) {
	p := filled(t, g9, board{"e5": "W2b1", "d6": "W1", "f4": "B1", "g3": "W1"}, "a9", [2]int{0, 0}, rules.White)
	wantMoves(t, &p, "d6-c5", "d6-c7", "d6-e7", "e5-d4", "e5-f6", "g3-f2", "g3-h2", "g3-h4")
	q := after(t, p, "e5-d4")
	if c := q.At(mustSquare(t, g9, "d4")); columnText(c) != "W2b1" || !q.At(mustSquare(t, g9, "e5")).Empty() {
		t.Errorf("after e5-d4: d4 %s", columnText(c))
	}
}

func TestRule5_2_MixedPhase(t *testing.T) {
	cols := board{"b2": "W5", "f6": "B4w3"}
	// White's hand is empty: White steps although Black holds men.
	w := makePosition(t, g7, cols, [2]int{0, 4}, rules.White)
	wantMoves(t, &w, "b2-a1", "b2-a3", "b2-c1", "b2-c3")
	// Black enters, and his entry is the shadow piece of 4.
	b := makePosition(t, g7, cols, [2]int{0, 4}, rules.Black)
	wantMoves(t, &b, emptySquaresExcept(&b, "c3")...)
	q := after(t, b, "g1")
	if c := q.At(mustSquare(t, g7, "g1")); columnText(c) != "B4" {
		t.Errorf("g1: %s, want B4", columnText(c))
	}
}

func TestRule6_1_Loss(t *testing.T) {
	// Black has no men in hand and all his men are prisoners.
	p := makePosition(t, g7, board{"d4": "W1b8"}, [2]int{7, 0}, rules.Black)
	if !p.Lost() {
		t.Fatal("Lost is false")
	}
	gm := rules.NewGameFrom(p)
	// The loss comes before the lack of moves (RULES 6.2).
	if got, want := gm.Outcome(), (rules.Outcome{Result: rules.WhiteWins, Reason: rules.NoMen}); got != want {
		t.Errorf("outcome %v, want %v", got, want)
	}
	// White in the same plight loses too.
	p = makePosition(t, g7, board{"d4": "B2w8"}, [2]int{0, 6}, rules.White)
	if gm := rules.NewGameFrom(p); gm.Outcome().Result != rules.BlackWins {
		t.Errorf("outcome %v, want 0-1", gm.Outcome())
	}
	// No column but men in hand: not lost.
	p = makePosition(t, g7, board{"d4": "W1b2"}, [2]int{7, 6}, rules.Black)
	if p.Lost() || rules.NewGameFrom(p).Outcome().Over() {
		t.Error("a player with men in hand has lost")
	}
}

func TestRule6_2_BlockedDraw(t *testing.T) {
	p := makePosition(t, g7, board{"a7": "W1", "b6": "B2w3", "c5": "B5w4"}, [2]int{0, 1}, rules.White)
	wantMoves(t, &p)
	if p.Lost() {
		t.Error("Lost with a column on the board")
	}
	gm := rules.NewGameFrom(p)
	if got, want := gm.Outcome(), (rules.Outcome{Result: rules.Draw, Reason: rules.NoMove}); got != want {
		t.Errorf("outcome %v, want %v", got, want)
	}
	if err := gm.Play(rules.StepMove(mustSquare(t, g7, "a7"), mustSquare(t, g7, "b6"))); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("Play after the end: %v", err)
	}
}

func TestRule6_3_Repetition(t *testing.T) {
	// The third occurrence of a position other than the start: the
	// position after 1.a1-b2 comes back after plies 5 and 9.
	p := makePosition(t, g7, board{"a1": "W1b4", "g7": "B4w7"}, [2]int{0, 0}, rules.White)
	gm := rules.NewGameFrom(p)
	moves := []string{"a1-b2", "g7-f6", "b2-c3", "f6-g7", "c3-b2", "g7-f6", "b2-c3", "f6-g7", "c3-b2"}
	wantOcc := []int{1, 1, 1, 1, 2, 2, 2, 2, 3}
	for i, m := range moves {
		playText(t, gm, m)
		if n := gm.Occurrences(); n != wantOcc[i] {
			t.Errorf("after ply %d %s: occurrence %d, want %d", i+1, m, n, wantOcc[i])
		}
		if over := gm.Outcome().Over(); over != (i == len(moves)-1) {
			t.Errorf("after ply %d: outcome %v", i+1, gm.Outcome())
		}
	}
	if got, want := gm.Outcome(), (rules.Outcome{Result: rules.Draw, Reason: rules.Repetition}); got != want {
		t.Errorf("outcome %v, want %v", got, want)
	}
	// The side to move is part of the position.
	w := makePosition(t, g7, board{"a1": "W1b4", "g7": "B4w7"}, [2]int{0, 0}, rules.White)
	b := makePosition(t, g7, board{"a1": "W1b4", "g7": "B4w7"}, [2]int{0, 0}, rules.Black)
	if w == b || w.Hash() == b.Hash() {
		t.Error("positions that differ in the side to move are equal")
	}
}

// captureCycle is a 9x9 position that comes back after two captures and
// six steps: White takes g5's top and frees its prisoner, Black takes
// the capturer's top from i5 and frees his own man, and both sides walk
// back. Captures are not irreversible in Emergo: a freeing capture can
// restore the column count and the prisoner count.
var captureCycle = board{"f4": "W1", "g5": "B1w1", "i5": "B1", "i7": "W10b10"}

var captureCycleMoves = []string{"f4xh6", "i5xg7", "g5-f4", "h6-i5", "f4-e3", "g7-f6", "e3-f4", "f6-g5"}

func TestRule6_3_RepetitionThroughCaptures(t *testing.T) {
	p := makePosition(t, g9, captureCycle, [2]int{0, 0}, rules.White)
	gm := rules.NewGameFrom(p)
	for round := 2; round <= 3; round++ {
		for _, m := range captureCycleMoves {
			if gm.Outcome().Over() {
				t.Fatalf("game over before %s: %v", m, gm.Outcome())
			}
			q := gm.Position()
			if q.CanCapture() {
				// The captures of the cycle are forced.
				wantMoves(t, &q, m)
			}
			playText(t, gm, m)
		}
		if q := gm.Position(); q != p {
			t.Fatalf("the cycle does not come back: %s", positionText(&q))
		}
		if n := gm.Occurrences(); n != round {
			t.Errorf("occurrence %d of the start position, Occurrences says %d", round, n)
		}
	}
	if got, want := gm.Outcome(), (rules.Outcome{Result: rules.Draw, Reason: rules.Repetition}); got != want {
		t.Errorf("after the third occurrence: outcome %v, want %v", got, want)
	}
}

func TestRule7_1_EntryText(t *testing.T) {
	if got := rules.EntryMove(g9.Centre).Text(g9); got != "e5" {
		t.Errorf("entry %q", got)
	}
	// A shadow piece is written as its square alone.
	p := makePosition(t, g7, board{"a1": "W5", "g7": "B8"}, [2]int{3, 0}, rules.White)
	m := findMove(t, &p, "d4")
	if m.Kind() != rules.Entry || m.Len() != 1 || m.From() != g7.Centre || m.To() != g7.Centre {
		t.Errorf("shadow entry: kind %v, len %d", m.Kind(), m.Len())
	}
}

func TestRule7_2_StepText(t *testing.T) {
	m := rules.StepMove(mustSquare(t, g9, "c3"), mustSquare(t, g9, "d4"))
	if got := m.Text(g9); got != "c3-d4" {
		t.Errorf("step %q", got)
	}
	if m.Kind() != rules.Step || m.Len() != 2 || m.Jumps() != 0 {
		t.Errorf("step: kind %v, len %d, jumps %d", m.Kind(), m.Len(), m.Jumps())
	}
	if got := (rules.Move{}).Text(g9); got != "-" {
		t.Errorf("zero move %q", got)
	}
}

func TestRule7_3_CaptureText(t *testing.T) {
	path := []rules.Square{mustSquare(t, g9, "c3"), mustSquare(t, g9, "e5"), mustSquare(t, g9, "g7")}
	m, ok := rules.CaptureMove(path)
	if !ok {
		t.Fatal("CaptureMove refused c3xe5xg7")
	}
	if got := m.Text(g9); got != "c3xe5xg7" || m.Jumps() != 2 || m.Len() != 3 {
		t.Errorf("capture %q, %d jumps", got, m.Jumps())
	}
	for i, s := range path {
		if m.At(i) != s {
			t.Errorf("At(%d) = %s", i, g9.Name(m.At(i)))
		}
	}
	if got := string(m.AppendText([]byte("1."), g9)); got != "1.c3xe5xg7" {
		t.Errorf("AppendText %q", got)
	}
	// The full path: a circuit writes its return to the start.
	p := filled(t, g7, board{"d6": "W1", "e5": "B1", "e3": "B1", "c3": "B1", "c5": "B1"}, "a1", [2]int{0, 0}, rules.White)
	for _, m := range p.Legal(nil) {
		if m.Len() != 5 || m.From() != m.To() {
			t.Errorf("%s: %d squares", m.Text(g7), m.Len())
		}
	}
	if _, ok := rules.CaptureMove(path[:1]); ok {
		t.Error("CaptureMove accepted a single square")
	}
	if _, ok := rules.CaptureMove(make([]rules.Square, 14)); ok {
		t.Error("CaptureMove accepted 13 jumps")
	}
}

// TestGamePlayUndoClone covers the bookkeeping of Game: a capture built
// from its path is the generated move, Undo restores the position and its
// moves, and a clone goes its own way.
func TestGamePlayUndoClone(t *testing.T) {
	p := filled(t, g7, board{"b2": "W1", "c3": "B3", "e5": "B1"}, "g7", [2]int{0, 0}, rules.White)
	gm := rules.NewGameFrom(p)
	path := []rules.Square{mustSquare(t, g7, "b2"), mustSquare(t, g7, "d4"), mustSquare(t, g7, "f6")}
	m, ok := rules.CaptureMove(path)
	if !ok {
		t.Fatal("CaptureMove refused b2xd4xf6")
	}
	if err := gm.Play(m); err != nil {
		t.Fatal(err)
	}
	after := gm.Position()
	legal := moveTexts(g7, gm.Legal())
	clone := gm.Clone()
	playText(t, clone, legal[0])
	if q := gm.Position(); q != after || gm.Len() != 1 || clone.Len() != 2 {
		t.Fatal("playing on the clone changed the game")
	}
	if !gm.Undo() || gm.Len() != 0 || gm.Position() != p || gm.Undo() {
		t.Fatal("Undo did not restore the start")
	}
	wantMoves(t, &p, moveTexts(g7, gm.Legal())...)
	if gm.Start() != p || gm.PositionAt(0) != p || len(gm.Moves()) != 0 {
		t.Error("Start, PositionAt or Moves after Undo")
	}
}

// TestRule8_Circuit checks the fact of docs/rules.md section 8: a circuit may
// end where it started, and is written with its start square twice.
func TestRule8_Circuit(t *testing.T) {
	p := filled(t, g9, board{"d8": "W1", "e7": "B1", "e5": "B1", "c5": "B1", "c7": "B1"}, "a1", [2]int{0, 0}, rules.White)
	wantMoves(t, &p, "d8xb6xd4xf6xd8", "d8xf6xd4xb6xd8")
	q := after(t, p, "d8xf6xd4xb6xd8")
	wantColumns(t, &q, board{"d8": "W1b4", "a1": columnText(p.At(mustSquare(t, g9, "a1")))})
}
