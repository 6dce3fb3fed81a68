package rules

import "fmt"

// Square is a dense index over the playable (dark) squares of a board,
// counted from a1 along each rank, rank by rank: on 9x9, a1=0, c1=1, ...,
// i1=4, b2=5, ..., i9=40. With N odd, the index of file f and rank r is
// (N*r+f)/2, so a diagonal step is a constant difference in the index:
// +h to the north-east, +h-1 to the north-west, -(h-1) to the south-east
// and -h to the south-west, where h=(N+1)/2. That makes every direction a
// single shift of a bitboard, masked at the edges.
type Square uint8

// NoSquare marks the absence of a square (off the board).
const NoSquare Square = 255

// MaxSquares is the number of playable squares of the largest board.
const MaxSquares = 41

// Directions, in the order used by every table of this package.
const (
	NE = iota
	NW
	SE
	SW
)

// Bitboard is a set of squares, one bit per dense index.
type Bitboard uint64

// Geometry describes one board size: its squares, their names and the
// shift tables of its diagonals. The two geometries are package values
// (Geometry9 and Geometry7) shared by every position of that size.
type Geometry struct {
	N       int // files and ranks: 9 or 7
	Squares int // playable squares: 41 or 25
	Men     int // men per player: 12 or 8
	Centre  Square

	All Bitboard // every playable square
	// Edge holds the squares on the rim; their columns can never be jumped.
	Edge Bitboard

	// shift[d] is the index difference of direction d (signed).
	shift [4]int
	// src[d] holds the squares that have a neighbour in direction d, and
	// jsrc[d] those that have a square two steps away in direction d.
	src, jsrc [4]Bitboard
	// nb[s][d] and jump[s][d] are the neighbour and the square beyond it,
	// or NoSquare.
	nb, jump [MaxSquares][4]Square
	file     [MaxSquares]uint8
	rank     [MaxSquares]uint8
}

// Geometry9 is the standard 9x9 board; Geometry7 the 7x7 board.
var (
	Geometry9 = newGeometry(9)
	Geometry7 = newGeometry(7)
)

// GeometryOf returns the geometry of a board size (9 or 7), or nil.
func GeometryOf(size int) *Geometry {
	switch size {
	case 9:
		return Geometry9
	case 7:
		return Geometry7
	}
	return nil
}

var dirDelta = [4][2]int{NE: {1, 1}, NW: {-1, 1}, SE: {1, -1}, SW: {-1, -1}}

func newGeometry(n int) *Geometry {
	g := &Geometry{N: n, Squares: (n*n + 1) / 2, Men: 12}
	if n == 7 {
		g.Men = 8
	}
	h := (n + 1) / 2
	g.shift = [4]int{NE: h, NW: h - 1, SE: -(h - 1), SW: -h}
	on := func(f, r int) bool { return f >= 0 && r >= 0 && f < n && r < n }
	for s := 0; s < g.Squares; s++ {
		f, r := (2*s)%n, (2*s)/n
		g.file[s], g.rank[s] = uint8(f), uint8(r)
		g.All |= 1 << s
		if f == 0 || r == 0 || f == n-1 || r == n-1 {
			g.Edge |= 1 << s
		}
		for d, dd := range dirDelta {
			g.nb[s][d], g.jump[s][d] = NoSquare, NoSquare
			if on(f+dd[0], r+dd[1]) {
				g.nb[s][d] = Square(s + g.shift[d])
				g.src[d] |= 1 << s
			}
			if on(f+2*dd[0], r+2*dd[1]) {
				g.jump[s][d] = Square(s + 2*g.shift[d])
				g.jsrc[d] |= 1 << s
			}
		}
	}
	g.Centre = g.At(n/2, n/2)
	return g
}

// At returns the square of file f and rank r (both from 0), or NoSquare if
// that is off the board or a light square.
func (g *Geometry) At(f, r int) Square {
	if f < 0 || r < 0 || f >= g.N || r >= g.N || (f+r)%2 != 0 {
		return NoSquare
	}
	return Square((g.N*r + f) / 2)
}

// FileRank returns the file and rank of s, both counted from 0.
func (g *Geometry) FileRank(s Square) (f, r int) {
	return int(g.file[s]), int(g.rank[s])
}

// Neighbour returns the square next to s in direction d, or NoSquare.
func (g *Geometry) Neighbour(s Square, d int) Square { return g.nb[s][d] }

// Beyond returns the square two steps from s in direction d, or NoSquare.
func (g *Geometry) Beyond(s Square, d int) Square { return g.jump[s][d] }

// Shift moves every square of b one step in direction d, dropping those
// that would leave the board.
func (g *Geometry) Shift(b Bitboard, d int) Bitboard {
	b &= g.src[d]
	// The counts masked to the word (no shift is as long) spare the
	// compiler its test for a count past it, in the generator's and the
	// evaluation's hottest lines.
	if s := g.shift[d]; s > 0 {
		return b << (uint(s) & 63)
	} else {
		return b >> (uint(-s) & 63)
	}
}

// Shift2 moves every square of b two steps in direction d.
func (g *Geometry) Shift2(b Bitboard, d int) Bitboard {
	b &= g.jsrc[d]
	if s := g.shift[d]; s > 0 {
		return b << (uint(2*s) & 63)
	} else {
		return b >> (uint(-2*s) & 63)
	}
}

// Name returns the name of s, such as "e5".
func (g *Geometry) Name(s Square) string {
	if int(s) >= g.Squares {
		return fmt.Sprintf("?%d", s)
	}
	return string([]byte{'a' + g.file[s], '1' + g.rank[s]})
}

// AppendName appends the name of s to b without allocating.
func (g *Geometry) AppendName(b []byte, s Square) []byte {
	return append(b, 'a'+g.file[s], '1'+g.rank[s])
}

// SquareProblem says why a text is not a square of the board.
type SquareProblem uint8

const (
	NotAName    SquareProblem = iota + 1 // not a file letter and a rank digit
	OffBoard                             // a square beyond the board's N files or ranks
	LightSquare                          // a square that is not played on (RULES 1.2)
)

// SquareError is the error of ParseSquare: Name, as given, is not a
// playable square of an N x N board.
type SquareError struct {
	Name    string
	Problem SquareProblem
	N       int
}

func (e *SquareError) Error() string {
	switch e.Problem {
	case OffBoard:
		return fmt.Sprintf("%s is off the %dx%d board", e.Name, e.N, e.N)
	case LightSquare:
		return fmt.Sprintf("%s is not a playable square", e.Name)
	}
	return fmt.Sprintf("%q is not a square name", e.Name)
}

// ParseSquare reads a square name such as "e5". It answers text that is
// not a square of this board, and a light square, with a *SquareError.
func (g *Geometry) ParseSquare(name string) (Square, error) {
	fail := func(p SquareProblem) (Square, error) {
		return NoSquare, &SquareError{Name: name, Problem: p, N: g.N}
	}
	if len(name) != 2 || name[0] < 'a' || name[0] > 'z' || name[1] < '1' || name[1] > '9' {
		return fail(NotAName)
	}
	f, r := int(name[0]-'a'), int(name[1]-'1')
	if f >= g.N || r >= g.N {
		return fail(OffBoard)
	}
	s := g.At(f, r)
	if s == NoSquare {
		return fail(LightSquare)
	}
	return s, nil
}
