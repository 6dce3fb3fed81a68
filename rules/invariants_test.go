package rules_test

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"emergo/notation"
	"emergo/rules"
)

// Properties that hold after every move of every game: men conserved,
// columns of the right shape, the incremental hash equal to the one
// recomputed from scratch, equal positions with equal hashes, and Legal,
// CountLegal and the two perft modes in agreement.

// checkPosition fails t if p, reached in a game from the start, breaks an
// invariant of RULES 1.4 and 2.2 or of the representation.
func checkPosition(t *testing.T, p *rules.Position) {
	t.Helper()
	g := p.Geometry()
	if err := p.Validate(); err != nil {
		t.Fatalf("%s: %v", positionText(p), err)
	}
	var men [2]int
	men[rules.White], men[rules.Black] = p.Hand(rules.White), p.Hand(rules.Black)
	for s := rules.Square(0); int(s) < g.Squares; s++ {
		c := p.At(s)
		owned := [2]bool{p.Owned(rules.White)>>s&1 == 1, p.Owned(rules.Black)>>s&1 == 1}
		if c.Empty() {
			if c != (rules.Column{}) || owned[0] || owned[1] || p.Empty()>>s&1 != 1 {
				t.Fatalf("%s: empty %s is %+v, owned %v", positionText(p), g.Name(s), c, owned)
			}
			continue
		}
		if c.Top < 1 || c.Prisoners < 0 || !owned[c.Owner] || owned[c.Owner.Other()] || p.Occupied()>>s&1 != 1 {
			t.Fatalf("%s: %s is %+v, owned %v", positionText(p), g.Name(s), c, owned)
		}
		men[c.Owner] += c.Top
		men[c.Owner.Other()] += c.Prisoners
	}
	for c := rules.White; c <= rules.Black; c++ {
		if men[c] != g.Men || p.Men(c) != g.Men {
			t.Fatalf("%s: %v has %d men (Men says %d), want %d", positionText(p), c, men[c], p.Men(c), g.Men)
		}
	}
	if p.Occupied()&^g.All != 0 {
		t.Fatalf("%s: columns off the board", positionText(p))
	}
}

// checkLegal fails t unless Legal, CountLegal, Entries and CanCapture
// tell the same story about p.
func checkLegal(t *testing.T, p *rules.Position, ms []rules.Move) {
	t.Helper()
	g := p.Geometry()
	if n := p.CountLegal(); n != len(ms) {
		t.Fatalf("%s: CountLegal %d, Legal %d", positionText(p), n, len(ms))
	}
	texts := moveTexts(g, ms)
	for i := 1; i < len(texts); i++ {
		if texts[i] == texts[i-1] {
			t.Fatalf("%s: %s listed twice", positionText(p), texts[i])
		}
	}
	if !p.CanCapture() && p.HasQuietMove() != (len(ms) > 0) {
		t.Fatalf("%s: HasQuietMove %v with %d legal moves", positionText(p), p.HasQuietMove(), len(ms))
	}
	if len(ms) == 0 {
		return
	}
	kind := ms[0].Kind()
	for _, m := range ms {
		if m.Kind() != kind {
			t.Fatalf("%s: %s and %s mix kinds", positionText(p), ms[0].Text(g), m.Text(g))
		}
	}
	switch {
	case p.CanCapture():
		if kind != rules.Capture || ms[0].Jumps() != ms[len(ms)-1].Jumps() {
			t.Fatalf("%s: capture position with %v", positionText(p), texts)
		}
	case p.Hand(p.Side()) > 0:
		if kind != rules.Entry || bits.OnesCount64(uint64(p.Entries())) != len(ms) {
			t.Fatalf("%s: entering position with %v", positionText(p), texts)
		}
	default:
		if kind != rules.Step {
			t.Fatalf("%s: stepping position with %v", positionText(p), texts)
		}
	}
}

func TestInvariants(t *testing.T) {
	games := 2000
	if testing.Short() {
		games = 200
	}
	for _, g := range []*rules.Geometry{rules.Geometry9, rules.Geometry7} {
		t.Run(fmt.Sprintf("%dx%d", g.N, g.N), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(uint64(g.N), 11))
			// Every position met, by its text and by its hash: equal
			// positions must have equal hashes, and in practice different
			// positions different ones.
			byText := map[string]uint64{}
			byHash := map[uint64]string{}
			var buf []rules.Move
			for range games {
				p := rules.NewPosition(g)
				bias := rng.Float64() * 0.8
				for ply := 0; ply < 300; ply++ {
					checkPosition(t, &p)
					text := positionText(&p)
					if h, ok := byText[text]; ok && h != p.Hash() {
						t.Fatalf("%s: two hashes %x and %x", text, h, p.Hash())
					}
					if other, ok := byHash[p.Hash()]; ok && other != text {
						t.Fatalf("hash %x for %s and %s", p.Hash(), text, other)
					}
					byText[text], byHash[p.Hash()] = p.Hash(), text
					fresh, err := parsePosition(text)
					if err != nil {
						t.Fatal(err)
					}
					if fresh != p {
						t.Fatalf("%s: rebuilt position differs", text)
					}

					buf = p.Legal(buf[:0])
					checkLegal(t, &p, buf)
					if len(buf) == 0 {
						break
					}
					m := buf[rng.IntN(len(buf))]
					if rng.Float64() < bias {
						for _, c := range buf {
							if q := p.After(c); q.CanCapture() {
								m = c
								break
							}
						}
					}
					q := p.After(m)
					if q.Side() == p.Side() || q.Hand(rules.White) > p.Hand(rules.White) || q.Hand(rules.Black) > p.Hand(rules.Black) {
						t.Fatalf("%s after %s: side or hands went wrong", text, m.Text(g))
					}
					p = q
				}
			}
		})
	}
}

// TestTranspositions plays two moves of the side to move in both orders
// around the same reply, and checks that when the columns agree the
// positions and their hashes agree too.
func TestTranspositions(t *testing.T) {
	// The simplest case, by hand: 1.c3 g7 2.e3 and 1.e3 g7 2.c3.
	start := rules.NewPosition(rules.Geometry9)
	a := after(t, after(t, after(t, start, "c3"), "g7"), "e3")
	b := after(t, after(t, after(t, start, "e3"), "g7"), "c3")
	if a != b || a.Hash() != b.Hash() {
		t.Fatalf("1.c3 g7 2.e3 and 1.e3 g7 2.c3 differ: %x %x", a.Hash(), b.Hash())
	}

	rng := rand.New(rand.NewPCG(3, 4))
	n := 300
	if testing.Short() {
		n = 60
	}
	found := map[rules.Kind]int{}
	for _, p := range randomPositions(rng, n) {
		ms := p.Legal(nil)
		if len(ms) < 2 || ms[0].Kind() == rules.Capture {
			continue
		}
		for try := 0; try < 6; try++ {
			m1, m2 := ms[rng.IntN(len(ms))], ms[rng.IntN(len(ms))]
			if m1 == m2 {
				continue
			}
			q1 := p.After(m1)
			replies := q1.Legal(nil)
			if len(replies) == 0 {
				continue
			}
			r := replies[rng.IntN(len(replies))]
			x, ok1 := playLine(p, m1, r, m2)
			y, ok2 := playLine(p, m2, r, m1)
			if !ok1 || !ok2 {
				continue
			}
			if positionText(&x) != positionText(&y) {
				continue
			}
			if x != y || x.Hash() != y.Hash() {
				g := p.Geometry()
				t.Fatalf("%s: %s %s %s and %s %s %s reach the same columns with hashes %x and %x",
					positionText(&p), m1.Text(g), r.Text(g), m2.Text(g), m2.Text(g), r.Text(g), m1.Text(g), x.Hash(), y.Hash())
			}
			found[m1.Kind()]++
		}
	}
	if found[rules.Entry] == 0 || found[rules.Step] == 0 {
		t.Errorf("too few transpositions: %v", found)
	}
}

// playLine plays moves from p if each is legal in turn.
func playLine(p rules.Position, moves ...rules.Move) (rules.Position, bool) {
	for _, m := range moves {
		if !slices.Contains(p.Legal(nil), m) {
			return p, false
		}
		p.Play(m)
	}
	return p, true
}

// TestPerftBulkAgrees compares the two perft modes, and a plain recursion
// over Legal and After, on random positions.
func TestPerftBulkAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 60
	if testing.Short() {
		n = 16
	}
	bulk, mk := rules.Perft{Bulk: true}, rules.Perft{}
	for i, p := range randomPositions(rng, n) {
		depth := 2 + i%2
		a, b := bulk.Count(&p, depth), mk.Count(&p, depth)
		c := plainPerft(&p, depth)
		if a != b || a != c {
			t.Errorf("%s: perft(%d) bulk %d, make %d, plain %d", positionText(&p), depth, a, b, c)
		}
	}
}

func plainPerft(p *rules.Position, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range p.Legal(nil) {
		q := p.After(m)
		n += plainPerft(&q, depth-1)
	}
	return n
}

// A pass (PlayNull, for the search) hands the move to the other side and
// nothing else: the hash is that of the same board with the other side to
// move, and a second pass gives the position back.
func TestPlayNull(t *testing.T) {
	for _, text := range []string{"9x9 w 3/4 c3:W2b1 e5:B1", "7x7 b 0/0 a1:W3b1 c3:B1 e5:W1"} {
		p, err := notation.ParsePosition(text)
		if err != nil {
			t.Fatal(err)
		}
		q := p
		q.PlayNull()
		flipped := strings.Replace(text, " w ", " b ", 1)
		if p.Side() == rules.Black {
			flipped = strings.Replace(text, " b ", " w ", 1)
		}
		want, err := notation.ParsePosition(flipped)
		if err != nil {
			t.Fatal(err)
		}
		if q != want {
			t.Errorf("%s after a pass: %s, want %s", text, notation.FormatPosition(&q), flipped)
		}
		q.PlayNull()
		if q != p {
			t.Errorf("%s after two passes: %s", text, notation.FormatPosition(&q))
		}
	}
}

// HasQuietMove answers for the positions of RULES 6.2 without the moves:
// a lone man in a corner whose only neighbour is taken and cannot be
// jumped has none.
func TestHasQuietMove(t *testing.T) {
	for _, c := range []struct {
		pos  string
		want bool
	}{
		{"7x7 w 0/0 a7:W1 b6:B1 c5:B1", false},            // blocked in the corner
		{"7x7 w 0/0 a7:W1 c5:B1 e3:B1", true},             // b6 is free
		{"7x7 w 0/0 a7:W1 b6:B1 c5:B1 e3:W2b1", true},     // another column steps
		{"9x9 w 12/12 -", true},                           // the start: 40 entries
		{"7x7 b 0/1 a7:W1 b6:B1 c5:B1 c7:B1 a5:B1", true}, // an entry is left
		// RULES 4.6: White has men in hand and Black no capture, so no
		// entry may be jumped (4.4), and every empty square can be: the
		// rim is full, and Black's d4, corners, a3, c1 and g5 stand next
		// to every other square with an empty square beyond. No entry is
		// allowed, and no step instead.
		{"7x7 w 2/0 a1:B1 g7:B1 a7:B1 g1:B1 d4:B1 a3:B1 c1:B1 g5:B1 d6:W1 c7:W1 e7:W1 a5:W1 e1:W1 g3:W1", false},
		// Without g5 (its man back in Black's hand) the rim has a gap and
		// f4 no attacker: two entries.
		{"7x7 w 2/1 a1:B1 g7:B1 a7:B1 g1:B1 d4:B1 a3:B1 c1:B1 d6:W1 c7:W1 e7:W1 a5:W1 e1:W1 g3:W1", true},
	} {
		p, err := notation.ParsePosition(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		if p.CanCapture() {
			t.Fatalf("%s: a capture position, not a case of HasQuietMove", c.pos)
		}
		if got := p.HasQuietMove(); got != c.want {
			t.Errorf("%s: HasQuietMove %v, want %v", c.pos, got, c.want)
		}
		if got := len(p.Legal(nil)) > 0; got != c.want {
			t.Errorf("%s: Legal says %v, want %v", c.pos, got, c.want)
		}
	}
}
