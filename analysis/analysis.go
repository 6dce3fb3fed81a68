// Package analysis annotates finished games with the engine's judgement:
// for every move, the evaluation of the position before it and the
// engine's best move there, the evaluation after the move played, and
// what the move cost its player, marked `?` (a mistake) or `??` (a
// blunder) above a threshold. It also draws the evaluation over a game as
// an SVG chart.
//
// Evaluations are in hundredths of a man. MoveNote keeps them from White's
// point of view, as the comments and the chart show them; the loss of a
// move is from its player's point of view, never negative.
package analysis

import (
	"context"
	"errors"
	"time"

	"emergo/notation"
	"emergo/player"
	"emergo/rules"
)

// DefaultDepth is the search depth when Options give neither a depth nor a
// time. A fixed depth makes the analysis the same on every machine.
const DefaultDepth = 6

// DefaultThreshold is the loss, in hundredths of a man, from which a move
// is a mistake; three times as much makes a blunder.
const DefaultThreshold = 100

// Clamp bounds the evaluations that losses are computed from and that the
// chart shows: ten men. Beyond it a game is decided, and the difference
// between winning by twelve men or by a forced win is no mistake.
const Clamp = 1000

// Mark grades a move by its loss.
type Mark uint8

const (
	Good    Mark = iota // a loss under the threshold
	Mistake             // a loss of the threshold or more: "?"
	Blunder             // a loss of three times the threshold or more: "??"
)

// String returns the glyph of m: "", "?" or "??".
func (m Mark) String() string {
	switch m {
	case Mistake:
		return "?"
	case Blunder:
		return "??"
	}
	return ""
}

// Name returns "mistake" or "blunder", or "" for a good move.
func (m Mark) Name() string {
	switch m {
	case Mistake:
		return "mistake"
	case Blunder:
		return "blunder"
	}
	return ""
}

// MoveNote is the analysis of one move.
type MoveNote struct {
	Ply    int    // index of the move in the game, from 0
	Number string // move number as records write it: "14" for White, "14..." for Black
	Side   rules.Color
	Move   rules.Move
	// Best is the engine's move in the position before Move, and Before
	// the evaluation of that position with it (White's view).
	Best   rules.Move
	Before int32
	// After is the evaluation of the position after Move (White's view):
	// a search of that position, or the result if the move ended the
	// game (Mate for a win, 0 for a draw).
	After int32
	// Loss is what Move cost its player compared with Best, with both
	// evaluations clamped to ±Clamp; never negative.
	Loss  int32
	Mark  Mark
	Depth int // depth reached by the search before the move
}

// Options configure Analyze. With neither Depth nor MoveTime the search
// goes to DefaultDepth.
type Options struct {
	Depth    int
	MoveTime time.Duration
	// Threshold is the loss of a mistake, in hundredths of a man;
	// DefaultThreshold if zero.
	Threshold int32
	// Engine is the search to use; nil for a fresh single-threaded search
	// with the default evaluation. Analyze clears its table first, so the
	// analysis of a game does not depend on what the engine saw before.
	Engine *player.Searcher
	// Progress, if set, is called after each move with the moves done and
	// the moves in all.
	Progress func(done, total int)
	// Info, if set, receives the search's reports (one per completed
	// depth) on the positions before and after every move, for a long
	// analysis to show that it is going on.
	Info func(player.Info)
}

// Analyze searches every position of gm from its start and returns one
// note per move. If ctx is done it stops and returns the notes so far
// with ctx's error.
func Analyze(ctx context.Context, gm *rules.Game, o Options) ([]MoveNote, error) {
	eng := o.Engine
	if eng == nil {
		eng = player.NewSearcher(player.SearchOptions{Threads: 1})
	}
	eng.NewGame()
	threshold := o.Threshold
	if threshold <= 0 {
		threshold = DefaultThreshold
	}
	// The position before a move is searched to the full depth; the one
	// after it one ply less, which is the depth the first search gave each
	// reply: the two evaluations are then measured alike, and a move as
	// good as the best one loses nothing.
	rootLim := player.Limits{Depth: o.Depth, MoveTime: o.MoveTime}
	if rootLim.Depth <= 0 && rootLim.MoveTime <= 0 {
		rootLim.Depth = DefaultDepth
	}
	childLim := rootLim
	if childLim.Depth > 1 {
		childLim.Depth--
	}

	moves := gm.Moves()
	replay := rules.NewGameFrom(gm.Start())
	start := gm.Start()
	first := start.Side()
	notes := make([]MoveNote, 0, len(moves))
	for i, m := range moves {
		p := replay.Position()
		me := p.Side()
		r := eng.Search(ctx, replay, rootLim, o.Info)
		if err := ctx.Err(); err != nil {
			return notes, err
		}
		if r.Move.IsZero() {
			return notes, errors.New("analysis: the search found no move")
		}
		if err := replay.Play(m); err != nil {
			return notes, err
		}
		before := r.Score // the mover's view
		var after int32
		switch {
		case m == r.Move:
			after = onePlyLater(before)
		case replay.Outcome().Over():
			after = outcomeScore(replay.Outcome().Result, me)
		default:
			c := eng.Search(ctx, replay, childLim, o.Info)
			if err := ctx.Err(); err != nil {
				return notes, err
			}
			after = -c.Score
		}
		loss := max(clamp(before)-clamp(after), 0)
		mark := Good
		switch {
		case loss >= 3*threshold:
			mark = Blunder
		case loss >= threshold:
			mark = Mistake
		}
		notes = append(notes, MoveNote{
			Ply:    i,
			Number: notation.MoveNumber(first, i),
			Side:   me,
			Move:   m,
			Best:   r.Move,
			Before: whiteView(before, me),
			After:  whiteView(after, me),
			Loss:   loss,
			Mark:   mark,
			Depth:  r.Depth,
		})
		if o.Progress != nil {
			o.Progress(i+1, len(moves))
		}
	}
	return notes, nil
}

// onePlyLater returns a score of the position before a move as a score of
// the position after it, for the same player: a forced win or loss is one
// ply nearer.
func onePlyLater(s int32) int32 {
	switch {
	case s >= player.MateBound:
		return s + 1
	case s <= -player.MateBound:
		return s - 1
	}
	return s
}

// outcomeScore is the score of a finished game for player c.
func outcomeScore(r rules.Result, c rules.Color) int32 {
	switch {
	case r == rules.Draw:
		return 0
	case (r == rules.WhiteWins) == (c == rules.White):
		return player.Mate
	}
	return -player.Mate
}

// whiteView turns a score for player c into one for White.
func whiteView(s int32, c rules.Color) int32 {
	if c == rules.Black {
		return -s
	}
	return s
}

func clamp(s int32) int32 { return min(max(s, -Clamp), Clamp) }

// Summary counts a game's marked moves and average losses per player,
// indexed by colour.
type Summary struct {
	Moves    [2]int
	Mistakes [2]int // moves marked "?"
	Blunders [2]int // moves marked "??"
	// AvgLoss is the mean loss per move, in hundredths of a man.
	AvgLoss [2]float64
}

// Summarize adds up notes.
func Summarize(notes []MoveNote) Summary {
	var s Summary
	var total [2]int64
	for _, n := range notes {
		s.Moves[n.Side]++
		total[n.Side] += int64(n.Loss)
		switch n.Mark {
		case Mistake:
			s.Mistakes[n.Side]++
		case Blunder:
			s.Blunders[n.Side]++
		}
	}
	for c := range total {
		if s.Moves[c] > 0 {
			s.AvgLoss[c] = float64(total[c]) / float64(s.Moves[c])
		}
	}
	return s
}
