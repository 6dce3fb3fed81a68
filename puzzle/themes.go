package puzzle

import (
	"math/bits"
	"slices"

	"emergo/player"
	"emergo/rules"
)

// continuation is how many plies of the search's line after the solution
// the themes look at: the idea of a puzzle often shows a move or two after
// the point where the solver's moves stop being the only good ones.
const continuation = 4

// themesOf finds the themes of p's line followed by the plies of more, the
// search's line after it (as far as its moves are legal), in the order of
// Themes.
func themesOf(p *Puzzle, more []rules.Move) []Theme {
	found := map[Theme]bool{}
	g := rules.NewGameFrom(p.Start)
	moves := make([]rules.Move, 0, len(p.Line)+continuation)
	for _, pl := range p.Line {
		moves = append(moves, pl.Move)
	}
	moves = append(moves, more[:min(len(more), continuation)]...)
	for i, m := range moves {
		if !slices.Contains(g.Legal(), m) {
			break
		}
		pos := g.Position()
		if m.Kind() == rules.Capture && majorityBinds(&pos) {
			found[Majority] = true
		}
		if m.Kind() == rules.Entry && pos.EntrySize() > 1 {
			found[Shadow] = true
		}
		solver := i%2 == 0
		if solver && i < len(p.Line) && frees(&pos, m) {
			found[Freeing] = true
		}
		if err := g.Play(m); err != nil {
			panic("puzzle: a legal move is refused: " + err.Error())
		}
		if solver && blocked(g) {
			found[Blocking] = true
		}
	}
	if p.Score >= player.MateBound || g.Outcome().Reason == rules.NoMen {
		found[Win] = true
	}
	var out []Theme
	for _, t := range Themes {
		if found[t] {
			out = append(out, t)
		}
	}
	return out
}

// majorityBinds reports whether the majority rule (RULES 3.6) forbids a
// jump that the player to move could otherwise begin with: a column of his
// next to an enemy-topped column with an empty square beyond, which no
// legal capture starts with.
func majorityBinds(p *rules.Position) bool {
	g := p.Geometry()
	me := p.Side()
	legal := p.Legal(nil)
	for b := p.Owned(me); b != 0; b &= b - 1 {
		s := lowest(b)
		for d := range 4 {
			n, t := g.Neighbour(s, d), g.Beyond(s, d)
			if n == rules.NoSquare || t == rules.NoSquare {
				continue
			}
			if c := p.At(n); c.Empty() || c.Owner == me || !p.At(t).Empty() {
				continue
			}
			begins := false
			for _, m := range legal {
				begins = begins || (m.Kind() == rules.Capture && m.At(0) == s && m.At(1) == t)
			}
			if !begins {
				return true
			}
		}
	}
	return false
}

// frees reports whether the capture m frees men of the mover: a column it
// jumps was the opponent's and is the mover's after (RULES 3.2). A jumped
// square cannot be landed on later in the move, being occupied, so its
// owner after the move is the one the jump left.
func frees(p *rules.Position, m rules.Move) bool {
	if m.Kind() != rules.Capture {
		return false
	}
	q := p.After(m)
	me := p.Side()
	for i := 1; i < m.Len(); i++ {
		// The jumped square is halfway between two landings in the dense
		// index (see rules.Square).
		s := rules.Square((int(m.At(i-1)) + int(m.At(i))) / 2)
		if c := q.At(s); !c.Empty() && c.Owner == me {
			return true
		}
	}
	return false
}

// blocked reports whether the player to move in g, the opponent after a
// move of the solver, is left with no capture and at most two moves.
func blocked(g *rules.Game) bool {
	legal := g.Legal()
	if g.Outcome().Over() {
		return g.Outcome().Reason == rules.NoMove
	}
	return len(legal) <= 2 && legal[0].Kind() != rules.Capture
}

func lowest(b rules.Bitboard) rules.Square { return rules.Square(bits.TrailingZeros64(uint64(b))) }
