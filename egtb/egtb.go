// Package egtb holds Emergo's endgame tables: every position with two
// columns on the board, one of each player, and no man in hand, solved
// by retrograde analysis, with its value (win, draw or loss of the side to
// move) and its distance to the end of the game in plies; and on 7x7
// every position of three columns likewise (three.go).
//
// Emergo never removes a man (RULES 1.4), so in such a position the two
// columns hold every man of the game: the column of the side to move is k
// of its men on top of the opponent's men that are not on top of the
// opponent's column, and the other way round. A position is therefore
// its two squares and the two top counts; the prisoners follow. When both
// columns belong to one player, the other has no man on the board and
// none in hand: he has lost if he is to move (RULES 6.1), and the player
// to move wins with any move; those positions need no table.
//
// The game ends only by RULES 6.1 in these tables: a column always has a
// move (a corner's one neighbour, if occupied, can be jumped, the square
// beyond being empty), so no position is blocked (RULES 6.2); and a
// player who wins does so along positions whose distance falls at every
// ply, which never repeat, so repetition (RULES 6.3) only makes the
// positions that neither side can win draws. Those are the draws of the
// tables.
//
// The rules are the same for both colours (a column moves in all four
// directions), so the tables are kept from the side to move's point of
// view: one entry per (mover's square, mover's top, opponent's square,
// opponent's top). An entry is one byte: 0 for a draw, else the distance
// d in plies to the end, odd when the side to move wins and even when it
// loses. Generate computes a table; the tables of both boards are
// embedded, compressed, and checked against Generate by the tests.
package egtb

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"io"
	"math/bits"
	"sync"
	"sync/atomic"

	"emergo/rules"
)

// Table is the two-column table of one board.
type Table struct {
	geo  *rules.Geometry
	data []byte
}

// Value is what a table says of a position, for the side to move.
type Value struct {
	// Outcome is +1 when the side to move wins, -1 when it loses and 0
	// for a draw.
	Outcome int
	// Plies is the distance to the end with the best play of both sides
	// (the winner the shortest, the loser the longest); 0 for a draw.
	Plies int
}

// String writes the value as "won in 14", "lost in 9" or "draw": the
// distance in plies.
func (v Value) String() string {
	switch v.Outcome {
	case 1:
		return fmt.Sprintf("won in %d", v.Plies)
	case -1:
		return fmt.Sprintf("lost in %d", v.Plies)
	}
	return "draw"
}

// size is the number of entries of a table on g.
func size(g *rules.Geometry) int {
	return g.Men * g.Men * g.Squares * g.Squares
}

// key is a position of the tables: the squares of the mover's and the
// opponent's columns and their men on top (the prisoners follow).
type key struct {
	mine, theirs    rules.Square
	myTop, theirTop int
}

// index is the entry of k in a table of board g.
func (k key) index(g *rules.Geometry) int {
	n := g.Squares
	return ((k.myTop-1)*g.Men+k.theirTop-1)*n*n + int(k.mine)*n + int(k.theirs)
}

// Fits reports whether p is a position of the tables: no man in hand, one
// column of each player, and every man of the game on the board in them.
func Fits(p *rules.Position) bool {
	_, ok := keyOf(p)
	return ok
}

// keyOf returns the key of p, if p is a position of the tables.
func keyOf(p *rules.Position) (key, bool) {
	me := p.Side()
	mine, theirs := p.Owned(me), p.Owned(me.Other())
	if p.Hand(rules.White)|p.Hand(rules.Black) != 0 || bits.OnesCount64(uint64(mine)) != 1 || bits.OnesCount64(uint64(theirs)) != 1 {
		return key{}, false
	}
	k := key{mine: rules.Square(bits.TrailingZeros64(uint64(mine))), theirs: rules.Square(bits.TrailingZeros64(uint64(theirs)))}
	a, b := p.At(k.mine), p.At(k.theirs)
	if men := p.Geometry().Men; a.Top+b.Prisoners != men || b.Top+a.Prisoners != men {
		return key{}, false // a composed position with men missing
	}
	k.myTop, k.theirTop = a.Top, b.Top
	return k, true
}

// Probe returns the value of p if it is a position of the table.
func (t *Table) Probe(p *rules.Position) (Value, bool) {
	if t == nil || p.Geometry() != t.geo {
		return Value{}, false
	}
	k, ok := keyOf(p)
	if !ok {
		return Value{}, false
	}
	return decode(t.data[k.index(t.geo)]), true
}

func decode(b byte) Value {
	switch {
	case b == 0:
		return Value{}
	case b%2 == 1:
		return Value{Outcome: 1, Plies: int(b)}
	}
	return Value{Outcome: -1, Plies: int(b)}
}

// Bytes returns the table's entries, in the order of the file that
// Generate's output is written as.
func (t *Table) Bytes() []byte { return t.data }

// Geometry returns the board of the table.
func (t *Table) Geometry() *rules.Geometry { return t.geo }

// FromBytes makes a table of board g from the bytes of Generate.
func FromBytes(g *rules.Geometry, data []byte) (*Table, error) {
	if len(data) != size(g) {
		return nil, fmt.Errorf("egtb: a %dx%d table has %d entries, not %d", g.N, g.N, size(g), len(data))
	}
	return &Table{geo: g, data: data}, nil
}

//go:embed two9.bin.gz
var two9 []byte

//go:embed two7.bin.gz
var two7 []byte

var (
	loadOnce sync.Once
	tables   map[*rules.Geometry]*Table
)

// For returns the embedded table of board g, decompressed on first use.
func For(g *rules.Geometry) *Table {
	loadOnce.Do(func() {
		tables = map[*rules.Geometry]*Table{}
		for _, e := range []struct {
			geo *rules.Geometry
			gz  []byte
		}{{rules.Geometry9, two9}, {rules.Geometry7, two7}} {
			t, err := decompress(e.geo, e.gz)
			if err != nil {
				panic(err) // the embedded tables are checked by the tests
			}
			tables[e.geo] = t
		}
	})
	return tables[g]
}

func decompress(g *rules.Geometry, gz []byte) (*Table, error) {
	data, err := gunzip(gz)
	if err != nil {
		return nil, fmt.Errorf("egtb: %dx%d table: %w", g.N, g.N, err)
	}
	return FromBytes(g, data)
}

func gunzip(gz []byte) ([]byte, error) {
	r, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// Probe returns the value of p from the embedded tables of its board, if
// p is a position of the tables. The three-column table is read in the
// background from the first probe of its board on, and used when it is
// ready: a search in a hurry never waits for it (a search's first
// positions are seldom of three columns).
func Probe(p *rules.Position) (Value, bool) {
	if v, ok := For(p.Geometry()).Probe(p); ok {
		return v, ok
	}
	return threeReady(p.Geometry()).Probe(p)
}

var (
	threeOnce  sync.Once
	threeTable atomic.Pointer[Three]
	threeErr   error
	threeDone  = make(chan struct{})
)

// loadThree decompresses the embedded three-column table.
func loadThree() {
	defer close(threeDone)
	if len(three7) == 0 {
		return
	}
	data, err := gunzip(three7)
	if err == nil {
		var t *Three
		if t, err = ThreeFromBytes(rules.Geometry7, data); err == nil {
			threeTable.Store(t)
		}
	}
	threeErr = err
}

// threeReady returns the three-column table of g if it is ready, and
// starts reading it if it is not.
func threeReady(g *rules.Geometry) *Three {
	if g != rules.Geometry7 {
		return nil
	}
	Preload()
	return threeTable.Load()
}

// Preload starts reading the embedded three-column table in the
// background, if it is not read yet: a program that will probe calls it
// when it starts, so that the table is ready when the first game comes.
func Preload() {
	threeOnce.Do(func() { go loadThree() })
}

// ThreeFor returns the embedded three-column table of board g, waiting
// until it is read; nil if g has none (9x9, or the browser's engine).
func ThreeFor(g *rules.Geometry) (*Three, error) {
	if g != rules.Geometry7 {
		return nil, nil
	}
	Preload()
	<-threeDone
	return threeTable.Load(), threeErr
}
