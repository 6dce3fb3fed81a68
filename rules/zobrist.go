package rules

// Zobrist keys. A column (owner o, k on top, p prisoners) on square s hashes
// to zTop[o][k][s] ^ zPris[o][p][s]: two small tables instead of one of
// 2*13*13*41 entries, which keeps them in the first-level cache. Entry 0 of
// each table is zero, so an empty square (k = p = 0) contributes nothing
// and a change of a column is two XORs out and two in.
var (
	zTop  [2][13][MaxSquares]uint64
	zPris [2][13][MaxSquares]uint64
	zHand [2][13]uint64
	zSide uint64
)

func init() {
	// A fixed seed: keys are the same in every run, so hashes can be
	// written in test data and compared across processes.
	x := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 { // splitmix64
		x += 0x9E3779B97F4A7C15
		z := x
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		return z ^ z>>31
	}
	for o := 0; o < 2; o++ {
		for k := 1; k < 13; k++ {
			for s := 0; s < MaxSquares; s++ {
				zTop[o][k][s] = next()
				zPris[o][k][s] = next()
			}
		}
		for n := 0; n < 13; n++ {
			zHand[o][n] = next()
		}
	}
	zSide = next()
}

// colKey is the key of the column on s as p holds it now.
func (p *Position) colKey(s Square) uint64 {
	o := p.own[Black] >> s & 1
	return zTop[o][p.top[s]][s] ^ zPris[o][p.pris[s]][s]
}

func (p *Position) computeHash() uint64 {
	var h uint64
	for s := Square(0); int(s) < p.geo.Squares; s++ {
		h ^= p.colKey(s)
	}
	h ^= zHand[White][p.hand[White]] ^ zHand[Black][p.hand[Black]]
	if p.side == Black {
		h ^= zSide
	}
	return h
}
