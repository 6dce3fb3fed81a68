package search_test

import (
	"context"
	"testing"
	"time"

	"emergo/eval"
	"emergo/notation"
	"emergo/rules"
	"emergo/search"
)

func newEngine() *search.Engine {
	return search.New(search.Options{HashMiB: 4, Eval: &eval.Default})
}

func mustPos(t testing.TB, text string) rules.Position {
	t.Helper()
	p, err := notation.ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// In docs/rules.md, case D1, White's only move wins at once: the search
// must see the mate and play it.
func TestFindsImmediateWin(t *testing.T) {
	p := mustPos(t, "9x9 w 0/0 d4:W3 c5:B2w2 e5:B1 c7:B1 e7:B1")
	r := newEngine().Search(context.Background(), p, nil, search.Limits{Depth: 3}, nil)
	if got := r.Move.Text(p.Geometry()); got != "d4xb6xd8xf6xd4xb6" {
		t.Errorf("move %s, want d4xb6xd8xf6xd4xb6", got)
	}
	if r.Score != search.Mate-1 {
		t.Errorf("score %d, want mate in one ply (%d)", r.Score, search.Mate-1)
	}
}

// White to move can win in three plies: step so that Black must capture
// into a recapture that takes Black's last column. The search must prefer
// the win to any material gain.
func TestFindsWinInThree(t *testing.T) {
	// White's c3 steps to d4 offering itself; Black e5 must jump d4 to c3
	// and cannot go on (a1 blocks the jump over b2), and White's b2 then
	// jumps c3, taking the last black man. Black has nothing in hand.
	p := mustPos(t, "9x9 w 0/0 a1:W1 b2:W1 c3:W1 e5:B1")
	r := newEngine().Search(context.Background(), p, nil, search.Limits{Depth: 5}, nil)
	if r.Score < search.MateBound {
		t.Fatalf("score %d: no win found (move %s)", r.Score, r.Move.Text(p.Geometry()))
	}
	// Replay the principal variation: it must end in Black's loss.
	g := rules.NewGameFrom(p)
	for _, m := range r.Lines[0].PV {
		if err := g.Play(m); err != nil {
			t.Fatalf("PV move %s: %v", m.Text(p.Geometry()), err)
		}
	}
	if o := g.Outcome(); o.Result != rules.WhiteWins {
		t.Errorf("PV ends in %v, want a White win", o)
	}
}

// A side that can only lose a man by moving should still get a draw when
// the position is blocked: no legal move scores 0 (RULES 6.2).
func TestNoLegalMoveIsDraw(t *testing.T) {
	p := mustPos(t, "9x9 w 0/0 a1:W1 b2:B1w6 c3:B11w5")
	r := newEngine().Search(context.Background(), p, nil, search.Limits{Depth: 4}, nil)
	if !r.Move.IsZero() || r.Score != 0 {
		t.Errorf("got move %v score %d, want no move and a draw score", r.Move, r.Score)
	}
}

func TestDeterministicAtFixedDepthAndNodes(t *testing.T) {
	p := search.BenchPositions()[3]
	for _, lim := range []search.Limits{{Depth: 6}, {Nodes: 20000}} {
		var first search.Result
		for i := 0; i < 2; i++ {
			e := newEngine()
			r := e.Search(context.Background(), p, nil, lim, nil)
			if i == 0 {
				first = r
				continue
			}
			if r.Move != first.Move || r.Score != first.Score || r.Nodes != first.Nodes {
				t.Errorf("%+v: run 2 gave %s %d %d, run 1 %s %d %d", lim,
					r.Move.Text(p.Geometry()), r.Score, r.Nodes, first.Move.Text(p.Geometry()), first.Score, first.Nodes)
			}
		}
	}
}

func TestNodeLimit(t *testing.T) {
	p := search.BenchPositions()[5]
	r := newEngine().Search(context.Background(), p, nil, search.Limits{Nodes: 5000}, nil)
	if r.Nodes < 5000 || r.Nodes > 5000+1 {
		t.Errorf("searched %d nodes with a limit of 5000", r.Nodes)
	}
	if r.Move.IsZero() {
		t.Error("no move found within the node limit")
	}
}

func TestContextStopsSearch(t *testing.T) {
	p := search.BenchPositions()[6]
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan search.Result)
	go func() { done <- newEngine().Search(ctx, p, nil, search.Limits{}, nil) }()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case r := <-done:
		if r.Move.IsZero() {
			t.Error("stopped search returned no move")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("search did not stop after its context was cancelled")
	}
}

func TestMultiPV(t *testing.T) {
	p := rules.NewPosition(rules.Geometry7)
	r := newEngine().Search(context.Background(), p, nil, search.Limits{Depth: 4, MultiPV: 4}, nil)
	if len(r.Lines) != 4 {
		t.Fatalf("%d lines, want 4", len(r.Lines))
	}
	seen := map[rules.Move]bool{}
	for i, l := range r.Lines {
		if seen[l.PV[0]] {
			t.Errorf("line %d repeats the move %s", i+1, l.PV[0].Text(p.Geometry()))
		}
		seen[l.PV[0]] = true
		if i > 0 && l.Score > r.Lines[i-1].Score {
			t.Errorf("line %d scores %d, more than line %d (%d)", i+1, l.Score, i, r.Lines[i-1].Score)
		}
	}
	if r.Lines[0].PV[0] != r.Move {
		t.Error("the best line does not start with the chosen move")
	}
}

// Info is reported once per completed iteration with growing depth.
func TestInfoReports(t *testing.T) {
	p := rules.NewPosition(rules.Geometry9)
	var depths []int
	newEngine().Search(context.Background(), p, nil, search.Limits{Depth: 5}, func(i search.Info) {
		depths = append(depths, i.Depth)
		if len(i.PV) == 0 || i.Nodes == 0 {
			t.Errorf("depth %d: empty report %+v", i.Depth, i)
		}
	})
	if len(depths) != 5 || depths[4] != 5 {
		t.Errorf("reports at depths %v, want 1..5", depths)
	}
}

// A position that already occurred twice in the game is a draw if it comes
// back: the search must score the move that repeats it a third time as 0
// (RULES 6.3; the position of docs/rules.md, case D13).
func TestRepetitionIsDrawInSearch(t *testing.T) {
	start := mustPos(t, "9x9 w 0/0 a1:W1b11 i9:B1w11")
	g := rules.NewGameFrom(start)
	if err := notation.PlayMoves(g, []string{"a1-b2", "i9-h8", "b2-a1", "h8-i9", "a1-b2", "i9-h8", "b2-a1"}); err != nil {
		t.Fatal(err)
	}
	// Black to move: h8-i9 repeats the start a third time.
	p := g.Position()
	r := newEngine().Search(context.Background(), p, search.HistoryOf(g), search.Limits{Depth: 3, MultiPV: 4}, nil)
	for _, l := range r.Lines {
		if l.PV[0].Text(p.Geometry()) == "h8-i9" && l.Score != 0 {
			t.Errorf("h8-i9 repeats the position a third time but scores %d", l.Score)
		}
	}
}

func TestSearchAllocatesLittle(t *testing.T) {
	e := newEngine()
	p := search.BenchPositions()[4]
	e.Search(context.Background(), p, nil, search.Limits{Depth: 4}, nil)
	var nodes uint64
	allocs := testing.AllocsPerRun(3, func() {
		e.NewGame()
		nodes = e.Search(context.Background(), p, nil, search.Limits{Depth: 7}, nil).Nodes
	})
	// A few allocations per search (the principal variations it returns),
	// none per node.
	if allocs > 64 {
		t.Errorf("%.0f allocations for a search of %d nodes", allocs, nodes)
	}
}

func BenchmarkBench(b *testing.B) {
	e := newEngine()
	var nodes uint64
	for i := 0; i < b.N; i++ {
		n, _ := search.Bench(e, search.BenchDepth)
		nodes += n
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

// Lazy SMP: helpers share the table; the result must still be a legal
// move of the root with a sound score.
func TestParallelSearch(t *testing.T) {
	e := search.New(search.Options{HashMiB: 4, Threads: 3, Eval: &eval.Default})
	for _, p := range search.BenchPositions()[:4] {
		r := e.Search(context.Background(), p, nil, search.Limits{Depth: 6}, nil)
		legal := false
		for _, m := range p.Legal(nil) {
			legal = legal || m == r.Move
		}
		if !legal {
			t.Errorf("parallel search returned %v, not a legal move", r.Move)
		}
		if r.Nodes == 0 || r.Depth != 6 {
			t.Errorf("parallel search: %d nodes, depth %d", r.Nodes, r.Depth)
		}
	}
}

// The last report of the first line is the result, for searches stopped
// at any point of an iteration: the move played is the one last reported.
// Completed iterations report exact scores.
func TestLastReportIsResult(t *testing.T) {
	e := newEngine()
	for i, p := range search.BenchPositions() {
		for _, lim := range []search.Limits{
			{Nodes: 1}, {Nodes: 150}, {Nodes: 900}, {Nodes: 4000}, {Nodes: 4000, MultiPV: 3}, {Depth: 3, MultiPV: 2},
		} {
			var last search.Info
			reports := 0
			r := e.Search(context.Background(), p, nil, lim, func(in search.Info) {
				if in.MultiPV == 1 {
					if last.Depth > 0 && last.Bound != search.Exact {
						t.Errorf("position %d, %+v: depth %d was completed, but its score is a bound", i, lim, last.Depth)
					}
					last = in
					reports++
				}
			})
			if reports == 0 {
				t.Errorf("position %d, %+v: nothing reported", i, lim)
				continue
			}
			if last.PV[0] != r.Move || last.Score != r.Score || last.Depth != r.Depth {
				t.Errorf("position %d, %+v: played %s (%d at depth %d), last reported %s (%d at depth %d)", i, lim,
					r.Move.Text(p.Geometry()), r.Score, r.Depth, last.PV[0].Text(p.Geometry()), last.Score, last.Depth)
			}
			if lim.Depth > 0 && last.Bound != search.Exact {
				t.Errorf("position %d, %+v: a completed search reports a bound", i, lim)
			}
		}
	}
}

func TestMateIn(t *testing.T) {
	for _, tc := range []struct {
		name  string
		score int32
		moves int
		ok    bool
	}{
		{"even", 0, 0, false},
		{"a man up", 100, 0, false},
		{"below the bound", search.MateBound - 1, 0, false},
		{"above minus the bound", -search.MateBound + 1, 0, false},
		{"won on the board", search.Mate, 0, true},
		{"lost on the board", -search.Mate, 0, true},
		{"win next move", search.Mate - 1, 1, true},
		{"win in 2", search.Mate - 3, 2, true},
		{"win in 2, even plies", search.Mate - 4, 2, true},
		{"lost after 1", -search.Mate + 2, -1, true},
		{"lost after 2", -search.Mate + 4, -2, true},
		{"the bound", search.MateBound, 500, true},
		{"minus the bound", -search.MateBound, -500, true},
	} {
		if moves, ok := search.MateIn(tc.score); moves != tc.moves || ok != tc.ok {
			t.Errorf("%s: MateIn(%d) = %d, %v; want %d, %v", tc.name, tc.score, moves, ok, tc.moves, tc.ok)
		}
	}
}

// horizonCase finds, in random games from a fixed seed, a position whose
// side to move has no capture and a move after which the opponent must
// capture with two jumps or more: the blunder a short horizon misses.
func horizonCase(t *testing.T) (rules.Position, rules.Move) {
	t.Helper()
	var buf, replies []rules.Move
	x := uint32(12345)
	for game := 0; game < 200; game++ {
		p := rules.NewPosition(rules.Geometry7)
		for ply := 0; ply < 80; ply++ {
			buf = p.Legal(buf[:0])
			if len(buf) == 0 {
				break
			}
			if !p.CanCapture() {
				for _, m := range buf {
					q := p.After(m)
					if replies = q.Legal(replies[:0]); len(replies) > 0 && replies[0].Jumps() >= 2 {
						return p, m
					}
				}
			}
			x = x*1664525 + 1013904223
			p.Play(buf[int(x>>16)%len(buf)])
		}
	}
	t.Fatal("no position with a long capture after a quiet move")
	return rules.Position{}, rules.Move{}
}

// A search with a Horizon scores a position whose capture is longer than
// it as the evaluation does, as if the capture were not there; without
// one it searches the capture. A horizon as long as every capture
// changes nothing, and Eval replaces the engine's evaluation.
func TestHorizonAndEval(t *testing.T) {
	p, blunder := horizonCase(t)
	after := p.After(blunder)
	lineOf := func(lim search.Limits) int32 {
		lim.Depth, lim.MultiPV = 1, rules.MaxMoves
		r := newEngine().Search(context.Background(), p, nil, lim, nil)
		for _, l := range r.Lines {
			if l.PV[0] == blunder {
				return l.Score
			}
		}
		t.Fatalf("%+v: no line of %s", lim, blunder.Text(p.Geometry()))
		return 0
	}
	material := &eval.Weights{W: [eval.NumFeatures]int32{eval.FreeMen: 100}}
	for _, c := range []struct {
		name string
		lim  search.Limits
		want int32
	}{
		{"horizon of one jump: the capture unseen", search.Limits{Horizon: 1}, -eval.Default.Evaluate(&after)},
		{"and with another evaluation", search.Limits{Horizon: 1, Eval: material}, -material.Evaluate(&after)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := lineOf(c.lim); got != c.want {
				t.Errorf("%s scores %d, want the evaluation of the position after it, %d", blunder.Text(p.Geometry()), got, c.want)
			}
		})
	}
	if full, seen := lineOf(search.Limits{}), lineOf(search.Limits{Horizon: 1}); full >= seen {
		t.Errorf("%s scores %d with the capture searched and %d unseen: the capture should cost", blunder.Text(p.Geometry()), full, seen)
	}
	for _, lim := range []search.Limits{{Depth: 6}, {Nodes: 20000}} {
		bench := search.BenchPositions()[3]
		a := newEngine().Search(context.Background(), bench, nil, lim, nil)
		lim.Horizon = 12 // a colour has 12 men: no capture takes more
		b := newEngine().Search(context.Background(), bench, nil, lim, nil)
		if a.Move != b.Move || a.Score != b.Score || a.Nodes != b.Nodes {
			t.Errorf("%+v: %d %d nodes without a horizon, %d %d with one longer than every capture", lim, a.Score, a.Nodes, b.Score, b.Nodes)
		}
	}
}

// A position with a single legal move is searched a ply deeper: at depth
// 2, White's only move leaves Black a single step (no capture anywhere),
// and the line goes on through it to a White move before the evaluation,
// where without the extension it would end after Black's step.
func TestSingleReplyExtension(t *testing.T) {
	p := mustPos(t, "9x9 w 0/0 a1:B1 i9:W1")
	g := p.Geometry()
	r := newEngine().Search(context.Background(), p, nil, search.Limits{Depth: 2}, nil)
	var pv []string
	for _, m := range r.Lines[0].PV {
		pv = append(pv, m.Text(g))
	}
	if len(pv) != 3 || pv[0] != "i9-h8" || pv[1] != "a1-b2" {
		t.Errorf("PV %v, want i9-h8 a1-b2 and a White move", pv)
	}
}

// A move that leaves the opponent no legal move draws (RULES 6.2), also
// when it is the last ply of the search: Black, two free men up, must not
// wall White's lone man into the corner with c7-b6 (c5 stops the jump
// over b6), and the search must score that line a draw, not the men.
func TestBlockedAtTheHorizonIsADraw(t *testing.T) {
	p := mustPos(t, "7x7 b 0/0 a7:W1 c5:B1 c7:B1 e3:B1w3")
	n := len(p.Legal(nil))
	r := newEngine().Search(context.Background(), p, nil, search.Limits{Depth: 1, MultiPV: n}, nil)
	if got := r.Move.Text(p.Geometry()); got == "c7-b6" {
		t.Errorf("plays c7-b6, the draw, with score %d", r.Score)
	}
	if r.Score < 100 {
		t.Errorf("best line scores %d: Black is two free men up", r.Score)
	}
	found := false
	for _, l := range r.Lines {
		if l.PV[0].Text(p.Geometry()) == "c7-b6" {
			found = true
			if l.Score != 0 {
				t.Errorf("c7-b6 scores %d, want 0: White is left without a move", l.Score)
			}
		}
	}
	if !found || len(r.Lines) != n {
		t.Errorf("%d lines for %d moves, c7-b6 among them: %v", len(r.Lines), n, found)
	}
}
