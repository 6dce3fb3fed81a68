package rating

import "math"

// glicko2 is a rating on Glicko-2's scale: μ, φ and σ.
type glicko2 struct {
	mu, phi, sigma float64
}

// outcome is one game of a rating period: the opponent's μ and φ and the
// score made against him.
type outcome struct {
	mu, phi, score float64
}

// maxIterations bounds the loops of step 5. For ratings within the bounds
// the iteration converges in at most 20 steps (a million random games
// took no more), and the first loop stops at once; the bound only makes
// sure that no rounding can keep them going.
const maxIterations = 1000

// rate returns p after the rating period in which it played games: steps
// 3 to 7 of Glickman's description with system constant tau, where step 6
// grows φ by growth periods of the new volatility (1 in the description).
// games is not empty: a period without games is step 6 alone (grow).
func rate(p glicko2, games []outcome, tau, growth float64) glicko2 {
	v, sum := estimate(p.mu, games)
	sigma := volatility(p.phi, p.sigma, v, v*sum, tau)
	phiStar := math.Sqrt(p.phi*p.phi + growth*sigma*sigma)
	phi := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	return glicko2{mu: p.mu + phi*phi*sum, phi: phi, sigma: sigma}
}

// estimate returns the estimated variance v of a player's rating from his
// games alone (step 3) and the sum Σ g(φj)(sj - E) whose product with v
// is the estimated improvement Δ (step 4).
func estimate(mu float64, games []outcome) (v, sum float64) {
	var info float64
	for _, o := range games {
		g := g(o.phi)
		e := expected(mu, o.mu, o.phi)
		info += g * g * e * (1 - e)
		sum += g * (o.score - e)
	}
	return 1 / info, sum
}

// g is Glickman's g(φ): it shrinks a rating difference by the uncertainty
// of the opponent's rating.
func g(phi float64) float64 {
	return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi))
}

// expected returns E(μ, μj, φj), the score expected of a player at mu
// against one at muj whose rating has the deviation phij.
func expected(mu, muj, phij float64) float64 {
	return 1 / (1 + math.Exp(-g(phij)*(mu-muj)))
}

// volatility returns the new volatility σ' of a player with deviation phi
// and volatility sigma whose games gave the variance v and improvement
// delta: step 5, the root of f by the Illinois algorithm (regula falsi
// halving the value kept at the side that stays) to within Epsilon.
func volatility(phi, sigma, v, delta, tau float64) float64 {
	a := 2 * math.Log(sigma)
	phi2, delta2 := phi*phi, delta*delta
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi2 + v + ex
		return ex*(delta2-phi2-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}

	// Step 5.2: A and B bracket the root.
	A := a
	var B float64
	if delta2 > phi2+v {
		B = math.Log(delta2 - phi2 - v)
	} else {
		k := 1.0
		for ; f(a-k*tau) < 0 && k < maxIterations; k++ {
		}
		B = a - k*tau
	}

	// Steps 5.3 and 5.4.
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > Epsilon && fB != fA && i < maxIterations; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
