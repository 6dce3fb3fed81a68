package eval_test

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"emergo/eval"
	"emergo/rules"
)

// randomPositions plays random games on g and returns n of their
// positions, spread over the games' openings, middles and ends.
func randomPositions(g *rules.Geometry, n int, r *rand.Rand) []rules.Position {
	var out []rules.Position
	var moves []rules.Move
	for len(out) < n {
		p := rules.NewPosition(g)
		for ply := 0; ply < 200 && len(out) < n; ply++ {
			moves = p.Legal(moves[:0])
			if len(moves) == 0 || p.Lost() {
				break
			}
			p.Play(moves[r.IntN(len(moves))])
			if r.IntN(4) == 0 {
				out = append(out, p)
			}
		}
	}
	return out
}

// image is p carried by the symmetry k of the square board, the side to
// move and the hands kept: k%4 quarter turns, then a mirror if k >= 4.
// The eight are built here from the two moves, not copied from the
// tables' list, so that a wrong entry there does not hide.
func image(t *testing.T, p *rules.Position, k int) rules.Position {
	g := p.Geometry()
	n := g.N
	at := func(f, r int) (int, int) {
		for range k % 4 {
			f, r = r, n-1-f
		}
		if k >= 4 {
			f = n - 1 - f
		}
		return f, r
	}
	cols := map[rules.Square]rules.Column{}
	for s := rules.Square(0); int(s) < g.Squares; s++ {
		if c := p.At(s); !c.Empty() {
			cols[g.At(at(g.FileRank(s)))] = c
		}
	}
	q, err := rules.PositionOf(g, cols, [2]int{p.Hand(rules.White), p.Hand(rules.Black)}, p.Side())
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func TestPatternLines(t *testing.T) {
	// The dark squares' diagonals of 7x7 are 1, 3, 5, 7, 5, 3 and 1
	// squares long each way: 13 lines of three each way; of 9x9, 25.
	for _, tt := range []struct{ size, lines int }{{7, 26}, {9, 50}} {
		pt := eval.NewPatterns(rules.GeometryOf(tt.size))
		if pt.Lines() != tt.lines {
			t.Errorf("%dx%d: %d lines, want %d", tt.size, tt.size, pt.Lines(), tt.lines)
		}
		// Each class holds the images of one line: at most 8 of them.
		if pt.Classes()*8 < tt.lines || pt.Classes() >= tt.lines {
			t.Errorf("%dx%d: %d classes for %d lines", tt.size, tt.size, pt.Classes(), tt.lines)
		}
		if pt.Size() != eval.Phases*pt.Classes()*eval.LineStates {
			t.Errorf("%dx%d: %d weights", tt.size, tt.size, pt.Size())
		}
		t.Logf("%dx%d: %d lines in %d classes, %d weights", tt.size, tt.size, pt.Lines(), pt.Classes(), pt.Size())
	}
}

// randomPatterns returns tables of g of random weights, tied as the
// engine's are.
func randomPatterns(g *rules.Geometry, r *rand.Rand) *eval.Patterns {
	pt := eval.NewPatterns(g)
	for i := range pt.W {
		pt.W[i] = int16(r.IntN(2001) - 1000)
	}
	pt.Tie()
	return pt
}

// TestPatternsSymmetric checks that random tables give a position and its
// seven images one score: the lines share their tables in the order the
// symmetries give their squares.
func TestPatternsSymmetric(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{7, 9} {
		g := rules.GeometryOf(size)
		pt := randomPatterns(g, r)
		for _, p := range randomPositions(g, 300, r) {
			want := pt.Score(&p)
			for k := 1; k < 8; k++ {
				q := image(t, &p, k)
				if got := pt.Score(&q); got != want {
					t.Fatalf("%dx%d: symmetry %d of %v scores %d, want %d", size, size, k, p, got, want)
				}
			}
		}
	}
}

// TestPatternsActive checks that the weights Active names add up to Score.
func TestPatternsActive(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, size := range []int{7, 9} {
		g := rules.GeometryOf(size)
		pt := randomPatterns(g, r)
		var idx []int32
		for _, p := range randomPositions(g, 200, r) {
			idx = pt.Active(&p, idx[:0])
			if len(idx) != pt.Lines() {
				t.Fatalf("%d indices, want one per line, %d", len(idx), pt.Lines())
			}
			var sum int32
			for _, i := range idx {
				sum += int32(pt.W[i])
			}
			if got := pt.Score(&p); got != sum {
				t.Fatalf("%dx%d: Score %d, the active weights add up to %d", size, size, got, sum)
			}
		}
	}
}

// TestPatternsBinary checks that the tables' binary form reads back, and
// that a damaged one is refused.
func TestPatternsBinary(t *testing.T) {
	pt := eval.NewPatterns(rules.Geometry7)
	for i := range pt.W {
		pt.W[i] = int16(i*7919 - 30000)
	}
	pt.Tie()
	data, err := pt.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := eval.UnmarshalPatterns(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.Geometry() != rules.Geometry7 || !slices.Equal(back.W, pt.W) {
		t.Fatal("the tables read back differ")
	}
	for _, bad := range [][]byte{nil, data[:len(data)-1], append(bytes.Clone(data), 0, 0), []byte("EMGP1\x05\x02\x05")} {
		if _, err := eval.UnmarshalPatterns(bad); err == nil {
			t.Errorf("%d bytes read as tables", len(bad))
		}
	}
}

// BenchmarkEvaluate scores positions of random games of each board with
// the handcrafted weights alone and with the trained evaluation the
// engine plays with (the tables added).
func BenchmarkEvaluate(b *testing.B) {
	plain9 := eval.Default
	plain9.Patterns, plain9.Small = nil, nil
	for _, bb := range []struct {
		name       string
		g          *rules.Geometry
		plain, all *eval.Weights
	}{
		{"7x7/handcrafted", rules.Geometry7, &eval.Default7, &eval.Trained7},
		{"9x9/handcrafted", rules.Geometry9, &plain9, &eval.Default},
	} {
		ps := randomPositions(bb.g, 1024, rand.New(rand.NewPCG(5, 6)))
		for _, w := range []struct {
			name string
			w    *eval.Weights
		}{{bb.name, bb.plain}, {strings.Replace(bb.name, "handcrafted", "trained", 1), bb.all}} {
			b.Run(w.name, func(b *testing.B) {
				var sink int32
				for i := 0; b.Loop(); i++ {
					sink += w.w.Evaluate(&ps[i%len(ps)])
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "evals/s")
				_ = sink
			})
		}
	}
}
