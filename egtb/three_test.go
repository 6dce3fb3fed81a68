package egtb

import (
	"bytes"
	"compress/gzip"
	"math/bits"
	"math/rand/v2"
	"os"
	"testing"

	"emergo/rules"
)

// The embedded 7x7 three-column table is GenerateThree's, byte for byte;
// -update rewrites it. The generation takes most of a minute and 0.3 GB.
func TestEmbeddedThree(t *testing.T) {
	if testing.Short() {
		t.Skip("the three-column table takes most of a minute to generate")
	}
	tab, st, err := GenerateThree(rules.Geometry7, For(rules.Geometry7), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("7x7, three columns: %+v", st)
	if *update {
		var b bytes.Buffer
		w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		w.Write(tab.Bytes())
		w.Close()
		if err := os.WriteFile("three7.bin.gz", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	embedded, err := ThreeFor(rules.Geometry7)
	if err != nil || embedded == nil {
		t.Fatalf("the embedded table: %v, %v", embedded, err)
	}
	if !bytes.Equal(embedded.Bytes(), tab.Bytes()) {
		t.Errorf("the embedded three-column table differs from GenerateThree's: go test ./egtb -run EmbeddedThree -update")
	}
}

// A three-column position's key gives back the position: the index is
// one to one on the table's positions.
func TestThreeKeys(t *testing.T) {
	tab := &Three{geo: rules.Geometry7, mk: makeupsOf(rules.Geometry7)}
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		p := randomThree(rules.Geometry7, r)
		k, ok := keyOf3(&p)
		if !ok {
			t.Fatalf("%v: no key", p)
		}
		i := tab.index(k)
		back, ok := tab.keyAt(i)
		if !ok || back != k {
			t.Fatalf("%v: key %+v, entry %d, back %+v", p, k, i, back)
		}
		q, err := tab.position(k)
		if err != nil {
			t.Fatal(err)
		}
		// q is p with White to move: the colours swapped if Black was.
		if p.Occupied() != q.Occupied() {
			t.Fatalf("%v: built again as %v", p, q)
		}
		for b := p.Occupied(); b != 0; b &= b - 1 {
			s := rules.Square(bits.TrailingZeros64(uint64(b)))
			c, d := p.At(s), q.At(s)
			if (c.Owner == p.Side()) != (d.Owner == rules.White) || c.Top != d.Top || c.Prisoners != d.Prisoners {
				t.Fatalf("%v: built again as %v", p, q)
			}
		}
	}
	if _, ok := keyOf3(new(rules.Position)); ok {
		t.Error("an empty board has a three-column key")
	}
}

// BenchmarkThreeColumnVisit measures what one visit of a three-column
// position costs GenerateThree's first pass: building the position and
// generating its moves and the positions they lead to.
func BenchmarkThreeColumnVisit(b *testing.B) {
	for _, g := range []*rules.Geometry{rules.Geometry9, rules.Geometry7} {
		b.Run(map[int]string{9: "9x9", 7: "7x7"}[g.N], func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			ps := make([]rules.Position, 1024)
			for i := range ps {
				ps[i] = randomThree(g, r)
			}
			var buf []rules.Move
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				cols := map[rules.Square]rules.Column{}
				for b := ps[i%len(ps)].Occupied(); b != 0; b &= b - 1 {
					s := rules.Square(bits.TrailingZeros64(uint64(b)))
					cols[s] = ps[i%len(ps)].At(s)
				}
				p, err := rules.PositionOf(g, cols, [2]int{}, ps[i%len(ps)].Side())
				if err != nil {
					b.Fatal(err)
				}
				buf = p.Legal(buf[:0])
				for _, m := range buf {
					c := p.After(m)
					_ = c.Hash()
				}
			}
		})
	}
}

// randomThree returns a position with two columns of one player and one
// of the other, every man on the board.
func randomThree(g *rules.Geometry, r *rand.Rand) rules.Position {
	for {
		sq := r.Perm(g.Squares)[:3]
		a1 := 1 + r.IntN(g.Men-1)
		a2 := 1 + r.IntN(g.Men-a1)
		b := 1 + r.IntN(g.Men)
		q1 := r.IntN(g.Men - b + 1)
		p, err := rules.PositionOf(g, map[rules.Square]rules.Column{
			rules.Square(sq[0]): {Owner: rules.White, Top: a1, Prisoners: q1},
			rules.Square(sq[1]): {Owner: rules.White, Top: a2, Prisoners: g.Men - b - q1},
			rules.Square(sq[2]): {Owner: rules.Black, Top: b, Prisoners: g.Men - a1 - a2},
		}, [2]int{}, rules.Color(r.IntN(2)))
		if err == nil {
			return p
		}
	}
}
