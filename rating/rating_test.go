package rating_test

import (
	"math"
	"testing"
	"time"

	"emergo/rating"
)

var (
	t0  = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	day = 24 * time.Hour
)

// settled is a player of 1500 whose deviation is at its minimum, last
// rated at t0.
var settled = rating.Rating{Rating: 1500, Deviation: 45, Volatility: 0.06, Games: 200, Last: t0}

func near(got, want, tolerance float64) bool { return math.Abs(got-want) <= tolerance }

func TestDefault(t *testing.T) {
	r := rating.Default()
	if r.Rating != 1500 || r.Deviation != 350 || r.Volatility != 0.06 || r.Games != 0 || !r.Last.IsZero() {
		t.Errorf("Default() = %+v, want 1500, 350, 0.06, no games, zero Last", r)
	}
	if !r.Provisional() || r.String() != "1500?" {
		t.Errorf("Default() is %q, provisional %v; want 1500? and provisional", r, r.Provisional())
	}
}

func TestProvisional(t *testing.T) {
	for _, c := range []struct {
		name      string
		deviation float64
		want      bool
	}{
		{"new player", 350, true},
		{"at the threshold", 110, true},
		{"just below the threshold", 109.99, false},
		{"settled", 45, false},
		{"deviation not a number", math.NaN(), true},
		{"deviation below the minimum", 10, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rating.Rating{Rating: 1500, Deviation: c.deviation, Volatility: 0.06}
			if got := r.Provisional(); got != c.want {
				t.Errorf("Provisional() with RD %v = %v, want %v", c.deviation, got, c.want)
			}
		})
	}
}

func TestString(t *testing.T) {
	for _, c := range []struct {
		name string
		r    rating.Rating
		want string
	}{
		{"established", rating.Rating{Rating: 1723.4, Deviation: 60, Volatility: 0.06}, "1723"},
		{"rounded up", rating.Rating{Rating: 1723.5, Deviation: 60, Volatility: 0.06}, "1724"},
		{"provisional", rating.Rating{Rating: 1464.05, Deviation: 151.5, Volatility: 0.06}, "1464?"},
		{"zero Rating", rating.Rating{}, "1500?"},
		{"beyond the maximum", rating.Rating{Rating: 1e9, Deviation: 60, Volatility: 0.06}, "4000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.r.String(); got != c.want {
				t.Errorf("String() = %q, want %q", got, c.want)
			}
		})
	}
}

// TestAt checks the growth of the deviation with time: φ² grows by σ² a
// rating period, PeriodsPerDay periods a day, up to MaxDeviation.
func TestAt(t *testing.T) {
	oneDay := math.Sqrt(45*45 + rating.PeriodsPerDay*0.06*0.06*rating.Scale*rating.Scale) // 45.7…
	for _, c := range []struct {
		name        string
		r           rating.Rating
		now         time.Time
		deviation   float64
		provisional bool
	}{
		{"no time", settled, t0, 45, false},
		{"a day", settled, t0.Add(day), oneDay, false},
		{"a year", settled, t0.Add(365 * day), 102.59, false},
		{"432 days", settled, t0.Add(432 * day), 109.93, false},
		{"433 days", settled, t0.Add(433 * day), 110.04, true},
		{"14 years", settled, t0.Add(5173 * day), 349.99, true},
		{"capped at the new player's", settled, t0.Add(5174 * day), 350, true},
		{"a century", settled, t0.Add(36525 * day), 350, true},
		{"now before Last", settled, t0.Add(-30 * day), 45, false},
		{"never played", rating.Default(), t0.Add(365 * day), 350, true},
		{"more volatile grows faster", rating.Rating{Rating: 1500, Deviation: 45, Volatility: 0.1, Last: t0}, t0.Add(365 * day), 160.11, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := c.r.At(c.now)
			if !near(got.Deviation, c.deviation, 0.005) || got.Provisional() != c.provisional {
				t.Errorf("At: RD %.4f provisional %v, want %.2f, %v", got.Deviation, got.Provisional(), c.deviation, c.provisional)
			}
			if got.Rating != c.r.Rating || got.Volatility != c.r.Volatility || got.Games != c.r.Games {
				t.Errorf("At changed more than RD: %+v from %+v", got, c.r)
			}
			wantLast := c.r.Last
			if !c.r.Last.IsZero() && c.now.After(c.r.Last) {
				wantLast = c.now
			}
			if !got.Last.Equal(wantLast) {
				t.Errorf("At: Last %v, want %v", got.Last, wantLast)
			}
		})
	}
}

// TestAtComposes checks that bringing a rating forward in steps gives the
// same deviation as in one step, so a stored At does not count time twice.
func TestAtComposes(t *testing.T) {
	for _, days := range []int{1, 100, 433, 6000} {
		now := t0.Add(time.Duration(days) * day)
		once := settled.At(now)
		twice := settled.At(t0.Add(time.Duration(days) * day / 3)).At(now)
		if !near(once.Deviation, twice.Deviation, 1e-9) {
			t.Errorf("%d days: At in one step RD %v, in two %v", days, once.Deviation, twice.Deviation)
		}
	}
}

// TestUpdate checks single games, a day after t0. The first two cases
// are worked by hand. Between two new players (φ = 350/173.7178 =
// 2.01476, so g(φ) = 0.66906 and E = 0.5), v = 1/(g² E(1-E)) = 8.9358,
// φ' = 1/√(1/φ² + 1/v) = 1.67072 (RD 290.23) and μ' = φ'² g (1-E) = 0.93378
// (162.22 points); no time passes before a player's first game, so step 6
// adds nothing. Against a settled player (φ = 0.25904, g = 0.98995) the
// newcomer's v is 4.0816, φ' 1.42661 (RD 247.83) and μ' 1.00738 (175.00
// points), while the settled player, whose deviation grew for the day
// (0.21436 periods), moves 3.91 points and keeps RD 45.09.
func TestUpdate(t *testing.T) {
	type want struct {
		rating, deviation float64
	}
	for _, c := range []struct {
		name   string
		a, b   rating.Rating
		score  float64
		now    time.Time
		wa, wb want
	}{
		{"newcomers, the first wins", rating.Default(), rating.Default(), 1, t0.Add(day), want{1662.22, 290.23}, want{1337.78, 290.23}},
		{"newcomer beats a settled player", rating.Default(), settled, 1, t0.Add(day), want{1675.00, 247.83}, want{1496.09, 45.09}},
		{"newcomers, the second wins", rating.Default(), rating.Default(), 0, t0.Add(day), want{1337.78, 290.23}, want{1662.22, 290.23}},
		{"newcomers draw", rating.Default(), rating.Default(), 0.5, t0.Add(day), want{1500, 290.23}, want{1500, 290.23}},
		{"zero Ratings are newcomers", rating.Rating{}, rating.Rating{}, 1, t0.Add(day), want{1662.22, 290.23}, want{1337.78, 290.23}},
		{"a score above 1 is a win", rating.Default(), rating.Default(), 7, t0.Add(day), want{1662.22, 290.23}, want{1337.78, 290.23}},
		{"a score below 0 is a loss", rating.Default(), rating.Default(), -1, t0.Add(day), want{1337.78, 290.23}, want{1662.22, 290.23}},
		{"settled players draw", settled, settled, 0.5, t0.Add(day), want{1500, 45}, want{1500, 45}},
		{"the favourite wins", settled, withRating(settled, 1900), 0, t0.Add(day), want{1498.92, 45.13}, want{1901.08, 45.13}},
		{"upset", settled, withRating(settled, 1900), 1, t0.Add(day), want{1510.53, 45.13}, want{1889.47, 45.13}},
		{"a player back after 433 days wins", settled, withLast(settled, t0.Add(432*day)), 1, t0.Add(433 * day), want{1531.41, 105.00}, want{1494.51, 45.00}},
		{"the same player a day after his last game wins", withLast(settled, t0.Add(432*day)), withLast(settled, t0.Add(432*day)), 1, t0.Add(433 * day), want{1505.74, 45}, want{1494.26, 45}},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b := rating.Update(c.a, c.b, c.score, c.now)
			for _, p := range []struct {
				who           string
				before, after rating.Rating
				want          want
			}{{"a", c.a, a, c.wa}, {"b", c.b, b, c.wb}} {
				if !near(p.after.Rating, p.want.rating, 0.01) || !near(p.after.Deviation, p.want.deviation, 0.01) {
					t.Errorf("%s: rating %.2f RD %.2f, want %.2f RD %.2f", p.who, p.after.Rating, p.after.Deviation, p.want.rating, p.want.deviation)
				}
				if p.after.Games != p.before.Games+1 || !p.after.Last.Equal(c.now) {
					t.Errorf("%s: %d games, last %v; want %d, %v", p.who, p.after.Games, p.after.Last, p.before.Games+1, c.now)
				}
			}
			// The same game seen from the other side.
			b2, a2 := rating.Update(c.b, c.a, 1-c.score, c.now)
			if a2 != a || b2 != b {
				t.Errorf("the players' order matters: %+v, %+v then %+v, %+v", a, b, a2, b2)
			}
		})
	}
}

func withRating(r rating.Rating, x float64) rating.Rating { r.Rating = x; return r }

func withLast(r rating.Rating, last time.Time) rating.Rating { r.Last = last; return r }

func TestUpdateScoreNotANumber(t *testing.T) {
	a, b := rating.Update(settled, rating.Default(), math.NaN(), t0.Add(day))
	if a != settled || b != rating.Default() {
		t.Errorf("Update with a NaN score = %+v, %+v; want the ratings unchanged", a, b)
	}
}

// TestEstablished plays a new player's first games and checks after how
// many his rating stops being provisional.
func TestEstablished(t *testing.T) {
	for _, c := range []struct {
		name     string
		opponent func(now time.Time, prev rating.Rating) rating.Rating
		every    time.Duration
		games    int
	}{
		{
			name:     "a game a day against settled players, won and lost in turn",
			opponent: func(now time.Time, _ rating.Rating) rating.Rating { return withLast(settled, now.Add(-day)) },
			every:    day,
			games:    10,
		},
		{
			name:     "an hour apart against another new player, won and lost in turn",
			opponent: func(_ time.Time, prev rating.Rating) rating.Rating { return prev },
			every:    time.Hour,
			games:    13,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, opp := rating.Default(), rating.Default()
			now := t0
			for n := 1; n <= 20; n++ {
				now = now.Add(c.every)
				p, opp = rating.Update(p, c.opponent(now, opp), float64(n%2), now)
				if p.Provisional() != (n < c.games) {
					t.Fatalf("after %d games RD %.2f, provisional %v; want established from game %d", n, p.Deviation, p.Provisional(), c.games)
				}
			}
		})
	}
}

// TestMinDeviation plays many games in quick succession: the deviation
// falls to MinDeviation and stays there.
func TestMinDeviation(t *testing.T) {
	p, opp := rating.Default(), rating.Default()
	now := t0
	for n := 1; n <= 300; n++ {
		now = now.Add(time.Minute)
		p, opp = rating.Update(p, opp, 0.5, now)
		if p.Deviation < rating.MinDeviation {
			t.Fatalf("game %d: RD %v below the minimum", n, p.Deviation)
		}
	}
	if p.Deviation != rating.MinDeviation {
		t.Errorf("after 300 games RD %v, want %v", p.Deviation, rating.MinDeviation)
	}
}

// TestExpected checks the predicted score. Two settled players 200 points
// apart: the combined deviation is √(50² + 50²)/173.7178 = 0.40705, so
// g = 0.97572 and the prediction 1/(1 + exp(-g 200/173.7178)) = 0.75461.
// Two new players: √(350² + 350²)/173.7178 = 2.84928, g = 0.53700, and
// the prediction falls to 0.64982.
func TestExpected(t *testing.T) {
	r := func(x, rd float64) rating.Rating { return rating.Rating{Rating: x, Deviation: rd, Volatility: 0.06} }
	for _, c := range []struct {
		name string
		a, b rating.Rating
		want float64
	}{
		{"equals", r(1500, 50), r(1500, 50), 0.5},
		{"200 points ahead", r(1700, 50), r(1500, 50), 0.75461},
		{"200 points behind", r(1500, 50), r(1700, 50), 1 - 0.75461},
		{"200 points ahead, both new", r(1700, 350), r(1500, 350), 0.64982},
		{"zero Ratings", rating.Rating{}, rating.Rating{}, 0.5},
		{"the widest gap", r(1e6, 0), r(-1e6, 0), 0.99999999},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := rating.Expected(c.a, c.b)
			if !near(got, c.want, 0.000005) {
				t.Errorf("Expected = %.6f, want %.5f", got, c.want)
			}
			if back := rating.Expected(c.b, c.a); !near(got+back, 1, 1e-12) {
				t.Errorf("Expected both ways = %v and %v, want a sum of 1", got, back)
			}
		})
	}
}

// checkBounded fails t if r has a number that is not finite or out of its
// bounds.
func checkBounded(t *testing.T, what string, r rating.Rating) {
	t.Helper()
	for _, f := range []struct {
		name     string
		x        float64
		min, max float64
	}{
		{"rating", r.Rating, rating.MinRating, rating.MaxRating},
		{"deviation", r.Deviation, rating.MinDeviation, rating.MaxDeviation},
		{"volatility", r.Volatility, rating.MinVolatility, rating.MaxVolatility},
	} {
		if !(f.x >= f.min && f.x <= f.max) {
			t.Errorf("%s: %s %v, not within %v to %v", what, f.name, f.x, f.min, f.max)
		}
	}
}

// FuzzUpdate rates games between any two ratings, at any times: every
// result is finite and within its bounds, the winner does not lose
// points, the loser does not gain any, and Expected stays within 0 to 1.
func FuzzUpdate(f *testing.F) {
	inf, nan := math.Inf(1), math.NaN()
	f.Add(1500.0, 350.0, 0.06, int64(0), 1500.0, 350.0, 0.06, int64(0), 1.0, int64(0))
	f.Add(1500.0, 45.0, 0.06, int64(1), 1900.0, 45.0, 0.06, int64(1), 1.0, int64(86400))
	f.Add(4000.0, 45.0, 0.1, int64(1), 400.0, 45.0, 0.1, int64(1), 0.0, int64(1))
	f.Add(nan, nan, nan, int64(-5), inf, -inf, inf, int64(math.MaxInt64), 0.5, int64(math.MinInt64))
	f.Add(0.0, 0.0, 0.0, int64(0), -1e300, 1e300, 1e-300, int64(1), 1.0, int64(1<<40))
	f.Fuzz(func(t *testing.T, ra, da, va float64, lastA int64, rb, db, vb float64, lastB int64, score float64, now int64) {
		a := rating.Rating{Rating: ra, Deviation: da, Volatility: va, Games: 3}
		b := rating.Rating{Rating: rb, Deviation: db, Volatility: vb, Games: 4}
		// Seconds from t0; 0 is a rating never played.
		if lastA != 0 {
			a.Last = t0.Add(time.Duration(lastA) * time.Second)
		}
		if lastB != 0 {
			b.Last = t0.Add(time.Duration(lastB) * time.Second)
		}
		at := t0.Add(time.Duration(now) * time.Second)

		for _, r := range []rating.Rating{a, b} {
			grown := r.At(at)
			checkBounded(t, "At", grown)
			if grown.Deviation < r.At(r.Last).Deviation {
				t.Errorf("At(%v) shrank RD from %v to %v", at, r.At(r.Last).Deviation, grown.Deviation)
			}
		}
		if e := rating.Expected(a.At(at), b.At(at)); !(e >= 0 && e <= 1) {
			t.Errorf("Expected = %v", e)
		}
		if math.IsNaN(score) {
			return
		}
		a2, b2 := rating.Update(a, b, score, at)
		checkBounded(t, "Update a", a2)
		checkBounded(t, "Update b", b2)
		if a2.Games != 4 || b2.Games != 5 {
			t.Errorf("games %d and %d after a game, want 4 and 5", a2.Games, b2.Games)
		}
		before, after := a.At(at).Rating, a2.Rating
		if score >= 1 && after < before || score <= 0 && after > before {
			t.Errorf("score %v moved the rating from %v to %v", score, before, after)
		}
	})
}
