package match

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"emergo/game"
	"emergo/record"
	"emergo/rules"
)

// GameResult is one finished game of a match.
type GameResult struct {
	Number      int  // from 1, in the order of the openings
	Pair        int  // from 1: games 2k-1 and 2k share an opening
	P1White     bool // the first player had White
	Size        int  // the board, 9 or 7
	Result      rules.Result
	Termination game.Termination // the board's reason, or the ending off the board
	Plies       int              // moves in the game, the opening's included
	Record      record.Record
	// Times are the players' moves after the opening, in order: the
	// clock of the mover before it and the time it took.
	Times []MoveTime
}

// MoveTime is the time of one move of a match game.
type MoveTime struct {
	Ply  int // from 1, the opening's moves counted
	Side rules.Color
	Left time.Duration // the mover's clock before the move; 0 without one
	Took time.Duration
}

// P1Score returns the first player's points: 1, 1/2 or 0.
func (g *GameResult) P1Score() float64 {
	switch {
	case g.Result == rules.Draw:
		return 0.5
	case (g.Result == rules.WhiteWins) == g.P1White:
		return 1
	}
	return 0
}

// WhiteScore returns White's points: 1, 1/2 or 0.
func (g *GameResult) WhiteScore() float64 {
	switch g.Result {
	case rules.WhiteWins:
		return 1
	case rules.Draw:
		return 0.5
	}
	return 0
}

// Counts are the results of a match from the first player's point of
// view.
type Counts struct {
	Wins, Draws, Losses int
	// Pairs[k] counts the finished game pairs in which the first player
	// scored k/2 points: the pentanomial distribution.
	Pairs [5]int
	// WhiteWins and BlackWins count the decisive games by the winner's
	// colour.
	WhiteWins, BlackWins int
	// WhitePairs[k] counts the finished game pairs in which White (the
	// first player in one game, the second in the other) scored k/2
	// points: the pentanomial distribution of the first move's worth.
	WhitePairs [5]int
}

// Games returns the number of games counted.
func (c *Counts) Games() int { return c.Wins + c.Draws + c.Losses }

// Points returns the first player's points: a win 1, a draw 1/2.
func (c *Counts) Points() float64 { return float64(c.Wins) + float64(c.Draws)/2 }

// Score returns the first player's mean score per game.
func (c *Counts) Score() float64 { return c.Points() / float64(c.Games()) }

// WhiteScore returns White's mean score per game, whoever played it.
func (c *Counts) WhiteScore() float64 {
	return (float64(c.WhiteWins) + float64(c.Draws)/2) / float64(c.Games())
}

// WhiteElo returns White's advantage in Elo with its 95% interval, from
// the game pairs when every game counted belongs to a finished pair (the
// two games of an opening are not independent), else from the games.
func (c *Counts) WhiteElo() Interval {
	if p := c.PairCount(); p > 0 && 2*p == c.Games() {
		return PentanomialElo(c.WhitePairs)
	}
	return TrinomialElo(c.WhiteWins, c.Draws, c.BlackWins)
}

// DrawRate returns the share of drawn games.
func (c *Counts) DrawRate() float64 { return float64(c.Draws) / float64(c.Games()) }

// PairCount returns the number of finished game pairs.
func (c *Counts) PairCount() int {
	n := 0
	for _, k := range c.Pairs {
		n += k
	}
	return n
}

// Elo returns the first player's Elo advantage with its 95% interval: from
// the game pairs when every game counted belongs to a finished pair, else
// from the games.
func (c *Counts) Elo() Interval {
	if p := c.PairCount(); p > 0 && 2*p == c.Games() {
		return PentanomialElo(c.Pairs)
	}
	return TrinomialElo(c.Wins, c.Draws, c.Losses)
}

// LOS returns the likelihood that the first player is the stronger.
func (c *Counts) LOS() float64 { return LOS(c.Wins, c.Losses) }

// LLR returns the log-likelihood ratio of s: pentanomial over the finished
// pairs when there are any, else trinomial over the games.
func (c *Counts) LLR(s SPRT) float64 {
	if c.PairCount() > 0 {
		return s.LLRPentanomial(c.Pairs)
	}
	return s.LLRTrinomial(c.Wins, c.Draws, c.Losses)
}

func (c *Counts) add(g *GameResult) {
	switch s := g.P1Score(); s {
	case 1:
		c.Wins++
	case 0:
		c.Losses++
	default:
		c.Draws++
	}
	switch g.Result {
	case rules.WhiteWins:
		c.WhiteWins++
	case rules.BlackWins:
		c.BlackWins++
	}
}

// addPair counts the finished game pair of g and mate.
func (c *Counts) addPair(g, mate *GameResult) {
	c.Pairs[int(2*(g.P1Score()+mate.P1Score()))]++
	c.WhitePairs[int(2*(g.WhiteScore()+mate.WhiteScore()))]++
}

// Progress reports a match after each finished game.
type Progress struct {
	Game   *GameResult // the game just finished
	Played int         // games finished so far
	Total  int         // games planned
	Counts Counts
	SPRT   *SPRT
	LLR    float64
}

// String returns a one-line report: games, W-D-L, score and Elo so far.
func (p Progress) String() string {
	c := &p.Counts
	iv := c.Elo()
	s := fmt.Sprintf("%d/%d games, W-D-L %d-%d-%d, score %.3f, Elo %s ± %s",
		p.Played, p.Total, c.Wins, c.Draws, c.Losses, c.Score(), fmtElo(iv.Elo), fmtMargin(iv))
	if p.SPRT != nil {
		lo, hi := p.SPRT.Bounds()
		s += fmt.Sprintf(", LLR %.2f (%.2f, %.2f)", p.LLR, lo, hi)
	}
	return s
}

func fmtMargin(iv Interval) string {
	m := iv.Margin()
	if math.IsInf(m, 0) || math.IsNaN(m) {
		return "inf"
	}
	return fmt.Sprintf("%.1f", m)
}

// Summary is the outcome of a match.
type Summary struct {
	P1, P2   string // the players' specs
	TC       [2]TimeControl
	Sizes    []int
	Planned  int // games planned
	Counts   Counts
	Games    []GameResult // in the order of their numbers
	SPRT     *SPRT
	LLR      float64
	Decision Decision
}

// Terminations counts the games by their Termination, most frequent first.
func (s *Summary) Terminations() []TermCount {
	m := map[game.Termination]int{}
	for i := range s.Games {
		m[s.Games[i].Termination]++
	}
	out := make([]TermCount, 0, len(m))
	for k, n := range m {
		out = append(out, TermCount{k, n})
	}
	slices.SortFunc(out, func(a, b TermCount) int {
		if a.Games != b.Games {
			return b.Games - a.Games
		}
		return strings.Compare(a.Termination.String(), b.Termination.String())
	})
	return out
}

// CountsOn returns the counts of the games played on the n x n board, their
// finished pairs included: a match on both boards can be strong on one and
// weak on the other, and the whole's Elo hides which.
func (s *Summary) CountsOn(n int) Counts { return countsOf(s.Games, n) }

// countsOf counts games, in the order of their numbers, on the n x n
// board, or on every board for n 0.
func countsOf(games []GameResult, n int) Counts {
	var c Counts
	for i := range games {
		g := &games[i]
		if n != 0 && g.Size != n {
			continue
		}
		c.add(g)
		// A pair is games 2k-1 and 2k: it is counted at its first game,
		// when its second is there too.
		if g.Number%2 == 1 && i+1 < len(games) && games[i+1].Number == g.Number+1 {
			c.addPair(g, &games[i+1])
		}
	}
	return c
}

// TermCount is the number of games that ended one way.
type TermCount struct {
	Termination game.Termination
	Games       int
}

// WriteReport writes the report of the match: the score, the Elo
// difference with its interval, the likelihood of superiority, the game
// pairs, White's score, the draw rate, the score and Elo on each board
// when there are two, the SPRT if any and the endings.
func (s *Summary) WriteReport(w io.Writer) error {
	c := &s.Counts
	var b strings.Builder
	fmt.Fprintf(&b, "%s vs %s", s.P1, s.P2)
	if s.TC[0] == s.TC[1] {
		fmt.Fprintf(&b, ", time %s", s.TC[0])
	} else {
		fmt.Fprintf(&b, ", time %s vs %s", s.TC[0], s.TC[1])
	}
	fmt.Fprintf(&b, ", board %s\n", sizesText(s.Sizes))
	n := c.Games()
	fmt.Fprintf(&b, "Games: %d of %d\n", n, s.Planned)
	if n == 0 {
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "Score of %s: %s, %s, %s: %.1f/%d = %.3f\n",
		s.P1, count(c.Wins, "win", "wins"), count(c.Draws, "draw", "draws"), count(c.Losses, "loss", "losses"),
		c.Points(), n, c.Score())
	iv := c.Elo()
	model := "trinomial"
	if p := c.PairCount(); p > 0 && 2*p == n {
		model = "pentanomial"
	}
	fmt.Fprintf(&b, "Elo difference: %s ± %s, 95%% interval [%s, %s] (%s)\n",
		fmtElo(iv.Elo), fmtMargin(iv), fmtElo(iv.Low), fmtElo(iv.High), model)
	fmt.Fprintf(&b, "LOS: %.1f%%\n", 100*c.LOS())
	fmt.Fprintf(&b, "Game pairs by %s's points (0, 1/2, 1, 3/2, 2): %d %d %d %d %d\n",
		s.P1, c.Pairs[0], c.Pairs[1], c.Pairs[2], c.Pairs[3], c.Pairs[4])
	wiv := c.WhiteElo()
	fmt.Fprintf(&b, "White scores %.3f (%d-%d-%d), 95%% interval [%.3f, %.3f], Elo %s [%s, %s]; draw rate %.1f%%\n",
		c.WhiteScore(), c.WhiteWins, c.Draws, c.BlackWins, ScoreFromElo(wiv.Low), ScoreFromElo(wiv.High),
		fmtElo(wiv.Elo), fmtElo(wiv.Low), fmtElo(wiv.High), 100*c.DrawRate())
	if len(s.Sizes) > 1 {
		for _, size := range s.Sizes {
			bc := s.CountsOn(size)
			if bc.Games() == 0 {
				continue
			}
			biv := bc.Elo()
			fmt.Fprintf(&b, "On %dx%d: %.1f/%d = %.3f, Elo %s [%s, %s]; White scores %.3f\n",
				size, size, bc.Points(), bc.Games(), bc.Score(),
				fmtElo(biv.Elo), fmtElo(biv.Low), fmtElo(biv.High), bc.WhiteScore())
		}
	}
	if s.SPRT != nil {
		lo, hi := s.SPRT.Bounds()
		fmt.Fprintf(&b, "SPRT (%s): LLR %.2f, bounds [%.2f, %.2f]: %s\n", s.SPRT, s.LLR, lo, hi, s.Decision)
	}
	b.WriteString("Endings:")
	for i, t := range s.Terminations() {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " %s %d", t.Termination, t.Games)
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// count is n and the word, singular for 1.
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func sizesText(sizes []int) string {
	var parts []string
	for _, n := range sizes {
		parts = append(parts, fmt.Sprintf("%dx%d", n, n))
	}
	return strings.Join(parts, " and ")
}
