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
	fixed     []int      // each vertex's fixed mate, -1 for none yet
	edges     []edge     // the matching's edges, kept from one to the next

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
// mate, itself when it has none. The pairs already fixed have no other
// edge, so they are left out of the matching: it is the same without
// them, and quicker.
func (d *dutch) match() []int {
	var free []int
	for v, m := range d.fixed {
		if m < 0 {
			free = append(free, v)
		}
	}
	edges := d.edges[:0]
	for a, i := range free {
		for b := a + 1; b < len(free); b++ {
			if j := free[b]; !d.w[i][j].isZero() {
				edges = append(edges, edge{a, b, d.w[i][j]})
			}
		}
	}
	d.edges = edges
	m := maxWeightMatching(len(free), edges)
	mate := make([]int, len(d.w))
	for v := range mate {
		mate[v] = d.fixed[v]
	}
	for a, i := range free {
		mate[i] = i
		if m[a] >= 0 {
			mate[i] = free[m[a]]
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
	d.fixed[i], d.fixed[j] = j, i
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
	if width+8 >= weightWords*64 {
		return nil, ErrTooLarge
	}
	d.maxWeight = small(1).shl(width + 2).sub(small(1))
	d.fixed = filled(n, -1)
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
	b := &bracket{d: d, matched: make([]bool, n)}
	next := 0
	for next < n && ps[next].score >= ps[0].score {
		b.cur = append(b.cur, next)
		next++
	}
	for len(b.cur) > 1 || next < n {
		b.end = len(b.cur)
		b.nextV = b.groupV + (b.end - b.mdps)
		nextGroup := next
		for next < n && ps[next].score >= ps[nextGroup].score {
			b.cur = append(b.cur, next)
			next++
		}
		b.weigh()
		b.chooseMovedDown()
		b.pairMovedDown()
		b.pairRemainder()

		// The next bracket: the floaters and the next score group.
		var nextCur []int
		mdps := 0
		d.singleBye = n%2 == 1 && nextGroup < n && d.byeScore >= ps[nextGroup].score
		for i, v := range b.cur {
			if i < b.end && b.matched[v] {
				final[v] = b.stable[v]
				final[b.stable[v]] = v
				continue
			}
			nextCur = append(nextCur, v)
			if i < b.end {
				mdps++
			}
			if d.singleBye && ps[b.stable[v]].score < ps[nextGroup].score {
				d.singleBye = false
			}
		}
		b.cur, b.mdps, b.groupV = nextCur, mdps, b.nextV
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

// bracket is the score bracket under way.
type bracket struct {
	d *dutch
	// cur holds the vertices of the bracket, its moved-down players
	// (cur[:mdps]) then its score group (cur[mdps:end]), and then those
	// of the next score group.
	cur       []int
	mdps, end int
	// groupV and nextV bound the vertices of the bracket's score group.
	groupV, nextV int
	// base[l][s] is the weight of cur[s] (the higher) against cur[l].
	base    [][]weight
	stable  []int  // the latest matching
	matched []bool // the vertices whose pair is fixed (or about to be)
}

// inGroup reports whether v is of the bracket's score group.
func (b *bracket) inGroup(v int) bool { return v >= b.groupV && v < b.nextV }

// weigh sets the weights of the bracket's edges and matches.
func (b *bracket) weigh() {
	ps := b.d.sorted
	b.base = make([][]weight, len(b.cur))
	for l := b.mdps; l < len(b.cur); l++ {
		b.base[l] = make([]weight, l)
		for s := 0; s < l; s++ {
			b.base[l][s] = b.d.edgeWeight(ps[b.cur[s]], ps[b.cur[l]], l < b.end, l >= b.end)
			b.d.set(b.cur[l], b.cur[s], b.base[l][s])
		}
	}
	b.stable = b.d.match()
}

// chooseMovedDown chooses the moved-down players paired in the bracket:
// as many as can be, of each score the highest ranked.
func (b *bracket) chooseMovedDown() {
	d, ps, cur := b.d, b.d.sorted, b.cur
	var score, left, leftMatched int
	for i := 0; i < b.mdps; i++ {
		if i == 0 || ps[cur[i]].score < score {
			score = ps[cur[i]].score
			left, leftMatched = 0, 0
			for k := i; ps[cur[k]].score >= score; k++ {
				left++
				if b.inGroup(b.stable[cur[k]]) {
					leftMatched++
				}
			}
		}
		if leftMatched == 0 {
			continue
		}
		v := cur[i]
		if left <= leftMatched {
			b.matched[v] = true
			continue
		}
		left--
		if !b.inGroup(b.stable[v]) {
			for o := b.mdps; o < b.end; o++ {
				if w := b.base[o][i]; !w.isZero() {
					d.set(v, cur[o], w.or(1))
				}
			}
			b.stable = d.match()
		}
		if b.inGroup(b.stable[v]) {
			b.matched[v] = true
			leftMatched--
			for o := b.mdps; o < b.end; o++ {
				if w := b.base[o][i]; !w.isZero() {
					d.set(v, cur[o], w.or(uint64(b.end-b.mdps)).add(small(1)))
				}
			}
		}
	}
}

// pairMovedDown pairs the chosen moved-down players, each with the
// highest player of the score group he can meet.
func (b *bracket) pairMovedDown() {
	d, cur := b.d, b.cur
	for i := 0; i < b.mdps; i++ {
		v := cur[i]
		if !b.matched[v] {
			continue
		}
		addend := uint64(len(cur))
		for o := b.end - 1; o >= b.mdps; o-- {
			if b.matched[cur[o]] {
				continue
			}
			if w := b.base[o][i]; !w.isZero() {
				d.set(v, cur[o], w.add(small(addend)))
				addend++
			}
		}
		b.fixMate(v)
	}
}

// fixMate matches and fixes v's pair.
func (b *bracket) fixMate(v int) {
	b.stable = b.d.match()
	m := b.stable[v]
	b.matched[v], b.matched[m] = true, true
	b.d.fix(v, m)
}

// pairRemainder pairs the rest of the score group: its upper half S1
// against its lower half S2, with the fewest exchanges between them.
func (b *bracket) pairRemainder() {
	d, cur := b.d, b.cur
	var rem []int // indices into cur
	pairs := 0
	for i := b.mdps; i < b.end; i++ {
		v := cur[i]
		if b.stable[v] < b.groupV {
			continue
		}
		rem = append(rem, i)
		if b.stable[v] < v {
			pairs++
		}
	}
	// withOrder adds to an edge the fewest exchanges (an upper player of
	// S1) and the smallest numbers exchanged.
	withOrder := func(s, l, sIdx int) weight {
		r := b.base[l][s]
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
	b.stable = d.match()
	// upper reports whether cur[i] is the upper player of a pair of the
	// score group.
	upper := func(i int) bool { v := cur[i]; return b.stable[v] > v && b.stable[v] < b.nextV }

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
			b.stable = d.match()
		}
		exchange := !upper(i)
		if exchange {
			remaining--
		}
		for _, o := range rem[pi+1:] {
			if exchange {
				b.base[o][i] = weight{}
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
			b.stable = d.match()
		}
		if upper(i) {
			remaining--
			for _, o := range rem[:ri] {
				b.base[i][o] = weight{}
				d.set(v, cur[o], weight{})
			}
			for o := b.end; o < len(cur); o++ {
				b.base[o][i] = weight{}
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
				b.base[o][p] = weight{}
			}
			d.set(cur[p], cur[o], b.base[o][p])
		}
	}
	// Each upper player against the highest lower one he can meet.
	if b.pairUpperAtOnce(rem, upper) {
		return
	}
	for pi, p := range rem {
		if !upper(p) {
			continue
		}
		v := cur[p]
		addend := uint64(0)
		for k := len(rem) - 1; k > pi; k-- {
			o := rem[k]
			if b.matched[cur[o]] {
				continue
			}
			if w := b.base[o][p]; !w.isZero() {
				d.set(v, cur[o], w.add(small(addend)))
			}
			addend++
		}
		b.fixMate(v)
	}
}

// pairUpperAtOnce gives each upper player of rem the highest lower player
// he can meet, the higher upper players first, in one matching instead of
// one each: every weight is shifted up to make room below for a field per
// upper player, the highest's most significant, so that the matching
// maximizes them in that order, as one matching after the other would. It
// reports false, having done nothing, when the fields do not fit.
func (b *bracket) pairUpperAtOnce(rem []int, upper func(int) bool) bool {
	d, cur := b.d, b.cur
	var uppers []int // positions in rem
	for pi, p := range rem {
		if upper(p) {
			uppers = append(uppers, pi)
		}
	}
	if len(uppers) < 2 {
		return false
	}
	per := bitsFor(len(rem))
	room := per * uint(len(uppers))
	if d.fieldsWidth()+room+8 >= weightWords*64 {
		return false
	}
	saved := make([][]weight, len(d.w))
	for i := range d.w {
		saved[i] = append([]weight(nil), d.w[i]...)
		for j := range d.w[i] {
			d.w[i][j] = d.w[i][j].shl(room)
		}
	}
	for k, pi := range uppers {
		p := rem[pi]
		at := per * uint(len(uppers)-1-k)
		addend := uint64(0)
		for q := len(rem) - 1; q > pi; q-- {
			o := rem[q]
			if w := b.base[o][p]; !w.isZero() {
				d.set(cur[p], cur[o], w.shl(room).add(small(addend).shl(at)))
			}
			addend++
		}
	}
	b.stable = d.match()
	d.w = saved
	for _, pi := range uppers {
		v := cur[rem[pi]]
		m := b.stable[v]
		b.matched[v], b.matched[m] = true, true
		d.fix(v, m)
	}
	return true
}
