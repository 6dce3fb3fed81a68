package player

import (
	"context"
	"time"

	"emergo/egtb"
	"emergo/eval"
	"emergo/rules"
	"emergo/search"
)

// The search's vocabulary, named here so that the programs above player
// (the protocol, the server, analysis, matches) reach the search only
// through this package. They are aliases: the values are the search's own,
// with no conversion on the way.
type (
	// Limits say when a search stops: depth, nodes, a move time or a
	// clock, and how many best lines it finds (MultiPV).
	Limits = search.Limits
	// Info is a progress report: one per line after each iteration.
	Info = search.Info
	// Line is one of the best lines of a search.
	Line = search.Line
	// Result is what a search found.
	Result = search.Result
	// Bound says whether a score is exact or a bound.
	Bound = search.Bound
)

// The kinds of Bound.
const (
	Exact      = search.Exact
	LowerBound = search.LowerBound
	UpperBound = search.UpperBound
)

// Scores are in hundredths of a free man, for the side to move. A won
// position scores Mate minus the plies to the win; every score from
// MateBound up is a forced win, every score from -MateBound down a forced
// loss.
const (
	Mate      = search.Mate
	MateBound = search.MateBound
)

// MateIn reads a score as moves to a forced end: positive to a win of the
// side to move, negative to its loss, 0 for a game already decided; ok is
// false for a score that announces none (see search.MateIn).
func MateIn(s int32) (moves int, ok bool) { return search.MateIn(s) }

// TableValue is what the endgame tables say of a position (egtb.Value).
type TableValue = egtb.Value

// ProbeTables returns the endgame tables' value of p, if p is a position
// of the tables: two columns, one of each player, and no man in hand.
func ProbeTables(p *rules.Position) (TableValue, bool) { return egtb.Probe(p) }

// BenchDepth is the depth of the bench search.
const BenchDepth = search.BenchDepth

// BenchPositions returns the fixed positions of the bench.
func BenchPositions() []rules.Position { return search.BenchPositions() }

// Searcher is the engine's search with its evaluation and its
// transposition table: what a program that analyses positions holds. It
// keeps its table between searches (NewGame forgets it) and runs one
// search at a time.
type Searcher struct {
	e *search.Engine
	// judged is what the last search saw with: its Eval and Horizon. The
	// table does not know which judgement stored an entry, so a search
	// that judges otherwise starts from a clear one.
	judged judgement
}

// judgement is what weakens a search's sight: Limits.Eval and
// Limits.Horizon.
type judgement struct {
	eval    search.Evaluator
	horizon int
}

// SearchOptions configure NewSearcher.
type SearchOptions struct {
	HashMiB int           // table size in MiB, default 16
	Threads int           // default 1
	Weights *eval.Weights // nil for eval.Default
	// NoTables leaves the endgame tables (package egtb) out of the
	// search, for measuring them.
	NoTables bool
}

// tables gives the search the endgame tables' values.
type tables struct{}

func (tables) Probe(p *rules.Position) (outcome, plies int, ok bool) {
	v, ok := egtb.Probe(p)
	return v.Outcome, v.Plies, ok
}

// NewSearcher returns a search with the options' table, threads and
// evaluation.
func NewSearcher(o SearchOptions) *Searcher {
	w := o.Weights
	if w == nil {
		w = &eval.Default
	}
	so := search.Options{HashMiB: o.HashMiB, Threads: o.Threads, Eval: w}
	if !o.NoTables {
		so.Tablebase = tables{}
		egtb.Preload()
	}
	return &Searcher{e: search.New(so)}
}

// NewGame clears the table and the move-ordering memory, so that the next
// search depends only on its position and limits.
func (s *Searcher) NewGame() { s.e.NewGame() }

// Search searches the current position of g to lim. The positions of g
// since its last entry are the history in which the search sees
// repetitions (RULES 6.3). info, if not nil, receives the lines of every
// iteration; the last lines reported are those of the result.
//
// A search whose Limits.Eval or Limits.Horizon differ from the previous
// search's starts from a clear table, as after NewGame: the entries of a
// weak level's search are no values for another's.
func (s *Searcher) Search(ctx context.Context, g *rules.Game, lim Limits, info func(Info)) Result {
	if j := (judgement{lim.Eval, lim.Horizon}); j != s.judged {
		s.e.NewGame()
		s.judged = j
	}
	return s.e.Search(ctx, g.Position(), search.HistoryOf(g), lim, info)
}

// Bench searches every bench position to depth on a fresh table and
// returns the total nodes, the build's signature, and the time taken. It
// leaves the last position's search in the table.
func (s *Searcher) Bench(depth int) (nodes uint64, elapsed time.Duration) {
	s.judged = judgement{}
	return search.Bench(s.e, depth)
}
