package egtb

import (
	"errors"
	"fmt"
	"math/bits"

	"emergo/rules"
)

// The three-column table holds every position with three columns on the
// board, two of one player (the pair) and one of the other (the single),
// and no man in hand: every man of the game in them. Three columns of one
// player leave the other none, a game already lost. The pair's columns
// hold the single's owner's men that are not on the single as their
// prisoners, and the single holds the pair owner's men that are not on
// the pair's tops: a position is its squares and four counts, the pair's
// tops a1 and a2, the single's top b and the first pair column's
// prisoners q1 (the second's follow).
//
// Its moves lead to three-column positions, to two-column ones (the
// single jumping a pair column of one man) whose values the two-column
// table gives, or to the end of the game (the single or the pair taken
// over at once, the opponent left without a column). A column may be
// blocked here, as the two-column positions never are: a single in a
// corner whose one neighbour is a pair column with the other right
// behind it has no move, and if the pair owner is the one to move, the
// game is drawn (RULES 6.2); such positions are draws of the table.
//
// Entries are from the side to move's point of view, one byte each as in
// the two-column tables: 0 for a draw, else the distance in plies, odd
// for a win. The order: whether the mover owns the pair, the pair's
// squares (s1 < s2, in the order of the triangle s2*(s2-1)/2 + s1), the
// single's square, the counts (makeups). Entries whose single's square is
// one of the pair's are never used and hold 0.

// Three is the three-column table of one board.
type Three struct {
	geo  *rules.Geometry
	mk   *makeups
	data []byte
}

// makeups numbers the counts (a1, a2, b, q1) of a board: a1, a2 >= 1 with
// a1 + a2 <= M, 1 <= b <= M and 0 <= q1 <= M - b.
type makeups struct {
	men   int
	index []int32 // by ((a1*(M+1)+a2)*(M+1)+b)*(M+1)+q1; -1 if invalid
	list  [][4]int8
}

func makeupsOf(g *rules.Geometry) *makeups {
	m := g.Men
	mk := &makeups{men: m, index: make([]int32, (m+1)*(m+1)*(m+1)*(m+1))}
	for i := range mk.index {
		mk.index[i] = -1
	}
	for a1 := 1; a1 <= m; a1++ {
		for a2 := 1; a1+a2 <= m; a2++ {
			for b := 1; b <= m; b++ {
				for q1 := 0; q1 <= m-b; q1++ {
					mk.index[mk.slot(a1, a2, b, q1)] = int32(len(mk.list))
					mk.list = append(mk.list, [4]int8{int8(a1), int8(a2), int8(b), int8(q1)})
				}
			}
		}
	}
	return mk
}

func (mk *makeups) slot(a1, a2, b, q1 int) int {
	n := mk.men + 1
	return ((a1*n+a2)*n+b)*n + q1
}

// key3 is a position of the three-column table.
type key3 struct {
	pairMine      bool         // the side to move owns the pair
	s1, s2, s3    rules.Square // the pair's squares, s1 < s2, and the single's
	a1, a2, b, q1 int
}

func pairs(g *rules.Geometry) int { return g.Squares * (g.Squares - 1) / 2 }

func (t *Three) size() int { return 2 * pairs(t.geo) * t.geo.Squares * len(t.mk.list) }

// index is the entry of k, or -1 if its counts are none of the table's.
func (t *Three) index(k key3) int {
	if k.a1 < 1 || k.a2 < 1 || k.b < 1 || k.q1 < 0 || k.a1+k.a2 > t.mk.men || k.b > t.mk.men || k.q1 > t.mk.men-k.b {
		return -1
	}
	m := int(t.mk.index[t.mk.slot(k.a1, k.a2, k.b, k.q1)])
	kind := 0
	if k.pairMine {
		kind = 1
	}
	pair := int(k.s2)*(int(k.s2)-1)/2 + int(k.s1)
	return ((kind*pairs(t.geo)+pair)*t.geo.Squares+int(k.s3))*len(t.mk.list) + m
}

// keyOf3 returns the key of p, if p is a position of the three-column
// table of its board: no man in hand, two columns of one player and one
// of the other, every man on them.
func keyOf3(p *rules.Position) (key3, bool) {
	me := p.Side()
	mine, theirs := p.Owned(me), p.Owned(me.Other())
	if p.Hand(rules.White)|p.Hand(rules.Black) != 0 {
		return key3{}, false
	}
	nm, nt := bits.OnesCount64(uint64(mine)), bits.OnesCount64(uint64(theirs))
	var k key3
	var pair, single rules.Bitboard
	switch {
	case nm == 2 && nt == 1:
		k.pairMine, pair, single = true, mine, theirs
	case nm == 1 && nt == 2:
		pair, single = theirs, mine
	default:
		return key3{}, false
	}
	k.s1 = rules.Square(bits.TrailingZeros64(uint64(pair)))
	k.s2 = rules.Square(63 - bits.LeadingZeros64(uint64(pair)))
	k.s3 = rules.Square(bits.TrailingZeros64(uint64(single)))
	c1, c2, c3 := p.At(k.s1), p.At(k.s2), p.At(k.s3)
	men := p.Geometry().Men
	if c1.Top+c2.Top+c3.Prisoners != men || c3.Top+c1.Prisoners+c2.Prisoners != men {
		return key3{}, false // a composed position with men missing
	}
	k.a1, k.a2, k.b, k.q1 = c1.Top, c2.Top, c3.Top, c1.Prisoners
	return k, true
}

// position builds the position of k, White to move.
func (t *Three) position(k key3) (rules.Position, error) {
	pairOwner := rules.Black
	if k.pairMine {
		pairOwner = rules.White
	}
	m := t.mk.men
	return rules.PositionOf(t.geo, map[rules.Square]rules.Column{
		k.s1: {Owner: pairOwner, Top: k.a1, Prisoners: k.q1},
		k.s2: {Owner: pairOwner, Top: k.a2, Prisoners: m - k.b - k.q1},
		k.s3: {Owner: pairOwner.Other(), Top: k.b, Prisoners: m - k.a1 - k.a2},
	}, [2]int{}, rules.White)
}

// Probe returns the value of p if it is a position of the table.
func (t *Three) Probe(p *rules.Position) (Value, bool) {
	if t == nil || p.Geometry() != t.geo {
		return Value{}, false
	}
	k, ok := keyOf3(p)
	if !ok {
		return Value{}, false
	}
	i := t.index(k)
	if i < 0 {
		return Value{}, false
	}
	return decode(t.data[i]), true
}

// Bytes returns the table's entries.
func (t *Three) Bytes() []byte { return t.data }

// ThreeFromBytes makes the three-column table of board g from the bytes
// of GenerateThree.
func ThreeFromBytes(g *rules.Geometry, data []byte) (*Three, error) {
	t := &Three{geo: g, mk: makeupsOf(g)}
	if len(data) != t.size() {
		return nil, fmt.Errorf("egtb: a %dx%d three-column table has %d entries, not %d", g.N, g.N, t.size(), len(data))
	}
	t.data = data
	return t, nil
}

// A child in GenerateThree: an entry of the three-column table (>= 0),
// the end of the game (the opponent left without a column), or an entry
// i of the two-column table, as -2-i.
const endOfGame = -1

// GenerateThree solves every three-column position of board g with the
// help of two, the two-column table of g, and returns the table. progress,
// if not nil, hears of each pass of the analysis (the first is the
// moves'). The result depends on g alone.
//
// It works as Generate does, in layers of distance, on the moves of every
// position computed once and kept (about 5 a position; on 7x7 the table
// has 15 M entries and its moves take 0.3 GB). It goes on past the layers
// found empty until it has passed the two-column table's longest
// distance: a three-column position may be won only through a long
// two-column ending.
func GenerateThree(g *rules.Geometry, two *Table, progress func(pass int, found int)) (*Three, Stats, error) {
	if two == nil || two.geo != g {
		return nil, Stats{}, errors.New("egtb: the three-column table needs the two-column table of its board")
	}
	t := &Three{geo: g, mk: makeupsOf(g)}
	n := t.size()
	t.data = make([]byte, n)
	offsets := make([]uint32, n+1)
	children := make([]int32, 0, n*5)
	var st Stats
	var buf []rules.Move
	twoLongest := 0
	for _, b := range two.data {
		twoLongest = max(twoLongest, int(b))
	}
	for i := range n {
		offsets[i] = uint32(len(children))
		k, ok := t.keyAt(i)
		if !ok {
			continue
		}
		st.Positions++
		p, err := t.position(k)
		if err != nil {
			return nil, st, fmt.Errorf("egtb: %w", err) // a broken index
		}
		buf = p.Legal(buf[:0])
		for _, m := range buf {
			q := p.After(m)
			if q.Lost() {
				children = append(children, endOfGame)
				continue
			}
			if tk, ok := keyOf(&q); ok {
				children = append(children, int32(-2-tk.index(g)))
				continue
			}
			qk, ok := keyOf3(&q)
			if !ok {
				return nil, st, fmt.Errorf("egtb: a move of a three-column position leaves one outside the tables")
			}
			children = append(children, int32(t.index(qk)))
		}
	}
	offsets[n] = uint32(len(children))
	if progress != nil {
		progress(0, st.Positions)
	}

	value := func(c int32) byte {
		if c >= 0 {
			return t.data[c]
		}
		return two.data[-2-c]
	}
	empty := 0
	for d := 1; empty < 2 || d <= twoLongest+1; d++ {
		st.Passes++
		found := 0
		win := d%2 == 1
		for i := range n {
			if t.data[i] != 0 {
				continue
			}
			c := children[offsets[i]:offsets[i+1]]
			if len(c) == 0 {
				continue // blocked, or no position: a draw
			}
			solved := false
			if win {
				for _, ch := range c {
					if ch == endOfGame && d == 1 || ch != endOfGame && d > 1 && int(value(ch)) == d-1 {
						solved = true
						break
					}
				}
			} else {
				solved = true
				for _, ch := range c {
					if ch == endOfGame {
						solved = false
						break
					}
					if v := value(ch); v == 0 || v%2 == 0 || int(v) >= d {
						solved = false
						break
					}
				}
			}
			if solved {
				if d > maxPlies {
					return nil, st, fmt.Errorf("egtb: a distance over %d plies", maxPlies)
				}
				t.data[i] = byte(d)
				found++
			}
		}
		if progress != nil {
			progress(d, found)
		}
		if found == 0 {
			empty++
		} else {
			empty = 0
			st.Longest = d
		}
	}
	for i, b := range t.data {
		if _, ok := t.keyAt(i); ok {
			st.count(b)
		}
	}
	return t, st, nil
}

// keyAt is the key of entry i, and whether it is a position (its single's
// square none of the pair's).
func (t *Three) keyAt(i int) (key3, bool) {
	nm, sq := len(t.mk.list), t.geo.Squares
	c := t.mk.list[i%nm]
	i /= nm
	s3 := rules.Square(i % sq)
	i /= sq
	pair := i % pairs(t.geo)
	kind := i / pairs(t.geo)
	s2 := 1
	for (s2+1)*s2/2 <= pair {
		s2++
	}
	s1 := pair - s2*(s2-1)/2
	k := key3{pairMine: kind == 1, s1: rules.Square(s1), s2: rules.Square(s2), s3: s3,
		a1: int(c[0]), a2: int(c[1]), b: int(c[2]), q1: int(c[3])}
	return k, s3 != k.s1 && s3 != k.s2
}
