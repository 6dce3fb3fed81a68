package rules

// Kind says what a move does: enter from hand, step, or capture.
type Kind uint8

const (
	Entry   Kind = iota + 1 // one man, or the shadow piece, from hand (RULES 4)
	Step                    // a column one square diagonally (RULES 5)
	Capture                 // a sequence of jumps (RULES 3)
)

// maxPath bounds the squares of a capture: every jump takes one enemy man
// from the top of a column, and a colour has at most 12 men, so a sequence
// has at most 12 jumps and 13 squares.
const maxPath = 14

// Move is one turn as a value of 16 bytes: its kind and its path of
// squares. An entry's path is its square; a step's is from and to; a
// capture's is the start and every landing square (RULES 7.3). Two
// captures with different paths are different moves even if they lead to
// the same position (RULES 3.7). The zero Move is not a move.
type Move struct {
	kind Kind
	n    uint8
	path [maxPath]Square
}

// EntryMove returns the entry on s. Whether it is one man or the shadow
// piece follows from the position it is played in.
func EntryMove(s Square) Move {
	return Move{kind: Entry, n: 1, path: [maxPath]Square{s}}
}

// StepMove returns the step from a to b.
func StepMove(a, b Square) Move {
	return Move{kind: Step, n: 2, path: [maxPath]Square{a, b}}
}

// CaptureMove returns the capture along path: the start square then every
// landing square. It returns false if the path has fewer than two squares
// or more than a capture can have.
func CaptureMove(path []Square) (Move, bool) {
	if len(path) < 2 || len(path) > maxPath-1 {
		return Move{}, false
	}
	m := Move{kind: Capture, n: uint8(len(path))}
	copy(m.path[:], path)
	return m, true
}

// Kind returns the kind of m.
func (m Move) Kind() Kind { return m.kind }

// IsZero reports whether m is the zero Move.
func (m Move) IsZero() bool { return m.kind == 0 }

// From returns the first square of the path: the entry square, or the
// square the column starts from.
func (m Move) From() Square { return m.path[0] }

// To returns the last square of the path: where the column ends.
func (m Move) To() Square { return m.path[m.n-1] }

// Len returns the number of squares in the path.
func (m Move) Len() int { return int(m.n) }

// At returns the i-th square of the path.
func (m Move) At(i int) Square { return m.path[i] }

// Jumps returns how many men a capture takes; 0 for other moves.
func (m Move) Jumps() int {
	if m.kind != Capture {
		return 0
	}
	return int(m.n) - 1
}

// AppendText appends the move in the notation of RULES 7 to b: "e5",
// "c3-d4" or "c3xe5xg7".
func (m Move) AppendText(b []byte, g *Geometry) []byte {
	sep := byte('x')
	if m.kind == Step {
		sep = '-'
	}
	for i := 0; i < int(m.n); i++ {
		if i > 0 {
			b = append(b, sep)
		}
		b = g.AppendName(b, m.path[i])
	}
	return b
}

// Text returns the move in the notation of RULES 7 on board g.
func (m Move) Text(g *Geometry) string {
	if m.kind == 0 {
		return "-"
	}
	var buf [3 * maxPath]byte
	return string(m.AppendText(buf[:0], g))
}

// MaxMoves bounds the legal moves of a position, so that a caller may keep
// them in buffers of this size and index them with a byte, as the search
// does. Entries are at most one per square (41), steps at most four for
// each of a colour's columns (48, a colour having 12 men); captures have
// no short bound of that kind, since every path counts (RULES 3.7), but
// the richest capture position known has 56 (TestMaxMoves, which also
// checks the test vectors and many random games against the bound).
const MaxMoves = 256
