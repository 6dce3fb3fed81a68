package rules

// Play makes the legal move m on p, updating the hash incrementally. It
// does not check legality: m must come from p.Legal or be matched against
// it (Game.Play does). Search copies the position first and plays on the
// copy (copy-make), so there is no undo.
func (p *Position) Play(m Move) {
	me, opp := p.side, p.side.Other()
	switch m.kind {
	case Entry:
		s := m.path[0]
		n := uint8(p.EntrySize())
		p.hash ^= zHand[me][p.hand[me]] ^ zHand[me][p.hand[me]-n]
		p.hand[me] -= n
		p.own[me] |= 1 << s
		p.top[s] = n
		p.hash ^= zTop[me][n][s]
	case Step:
		a, b := m.path[0], m.path[1]
		p.hash ^= zTop[me][p.top[a]][a] ^ zPris[me][p.pris[a]][a] ^
			zTop[me][p.top[a]][b] ^ zPris[me][p.pris[a]][b]
		p.own[me] ^= 1<<a | 1<<b
		p.top[b], p.pris[b] = p.top[a], p.pris[a]
		p.top[a], p.pris[a] = 0, 0
	case Capture:
		a := m.path[0]
		k, pr := p.top[a], p.pris[a]
		p.hash ^= zTop[me][k][a] ^ zPris[me][pr][a]
		p.own[me] &^= 1 << a
		p.top[a], p.pris[a] = 0, 0
		for i := 1; i < int(m.n); i++ {
			// The jumped square is halfway between two landings: the
			// dense index makes every direction a constant difference.
			s := Square((int(m.path[i-1]) + int(m.path[i])) / 2)
			p.hash ^= zTop[opp][p.top[s]][s] ^ zPris[opp][p.pris[s]][s]
			p.top[s]--
			if p.top[s] == 0 {
				p.own[opp] &^= 1 << s
				if p.pris[s] > 0 { // the prisoners are freed (RULES 3.2)
					p.top[s], p.pris[s] = p.pris[s], 0
					p.own[me] |= 1 << s
					p.hash ^= zTop[me][p.top[s]][s]
				}
			} else {
				p.hash ^= zTop[opp][p.top[s]][s] ^ zPris[opp][p.pris[s]][s]
			}
		}
		b := m.path[m.n-1]
		pr += m.n - 1
		p.own[me] |= 1 << b
		p.top[b], p.pris[b] = k, pr
		p.hash ^= zTop[me][k][b] ^ zPris[me][pr][b]
	default:
		panic("rules: Play with the zero Move")
	}
	p.side = opp
	p.hash ^= zSide
}

// After returns the position after m, leaving p unchanged.
func (p Position) After(m Move) Position {
	p.Play(m)
	return p
}

// PlayNull passes the turn: the same board with the other side to move.
// No rule allows a pass (RULES 1.3); the search uses it to ask whether a
// position is so good that even a free move for the opponent would not
// save him (null-move pruning).
func (p *Position) PlayNull() {
	p.side = p.side.Other()
	p.hash ^= zSide
}
