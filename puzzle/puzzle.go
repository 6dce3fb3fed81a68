// Package puzzle makes and keeps Emergo puzzles: positions from real games
// where exactly one move wins clearly, with the solution line the solver
// must find, the themes it shows and a rating of its difficulty.
//
// A position is a puzzle when a search to a fixed depth (the verification
// depth of Criteria) scores one move at least Criteria.Win for the side to
// move and every other move at most Criteria.Equal: the move wins material
// or the game, and nothing else keeps even a small advantage. Moves whose
// paths differ but lead to the same position (RULES 3.7) count as one. The
// line goes on, after the opponent's best reply, while the solver's next
// move is again the only good one, up to MaxSolverMoves moves of the
// solver. Verification is a function of the position and the criteria
// alone (one thread, a table of a fixed size cleared before each search),
// so a set is reproducible from its command and its uniqueness testable
// (TestSetsAreUnique).
//
// Gen finds candidates in self-play games between noisy engines and in
// game records, screens each position with a shallow search and verifies
// the promising ones. The sets made that way ship in data/ and are read by
// Set. The solvers' and puzzles' ratings live elsewhere (Store).
package puzzle

import (
	"fmt"
	"hash/fnv"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"emergo/notation"
	"emergo/rules"
)

// MaxSolverMoves bounds the moves of the solver in a solution line.
const MaxSolverMoves = 4

// Theme names what a puzzle is about. Themes are found in the solution
// line and the few plies of the search's line after it (the idea of a
// puzzle often shows just after the solver's last move); a puzzle may
// have several or none.
type Theme string

const (
	// Majority: a capture is bound by the majority rule (RULES 3.6): a
	// jump that the mover could make is not legal because a longer
	// sequence exists, which is what forces the capture the line needs.
	Majority Theme = "majority"
	// Freeing: a capture of the solver in the solution frees men of his
	// own that were prisoners (RULES 3.2).
	Freeing Theme = "freeing"
	// Shadow: a shadow piece is entered (RULES 4.2).
	Shadow Theme = "shadow"
	// Blocking: after a move of the solver the opponent has no capture
	// and at most two moves, or none at all.
	Blocking Theme = "blocking"
	// Win: the solution forces the win of the game, every man of the
	// opponent a prisoner (RULES 6.1).
	Win Theme = "win"
)

// Themes lists every theme, in the order a puzzle keeps them.
var Themes = []Theme{Majority, Freeing, Shadow, Blocking, Win}

// Ply is one move of a solution line. Same holds the other paths that
// lead to the same position as Move (RULES 3.7), which a solver may play
// as well; it is empty for the opponent's replies.
type Ply struct {
	Move rules.Move
	Same []rules.Move
}

// Accepts reports whether m is the ply's move or one of the same paths.
func (p Ply) Accepts(m rules.Move) bool { return p.Move == m || slices.Contains(p.Same, m) }

// Puzzle is a position and its solution.
type Puzzle struct {
	ID    string // the board size and a hash of the position: "9-0f3a5c7d21"
	Start rules.Position
	// Line is the solution: the solver's moves at even indices, the
	// opponent's replies at odd ones; it ends with a move of the solver.
	Line   []Ply
	Themes []Theme
	// Rating is the initial rating, from the difficulty (see Rate).
	Rating int
	// Found is the first depth from which the search kept the solution's
	// first move as its best.
	Found int
	// Score is what the verification scored the first move, for the
	// solver, in hundredths of a man (player.Mate for a win).
	Score int32
	// Origin says where the position comes from, such as "self-play 3
	// ply 41" or "record 12 ply 30".
	Origin string
}

// Size returns the board size of p.
func (p *Puzzle) Size() int { return p.Start.Geometry().N }

// SolverMoves returns the number of moves the solver must find.
func (p *Puzzle) SolverMoves() int { return (len(p.Line) + 1) / 2 }

// Solver returns the colour of the solver.
func (p *Puzzle) Solver() rules.Color { return p.Start.Side() }

// HasTheme reports whether p has theme t.
func (p *Puzzle) HasTheme(t Theme) bool { return slices.Contains(p.Themes, t) }

// Game returns a game from the puzzle's start with its first n plies of
// the line played.
func (p *Puzzle) Game(n int) *rules.Game {
	g := rules.NewGameFrom(p.Start)
	for _, pl := range p.Line[:n] {
		if err := g.Play(pl.Move); err != nil {
			panic(fmt.Sprintf("puzzle %s: the line's move %d is not legal: %v", p.ID, len(g.Moves())+1, err))
		}
	}
	return g
}

// IDOf returns the identifier of a puzzle starting at pos with first move
// m: the board size and 40 bits of a hash of both, stable across runs so
// that the ratings of a puzzle survive a new set that finds it again.
func IDOf(pos *rules.Position, m rules.Move) string {
	h := fnv.New64a()
	h.Write([]byte(notation.FormatPosition(pos)))
	h.Write([]byte{' '})
	h.Write([]byte(m.Text(pos.Geometry())))
	return fmt.Sprintf("%d-%010x", pos.Geometry().N, h.Sum64()>>24)
}

// Rate returns the initial rating of a puzzle: harder the deeper the
// search had to look before it kept the first move (found), the more moves
// the solver must find, the more different moves he could choose from at
// first (choices), and when the first move is not a capture (captures are
// compulsory, so a capture is chosen among few).
func Rate(found, solverMoves, choices int, quiet bool) int {
	r := 500 + 110*found + 160*(solverMoves-1) + 40*bits.Len(uint(choices))
	if quiet {
		r += 120
	}
	return min(max(r, 600), 2600)
}

// The text of a set is one puzzle a line, with tab-separated fields:
//
//	id  position  line  themes  rating  found  score  origin
//
// The line is the moves in notation separated by spaces, a solver's move
// followed by its same paths joined with "|"; themes are separated by
// commas ("-" for none). Lines starting with "#" are comments: the
// command that made the set and its criteria ("# criteria depth=8
// win=200 equal=50").

// Format returns the line of p in the text of a set.
func Format(p *Puzzle) string {
	g := p.Start.Geometry()
	var line []string
	for _, pl := range p.Line {
		t := pl.Move.Text(g)
		for _, m := range pl.Same {
			t += "|" + m.Text(g)
		}
		line = append(line, t)
	}
	themes := "-"
	if len(p.Themes) > 0 {
		var ts []string
		for _, t := range p.Themes {
			ts = append(ts, string(t))
		}
		themes = strings.Join(ts, ",")
	}
	return strings.Join([]string{p.ID, notation.FormatPosition(&p.Start), strings.Join(line, " "), themes,
		strconv.Itoa(p.Rating), strconv.Itoa(p.Found), strconv.Itoa(int(p.Score)), p.Origin}, "\t")
}

// Parse reads a line of the text of a set. It checks that every move of
// the line is legal where it is played.
func Parse(text string) (Puzzle, error) {
	f := strings.Split(text, "\t")
	if len(f) != 8 {
		return Puzzle{}, fmt.Errorf("puzzle: %d fields, want 8", len(f))
	}
	p := Puzzle{ID: f[0], Origin: f[7]}
	fail := func(format string, a ...any) (Puzzle, error) {
		return Puzzle{}, fmt.Errorf("puzzle %s: %s", p.ID, fmt.Sprintf(format, a...))
	}
	var err error
	if p.Start, err = notation.ParsePosition(f[1]); err != nil {
		return fail("%v", err)
	}
	g := rules.NewGameFrom(p.Start)
	moves := strings.Fields(f[2])
	if len(moves)%2 == 0 {
		return fail("the line has %d moves; it ends with the solver's", len(moves))
	}
	for i, alts := range moves {
		var pl Ply
		for j, t := range strings.Split(alts, "|") {
			pos := g.Position()
			m, err := notation.ParseMove(&pos, t)
			if err != nil {
				return fail("move %d: %v", i+1, err)
			}
			if !slices.Contains(g.Legal(), m) {
				return fail("move %d %q is not legal", i+1, t)
			}
			if j == 0 {
				pl.Move = m
			} else {
				pl.Same = append(pl.Same, m)
			}
		}
		if i%2 == 1 && len(pl.Same) > 0 {
			return fail("move %d: the opponent's reply has other paths", i+1)
		}
		p.Line = append(p.Line, pl)
		if err := g.Play(pl.Move); err != nil {
			return fail("move %d: %v", i+1, err)
		}
	}
	if f[3] != "-" {
		for _, t := range strings.Split(f[3], ",") {
			if !slices.Contains(Themes, Theme(t)) {
				return fail("unknown theme %q", t)
			}
			p.Themes = append(p.Themes, Theme(t))
		}
	}
	n, err1 := strconv.Atoi(f[4])
	d, err2 := strconv.Atoi(f[5])
	s, err3 := strconv.Atoi(f[6])
	if err1 != nil || err2 != nil || err3 != nil {
		return fail("rating, depth and score must be numbers: %q %q %q", f[4], f[5], f[6])
	}
	p.Rating, p.Found, p.Score = n, d, int32(s)
	return p, nil
}
