package rating

import (
	"math"
	"testing"
)

// TestGlickmanExample computes the worked example of Glickman's
// description: a player of 1500, RD 200, volatility 0.06 plays three
// games in a rating period with τ = 0.5, and ends at 1464.06, RD 151.52,
// volatility 0.05999. Each value is checked to within a unit of the last
// decimal the description prints, as it computes each step from the
// previous ones rounded: so its σ' is 0.059996 cut to 0.05999, its φ* comes
// from φ = 1.1513, and its rating from μ' = -0.2069 (unrounded it is
// 1464.0507). Its v and Δ come from g and E rounded to four decimals and
// are off by five units of the fourth, so they are checked to the third.
func TestGlickmanExample(t *testing.T) {
	player := glicko2{mu: 0, phi: 200 / Scale, sigma: 0.06}
	games := []outcome{
		{mu: (1400 - 1500) / Scale, phi: 30 / Scale, score: 1},
		{mu: (1550 - 1500) / Scale, phi: 100 / Scale, score: 0},
		{mu: (1700 - 1500) / Scale, phi: 300 / Scale, score: 0},
	}
	v, sum := estimate(player.mu, games)
	sigma := volatility(player.phi, player.sigma, v, v*sum, 0.5)
	after := rate(player, games, 0.5, 1)

	for _, c := range []struct {
		name      string
		got, want float64
		tolerance float64
	}{
		{"step 2: φ", player.phi, 1.1513, 0.0001},
		{"step 3: g(φ1)", g(games[0].phi), 0.9955, 0.0001},
		{"step 3: g(φ2)", g(games[1].phi), 0.9531, 0.0001},
		{"step 3: g(φ3)", g(games[2].phi), 0.7242, 0.0001},
		{"step 3: E1", expected(player.mu, games[0].mu, games[0].phi), 0.639, 0.001},
		{"step 3: E2", expected(player.mu, games[1].mu, games[1].phi), 0.432, 0.001},
		{"step 3: E3", expected(player.mu, games[2].mu, games[2].phi), 0.303, 0.001},
		{"step 3: v", v, 1.7785, 0.001},
		{"step 4: Δ", v * sum, -0.4834, 0.001},
		{"step 5: σ'", sigma, 0.05999, 0.00001},
		{"step 6: φ*", math.Sqrt(player.phi*player.phi + sigma*sigma), 1.152862, 0.00001},
		{"step 7: φ'", after.phi, 0.8722, 0.0001},
		{"step 7: μ'", after.mu, -0.2069, 0.0001},
		{"step 8: r'", after.mu*Scale + 1500, 1464.06, 0.01},
		{"step 8: RD'", after.phi * Scale, 151.52, 0.01},
		{"step 8: σ'", after.sigma, 0.05999, 0.00001},
	} {
		if math.Abs(c.got-c.want) > c.tolerance {
			t.Errorf("%s = %.7f, want %v (within %v)", c.name, c.got, c.want, c.tolerance)
		}
	}
}

// TestVolatilityBracket covers both ways step 5.2 finds the second end of
// the bracket: from Δ² when the games surprised more than φ² + v says
// (volatility rises), and by stepping down from ln σ² in steps of τ when
// they did not (volatility falls a little).
func TestVolatilityBracket(t *testing.T) {
	const phi, sigma, v = 1.0, 0.06, 2.0
	for _, c := range []struct {
		name  string
		delta float64
		rises bool
	}{
		{"surprising results", 3, true},
		{"expected results", 0.1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := volatility(phi, sigma, v, c.delta, Tau)
			if math.IsNaN(got) || got <= 0 || (got > sigma) != c.rises {
				t.Errorf("volatility = %v from %v, want it to rise: %v", got, sigma, c.rises)
			}
		})
	}
}
