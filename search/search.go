// Package search finds good Emergo moves: a negamax alpha-beta search over
// the rules package's copy-make positions. Techniques, with references:
//
//   - Iterative deepening with aspiration windows around the previous
//     iteration's score (Slate and Atkin, "Chess 4.5", 1977).
//   - Principal variation search: null windows for all moves after the
//     first, re-searched on a fail high (Marsland and Campbell, 1982).
//   - A shared transposition table with lockless entries (Hyatt and Mann,
//     "A lockless transposition-table implementation", 2002) and a
//     depth-preferred, age-aware replacement in buckets of four.
//   - Move ordering: the hash move, then killer moves (Akl and Newborn,
//     1977), then the history heuristic (Schaeffer, 1989).
//   - Capture extension instead of a quiescence search: captures are
//     compulsory in Emergo (RULES 3.5), so a position where the side to
//     move must capture is never a leaf; the search goes on through the
//     forced captures until a quiet position is reached.
//   - Single-reply extension: a position with one legal move, most often
//     a forced capture, is searched a ply deeper (+81 Elo in self-play at
//     25 ms a move, docs/evidence.md).
//   - Late move reductions for quiet moves that come late in the order at
//     sufficient depth, growing with the logarithms of depth and move
//     number, re-searched at full depth when they beat alpha; null-move
//     pruning where a pass is seldom an advantage (no man in hand, two
//     columns or more: a player with no move only draws, so zugzwang is
//     common in the endgame). Together +60 Elo at 100 ms a move against
//     the search without them (docs/evidence.md). Futility pruning, late
//     move pruning, reverse futility and ProbCut were tried and dropped.
//   - Repetitions on the path or in the game since the last entry score
//     as a draw (RULES 6.3).
//   - Several best lines (MultiPV) by searching the root moves after the
//     best ones again; several threads by Lazy SMP over the shared table.
//
// The search allocates nothing per node: each thread owns fixed stacks of
// positions and move buffers. Programs reach it through package player,
// which pairs it with the evaluation.
package search

import (
	"context"
	"slices"
	"time"

	"emergo/rules"
)

// Evaluator scores a position for the side to move, in hundredths of a
// man. eval.Weights satisfies it.
type Evaluator interface {
	Evaluate(p *rules.Position) int32
}

// Score bounds. A won position scores Mate minus the plies to the win.
// Every score fits the 16 bits the table keeps of it.
const (
	Mate     = 30000
	Infinity = 32000 // above every score
	// MateBound separates mate scores from ordinary ones: no win is
	// further than maxPly plies, and no evaluation comes near it.
	MateBound = Mate - 1000
)

// MateIn reads a score of the side to move as a forced end: the moves
// of the side to move until it wins (positive) or, negative, until it
// loses, counted as UCI counts them ((plies+1)/2, so a win on its next
// move is 1); 0 when the game is already decided. ok is false for a score
// that announces no forced end.
func MateIn(s int32) (moves int, ok bool) {
	switch {
	case s >= MateBound:
		return int(Mate-s+1) / 2, true
	case s <= -MateBound:
		return -int(Mate+s+1) / 2, true
	}
	return 0, false
}

const (
	// maxPly is the depth of a thread's stacks, far beyond the depths
	// reached in play. Forced captures extend a line beyond its nominal
	// depth (a position with a capture is never a leaf); at maxPly the
	// search evaluates whatever the position, which ends the rare line
	// of captures that frees men to capture again and again.
	maxPly = 128
	// maxDepth is the deepest iteration: some plies short of maxPly, so
	// that even its leaves go on through the captures that follow them.
	maxDepth = maxPly - 8
	// noMove is the move index that stands for none in the table. Move
	// indices are bytes (rules.MaxMoves is 256); a 256th move would share
	// its index and only go unremembered as a hash move.
	noMove = 255
	// defaultHashMiB is the table of Options with no size, the same as
	// the protocol's default Hash: a million entries, which a second's
	// search on one core fills a few times over, replacing the oldest.
	defaultHashMiB = 16
)

// A thread keeps the moves of a position by their index in a byte: the
// build fails if rules.MaxMoves outgrows it.
const _ = uint8(rules.MaxMoves - 1)

// Limits say when to stop. Zero values mean no limit of that kind; with
// none at all the search runs until its context is cancelled.
type Limits struct {
	Depth    int
	Nodes    uint64
	MoveTime time.Duration
	// Time and Inc are the clock of the side to move; MovesToGo, if set,
	// the moves left until the next time control.
	Time, Inc time.Duration
	MovesToGo int
	// MultiPV is the number of best lines to find (at least 1).
	MultiPV int
	// Horizon, if positive, is the longest capture, in jumps, that the
	// search sees beyond the root: a position of its tree whose capture
	// (the majority rule makes every capture of a position as long, RULES
	// 3.6) takes more men is scored by the evaluation as it stands, as if
	// the capture were not there. The moves of the root are all searched.
	// It weakens the engine as a beginner is weak, who misses the long
	// sequences of jumps that the majority rule forces on either side.
	Horizon int
	// Eval, if set, replaces the engine's evaluation in this search (a
	// simpler judgement for a weak level). The table keeps no account of
	// which evaluation stored an entry: a program that changes Eval or
	// Horizon between searches of one Engine calls NewGame in between.
	Eval Evaluator
}

// Bound says what a score is: the exact value of the line, or only a
// bound on it. Completed iterations give exact scores; an iteration cut
// short by the limits may leave a bound.
type Bound uint8

const (
	Exact      Bound = iota
	LowerBound       // the value is at least the score
	UpperBound       // the value is at most the score
)

// Line is one principal variation of a MultiPV search.
type Line struct {
	Score int32
	Bound Bound
	PV    []rules.Move
}

// Info is a progress report, sent after every completed iteration, and
// for an iteration cut short whose result is taken (see Engine.Search).
type Info struct {
	Depth    int
	SelDepth int
	MultiPV  int // 1 for the best line
	Score    int32
	Bound    Bound
	Nodes    uint64
	Time     time.Duration
	NPS      uint64
	HashFull int    // permille
	TBHits   uint64 // positions whose value the Tablebase gave
	PV       []rules.Move
}

// Result is what a search found.
type Result struct {
	Move  rules.Move // the zero Move if the position has no legal move
	Score int32
	Depth int
	Nodes uint64
	Time  time.Duration
	Lines []Line // the best lines, Lines[0] being the chosen one
}

// Options configure an Engine.
type Options struct {
	HashMiB int // transposition table size, default 16
	Threads int // default 1
	Eval    Evaluator
	// NoReductions turns late move reductions off, for measuring them.
	NoReductions bool
	// Tablebase, if set, gives the exact value of the positions it
	// knows, which the search takes instead of searching them.
	Tablebase Tablebase
}

// Tablebase knows the exact value of some positions: package egtb's
// tables of two columns.
type Tablebase interface {
	// Probe returns, for a position it knows, the outcome for the side to
	// move (+1 a win, 0 a draw, -1 a loss) and the plies to the end.
	Probe(p *rules.Position) (outcome, plies int, ok bool)
}

// Engine searches positions. It keeps its transposition table between
// searches; call NewGame to forget. An Engine runs one search at a time.
type Engine struct {
	opts    Options
	tt      *table
	threads []*thread
}

// New returns an engine with opts.
func New(opts Options) *Engine {
	if opts.HashMiB <= 0 {
		opts.HashMiB = defaultHashMiB
	}
	if opts.Threads <= 0 {
		opts.Threads = 1
	}
	e := &Engine{opts: opts, tt: newTable(opts.HashMiB)}
	e.threads = make([]*thread, opts.Threads)
	for i := range e.threads {
		e.threads[i] = newThread(e, i)
	}
	return e
}

// NewGame clears the transposition table and the move-ordering memory, so
// that a search depends only on its position and limits.
func (e *Engine) NewGame() {
	e.tt.clear()
	for _, t := range e.threads {
		t.reset()
	}
}

// HistoryOf returns the hashes of the positions of g before the current
// one, back to the last entry (the only move that cannot be undone, see
// rules.Game.Occurrences): what the search needs to see repetitions that
// reach into the game.
func HistoryOf(g *rules.Game) []uint64 {
	moves := g.Moves()
	var h []uint64
	for i := len(moves) - 1; i >= 0 && moves[i].Kind() != rules.Entry; i-- {
		h = append(h, g.HashAt(i))
	}
	// Oldest first.
	for i, j := 0, len(h)-1; i < j; i, j = i+1, j-1 {
		h[i], h[j] = h[j], h[i]
	}
	return h
}

// Search looks for the best move of root. history holds the hashes of the
// earlier positions of the game since the last irreversible move (see
// HistoryOf), oldest first. info, if not nil, is called with the lines of
// each iteration. The search stops at the limits or when ctx is done, and
// returns the best move of the last completed iteration, or of the
// iteration it stopped in if that iteration's best move was searched fully
// and beat the previous one. Either way the last lines reported are those
// of the result, so that the move played is the one last reported. The
// first iteration always runs to its end, so that a position with a legal
// move always gets a move with a score and a line; limited by time alone
// (a time per move or a clock, see budget), a position with one legal
// move gets it at once, unsearched, with the score the table or the
// evaluation gives.
func (e *Engine) Search(ctx context.Context, root rules.Position, history []uint64, lim Limits, info func(Info)) Result {
	start := time.Now()
	e.tt.age = (e.tt.age + 1) & ageMask
	tm := newTimeManager(lim, &root)
	ctl := &control{ctx: ctx, start: start, hard: tm.hard, nodeLimit: lim.Nodes}
	lastDepth := lim.Depth
	if lastDepth <= 0 || lastDepth > maxDepth {
		lastDepth = maxDepth
	}
	multiPV := max(lim.MultiPV, 1)

	main := e.threads[0]
	main.setup(root, history, lim, ctl)
	if len(main.root) == 0 {
		return Result{Score: main.terminalScore(), Time: time.Since(start)}
	}
	if len(main.root) == 1 && tm.clocked() && lim.Depth == 0 && lim.Nodes == 0 && multiPV == 1 {
		// A forced move needs no thought on the clock: it is played at
		// once, with the score the table may know of it. A search with a
		// depth, nodes or several lines asked is analysis, and searches.
		res := main.forced()
		res.Time = time.Since(start)
		if info != nil {
			info(Info{MultiPV: 1, Score: res.Score, Bound: res.Lines[0].Bound, Time: res.Time,
				HashFull: e.tt.usage(), PV: slices.Clone(res.Lines[0].PV)})
		}
		return res
	}
	multiPV = min(multiPV, len(main.root))
	helpers := e.threads[1:]
	done := make(chan struct{})
	for i, t := range helpers {
		t.setup(root, history, lim, ctl)
		go func(t *thread, i int) {
			defer func() { done <- struct{}{} }()
			// Helpers search the same iterations at staggered depths and
			// share what they find through the table.
			for d := 1 + (i % 2); d <= lastDepth && !ctl.stopped(); d++ {
				t.iterate(d, 1)
			}
		}(t, i)
	}

	var res Result
	for depth := 1; depth <= lastDepth; depth++ {
		if depth == 1 {
			// One ply and the forced captures after it: a moment, which
			// no limit cuts short.
			main.ctl = &control{ctx: context.Background(), start: start}
			main.iterate(1, multiPV)
			main.ctl = ctl
			main.poll()
		} else {
			main.iterate(depth, multiPV)
		}
		stopped := ctl.stopped()
		if stopped && main.root[0].score == -Infinity {
			break // the iteration's best move is not searched to its end
		}
		res = main.result(depth, multiPV)
		if info != nil {
			el := time.Since(start)
			nodes := ctl.totalNodes(e.threads)
			hits := ctl.totalHits(e.threads)
			for k, l := range res.Lines {
				info(Info{
					Depth: depth, SelDepth: main.selDepth, MultiPV: k + 1,
					Score: l.Score, Bound: l.Bound, Nodes: nodes, Time: el,
					NPS:      uint64(float64(nodes) / max(el.Seconds(), 1e-9)),
					HashFull: e.tt.usage(), TBHits: hits, PV: slices.Clone(l.PV),
				})
			}
		}
		if stopped {
			break
		}
		if tm.wantsObviousCheck(depth) {
			tm.settleObvious(main.obvious(depth))
		}
		if !tm.next(depth, res.Move, res.Score, time.Since(start)) {
			break
		}
		if abs(res.Score) >= MateBound && depth >= int(Mate-abs(res.Score))+2 {
			break // the mate is found and proven deeper than its length
		}
	}
	ctl.stop.Store(true)
	for range helpers {
		<-done
	}
	res.Nodes = ctl.totalNodes(e.threads)
	res.Time = time.Since(start)
	return res
}

func abs(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}
