package egtb

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"emergo/rules"
)

// The three-column tables were not built (docs/endgame.md gives the
// figures of the attempt). BenchmarkThreeColumnVisit measures what one
// visit of a three-column position would cost a generator that works as
// Generate does: building the position and generating its moves and the
// positions they lead to. A pass of the analysis visits every position.
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
