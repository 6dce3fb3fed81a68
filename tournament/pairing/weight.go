package pairing

import "math/bits"

// weightWords is the size of a weight in 64-bit words: room for every
// criterion of every bracket of a tournament of some hundreds of players
// (the pairing checks that its fields fit). The matching computes on the
// words its weights use only (the n methods).
const weightWords = 12

// weight is a signed integer of weightWords words in two's complement,
// little-endian: the edge weights of the matching and its dual variables.
// The criteria of the Dutch system are ordered by priority, each in its
// own bit field, so one comparison of weights compares the criteria in
// the rules' order.
type weight [weightWords]uint64

func (a weight) add(b weight) weight {
	var c uint64
	for i := range a {
		a[i], c = bits.Add64(a[i], b[i], c)
	}
	return a
}

func (a weight) sub(b weight) weight {
	var c uint64
	for i := range a {
		a[i], c = bits.Sub64(a[i], b[i], c)
	}
	return a
}

func (a weight) negative() bool { return a[weightWords-1]>>63 != 0 }

// less reports whether a < b.
func (a weight) less(b weight) bool {
	an, bn := a.negative(), b.negative()
	if an != bn {
		return an
	}
	for i := weightWords - 1; i >= 0; i-- {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func (a weight) isZero() bool { return a == weight{} }

func (a weight) odd() bool { return a[0]&1 != 0 }

// small returns v as a weight.
func small(v uint64) weight {
	var w weight
	w[0] = v
	return w
}

// shl returns a << k.
func (a weight) shl(k uint) weight {
	if k == 0 {
		return a
	}
	var r weight
	words, bitsIn := int(k/64), k%64
	for i := weightWords - 1; i >= words; i-- {
		r[i] = a[i-words] << bitsIn
		if bitsIn != 0 && i-words-1 >= 0 {
			r[i] |= a[i-words-1] >> (64 - bitsIn)
		}
	}
	return r
}

// or returns a | v.
func (a weight) or(v uint64) weight {
	a[0] |= v
	return a
}

// The n methods compute on the first n words alone, a signed integer of
// n words: the matching's weights and duals, which the pairing keeps a
// few bits below that size.

// addInto sets r to a + b; r may be a or b.
func addInto(r, a, b *weight, n int) {
	var c uint64
	for i := 0; i < n; i++ {
		r[i], c = bits.Add64(a[i], b[i], c)
	}
}

// subInto sets r to a - b; r may be a or b.
func subInto(r, a, b *weight, n int) {
	var c uint64
	for i := 0; i < n; i++ {
		r[i], c = bits.Sub64(a[i], b[i], c)
	}
}

func (a *weight) negativeN(n int) bool { return a[n-1]>>63 != 0 }

func (a *weight) lessN(b *weight, n int) bool {
	an, bn := a.negativeN(n), b.negativeN(n)
	if an != bn {
		return an
	}
	for i := n - 1; i >= 0; i-- {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func (a *weight) zeroN(n int) bool {
	for i := 0; i < n; i++ {
		if a[i] != 0 {
			return false
		}
	}
	return true
}

func (a *weight) halfN(n int) weight {
	var r weight
	for i := 0; i < n; i++ {
		r[i] = a[i] >> 1
		if i+1 < n {
			r[i] |= a[i+1] << 63
		}
	}
	r[n-1] |= a[n-1] & (1 << 63)
	return r
}

// usedWords is the number of words that hold a: its highest nonzero word
// and one more for the sign.
func (a weight) usedWords() int {
	n := weightWords
	for n > 0 && a[n-1] == 0 {
		n--
	}
	return n + 1
}
