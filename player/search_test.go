package player

import (
	"context"
	"testing"

	"emergo/egtb"
	"emergo/notation"
	"emergo/rules"
)

// playTexts plays moves written in the notation on g.
func playTexts(t *testing.T, g *rules.Game, moves ...string) {
	t.Helper()
	for _, text := range moves {
		var m rules.Move
		for _, l := range g.Legal() {
			if l.Text(g.Geometry()) == text {
				m = l
			}
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
}

// The search sees the game's earlier positions: a move that repeats the
// start a third time scores as a draw (RULES 6.3; docs/rules.md, D13),
// while the same position searched alone knows nothing of it.
func TestSearcherSeesTheGame(t *testing.T) {
	g := rules.NewGameFrom(mustPosition(t, "9x9 w 0/0 a1:W1b11 i9:B1w11"))
	playTexts(t, g, "a1-b2", "i9-h8", "b2-a1", "h8-i9", "a1-b2", "i9-h8", "b2-a1")
	lim := Limits{Depth: 3, MultiPV: 4}
	score := func(g *rules.Game) int32 {
		t.Helper()
		r := NewSearcher(SearchOptions{HashMiB: 1}).Search(context.Background(), g, lim, nil)
		for _, l := range r.Lines {
			if l.PV[0].Text(g.Geometry()) == "h8-i9" {
				return l.Score
			}
		}
		t.Fatal("h8-i9 is not among the lines")
		return 0
	}
	if s := score(g); s != 0 {
		t.Errorf("in the game, h8-i9 repeats the start a third time but scores %d", s)
	}
	if s := score(rules.NewGameFrom(g.Position())); s == 0 {
		t.Errorf("alone, the position has no past, but h8-i9 scores a draw")
	}
}

func TestMaxLevel(t *testing.T) {
	for _, tc := range []struct {
		name  string
		level int
		ok    bool
	}{
		{"below", 0, false},
		{"weakest", 1, true},
		{"full strength", MaxLevel, true},
		{"above", MaxLevel + 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewEngine(tc.level, EngineOptions{HashMiB: 1})
			if (err == nil) != tc.ok {
				t.Errorf("NewEngine(%d): %v", tc.level, err)
			}
		})
	}
	if Levels[MaxLevel] != (Level{}) {
		t.Errorf("level %d has limits %+v; full strength has none but the clock", MaxLevel, Levels[MaxLevel])
	}
}

// In a position of the endgame tables, the search scores every move as
// the tables do: the best one wins (or loses) at the table's distance,
// at any depth; without the tables, a shallow search sees no end.
func TestSearcherUsesTheTables(t *testing.T) {
	if _, err := egtb.ThreeFor(rules.Geometry7); err != nil { // read in the background otherwise
		t.Fatal(err)
	}
	for _, text := range []string{"7x7 b 0/0 c3:W5b2 e5:B6w3", "9x9 w 0/0 a1:W3b4 i9:B8w9", "7x7 w 0/0 a1:W5b2 d4:B6w3",
		"7x7 w 0/0 a1:W3b2 d4:W2b3 g7:B3w3", "7x7 b 0/0 a1:W3b2 d4:W2b3 g7:B3w3"} {
		p := mustPosition(t, text)
		v, ok := ProbeTables(&p)
		if !ok {
			t.Fatalf("%s: not in the tables", text)
		}
		r := NewSearcher(SearchOptions{HashMiB: 1}).Search(context.Background(), rules.NewGameFrom(p), Limits{Depth: 2}, nil)
		want := Mate - int32(v.Plies)
		if v.Outcome < 0 {
			want = -want
		}
		if r.Score != want {
			t.Errorf("%s: the table says %v, the search %d; want %d", text, v, r.Score, want)
		}
		plain := NewSearcher(SearchOptions{HashMiB: 1, NoTables: true}).Search(context.Background(), rules.NewGameFrom(p), Limits{Depth: 2}, nil)
		if _, mate := MateIn(plain.Score); mate && v.Plies > 4 {
			t.Errorf("%s: without the tables, depth 2 scores %d", text, plain.Score)
		}
	}
}

// A search after one that judged otherwise (another Eval or Horizon, a
// weak level's) starts from a clear table: the full engine's search on a
// Searcher that a weak level used is the search of a fresh one.
func TestSearcherClearsForAnotherJudgement(t *testing.T) {
	g := rules.NewGameFrom(BenchPositions()[3])
	full := Limits{Depth: 5}
	fresh := NewSearcher(SearchOptions{HashMiB: 1}).Search(context.Background(), g, full, nil)
	for _, weak := range []Limits{{Depth: 5, Horizon: 1}, {Depth: 5, Eval: Evals["novice"]}, {Depth: 5, Horizon: 2, Eval: Evals["beginner"]}} {
		se := NewSearcher(SearchOptions{HashMiB: 1})
		first := se.Search(context.Background(), g, weak, nil)
		if again := se.Search(context.Background(), g, weak, nil); again.Nodes >= first.Nodes {
			t.Errorf("%+v: the second search took %d nodes, the first %d: the table should have kept the first's", weak, again.Nodes, first.Nodes)
		}
		r := se.Search(context.Background(), g, full, nil)
		if r.Move != fresh.Move || r.Score != fresh.Score || r.Nodes != fresh.Nodes {
			t.Errorf("after %+v: %d nodes scoring %d, a fresh search %d scoring %d", weak, r.Nodes, r.Score, fresh.Nodes, fresh.Score)
		}
	}
}

// String says how each level plays, for the levels' tables.
func TestLevelString(t *testing.T) {
	for _, c := range []struct {
		lv   Level
		want string
	}{
		{Level{}, "full strength, by the clock"},
		{Level{Nodes: 5000}, "5000 nodes"},
		{Level{Depth: 1, Horizon: 1, Eval: Evals["beginner"], Margin: 60}, "depth 1, sees captures of up to 1 jump, beginner evaluation, within 0.60 of the best"},
		{Level{Depth: 3, Horizon: 2, Eval: Evals["novice"]}, "depth 3, sees captures of up to 2 jumps, novice evaluation"},
	} {
		if got := c.lv.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.lv, got, c.want)
		}
	}
}

// A search asked for N lines gives N (or every legal move, if fewer): a
// move that fails high past the last line asked for pushes that line
// out of the result. The opening below gave three lines for two.
func TestSearcherGivesTheLinesAsked(t *testing.T) {
	g := rules.NewGame(rules.Geometry9)
	if err := notation.PlayMoves(g, []string{"c3", "g7", "e7", "c9", "e3"}); err != nil {
		t.Fatal(err)
	}
	for _, lines := range []int{1, 2, 3} {
		for depth := 1; depth <= 7; depth++ {
			res := NewSearcher(SearchOptions{HashMiB: 16}).Search(context.Background(), g, Limits{Depth: depth, MultiPV: lines}, nil)
			if len(res.Lines) != lines {
				t.Errorf("depth %d, %d lines asked: %d given", depth, lines, len(res.Lines))
			}
		}
	}
}
