package eval

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"emergo/rules"
)

// Patterns is the trained part of an evaluation: a weight for every way
// the columns can stand on every line of three squares of the board.
//
// Emergo's tactics happen on such lines: a column jumps over its
// neighbour onto the empty square beyond, a column is safe when the
// square behind it is taken, a man entered between two enemy columns is
// lost. The handcrafted terms (Weights) count some of these shapes; the
// tables weigh all of them, as Scan's patterns do in draughts, with
// weights fitted to the results of self-play games (tune.FitPatterns,
// docs/tuning.md).
//
// A square's state is one of 19, seen from the side to move: empty, or a
// column of his or of the opponent's with 1, 2 or 3+ men on top and 0, 1
// or 2+ prisoners. A line's state is its three squares' states, 6,859 of
// them. Lines that the board's eight symmetries (and reading a line
// backwards) carry onto one another share one table, in the order the
// symmetry gives their squares. There is one set of tables for the
// entering phase (men in hand on either side) and one for the rest.
type Patterns struct {
	lines *lineSet
	// W holds the weights in hundredths of a man: for each phase, for
	// each class of lines, a table of LineStates.
	W []int16
}

// LineStates is the number of states of a line of three squares.
const LineStates = squareStates * squareStates * squareStates

// Phases is the number of sets of tables: entering (men in hand) and
// moving.
const Phases = 2

const squareStates = 19

// lineSet is the lines of three squares of one board, grouped into
// classes by the board's symmetries.
//
// A few lines are carried onto themselves reversed by a symmetry (those
// whose middle square is on the axis of a mirror across them, or is the
// centre). Their class's table is kept symmetric (Tie): a state and the
// same state read backwards have one weight, so that a position and its
// mirror image score the same, and the fit (Active) names the lesser of
// the two indices.
type lineSet struct {
	geo     *rules.Geometry
	lines   []line
	both    int // the lines from lines[both] on are carried onto themselves reversed
	classes int
}

// line is a line's squares in its class's order and its class's table's
// place (the class times LineStates).
type line struct {
	a, b, c rules.Square
	base    int32
}

// NewPatterns returns zero tables for the board of g.
func NewPatterns(g *rules.Geometry) *Patterns {
	ls := linesOf(g)
	return &Patterns{lines: ls, W: make([]int16, Phases*ls.classes*LineStates)}
}

// Size is the number of weights.
func (pt *Patterns) Size() int { return len(pt.W) }

// Geometry is the board the tables are for.
func (pt *Patterns) Geometry() *rules.Geometry { return pt.lines.geo }

// Lines is the number of lines of three squares of the board, and
// Classes the number of tables per phase they share.
func (pt *Patterns) Lines() int   { return len(pt.lines.lines) }
func (pt *Patterns) Classes() int { return pt.lines.classes }

// Score returns the tables' part of the score of p for the side to move.
func (pt *Patterns) Score(p *rules.Position) int32 {
	var code [rules.MaxSquares]int32
	codes(p, &code)
	ls := pt.lines
	w := pt.W[phase(p)*ls.classes*LineStates:]
	var s int32
	for _, l := range ls.lines {
		s += int32(w[l.base+code[l.a]*squareStates*squareStates+code[l.b]*squareStates+code[l.c]])
	}
	return s
}

// Active appends to dst the indices in W of the weights that Score adds
// for p, one per line: the features of the fit. Of a state and its
// reverse on a line carried onto itself reversed, it names the lesser
// index: the one weight of both (Tie).
func (pt *Patterns) Active(p *rules.Position, dst []int32) []int32 {
	var code [rules.MaxSquares]int32
	codes(p, &code)
	ls := pt.lines
	off := int32(phase(p) * ls.classes * LineStates)
	for i, l := range ls.lines {
		fwd := code[l.a]*squareStates*squareStates + code[l.b]*squareStates + code[l.c]
		if i >= ls.both {
			fwd = min(fwd, code[l.c]*squareStates*squareStates+code[l.b]*squareStates+code[l.a])
		}
		dst = append(dst, off+l.base+fwd)
	}
	return dst
}

// Tie makes the tables of the lines carried onto themselves reversed
// symmetric: each state's weight becomes that of the lesser of its index
// and its reverse's, the one the fit set (Active). The fit calls it
// before rounding, UnmarshalPatterns after reading.
func (pt *Patterns) Tie() {
	ls := pt.lines
	for ph := 0; ph < Phases; ph++ {
		// A class may hold several such lines: tied once, it stays so.
		for _, l := range ls.lines[ls.both:] {
			t := pt.W[int32(ph*ls.classes*LineStates)+l.base:][:LineStates]
			for i := range int32(LineStates) {
				a, b, c := i/(squareStates*squareStates), i/squareStates%squareStates, i%squareStates
				if rev := c*squareStates*squareStates + b*squareStates + a; rev < i {
					t[i] = t[rev]
				}
			}
		}
	}
}

// phase is 0 while either side has men in hand, else 1.
func phase(p *rules.Position) int {
	if p.Hand(rules.White)+p.Hand(rules.Black) > 0 {
		return 0
	}
	return 1
}

// codes fills code with the state of every square of p, seen from the
// side to move: 0 empty, 1-9 his columns, 10-18 the opponent's.
func codes(p *rules.Position, code *[rules.MaxSquares]int32) {
	me := p.Side()
	for b := p.Occupied(); b != 0; b &= b - 1 {
		s := rules.Square(bits.TrailingZeros64(uint64(b)))
		col := p.At(s)
		c := int32(1 + 3*(min(col.Top, 3)-1) + min(col.Prisoners, 2))
		if col.Owner != me {
			c += 9
		}
		code[s] = c
	}
}

// linesOf finds the lines of three squares of g and their classes.
func linesOf(g *rules.Geometry) *lineSet {
	n := g.N
	// The eight symmetries of the square, on (file, rank). They keep
	// the dark squares dark, since n is odd.
	sym := []func(f, r int) (int, int){
		func(f, r int) (int, int) { return f, r },
		func(f, r int) (int, int) { return r, n - 1 - f },
		func(f, r int) (int, int) { return n - 1 - f, n - 1 - r },
		func(f, r int) (int, int) { return n - 1 - r, f },
		func(f, r int) (int, int) { return n - 1 - f, r },
		func(f, r int) (int, int) { return f, n - 1 - r },
		func(f, r int) (int, int) { return r, f },
		func(f, r int) (int, int) { return n - 1 - r, n - 1 - f },
	}
	image := func(k int, s rules.Square) rules.Square {
		f, r := g.FileRank(s)
		return g.At(sym[k](f, r))
	}
	less := func(a, b [3]rules.Square) bool {
		for i := range a {
			if a[i] != b[i] {
				return a[i] < b[i]
			}
		}
		return false
	}
	ls := &lineSet{geo: g}
	var both []line // the lines carried onto themselves reversed
	class := map[[3]rules.Square]int32{}
	for s := rules.Square(0); int(s) < g.Squares; s++ {
		// Each line once: from its end towards the north-east or the
		// north-west.
		for _, d := range []int{rules.NE, rules.NW} {
			b, c := g.Neighbour(s, d), g.Beyond(s, d)
			if c == rules.NoSquare {
				continue
			}
			seg := [3]rules.Square{s, b, c}
			// The representative of the line's class is the least of its
			// images, read both ways; the line's squares are taken in the
			// order that the symmetry giving it carries onto it.
			var rep, order [3]rules.Square
			first := true
			for k := range sym {
				for _, l := range [][3]rules.Square{seg, {c, b, s}} {
					im := [3]rules.Square{image(k, l[0]), image(k, l[1]), image(k, l[2])}
					if first || less(im, rep) {
						rep, order, first = im, l, false
					}
				}
			}
			id, ok := class[rep]
			if !ok {
				id = int32(len(class))
				class[rep] = id
			}
			reversed := false
			for k := range sym {
				reversed = reversed || [3]rules.Square{image(k, s), image(k, b), image(k, c)} == [3]rules.Square{c, b, s}
			}
			l := line{order[0], order[1], order[2], id * LineStates}
			if reversed {
				both = append(both, l)
				continue
			}
			ls.lines = append(ls.lines, l)
		}
	}
	ls.both = len(ls.lines)
	ls.lines = append(ls.lines, both...)
	ls.classes = len(class)
	return ls
}

// patternsMagic opens the tables' binary form.
const patternsMagic = "EMGP1"

// MarshalBinary writes the tables: a header (magic, board size, phases,
// classes) and the weights, little-endian.
func (pt *Patterns) MarshalBinary() ([]byte, error) {
	out := append([]byte(patternsMagic), byte(pt.lines.geo.N), Phases, byte(pt.lines.classes))
	for _, w := range pt.W {
		out = binary.LittleEndian.AppendUint16(out, uint16(w))
	}
	return out, nil
}

// UnmarshalPatterns reads tables written by MarshalBinary.
func UnmarshalPatterns(data []byte) (*Patterns, error) {
	h := len(patternsMagic)
	if len(data) < h+3 || string(data[:h]) != patternsMagic {
		return nil, errors.New("eval: not pattern tables")
	}
	g := rules.GeometryOf(int(data[h]))
	if g == nil {
		return nil, fmt.Errorf("eval: pattern tables of a %dx%d board", data[h], data[h])
	}
	pt := NewPatterns(g)
	if int(data[h+1]) != Phases || int(data[h+2]) != pt.lines.classes {
		return nil, fmt.Errorf("eval: pattern tables of %d phases and %d classes, want %d and %d", data[h+1], data[h+2], Phases, pt.lines.classes)
	}
	body := data[h+3:]
	if len(body) != 2*len(pt.W) {
		return nil, fmt.Errorf("eval: pattern tables of %d bytes, want %d", len(body), 2*len(pt.W))
	}
	for i := range pt.W {
		pt.W[i] = int16(binary.LittleEndian.Uint16(body[2*i:]))
	}
	pt.Tie()
	return pt, nil
}
