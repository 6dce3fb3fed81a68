// Package rating rates players with the Glicko-2 system of Mark Glickman
// ("Example of the Glicko-2 system", 2013, http://www.glicko.net/glicko/glicko2.pdf).
//
// A rating is three numbers: the rating r, its deviation RD (how
// uncertain r is: the player's strength lies within r ± 2 RD with about
// 95% confidence) and the volatility σ (how erratic the player's results
// are, which sets how fast RD grows while he does not play). Glicko-2
// computes on its own scale, μ = (r - 1500) / 173.7178 and
// φ = RD / 173.7178, and a rating's change after a game is large when
// RD is large and small when it is small, so a new player finds his level
// in a few games and a settled one moves slowly.
//
// Glickman rates all the games of a rating period together. As lichess
// does, this package makes every game a rating period of its own, so a
// game changes both players' ratings as soon as it ends, each computed
// from the other's rating before the game; the time between a player's
// games counts in rating periods of fractional length (PeriodsPerDay), by
// which his deviation grows while he is away (Rating.At). All numbers are
// kept within bounds (MinRating to MaxRating, MinDeviation to
// MaxDeviation, MinVolatility to MaxVolatility), so no input, however
// strange, gives an infinite or undefined rating.
//
// The package is pure arithmetic: it imports only the standard library
// and keeps no state. Storing ratings and deciding which games are rated
// belong to its callers.
package rating

import (
	"math"
	"strconv"
	"time"
)

// The system's constants.
const (
	// Tau is Glicko-2's system constant τ: it limits how fast a
	// player's volatility may change. Glickman suggests 0.3 to 1.2, the
	// smaller values keeping an improbable result from changing the
	// volatility much. 0.75 is lichess's value, fitted to its games, which
	// it rates one game a period as here; a value in the upper half lets
	// the volatility of a beginner who improves quickly (and most players
	// of a game new to them are beginners) rise with his results.
	Tau = 0.75

	// Epsilon is the convergence tolerance ε of the iteration that finds
	// the new volatility (step 5 of Glickman's description), on the
	// scale of ln σ².
	Epsilon = 0.000001

	// Scale converts between the Glicko scale and Glicko-2's:
	// μ = (r - DefaultRating) / Scale, φ = RD / Scale.
	Scale = 173.7178
)

// A new player's rating: Glickman's values for an unrated player.
const (
	DefaultRating = 1500.0

	// DefaultDeviation says that a new player's strength lies within
	// 1500 ± 700 with 95% confidence. Lichess starts at 500, with which
	// a first win against another newcomer is worth about 240 points;
	// at 350 it is worth 162. On a small site, where the same few players
	// meet often, a rating that jumps by hundreds of points after one
	// game tells them little.
	DefaultDeviation = 350.0

	DefaultVolatility = 0.06
)

// The bounds within which every rating stays. They are lichess's, but for
// MaxDeviation.
const (
	MinRating = 400.0
	MaxRating = 4000.0

	// MinDeviation keeps a settled player's rating able to move: without
	// it RD would shrink with every game and his rating freeze.
	MinDeviation = 45.0

	// MaxDeviation is the deviation of a new player: time away from the
	// game makes a rating less certain, but never less than a newcomer's.
	MaxDeviation = DefaultDeviation

	// MinVolatility and MaxVolatility keep the volatility, and with it the
	// growth of RD and the step-5 iteration, within reason.
	MinVolatility = 0.01
	MaxVolatility = 0.1
)

// ProvisionalDeviation is the deviation from which a rating is
// provisional: lichess's threshold, where it shows the rating with a "?".
// A new player's rating becomes established after ten to fifteen games.
const ProvisionalDeviation = 110.0

// PeriodsPerDay is how many rating periods a day of absence counts for
// the growth of RD: lichess's rate, about one period every 4.7 days. The
// variance φ² grows by σ² a period, so a settled player (RD 45, σ 0.06)
// who stops playing becomes provisional after 433 days.
const PeriodsPerDay = 0.21436

// A Rating is a player's Glicko-2 rating on the Glicko scale, with the
// number of rated games he has played and the time of the last.
type Rating struct {
	// Rating is the estimate of the player's strength, r.
	Rating float64
	// Deviation is the uncertainty of Rating, RD, as of Last.
	Deviation float64
	// Volatility is σ, on Glicko-2's scale.
	Volatility float64
	// Games counts the rated games the player has finished.
	Games int
	// Last is the time up to which Deviation has been brought: the end
	// of the player's last rated game (or the time given to At). The zero
	// time means that he has never played.
	Last time.Time
}

// Default returns the rating of a player who has not yet played. Every
// function of the package takes the zero Rating for it too, and any
// number out of its bounds for the nearest bound.
func Default() Rating {
	return Rating{Rating: DefaultRating, Deviation: DefaultDeviation, Volatility: DefaultVolatility}
}

// Provisional reports whether r's deviation is too large for the rating to
// be taken as established (ProvisionalDeviation). It looks at Deviation as
// it stands: r.At(now).Provisional() counts the time since r.Last too.
func (r Rating) Provisional() bool {
	return r.bounded().Deviation >= ProvisionalDeviation
}

// String returns r's rating rounded to a whole number, followed by "?"
// when it is provisional: "1464?".
func (r Rating) String() string {
	s := strconv.FormatFloat(math.Round(r.bounded().Rating), 'f', 0, 64)
	if r.Provisional() {
		s += "?"
	}
	return s
}

// At returns r as it stands at now: its deviation grown for the rating
// periods since r.Last (Glickman's step 6 for a player who does not play:
// φ² grows by σ² a period), at most to MaxDeviation, and Last moved to
// now, so that At(t1).At(t2) is At(t2). A rating that has never been
// played (zero Last) does not grow, nor does one at a now before its
// Last. The result is within the bounds even when r is not.
func (r Rating) At(now time.Time) Rating {
	r = r.bounded()
	if r.Last.IsZero() || !now.After(r.Last) {
		return r
	}
	p := r.glicko2()
	r.Deviation = grow(p.phi, p.sigma, r.periods(now)) * Scale
	r.Last = now
	return r.bounded()
}

// Expected returns the score a is expected to make against b: the
// probability that a wins, counting a draw as half a win. It combines both
// deviations (the prediction of Glickman's Glicko paper), so a rating
// that is less certain predicts a result nearer 0.5. It uses the
// deviations as they are: pass a.At(now) and b.At(now) to count the time
// since their last games.
func Expected(a, b Rating) float64 {
	p, q := a.bounded().glicko2(), b.bounded().glicko2()
	return expected(p.mu, q.mu, math.Hypot(p.phi, q.phi))
}

// Update returns the ratings of a and b after a game between them that
// ended at now, in which a scored score (1 a win, 0.5 a draw, 0 a loss;
// b scored 1 - score). The game is a rating period of its own for each
// player, computed with the other's rating before the game, so the order
// of the two players does not matter. Each deviation first grows for the
// time since the player's Last, as At does; pass the ratings as stored,
// not as At returns them. A score outside 0 to 1 is taken as the nearest
// end; a score that is not a number rates nothing and returns a and b.
func Update(a, b Rating, score float64, now time.Time) (Rating, Rating) {
	if math.IsNaN(score) {
		return a, b
	}
	score = min(max(score, 0), 1)
	a, b = a.bounded(), b.bounded()
	return a.after(b, score, now), b.after(a, 1-score, now)
}

// after returns r after a game against opp that r scored score in, ending
// at now. The game is the last rating period before now (or the part of
// one since r.Last, if that is less): the periods before it grow r's and
// opp's deviations as if they did not play (At), and the game's own
// period is Glickman's steps 3 to 7 with the growth of step 6 for its
// length. This is lichess's rule; after a whole period it is Glickman's.
func (r Rating) after(opp Rating, score float64, now time.Time) Rating {
	t := r.periods(now)
	p, o := r.glicko2(), opp.glicko2()
	p.phi = grow(p.phi, p.sigma, t-1)
	o.phi = grow(o.phi, o.sigma, opp.periods(now)-1)
	p = rate(p, []outcome{{mu: o.mu, phi: o.phi, score: score}}, Tau, min(t, 1))
	next := Rating{
		Rating:     p.mu*Scale + DefaultRating,
		Deviation:  p.phi * Scale,
		Volatility: p.sigma,
		Games:      r.Games + 1,
		Last:       r.Last,
	}
	if now.After(next.Last) {
		next.Last = now
	}
	return next.bounded()
}

// periods returns the rating periods from r.Last to now: none for a
// rating never played or a now before Last.
func (r Rating) periods(now time.Time) float64 {
	if r.Last.IsZero() || !now.After(r.Last) {
		return 0
	}
	return now.Sub(r.Last).Hours() / 24 * PeriodsPerDay
}

// grow returns the deviation φ after periods rating periods without games
// at volatility σ, on Glicko-2's scale: √(φ² + periods σ²), at most
// MaxDeviation. A negative number of periods is none.
func grow(phi, sigma, periods float64) float64 {
	return min(math.Sqrt(phi*phi+max(periods, 0)*sigma*sigma), MaxDeviation/Scale)
}

// bounded returns r with every number within its bounds: a rating that is
// not a number becomes DefaultRating, a deviation MaxDeviation, a
// volatility DefaultVolatility, and the others are clamped. The zero
// Rating becomes Default's.
func (r Rating) bounded() Rating {
	if r.Rating == 0 && r.Deviation == 0 && r.Volatility == 0 {
		r.Rating, r.Deviation, r.Volatility = DefaultRating, DefaultDeviation, DefaultVolatility
	}
	r.Rating = clamp(r.Rating, DefaultRating, MinRating, MaxRating)
	r.Deviation = clamp(r.Deviation, MaxDeviation, MinDeviation, MaxDeviation)
	r.Volatility = clamp(r.Volatility, DefaultVolatility, MinVolatility, MaxVolatility)
	return r
}

// clamp returns x within lo to hi, or nan if x is not a number.
func clamp(x, nan, lo, hi float64) float64 {
	if math.IsNaN(x) {
		return nan
	}
	return min(max(x, lo), hi)
}

// glicko2 returns r on Glicko-2's scale.
func (r Rating) glicko2() glicko2 {
	return glicko2{mu: (r.Rating - DefaultRating) / Scale, phi: r.Deviation / Scale, sigma: r.Volatility}
}
