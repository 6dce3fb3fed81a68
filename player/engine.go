package player

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"emergo/eval"
	"emergo/rules"
)

var errNoMove = errors.New("player: the position has no legal move")

// Level is one playing strength of the engine. Limits by depth and nodes
// make a level the same on every machine; Margin adds controlled noise:
// the engine picks among the moves that score within Margin of the best,
// favouring the better ones, so that weak levels play plausible moves but
// not the best ones, and never give away a man outright.
//
// Horizon and Eval weaken a level as a beginner is weak rather than by
// noise alone: a level with a Horizon does not see, inside its search,
// captures of more jumps than that (the long sequences that the majority
// rule forces, RULES 3.6; search.Limits.Horizon), and a level with an
// Eval judges positions by that simpler evaluation (eval.Beginner,
// eval.Novice) instead of the engine's.
type Level struct {
	Depth   int
	Nodes   uint64
	Margin  int32 // hundredths of a man
	Horizon int   // jumps; 0 for no horizon
	Eval    *eval.Weights
}

// Evals names the simplified evaluations of the weak levels, for tools
// that set a Level's Eval by name.
var Evals = map[string]*eval.Weights{"beginner": &eval.Beginner, "novice": &eval.Novice}

// String says how the level plays, for the levels' tables: "depth 2,
// sees captures of up to 2 jumps, novice evaluation, within 0.40 of the
// best".
func (l Level) String() string {
	var parts []string
	if l.Depth > 0 {
		parts = append(parts, fmt.Sprintf("depth %d", l.Depth))
	}
	if l.Nodes > 0 {
		parts = append(parts, fmt.Sprintf("%d nodes", l.Nodes))
	}
	switch {
	case l.Horizon == 1:
		parts = append(parts, "sees captures of up to 1 jump")
	case l.Horizon > 1:
		parts = append(parts, fmt.Sprintf("sees captures of up to %d jumps", l.Horizon))
	}
	for name, w := range Evals {
		if l.Eval == w {
			parts = append(parts, name+" evaluation")
		}
	}
	if l.Margin > 0 {
		parts = append(parts, fmt.Sprintf("within %d.%02d of the best", l.Margin/100, l.Margin%100))
	}
	if len(parts) == 0 {
		return "full strength, by the clock"
	}
	return strings.Join(parts, ", ")
}

// MaxLevel is the engine's full strength, limited only by the clock; the
// levels are 1 to MaxLevel.
const MaxLevel = 10

// Levels are the engine's levels 1 to MaxLevel (index 0 is unused),
// spaced about evenly in Elo (LevelElo, docs/strength.md). Level 1 is a
// beginner who has just learned the rules: it counts columns instead of
// free men, looks one move ahead, misses every capture of two jumps or
// more, and chooses loosely. Levels 2 and 3 count free men and see
// captures of two jumps, one and two plies deep, level 3 choosing
// loosely; levels 4 and 5 judge as the engine does, two and three plies
// deep, blind to captures of more than four and three jumps; levels 6 to
// 9 search a number of nodes (the first two still blind to the longest
// captures), and level 10 is the full engine, limited by its clock
// alone. Levels 1 to 5 choose among the moves near the best, for
// variety. The limits were set by matches of each level against its
// neighbours (docs/strength.md, "How the levels were spaced").
var Levels = [MaxLevel + 1]Level{
	1:  {Depth: 1, Horizon: 1, Eval: &eval.Beginner, Margin: 80},
	2:  {Depth: 1, Horizon: 2, Eval: &eval.Novice, Margin: 40},
	3:  {Depth: 2, Horizon: 2, Eval: &eval.Novice, Margin: 150},
	4:  {Depth: 2, Horizon: 4, Margin: 20},
	5:  {Depth: 3, Horizon: 3, Margin: 10},
	6:  {Nodes: 1_300, Horizon: 4},
	7:  {Nodes: 3_000, Horizon: 5},
	8:  {Nodes: 10_000},
	9:  {Nodes: 30_000},
	10: {},
}

// DefaultMoveTime is what MaxLevel thinks when given no clock.
const DefaultMoveTime = time.Second

// DrawOfferDepth is the depth of the search with which the engine answers
// a draw offer: the person who offered waits for the answer, and a short
// search tells a lost position from a sound one.
const DrawOfferDepth = 6

// drawThreshold is the score, in hundredths of a man, below which the
// engine takes a draw: behind by more than a man, the unit of the
// evaluation, it prefers the half point to playing on.
const drawThreshold = -100

// AcceptsDraw reports whether the engine takes a draw offered in a
// position that it scores score for itself.
func AcceptsDraw(score int32) bool { return score < drawThreshold }

// moveOverhead is what a move costs beside the search on a fixed move
// time: the protocol's lines and the scheduling of the process, a few
// milliseconds on a loaded machine.
const moveOverhead = 5 * time.Millisecond

// Engine is the searching player at a level.
type Engine struct {
	level  int
	lv     Level
	search *Searcher
	rng    *rand.Rand
	// Info, if set, receives the search's progress reports. The last
	// report of the first line before Move returns is the line of the move
	// played, the noise of the weak levels included.
	Info func(Info)
	// MultiPV, if more than the level searches, is the number of best
	// lines to search and report.
	MultiPV int
}

// EngineOptions configure NewEngine.
type EngineOptions struct {
	HashMiB int
	Threads int
	Seed    uint64
	Weights *eval.Weights // nil for eval.Default
	// Limits, if set, replace the limits of the level (which still names
	// the engine and seeds its noise): for tools that need settings that
	// do not move when the levels are recalibrated.
	Limits *Level
	// Search, if set, is the search to use (a server's workers reuse
	// their searches and tables); HashMiB, Threads and Weights are then
	// ignored.
	Search *Searcher
}

// NewEngine returns the engine at level 1 to MaxLevel.
func NewEngine(level int, o EngineOptions) (*Engine, error) {
	if level < 1 || level > MaxLevel {
		return nil, fmt.Errorf("player: level %d: levels are 1 to %d", level, MaxLevel)
	}
	se := o.Search
	if se == nil {
		se = NewSearcher(SearchOptions{HashMiB: o.HashMiB, Threads: o.Threads, Weights: o.Weights})
	}
	lv := Levels[level]
	if o.Limits != nil {
		lv = *o.Limits
	}
	return &Engine{
		level:  level,
		lv:     lv,
		search: se,
		rng:    rand.New(rand.NewPCG(o.Seed, uint64(level))),
	}, nil
}

func (e *Engine) Name() string { return fmt.Sprintf("emergo-level%d", e.level) }

// Level returns the engine's level.
func (e *Engine) Level() int { return e.level }

// NewGame forgets what the engine learned in the previous game.
func (e *Engine) NewGame() { e.search.NewGame() }

// Search returns the engine's search, for analysis with limits other than
// the level's.
func (e *Engine) Search() *Searcher { return e.search }

// noisyLines is the number of best lines a level with a Margin searches to
// choose among: enough for the weak levels to vary their play, while each
// line costs nearly a search of its own.
const noisyLines = 6

// Limits returns the search limits of the level for a move under c.
func (e *Engine) Limits(side rules.Color, c Clock) Limits {
	lim := Limits{Depth: e.lv.Depth, Nodes: e.lv.Nodes, MoveTime: moveTimeBudget(c.MoveTime)}
	if c.MoveTime == 0 && c.Time[side] > 0 {
		lim.Time, lim.Inc = c.Time[side], c.Inc[side]
	}
	if e.level == MaxLevel && lim.MoveTime == 0 && lim.Time == 0 && lim.Depth == 0 && lim.Nodes == 0 {
		lim.MoveTime = DefaultMoveTime
	}
	if e.lv.Margin > 0 {
		lim.MultiPV = noisyLines
	}
	lim.Horizon = e.lv.Horizon
	if e.lv.Eval != nil {
		lim.Eval = e.lv.Eval
	}
	lim.MultiPV = max(lim.MultiPV, e.MultiPV)
	return lim
}

// moveTimeBudget is the part of a fixed move time the search may use:
// nine tenths of it less moveOverhead, and at least half. The rest covers
// what happens around the search (the protocol, the process, a busy
// machine), so that the move arrives in time.
func moveTimeBudget(t time.Duration) time.Duration {
	if t <= 0 {
		return 0
	}
	return max(t*9/10-moveOverhead, t/2)
}

func (e *Engine) Move(ctx context.Context, g *rules.Game, c Clock) (rules.Move, error) {
	m, _, err := e.Choose(ctx, g, c)
	return m, err
}

// Choose is Move, and the score of the position for the side to move that
// the search found (its best line's, whichever move the level plays): the
// labels of the positions of self-play (package tune).
func (e *Engine) Choose(ctx context.Context, g *rules.Game, c Clock) (rules.Move, int32, error) {
	if len(g.Legal()) == 0 {
		return rules.Move{}, 0, errNoMove
	}
	p := g.Position()
	lim := e.Limits(p.Side(), c)
	var last Info // the last report of the first line
	report := e.Info
	if report != nil {
		report = func(in Info) {
			if in.MultiPV == 1 {
				last = in
			}
			e.Info(in)
		}
	}
	res := e.search.Search(ctx, g, lim, report)
	if e.lv.Margin > 0 && len(res.Lines) > 1 {
		l := e.noisy(res)
		if l.PV[0] != res.Move && e.Info != nil {
			// Report the line played as the first, so that the last report
			// is the move played.
			last.Score, last.Bound, last.PV = l.Score, l.Bound, l.PV
			e.Info(last)
		}
		return l.PV[0], res.Score, nil
	}
	return res.Move, res.Score, nil
}

// noisy picks among the lines within the margin of the best, with weights
// falling linearly from the best line to the edge of the margin.
func (e *Engine) noisy(res Result) Line {
	best := res.Lines[0].Score
	total := int32(0)
	for _, l := range res.Lines {
		if d := best - l.Score; d <= e.lv.Margin {
			total += e.lv.Margin - d + 1
		}
	}
	r := e.rng.Int32N(total)
	for _, l := range res.Lines {
		if d := best - l.Score; d <= e.lv.Margin {
			r -= e.lv.Margin - d + 1
			if r < 0 {
				return l
			}
		}
	}
	return res.Lines[0]
}
