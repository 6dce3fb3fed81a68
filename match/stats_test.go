package match

import (
	"math"
	"strings"
	"testing"

	"emergo/rules"
)

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

func TestEloFromScore(t *testing.T) {
	tests := []struct {
		score, elo float64
	}{
		{0.5, 0},
		{0.75, 190.848501887865}, // -400 log10(1/3)
		{0.25, -190.848501887865},
		{10.0 / 11, 400}, // 10:1 odds is 400 Elo
	}
	for _, tc := range tests {
		if got := EloFromScore(tc.score); !near(got, tc.elo, 1e-9) {
			t.Errorf("EloFromScore(%v) = %v, want %v", tc.score, got, tc.elo)
		}
		if got := ScoreFromElo(tc.elo); !near(got, tc.score, 1e-12) {
			t.Errorf("ScoreFromElo(%v) = %v, want %v", tc.elo, got, tc.score)
		}
	}
	if !math.IsInf(EloFromScore(1), 1) || !math.IsInf(EloFromScore(0), -1) {
		t.Error("a perfect score should be infinite Elo")
	}
}

func TestLOS(t *testing.T) {
	tests := []struct {
		w, l int
		want float64
	}{
		// (W-L)/sqrt(W+L) = 20/10 = 2 standard deviations: Φ(2).
		{60, 40, 0.9772498680518208},
		{40, 60, 1 - 0.9772498680518208},
		{10, 10, 0.5},
		{0, 0, 0.5},
		// 3 wins and 1 loss: 2/sqrt(4) = 1 standard deviation, Φ(1).
		{3, 1, 0.8413447460685429},
	}
	for _, tc := range tests {
		if got := LOS(tc.w, tc.l); !near(got, tc.want, 1e-12) {
			t.Errorf("LOS(%d, %d) = %v, want %v", tc.w, tc.l, got, tc.want)
		}
	}
}

func TestTrinomialElo(t *testing.T) {
	// 60 wins, 20 draws, 20 losses: s = 0.7, per-game variance
	// (60·0.3² + 20·0.2² + 20·0.7²)/100 = 0.16, standard error
	// sqrt(0.16/100) = 0.04, so s ± 1.96·0.04 = [0.6216, 0.7784].
	iv := TrinomialElo(60, 20, 20)
	want := Interval{147.19071411783776, 86.22501520030423, 218.2517776410748}
	if !near(iv.Elo, want.Elo, 1e-9) || !near(iv.Low, want.Low, 1e-9) || !near(iv.High, want.High, 1e-9) {
		t.Errorf("TrinomialElo(60, 20, 20) = %v, want %v", iv, want)
	}
	if iv := TrinomialElo(0, 10, 0); iv.Elo != 0 || iv.Low != 0 || iv.High != 0 {
		t.Errorf("ten draws: %v, want 0 with no width", iv)
	}
}

func TestPentanomialElo(t *testing.T) {
	// Pairs scoring 0, 1/4, 1/2, 3/4, 1 per game: 1, 0, 2, 3, 1 of them.
	// Mean 4.25/7 = 0.607143, variance 0.086735 over 7 pairs.
	iv := PentanomialElo([5]int{1, 0, 2, 3, 1})
	want := Interval{75.62249448801953, -78.45665284240934, 269.74334876284405}
	if !near(iv.Elo, want.Elo, 1e-9) || !near(iv.Low, want.Low, 1e-9) || !near(iv.High, want.High, 1e-9) {
		t.Errorf("PentanomialElo = %v, want %v", iv, want)
	}
}

func TestPerfectScoreInterval(t *testing.T) {
	// Ten pairs all won: 0.025^(1/10) = 0.691503 is the lower bound of
	// the rate, 400 log10(0.691503/0.308497) = 140.22 Elo.
	iv := PentanomialElo([5]int{4: 10})
	if !math.IsInf(iv.Elo, 1) || !math.IsInf(iv.High, 1) || !near(iv.Low, 140.21716160759303, 1e-9) {
		t.Errorf("ten pairs won: %v, want +inf [+140.2, +inf]", iv)
	}
	iv = TrinomialElo(0, 0, 20)
	if !math.IsInf(iv.Elo, -1) || !math.IsInf(iv.Low, -1) || !near(iv.High, -EloFromScore(math.Pow(0.025, 1.0/20)), 1e-9) {
		t.Errorf("twenty games lost: %v", iv)
	}
}

func TestSPRT(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	lo, hi := s.Bounds()
	if !near(lo, math.Log(0.05/0.95), 1e-12) || !near(hi, math.Log(0.95/0.05), 1e-12) || !near(hi, 2.9444389791664403, 1e-12) {
		t.Errorf("Bounds() = %v, %v, want ±2.944", lo, hi)
	}

	// By hand: 3 wins, 2 draws, 1 loss. s0 = 0.5 and s1 = 1/(1+10^(-1/40))
	// = 0.514387. σ0² = (3·0.5² + 2·0² + 1·0.5²)/6 = 1/6 and
	// σ1² = (3·(1-s1)² + 2·(0.5-s1)² + s1²)/6 = 0.162078, so
	// LLR = 6/2 · ln(σ0²/σ1²) = 0.083756.
	if got := s.LLRTrinomial(3, 2, 1); !near(got, 0.08375562834964798, 1e-12) {
		t.Errorf("LLRTrinomial(3, 2, 1) = %v, want 0.0837556", got)
	}
	// The same with the pairs of TestPentanomialElo: 7/2 · ln(σ0²/σ1²).
	if got := s.LLRPentanomial([5]int{1, 0, 2, 3, 1}); !near(got, 0.10401989514796722, 1e-12) {
		t.Errorf("LLRPentanomial = %v, want 0.1040199", got)
	}
	if got := s.LLRTrinomial(0, 0, 0); got != 0 {
		t.Errorf("LLR of no games = %v, want 0", got)
	}

	// A long run of wins accepts H1, of losses H0.
	if d := s.Decide(s.LLRTrinomial(300, 200, 200)); d != AcceptH1 {
		t.Errorf("300-200-200: %v, want H1 accepted", d)
	}
	if d := s.Decide(s.LLRTrinomial(200, 200, 300)); d != AcceptH0 {
		t.Errorf("200-200-300: %v, want H0 accepted", d)
	}
	if d := s.Decide(0); d != Continue {
		t.Errorf("LLR 0: %v, want continue", d)
	}
}

func TestParseSPRT(t *testing.T) {
	s, err := ParseSPRT(" 0 5  0.05 0.1 ")
	if err != nil || s != (SPRT{0, 5, 0.05, 0.1}) {
		t.Errorf("ParseSPRT = %v, %v", s, err)
	}
	for _, bad := range []string{"", "0 5 0.05", "0 5 0.05 x", "5 0 0.05 0.05", "0 5 0 0.05", "0 5 0.05 0.7", "0 5 NaN 0.05"} {
		if _, err := ParseSPRT(bad); err == nil {
			t.Errorf("ParseSPRT(%q) succeeded", bad)
		}
	}
}

func TestCountsElo(t *testing.T) {
	c := Counts{Wins: 5, Draws: 2, Losses: 1, Pairs: [5]int{0, 0, 1, 2, 1}}
	if got, want := c.Elo(), PentanomialElo(c.Pairs); got != want {
		t.Errorf("paired games: Elo %v, want the pentanomial %v", got, want)
	}
	c.Wins++ // one game outside the pairs
	if got, want := c.Elo(), TrinomialElo(6, 2, 1); got != want {
		t.Errorf("unpaired game: Elo %v, want the trinomial %v", got, want)
	}
}

func TestReportCountsWords(t *testing.T) {
	for _, c := range []struct {
		counts Counts
		want   string
	}{
		{Counts{Wins: 1, Draws: 1, Losses: 1}, "Score of a: 1 win, 1 draw, 1 loss: 1.5/3 = 0.500\n"},
		{Counts{Wins: 2, Draws: 0, Losses: 2}, "Score of a: 2 wins, 0 draws, 2 losses: 2.0/4 = 0.500\n"},
	} {
		s := Summary{P1: "a", P2: "b", Sizes: []int{7}, Planned: c.counts.Games(), Counts: c.counts}
		var b strings.Builder
		if err := s.WriteReport(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), c.want) {
			t.Errorf("report lacks %q:\n%s", c.want, b.String())
		}
	}
}

// A match on both boards reports each board apart: the pairs of 9x9 and
// of 7x7, an unfinished pair's game counted as a game but not as a pair.
func TestReportByBoard(t *testing.T) {
	game := func(num, size int, p1White bool, res rules.Result) GameResult {
		return GameResult{Number: num, Pair: (num + 1) / 2, P1White: p1White, Size: size, Result: res}
	}
	s := Summary{P1: "a", P2: "b", Sizes: []int{9, 7}, Planned: 6, Games: []GameResult{
		game(1, 9, true, rules.WhiteWins), game(2, 9, false, rules.BlackWins), // a wins both
		game(3, 7, true, rules.WhiteWins), game(4, 7, false, rules.WhiteWins), // White wins both
		game(5, 9, true, rules.Draw), // its pair unfinished
	}}
	for i := range s.Games {
		s.Counts.add(&s.Games[i])
	}
	nine, seven := s.CountsOn(9), s.CountsOn(7)
	if want := (Counts{Wins: 2, Draws: 1, Pairs: [5]int{4: 1}, WhiteWins: 1, BlackWins: 1, WhitePairs: [5]int{2: 1}}); nine != want {
		t.Errorf("9x9 counts %+v, want %+v", nine, want)
	}
	if want := (Counts{Wins: 1, Losses: 1, Pairs: [5]int{2: 1}, WhiteWins: 2, WhitePairs: [5]int{4: 1}}); seven != want {
		t.Errorf("7x7 counts %+v, want %+v", seven, want)
	}
	var b strings.Builder
	if err := s.WriteReport(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"On 9x9: 2.5/3 = 0.833, Elo ", "On 7x7: 1.0/2 = 0.500, Elo 0.0 ", "; White scores 1.000\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	one := Summary{P1: "a", P2: "b", Sizes: []int{9}, Planned: 2, Games: s.Games[:2], Counts: nine}
	b.Reset()
	if err := one.WriteReport(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "On 9x9") {
		t.Errorf("a match on one board repeats its score by board:\n%s", b.String())
	}
}
