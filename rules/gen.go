package rules

import "math/bits"

// Move generation. The order of the questions follows the rules: a capture
// if there is one (RULES 3.5), else an entry while the player has men in
// hand (RULES 4.1), else a step (RULES 5.1).

// canCapture reports whether colour c has a jump anywhere: a column of c
// next to an enemy-topped column with an empty square beyond.
func (p *Position) canCapture(c Color) bool {
	g := p.geo
	empty := g.All &^ (p.own[0] | p.own[1])
	mine, theirs := p.own[c], p.own[c.Other()]
	for d := 0; d < 4; d++ {
		if g.Shift(g.Shift(mine, d)&theirs, d)&empty != 0 {
			return true
		}
	}
	return false
}

// CanCapture reports whether the player to move must capture.
func (p *Position) CanCapture() bool { return p.canCapture(p.side) }

// Entries returns the squares where the player to move may enter, or 0 if
// he has no men in hand. It applies the centre ban of White's first move
// (RULES 4.3) and the no-feeding rule (RULES 4.4), for a single man and
// for the shadow piece alike (RULES 4.5). It does not check for captures,
// which come first.
func (p *Position) Entries() Bitboard {
	if p.hand[p.side] == 0 {
		return 0
	}
	g := p.geo
	empty := g.All &^ (p.own[0] | p.own[1])
	allowed := empty
	if p.FirstMove() {
		allowed &^= 1 << g.Centre
	}
	opp := p.side.Other()
	if !p.canCapture(opp) {
		// Before the entry the opponent has no jump, so the only jump the
		// entry can give him is over the new column itself: from an enemy
		// column on one side of the square to an empty square on the other.
		// Edge squares drop out by themselves, having no square beyond.
		theirs := p.own[opp]
		for d := 0; d < 4; d++ {
			allowed &^= g.Shift(theirs, d) & g.Shift(empty, 3-d)
		}
	}
	return allowed
}

// HasQuietMove reports whether the player to move has an entry or a step
// (RULES 4, 5): with no capture either, he has no legal move, and the game
// is drawn (RULES 6.2) unless it is lost (6.1). A search meets the
// question at every leaf, so it is answered without building or counting
// the moves: an empty square on the rim is always an entry, since no jump
// lands beyond it (RULES 4.4 bans none of them, and 4.3 only the centre),
// and a step is found at its first direction.
func (p *Position) HasQuietMove() bool {
	g := p.geo
	empty := g.All &^ (p.own[0] | p.own[1])
	if p.hand[p.side] > 0 {
		return empty&g.Edge != 0 || p.Entries() != 0
	}
	for d := 0; d < 4; d++ {
		if g.Shift(p.own[p.side], d)&empty != 0 {
			return true
		}
	}
	return false
}

// Legal appends the legal moves of p to dst and returns it. It appends
// nothing when the player to move has no legal move, which includes the
// lost position of RULES 6.1. Repetition (RULES 6.3) needs the history and
// is the business of Game. dst is only grown when it lacks capacity, so a
// caller that reuses its buffer makes generation allocation-free.
func (p *Position) Legal(dst []Move) []Move {
	if p.canCapture(p.side) {
		var cg capGen
		cg.init(p)
		cg.dst = dst
		cg.start = len(dst)
		cg.run(p)
		return cg.dst
	}
	if p.hand[p.side] > 0 {
		for b := p.Entries(); b != 0; b &= b - 1 {
			dst = append(dst, EntryMove(Square(bits.TrailingZeros64(uint64(b)))))
		}
		return dst
	}
	g := p.geo
	empty := g.All &^ (p.own[0] | p.own[1])
	for d := 0; d < 4; d++ {
		for b := g.Shift(p.own[p.side], d) & empty; b != 0; b &= b - 1 {
			to := Square(bits.TrailingZeros64(uint64(b)))
			dst = append(dst, StepMove(Square(int(to)-g.shift[d]), to))
		}
	}
	return dst
}

// CountLegal returns len(p.Legal(nil)) without building the moves: entries
// and steps are counted with a population count, captures by walking the
// sequences. It is the last ply of a bulk-counting perft.
func (p *Position) CountLegal() int {
	if p.canCapture(p.side) {
		var cg capGen
		cg.init(p)
		cg.countOnly = true
		cg.run(p)
		return cg.count
	}
	return p.countQuiet()
}

// countQuiet counts the entries of the player to move if he has men in
// hand, else his steps: his legal moves when he has no capture.
func (p *Position) countQuiet() int {
	if p.hand[p.side] > 0 {
		return bits.OnesCount64(uint64(p.Entries()))
	}
	g := p.geo
	empty := g.All &^ (p.own[0] | p.own[1])
	n := 0
	for d := 0; d < 4; d++ {
		n += bits.OnesCount64(uint64(g.Shift(p.own[p.side], d) & empty))
	}
	return n
}

// capGen walks every capture sequence of the player to move on a scratch
// copy of the board, keeping only the longest (RULES 3.6) in its list:
// a longer sequence clears the list, a shorter one is dropped.
type capGen struct {
	g         *Geometry
	theirs    Bitboard // enemy-topped squares: the ones that can be jumped
	empty     Bitboard
	top, pris [MaxSquares]uint8
	path      [maxPath]Square
	best      int // jumps of the longest sequence so far
	count     int // sequences of that length
	countOnly bool
	start     int
	dst       []Move
}

func (cg *capGen) init(p *Position) {
	cg.g = p.geo
	cg.theirs = p.own[p.side.Other()]
	cg.empty = p.geo.All &^ (p.own[0] | p.own[1])
	cg.top, cg.pris = p.top, p.pris
}

func (cg *capGen) run(p *Position) {
	g := cg.g
	// Only columns next to an enemy column with an empty square beyond can
	// start a sequence.
	var starts Bitboard
	mine := p.own[p.side]
	for d := 0; d < 4; d++ {
		starts |= g.Shift(g.Shift(cg.empty, 3-d)&cg.theirs, 3-d) & mine
	}
	for b := starts; b != 0; b &= b - 1 {
		s := Square(bits.TrailingZeros64(uint64(b)))
		cg.path[0] = s
		cg.empty |= 1 << s // the start square is empty during the sequence (RULES 3.4)
		cg.walk(s, -1, 0)
		cg.empty &^= 1 << s
	}
}

// walk extends the sequence that has made n jumps and stands on s, having
// arrived in direction last (-1 before the first jump).
func (cg *capGen) walk(s Square, last, n int) {
	g := cg.g
	extended := false
	for d := 0; d < 4; d++ {
		if d == 3-last { // no 180-degree turn (RULES 3.3)
			continue
		}
		t := g.jump[s][d]
		if t == NoSquare {
			continue
		}
		m := g.nb[s][d]
		if cg.theirs>>m&1 == 0 || cg.empty>>t&1 == 0 {
			continue
		}
		extended = true
		// Take the top man of m (RULES 3.2); it may free the prisoners
		// below, which then belong to the mover and cannot be jumped.
		theirs, empty := cg.theirs, cg.empty
		top, pris := cg.top[m], cg.pris[m]
		cg.top[m]--
		if cg.top[m] == 0 {
			cg.theirs &^= 1 << m
			if pris > 0 {
				cg.top[m], cg.pris[m] = pris, 0
			} else {
				cg.empty |= 1 << m
			}
		}
		cg.empty = cg.empty&^(1<<t) | 1<<s
		cg.path[n+1] = t
		cg.walk(t, d, n+1)
		cg.theirs, cg.empty = theirs, empty
		cg.top[m], cg.pris[m] = top, pris
	}
	if extended || n == 0 {
		return
	}
	switch {
	case n < cg.best:
		return
	case n > cg.best:
		cg.best, cg.count = n, 0
		if !cg.countOnly {
			cg.dst = cg.dst[:cg.start]
		}
	}
	cg.count++
	if !cg.countOnly {
		m := Move{kind: Capture, n: uint8(n + 1)}
		copy(m.path[:n+1], cg.path[:n+1])
		cg.dst = append(cg.dst, m)
	}
}
