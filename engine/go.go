package engine

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"emergo/player"
	"emergo/rules"
)

// maxDepth bounds the depth of go and bench; the search itself stops
// somewhat earlier, at its own stack limit.
const maxDepth = 128

// maxMillis bounds the times of go, about 30 years, so that a duration
// never overflows.
const maxMillis = 1_000_000_000_000

// goParams are the fields of a go command.
type goParams struct {
	time, inc [2]time.Duration // by colour; p1 is White
	hasTime   [2]bool
	movesToGo int
	moveTime  time.Duration
	depth     int
	nodes     uint64
	infinite  bool
}

// explicit reports whether the command limits the search itself, which
// overrides the level's own limits.
func (g *goParams) explicit() bool {
	return g.depth > 0 || g.nodes > 0 || g.moveTime > 0 || g.infinite
}

// parseGo reads the fields of go. A field it cannot read is reported
// through bad and ignored; a value that is not a number is not taken, so
// that it is read as the next field ("go movetime depth 3" still searches
// to depth 3).
func parseGo(args []string, bad func(format string, a ...any)) goParams {
	var g goParams
	for i := 0; i < len(args); i++ {
		key := args[i]
		// value reads the number after key, from lo to hi.
		value := func(lo, hi int64) (int64, bool) {
			if i+1 >= len(args) {
				bad("go: %s: missing its value", key)
				return 0, false
			}
			v, err := strconv.ParseInt(args[i+1], 10, 64)
			if err != nil {
				bad("go: %s: %q is not a number", key, args[i+1])
				return 0, false
			}
			i++
			if v < lo || v > hi {
				bad("go: %s: %d is not from %d to %d", key, v, lo, hi)
				return 0, false
			}
			return v, true
		}
		ms := func(v int64) time.Duration { return time.Duration(v) * time.Millisecond }
		switch key {
		case "p1time", "p2time", "wtime", "btime":
			c := colourOf(key)
			// A clock at or below zero (a GUI may send one when a flag
			// falls) still means the side must move at once.
			if v, ok := value(-maxMillis, maxMillis); ok {
				g.time[c], g.hasTime[c] = ms(max(v, 1)), true
			}
		case "p1inc", "p2inc", "winc", "binc":
			if v, ok := value(0, maxMillis); ok {
				g.inc[colourOf(key)] = ms(v)
			}
		case "movestogo":
			if v, ok := value(1, 1000); ok {
				g.movesToGo = int(v)
			}
		case "movetime":
			if v, ok := value(1, maxMillis); ok {
				g.moveTime = ms(v)
			}
		case "depth":
			if v, ok := value(1, maxDepth); ok {
				g.depth = int(v)
			}
		case "nodes":
			if v, ok := value(1, 1<<62); ok {
				g.nodes = uint64(v)
			}
		case "infinite":
			g.infinite = true
		default:
			bad("go: unknown field %q", key)
		}
	}
	return g
}

// colourOf returns the colour a clock field is about: p1 and w are White.
func colourOf(key string) rules.Color {
	if key[0] == 'b' || strings.HasPrefix(key, "p2") {
		return rules.Black
	}
	return rules.White
}

// job is a running search.
type job struct {
	infinite bool // bestmove waits for stop
	cancel   context.CancelFunc
	once     sync.Once
	stopped  chan struct{} // closed by halt
	searched chan struct{} // closed when the search has ended and reported all it will
	done     chan struct{} // closed under the output lock just before bestmove
}

// halt asks the search to stop now.
func (j *job) halt() {
	j.once.Do(func() {
		close(j.stopped)
		j.cancel()
	})
}

// idle reports whether no search is running, forgetting a finished one.
func (s *session) idle() bool {
	if s.job == nil {
		return true
	}
	select {
	case <-s.job.done:
		s.job = nil
		return true
	default:
		return false
	}
}

// halt stops the running search, if any, and waits for its bestmove.
func (s *session) halt() {
	if s.job != nil {
		s.job.halt()
	}
	s.wait()
}

// finish waits for a search with limits and stops an infinite one; it is
// what the end of the input does.
func (s *session) finish() {
	if j := s.job; j != nil {
		// An infinite search has no end of its own: it ends with the input.
		select {
		case <-j.done:
		default:
			if j.infinite {
				j.halt()
			}
		}
	}
	s.wait()
}

// ready waits for a running search with limits to end, so that a command
// that needs the engine is served after it, in the order of the input. It
// reports false, after saying so, when the running search is infinite:
// only stop ends that one.
func (s *session) ready(cmd string) bool {
	if s.job != nil && s.job.infinite && !s.idle() {
		s.errorf("%s: an infinite search is running; send stop first", cmd)
		return false
	}
	s.wait()
	return true
}

// wait waits for the search goroutine, if any, to end.
func (s *session) wait() {
	s.wg.Wait()
	s.job = nil
}

// goCommand serves go: it starts the search in its own goroutine, which
// reports each iteration and then the best move.
func (s *session) goCommand(args []string) {
	if !s.ready("go") {
		return
	}
	gp := parseGo(args, s.errorf)
	g := s.game
	if o := g.Outcome(); o.Over() {
		s.errorf("%v", &rules.GameOverError{Outcome: o})
		s.println("bestmove none")
		return
	}
	eng := s.engine()
	multiPV := s.opts.MultiPV
	pos := g.Position()
	side := pos.Side()
	geo := pos.Geometry()
	info := func(in player.Info) {
		if in.MultiPV <= multiPV {
			s.println(infoLine(geo, in))
		}
	}

	if v, ok := player.ProbeTables(&pos); ok {
		s.println("info string endgame table: " + v.String())
	}

	var think func(ctx context.Context) rules.Move
	if s.opts.Level < player.MaxLevel && !gp.explicit() {
		// The level decides, with its noise, within the clock if any.
		c := player.Clock{Time: gp.time, Inc: gp.inc}
		eng.Info, eng.MultiPV = info, multiPV
		think = func(ctx context.Context) rules.Move {
			m, err := eng.Move(ctx, g, c)
			if err != nil {
				panic(err) // the game is not over, so it has a legal move
			}
			return m
		}
	} else {
		lim := player.Limits{
			Depth: gp.depth, Nodes: gp.nodes, MoveTime: gp.moveTime,
			MovesToGo: gp.movesToGo, MultiPV: multiPV,
		}
		if gp.hasTime[side] && !gp.infinite {
			lim.Time, lim.Inc = gp.time[side], gp.inc[side]
		}
		if !gp.explicit() && lim.Time == 0 {
			lim.MoveTime = player.DefaultMoveTime
		}
		think = func(ctx context.Context) rules.Move {
			return eng.Search().Search(ctx, g, lim, info).Move
		}
	}

	ctx, cancel := context.WithCancel(s.ctx)
	j := &job{
		infinite: gp.infinite, cancel: cancel,
		stopped: make(chan struct{}), searched: make(chan struct{}), done: make(chan struct{}),
	}
	s.job = j
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		// The search reports the line of the move it returns last, so the
		// last info line is the bestmove's.
		m := think(ctx)
		close(j.searched)
		if j.infinite {
			<-j.stopped
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		close(j.done)
		s.writeLocked("bestmove " + m.Text(geo) + "\n")
	}()
}

// infoLine formats a progress report:
//
//	info depth 6 seldepth 9 multipv 1 score cp 35 nodes 51234 nps 812000 time 63 hashfull 4 pv c3 g7 ...
//
// with lowerbound or upperbound after the score when it is only a bound.
func infoLine(geo *rules.Geometry, in player.Info) string {
	var b strings.Builder
	fmt.Fprintf(&b, "info depth %d seldepth %d multipv %d score %s", in.Depth, in.SelDepth, in.MultiPV, scoreText(in.Score))
	switch in.Bound {
	case player.LowerBound:
		b.WriteString(" lowerbound")
	case player.UpperBound:
		b.WriteString(" upperbound")
	}
	fmt.Fprintf(&b, " nodes %d nps %d time %d hashfull %d", in.Nodes, in.NPS, in.Time.Milliseconds(), in.HashFull)
	if in.TBHits > 0 {
		fmt.Fprintf(&b, " tbhits %d", in.TBHits)
	}
	if len(in.PV) > 0 {
		b.WriteString(" pv")
		for _, m := range in.PV {
			b.WriteByte(' ')
			b.WriteString(m.Text(geo))
		}
	}
	return b.String()
}

// scoreText writes a score as "cp X", hundredths of a man for the side to
// move, or "mate N": a win in N moves of the side to move, or a loss
// after N moves of its own when N is negative (as in UCI).
func scoreText(s int32) string {
	if n, ok := player.MateIn(s); ok {
		return fmt.Sprintf("mate %d", n)
	}
	return fmt.Sprintf("cp %d", s)
}

// parseInt reads a decimal number from lo to hi.
func parseInt(text string, lo, hi int64) (int64, bool) {
	v, err := strconv.ParseInt(text, 10, 64)
	return v, err == nil && v >= lo && v <= hi
}

// nps is nodes per second, 0 for no time.
func nps(nodes uint64, el time.Duration) uint64 {
	if el <= 0 {
		return 0
	}
	return uint64(float64(nodes) / el.Seconds())
}
