package search

import (
	"context"
	"math"
	"math/bits"
	"slices"
	"sync/atomic"
	"time"

	"emergo/rules"
)

// control is shared by the threads of one search: the limits and the stop
// flag.
type control struct {
	ctx       context.Context
	start     time.Time
	hard      time.Duration
	nodeLimit uint64
	stop      atomic.Bool
}

func (c *control) stopped() bool { return c.stop.Load() }

func (c *control) totalNodes(ts []*thread) uint64 {
	var n uint64
	for _, t := range ts {
		n += t.published.Load()
	}
	return n
}

func (c *control) totalHits(ts []*thread) uint64 {
	var n uint64
	for _, t := range ts {
		n += t.publishedHits.Load()
	}
	return n
}

// frame is one ply of a thread's stack.
type frame struct {
	pos        rules.Position
	reversible bool // the move into this position was not an entry: it may repeat an earlier one
	null       bool // the move into this position was a pass of null-move pruning
	moves      []rules.Move
	// keys holds the moves in the order they are searched, each as its
	// ordering score and its index in moves (see orderKey); sorted is
	// whether keys past the moves picked so far are in order already.
	keys   []int64
	sorted bool
}

// orderKey packs a move's ordering score and its index in generation
// order into one integer that sorts ascending as the moves are searched:
// the higher score first, and of equal scores the one generated last.
// Most moves of a node have no history yet, so this tie is the order of
// most moves; generated last first, the searches of 120 positions to
// depths 7 to 9 (BenchmarkWide) took 7% to 9% fewer nodes than in the
// order a selection sort left them in, and generated first about as many
// as that (docs/evidence.md, "Less time to a depth").
func orderKey(score int32, idx int) int64 { return int64(-score)<<8 | int64(255-idx) }

// keyScore and keyIndex unpack an orderKey.
func keyScore(k int64) int32 { return int32(-(k >> 8)) }
func keyIndex(k int64) uint8 { return 255 - uint8(k) }

type rootMove struct {
	move      rules.Move
	index     uint8 // in generation order, for the table
	score     int32
	bound     Bound
	prevScore int32
	depth     int
	pv        [maxPly]rules.Move
	pvLen     int
}

func (r *rootMove) pvSlice() []rules.Move { return slices.Clone(r.pv[:r.pvLen]) }

type thread struct {
	e         *Engine
	id        int
	ctl       *control
	eval      Evaluator
	nodes     uint64
	published atomic.Uint64
	// tbHits counts the positions the Tablebase valued;
	// publishedHits is its count for the other threads.
	tbHits        uint64
	publishedHits atomic.Uint64
	selDepth      int
	past          hashSet // hashes of the game's positions before the root
	root          []rootMove
	stack         [maxPly + 2]frame
	pv            [maxPly + 1][maxPly + 1]rules.Move
	pvLen         [maxPly + 1]int
	killers       [maxPly + 1][2]rules.Move
	hist          [2][rules.MaxSquares][rules.MaxSquares]int32

	// rootDepth is the depth of the iteration under way, which bounds
	// the single-reply extensions of its lines.
	rootDepth int

	// sight is the longest move, in squares of its path, searched beyond
	// the root: one more than Limits.Horizon, or noHorizon. No entry or
	// step is longer than two squares, so a horizon of one jump or more
	// cuts captures only.
	sight int
}

func newThread(e *Engine, id int) *thread {
	t := &thread{e: e, id: id, eval: e.opts.Eval}
	// No position has more than rules.MaxMoves legal moves, so the move
	// list never grows (the search allocates nothing) and its ordering
	// scores are never outrun.
	for i := range t.stack {
		t.stack[i].moves = make([]rules.Move, 0, rules.MaxMoves)
		t.stack[i].keys = make([]int64, rules.MaxMoves)
	}
	return t
}

func (t *thread) reset() {
	t.killers = [maxPly + 1][2]rules.Move{}
	t.hist = [2][rules.MaxSquares][rules.MaxSquares]int32{}
}

// noHorizon is the sight of a search without Limits.Horizon: longer than
// every move.
const noHorizon = 1 << 30

func (t *thread) setup(root rules.Position, history []uint64, lim Limits, ctl *control) {
	t.ctl = ctl
	t.eval = t.e.opts.Eval
	if lim.Eval != nil {
		t.eval = lim.Eval
	}
	t.sight = noHorizon
	if lim.Horizon > 0 {
		t.sight = lim.Horizon + 1
	}
	t.nodes, t.tbHits = 0, 0
	t.published.Store(0)
	t.publishedHits.Store(0)
	t.selDepth = 0
	t.past.reset(history)
	t.stack[0].pos = root
	t.stack[0].reversible = len(history) > 0
	moves := root.Legal(t.stack[0].moves[:0])
	t.stack[0].moves = moves
	t.root = t.root[:0]
	for i, m := range moves {
		t.root = append(t.root, rootMove{move: m, index: uint8(i), score: -Infinity, prevScore: -Infinity})
	}
	if root.Lost() {
		t.root = t.root[:0]
	}
}

func (t *thread) terminalScore() int32 {
	if t.stack[0].pos.Lost() {
		return -Mate
	}
	return 0
}

func (t *thread) result(depth, lines int) Result {
	r := Result{Move: t.root[0].move, Score: t.root[0].score, Depth: depth}
	// The root keeps every move searched to this depth in order: a move
	// that failed high past the last line asked for pushed that line
	// out, and it stays below, searched, but no line of the result.
	for k := range t.root[:min(lines, len(t.root))] {
		if t.root[k].depth != depth || t.root[k].score == -Infinity {
			break
		}
		r.Lines = append(r.Lines, Line{Score: t.root[k].score, Bound: t.root[k].bound, PV: t.root[k].pvSlice()})
	}
	return r
}

// forced returns the only legal move of the root unsearched, with the
// score of the root in the table, as a bound unless it is exact, or the
// evaluation's when the table has none.
func (t *thread) forced() Result {
	p := &t.stack[0].pos
	score, bound := int32(0), UpperBound
	if e, ok := t.e.tt.probe(p.Hash()); ok && e.bound != boundNone {
		score = fromTT(e.score, 0)
		bound = [...]Bound{boundUpper: UpperBound, boundLower: LowerBound, boundExact: Exact}[e.bound]
	} else {
		score, bound = t.eval.Evaluate(p), Exact
	}
	m := t.root[0].move
	return Result{Move: m, Score: score, Lines: []Line{{Score: score, Bound: bound, PV: []rules.Move{m}}}}
}

// obvious reports whether the best root move, after the iteration at
// depth, stands obviousMargin above every other: each other move, searched
// at half the depth with a null window, scores below the best's score
// less the margin. A search stopped on the way gives false.
func (t *thread) obvious(depth int) bool {
	if len(t.root) < 2 {
		return true
	}
	best := t.root[0].score
	if best <= -MateBound || best >= MateBound {
		return false // a forced end is the mate's to judge
	}
	bar := best - obviousMargin
	root := &t.stack[0].pos
	child := &t.stack[1]
	for i := 1; i < len(t.root); i++ {
		m := t.root[i].move
		child.pos = *root
		child.pos.Play(m)
		child.reversible = m.Kind() != rules.Entry
		s := -t.search(1, depth/2-1, -bar, -bar+1)
		if t.ctl.stopped() || s >= bar {
			return false
		}
	}
	return true
}

// poll publishes the node count and checks the clock and the context.
func (t *thread) poll() {
	t.published.Store(t.nodes)
	t.publishedHits.Store(t.tbHits)
	c := t.ctl
	if c.hard > 0 && time.Since(c.start) >= c.hard {
		c.stop.Store(true)
	}
	select {
	case <-c.ctx.Done():
		c.stop.Store(true)
	default:
	}
}

// The aspiration windows of iterate.
const (
	// aspirationDepth is the first iteration searched in a window: the
	// first ones cost little, and their scores still move a lot.
	aspirationDepth = 4
	// aspirationWindow is the first half-width of the window, a third of
	// a man: from one iteration to the next the score seldom moves more.
	aspirationWindow = 30
	// aspirationLimit is the half-width, four men, past which the window
	// is dropped for the full one: a score that moves so far is better
	// found at once than by more re-searches.
	aspirationLimit = 400
)

// iterate searches the root to depth, once per line of a MultiPV search,
// each with an aspiration window around its previous score, widened,
// twice as much each time, on the side where the score falls outside.
func (t *thread) iterate(depth, multiPV int) {
	t.rootDepth = depth
	for k := 0; k < multiPV && k < len(t.root); k++ {
		for i := k; i < len(t.root); i++ {
			t.root[i].prevScore = t.root[i].score
		}
		prev := t.root[k].prevScore
		delta := int32(aspirationWindow)
		alpha, beta := int32(-Infinity), int32(Infinity)
		if depth >= aspirationDepth && prev > -MateBound && prev < MateBound {
			alpha, beta = prev-delta, prev+delta
		}
		for {
			s := t.searchRoot(depth, alpha, beta, k)
			if t.ctl.stopped() {
				break
			}
			switch {
			case s <= alpha && alpha > -Infinity:
				alpha = max(alpha-delta, -Infinity)
			case s >= beta && beta < Infinity:
				beta = min(beta+delta, Infinity)
			default:
				delta = 0
			}
			if delta == 0 {
				break
			}
			delta *= 2
			if delta > aspirationLimit {
				alpha, beta = -Infinity, Infinity
			}
		}
		slices.SortStableFunc(t.root[k:], func(a, b rootMove) int {
			return int(b.score) - int(a.score)
		})
		t.published.Store(t.nodes)
		t.publishedHits.Store(t.tbHits)
	}
}

func (t *thread) searchRoot(depth int, alpha, beta int32, from int) int32 {
	best := int32(-Infinity)
	for i := from; i < len(t.root); i++ {
		t.root[i].score = -Infinity
	}
	root := &t.stack[0].pos
	for i := from; i < len(t.root); i++ {
		rm := &t.root[i]
		child := &t.stack[1]
		child.pos = *root
		child.pos.Play(rm.move)
		child.reversible = rm.move.Kind() != rules.Entry
		var s int32
		if i == from {
			s = -t.search(1, depth-1, -beta, -alpha)
		} else {
			s = -t.search(1, depth-1, -alpha-1, -alpha)
			if s > alpha && s < beta {
				s = -t.search(1, depth-1, -beta, -alpha)
			}
		}
		if t.ctl.stopped() {
			break
		}
		if i == from || s > alpha {
			rm.score, rm.depth = s, depth
			switch {
			case s >= beta:
				rm.bound = LowerBound
			case s <= alpha:
				rm.bound = UpperBound // only the first move can fail low
			default:
				rm.bound = Exact
			}
			rm.pv[0] = rm.move
			rm.pvLen = 1 + copy(rm.pv[1:], t.pv[1][1:t.pvLen[1]])
			best = max(best, s)
			if s > alpha {
				alpha = s
				if s >= beta {
					break
				}
			}
		}
	}
	return best
}

// repeated reports whether the position at ply occurred before, on the
// path or in the game, with no entry in between. Only positions with the
// same side to move can be equal, so the path is searched two plies at a
// time; the game's positions are looked up in a hash set, since in the
// movement phase they reach back to the last entry, many plies ago.
func (t *thread) repeated(ply int) bool {
	h := t.stack[ply].pos.Hash()
	i := ply
	for ; i >= 2; i -= 2 {
		if !t.stack[i].reversible || !t.stack[i-1].reversible {
			return false
		}
		if t.stack[i-2].pos.Hash() == h {
			return true
		}
	}
	if i == 1 && !t.stack[1].reversible {
		return false
	}
	// The whole path is reversible: look into the game.
	return t.past.has(h)
}

// hashSet is a set of position hashes with open addressing, for the
// positions of the game before the root.
type hashSet struct {
	slots []uint64
	zero  bool // 0 is the empty slot, so a hash of 0 is kept aside
}

func (hs *hashSet) reset(keys []uint64) {
	// A power of two at most a quarter full: probes stay short.
	size := 16
	for size < 4*len(keys) {
		size *= 2
	}
	if cap(hs.slots) >= size {
		hs.slots = hs.slots[:size]
		clear(hs.slots)
	} else {
		hs.slots = make([]uint64, size)
	}
	hs.zero = false
	mask := uint64(size - 1)
	for _, k := range keys {
		if k == 0 {
			hs.zero = true
			continue
		}
		i := k & mask
		for hs.slots[i] != 0 && hs.slots[i] != k {
			i = (i + 1) & mask
		}
		hs.slots[i] = k
	}
}

func (hs *hashSet) has(k uint64) bool {
	if k == 0 {
		return hs.zero
	}
	mask := uint64(len(hs.slots) - 1)
	for i := k & mask; hs.slots[i] != 0; i = (i + 1) & mask {
		if hs.slots[i] == k {
			return true
		}
	}
	return false
}

func toTT(s int32, ply int) int32 {
	switch {
	case s >= MateBound:
		return s + int32(ply)
	case s <= -MateBound:
		return s - int32(ply)
	}
	return s
}

func fromTT(s int32, ply int) int32 {
	switch {
	case s >= MateBound:
		return s - int32(ply)
	case s <= -MateBound:
		return s + int32(ply)
	}
	return s
}

// pollInterval is the nodes between two looks at the clock and the
// context (a power of two, for a mask): a fraction of a millisecond, so a
// search stops on time, while the look costs nothing measurable.
const pollInterval = 256

// Late move reductions (see search): a quiet move at the place i of the
// ordering (counted from 0, from 2 on) at depth 3 or more is searched
// lmr[depth][i] plies less, growing with the logarithms of both as in
// Stockfish's formula, a ply less in a PV node, and then again at full
// depth if it beats alpha. The divisor was chosen by self-play among
// 1.25, 1.75 and 2.25, and the formula against the fixed one or two plies
// it replaced (docs/evidence.md).
const (
	lmrMinDepth = 3
	lmrMinMove  = 2
	lmrDivisor  = 1.75
)

var lmr = func() (r [maxPly + 1][rules.MaxMoves]int8) {
	for d := 1; d < len(r); d++ {
		for i := 1; i < len(r[d]); i++ {
			r[d][i] = int8(0.5 + math.Log(float64(d))*math.Log(float64(i))/lmrDivisor)
		}
	}
	return r
}()

// singleReplyLimit bounds the single-reply extension (see search): a line
// is extended only while its ply is below this many times the
// iteration's depth. The extension gained +81 Elo in self-play at 25 ms a
// move, with limits of 1, 2 and 3 measured (docs/evidence.md).
const singleReplyLimit = 2

// Null-move pruning (see nullCut): a position so good that, given a free
// move, the opponent still cannot bring the score below beta in a search
// nullReduction + depth/4 plies shallower is cut off without a search of
// its own moves.
const (
	nullMinDepth  = 3
	nullReduction = 2
)

// search is the negamax alpha-beta search of the position at ply.
func (t *thread) search(ply, depth int, alpha, beta int32) int32 {
	t.pvLen[ply] = ply
	t.nodes++
	if t.nodes&(pollInterval-1) == 0 {
		t.poll()
	}
	c := t.ctl
	if c.stop.Load() {
		return 0
	}
	if c.nodeLimit > 0 && t.nodes >= c.nodeLimit && t.id == 0 {
		c.stop.Store(true)
		return 0
	}
	f := &t.stack[ply]
	p := &f.pos
	if ply > t.selDepth {
		t.selDepth = ply
	}
	if t.repeated(ply) {
		return 0
	}
	if p.Lost() {
		return -Mate + int32(ply)
	}
	if s, ok := t.probe(p, ply); ok {
		return s
	}
	capture := p.CanCapture()
	if (depth <= 0 && !capture) || ply >= maxPly {
		if !capture && !p.HasQuietMove() {
			// Blocked at the horizon: a draw (RULES 6.2), which the
			// evaluation, counting men, would score as the material
			// says. A player down to one column in a corner is often
			// saved so, and the side ahead must see it coming.
			return 0
		}
		return t.eval.Evaluate(p)
	}
	depth = max(depth, 0)
	pvNode := beta-alpha > 1

	// The table serves the nodes of depth 1 and more. At depth 0 only
	// the compulsory captures beyond the horizon are searched, a node for
	// each step of a chain: looked up and stored there, the table made
	// the search slower (a cache miss a node) and also larger (23% more
	// nodes to the bench's depth 10; looked up without storing, 6%), and
	// without it the engine gained about 20 Elo at 100 ms a move
	// (docs/evidence.md, "The table beyond the horizon").
	useTT := depth > 0
	key := p.Hash()
	ttMove := uint8(noMove)
	var e entry
	var hit bool
	if useTT {
		e, hit = t.e.tt.probe(key)
	}
	if hit {
		ttMove = e.move
		if !pvNode && e.depth >= depth {
			s := fromTT(e.score, ply)
			switch {
			case e.bound == boundExact,
				e.bound == boundLower && s >= beta,
				e.bound == boundUpper && s <= alpha:
				return s
			}
		}
	}

	if !pvNode && !capture && depth >= nullMinDepth {
		if s, ok := t.nullCut(ply, depth, beta); ok {
			return s
		}
		if c.stop.Load() {
			return 0
		}
	}

	f.moves = p.Legal(f.moves[:0])
	n := len(f.moves)
	if n == 0 {
		return 0 // no legal move: a draw (RULES 6.2)
	}
	if f.moves[0].Len() > t.sight {
		// A capture beyond the horizon of a weak level (Limits.Horizon):
		// every move of the position is as long, and the level does not
		// see it.
		return t.eval.Evaluate(p)
	}
	// A position with a single legal move, most often a capture forced on
	// the side to move (captures are compulsory and the majority rule
	// leaves one capture more often than not, RULES 3.5-3.6), is searched
	// a ply deeper: the move costs nothing to choose, and a line of forced
	// moves is where a horizon does most harm. Beyond singleReplyLimit
	// times the iteration's depth a line is not extended further, so that
	// no line of forced moves grows without end.
	ext := 0
	if n == 1 && ply < singleReplyLimit*t.rootDepth {
		ext = 1
	}
	t.order(f, ply, ttMove)

	best, bestIdx := int32(-Infinity), uint8(noMove)
	origAlpha := alpha
	child := &t.stack[ply+1]
	for i := 0; i < n; i++ {
		idx := t.pick(f, i)
		m := f.moves[idx]
		child.pos = *p
		child.pos.Play(m)
		child.reversible = m.Kind() != rules.Entry
		newDepth := depth - 1 + ext
		var s int32
		if i == 0 {
			s = -t.search(ply+1, newDepth, -beta, -alpha)
		} else {
			r := 0
			if depth >= lmrMinDepth && i >= lmrMinMove && !capture && keyScore(f.keys[i]) < killerScore && !t.e.opts.NoReductions && !child.pos.CanCapture() {
				r = int(lmr[depth][i])
				if pvNode && r > 0 {
					r--
				}
				r = min(r, newDepth-1)
			}
			s = -t.search(ply+1, newDepth-r, -alpha-1, -alpha)
			if s > alpha && r > 0 {
				s = -t.search(ply+1, newDepth, -alpha-1, -alpha)
			}
			if s > alpha && s < beta {
				s = -t.search(ply+1, newDepth, -beta, -alpha)
			}
		}
		if c.stop.Load() {
			return 0
		}
		if s > best {
			best, bestIdx = s, idx
			if s > alpha {
				alpha = s
				t.pv[ply][ply] = m
				copy(t.pv[ply][ply+1:], t.pv[ply+1][ply+1:t.pvLen[ply+1]])
				t.pvLen[ply] = t.pvLen[ply+1]
				if s >= beta {
					t.reward(f, ply, i, depth, p.Side())
					break
				}
			}
		}
	}
	bound := uint8(boundUpper)
	switch {
	case best >= beta:
		bound = boundLower
	case best > origAlpha:
		bound = boundExact
	}
	if useTT {
		t.e.tt.store(key, entry{score: toTT(best, ply), depth: depth, bound: bound, move: bestIdx})
	}
	return best
}

// nullCut tries null-move pruning at a node of depth that is not on the
// principal variation and has no capture to make: the side to move passes
// and the opponent, searched to a reduced depth with a null window at
// beta, cannot reach it. It returns the score to cut off with.
//
// No rule allows a pass (RULES 1.3), and a pass is not always an
// advantage: a player may have to step out of a block or into a jump.
// The test is taken only where such positions are rare: the side to move
// has at least two columns to move and no man in hand (an entry, forced
// while men are in hand, is where a move is most often worse than none),
// the position is not already a pass's answer, and the evaluation is at
// least beta. Self-play measured the cut with and without the
// conditions on the hands (docs/evidence.md).
func (t *thread) nullCut(ply, depth int, beta int32) (int32, bool) {
	f := &t.stack[ply]
	p := &f.pos
	me := p.Side()
	if ply == 0 || f.null || beta <= -MateBound || beta >= MateBound || p.Hand(me) != 0 ||
		bits.OnesCount64(uint64(p.Owned(me))) < 2 || t.eval.Evaluate(p) < beta {
		return 0, false
	}
	child := &t.stack[ply+1]
	child.pos = *p
	child.pos.PlayNull()
	// A pass breaks the chain of repetitions: the position after it has
	// never occurred (the other side to move).
	child.reversible, child.null = false, true
	s := -t.search(ply+1, depth-1-nullReduction-depth/4, -beta, -beta+1)
	child.null = false
	if t.ctl.stopped() || s < beta {
		return 0, false
	}
	return min(s, MateBound-1), true
}

// probe returns the exact score of p at ply from the Tablebase, if it
// knows p. Only positions with two or three columns and empty hands are
// asked: the tables know no others, and the test costs nothing elsewhere.
func (t *thread) probe(p *rules.Position, ply int) (int32, bool) {
	tb := t.e.opts.Tablebase
	if tb == nil || p.Hand(rules.White)|p.Hand(rules.Black) != 0 || bits.OnesCount64(uint64(p.Occupied())) > 3 {
		return 0, false
	}
	outcome, plies, ok := tb.Probe(p)
	if !ok {
		return 0, false
	}
	t.tbHits++
	switch {
	case outcome > 0:
		return Mate - int32(ply+plies), true
	case outcome < 0:
		return -Mate + int32(ply+plies), true
	}
	return 0, true
}

// Ordering scores: the hash move above the killers, the killers above
// every history score (kept under historyMax).
const (
	hashScore   = 1 << 30
	killerScore = 1 << 24
	// historyMax is where the history of one side is halved: old
	// successes fade, and the scores stay far below killerScore.
	historyMax = 1 << 20
)

// order gives every move of f its key (orderKey): the hash move first,
// then the killers, then by history.
func (t *thread) order(f *frame, ply int, ttMove uint8) {
	side := f.pos.Side()
	k := &t.killers[ply]
	for i, m := range f.moves {
		var s int32
		switch {
		case uint8(i) == ttMove:
			s = hashScore
		case m == k[0]:
			s = killerScore + 1
		case m == k[1]:
			s = killerScore
		default:
			s = t.hist[side][m.From()][m.To()]
		}
		f.keys[i] = orderKey(s, i)
	}
	f.sorted = false
}

// sortFrom is the place in the ordering from which the moves left are
// sorted at once rather than picked one by one: most nodes cut off after
// one or two moves, and a node that does not searches them all, where
// picking one at a time costs the square of their number (eighty entries
// on an empty 9x9 board).
const sortFrom = 2

// pick returns the index, in generation order, of the move to search at
// place i: the best-scored move left, found by a selection sort step for
// the first places and by sorting the rest at sortFrom.
func (t *thread) pick(f *frame, i int) uint8 {
	if f.sorted {
		return keyIndex(f.keys[i])
	}
	n := len(f.moves)
	if i >= sortFrom {
		slices.Sort(f.keys[i:n])
		f.sorted = true
		return keyIndex(f.keys[i])
	}
	b := i
	for j := i + 1; j < n; j++ {
		if f.keys[j] < f.keys[b] {
			b = j
		}
	}
	f.keys[i], f.keys[b] = f.keys[b], f.keys[i]
	return keyIndex(f.keys[i])
}

// reward updates killers and history after the move at place i of f cut
// off, and lowers the history of the moves tried before it.
func (t *thread) reward(f *frame, ply, i, depth int, side rules.Color) {
	m := f.moves[keyIndex(f.keys[i])]
	bonus := int32(depth * depth)
	if k := &t.killers[ply]; k[0] != m {
		k[1], k[0] = k[0], m
	}
	h := &t.hist[side]
	h[m.From()][m.To()] += bonus
	for j := 0; j < i; j++ {
		o := f.moves[keyIndex(f.keys[j])]
		h[o.From()][o.To()] -= bonus
	}
	if h[m.From()][m.To()] > historyMax {
		for a := range h {
			for b := range h[a] {
				h[a][b] /= 2
			}
		}
	}
}
