package search

import (
	"math/bits"
	"time"

	"emergo/rules"
)

// Time management on a clock, as strong engines do it. budget divides the
// time left among the moves expected to come and adds most of the
// increment: the soft limit, the time a move normally takes. The hard
// limit, where the search is aborted, is a few soft limits but never more
// than a twentieth of the clock plus the increment. Between the two, a
// timeManager decides after every iteration whether to go on: longer when
// the best move changes or the score falls, shorter when one move stands
// far above the others; the very first entries of a game, where the board
// is empty and every square much like its mirror images, get a fraction.
// A position with one legal move is played at once (Engine.Search).

// The clock's division (see budget).
const (
	// movesToGo is the number of moves the time left is divided among
	// when the limits do not say: each move takes a fortieth of what is
	// left, so the clock is never spent however long the game goes on
	// (games of a hundred moves a side are common), and the earlier
	// moves, with more to decide, get more.
	movesToGo = 40
	// clockReserve is kept back from the clock for what a move costs
	// beside the search: the protocol, the process, a busy machine.
	clockReserve = 50 * time.Millisecond
	// minClock is the least time the division starts from, so that a
	// clock nearly spent still gives a move some thought.
	minClock = 10 * time.Millisecond
	// capShare is the rule of the hard limit: no move takes more than
	// the time left divided by capShare, plus the increment. The search
	// stops at capSafety of that (less clockReserve): on a loaded
	// machine a process may wait a few hundred milliseconds for a core
	// between two looks at the clock.
	capShare  = 20
	capSafety = 0.9
	// maxStretch is how many soft limits the hard one may be.
	maxStretch = 5
)

// openingShare is the part of the soft limit that the first entries get,
// by the number of men on the board: on an empty or nearly empty board
// the entries differ little (the board's symmetry makes most of them
// alike) and a search learns little from more time.
func openingShare(menOnBoard int) (num, den time.Duration) {
	switch {
	case menOnBoard <= 1:
		return 1, 16
	case menOnBoard <= 3:
		return 1, 4
	case menOnBoard <= 5:
		return 1, 2
	}
	return 1, 1
}

// budget turns the limits into a soft limit (the time a move normally
// takes, which the timeManager stretches or shrinks) and a hard one
// (abort the search). A fixed move time is both. On a clock, each move
// gets its share of the time left (less clockReserve) plus three quarters
// of the increment, the opening's share of it on a nearly empty board
// (openingShare); the hard limit is maxStretch soft limits, at most
// capSafety of the time left divided by capShare plus the increment, and
// at most half the time left, so that a large increment never spends a
// small clock. root may be nil.
func budget(lim Limits, root *rules.Position) (soft, hard time.Duration) {
	if lim.MoveTime > 0 {
		return lim.MoveTime, lim.MoveTime
	}
	if lim.Time <= 0 {
		return 0, 0
	}
	togo := lim.MovesToGo
	if togo <= 0 || togo > movesToGo {
		togo = movesToGo
	}
	left := max(lim.Time-clockReserve, minClock)
	soft = left/time.Duration(togo) + lim.Inc*3/4
	stretch := time.Duration(maxStretch)
	if root != nil {
		num, den := openingShare(menOnBoard(root))
		soft = soft * num / den
		if den > 1 {
			stretch = 2 // a quick move stays quick
		}
	}
	rule := lim.Time/capShare + lim.Inc
	hard = min(soft*stretch, time.Duration(float64(rule)*capSafety)-clockReserve, left/2)
	hard = max(hard, minClock)
	soft = min(soft, hard)
	return soft, hard
}

// menOnBoard counts the men on the board of p, prisoners included.
func menOnBoard(p *rules.Position) int {
	n := 0
	for b := p.Occupied(); b != 0; b &= b - 1 {
		n += p.At(rules.Square(bits.TrailingZeros64(uint64(b)))).Height()
	}
	return n
}

// The timeManager's judgement (see next).
const (
	// instabilityGain is the soft limit added, in soft limits, for each
	// change of the best move; the count of changes halves every
	// iteration, so that old changes weigh less.
	instabilityGain = 1.0
	// fallScale is the fall of the score, in hundredths of a man, that
	// doubles the soft limit; a fall counts up to twice that.
	fallScale = 100
	// obviousDepth is the iteration after which the manager asks
	// whether the best move is obvious, obviousMargin how far above
	// every other it must score (at half the depth) to be, and
	// obviousShare the part of the soft limit an obvious move gets.
	obviousDepth  = 6
	obviousMargin = 150
	obviousShare  = 0.25
	// stableDepth is the first iteration whose best move and score the
	// manager watches: the first ones change too much to mean anything.
	stableDepth = 4
)

// timeManager decides, after every completed iteration of a search on a
// clock, whether to start another. It only reads what it is told (the
// iteration's best move and score, the time spent), so that its decisions
// are tested without a clock.
type timeManager struct {
	soft, hard time.Duration
	fixed      bool // a fixed move time: used to its end
	best       rules.Move
	score      int32   // the score of the first watched iteration
	watched    bool    // score is set
	changes    float64 // changes of the best move, halved every iteration
	obvious    bool    // the best move stands far above the others
	checked    bool    // whether it does was asked
}

func newTimeManager(lim Limits, root *rules.Position) *timeManager {
	soft, hard := budget(lim, root)
	return &timeManager{soft: soft, hard: hard, fixed: lim.MoveTime > 0}
}

// clocked reports whether the search is limited by time at all.
func (tm *timeManager) clocked() bool { return tm.hard > 0 }

// target returns the time this move should take, from what the
// iterations so far said: the soft limit stretched by the changes of the
// best move and by a falling score, or shrunk for an obvious move, never
// past the hard limit.
func (tm *timeManager) target(score int32) time.Duration {
	f := 1 + instabilityGain*tm.changes
	if tm.watched {
		if fall := tm.score - score; fall > 0 {
			f *= 1 + float64(min(fall, 2*fallScale))/fallScale
		}
	}
	if tm.obvious {
		f *= obviousShare
	}
	return min(time.Duration(float64(tm.soft)*f), tm.hard)
}

// wantsObviousCheck reports whether, after the iteration at depth, the
// search should ask whether every other root move scores obviousMargin
// below the best (see settleObvious): once per search, on a clock.
func (tm *timeManager) wantsObviousCheck(depth int) bool {
	return tm.clocked() && !tm.fixed && !tm.checked && depth >= obviousDepth
}

// settleObvious records the answer of the obvious check.
func (tm *timeManager) settleObvious(obvious bool) {
	tm.checked, tm.obvious = true, obvious
}

// next records the iteration at depth, with its best move and score,
// ended at elapsed, and reports whether to start the next one: not when
// it would likely end past the target (an iteration costs a few times the
// one before, so not after half of it). A fixed move time is used to its
// end.
func (tm *timeManager) next(depth int, best rules.Move, score int32, elapsed time.Duration) bool {
	if !tm.clocked() || tm.fixed {
		return true
	}
	tm.changes /= 2
	if depth >= stableDepth {
		if !tm.best.IsZero() && best != tm.best {
			tm.changes++
			tm.obvious = false
		}
		if !tm.watched {
			tm.score, tm.watched = score, true
		}
	}
	tm.best = best
	return elapsed < tm.target(score)/2
}
