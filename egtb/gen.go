package egtb

import (
	"fmt"

	"emergo/rules"
)

// Stats describe a generated table.
type Stats struct {
	Positions    int // legal positions (two distinct squares)
	Wins, Losses int // of the side to move
	Draws        int
	Longest      int // the longest distance, in plies
	Passes       int // passes of the retrograde analysis
}

// count counts the entry b in the wins, losses or draws of the side to
// move.
func (st *Stats) count(b byte) {
	switch {
	case b == 0:
		st.Draws++
	case b%2 == 1:
		st.Wins++
	default:
		st.Losses++
	}
}

// maxPlies is the longest distance an entry holds.
const maxPlies = 255

// Moves of a position in the generator: every move's result is either the
// end of the game (the opponent left without a column, a win in one ply)
// or another position of the table, from the opponent's point of view.
const (
	noChild  = -1
	terminal = -2
	// maxChildren bounds a position's moves: one capture (a column is
	// next to at most one other), else at most four steps.
	maxChildren = 4
)

// Generate solves every two-column position of board g and returns the
// table. The result depends on nothing but g: the same bytes every time.
//
// The analysis works in layers of distance. Layer 1 holds the positions
// with a move that leaves the opponent no column. Layer d, odd, holds the
// positions not yet solved that have a move to a position lost in d-1;
// layer d, even, those whose every move leads to a position won (by the
// opponent) in less than d. It stops when two layers in a row are empty;
// the positions left are draws.
func Generate(g *rules.Geometry) (*Table, Stats, error) {
	n, men := g.Squares, g.Men
	data := make([]byte, size(g))
	children := make([]int32, size(g)*maxChildren)
	valid := make([]bool, size(g))
	var st Stats
	var buf []rules.Move
	for myTop := 1; myTop <= men; myTop++ {
		for theirTop := 1; theirTop <= men; theirTop++ {
			for mine := range rules.Square(n) {
				for theirs := range rules.Square(n) {
					if mine == theirs {
						continue
					}
					i := key{mine, theirs, myTop, theirTop}.index(g)
					valid[i] = true
					st.Positions++
					p, err := rules.PositionOf(g, map[rules.Square]rules.Column{
						mine:   {Owner: rules.White, Top: myTop, Prisoners: men - theirTop},
						theirs: {Owner: rules.Black, Top: theirTop, Prisoners: men - myTop},
					}, [2]int{}, rules.White)
					if err != nil {
						return nil, st, fmt.Errorf("egtb: %w", err) // a broken index
					}
					buf = p.Legal(buf[:0])
					if len(buf) > maxChildren {
						return nil, st, fmt.Errorf("egtb: %d moves in a two-column position", len(buf))
					}
					c := children[i*maxChildren : (i+1)*maxChildren]
					for k := range c {
						c[k] = noChild
					}
					for k, m := range buf {
						q := p.After(m)
						if q.Lost() {
							c[k] = terminal
							continue
						}
						qk, fits := keyOf(&q)
						if !fits {
							return nil, st, fmt.Errorf("egtb: a move leaves a position outside the table")
						}
						c[k] = int32(qk.index(g))
					}
				}
			}
		}
	}

	empty := 0
	for d := 1; empty < 2; d++ {
		st.Passes++
		found := 0
		win := d%2 == 1
		for i := range data {
			if !valid[i] || data[i] != 0 {
				continue
			}
			c := children[i*maxChildren : (i+1)*maxChildren]
			if win && wins(c, data, d) || !win && loses(c, data, d) {
				if d > maxPlies {
					return nil, st, fmt.Errorf("egtb: a distance over %d plies", maxPlies)
				}
				data[i] = byte(d)
				found++
			}
		}
		if found == 0 {
			empty++
		} else {
			empty = 0
			st.Longest = d
		}
	}
	for i, b := range data {
		if valid[i] {
			st.count(b)
		}
	}
	return &Table{geo: g, data: data}, st, nil
}

// wins reports whether a move of c ends the game (d is 1) or leads to a
// position lost in d-1.
func wins(c []int32, data []byte, d int) bool {
	for _, ch := range c {
		switch {
		case ch == terminal && d == 1,
			ch >= 0 && int(data[ch]) == d-1 && d > 1:
			return true
		}
	}
	return false
}

// loses reports whether every move of c leads to a position that the
// opponent wins in less than d plies (c has a move: none is blocked).
func loses(c []int32, data []byte, d int) bool {
	if c[0] == noChild {
		return false
	}
	for _, ch := range c {
		switch {
		case ch == noChild:
			return true
		case ch == terminal:
			return false // a win, found in layer 1
		}
		if v := data[ch]; v == 0 || v%2 == 0 || int(v) >= d {
			return false
		}
	}
	return true
}
