package pairing

// dutch is the pairing of one round under way: the players present in
// ranking order (their vertices in the matching), the weights of the
// edges between them, and the layout of the weights' fields.
type dutch struct {
	sorted []*player
	byID   map[int]*player
	played int  // rounds played
	last   bool // the round to pair is the last (topscorers, C.3)

	w         [][]weight // the current weight of each edge, 0 for none
	maxWeight weight     // the weight of a pair fixed

	groupBits   uint         // bits that hold the largest score group's size
	scoresBits  uint         // bits of the field of scores paired
	scoreShift  map[int]uint // each score's place in that field
	byeScore    int          // the score of the bye's player
	singleBye   bool         // the one floater of the bracket is the bye (C.9)
	unplayedRnk map[int]int  // C.9: a rank of the bye's score group by games played
}

// compatible reports whether a and b may meet: not met before (C.1), and
// not two players of the same absolute colour preference unless one is a
// topscorer in the last round (C.3).
func (d *dutch) compatible(a, b *player) bool {
	if a.met[b.id] {
		return false
	}
	if a.absolute() && b.absolute() && a.pref == b.pref {
		return d.last && (a.score > d.played || b.score > d.played)
	}
	return true
}

func (d *dutch) byeCandidate(p *player) bool { return p.eligible && p.score <= d.byeScore }

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// edgeWeight is the weight of the edge between hi and lo (hi ranked
// higher) for the bracket under way: lo in it (current) or in the next
// one (next). The fields follow one another from the most significant;
// the last, left empty, are the order of the candidates'.
func (d *dutch) edgeWeight(hi, lo *player, current, next bool) weight {
	var r weight
	if !d.compatible(hi, lo) {
		return r
	}
	gb, sb := d.groupBits, d.scoresBits
	// C.4 and C.2: complete, and the bye to a player who may have it.
	r = small(1 + b2u(!d.byeCandidate(hi)) + b2u(!d.byeCandidate(lo)))
	// C.5, C.6: pairs and scores paired in the bracket.
	r = r.shl(gb).or(b2u(current))
	r = r.shl(sb)
	if current {
		r = r.add(small(1).shl(d.scoreShift[hi.score]))
	}
	// C.7, C.8: the same in the next bracket.
	r = r.shl(gb).or(b2u(next))
	r = r.shl(sb)
	if next {
		r = r.add(small(1).shl(d.scoreShift[hi.score]))
	}
	// C.9: the bye to a player of the fewest unplayed games.
	r = r.shl(2 * gb)
	if d.singleBye {
		if hi.score == d.byeScore {
			r = r.or(uint64(d.unplayedRnk[hi.played]))
		}
		if lo.score == d.byeScore {
			r = r.add(small(uint64(d.unplayedRnk[lo.played])))
		}
	}
	// C.10-C.13: colours.
	r = r.shl(gb).or(b2u(current && (hi.imbalance <= 1 || lo.imbalance <= 1 || hi.pref != lo.pref)))
	r = r.shl(gb).or(b2u(current && d.noThirdColour(hi, lo)))
	r = r.shl(gb).or(b2u(current && compatiblePrefs(hi.pref, lo.pref)))
	r = r.shl(gb).or(b2u(current && (!lo.strong && !lo.absolute() || !hi.strong && !hi.absolute() ||
		lo.absolute() && hi.absolute() || hi.pref != lo.pref)))
	// C.14-C.17: floats repeated from the last round and the one before.
	for back := 1; back <= min(2, d.played); back++ {
		r = r.shl(gb)
		if current {
			r = r.or(b2u(lo.float(back, d.byID) == floatDown))
			r = r.add(small(b2u(hi.score <= lo.score && hi.float(back, d.byID) == floatDown)))
		}
		r = r.shl(gb)
		if current {
			r = r.or(b2u(!(hi.score > lo.score && lo.float(back, d.byID) == floatUp)))
		}
	}
	// C.18-C.21: the scores of those floaters.
	for back := 1; back <= min(2, d.played); back++ {
		r = r.shl(sb)
		if current {
			r = r.add(small(b2u(lo.float(back, d.byID) == floatDown)).shl(d.scoreShift[lo.score]))
			r = r.add(small(b2u(hi.float(back, d.byID) == floatDown)).shl(d.scoreShift[hi.score]))
		}
		r = r.shl(sb)
		if current && !(lo.float(back, d.byID) == floatUp && hi.score > lo.score) {
			r = r.add(small(1).shl(d.scoreShift[hi.score]))
		}
	}
	// Room for the order of the candidates.
	return r.shl(3*gb + 1)
}

// noThirdColour is C.11's test of a pair of the same absolute preference
// (topscorers): the one who does not get his colour has not had the
// other twice running.
func (d *dutch) noThirdColour(a, b *player) bool {
	if !a.absolute() || !b.absolute() || a.pref != b.pref {
		return true
	}
	if a.imbalance == b.imbalance {
		return a.repeated == NoColour || a.repeated != b.repeated
	}
	loser := a
	if a.imbalance > b.imbalance {
		loser = b
	}
	return loser.repeated != a.pref.opposite()
}

// fieldsWidth is the number of bits edgeWeight uses.
func (d *dutch) fieldsWidth() uint {
	gb, sb := d.groupBits, d.scoresBits
	n := 2 + 2*(gb+sb) + 2*gb + 4*gb + 3*gb + 1
	rounds := uint(min(2, d.played))
	n += rounds * (2*gb + 2*sb)
	return n
}

// match computes the matching of the current weights: each vertex's
// mate, itself when it has none.
func (d *dutch) match() []int {
	var edges []edge
	for i := range d.w {
		for j := i + 1; j < len(d.w); j++ {
			if !d.w[i][j].isZero() {
				edges = append(edges, edge{i, j, d.w[i][j]})
			}
		}
	}
	mate := maxWeightMatching(len(d.w), edges)
	for v, m := range mate {
		if m < 0 {
			mate[v] = v
		}
	}
	return mate
}

func (d *dutch) set(i, j int, w weight) {
	d.w[i][j], d.w[j][i] = w, w
}

// fix makes i and j a pair: their edge the heaviest, every other edge of
// theirs gone.
func (d *dutch) fix(i, j int) {
	for k := range d.w {
		if k != i {
			d.set(i, k, weight{})
		}
		if k != j {
			d.set(j, k, weight{})
		}
	}
	d.set(i, j, d.maxWeight)
}

// complete reports whether mate pairs every player but at most one, who
// may have the bye.
func (d *dutch) complete(mate []int) bool {
	alone := false
	for v, m := range mate {
		if m == v {
			if alone || !d.sorted[v].eligible {
				return false
			}
			alone = true
		}
	}
	return true
}

// pair pairs the round: each vertex's mate, itself for the bye.
func (d *dutch) pair() ([]int, error) {
	ps := d.sorted
	n := len(ps)
	// The score groups' sizes and places in the field of scores.
	d.scoreShift = map[int]uint{}
	largest, run := 0, 0
	for i := n - 1; i >= 0; i-- {
		run++
		if i == 0 || ps[i-1].score > ps[i].score {
			d.scoreShift[ps[i].score] = d.scoresBits
			d.scoresBits += bitsFor(run)
			largest = max(largest, run)
			run = 0
		}
	}
	d.groupBits = bitsFor(largest)
	width := d.fieldsWidth()
	if width+4 >= weightWords*64 {
		return nil, ErrTooLarge
	}
	d.maxWeight = small(1).shl(width + 2).sub(small(1))
	d.w = make([][]weight, n)
	for i := range d.w {
		d.w[i] = make([]weight, n)
	}

	// The first matching: can the round be paired, and which score has
	// the bye?
	top := ps[0].score
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			p, o := ps[i], ps[j]
			var w weight
			if n%2 == 1 {
				if d.compatible(p, o) {
					w = small(1 + b2u(!p.eligible) + b2u(!o.eligible))
					w = w.shl(d.scoresBits).or(uint64(d.scoreShift[p.score] + d.scoreShift[o.score]))
					w = w.shl(d.groupBits).or(b2u(p.score >= top))
				}
			} else {
				w = d.edgeWeight(o, p, false, false)
			}
			d.set(i, j, w)
		}
	}
	mate := d.match()
	if !d.complete(mate) {
		return nil, ErrNoPairing
	}
	if n%2 == 1 {
		for v, m := range mate {
			if m == v {
				d.byeScore = ps[v].score
				break
			}
		}
		if d.byeScore >= top {
			d.singleBye = true
			for v, p := range ps {
				if p.score < top {
					break
				}
				if ps[mate[v]].score < top {
					d.singleBye = false
					break
				}
			}
		}
		var counts []int
		for _, p := range ps {
			if p.score == d.byeScore {
				counts = append(counts, p.played)
			}
		}
		sortDesc(counts)
		d.unplayedRnk = map[int]int{}
		for r, c := range counts {
			d.unplayedRnk[c] = r
		}
		for i := 0; i < n; i++ {
			for j := 0; j < i; j++ {
				d.set(i, j, d.edgeWeight(ps[j], ps[i], false, false))
			}
		}
	}
	return d.brackets()
}

func sortDesc(s []int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] > s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// brackets pairs the score brackets from the top, given the matching's
// weights of completion and the bye: each vertex's mate, itself for the
// bye.
func (d *dutch) brackets() ([]int, error) {
	ps := d.sorted
	n := len(ps)
	final := make([]int, n)
	for i := range final {
		final[i] = -1
	}
	matched := make([]bool, n)
	// cur holds the vertices of the bracket under way: its moved-down
	// players (the first mdps) and its score group, then the next group.
	var cur []int
	next := 0
	for next < n && ps[next].score >= ps[0].score {
		cur = append(cur, next)
		next++
	}
	mdps, groupV := 0, 0 // groupV: the first vertex of the bracket's score group
	for len(cur) > 1 || next < n {
		end := len(cur) // the bracket is cur[:end]
		nextV := groupV + (end - mdps)
		nextGroup := next
		for next < n && ps[next].score >= ps[nextGroup].score {
			cur = append(cur, next)
			next++
		}
		inBracket := func(v int) bool { return v >= groupV && v < nextV }

		// base[l][s]: the weight of cur[s] (higher) against cur[l].
		base := make([][]weight, len(cur))
		for l := mdps; l < len(cur); l++ {
			base[l] = make([]weight, l)
			for s := 0; s < l; s++ {
				base[l][s] = d.edgeWeight(ps[cur[s]], ps[cur[l]], l < end, l >= end)
				d.set(cur[l], cur[s], base[l][s])
			}
		}
		stable := d.match()

		// The moved-down players paired in the bracket: as many as can be,
		// of each score the highest ranked.
		var mdScore, left, leftMatched int
		for i := 0; i < mdps; i++ {
			if i == 0 || ps[cur[i]].score < mdScore {
				mdScore = ps[cur[i]].score
				left, leftMatched = 0, 0
				for k := i; ps[cur[k]].score >= mdScore; k++ {
					left++
					if inBracket(stable[cur[k]]) {
						leftMatched++
					}
				}
			}
			if leftMatched == 0 {
				continue
			}
			v := cur[i]
			if left <= leftMatched {
				matched[v] = true
				continue
			}
			left--
			if !inBracket(stable[v]) {
				for o := mdps; o < end; o++ {
					if w := base[o][i]; !w.isZero() {
						d.set(v, cur[o], w.or(1))
					}
				}
				stable = d.match()
			}
			if inBracket(stable[v]) {
				matched[v] = true
				leftMatched--
				for o := mdps; o < end; o++ {
					if w := base[o][i]; !w.isZero() {
						d.set(v, cur[o], w.or(uint64(end-mdps)).add(small(1)))
					}
				}
			}
		}
		// Their opponents: each the highest he can meet.
		for i := 0; i < mdps; i++ {
			v := cur[i]
			if !matched[v] {
				continue
			}
			addend := uint64(len(cur))
			for o := end - 1; o >= mdps; o-- {
				if matched[cur[o]] {
					continue
				}
				if w := base[o][i]; !w.isZero() {
					d.set(v, cur[o], w.add(small(addend)))
					addend++
				}
			}
			stable = d.match()
			m := stable[v]
			matched[m] = true
			d.fix(v, m)
		}

		// The remainder: its upper half S1 (the first pairs) and lower
		// half S2.
		var rem []int // indices into cur
		pairs := 0
		for i := mdps; i < end; i++ {
			v := cur[i]
			if stable[v] < groupV {
				continue
			}
			rem = append(rem, i)
			if stable[v] < v {
				pairs++
			}
		}
		withOrder := func(s, l, sIdx int) weight {
			r := base[l][s]
			if r.isZero() {
				return r
			}
			add := small(b2u(sIdx < pairs)).shl(2 * d.groupBits).sub(small(uint64(sIdx))).shl(1)
			return r.add(add)
		}
		for oi, o := range rem {
			for pi, p := range rem[:oi] {
				d.set(cur[p], cur[o], withOrder(p, o, pi))
			}
		}
		stable = d.match()
		upper := func(i int) bool { v := cur[i]; return stable[v] > v && stable[v] < nextV }

		exchanges := 0
		for _, i := range rem[:pairs] {
			if !upper(i) {
				exchanges++
			}
		}
		// The lowest of S1 exchanged first.
		remaining := exchanges
		for pi := pairs - 1; pi >= 0 && remaining > 0; pi-- {
			i := rem[pi]
			v := cur[i]
			if upper(i) {
				for _, o := range rem[pi+1:] {
					if w := withOrder(i, o, pi); !w.isZero() {
						d.set(v, cur[o], w.sub(small(1)))
					}
				}
				stable = d.match()
			}
			exchange := !upper(i)
			if exchange {
				remaining--
			}
			for _, o := range rem[pi+1:] {
				if exchange {
					base[o][i] = weight{}
				}
				d.set(v, cur[o], withOrder(i, o, pi))
			}
		}
		// The highest of S2 exchanged first.
		remaining = exchanges
		for ri := pairs; ri < len(rem) && remaining > 1; ri++ {
			i := rem[ri]
			v := cur[i]
			already := upper(i)
			if !already {
				for _, o := range rem[ri+1:] {
					if w := withOrder(i, o, ri); !w.isZero() {
						d.set(v, cur[o], w.add(small(1)))
					}
				}
				stable = d.match()
			}
			if upper(i) {
				remaining--
				for _, o := range rem[:ri] {
					base[i][o] = weight{}
					d.set(v, cur[o], weight{})
				}
				for o := end; o < len(cur); o++ {
					base[o][i] = weight{}
					d.set(v, cur[o], weight{})
				}
			}
			if !already {
				for _, o := range rem[ri+1:] {
					d.set(v, cur[o], withOrder(i, o, ri))
				}
			}
		}
		// Fix the exchanges: an upper player meets a lower one only.
		for pi, p := range rem {
			for _, o := range rem[pi+1:] {
				if !upper(p) || upper(o) {
					base[o][p] = weight{}
				}
				d.set(cur[p], cur[o], base[o][p])
			}
		}
		// Each upper player against the highest lower one he can meet.
		for pi, p := range rem {
			if !upper(p) {
				continue
			}
			v := cur[p]
			addend := uint64(0)
			for k := len(rem) - 1; k > pi; k-- {
				o := rem[k]
				if matched[cur[o]] {
					continue
				}
				if w := base[o][p]; !w.isZero() {
					d.set(v, cur[o], w.add(small(addend)))
				}
				addend++
			}
			stable = d.match()
			m := stable[v]
			matched[v], matched[m] = true, true
			d.fix(v, m)
		}

		// The next bracket: the floaters and the next score group.
		var nextCur []int
		newMdps := 0
		d.singleBye = n%2 == 1 && nextGroup < n && d.byeScore >= ps[nextGroup].score
		for i, v := range cur {
			if i < end && matched[v] {
				final[v] = stable[v]
				final[stable[v]] = v
				continue
			}
			nextCur = append(nextCur, v)
			if i < end {
				newMdps++
			}
			if d.singleBye && nextGroup < n && ps[stable[v]].score < ps[nextGroup].score {
				d.singleBye = false
			}
		}
		cur, mdps, groupV = nextCur, newMdps, nextV
	}
	for v := range final {
		if final[v] < 0 {
			final[v] = v
		}
	}
	if !d.complete(final) {
		return nil, ErrNoPairing
	}
	return final, nil
}
