package rules_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"emergo/rules"
)

// Helpers shared by the tests of this package. Positions are written the
// way the rule cases of docs/rules.md draw them: a map from square name to
// column text, owner letter, men on top, then the prisoners, such as "W3",
// "B2w2" or "B10w2".

// parseColumn reads a column such as "B2w2".
func parseColumn(text string) (rules.Column, error) {
	if len(text) < 2 {
		return rules.Column{}, fmt.Errorf("column %q is too short", text)
	}
	var c rules.Column
	switch text[0] {
	case 'W':
		c.Owner = rules.White
	case 'B':
		c.Owner = rules.Black
	default:
		return rules.Column{}, fmt.Errorf("column %q: owner must be W or B", text)
	}
	rest := text[1:]
	i := strings.IndexAny(rest, "wb")
	top := rest
	if i >= 0 {
		top = rest[:i]
		want := byte('b')
		if c.Owner == rules.Black {
			want = 'w'
		}
		if rest[i] != want {
			return rules.Column{}, fmt.Errorf("column %q: prisoners must be the other colour", text)
		}
		n, err := strconv.Atoi(rest[i+1:])
		if err != nil || n < 1 {
			return rules.Column{}, fmt.Errorf("column %q: bad prisoner count", text)
		}
		c.Prisoners = n
	}
	k, err := strconv.Atoi(top)
	if err != nil || k < 1 {
		return rules.Column{}, fmt.Errorf("column %q: bad height", text)
	}
	c.Top = k
	return c, nil
}

// columnText writes c the way parseColumn reads it; "." for an empty square.
func columnText(c rules.Column) string {
	if c.Empty() {
		return "."
	}
	own, pris := "W", "b"
	if c.Owner == rules.Black {
		own, pris = "B", "w"
	}
	s := own + strconv.Itoa(c.Top)
	if c.Prisoners > 0 {
		s += pris + strconv.Itoa(c.Prisoners)
	}
	return s
}

// board is a position written as square name to column text.
type board map[string]string

// makePosition builds a position from its columns, hands and side to move.
func makePosition(t testing.TB, g *rules.Geometry, cols board, hands [2]int, side rules.Color) rules.Position {
	t.Helper()
	m := make(map[rules.Square]rules.Column, len(cols))
	for name, text := range cols {
		s, err := g.ParseSquare(name)
		if err != nil {
			t.Fatal(err)
		}
		c, err := parseColumn(text)
		if err != nil {
			t.Fatal(err)
		}
		m[s] = c
	}
	p, err := rules.PositionOf(g, m, hands, side)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// columnsOf returns the occupied squares of p as a board.
func columnsOf(p *rules.Position) board {
	g := p.Geometry()
	b := board{}
	for s := rules.Square(0); int(s) < g.Squares; s++ {
		if c := p.At(s); !c.Empty() {
			b[g.Name(s)] = columnText(c)
		}
	}
	return b
}

// moveTexts returns the sorted texts of ms.
func moveTexts(g *rules.Geometry, ms []rules.Move) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.Text(g))
	}
	slices.Sort(out)
	return out
}

// legalTextsOf returns the sorted texts of the legal moves of p.
func legalTextsOf(p *rules.Position) []string {
	return moveTexts(p.Geometry(), p.Legal(nil))
}

// findMove returns the legal move of p written as text.
func findMove(t testing.TB, p *rules.Position, text string) rules.Move {
	t.Helper()
	g := p.Geometry()
	for _, m := range p.Legal(nil) {
		if m.Text(g) == text {
			return m
		}
	}
	t.Fatalf("%s is not legal; legal moves: %v", text, legalTextsOf(p))
	return rules.Move{}
}

// after returns p after the legal move written as text.
func after(t testing.TB, p rules.Position, text string) rules.Position {
	t.Helper()
	return p.After(findMove(t, &p, text))
}

// playText plays the move written as text in gm.
func playText(t testing.TB, gm *rules.Game, text string) {
	t.Helper()
	g := gm.Geometry()
	for _, m := range gm.Legal() {
		if m.Text(g) == text {
			if err := gm.Play(m); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("ply %d: %s is not legal; legal moves: %v", gm.Len()+1, text, moveTexts(g, gm.Legal()))
}

// squaresExcept returns every playable square of g except those listed.
func squaresExcept(g *rules.Geometry, except ...string) []string {
	var out []string
	for s := rules.Square(0); int(s) < g.Squares; s++ {
		if !slices.Contains(except, g.Name(s)) {
			out = append(out, g.Name(s))
		}
	}
	slices.Sort(out)
	return out
}

// emptySquaresExcept returns the empty squares of p except those listed,
// sorted: the expected entries of a position with a few banned squares.
func emptySquaresExcept(p *rules.Position, except ...string) []string {
	g := p.Geometry()
	var out []string
	for s := rules.Square(0); int(s) < g.Squares; s++ {
		if p.At(s).Empty() && !slices.Contains(except, g.Name(s)) {
			out = append(out, g.Name(s))
		}
	}
	slices.Sort(out)
	return out
}

// wantMoves fails t unless the legal moves of p are exactly want.
func wantMoves(t testing.TB, p *rules.Position, want ...string) {
	t.Helper()
	want = slices.Clone(want)
	slices.Sort(want)
	if got := legalTextsOf(p); !slices.Equal(got, want) {
		t.Fatalf("legal moves\n got %d %v\nwant %d %v", len(got), got, len(want), want)
	}
}

// wantColumns fails t unless the occupied squares of p are exactly want.
func wantColumns(t testing.TB, p *rules.Position, want board) {
	t.Helper()
	got := columnsOf(p)
	if !maps.Equal(got, want) {
		t.Fatalf("columns\n got %v\nwant %v", got, want)
	}
}

// wantValid fails t if p breaks an invariant.
func wantValid(t testing.TB, p *rules.Position) {
	t.Helper()
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
}

// positionText writes p as one line: the board size, the side to move,
// the hands, then every column bottom man first, as in the final
// positions of testdata/vectors: "9 w 0 2 c5:bbww,h8:wwbbbbbbbbbb".
func positionText(p *rules.Position) string {
	g := p.Geometry()
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s %d %d ", g.N, []string{"w", "b"}[p.Side()], p.Hand(rules.White), p.Hand(rules.Black))
	first := true
	for s := rules.Square(0); int(s) < g.Squares; s++ {
		c := p.At(s)
		if c.Empty() {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		own, pris := "w", "b"
		if c.Owner == rules.Black {
			own, pris = "b", "w"
		}
		b.WriteString(g.Name(s) + ":" + strings.Repeat(pris, c.Prisoners) + strings.Repeat(own, c.Top))
	}
	if first {
		b.WriteByte('-')
	}
	return b.String()
}

// parsePosition reads what positionText writes.
func parsePosition(text string) (rules.Position, error) {
	f := strings.Fields(text)
	if len(f) != 5 {
		return rules.Position{}, fmt.Errorf("position %q: want 5 fields", text)
	}
	size, err := strconv.Atoi(f[0])
	g := rules.GeometryOf(size)
	if err != nil || g == nil {
		return rules.Position{}, fmt.Errorf("position %q: bad size", text)
	}
	side := rules.White
	switch f[1] {
	case "w":
	case "b":
		side = rules.Black
	default:
		return rules.Position{}, fmt.Errorf("position %q: bad side", text)
	}
	var hands [2]int
	for i := range hands {
		if hands[i], err = strconv.Atoi(f[2+i]); err != nil {
			return rules.Position{}, fmt.Errorf("position %q: bad hand", text)
		}
	}
	cols := map[rules.Square]rules.Column{}
	if f[4] != "-" {
		for _, item := range strings.Split(f[4], ",") {
			name, men, ok := strings.Cut(item, ":")
			if !ok || men == "" {
				return rules.Position{}, fmt.Errorf("position %q: bad column %q", text, item)
			}
			s, err := g.ParseSquare(name)
			if err != nil {
				return rules.Position{}, err
			}
			c := rules.Column{Owner: rules.White}
			if men[len(men)-1] == 'b' {
				c.Owner = rules.Black
			}
			c.Top = len(men) - len(strings.TrimRight(men, men[len(men)-1:]))
			c.Prisoners = len(men) - c.Top
			if strings.Trim(men[:c.Prisoners], "wb"[c.Owner.Other():c.Owner.Other()+1]) != "" {
				return rules.Position{}, fmt.Errorf("position %q: column %q is not owner men over prisoners", text, item)
			}
			cols[s] = c
		}
	}
	return rules.PositionOf(g, cols, hands, side)
}

// randomGame plays a random game on g of at most plies moves and returns
// the positions it went through, the start included. With probability
// bias a move is chosen that obliges the opponent to capture, which makes
// games full of captures, tall columns and freed prisoners.
func randomGame(rng *rand.Rand, g *rules.Geometry, plies int, bias float64) []rules.Position {
	gm := rules.NewGame(g)
	out := []rules.Position{gm.Position()}
	var buf []rules.Move
	for gm.Len() < plies && !gm.Outcome().Over() {
		p := gm.Position()
		ms := gm.Legal()
		m := ms[rng.IntN(len(ms))]
		if rng.Float64() < bias {
			buf = buf[:0]
			for _, c := range ms {
				q := p.After(c)
				if q.CanCapture() {
					buf = append(buf, c)
				}
			}
			if len(buf) > 0 {
				m = buf[rng.IntN(len(buf))]
			}
		}
		if err := gm.Play(m); err != nil {
			panic(err)
		}
		out = append(out, gm.Position())
	}
	return out
}

// randomPositions returns n positions taken at random plies of random
// games, alternating the board sizes, none of them finished.
func randomPositions(rng *rand.Rand, n int) []rules.Position {
	var out []rules.Position
	for len(out) < n {
		g := rules.Geometry9
		if len(out)%2 == 1 {
			g = rules.Geometry7
		}
		ps := randomGame(rng, g, 4+rng.IntN(120), rng.Float64()*0.8)
		p := ps[rng.IntN(len(ps))]
		if p.CountLegal() > 0 {
			out = append(out, p)
		}
	}
	return out
}

// filled builds a position from cols and adds, on the square filler, one
// column with the men the diagram leaves out (RULES 1.4 wants them all).
// It belongs to the side not to move, so it adds no move of the mover,
// and it stands on the rim, where it can never be jumped.
func filled(t testing.TB, g *rules.Geometry, cols board, filler string, hands [2]int, side rules.Color) rules.Position {
	t.Helper()
	missing := [2]int{g.Men - hands[0], g.Men - hands[1]}
	for name, text := range cols {
		c, err := parseColumn(text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		missing[c.Owner] -= c.Top
		missing[c.Owner.Other()] -= c.Prisoners
	}
	owner := side.Other()
	if missing[owner] < 1 || missing[side] < 0 {
		t.Fatalf("test setup: no filler possible for %v men missing", missing)
	}
	if s, err := g.ParseSquare(filler); err != nil || g.Edge>>s&1 == 0 {
		t.Fatalf("test setup: filler square %s is not on the rim", filler)
	}
	all := maps.Clone(cols)
	all[filler] = columnText(rules.Column{Owner: owner, Top: missing[owner], Prisoners: missing[side]})
	return makePosition(t, g, all, hands, side)
}
