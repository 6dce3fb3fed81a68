package analysis_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"emergo/analysis"
	"emergo/notation"
	"emergo/player"
	"emergo/record"
	"emergo/rules"
)

// blunderGame is a 7x7 game of a four-ply search but for Black's 11th
// move, g1-f2, its worst move: it gives White a free capture of several
// men. blunderPly is its index.
const (
	blunderGame = "c1 e1 a3 a5 e5 g3 g5 a1 a7 g1 d4 e7 c7 f2 c3 g7 c1-d2 f2-e3 d2xf4 e1-d2 " +
		"c3xe1 g1-f2 c7-d6 e7xc5xe3 f4xd2 f2xd4xf6 g5xe7"
	blunderPly = 21
)

func playGame(t testing.TB, start rules.Position, moves string) *rules.Game {
	t.Helper()
	gm := rules.NewGameFrom(start)
	if err := notation.PlayMoves(gm, strings.Fields(moves)); err != nil {
		t.Fatal(err)
	}
	return gm
}

func TestAnalyzeMarksBlunder(t *testing.T) {
	gm := playGame(t, rules.NewPosition(rules.Geometry7), blunderGame)
	notes, err := analysis.Analyze(context.Background(), gm, analysis.Options{Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != gm.Len() {
		t.Fatalf("%d notes for %d moves", len(notes), gm.Len())
	}
	g := gm.Geometry()
	for i, n := range notes {
		if n.Ply != i || n.Move != gm.Moves()[i] {
			t.Errorf("note %d is for ply %d, move %s", i, n.Ply, n.Move.Text(g))
		}
		if n.Loss < 0 {
			t.Errorf("note %d: negative loss %d", i, n.Loss)
		}
		if n.Move == n.Best && n.Loss != 0 {
			t.Errorf("note %d: the best move lost %d", i, n.Loss)
		}
		t.Logf("%-5s %-10s %s", n.Number, n.Move.Text(g), analysis.Comment(g, n))
	}
	b := notes[blunderPly]
	if b.Number != "11..." || b.Side != rules.Black || b.Mark == analysis.Good || b.Loss < 200 {
		t.Errorf("the blunder: %s %s, side %s, mark %q, loss %d; want Black's move 11... marked with a loss of 2 men or more",
			b.Number, b.Move.Text(g), b.Side, b.Mark, b.Loss)
	}
	if b.After <= b.Before {
		t.Errorf("Black's blunder should raise White's evaluation: %d before, %d after", b.Before, b.After)
	}
	s := analysis.Summarize(notes)
	if s.Moves != [2]int{14, 13} {
		t.Errorf("moves per side %v, want [14 13]", s.Moves)
	}
	if s.Mistakes[rules.Black]+s.Blunders[rules.Black] == 0 || s.AvgLoss[rules.Black] <= 0 {
		t.Errorf("summary %+v misses Black's blunder", s)
	}
}

func TestAnalyzeIsReproducible(t *testing.T) {
	gm := playGame(t, rules.NewPosition(rules.Geometry7), blunderGame)
	fresh, err := analysis.Analyze(context.Background(), gm, analysis.Options{Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	// An engine that searched before gives the same analysis: Analyze
	// clears it first.
	eng := player.NewSearcher(player.SearchOptions{})
	if _, err := analysis.Analyze(context.Background(), gm, analysis.Options{Depth: 5, Engine: eng}); err != nil {
		t.Fatal(err)
	}
	used, err := analysis.Analyze(context.Background(), gm, analysis.Options{Depth: 3, Engine: eng})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fresh, used) {
		t.Errorf("the analysis depends on the engine's past:\n%+v\n%+v", fresh, used)
	}
}

func TestAnalyzeEndOfGame(t *testing.T) {
	p, err := notation.ParsePosition("7x7 w 0/0 a1:W1 g7:B1")
	if err != nil {
		t.Fatal(err)
	}
	gm := playGame(t, p, "a1-b2 g7-f6 b2-c3 f6-e5 c3-d4 e5xc3")
	var calls []int
	notes, err := analysis.Analyze(context.Background(), gm, analysis.Options{
		Depth:    4,
		Progress: func(done, total int) { calls = append(calls, done*100+total) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{106, 206, 306, 406, 506, 606}; !slices.Equal(calls, want) {
		t.Errorf("progress calls %v, want %v", calls, want)
	}
	g := gm.Geometry()
	step, take := notes[4], notes[5]
	if step.Mark != analysis.Blunder || step.After > -player.MateBound {
		t.Errorf("c3-d4 loses the game: got %s", analysis.Comment(g, step))
	}
	if take.After != -player.Mate || analysis.FormatScore(take.After) != "0-1" {
		t.Errorf("after the last capture: %s, want the game won by Black", analysis.Comment(g, take))
	}
}

// Info reports every depth of the search before each move.
func TestAnalyzeInfo(t *testing.T) {
	gm := playGame(t, rules.NewPosition(rules.Geometry7), "c1 e1 a3")
	var depths []int
	notes, err := analysis.Analyze(context.Background(), gm, analysis.Options{
		Depth: 3,
		Info:  func(i player.Info) { depths = append(depths, i.Depth) },
	})
	if err != nil {
		t.Fatal(err)
	}
	// Each search reports depths 1, 2, ... up to its limit: 3 before a
	// move, 2 after one the engine would not have played.
	starts := 0
	for i, d := range depths {
		if d == 1 {
			starts++
		} else if i == 0 || d != depths[i-1]+1 {
			t.Fatalf("depths reported %v: not counting up from 1", depths)
		}
	}
	full := 0
	for _, n := range notes {
		full++
		if n.Best != n.Move {
			full++
		}
	}
	if starts != full || slices.Max(depths) != 3 {
		t.Errorf("depths reported %v: %d searches, want %d reaching depth 3", depths, starts, full)
	}
}

func TestAnalyzeCancelled(t *testing.T) {
	gm := playGame(t, rules.NewPosition(rules.Geometry7), blunderGame)
	ctx, cancel := context.WithCancel(context.Background())
	notes, err := analysis.Analyze(ctx, gm, analysis.Options{Depth: 3, Progress: func(done, _ int) {
		if done == 5 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || len(notes) != 5 {
		t.Errorf("got %d notes and %v, want 5 and context.Canceled", len(notes), err)
	}
}

func TestFormatScore(t *testing.T) {
	for _, c := range []struct {
		score int32
		want  string
	}{
		{0, "0.00"},
		{35, "+0.35"},
		{-120, "-1.20"},
		{-5, "-0.05"},
		{1234, "+12.34"},
		{player.Mate, "1-0"},
		{-player.Mate, "0-1"},
		{player.Mate - 1, "+M1"},
		{player.Mate - 5, "+M3"},
		{-(player.Mate - 4), "-M2"},
	} {
		if got := analysis.FormatScore(c.score); got != c.want {
			t.Errorf("FormatScore(%d) = %q, want %q", c.score, got, c.want)
		}
	}
}

func TestComment(t *testing.T) {
	g := rules.Geometry9
	sq := func(s string) rules.Square {
		q, err := g.ParseSquare(s)
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	step := rules.StepMove(sq("c3"), sq("d4"))
	cap, _ := rules.CaptureMove([]rules.Square{sq("c3"), sq("e5")})
	for _, c := range []struct {
		name string
		note analysis.MoveNote
		want string
	}{
		{"best", analysis.MoveNote{Move: step, Best: step, Before: 35, After: 35}, "eval +0.35, best move"},
		{"small loss", analysis.MoveNote{Move: step, Best: cap, Before: 35, After: 20, Loss: 15}, "eval +0.20, best c3xe5 +0.35"},
		{"mistake", analysis.MoveNote{Move: step, Best: cap, Before: 35, After: -85, Loss: 120, Mark: analysis.Mistake},
			"? eval -0.85, best c3xe5 +0.35; mistake: -1.20"},
		{"black blunder", analysis.MoveNote{Side: rules.Black, Move: step, Best: cap, Before: 0, After: 400, Loss: 400, Mark: analysis.Blunder},
			"?? eval +4.00, best c3xe5 0.00; blunder: -4.00"},
	} {
		if got := analysis.Comment(g, c.note); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestAnnotate(t *testing.T) {
	gm := playGame(t, rules.NewPosition(rules.Geometry7), blunderGame)
	rec := record.FromGame(gm)
	rec.Comments = []string{"a fine start"}
	notes, err := analysis.Analyze(context.Background(), gm, analysis.Options{Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // a second analysis replaces the first
		if err := analysis.Annotate(&rec, notes); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := record.WritePGN(&buf, rec); err != nil {
			t.Fatal(err)
		}
		recs, err := record.ReadPGN(&buf)
		if err != nil {
			t.Fatal(err)
		}
		rec = recs[0]
	}
	if len(rec.Comments) != len(rec.Moves) {
		t.Fatalf("%d comments for %d moves", len(rec.Comments), len(rec.Moves))
	}
	if want := "a fine start " + analysis.Comment(gm.Geometry(), notes[0]); rec.Comments[0] != want {
		t.Errorf("first comment %q, want %q", rec.Comments[0], want)
	}
	for i, c := range rec.Comments {
		if strings.Count(c, "eval ") != 1 {
			t.Errorf("comment %d %q: want one evaluation", i, c)
		}
	}
	other := playGame(t, rules.NewPosition(rules.Geometry7), "d2")
	if err := analysis.Annotate(&rec, []analysis.MoveNote{{Move: other.Moves()[0], Number: "1"}}); err == nil {
		t.Error("notes of another game were accepted")
	}
}

func TestSVG(t *testing.T) {
	gm := playGame(t, rules.NewPosition(rules.Geometry7), blunderGame)
	notes, err := analysis.Analyze(context.Background(), gm, analysis.Options{Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	marked := 0
	for _, n := range notes {
		if n.Mark != analysis.Good {
			marked++
		}
	}
	chart := analysis.SVG("alice - bob <7x7>", gm.Geometry(), notes)
	points, dots := svgShape(t, chart)
	if points != len(notes) {
		t.Errorf("%d points on the line, want one per move (%d)", points, len(notes))
	}
	if dots != marked || marked == 0 {
		t.Errorf("%d dots, want one per marked move (%d)", dots, marked)
	}
	if points, dots := svgShape(t, analysis.SVG("", gm.Geometry(), nil)); points != 0 || dots != 0 {
		t.Errorf("the chart of no moves has %d points and %d dots", points, dots)
	}
}

// svgShape decodes an SVG document, failing the test if it is not
// well-formed XML, and returns the points of its evaluation line and the
// number of its dots.
func svgShape(t *testing.T, doc []byte) (points, dots int) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	root := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed: %v\n%s", err, doc)
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if root == "" {
			root = el.Name.Space + " " + el.Name.Local
		}
		switch el.Name.Local {
		case "polyline":
			for _, a := range el.Attr {
				if a.Name.Local == "points" {
					points = len(strings.Fields(a.Value))
				}
			}
		case "circle":
			dots++
		}
	}
	if root != "http://www.w3.org/2000/svg svg" {
		t.Errorf("root element %q, want svg", root)
	}
	return points, dots
}
