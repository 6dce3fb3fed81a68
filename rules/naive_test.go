package rules_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"emergo/rules"
)

// A second move generator, written from docs/rules.md alone and as plainly as
// possible: the board is a 2-D array of columns, each column a slice of
// men from bottom to top, captures are searched recursively on copies of
// the board, and the no-feeding rule is checked literally by making the
// entry and asking whether the opponent can then capture. It shares
// nothing with the fast generator but the square names, so that the two
// can be compared move list by move list and position by position.

const (
	nWhite int8 = 0
	nBlack int8 = 1
)

// nBoard is a position of the naive generator. sq[f][r] is the column on
// file f, rank r, bottom man first; nil on an empty square. Columns are
// never changed in place: a new slice replaces the old one, so copying the
// array copies the board.
type nBoard struct {
	n    int
	men  int
	sq   [9][9][]int8
	hand [2]int
	side int8
}

// nKind says what a naive move does.
type nKind int

const (
	nEntry nKind = iota + 1
	nStep
	nCapture
)

// nMove is a move of the naive generator: the squares of its path as
// (file, rank) pairs.
type nMove struct {
	kind nKind
	path [][2]int
}

var nDirs = [4][2]int{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}}

func nName(f, r int) string { return string([]byte{byte('a' + f), byte('1' + r)}) }

func (m nMove) text() string {
	sep := "x"
	if m.kind == nStep {
		sep = "-"
	}
	parts := make([]string, len(m.path))
	for i, q := range m.path {
		parts[i] = nName(q[0], q[1])
	}
	return strings.Join(parts, sep)
}

func (b *nBoard) on(f, r int) bool {
	return f >= 0 && r >= 0 && f < b.n && r < b.n && (f+r)%2 == 0
}

func (b *nBoard) empty(f, r int) bool { return len(b.sq[f][r]) == 0 }

// topOf returns the colour of the top man on (f, r), or -1 if it is empty.
func (b *nBoard) topOf(f, r int) int8 {
	c := b.sq[f][r]
	if len(c) == 0 {
		return -1
	}
	return c[len(c)-1]
}

// nStart returns the start of a game: an empty board, all men in hand.
func nStart(n int) nBoard {
	b := nBoard{n: n, men: 12}
	if n == 7 {
		b.men = 8
	}
	b.hand = [2]int{b.men, b.men}
	return b
}

// firstMove reports whether b is the very start of a game (RULES 4.3).
func (b *nBoard) firstMove() bool {
	if b.side != nWhite || b.hand[0] != b.men || b.hand[1] != b.men {
		return false
	}
	for f := 0; f < b.n; f++ {
		for r := 0; r < b.n; r++ {
			if !b.empty(f, r) {
				return false
			}
		}
	}
	return true
}

// canCapture reports whether colour c has at least one jump (RULES 3.1).
func (b *nBoard) canCapture(c int8) bool {
	for f := 0; f < b.n; f++ {
		for r := 0; r < b.n; r++ {
			if !b.on(f, r) || b.topOf(f, r) != c {
				continue
			}
			for _, d := range nDirs {
				mf, mr, lf, lr := f+d[0], r+d[1], f+2*d[0], r+2*d[1]
				if b.on(lf, lr) && b.topOf(mf, mr) == 1-c && b.empty(lf, lr) {
					return true
				}
			}
		}
	}
	return false
}

// owns reports whether colour c tops at least one column.
func (b *nBoard) owns(c int8) bool {
	for f := 0; f < b.n; f++ {
		for r := 0; r < b.n; r++ {
			if b.on(f, r) && b.topOf(f, r) == c {
				return true
			}
		}
	}
	return false
}

// lost reports RULES 6.1 for the player to move.
func (b *nBoard) lost() bool { return b.hand[b.side] == 0 && !b.owns(b.side) }

// captures returns every complete capture sequence of the side to move,
// before the majority rule.
func (b *nBoard) captures() []nMove {
	var out []nMove
	me := b.side
	for f := 0; f < b.n; f++ {
		for r := 0; r < b.n; r++ {
			if !b.on(f, r) || b.topOf(f, r) != me {
				continue
			}
			// The jumping column is lifted off the board for the whole
			// sequence: the squares it leaves are empty (RULES 3.4).
			lifted := *b
			lifted.sq[f][r] = nil
			lifted.jump(f, r, 0, 0, [][2]int{{f, r}}, &out)
		}
	}
	return out
}

// jump extends a sequence standing on (f, r) that arrived in direction
// (df, dr); (0, 0) before the first jump.
func (b *nBoard) jump(f, r, df, dr int, path [][2]int, out *[]nMove) {
	me := b.side
	extended := false
	for _, d := range nDirs {
		if d[0] == -df && d[1] == -dr {
			continue // straight back (RULES 3.3)
		}
		mf, mr, lf, lr := f+d[0], r+d[1], f+2*d[0], r+2*d[1]
		if !b.on(lf, lr) || b.topOf(mf, mr) != 1-me || !b.empty(lf, lr) {
			continue
		}
		extended = true
		next := *b
		mid := b.sq[mf][mr]
		next.sq[mf][mr] = slices.Clone(mid[:len(mid)-1])
		if len(next.sq[mf][mr]) == 0 {
			next.sq[mf][mr] = nil
		}
		p := append(slices.Clone(path), [2]int{lf, lr})
		next.jump(lf, lr, d[0], d[1], p, out)
	}
	if !extended && len(path) > 1 {
		*out = append(*out, nMove{kind: nCapture, path: path})
	}
}

// legal returns the legal moves of b, in no particular order.
func (b *nBoard) legal() []nMove {
	if b.lost() {
		return nil
	}
	// RULES 3.5 and 3.6: capture if possible, and only the longest.
	caps := b.captures()
	if len(caps) > 0 {
		most := 0
		for _, m := range caps {
			most = max(most, len(m.path))
		}
		var out []nMove
		for _, m := range caps {
			if len(m.path) == most {
				out = append(out, m)
			}
		}
		return out
	}
	var out []nMove
	if b.hand[b.side] > 0 {
		// RULES 4: enter, under the centre ban and the no-feeding rule.
		released := b.canCapture(1 - b.side)
		first := b.firstMove()
		for f := 0; f < b.n; f++ {
			for r := 0; r < b.n; r++ {
				if !b.on(f, r) || !b.empty(f, r) {
					continue
				}
				if first && f == b.n/2 && r == b.n/2 {
					continue
				}
				m := nMove{kind: nEntry, path: [][2]int{{f, r}}}
				if !released {
					after := b.apply(m)
					if after.canCapture(after.side) {
						continue
					}
				}
				out = append(out, m)
			}
		}
		return out
	}
	for f := 0; f < b.n; f++ {
		for r := 0; r < b.n; r++ {
			if !b.on(f, r) || b.topOf(f, r) != b.side {
				continue
			}
			for _, d := range nDirs {
				if b.on(f+d[0], r+d[1]) && b.empty(f+d[0], r+d[1]) {
					out = append(out, nMove{kind: nStep, path: [][2]int{{f, r}, {f + d[0], r + d[1]}}})
				}
			}
		}
	}
	return out
}

// apply returns the position after m, which it trusts to be legal.
func (b *nBoard) apply(m nMove) nBoard {
	next := *b
	me := b.side
	switch m.kind {
	case nEntry:
		n := 1
		if b.hand[1-me] == 0 {
			n = b.hand[me] // the shadow piece (RULES 4.2)
		}
		col := make([]int8, n)
		for i := range col {
			col[i] = me
		}
		q := m.path[0]
		next.sq[q[0]][q[1]] = col
		next.hand[me] -= n
	case nStep:
		a, z := m.path[0], m.path[1]
		next.sq[z[0]][z[1]] = b.sq[a[0]][a[1]]
		next.sq[a[0]][a[1]] = nil
	case nCapture:
		a := m.path[0]
		col := slices.Clone(b.sq[a[0]][a[1]])
		next.sq[a[0]][a[1]] = nil
		for i := 1; i < len(m.path); i++ {
			from, to := m.path[i-1], m.path[i]
			mf, mr := (from[0]+to[0])/2, (from[1]+to[1])/2
			mid := next.sq[mf][mr]
			taken := mid[len(mid)-1]
			next.sq[mf][mr] = slices.Clone(mid[:len(mid)-1])
			if len(next.sq[mf][mr]) == 0 {
				next.sq[mf][mr] = nil
			}
			col = append([]int8{taken}, col...) // a prisoner goes to the bottom (RULES 3.2)
		}
		z := m.path[len(m.path)-1]
		next.sq[z[0]][z[1]] = col
	}
	next.side = 1 - me
	return next
}

// key writes b as a string that two positions share exactly when they are
// the same position (RULES 6.3).
func (b *nBoard) key() string {
	var s strings.Builder
	fmt.Fprintf(&s, "%d %d %d", b.side, b.hand[0], b.hand[1])
	for f := 0; f < b.n; f++ {
		for r := 0; r < b.n; r++ {
			if c := b.sq[f][r]; len(c) > 0 {
				fmt.Fprintf(&s, " %s:", nName(f, r))
				for _, m := range c {
					s.WriteByte("wb"[m])
				}
			}
		}
	}
	return s.String()
}

// column returns the column on (f, r) as the rules package describes it,
// and an error if the column does not have the shape of RULES 2.2.
func (b *nBoard) column(f, r int) (rules.Column, error) {
	c := b.sq[f][r]
	if len(c) == 0 {
		return rules.Column{}, nil
	}
	top := c[len(c)-1]
	k := 0
	for k < len(c) && c[len(c)-1-k] == top {
		k++
	}
	for _, m := range c[:len(c)-k] {
		if m == top {
			return rules.Column{}, fmt.Errorf("%s: column %v is not k owner men over p prisoners", nName(f, r), c)
		}
	}
	return rules.Column{Owner: rules.Color(top), Top: k, Prisoners: len(c) - k}, nil
}

// nFrom converts a position of the rules package to the naive board.
func nFrom(p *rules.Position) nBoard {
	g := p.Geometry()
	b := nBoard{n: g.N, men: g.Men, side: int8(p.Side())}
	b.hand = [2]int{p.Hand(rules.White), p.Hand(rules.Black)}
	for f := 0; f < g.N; f++ {
		for r := 0; r < g.N; r++ {
			s := g.At(f, r)
			if s == rules.NoSquare {
				continue
			}
			c := p.At(s)
			if c.Empty() {
				continue
			}
			col := make([]int8, 0, c.Height())
			for range c.Prisoners {
				col = append(col, int8(c.Owner.Other()))
			}
			for range c.Top {
				col = append(col, int8(c.Owner))
			}
			b.sq[f][r] = col
		}
	}
	return b
}

// nDiff describes how the naive board b differs from p; "" if not at all.
func nDiff(b *nBoard, p *rules.Position) string {
	g := p.Geometry()
	var diffs []string
	if b.side != int8(p.Side()) {
		diffs = append(diffs, fmt.Sprintf("side %d vs %v", b.side, p.Side()))
	}
	for c := range 2 {
		if b.hand[c] != p.Hand(rules.Color(c)) {
			diffs = append(diffs, fmt.Sprintf("hand %d: %d vs %d", c, b.hand[c], p.Hand(rules.Color(c))))
		}
	}
	for f := 0; f < g.N; f++ {
		for r := 0; r < g.N; r++ {
			s := g.At(f, r)
			if s == rules.NoSquare {
				if len(b.sq[f][r]) != 0 {
					diffs = append(diffs, fmt.Sprintf("light square %s holds men", nName(f, r)))
				}
				continue
			}
			want, err := b.column(f, r)
			if err != nil {
				diffs = append(diffs, err.Error())
				continue
			}
			if got := p.At(s); got != want {
				diffs = append(diffs, fmt.Sprintf("%s: naive %s, fast %s", nName(f, r), columnText(want), columnText(got)))
			}
		}
	}
	return strings.Join(diffs, "; ")
}

// nTexts returns the sorted texts of ms.
func nTexts(ms []nMove) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.text()
	}
	slices.Sort(out)
	return out
}

// nPerft counts the leaves of the naive move tree.
func nPerft(b *nBoard, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	ms := b.legal()
	if depth == 1 {
		return uint64(len(ms))
	}
	var n uint64
	for _, m := range ms {
		next := b.apply(m)
		n += nPerft(&next, depth-1)
	}
	return n
}

// crossStats counts what the random games went through, to show that they
// reach every part of the rules.
type crossStats struct {
	games, plies     int
	captures         int
	longest          int // most men taken in one move
	freed            int // jumps that freed prisoners
	tallest          int // highest column
	shadows          int // entries of more than one man
	mixed            int // steps or captures while the opponent held men in hand
	wins, blocked    int
	repeats, cut     int
	capturesInEntry  int // captures while the mover still had men in hand
	multiPathsSameTo int // positions with two capture paths to the same position
}

// crossGame plays one random game with both generators side by side and
// fails t at the first difference.
func crossGame(t *testing.T, g *rules.Geometry, rng *rand.Rand, st *crossStats) {
	t.Helper()
	const maxPlies = 300
	gm := rules.NewGame(g)
	nb := nStart(g.N)
	seen := map[string]int{nb.key(): 1}
	// Each game has its own appetite for sacrifices: a move after which
	// the opponent must capture is preferred with probability bias.
	bias := rng.Float64() * 0.9
	st.games++
	var history []string
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%dx%d after %v: %s", g.N, g.N, history, fmt.Sprintf(format, args...))
	}
	for ply := 0; ; ply++ {
		p := gm.Position()
		if d := nDiff(&nb, &p); d != "" {
			fail("positions differ: %s", d)
		}
		nms := nb.legal()
		want := nTexts(nms)
		out := gm.Outcome()

		// The end of the game, in the order of RULES 6.
		switch {
		case nb.lost():
			winner := rules.WhiteWins
			if nb.side == nWhite {
				winner = rules.BlackWins
			}
			if out.Result != winner || out.Reason != rules.NoMen {
				fail("naive: %v loses (RULES 6.1); game: %v", p.Side(), out)
			}
			st.wins++
			return
		case len(nms) == 0:
			if out.Result != rules.Draw || out.Reason != rules.NoMove {
				fail("naive: no legal move (RULES 6.2); game: %v", out)
			}
			st.blocked++
			return
		case seen[nb.key()] >= 3:
			if out.Result != rules.Draw || out.Reason != rules.Repetition {
				fail("naive: third occurrence (RULES 6.3); game: %v", out)
			}
			st.repeats++
			return
		}
		if out.Over() {
			fail("game over (%v) but the naive generator goes on with %v", out, want)
		}
		if n := gm.Occurrences(); n != seen[nb.key()] {
			fail("Occurrences %d, naive count %d", n, seen[nb.key()])
		}
		got := moveTexts(g, gm.Legal())
		if !slices.Equal(got, want) {
			fail("legal moves\nfast  %d %v\nnaive %d %v", len(got), got, len(want), want)
		}
		if n := p.CountLegal(); n != len(want) {
			fail("CountLegal %d, want %d", n, len(want))
		}
		if ply >= maxPlies {
			st.cut++
			return
		}

		// Every legal move makes the same position in both generators.
		fast := make(map[string]rules.Move, len(gm.Legal()))
		for _, m := range gm.Legal() {
			fast[m.Text(g)] = m
		}
		results := make([]nBoard, len(nms))
		forcing := make([]int, 0, len(nms))
		positions := map[string]bool{}
		for i, m := range nms {
			results[i] = nb.apply(m)
			q := p.After(fast[m.text()])
			if d := nDiff(&results[i], &q); d != "" {
				fail("%s: positions differ: %s", m.text(), d)
			}
			if results[i].canCapture(results[i].side) {
				forcing = append(forcing, i)
			}
			if m.kind == nCapture {
				k := results[i].key()
				if positions[k] {
					st.multiPathsSameTo++
				}
				positions[k] = true
			}
		}

		i := rng.IntN(len(nms))
		if len(forcing) > 0 && rng.Float64() < bias {
			i = forcing[rng.IntN(len(forcing))]
		}
		m := nms[i]
		st.count(&nb, m, &results[i])
		history = append(history, m.text())
		if err := gm.Play(fast[m.text()]); err != nil {
			fail("%s: %v", m.text(), err)
		}
		nb = results[i]
		seen[nb.key()]++
		st.plies++
	}
}

// count records what move m does on b, reaching next.
func (st *crossStats) count(b *nBoard, m nMove, next *nBoard) {
	me := b.side
	switch m.kind {
	case nCapture:
		st.captures++
		st.longest = max(st.longest, len(m.path)-1)
		if b.hand[me] > 0 {
			st.capturesInEntry++
		}
		for i := 1; i < len(m.path); i++ {
			mf, mr := (m.path[i-1][0]+m.path[i][0])/2, (m.path[i-1][1]+m.path[i][1])/2
			if before, after := b.sq[mf][mr], next.sq[mf][mr]; len(before) > 1 && len(after) > 0 && after[len(after)-1] == me && before[len(before)-1] != me {
				st.freed++
			}
		}
	case nEntry:
		if b.hand[1-me] == 0 && b.hand[me] > 1 {
			st.shadows++
		}
	}
	if m.kind != nEntry && b.hand[1-me] > 0 {
		st.mixed++
	}
	for f := 0; f < next.n; f++ {
		for r := 0; r < next.n; r++ {
			st.tallest = max(st.tallest, len(next.sq[f][r]))
		}
	}
}

// TestNaiveCrossCheck plays random games of both sizes with the fast and
// the naive generator side by side: the same legal moves at every ply, the
// same position after every legal move, the same end of the game.
func TestNaiveCrossCheck(t *testing.T) {
	games := 2000
	if testing.Short() {
		games = 200
	}
	for _, g := range []*rules.Geometry{rules.Geometry9, rules.Geometry7} {
		t.Run(fmt.Sprintf("%dx%d", g.N, g.N), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(g.N), 2026))
			var st crossStats
			for range games {
				crossGame(t, g, rng, &st)
			}
			t.Logf("%+v", st)
			// The games must have gone through every part of the rules,
			// or the comparison proves little.
			type check struct {
				what string
				n    int
			}
			checks := []check{
				{"captures", st.captures},
				{"multi-jump captures", st.longest - 1},
				{"freed prisoners", st.freed},
				{"shadow pieces", st.shadows},
				{"moves of the mixed phase", st.mixed},
				{"captures with men in hand", st.capturesInEntry},
				{"wins by RULES 6.1", st.wins},
				{"columns of five or more", st.tallest - 4},
				{"two capture paths to one position", st.multiPathsSameTo},
			}
			if !testing.Short() {
				checks = append(checks, check{"draws by RULES 6.2", st.blocked}, check{"draws by RULES 6.3", st.repeats})
			}
			for _, c := range checks {
				if c.n <= 0 {
					t.Errorf("the random games never reached %s", c.what)
				}
			}
		})
	}
}

// TestNaivePerft compares the naive perft with the fast one from the
// start and from positions of random games.
func TestNaivePerft(t *testing.T) {
	depth := 3
	for _, g := range []*rules.Geometry{rules.Geometry9, rules.Geometry7} {
		p := rules.NewPosition(g)
		nb := nFrom(&p)
		pf := rules.Perft{Bulk: true}
		if got, want := pf.Count(&p, depth), nPerft(&nb, depth); got != want {
			t.Errorf("%dx%d start: perft(%d) fast %d, naive %d", g.N, g.N, depth, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(7, 9))
	positions := 40
	if testing.Short() {
		positions = 10
	}
	for _, p := range randomPositions(rng, positions) {
		nb := nFrom(&p)
		pf := rules.Perft{Bulk: true}
		if got, want := pf.Count(&p, depth), nPerft(&nb, depth); got != want {
			t.Errorf("%s: perft(%d) fast %d, naive %d", positionText(&p), depth, got, want)
		}
	}
}

// randomComposed returns a random composed position on g: columns of any
// make-up scattered over the board, men in hand, either side to move. It
// reaches what games seldom do, such as long chains of single men to
// capture and tall columns with many prisoners.
func randomComposed(rng *rand.Rand, g *rules.Geometry) rules.Position {
	if rng.IntN(3) == 0 {
		return randomLattice(rng, g)
	}
	for {
		cols := map[rules.Square]rules.Column{}
		var used [2]int
		n := 1 + rng.IntN(g.Squares*2/3)
		for range n {
			s := rules.Square(rng.IntN(g.Squares))
			if _, ok := cols[s]; ok {
				continue
			}
			c := rules.Column{Owner: rules.Color(rng.IntN(2)), Top: 1}
			if rng.IntN(3) == 0 {
				c.Top += rng.IntN(4)
				c.Prisoners = rng.IntN(5)
			}
			if used[c.Owner]+c.Top > g.Men || used[c.Owner.Other()]+c.Prisoners > g.Men {
				continue
			}
			used[c.Owner] += c.Top
			used[c.Owner.Other()] += c.Prisoners
			cols[s] = c
		}
		var hands [2]int
		for c := range hands {
			if rng.IntN(2) == 0 {
				hands[c] = rng.IntN(g.Men - used[c] + 1)
			}
		}
		p, err := rules.PositionOf(g, cols, hands, rules.Color(rng.IntN(2)))
		if err != nil {
			panic(err)
		}
		return p
	}
}

// randomLattice returns a position made for long captures: men of the
// side not to move on squares of odd file and odd rank, where every one
// can be jumped, and a few columns of the side to move on squares of even
// file and rank, from where they can chain the jumps.
func randomLattice(rng *rand.Rand, g *rules.Geometry) rules.Position {
	side := rules.Color(rng.IntN(2))
	cols := map[rules.Square]rules.Column{}
	var used [2]int
	for f := 1; f < g.N; f += 2 {
		for r := 1; r < g.N; r += 2 {
			if rng.IntN(4) == 0 {
				continue
			}
			c := rules.Column{Owner: side.Other(), Top: 1}
			if rng.IntN(6) == 0 {
				c.Top = 2
			}
			if rng.IntN(6) == 0 {
				c.Prisoners = 1
			}
			if used[c.Owner]+c.Top > g.Men || used[side]+c.Prisoners > g.Men {
				continue
			}
			used[c.Owner] += c.Top
			used[side] += c.Prisoners
			cols[g.At(f, r)] = c
		}
	}
	for range 1 + rng.IntN(3) {
		s := g.At(2*rng.IntN(g.N/2+1), 2*rng.IntN(g.N/2+1))
		if used[side] < g.Men {
			cols[s] = rules.Column{Owner: side, Top: 1}
			used[side]++
		}
	}
	p, err := rules.PositionOf(g, cols, [2]int{}, side)
	if err != nil {
		panic(err)
	}
	return p
}

// TestNaiveComposed compares the two generators on random composed
// positions: the same moves, the same position after each, the same
// verdict on RULES 6.1.
func TestNaiveComposed(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for _, g := range []*rules.Geometry{rules.Geometry9, rules.Geometry7} {
		t.Run(fmt.Sprintf("%dx%d", g.N, g.N), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(g.N), 77))
			longest, captures := 0, 0
			for range n {
				p := randomComposed(rng, g)
				nb := nFrom(&p)
				if nb.lost() != p.Lost() {
					t.Fatalf("%s: Lost %v, naive %v", positionText(&p), p.Lost(), nb.lost())
				}
				nms := nb.legal()
				fast := p.Legal(nil)
				if got, want := moveTexts(g, fast), nTexts(nms); !slices.Equal(got, want) {
					t.Fatalf("%s: legal moves\nfast  %d %v\nnaive %d %v", positionText(&p), len(got), got, len(want), want)
				}
				if n := p.CountLegal(); n != len(nms) {
					t.Fatalf("%s: CountLegal %d, want %d", positionText(&p), n, len(nms))
				}
				for i, m := range nms {
					next := nb.apply(m)
					q := p.After(fast[slices.IndexFunc(fast, func(f rules.Move) bool { return f.Text(g) == m.text() })])
					if d := nDiff(&next, &q); d != "" {
						t.Fatalf("%s: %s: positions differ: %s", positionText(&p), m.text(), d)
					}
					if err := q.Validate(); err != nil {
						t.Fatalf("%s: %s: %v", positionText(&p), m.text(), err)
					}
					if i == 0 && m.kind == nCapture {
						captures++
						longest = max(longest, len(m.path)-1)
					}
				}
			}
			t.Logf("%d positions, %d with captures, longest %d men", n, captures, longest)
			if longest < g.Men-2 {
				t.Errorf("the longest capture took %d men", longest)
			}
		})
	}
}
