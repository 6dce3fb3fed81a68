package player

import (
	"context"
	"fmt"
	"testing"
	"time"

	"emergo/notation"
	"emergo/rules"
)

func mustPosition(t testing.TB, text string) rules.Position {
	t.Helper()
	p, err := notation.ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMCTSWinningCapture gives White two captures of one man each:
// c3xe5 takes the black man on d4 and frees the five white prisoners under
// it, while a5xc7 takes a lone man and lets d4 jump c3 in reply, leaving
// White one free man against four.
func TestMCTSWinningCapture(t *testing.T) {
	p := mustPosition(t, "7x7 w 0/0 g1:B3 c3:W1 d4:B1w5 a5:W1 b6:B1")
	for seed := uint64(1); seed <= 5; seed++ {
		g := rules.NewGameFrom(p)
		if n := len(g.Legal()); n != 2 {
			t.Fatalf("the position has %d legal moves, want 2", n)
		}
		m, err := NewMCTS(1000, seed).Move(context.Background(), g, Clock{})
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Text(g.Geometry()); got != "c3xe5" {
			t.Errorf("seed %d: mcts played %s, want c3xe5", seed, got)
		}
	}
}

// TestMCTSPlaysLegalGames plays whole games against the random mover on
// both boards and checks every move with the referee.
func TestMCTSPlaysLegalGames(t *testing.T) {
	for _, g := range []*rules.Geometry{rules.Geometry7, rules.Geometry9} {
		gm := rules.NewGame(g)
		players := [2]Player{NewMCTS(60, 7), NewRandom(7)}
		for ply := 0; ply < 300 && !gm.Outcome().Over(); ply++ {
			pl := players[ply%2]
			m, err := pl.Move(context.Background(), gm, Clock{})
			if err != nil {
				t.Fatalf("%dx%d ply %d: %v", g.N, g.N, ply, err)
			}
			if err := gm.Play(m); err != nil {
				t.Fatalf("%dx%d ply %d: %s played %s: %v", g.N, g.N, ply, pl.Name(), m.Text(g), err)
			}
		}
	}
}

func TestMCTSStopsOnContext(t *testing.T) {
	gm := rules.NewGame(rules.Geometry9)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m, err := NewMCTS(1_000_000_000, 1).Move(ctx, gm, Clock{})
	if err != nil {
		t.Fatal(err)
	}
	if err := gm.Play(m); err != nil {
		t.Fatal(err)
	}
}

func TestMCTSMoveTime(t *testing.T) {
	gm := rules.NewGame(rules.Geometry7)
	m, err := NewMCTS(1_000_000_000, 1).Move(context.Background(), gm, Clock{MoveTime: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := gm.Play(m); err != nil {
		t.Fatal(err)
	}
}

func TestMCTSName(t *testing.T) {
	if got := NewMCTS(10000, 0).Name(); got != "mcts10000" {
		t.Errorf("Name() = %q, want mcts10000", got)
	}
}

func TestPlayoutAllocatesNothing(t *testing.T) {
	tr := NewMCTS(1, 1)
	p := rules.NewPosition(rules.Geometry9)
	if n := testing.AllocsPerRun(50, func() { tr.playout(p) }); n != 0 {
		t.Errorf("a playout allocates %v times, want 0", n)
	}
}

func BenchmarkPlayout(b *testing.B) {
	for _, g := range []*rules.Geometry{rules.Geometry9, rules.Geometry7} {
		b.Run(fmt.Sprintf("%dx%d", g.N, g.N), func(b *testing.B) {
			tr := NewMCTS(1, 1)
			p := rules.NewPosition(g)
			for b.Loop() {
				tr.playout(p)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
		})
	}
}

func BenchmarkMCTSMove(b *testing.B) {
	gm := rules.NewGame(rules.Geometry9)
	tr := NewMCTS(1000, 1)
	for b.Loop() {
		tr.Move(context.Background(), gm, Clock{})
	}
}
