// Package eval scores Emergo positions for the search. A score is in
// hundredths of a free man, from the point of view of the side to move.
//
// The terms, each taken as (side to move) minus (opponent):
//
//   - Free men: men on top of own columns plus men in hand. A player whose
//     men are all prisoners and who has nothing in hand has lost (RULES
//     6.1), so this is the material of Emergo. Prisoners a player holds are
//     the opponent's men that are not free, so they are counted here too.
//   - Hostages: prisoners of one's own colour under a single enemy man. One
//     jump frees them all (RULES 3.2), so they are material in waiting.
//   - Exposed: own columns the opponent could jump right now, and the men
//     their jump would take or free.
//   - Columns: the number of own columns; more columns mean more attackers
//     and defenders.
//   - Mobility: steps available, the room to manoeuvre in the endgame.
//   - Edge: own columns on the rim, which can never be jumped (RULES 1.2).
//   - Tall: columns of three men or more, strong attackers that carry a
//     large prize if they are ever taken over.
//   - Hand: men still in hand, the tempo and flexibility of entering, and
//     the shadow piece to come.
//   - Forks: of two or more exposed columns, the men the second most
//     valuable would lose: one move saves one column, seldom two.
//   - Entries: while men are in hand, the empty squares where a man
//     entered could not be jumped at once (RULES 4.4): the room to enter
//     that the opponent's columns have not closed.
//
// The weights live in Weights and are fitted by the tune package on
// self-play games (logistic regression of results on these features),
// one set for each board size: the same feature is not worth the same on
// 9x9 and on 7x7.
package eval

import (
	"math/bits"

	"emergo/rules"
)

// Feature indices: the order of Weights and of Features.
const (
	FreeMen = iota
	Hostages
	ExposedCols
	ExposedMen
	Columns
	Mobility
	Edge
	Tall
	Hand
	Forks
	Entries
	NumFeatures
)

// FeatureNames names the features for tuning tools and reports.
var FeatureNames = [NumFeatures]string{
	"free men", "hostages", "exposed columns", "exposed men", "columns",
	"mobility", "edge", "tall", "hand", "forks", "entries",
}

// Weights holds one weight per feature plus the tempo bonus of the side to
// move, and optionally the weights of the 7x7 board.
type Weights struct {
	W     [NumFeatures]int32
	Tempo int32
	// Patterns, if not nil, adds its tables' score, fitted together with
	// W (a trained evaluation, tune.FitPatterns).
	Patterns *Patterns
	// Small, if not nil, scores the positions of the 7x7 board instead.
	// Fitted apart, the two boards weigh the features differently (an
	// exposed column is worth 65 on 9x9 and 13 on 7x7, an edge column -22
	// and -6), and one set fitted to both played worse than two at 25 ms
	// a move (about 25 Elo; no difference was measured at 100 ms,
	// docs/evidence.md).
	Small *Weights
}

// For returns the weights that score p: Small on the 7x7 board, if w has
// them, else w.
func (w *Weights) For(p *rules.Position) *Weights {
	if w.Small != nil && p.Geometry().N == 7 {
		return w.Small
	}
	return w
}

// Default is the evaluation the engine plays with: on 9x9 the fitted
// weights (Fitted) tuned by play, two runs of 2,000 game pairs at 50,000
// nodes a move, the second from where the first ended (Tuned1): `emergo
// tune spsa -size 9 -pairs 2000 -nodes 50000 -seed 301 -start fitted`,
// then `-seed 501 -start tuned1`; the second run's weights scored +40 Elo
// ([+19, +62], 400 games) against the first's at 100 ms a move on 9x9
// (docs/tuning.md, docs/evidence.md). On them the pattern tables
// Patterns9; on 7x7 the trained evaluation Trained7.
var Default = Weights{
	W:        Handcrafted.W,
	Tempo:    Handcrafted.Tempo,
	Patterns: Patterns9,
	Small:    &Trained7,
}

// Handcrafted is Default without its pattern tables, the evaluation the
// engine played with before them: Default's 9x9 weights, and on 7x7
// Default7. The trained evaluation's data were played, and its fits
// started, from these (docs/tuning.md).
var Handcrafted = Weights{
	W:     [NumFeatures]int32{100, 10, 84, -23, -48, 2, -32, -5, -78, -64, 4},
	Tempo: 17,
	Small: &Default7,
}

// Tuned1 is the 9x9 weights of the first run of tuning by play (from
// Fitted), which the engine played with before Default's second run; on
// 7x7 Default7.
var Tuned1 = Weights{
	W:     [NumFeatures]int32{100, 15, 78, -27, -43, 3, -30, -5, -66, -67, 3},
	Tempo: 14,
	Small: &Default7,
}

// Default7 is Default's weights for the 7x7 board: Fitted7 tuned by play,
// 2,000 game pairs at 50,000 nodes a move (`emergo tune spsa -size 7
// -pairs 2000 -nodes 50000 -seed 101 -start fitted` with the build of
// bfc2447, docs/tuning.md).
// Against Fitted7 they score 54% at that node count; the entries, which
// no fit weighs, are worth 2 a square.
var Default7 = Weights{
	W:     [NumFeatures]int32{100, 4, 24, -8, -22, 6, -13, 1, -37, -26, 2},
	Tempo: 9,
}

// Fitted7 is the 7x7 weights of the second round of fitting, which the
// engine played with before Default7 (`emergo tune fit -size 7`).
var Fitted7 = Weights{
	W:     [NumFeatures]int32{100, 12, 13, -11, -20, 2, -6, -3, -32, -28, 0},
	Tempo: 7,
}

// Fitted is the weights of the second round of fitting, the positions of
// `emergo tune gen -games 2000 -seed 2 -weights round1`
// (tune/testdata/selfplay2.txt.gz) fitted one board size at a time,
// `emergo tune fit -size 9` and `-size 7`: where the tuning by play
// started, and what the engine played with before.
var Fitted = Weights{
	W:     [NumFeatures]int32{100, 16, 65, -27, -33, -1, -22, -4, -51, -67},
	Tempo: 7,
	Small: &Fitted7,
}

// Shared is the second round's weights fitted to the positions of both
// sizes at once and without Forks, which the engine played with before
// Default.
var Shared = Weights{
	W:     [NumFeatures]int32{100, 16, 31, -20, -27, 1, -9, -1, -38},
	Tempo: 6,
}

// Round1 is the first round of fitting, on games played with Initial:
// `emergo tune fit tune/testdata/selfplay.txt.gz`.
var Round1 = Weights{
	W:     [NumFeatures]int32{100, 5, 88, -47, -4, -2, -31, -6, -74},
	Tempo: 10,
}

// Initial is the hand-set weights the first self-play games were played
// with.
var Initial = Weights{
	W:     [NumFeatures]int32{100, 30, -8, -12, 6, 2, 4, 3, 10},
	Tempo: 8,
}

// The simplified judgements of the engine's weak levels (player.Levels):
// a beginner's idea of what a position is worth, not fitted to anything.
var (
	// Beginner counts what one sees of each side: columns and men in
	// hand, a column as one piece however many men it holds. It misjudges
	// the prisoners, the heart of Emergo: taking a man prisoner under a
	// tall column, or freeing one's own, looks like nothing to it.
	Beginner = Weights{W: [NumFeatures]int32{Columns: 100, Hand: 100}}
	// Novice counts the free men, the material (RULES 6.1), and nothing
	// else: the hostages waiting to be freed, the columns open to a jump
	// and the rest of Default's terms are beyond it.
	Novice = Weights{W: [NumFeatures]int32{FreeMen: 100}}
)

// Features fills f with the features of colour c in p (not a difference).
func Features(p *rules.Position, c rules.Color, f *[NumFeatures]int32) {
	var other [NumFeatures]int32
	features(p, c, f, &other)
}

// features fills a with the features of colour c in p and b with those of
// the other colour, in one pass: the shifts and the loops over the columns
// serve both sides (a column's prisoners are the other side's hostages),
// and the evaluation, which needs both, is a sixth of the search's time.
func features(p *rules.Position, c rules.Color, a, b *[NumFeatures]int32) {
	g := p.Geometry()
	mine, theirs := p.Owned(c), p.Owned(c.Other())
	empty := p.Empty()
	*a, *b = [NumFeatures]int32{}, [NumFeatures]int32{}
	// A square with an enemy column on one side and an empty square on
	// the other is in reach of a jump: a column on it is exposed, and a
	// man entered on it would be.
	var reachA, reachB Bitboard
	for d := 0; d < 4; d++ {
		beyond := g.Shift(empty, 3-d)
		fromMine, fromTheirs := g.Shift(mine, d), g.Shift(theirs, d)
		reachA |= fromTheirs & beyond
		reachB |= fromMine & beyond
		a[Mobility] += int32(bits.OnesCount64(uint64(fromMine & empty)))
		b[Mobility] += int32(bits.OnesCount64(uint64(fromTheirs & empty)))
	}
	side(p, g, mine, reachA&mine, a, b)
	side(p, g, theirs, reachB&theirs, b, a)
	a[Hand] = int32(p.Hand(c))
	b[Hand] = int32(p.Hand(c.Other()))
	if a[Hand] != 0 {
		a[Entries] = int32(bits.OnesCount64(uint64(empty &^ reachA)))
	}
	if b[Hand] != 0 {
		b[Entries] = int32(bits.OnesCount64(uint64(empty &^ reachB)))
	}
	a[FreeMen] += a[Hand]
	b[FreeMen] += b[Hand]
}

// side adds to f the features of the columns own, exposed the ones among
// them the other side could jump, and to other the hostages they hold.
func side(p *rules.Position, g *rules.Geometry, own, exposed Bitboard, f, other *[NumFeatures]int32) {
	f[ExposedCols] = int32(bits.OnesCount64(uint64(exposed)))
	f[Columns] = int32(bits.OnesCount64(uint64(own)))
	f[Edge] = int32(bits.OnesCount64(uint64(own & g.Edge)))
	var stake1, stake2 int32 // the two largest stakes of exposed columns
	for b := own; b != 0; b &= b - 1 {
		s := rules.Square(bits.TrailingZeros64(uint64(b)))
		col := p.At(s)
		f[FreeMen] += int32(col.Top)
		if col.Height() >= tallHeight {
			f[Tall]++
		}
		if col.Top == 1 {
			// One jump frees the prisoners under a single man.
			other[Hostages] += int32(col.Prisoners)
		}
		if exposed>>s&1 == 1 {
			// A jump takes the top man, and frees the prisoners under
			// it if it was the column's only man of its owner.
			stake := int32(1)
			if col.Top == 1 {
				stake += int32(col.Prisoners)
			}
			f[ExposedMen] += stake
			switch {
			case stake > stake1:
				stake1, stake2 = stake, stake1
			case stake > stake2:
				stake2 = stake
			}
		}
	}
	f[Forks] = stake2
}

// tallHeight is the least height of a Tall column. The weights were
// fitted with this value, so changing it means fitting them again
// (docs/tuning.md).
const tallHeight = 3

// Bitboard is rules.Bitboard, named here for brevity.
type Bitboard = rules.Bitboard

// Evaluate returns the score of p for the side to move with weights w
// (w.Small on the 7x7 board, if w has them).
func (w *Weights) Evaluate(p *rules.Position) int32 {
	w = w.For(p)
	var a, b [NumFeatures]int32
	features(p, p.Side(), &a, &b)
	s := w.Tempo
	for i := range a {
		s += w.W[i] * (a[i] - b[i])
	}
	if w.Patterns != nil {
		s += w.Patterns.Score(p)
	}
	return s
}

// Evaluate scores p with the Default weights.
func Evaluate(p *rules.Position) int32 { return Default.Evaluate(p) }
