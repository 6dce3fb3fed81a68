package pairing

import "math/bits"

// weightWords is the size of a weight in 64-bit words: room for every
// criterion of every bracket of the largest tournaments (layout checks).
const weightWords = 32

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

// half returns a/2 (a even).
func (a weight) half() weight {
	sign := a[weightWords-1] & (1 << 63)
	for i := 0; i < weightWords; i++ {
		a[i] >>= 1
		if i+1 < weightWords {
			a[i] |= a[i+1] << 63
		}
	}
	a[weightWords-1] |= sign
	return a
}

// double returns 2a.
func (a weight) double() weight { return a.add(a) }

// setField adds v << at: v, a field of the layout, at bit at.
func (a *weight) setField(at uint, v uint64) {
	var f weight
	w, s := at/64, at%64
	f[w] = v << s
	if s != 0 && w+1 < weightWords {
		f[w+1] = v >> (64 - s)
	}
	*a = a.add(f)
}
