package rules

// Perft counts the leaves of the move tree of p to depth plies, one per
// path (RULES 3.7); a finished game has no children. It ignores repetition
// (RULES 6.3), as perft does in every game. A Perft value owns its stack of
// positions and move buffers, so counting allocates nothing once warm.
type Perft struct {
	// Bulk counts the last ply with CountLegal instead of making every
	// leaf move; both give the same numbers.
	Bulk  bool
	pos   []Position
	moves [][]Move
}

// Count returns the number of leaves of p at depth.
func (pf *Perft) Count(p *Position, depth int) uint64 {
	for len(pf.pos) <= depth {
		pf.pos = append(pf.pos, Position{})
		pf.moves = append(pf.moves, make([]Move, 0, 128))
	}
	pf.pos[0] = *p
	return pf.count(0, depth)
}

func (pf *Perft) count(ply, depth int) uint64 {
	p := &pf.pos[ply]
	if depth == 0 {
		return 1
	}
	if depth == 1 && pf.Bulk {
		return uint64(p.CountLegal())
	}
	ms := p.Legal(pf.moves[ply][:0])
	pf.moves[ply] = ms
	if depth == 1 {
		// Make each leaf, so that this mode measures the cost of Play.
		var n uint64
		child := &pf.pos[ply+1]
		for _, m := range ms {
			*child = *p
			child.Play(m)
			n++
		}
		return n
	}
	var n uint64
	for _, m := range ms {
		pf.pos[ply+1] = *p
		pf.pos[ply+1].Play(m)
		n += pf.count(ply+1, depth-1)
	}
	return n
}
