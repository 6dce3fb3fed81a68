package pairing

import "math/bits"

// The fields of a bracket's part of an edge weight, most significant
// first.
const (
	fieldPairs     = iota // C.5: pairs made within the brackets so far
	fieldPSD              // C.6: the score differences of the floaters, small
	fieldNextPairs        // C.7: pairs made within the next bracket
	fieldColour           // C.10: colour preferences granted
	fieldStrong           // C.11: strong colour preferences granted
	fieldDown1            // C.12: no downfloat as in the last round
	fieldUp1              // C.13: no upfloat as in the last round
	fieldDown2            // C.14: no downfloat as two rounds before
	fieldUp2              // C.15: no upfloat as two rounds before
	fieldFloater          // the order of the candidates: the lowest floats
	fieldOrder            // the order of the candidates: S1[i] against S2[i]
	fieldCount
)

// layout places the fields of every bracket in a weight, the first
// bracket's highest.
type layout struct {
	at [][fieldCount]uint
}

func newLayout(brackets, players int) layout {
	pairs := uint64(players/2 + 1)
	width := func(max uint64) uint { return uint(bits.Len64(max)) }
	var w [fieldCount]uint
	w[fieldPairs] = width(pairs)
	w[fieldPSD] = width(pairs * uint64(brackets+1))
	w[fieldNextPairs] = width(pairs)
	for f := fieldColour; f <= fieldUp2; f++ {
		w[f] = width(pairs)
	}
	w[fieldFloater] = width(uint64(players+1) * pairs)
	w[fieldOrder] = width(uint64(players+1) * pairs)
	var per uint
	for _, x := range w {
		per += x
	}
	if per*uint(brackets) >= weightWords*64-2 {
		panic("pairing: the criteria do not fit in a weight")
	}
	l := layout{at: make([][fieldCount]uint, brackets)}
	top := per * uint(brackets)
	for g := range brackets {
		for f := range fieldCount {
			top -= w[f]
			l.at[g][f] = top
		}
	}
	return l
}

func (l layout) set(w *weight, bracket, field int, v uint64) {
	if bracket < len(l.at) && v > 0 {
		w.setField(l.at[bracket][field], v)
	}
}

// pairWeight is the weight of the pair a, b (a ranked higher).
func (l layout) pairWeight(a, b *player, size []int) weight {
	var w weight
	brackets := len(l.at)
	for g := range brackets {
		if b.group <= g {
			l.set(&w, g, fieldPairs, 1)
		}
		if b.group <= g+1 {
			l.set(&w, g, fieldNextPairs, 1)
		}
		if a.group <= g && b.group > g {
			l.set(&w, g, fieldPSD, uint64(brackets+1-(b.group-a.group)))
		}
	}
	g := b.group
	if a.pref == NoColour || b.pref == NoColour || a.pref != b.pref {
		l.set(&w, g, fieldColour, 1)
		l.set(&w, g, fieldStrong, 1)
	} else if min(a.strength, b.strength) < 2 {
		l.set(&w, g, fieldStrong, 1)
	}
	floats := a.group != b.group
	if !floats || a.floats[0] != -1 {
		l.set(&w, g, fieldDown1, 1)
	}
	if !floats || b.floats[0] != 1 {
		l.set(&w, g, fieldUp1, 1)
	}
	if !floats || a.floats[1] != -1 {
		l.set(&w, g, fieldDown2, 1)
	}
	if !floats || b.floats[1] != 1 {
		l.set(&w, g, fieldUp2, 1)
	}
	if floats {
		// The lowest of a's bracket floats down, and a floater meets the
		// highest of the bracket he comes to.
		l.set(&w, a.group, fieldFloater, uint64(a.inGroup+1))
		l.set(&w, g, fieldOrder, uint64(size[g]+1-b.inGroup))
	} else {
		s := size[g]
		half := s / 2
		d := b.inGroup - a.inGroup - half
		l.set(&w, g, fieldOrder, uint64(s+1-abs(d)))
	}
	return w
}

// byeWeight is the weight of a's pairing-allocated bye: the bye is a
// bracket below the lowest, so that the bye goes to the lowest bracket,
// and to its lowest player.
func (l layout) byeWeight(a *player, byeGroup, players int) weight {
	var w weight
	brackets := len(l.at)
	for g := range brackets {
		if byeGroup <= g {
			l.set(&w, g, fieldPairs, 1)
		}
		if byeGroup <= g+1 {
			l.set(&w, g, fieldNextPairs, 1)
		}
		if a.group <= g && byeGroup > g {
			l.set(&w, g, fieldPSD, uint64(brackets+1-(byeGroup-a.group)))
		}
	}
	l.set(&w, byeGroup, fieldColour, 1)
	l.set(&w, byeGroup, fieldStrong, 1)
	if a.floats[0] != -1 {
		l.set(&w, byeGroup, fieldDown1, 1)
	}
	l.set(&w, byeGroup, fieldUp1, 1)
	if a.floats[1] != -1 {
		l.set(&w, byeGroup, fieldDown2, 1)
	}
	l.set(&w, byeGroup, fieldUp2, 1)
	l.set(&w, a.group, fieldFloater, uint64(a.inGroup+1))
	l.set(&w, byeGroup, fieldOrder, uint64(a.rank+1))
	return w
}
