package search

import (
	"context"
	"testing"
	"time"

	"emergo/notation"
	"emergo/rules"
)

// midgame is a 9x9 position with every man on the board: the budget gets
// no opening share.
func midgame(t *testing.T) rules.Position {
	t.Helper()
	p, err := notation.ParsePosition("9x9 w 0/0 c3:W5 e5:B4w2 g7:W3b1 c7:B5w1 g3:B1")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// With a clock, no move may take more than a twentieth of the time left
// plus the increment (the search stops at nine tenths of it, a margin for
// a busy machine), nor more than half the time left; the soft limit is
// within the hard one. Checked over a grid of clocks, on an empty
// board and in a middle game.
func TestBudgetKeepsTheRule(t *testing.T) {
	start := rules.NewPosition(rules.Geometry9)
	mid := midgame(t)
	for _, p := range []*rules.Position{&start, &mid, nil} {
		for _, left := range []time.Duration{time.Second, 10 * time.Second, 3 * time.Minute, 30 * time.Minute, 2 * time.Hour} {
			for _, inc := range []time.Duration{0, 100 * time.Millisecond, 2 * time.Second, 10 * time.Second, time.Minute} {
				for _, togo := range []int{0, 1, 5, 40} {
					soft, hard := budget(Limits{Time: left, Inc: inc, MovesToGo: togo}, p)
					if soft <= 0 || soft > hard {
						t.Errorf("%v+%v togo %d: soft %v, hard %v: want 0 < soft <= hard", left, inc, togo, soft, hard)
					}
					if rule := (left/capShare + inc) * 9 / 10; hard > rule || hard > left/2 {
						t.Errorf("%v+%v togo %d: hard %v, over min(%v, %v)", left, inc, togo, hard, rule, left/2)
					}
				}
			}
		}
	}
}

func TestBudget(t *testing.T) {
	start := rules.NewPosition(rules.Geometry9)
	mid := midgame(t)
	tests := []struct {
		name       string
		lim        Limits
		root       *rules.Position
		soft, hard time.Duration
	}{
		{"no limit", Limits{Depth: 8}, &mid, 0, 0},
		{"move time", Limits{MoveTime: 300 * time.Millisecond}, &mid, 300 * time.Millisecond, 300 * time.Millisecond},
		// (1800 s - 50 ms)/40 + 7.5 s = 52.49875 s, stretched five times,
		// capped at 0.9 (1800/20 + 10 s) - 50 ms.
		{"30+10 middle game", Limits{Time: 30 * time.Minute, Inc: 10 * time.Second}, &mid, 52498750000, 89950 * time.Millisecond},
		// A sixteenth of it on the empty board, and two of those at most.
		{"30+10 first move", Limits{Time: 30 * time.Minute, Inc: 10 * time.Second}, &start, 3281171875, 6562343750},
		// (180 s - 50 ms)/40 + 1.5 s = 5.99875 s; cap 0.9 (9 s + 2 s) - 50 ms.
		{"3+2 middle game", Limits{Time: 3 * time.Minute, Inc: 2 * time.Second}, &mid, 5998750000, 9850 * time.Millisecond},
		// Ten moves to go: (60 s - 50 ms)/10, capped at 0.9 (3 s) - 50 ms.
		{"moves to go", Limits{Time: time.Minute, MovesToGo: 10}, &mid, 2650 * time.Millisecond, 2650 * time.Millisecond},
		// A big increment on a small clock: half the time left.
		{"small clock, big increment", Limits{Time: time.Second, Inc: 10 * time.Second}, &mid, 475 * time.Millisecond, 475 * time.Millisecond},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			soft, hard := budget(tc.lim, tc.root)
			if soft != tc.soft || hard != tc.hard {
				t.Errorf("budget = %v, %v; want %v, %v", soft, hard, tc.soft, tc.hard)
			}
		})
	}
}

// The timeManager's decisions, fed iterations with made-up times.
func TestTimeManager(t *testing.T) {
	start := rules.NewPosition(rules.Geometry9)
	legal := start.Legal(nil)
	a, b, c := legal[0], legal[1], legal[2]
	type iter struct {
		depth   int
		best    rules.Move
		score   int32
		elapsed time.Duration
	}
	const soft, hard = 10 * time.Second, 40 * time.Second
	s := func(f float64) time.Duration { return time.Duration(f * float64(soft)) }
	tests := []struct {
		name    string
		fixed   bool
		noClock bool
		obvious bool
		iters   []iter
		want    []bool        // next's answer after each iteration
		target  time.Duration // the target after the last, if set
	}{
		{
			name:  "stable: stops at half the soft limit",
			iters: []iter{{4, a, 10, s(0.1)}, {5, a, 12, s(0.3)}, {6, a, 11, s(0.49)}, {7, a, 11, s(0.5)}},
			want:  []bool{true, true, true, false}, target: soft,
		},
		{
			name:  "the best move changes: more time",
			iters: []iter{{4, a, 10, s(0.1)}, {5, b, 12, s(0.3)}, {6, b, 11, s(0.6)}},
			want:  []bool{true, true, true}, target: s(1.5),
		},
		{
			name:  "changes at the first iterations do not count",
			iters: []iter{{1, a, 10, 0}, {2, b, 12, 0}, {3, c, 11, s(0.5)}},
			want:  []bool{true, true, false}, target: soft,
		},
		{
			name: "many changes: never past the hard limit",
			iters: []iter{{4, a, 10, s(0.1)}, {5, b, 10, s(0.2)}, {6, a, 10, s(0.4)}, {7, b, 10, s(0.8)},
				{8, a, 10, s(1.3)}, {9, b, 10, s(1.4)}, {10, a, 10, hard / 2}},
			want: []bool{true, true, true, true, true, true, false},
		},
		{
			name:  "the score falls: more time",
			iters: []iter{{4, a, 50, s(0.1)}, {5, a, 0, s(0.6)}},
			want:  []bool{true, true}, target: s(1.5),
		},
		{
			name:  "the score falls far: capped at three times",
			iters: []iter{{4, a, 50, s(0.1)}, {5, a, -450, s(1.2)}},
			want:  []bool{true, true}, target: s(3),
		},
		{
			name:    "an obvious move: a quarter",
			obvious: true,
			iters:   []iter{{5, a, 200, s(0.1)}, {6, a, 200, s(0.13)}},
			want:    []bool{true, false}, target: s(0.25),
		},
		{
			name:  "fixed move time: to its end",
			fixed: true,
			iters: []iter{{4, a, 10, s(0.5)}, {5, a, 10, s(0.99)}},
			want:  []bool{true, true},
		},
		{
			name:    "no clock: the other limits decide",
			noClock: true,
			iters:   []iter{{4, a, 10, time.Hour}},
			want:    []bool{true},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tm := &timeManager{soft: soft, hard: hard, fixed: tc.fixed}
			if tc.noClock {
				tm = &timeManager{}
			}
			for i, it := range tc.iters {
				if tm.wantsObviousCheck(it.depth) {
					tm.settleObvious(tc.obvious)
				}
				if got := tm.next(it.depth, it.best, it.score, it.elapsed); got != tc.want[i] {
					t.Errorf("iteration %d (depth %d, %v): next = %v, want %v", i, it.depth, it.elapsed, got, tc.want[i])
				}
				if tg := tm.target(it.score); tg > hard {
					t.Errorf("iteration %d: target %v past the hard limit %v", i, tg, hard)
				}
			}
			if last := tc.iters[len(tc.iters)-1]; tc.target > 0 {
				if got := tm.target(last.score); got != tc.target {
					t.Errorf("target %v, want %v", got, tc.target)
				}
			}
		})
	}
}

// A position with one legal move is played at once on a clock, without a
// node searched, and reported once; with a depth, nodes or several lines
// asked (analysis), or without a clock, it is searched.
func TestForcedMoveOnTheClock(t *testing.T) {
	p, err := notation.ParsePosition("9x9 w 0/0 d4:W3 c5:B2w2 e5:B1 c7:B1 e7:B1")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(p.Legal(nil)); n != 1 {
		t.Fatalf("%d legal moves, want 1", n)
	}
	for _, lim := range []Limits{{Time: 30 * time.Minute, Inc: 10 * time.Second}, {MoveTime: time.Hour}} {
		e := New(Options{HashMiB: 1, Eval: zeroEval{}})
		var reports int
		r := e.Search(context.Background(), p, nil, lim, func(Info) { reports++ })
		if r.Nodes != 0 || r.Move.Text(p.Geometry()) != "d4xb6xd8xf6xd4xb6" || reports != 1 || len(r.Lines) != 1 {
			t.Errorf("%+v: move %s, %d nodes, %d reports, %d lines; want the only move, 0 nodes, 1 report, 1 line",
				lim, r.Move.Text(p.Geometry()), r.Nodes, reports, len(r.Lines))
		}
	}
	for _, lim := range []Limits{{Depth: 2}, {Depth: 2, MoveTime: time.Hour}, {Nodes: 1000, Time: time.Hour}, {MultiPV: 2, MoveTime: time.Hour}} {
		r := New(Options{HashMiB: 1, Eval: zeroEval{}}).Search(context.Background(), p, nil, lim, nil)
		if r.Nodes == 0 || r.Score != Mate-1 {
			t.Errorf("%+v: %d nodes, score %d; want a search that sees the win", lim, r.Nodes, r.Score)
		}
	}
}

type zeroEval struct{}

func (zeroEval) Evaluate(*rules.Position) int32 { return 0 }
