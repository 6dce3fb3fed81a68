package pairing

// This file is a maximum-weight matching of general graphs: Edmonds'
// blossom algorithm with dual variables, in the O(n^3) form of Galil
// ("Efficient algorithms for finding maximum matching in graphs", ACM
// Computing Surveys, 1986). The weights are integers, so every dual
// variable and slack is an integer and the result is exact.

// edge is an edge of the matching's graph and its weight.
type edge struct {
	i, j int
	w    weight
}

// maxWeightMatching returns, for each of the n vertices, its mate or -1:
// a matching of the greatest number of edges, and of the greatest weight
// among those (the weights are made positive by the caller's offset).
func maxWeightMatching(n int, edges []edge) []int {
	m := &matcher{n: n, edges: edges}
	return m.run()
}

type matcher struct {
	n     int
	edges []edge
	nw    int      // the words the weights and duals use
	w2    []weight // each edge's weight, doubled

	endpoint         []int
	neighbend        [][]int
	mate             []int
	label            []int
	labelend         []int
	inblossom        []int
	blossomparent    []int
	blossomchilds    [][]int
	blossombase      []int
	blossomendps     [][]int
	bestedge         []int
	blossombestedges [][]int
	unusedblossoms   []int
	dualvar          []weight
	allowedge        []bool
	queue            []int
}

func (m *matcher) slack(k int) weight {
	var s weight
	m.slackInto(k, &s)
	return s
}

// slackInto sets s to the slack of edge k.
func (m *matcher) slackInto(k int, s *weight) {
	e := &m.edges[k]
	addInto(s, &m.dualvar[e.i], &m.dualvar[e.j], m.nw)
	subInto(s, s, &m.w2[k], m.nw)
}

// slackLess reports whether edge k's slack is below edge l's.
func (m *matcher) slackLess(k, l int) bool {
	var a, b weight
	m.slackInto(k, &a)
	m.slackInto(l, &b)
	return a.lessN(&b, m.nw)
}

// slackAbove reports whether s is above edge l's slack.
func (m *matcher) slackBelow(s *weight, l int) bool {
	var b weight
	m.slackInto(l, &b)
	return s.lessN(&b, m.nw)
}

func (m *matcher) less(a, b weight) bool { return a.lessN(&b, m.nw) }

func (m *matcher) leaves(b int, f func(v int)) {
	if b < m.n {
		f(b)
		return
	}
	for _, t := range m.blossomchilds[b] {
		m.leaves(t, f)
	}
}

func (m *matcher) assignLabel(w, t, p int) {
	b := m.inblossom[w]
	m.label[w], m.label[b] = t, t
	m.labelend[w], m.labelend[b] = p, p
	m.bestedge[w], m.bestedge[b] = -1, -1
	if t == 1 {
		m.leaves(b, func(v int) { m.queue = append(m.queue, v) })
	} else {
		base := m.blossombase[b]
		m.assignLabel(m.endpoint[m.mate[base]], 1, m.mate[base]^1)
	}
}

func (m *matcher) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := m.inblossom[v]
		if m.label[b]&4 != 0 {
			base = m.blossombase[b]
			break
		}
		path = append(path, b)
		m.label[b] = 5
		if m.labelend[b] == -1 {
			v = -1
		} else {
			v = m.endpoint[m.labelend[b]]
			b = m.inblossom[v]
			v = m.endpoint[m.labelend[b]]
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		m.label[b] = 1
	}
	return base
}

func (m *matcher) addBlossom(base, k int) {
	v, w := m.edges[k].i, m.edges[k].j
	bb := m.inblossom[base]
	bv := m.inblossom[v]
	bw := m.inblossom[w]
	b := m.unusedblossoms[len(m.unusedblossoms)-1]
	m.unusedblossoms = m.unusedblossoms[:len(m.unusedblossoms)-1]
	m.blossombase[b] = base
	m.blossomparent[b] = -1
	m.blossomparent[bb] = b
	var path, endps []int
	for bv != bb {
		m.blossomparent[bv] = b
		path = append(path, bv)
		endps = append(endps, m.labelend[bv])
		v = m.endpoint[m.labelend[bv]]
		bv = m.inblossom[v]
	}
	path = append(path, bb)
	reverseInts(path)
	reverseInts(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		m.blossomparent[bw] = b
		path = append(path, bw)
		endps = append(endps, m.labelend[bw]^1)
		w = m.endpoint[m.labelend[bw]]
		bw = m.inblossom[w]
	}
	m.blossomchilds[b] = path
	m.blossomendps[b] = endps
	m.label[b] = 1
	m.labelend[b] = m.labelend[bb]
	m.dualvar[b] = weight{}
	m.leaves(b, func(v int) {
		if m.label[m.inblossom[v]] == 2 {
			m.queue = append(m.queue, v)
		}
		m.inblossom[v] = b
	})
	bestedgeto := make([]int, 2*m.n)
	for i := range bestedgeto {
		bestedgeto[i] = -1
	}
	for _, bv := range path {
		var lists [][]int
		if m.blossombestedges[bv] == nil {
			var ks []int
			m.leaves(bv, func(v int) {
				for _, p := range m.neighbend[v] {
					ks = append(ks, p/2)
				}
			})
			lists = [][]int{ks}
		} else {
			lists = [][]int{m.blossombestedges[bv]}
		}
		for _, ks := range lists {
			for _, k := range ks {
				i, j := m.edges[k].i, m.edges[k].j
				if m.inblossom[j] == b {
					i, j = j, i
				}
				_ = i
				bj := m.inblossom[j]
				if bj != b && m.label[bj] == 1 && (bestedgeto[bj] == -1 || m.slackLess(k, bestedgeto[bj])) {
					bestedgeto[bj] = k
				}
			}
		}
		m.blossombestedges[bv] = nil
		m.bestedge[bv] = -1
	}
	var best []int
	for _, k := range bestedgeto {
		if k != -1 {
			best = append(best, k)
		}
	}
	m.blossombestedges[b] = best
	m.bestedge[b] = -1
	for _, k := range best {
		if m.bestedge[b] == -1 || m.slackLess(k, m.bestedge[b]) {
			m.bestedge[b] = k
		}
	}
}

func (m *matcher) expandBlossom(b int, endstage bool) {
	for _, s := range m.blossomchilds[b] {
		m.blossomparent[s] = -1
		if s < m.n {
			m.inblossom[s] = s
		} else if endstage && m.dualvar[s].zeroN(m.nw) {
			m.expandBlossom(s, endstage)
		} else {
			m.leaves(s, func(v int) { m.inblossom[v] = s })
		}
	}
	if !endstage && m.label[b] == 2 {
		entrychild := m.inblossom[m.endpoint[m.labelend[b]^1]]
		childs := m.blossomchilds[b]
		endps := m.blossomendps[b]
		j, jstep, endptrick := direction(indexOf(childs, entrychild), len(childs))
		p := m.labelend[b]
		for j != 0 {
			m.label[m.endpoint[p^1]] = 0
			m.label[m.endpoint[at(endps, j-endptrick)^endptrick^1]] = 0
			m.assignLabel(m.endpoint[p^1], 2, p)
			m.allowedge[at(endps, j-endptrick)/2] = true
			j += jstep
			p = at(endps, j-endptrick) ^ endptrick
			m.allowedge[p/2] = true
			j += jstep
		}
		bv := at(childs, j)
		m.label[m.endpoint[p^1]], m.label[bv] = 2, 2
		m.labelend[m.endpoint[p^1]], m.labelend[bv] = p, p
		m.bestedge[bv] = -1
		j += jstep
		for at(childs, j) != entrychild {
			bv = at(childs, j)
			if m.label[bv] == 1 {
				j += jstep
				continue
			}
			v := -1
			m.leaves(bv, func(x int) {
				if v == -1 && m.label[x] != 0 {
					v = x
				}
			})
			if v != -1 {
				m.label[v] = 0
				m.label[m.endpoint[m.mate[m.blossombase[bv]]]] = 0
				m.assignLabel(v, 2, m.labelend[v])
			}
			j += jstep
		}
	}
	m.label[b], m.labelend[b] = -1, -1
	m.blossomchilds[b], m.blossomendps[b] = nil, nil
	m.blossombase[b] = -1
	m.blossombestedges[b] = nil
	m.bestedge[b] = -1
	m.unusedblossoms = append(m.unusedblossoms, b)
}

func (m *matcher) augmentBlossom(b, v int) {
	t := v
	for m.blossomparent[t] != b {
		t = m.blossomparent[t]
	}
	if t >= m.n {
		m.augmentBlossom(t, v)
	}
	childs := m.blossomchilds[b]
	endps := m.blossomendps[b]
	i := indexOf(childs, t)
	j, jstep, endptrick := direction(i, len(childs))
	for j != 0 {
		j += jstep
		t = at(childs, j)
		p := at(endps, j-endptrick) ^ endptrick
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p])
		}
		j += jstep
		t = at(childs, j)
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p^1])
		}
		m.mate[m.endpoint[p]] = p ^ 1
		m.mate[m.endpoint[p^1]] = p
	}
	m.blossomchilds[b] = append(append([]int(nil), childs[i:]...), childs[:i]...)
	m.blossomendps[b] = append(append([]int(nil), endps[i:]...), endps[:i]...)
	m.blossombase[b] = m.blossombase[m.blossomchilds[b][0]]
}

func (m *matcher) augmentMatching(k int) {
	v, w := m.edges[k].i, m.edges[k].j
	for _, sp := range [][2]int{{v, 2*k + 1}, {w, 2 * k}} {
		s, p := sp[0], sp[1]
		for {
			bs := m.inblossom[s]
			if bs >= m.n {
				m.augmentBlossom(bs, s)
			}
			m.mate[s] = p
			if m.labelend[bs] == -1 {
				break
			}
			t := m.endpoint[m.labelend[bs]]
			bt := m.inblossom[t]
			s = m.endpoint[m.labelend[bt]]
			j := m.endpoint[m.labelend[bt]^1]
			if bt >= m.n {
				m.augmentBlossom(bt, j)
			}
			m.mate[j] = m.labelend[bt]
			p = m.labelend[bt] ^ 1
		}
	}
}

func (m *matcher) run() []int {
	n := m.n
	mate := make([]int, n)
	for i := range mate {
		mate[i] = -1
	}
	if len(m.edges) == 0 {
		return mate
	}
	var maxweight weight
	for _, e := range m.edges {
		if maxweight.less(e.w) {
			maxweight = e.w
		}
	}
	// Slacks reach four times the greatest weight; two more bits.
	m.nw = min(weightWords, maxweight.usedWords()+1)
	m.w2 = make([]weight, len(m.edges))
	for k := range m.edges {
		addInto(&m.w2[k], &m.edges[k].w, &m.edges[k].w, m.nw)
	}
	m.endpoint = make([]int, 2*len(m.edges))
	m.neighbend = make([][]int, n)
	for k, e := range m.edges {
		m.endpoint[2*k], m.endpoint[2*k+1] = e.i, e.j
		m.neighbend[e.i] = append(m.neighbend[e.i], 2*k+1)
		m.neighbend[e.j] = append(m.neighbend[e.j], 2*k)
	}
	m.mate = mate
	m.label = make([]int, 2*n)
	m.labelend = filled(2*n, -1)
	m.inblossom = make([]int, n)
	for i := range m.inblossom {
		m.inblossom[i] = i
	}
	m.blossomparent = filled(2*n, -1)
	m.blossomchilds = make([][]int, 2*n)
	m.blossombase = make([]int, 2*n)
	for i := range m.blossombase {
		if i < n {
			m.blossombase[i] = i
		} else {
			m.blossombase[i] = -1
		}
	}
	m.blossomendps = make([][]int, 2*n)
	m.bestedge = filled(2*n, -1)
	m.blossombestedges = make([][]int, 2*n)
	for i := n; i < 2*n; i++ {
		m.unusedblossoms = append(m.unusedblossoms, i)
	}
	m.dualvar = make([]weight, 2*n)
	for i := 0; i < n; i++ {
		m.dualvar[i] = maxweight
	}
	m.allowedge = make([]bool, len(m.edges))

	for range n {
		for i := range m.label {
			m.label[i] = 0
		}
		for i := range m.bestedge {
			m.bestedge[i] = -1
		}
		for i := n; i < 2*n; i++ {
			m.blossombestedges[i] = nil
		}
		for i := range m.allowedge {
			m.allowedge[i] = false
		}
		m.queue = m.queue[:0]
		for v := 0; v < n; v++ {
			if m.mate[v] == -1 && m.label[m.inblossom[v]] == 0 {
				m.assignLabel(v, 1, -1)
			}
		}
		augmented := false
		for {
			for len(m.queue) > 0 && !augmented {
				v := m.queue[len(m.queue)-1]
				m.queue = m.queue[:len(m.queue)-1]
				for _, p := range m.neighbend[v] {
					k := p / 2
					w := m.endpoint[p]
					if m.inblossom[v] == m.inblossom[w] {
						continue
					}
					var kslack weight
					if !m.allowedge[k] {
						m.slackInto(k, &kslack)
						if kslack.negativeN(m.nw) || kslack.zeroN(m.nw) {
							m.allowedge[k] = true
						}
					}
					if m.allowedge[k] {
						if m.label[m.inblossom[w]] == 0 {
							m.assignLabel(w, 2, p^1)
						} else if m.label[m.inblossom[w]] == 1 {
							base := m.scanBlossom(v, w)
							if base >= 0 {
								m.addBlossom(base, k)
							} else {
								m.augmentMatching(k)
								augmented = true
								break
							}
						} else if m.label[w] == 0 {
							m.label[w] = 2
							m.labelend[w] = p ^ 1
						}
					} else if m.label[m.inblossom[w]] == 1 {
						b := m.inblossom[v]
						if m.bestedge[b] == -1 || m.slackBelow(&kslack, m.bestedge[b]) {
							m.bestedge[b] = k
						}
					} else if m.label[w] == 0 {
						if m.bestedge[w] == -1 || m.slackBelow(&kslack, m.bestedge[w]) {
							m.bestedge[w] = k
						}
					}
				}
			}
			if augmented {
				break
			}
			// No augmenting path under the current duals: change them.
			deltatype := -1
			var delta weight
			deltaedge, deltablossom := -1, -1
			// Maximum cardinality: no delta1 (vertex duals reaching zero).
			for v := 0; v < n; v++ {
				if m.label[m.inblossom[v]] == 0 && m.bestedge[v] != -1 {
					d := m.slack(m.bestedge[v])
					if deltatype == -1 || m.less(d, delta) {
						delta, deltatype, deltaedge = d, 2, m.bestedge[v]
					}
				}
			}
			for b := 0; b < 2*n; b++ {
				if m.blossomparent[b] == -1 && m.label[b] == 1 && m.bestedge[b] != -1 {
					kslack := m.slack(m.bestedge[b])
					if kslack.odd() {
						panic("pairing: odd slack in the matching")
					}
					d := kslack.halfN(m.nw)
					if deltatype == -1 || m.less(d, delta) {
						delta, deltatype, deltaedge = d, 3, m.bestedge[b]
					}
				}
			}
			for b := n; b < 2*n; b++ {
				if m.blossombase[b] >= 0 && m.blossomparent[b] == -1 && m.label[b] == 2 && (deltatype == -1 || m.less(m.dualvar[b], delta)) {
					delta, deltatype, deltablossom = m.dualvar[b], 4, b
				}
			}
			if deltatype == -1 {
				// No further improvement: the matching is of maximum
				// cardinality. Make the duals end the stage.
				deltatype = 1
				delta = weight{}
				for v := 0; v < n; v++ {
					if v == 0 || m.less(m.dualvar[v], delta) {
						delta = m.dualvar[v]
					}
				}
				if delta.negativeN(m.nw) {
					delta = weight{}
				}
			}
			for v := 0; v < n; v++ {
				switch m.label[m.inblossom[v]] {
				case 1:
					subInto(&m.dualvar[v], &m.dualvar[v], &delta, m.nw)
				case 2:
					addInto(&m.dualvar[v], &m.dualvar[v], &delta, m.nw)
				}
			}
			for b := n; b < 2*n; b++ {
				if m.blossombase[b] >= 0 && m.blossomparent[b] == -1 {
					switch m.label[b] {
					case 1:
						addInto(&m.dualvar[b], &m.dualvar[b], &delta, m.nw)
					case 2:
						subInto(&m.dualvar[b], &m.dualvar[b], &delta, m.nw)
					}
				}
			}
			if deltatype == 1 {
				break
			} else if deltatype == 2 {
				m.allowedge[deltaedge] = true
				i, j := m.edges[deltaedge].i, m.edges[deltaedge].j
				if m.label[m.inblossom[i]] == 0 {
					i = j
				}
				m.queue = append(m.queue, i)
			} else if deltatype == 3 {
				m.allowedge[deltaedge] = true
				m.queue = append(m.queue, m.edges[deltaedge].i)
			} else {
				m.expandBlossom(deltablossom, false)
			}
		}
		if !augmented {
			break
		}
		for b := n; b < 2*n; b++ {
			if m.blossomparent[b] == -1 && m.blossombase[b] >= 0 && m.label[b] == 1 && m.dualvar[b].zeroN(m.nw) {
				m.expandBlossom(b, true)
			}
		}
	}
	out := make([]int, n)
	for v := range out {
		out[v] = -1
		if m.mate[v] >= 0 {
			out[v] = m.endpoint[m.mate[v]]
		}
	}
	return out
}

// direction is how to walk around a blossom of n children from child j
// to its base, child 0, along the even-length side: the start (made
// negative to go forward), the step, and the trick that picks each
// edge's endpoint on the way.
func direction(j, n int) (start, step, endptrick int) {
	if j&1 != 0 {
		return j - n, 1, 0
	}
	return j, -1, 1
}

// at is s[i] with i taken modulo len(s), as the walks around a blossom
// count below 0.
func at(s []int, i int) int { return s[((i%len(s))+len(s))%len(s)] }

func filled(n, v int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func indexOf(s []int, x int) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	return -1
}

func reverseInts(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}
