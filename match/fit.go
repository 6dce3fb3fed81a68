package match

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// The ladder's scale: one Elo per player, fitted to the results of all the
// rows at once (Bradley-Terry in Elo units, Zermelo 1929; Bradley and
// Terry 1952). A player r Elo above another is expected to score
// 1/(1 + 10^(-r/400)) against it, draws counting half a point; the fit
// finds the ratings under which the scores of the rows are the most
// likely, with one player, the anchor, held at 0. A player measured
// against two others is tied to the scale by both rows, so that one
// unlucky row moves it less than it would move a chain of differences.
//
// Each row counts one drawn game more than it played (fitPrior), as
// BayesElo's prior of virtual draws does: without it a row won or lost
// entirely would put the two players infinitely far apart. The
// intervals come from the bootstrap (Efron 1979): the game pairs of every
// row are drawn again with replacement, the fit run again on them, and
// the 2.5% and 97.5% percentiles of each player's Elo over the fits are
// its 95% interval.

// fitPrior is the drawn games added to every row of a fit.
const fitPrior = 1

// FitSamples is the number of bootstrap fits behind the intervals.
const FitSamples = 1000

// Rated is a player's place on the scale of a fit.
type Rated struct {
	Name string
	Elo  float64
	// Low and High bound the 95% interval of Elo.
	Low, High float64
	// Step is the Elo above the player before it in the order of the fit
	// (0 for the first), with its 95% interval from the same bootstrap.
	Step, StepLow, StepHigh float64
}

// FitRow is the results of one pairing, the first player's: its points
// in every finished game pair (Pairs[k] pairs of k half points), and the
// games outside a pair as wins, draws and losses.
type FitRow struct {
	P1, P2              string
	Pairs               [5]int
	Wins, Draws, Losses int
}

// fitRowOf returns the results of a strength row for the fit: its finished
// pairs, and its games as single games when they do not all form pairs.
func fitRowOf(r StrengthRow) FitRow {
	c := r.Summary.Counts
	if p := c.PairCount(); p > 0 && 2*p == c.Games() {
		return FitRow{P1: r.P1, P2: r.P2, Pairs: c.Pairs}
	}
	return FitRow{P1: r.P1, P2: r.P2, Wins: c.Wins, Draws: c.Draws, Losses: c.Losses}
}

// FitStrength fits the rows of a strength run, with players in the order
// of the scale (the anchor, at 0, first: see FitElo).
func FitStrength(rows []StrengthRow, players []string, seed uint64) ([]Rated, error) {
	fr := make([]FitRow, len(rows))
	for i, r := range rows {
		fr[i] = fitRowOf(r)
	}
	return FitElo(fr, players, seed)
}

// FitElo fits one Elo per player to the rows, players[0] held at 0, and
// bootstraps the 95% intervals with FitSamples fits drawn from seed, so
// that the same results give the same report. Every player must be
// joined to players[0] by a chain of rows; a row of a player not in
// players is an error.
func FitElo(rows []FitRow, players []string, seed uint64) ([]Rated, error) {
	if len(players) == 0 {
		return nil, fmt.Errorf("match: fit: no player")
	}
	index := map[string]int{}
	for i, p := range players {
		index[p] = i
	}
	obs := make([]observed, len(rows))
	units := make([]units, len(rows))
	for i, r := range rows {
		a, okA := index[r.P1]
		b, okB := index[r.P2]
		if !okA || !okB || a == b {
			return nil, fmt.Errorf("match: fit: row %s vs %s is not between two of the players", r.P1, r.P2)
		}
		obs[i] = observed{a: a, b: b}
		obs[i].n, obs[i].score = r.total()
		units[i] = unitsOf(r)
	}
	if p, ok := unjoined(len(players), obs); ok {
		return nil, fmt.Errorf("match: fit: no row joins %s to %s", players[p], players[0])
	}
	elo := fitBT(len(players), obs)

	rng := rand.New(rand.NewPCG(seed, fitStream))
	samples := make([][]float64, len(players)) // samples[i]: player i's Elo in every fit
	steps := make([][]float64, len(players))
	for range FitSamples {
		for i := range rows {
			obs[i].n, obs[i].score = units[i].resample(rng)
		}
		e := fitBT(len(players), obs)
		for i := range players {
			samples[i] = append(samples[i], e[i])
			if i > 0 {
				steps[i] = append(steps[i], e[i]-e[i-1])
			}
		}
	}
	out := make([]Rated, len(players))
	for i, p := range players {
		out[i] = Rated{Name: p, Elo: elo[i]}
		out[i].Low, out[i].High = percentiles(samples[i])
		if i > 0 {
			out[i].Step = elo[i] - elo[i-1]
			out[i].StepLow, out[i].StepHigh = percentiles(steps[i])
		}
	}
	return out, nil
}

// fitStream is the second word of the bootstrap's generator, "BOOT".
const fitStream = 0x424f4f54

// percentiles returns the 2.5% and 97.5% percentiles of xs, which it
// sorts.
func percentiles(xs []float64) (lo, hi float64) {
	slices.Sort(xs)
	at := func(q float64) float64 { return xs[int(math.Round(q*float64(len(xs)-1)))] }
	return at(tail95), at(1 - tail95)
}

// total returns the games of the row and the first player's points.
func (r *FitRow) total() (n, score float64) {
	for k, c := range r.Pairs {
		n += 2 * float64(c)
		score += float64(k*c) / 2
	}
	n += float64(r.Wins + r.Draws + r.Losses)
	score += float64(r.Wins) + float64(r.Draws)/2
	return n, score
}

// units are a row's independent results, as the bootstrap draws them:
// the points of every finished pair, and of every game outside a pair.
type units struct {
	pairs, games []float64
}

func unitsOf(r FitRow) units {
	var u units
	for k, c := range r.Pairs {
		for range c {
			u.pairs = append(u.pairs, float64(k)/2)
		}
	}
	for range r.Wins {
		u.games = append(u.games, 1)
	}
	for range r.Draws {
		u.games = append(u.games, 0.5)
	}
	for range r.Losses {
		u.games = append(u.games, 0)
	}
	return u
}

// resample draws the pairs and the games again with replacement and
// returns the games and the points of the draw.
func (u *units) resample(rng *rand.Rand) (n, score float64) {
	for range u.pairs {
		score += u.pairs[rng.IntN(len(u.pairs))]
	}
	for range u.games {
		score += u.games[rng.IntN(len(u.games))]
	}
	return float64(2*len(u.pairs) + len(u.games)), score
}

// observed is a row as the fit sees it: player a scored score points in
// n games against player b.
type observed struct {
	a, b     int
	n, score float64
}

// eloUnit is the natural logarithm's unit in Elo: a difference of x in
// the logistic model's own unit is x*eloUnit Elo.
var eloUnit = 400 / math.Ln10

// fitBT returns the Elo of every one of n players that makes the rows the
// most likely, player 0 at 0, each row counting fitPrior drawn games
// more. The log-likelihood is concave, and the prior's draws make its
// maximum finite for players joined by rows, so Newton's method from 0
// finds it in a few steps.
func fitBT(n int, rows []observed) []float64 {
	x := make([]float64, n) // in the logistic unit
	grad := make([]float64, n)
	hess := make([][]float64, n)
	for i := range hess {
		hess[i] = make([]float64, n)
	}
	for iter := 0; iter < 100; iter++ {
		clear(grad)
		for i := range hess {
			clear(hess[i])
		}
		for _, r := range rows {
			games, score := r.n+fitPrior, r.score+fitPrior/2.0
			p := 1 / (1 + math.Exp(x[r.b]-x[r.a]))
			g := score - games*p
			w := games * p * (1 - p)
			grad[r.a] += g
			grad[r.b] -= g
			hess[r.a][r.a] += w
			hess[r.b][r.b] += w
			hess[r.a][r.b] -= w
			hess[r.b][r.a] -= w
		}
		// Player 0 is held: solve for the others.
		step := solve(hess[1:], grad[1:], 1)
		largest := 0.0
		for i, d := range step {
			// A step of more than 2 (about 870 Elo) is cut short, so
			// that the first steps from 0 do not overshoot far.
			d = max(-2, min(2, d))
			x[i+1] += d
			largest = max(largest, math.Abs(d))
		}
		if largest < 1e-10 {
			break
		}
	}
	for i := range x {
		x[i] *= eloUnit
	}
	return x
}

// solve returns y with A y = b, where A is the columns from col on of
// the rows of a (a positive definite matrix, the negative Hessian),
// by Gaussian elimination with partial pivoting. It works on copies.
func solve(a [][]float64, b []float64, col int) []float64 {
	n := len(b)
	m := make([][]float64, n)
	for i := range m {
		m[i] = append(slices.Clone(a[i][col:col+n]), b[i])
	}
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		m[c], m[p] = m[p], m[c]
		for r := c + 1; r < n; r++ {
			f := m[r][c] / m[c][c]
			for k := c; k <= n; k++ {
				m[r][k] -= f * m[c][k]
			}
		}
	}
	y := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := m[r][n]
		for k := r + 1; k < n; k++ {
			s -= m[r][k] * y[k]
		}
		y[r] = s / m[r][r]
	}
	return y
}

// unjoined returns a player of n that no chain of rows joins to player
// 0, if there is one.
func unjoined(n int, rows []observed) (int, bool) {
	joined := make([]bool, n)
	joined[0] = true
	for changed := true; changed; {
		changed = false
		for _, r := range rows {
			if joined[r.a] != joined[r.b] {
				joined[r.a], joined[r.b] = true, true
				changed = true
			}
		}
	}
	for i, j := range joined {
		if !j {
			return i, true
		}
	}
	return 0, false
}
