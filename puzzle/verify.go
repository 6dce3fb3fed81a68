package puzzle

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"emergo/player"
	"emergo/rules"
)

// Criteria say when a move is the only good one: a search to Depth
// scores it at least Win and every other move at most Equal, in
// hundredths of a man for the side to move.
type Criteria struct {
	Depth int
	Win   int32
	Equal int32
}

// DefaultCriteria are the criteria of the shipped sets, by board size.
var DefaultCriteria = map[int]Criteria{
	9: {Depth: 10, Win: 200, Equal: 50},
	7: {Depth: 12, Win: 200, Equal: 50},
}

func (c Criteria) String() string {
	return fmt.Sprintf("depth=%d win=%d equal=%d", c.Depth, c.Win, c.Equal)
}

// ParseCriteria reads the text of Criteria.String.
func ParseCriteria(text string) (Criteria, error) {
	var c Criteria
	for _, f := range strings.Fields(text) {
		k, v, _ := strings.Cut(f, "=")
		n, err := strconv.Atoi(v)
		if err != nil {
			return Criteria{}, fmt.Errorf("puzzle: criteria %q: %q is not a number", text, v)
		}
		switch k {
		case "depth":
			c.Depth = n
		case "win":
			c.Win = int32(n)
		case "equal":
			c.Equal = int32(n)
		default:
			return Criteria{}, fmt.Errorf("puzzle: criteria %q: unknown key %q", text, k)
		}
	}
	if c.Depth < 1 || c.Win <= c.Equal {
		return Criteria{}, fmt.Errorf("puzzle: criteria %q: want a depth and win above equal", text)
	}
	return c, nil
}

// hashMiB is the table of the verification searches: its size is part of
// what makes a search at a fixed depth reproducible.
const hashMiB = 8

// Verifier searches positions as the criteria say. It holds a search and
// its table, so it is used by one goroutine at a time.
type Verifier struct {
	c Criteria
	s *player.Searcher
}

// NewVerifier returns a verifier of c.
func NewVerifier(c Criteria) *Verifier {
	return &Verifier{c: c, s: player.NewSearcher(player.SearchOptions{HashMiB: hashMiB, Threads: 1})}
}

// Criteria returns the criteria of v.
func (v *Verifier) Criteria() Criteria { return v.c }

// Choice is what a search found of the moves of a position.
type Choice struct {
	// Best is the best move and the other paths to the same position.
	Best []rules.Move
	// Score is the score of Best; Second the score of the best move that
	// leads elsewhere, or -player.Mate when there is none.
	Score, Second int32
	// Found is the first depth from which the best line's move was always
	// one of Best.
	Found int
	// PV is the line of Best.
	PV []rules.Move
}

// Unique reports whether ch shows the one good move the criteria ask for:
// a real choice (another move leads elsewhere), the best scoring at least
// Win, every other at most Equal.
func (c Criteria) Unique(ch Choice) bool {
	return ch.Second > -player.Mate && ch.Score >= c.Win && ch.Second <= c.Equal
}

// Examine searches the current position of g to depth with enough lines
// to score the best move that leads elsewhere than the best. The game's
// moves are the history of repetitions. The table is cleared first, so
// the answer depends on g and depth alone.
func (v *Verifier) Examine(ctx context.Context, g *rules.Game, depth int) (Choice, error) {
	legal := g.Legal()
	if len(legal) == 0 {
		return Choice{}, fmt.Errorf("puzzle: the position has no legal move")
	}
	p := g.Position()
	after := make([]rules.Position, len(legal))
	most := 0 // the largest number of paths to one position
	for i, m := range legal {
		after[i] = p.After(m)
		n := 0
		for j := range i + 1 {
			if after[j] == after[i] {
				n++
			}
		}
		most = max(most, n)
	}
	same := func(m rules.Move) []rules.Move {
		q := p.After(m)
		var out []rules.Move
		for i, l := range legal {
			if after[i] == q {
				out = append(out, l)
			}
		}
		return out
	}
	v.s.NewGame()
	var firstMoves []rules.Move // the best line's first move by depth
	res := v.s.Search(ctx, g, player.Limits{Depth: depth, MultiPV: min(most+1, len(legal))}, func(in player.Info) {
		if in.MultiPV == 1 && len(in.PV) > 0 {
			firstMoves = append(firstMoves[:min(len(firstMoves), in.Depth-1)], in.PV[0])
		}
	})
	if err := ctx.Err(); err != nil {
		return Choice{}, err
	}
	// The search ends early only on a mate it has proven.
	if len(res.Lines) == 0 || res.Depth < depth && abs(res.Score) < player.MateBound {
		return Choice{}, fmt.Errorf("puzzle: the search stopped at depth %d of %d", res.Depth, depth)
	}
	best := res.Lines[0]
	ch := Choice{Best: same(best.PV[0]), Score: best.Score, Second: -player.Mate, PV: best.PV}
	// Best, then its same paths in the order of the legal moves.
	for i, m := range ch.Best {
		if m == best.PV[0] {
			ch.Best[0], ch.Best[i] = ch.Best[i], ch.Best[0]
		}
	}
	for _, l := range res.Lines[1:] {
		if q := p.After(l.PV[0]); q != after[index(legal, ch.Best[0])] {
			ch.Second = l.Score
			break
		}
	}
	ch.Found = len(firstMoves) + 1
	for d := len(firstMoves); d > 0 && in(ch.Best, firstMoves[d-1]); d-- {
		ch.Found = d
	}
	return ch, nil
}

func index(ms []rules.Move, m rules.Move) int {
	for i, x := range ms {
		if x == m {
			return i
		}
	}
	return -1
}

func in(ms []rules.Move, m rules.Move) bool { return index(ms, m) >= 0 }

// Solve returns the puzzle of pos if it is one: its first move the only
// good one, and the line as long as the solver's moves stay so. ok is
// false for a position that is no puzzle.
func (v *Verifier) Solve(ctx context.Context, pos rules.Position) (p Puzzle, ok bool, err error) {
	g := rules.NewGameFrom(pos)
	if g.Outcome().Over() {
		return Puzzle{}, false, nil
	}
	ch, err := v.Examine(ctx, g, v.c.Depth)
	if err != nil || !v.c.Unique(ch) {
		return Puzzle{}, false, err
	}
	p = Puzzle{ID: IDOf(&pos, ch.Best[0]), Start: pos, Found: ch.Found, Score: ch.Score}
	for {
		p.Line = append(p.Line, Ply{Move: ch.Best[0], Same: ch.Best[1:]})
		if err := g.Play(ch.Best[0]); err != nil {
			panic("puzzle: the search's move is not legal: " + err.Error())
		}
		if g.Outcome().Over() || p.SolverMoves() == MaxSolverMoves {
			break
		}
		reply := rules.Move{}
		if len(ch.PV) > 1 {
			reply = ch.PV[1]
		} else {
			v.s.NewGame()
			reply = v.s.Search(ctx, g, player.Limits{Depth: v.c.Depth}, nil).Move
		}
		next := g.Clone()
		if err := next.Play(reply); err != nil {
			panic("puzzle: the search's reply is not legal: " + err.Error())
		}
		if next.Outcome().Over() {
			break
		}
		nch, err := v.Examine(ctx, next, v.c.Depth)
		if err != nil {
			return Puzzle{}, false, err
		}
		if !v.c.Unique(nch) {
			break
		}
		p.Line = append(p.Line, Ply{Move: reply})
		g, ch = next, nch
	}
	p.Themes = themesOf(&p, ch.PV[1:])
	first := p.Line[0].Move
	p.Rating = Rate(p.Found, p.SolverMoves(), choices(&pos), first.Kind() != rules.Capture)
	return p, true, nil
}

// Check verifies that every move of the solver in p's line is the only
// good one at the criteria's depth, and that the solution's first move and
// its same paths are what the search finds. It returns nil if so.
func (v *Verifier) Check(ctx context.Context, p *Puzzle) error {
	for i := 0; i < len(p.Line); i += 2 {
		g := p.Game(i)
		ch, err := v.Examine(ctx, g, v.c.Depth)
		if err != nil {
			return err
		}
		pl := p.Line[i]
		switch {
		case !v.c.Unique(ch):
			return fmt.Errorf("puzzle %s: move %d: not the only good move (best %d, next %d)", p.ID, i+1, ch.Score, ch.Second)
		case !in(ch.Best, pl.Move) || len(ch.Best) != 1+len(pl.Same):
			return fmt.Errorf("puzzle %s: move %d: the search's best is %s", p.ID, i+1, ch.Best[0].Text(g.Geometry()))
		}
		for _, m := range pl.Same {
			if !in(ch.Best, m) {
				return fmt.Errorf("puzzle %s: move %d: %s does not lead where the best does", p.ID, i+1, m.Text(g.Geometry()))
			}
		}
	}
	return nil
}

// VerifyAll checks every puzzle of ps with c on threads goroutines, each
// with its own Verifier, and returns Check's answer for each, in order.
// Every search clears its table first, so the answers do not depend on
// threads. progress, if not nil, is called with the number done after
// each, from one goroutine at a time. A cancelled ctx ends it early, with
// ctx's error for the puzzles not checked.
func VerifyAll(ctx context.Context, c Criteria, ps []Puzzle, threads int, progress func(done int)) []error {
	errs := make([]error, len(ps))
	next := make(chan int)
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for range max(threads, 1) {
		wg.Go(func() {
			v := NewVerifier(c)
			for i := range next {
				errs[i] = v.Check(ctx, &ps[i])
				if progress != nil {
					mu.Lock()
					done++
					progress(done)
					mu.Unlock()
				}
			}
		})
	}
	for i := range ps {
		if ctx.Err() != nil {
			errs[i] = ctx.Err()
			continue
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return errs
}

func abs(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// choices returns the number of different positions the moves of p lead
// to.
func choices(p *rules.Position) int {
	seen := map[rules.Position]bool{}
	for _, m := range p.Legal(nil) {
		seen[p.After(m)] = true
	}
	return len(seen)
}
