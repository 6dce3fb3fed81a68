package rules

import (
	"fmt"
	"math/bits"
)

// Color is a player: White moves first.
type Color uint8

const (
	White Color = 0
	Black Color = 1
)

// Other returns the opponent of c.
func (c Color) Other() Color { return c ^ 1 }

func (c Color) String() string {
	if c == White {
		return "White"
	}
	return "Black"
}

// Column is the make-up of one occupied square (RULES 2.2): Top men of
// Owner on top of Prisoners men of the other colour. The zero Column is
// an empty square.
type Column struct {
	Owner     Color
	Top       int
	Prisoners int
}

// Empty reports whether c stands for an empty square.
func (c Column) Empty() bool { return c.Top == 0 }

// Height is the number of men in the column.
func (c Column) Height() int { return c.Top + c.Prisoners }

// Position is a complete game state apart from its history: the columns,
// the men in hand and the side to move. It is a value of about 120 bytes
// with no pointers but its geometry, so search copies it (copy-make)
// instead of undoing moves. The zero Position is not valid; use
// NewPosition or PositionOf.
type Position struct {
	own  [2]Bitboard       // squares whose top man is White's, Black's
	top  [MaxSquares]uint8 // owner's men on top, 0 on an empty square
	pris [MaxSquares]uint8 // prisoners under them
	hand [2]uint8
	side Color
	geo  *Geometry
	hash uint64
}

// NewPosition returns the start of a game on g: an empty board, every man
// in hand, White to move.
func NewPosition(g *Geometry) Position {
	p := Position{geo: g, hand: [2]uint8{uint8(g.Men), uint8(g.Men)}}
	p.hash = p.computeHash()
	return p
}

// PositionOf builds a position from its parts: the column on each square
// (a map from square to column, empty squares left out), the men in hand
// and the side to move. It checks that every column has the shape of
// RULES 2.2 and that no colour has more than its men. A colour may have
// fewer: composed positions, such as the diagrams of the rule cases, show
// only the men that matter. Play from any position conserves the men
// (RULES 1.4). Its errors are *PositionError.
func PositionOf(g *Geometry, cols map[Square]Column, hand [2]int, side Color) (Position, error) {
	p := Position{geo: g, side: side}
	var men [2]int
	for s, c := range cols {
		if int(s) >= g.Squares {
			return Position{}, invalid("square %d is off the board", s)
		}
		if c.Top == 0 && c.Prisoners == 0 {
			continue
		}
		if c.Top < 1 || c.Prisoners < 0 || c.Owner > Black {
			return Position{}, invalid("%s: a column needs at least one man of its owner on top", g.Name(s))
		}
		men[c.Owner] += c.Top
		men[c.Owner.Other()] += c.Prisoners
		if c.Top > g.Men || c.Prisoners > g.Men {
			return Position{}, invalid("%s: a column cannot hold more than %d men of one colour", g.Name(s), g.Men)
		}
		p.own[c.Owner] |= 1 << s
		p.top[s], p.pris[s] = uint8(c.Top), uint8(c.Prisoners)
	}
	for c := White; c <= Black; c++ {
		if hand[c] < 0 || men[c]+hand[c] > g.Men {
			return Position{}, invalid("%s has %s on the board and %d in hand; %d at most", c, menText(men[c]), hand[c], g.Men)
		}
		p.hand[c] = uint8(hand[c])
	}
	if side > Black {
		return Position{}, invalid("invalid side to move")
	}
	p.hash = p.computeHash()
	return p, nil
}

// Geometry returns the board of p.
func (p *Position) Geometry() *Geometry { return p.geo }

// Side returns the player to move.
func (p *Position) Side() Color { return p.side }

// Hand returns the men c has in hand.
func (p *Position) Hand(c Color) int { return int(p.hand[c]) }

// Hash returns the Zobrist key of p: the columns, the hands and the side.
func (p *Position) Hash() uint64 { return p.hash }

// Owned returns the squares whose column c owns.
func (p *Position) Owned(c Color) Bitboard { return p.own[c] }

// Occupied returns the squares that hold a column.
func (p *Position) Occupied() Bitboard { return p.own[0] | p.own[1] }

// Empty returns the playable squares that hold nothing.
func (p *Position) Empty() Bitboard { return p.geo.All &^ (p.own[0] | p.own[1]) }

// At returns the column on s; the zero Column if s is empty.
func (p *Position) At(s Square) Column {
	if p.top[s] == 0 {
		return Column{}
	}
	return Column{Owner: p.owner(s), Top: int(p.top[s]), Prisoners: int(p.pris[s])}
}

func (p *Position) owner(s Square) Color { return Color(p.own[Black] >> s & 1) }

// EntrySize returns how many men an entry of the player to move puts on
// the board: every man in his hand when the opponent has none left (the
// shadow piece, RULES 4.2), else one; 0 when his hand is empty.
func (p *Position) EntrySize() int {
	me := p.side
	switch {
	case p.hand[me] == 0:
		return 0
	case p.hand[me.Other()] == 0:
		return int(p.hand[me])
	}
	return 1
}

// FirstMove reports whether p is the very start of a game, where White may
// not enter on the centre (RULES 4.3).
func (p *Position) FirstMove() bool {
	return p.side == White && p.own[0]|p.own[1] == 0 &&
		int(p.hand[White]) == p.geo.Men && int(p.hand[Black]) == p.geo.Men
}

// Lost reports whether the player to move has lost: no men in hand and no
// column of his own, all his men being prisoners (RULES 6.1).
func (p *Position) Lost() bool {
	return p.hand[p.side] == 0 && p.own[p.side] == 0
}

// Men returns how many men of colour c are on the board (on top or as
// prisoners) and in hand: the geometry's Men in a game from the start.
func (p *Position) Men(c Color) int {
	n := int(p.hand[c])
	for b := p.own[c]; b != 0; b &= b - 1 {
		n += int(p.top[bits.TrailingZeros64(uint64(b))])
	}
	for b := p.own[c.Other()]; b != 0; b &= b - 1 {
		n += int(p.pris[bits.TrailingZeros64(uint64(b))])
	}
	return n
}

// Validate checks the invariants of p: column shape (RULES 2.2), no
// colour with more than its men (RULES 1.4; see PositionOf for fewer) and
// the stored hash. It exists for tests and for
// positions that cross a trust boundary. Its errors are *PositionError.
func (p *Position) Validate() error {
	g := p.geo
	if p.own[0]&p.own[1] != 0 {
		return invalid("a square has two owners")
	}
	occ := p.own[0] | p.own[1]
	if occ&^g.All != 0 {
		return invalid("a column stands off the board")
	}
	for s := Square(0); int(s) < g.Squares; s++ {
		if occ>>s&1 == 1 {
			if p.top[s] == 0 {
				return invalid("%s is owned but has no man on top", g.Name(s))
			}
		} else if p.top[s] != 0 || p.pris[s] != 0 {
			return invalid("%s is empty but holds men", g.Name(s))
		}
	}
	for c := White; c <= Black; c++ {
		if n := p.Men(c); n > g.Men {
			return invalid("%s has %d men, more than %d", c, n, g.Men)
		}
	}
	if p.hash != p.computeHash() {
		return invalid("stored hash differs from the recomputed one")
	}
	return nil
}

// PositionError is the error of PositionOf and Validate: Detail says what
// is wrong with the position, as in "c5: a column needs at least one man
// of its owner on top".
type PositionError struct {
	Detail string
}

func (e *PositionError) Error() string { return "rules: " + e.Detail }

// invalid returns the *PositionError of the formatted detail.
func invalid(format string, args ...any) error {
	return &PositionError{Detail: fmt.Sprintf(format, args...)}
}

// menText is n men in words: "1 man", "2 men".
func menText(n int) string {
	if n == 1 {
		return "1 man"
	}
	return fmt.Sprintf("%d men", n)
}
