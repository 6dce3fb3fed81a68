package match

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The statistics of a match, all from the first player's point of view.
// docs/match.md gives the formulas with their sources; in short:
//
//   - A score s (wins plus half the draws, over the games) is the expected
//     score of a player rated E Elo above its opponent under the logistic
//     model, s = 1 / (1 + 10^(-E/400)), so E = -400 log10(1/s - 1).
//   - The 95% interval of E comes from the normal approximation of the mean
//     score: s ± 1.959964 σ/√n, each end turned into Elo. The trinomial
//     model takes the games as independent with results 1, 1/2, 0; the
//     pentanomial model (fishtest) takes game pairs, the same opening
//     with colours swapped, as the independent unit, each scoring 0, 1/4,
//     1/2, 3/4 or 1 per game. Pairing cancels much of the opening's
//     bias, so the pentanomial interval is the honest one for paired
//     matches, and usually the narrower.
//     When every observation is a full win (or loss) the variance is 0
//     and the approximation has no width; the interval is then the exact
//     binomial bound of n trials all won, from 400 log10(r/(1-r)) with
//     r = 0.025^(1/n) to infinity. A single observation that is not a
//     full win or loss leaves the interval unbounded.
//   - The likelihood of superiority is the probability that the first
//     player is the stronger given the decisive games:
//     LOS = Φ((W-L)/√(W+L)) = (1 + erf((W-L)/√(2(W+L))))/2.
//   - The SPRT is Wald's sequential test of H0: E = elo0 against H1:
//     E = elo1, with the generalized log-likelihood ratio in Van den
//     Bergh's normal approximation, as earlier fishtest versions compute it:
//     LLR = (n/2) ln(σ0²/σ1²), where σi² = mean of (x - si)² over the n
//     observations x (games or pairs) and si the score of elo i. It stops
//     at ln(β/(1-α)) (accept H0) or ln((1-β)/α) (accept H1).

// z95 is the two-sided 95% quantile of the standard normal distribution.
const z95 = 1.959963984540054

// tail95 is the probability beyond each end of a 95% interval.
const tail95 = 0.025

// EloFromScore returns the Elo difference that the logistic model
// predicts for an expected score s: ±Inf at 1 and 0.
func EloFromScore(s float64) float64 {
	switch {
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}

// ScoreFromElo returns the expected score of a player e Elo stronger than
// its opponent.
func ScoreFromElo(e float64) float64 { return 1 / (1 + math.Pow(10, -e/400)) }

// LOS returns the likelihood of superiority given the wins and losses:
// the probability that the first player is the stronger one. It is 0.5
// with no decisive game.
func LOS(wins, losses int) float64 {
	if wins+losses == 0 {
		return 0.5
	}
	return 0.5 * (1 + math.Erf(float64(wins-losses)/math.Sqrt(2*float64(wins+losses))))
}

// Interval is an Elo estimate with its 95% confidence interval.
type Interval struct {
	Elo, Low, High float64
}

func (iv Interval) String() string {
	return fmt.Sprintf("%s [%s, %s]", fmtElo(iv.Elo), fmtElo(iv.Low), fmtElo(iv.High))
}

// Margin returns half the width of the interval, the "±" of a report; +Inf
// when an end is infinite.
func (iv Interval) Margin() float64 { return (iv.High - iv.Low) / 2 }

// fmtElo formats an Elo difference with its sign, "+inf" for a perfect
// score.
func fmtElo(e float64) string {
	switch {
	case math.IsInf(e, 1):
		return "+inf"
	case math.IsInf(e, -1):
		return "-inf"
	case math.IsNaN(e):
		return "?"
	case math.Abs(e) < 0.05:
		return "0.0" // not "-0.0" for a score a rounding error below 1/2
	}
	return fmt.Sprintf("%+.1f", e)
}

// distribution is an empirical distribution of per-game scores: values
// with their counts.
type distribution struct {
	values []float64
	counts []int
}

// trinomial is the distribution of the game results.
func trinomial(w, d, l int) distribution {
	return distribution{[]float64{1, 0.5, 0}, []int{w, d, l}}
}

// pentanomial is the distribution of the game pairs, scored per game:
// pairs[k] is the number of pairs where the first player scored k/2 points
// in two games.
func pentanomial(pairs [5]int) distribution {
	return distribution{[]float64{0, 0.25, 0.5, 0.75, 1}, pairs[:]}
}

func (d distribution) n() int {
	n := 0
	for _, c := range d.counts {
		n += c
	}
	return n
}

func (d distribution) mean() float64 {
	sum := 0.0
	for i, c := range d.counts {
		sum += float64(c) * d.values[i]
	}
	return sum / float64(d.n())
}

// spread returns the mean of (x - s)² over the observations: the variance
// when s is the mean.
func (d distribution) spread(s float64) float64 {
	sum := 0.0
	for i, c := range d.counts {
		sum += float64(c) * (d.values[i] - s) * (d.values[i] - s)
	}
	return sum / float64(d.n())
}

// interval returns the Elo estimate of d with its 95% interval; all NaN
// with no observation.
func (d distribution) interval() Interval {
	n := d.n()
	if n == 0 {
		return Interval{math.NaN(), math.NaN(), math.NaN()}
	}
	m := d.mean()
	switch v := d.spread(m); {
	case n == 1 && m > 0 && m < 1:
		// One observation tells nothing of the spread.
		return Interval{EloFromScore(m), math.Inf(-1), math.Inf(1)}
	case v == 0 && m == 1:
		// Every observation a full win: the normal approximation has no
		// width. Take them as n Bernoulli trials all won; the exact
		// (Clopper-Pearson) 97.5% lower bound of the rate is 0.025^(1/n).
		return Interval{math.Inf(1), EloFromScore(math.Pow(tail95, 1/float64(n))), math.Inf(1)}
	case v == 0 && m == 0:
		return Interval{math.Inf(-1), math.Inf(-1), EloFromScore(1 - math.Pow(tail95, 1/float64(n)))}
	default:
		se := math.Sqrt(v / float64(n))
		return Interval{EloFromScore(m), EloFromScore(m - z95*se), EloFromScore(m + z95*se)}
	}
}

// llr returns the log-likelihood ratio of score s1 against s0 given d.
func (d distribution) llr(s0, s1 float64) float64 {
	n := d.n()
	if n == 0 {
		return 0
	}
	r0, r1 := d.spread(s0), d.spread(s1)
	if r0 == 0 || r1 == 0 {
		// Every observation sits on one of the hypotheses: no variance
		// to measure yet.
		return 0
	}
	return float64(n) / 2 * math.Log(r0/r1)
}

// TrinomialElo returns the Elo estimate from wins, draws and losses, the
// games taken as independent.
func TrinomialElo(w, d, l int) Interval { return trinomial(w, d, l).interval() }

// PentanomialElo returns the Elo estimate from game pairs: pairs[k] is the
// number of pairs in which the first player scored k/2 points.
func PentanomialElo(pairs [5]int) Interval { return pentanomial(pairs).interval() }

// SPRT is a sequential probability ratio test of H0: the first player is
// Elo0 stronger, against H1: it is Elo1 stronger, with error rates Alpha
// (accepting H1 when H0 holds) and Beta (accepting H0 when H1 holds).
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// ParseSPRT reads "elo0 elo1 alpha beta", such as "0 10 0.05 0.05".
func ParseSPRT(text string) (SPRT, error) {
	f := strings.Fields(text)
	if len(f) != 4 {
		return SPRT{}, settingError("SPRT %q: want four numbers, elo0 elo1 alpha beta", text)
	}
	var v [4]float64
	for i, s := range f {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return SPRT{}, settingError("SPRT %q: %q is not a number", text, s)
		}
		v[i] = x
	}
	s := SPRT{Elo0: v[0], Elo1: v[1], Alpha: v[2], Beta: v[3]}
	return s, s.check()
}

func (s SPRT) check() error {
	switch {
	case s.Elo0 >= s.Elo1:
		return settingError("SPRT: elo0 %g must be below elo1 %g", s.Elo0, s.Elo1)
	case s.Alpha <= 0 || s.Alpha >= 0.5 || s.Beta <= 0 || s.Beta >= 0.5:
		return settingError("SPRT: alpha %g and beta %g must lie between 0 and 0.5", s.Alpha, s.Beta)
	}
	return nil
}

func (s SPRT) String() string {
	return fmt.Sprintf("elo0 %g, elo1 %g, alpha %g, beta %g", s.Elo0, s.Elo1, s.Alpha, s.Beta)
}

// Bounds returns the LLR at which the test accepts H0 (lower) and H1
// (upper).
func (s SPRT) Bounds() (lower, upper float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// LLRTrinomial returns the log-likelihood ratio of H1 against H0 given the
// wins, draws and losses.
func (s SPRT) LLRTrinomial(w, d, l int) float64 {
	return trinomial(w, d, l).llr(ScoreFromElo(s.Elo0), ScoreFromElo(s.Elo1))
}

// LLRPentanomial returns the log-likelihood ratio of H1 against H0 given
// the game pairs (see PentanomialElo).
func (s SPRT) LLRPentanomial(pairs [5]int) float64 {
	return pentanomial(pairs).llr(ScoreFromElo(s.Elo0), ScoreFromElo(s.Elo1))
}

// Decision is the state of an SPRT.
type Decision int

const (
	Continue Decision = iota
	AcceptH0
	AcceptH1
)

func (d Decision) String() string {
	switch d {
	case AcceptH0:
		return "H0 accepted"
	case AcceptH1:
		return "H1 accepted"
	}
	return "continue"
}

// Decide returns the decision of the test at llr.
func (s SPRT) Decide(llr float64) Decision {
	lo, hi := s.Bounds()
	switch {
	case llr >= hi:
		return AcceptH1
	case llr <= lo:
		return AcceptH0
	}
	return Continue
}
