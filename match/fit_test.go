package match

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// synthetic returns the rows of a ladder over players with the true Elos
// elo: pairs game pairs a row, each game won, drawn or lost with the
// probabilities of the logistic model, drawn from seed. draws is the draw
// rate of equal players; it falls with the difference, as the rarer
// result does.
func synthetic(players []string, elo []float64, pairs int, draws float64, seed uint64) []FitRow {
	rng := rand.New(rand.NewPCG(seed, 1))
	var rows []FitRow
	for _, pr := range LadderPairings(players, pairs*2, pairs*2) {
		a, b := indexOf(players, pr.P1), indexOf(players, pr.P2)
		s := ScoreFromElo(elo[a] - elo[b])
		// P(win) + P(draw)/2 = s, the expected score.
		draw := draws * 2 * min(s, 1-s)
		win := s - draw/2
		r := FitRow{P1: pr.P1, P2: pr.P2}
		for range pairs {
			halves := 0
			for range 2 {
				switch x := rng.Float64(); {
				case x < win:
					halves += 2
				case x < win+draw:
					halves++
				}
			}
			r.Pairs[halves]++
		}
		rows = append(rows, r)
	}
	return rows
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

func TestFitEloRecoversKnownElos(t *testing.T) {
	players := []string{"random", "a", "b", "c", "d", "e", "f"}
	for _, c := range []struct {
		name      string
		elo       []float64
		pairs     int
		draws     float64
		tolerance float64
	}{
		{"even steps of 250, no draws", []float64{0, 250, 500, 750, 1000, 1250, 1500}, 2000, 0, 25},
		{"uneven steps with draws", []float64{0, 400, 550, 900, 1000, 1300, 1380}, 2000, 0.2, 25},
		{"steps of 100, a game pair a row", []float64{0, 100, 200, 300, 400, 500, 600}, 1, 0.1, math.Inf(1)},
		{"steps of 150, 200 pairs a row", []float64{0, 150, 300, 450, 600, 750, 900}, 200, 0.1, 60},
	} {
		t.Run(c.name, func(t *testing.T) {
			rows := synthetic(players, c.elo, c.pairs, c.draws, 7)
			fit, err := FitElo(rows, players, 1)
			if err != nil {
				t.Fatal(err)
			}
			if fit[0].Elo != 0 || fit[0].Low != 0 || fit[0].High != 0 {
				t.Errorf("the anchor is at %+v, want 0", fit[0])
			}
			for i, r := range fit {
				if r.Name != players[i] {
					t.Errorf("player %d is %q, want %q", i, r.Name, players[i])
				}
				if math.IsNaN(r.Elo) || math.IsInf(r.Elo, 0) || !(r.Low <= r.Elo && r.Elo <= r.High) {
					t.Errorf("%s: Elo %.1f outside its interval [%.1f, %.1f]", r.Name, r.Elo, r.Low, r.High)
				}
				if math.Abs(r.Elo-c.elo[i]) > c.tolerance {
					t.Errorf("%s: fitted %.1f, true %.1f (tolerance %.0f)", r.Name, r.Elo, c.elo[i], c.tolerance)
				}
				if i > 0 && math.Abs(r.Step-(r.Elo-fit[i-1].Elo)) > 1e-9 {
					t.Errorf("%s: step %.1f, want %.1f", r.Name, r.Step, r.Elo-fit[i-1].Elo)
				}
			}
			if c.pairs >= 200 {
				// The truth lies within the 95% intervals, nearly always:
				// with these seeds, always.
				for i, r := range fit[1:] {
					if e := c.elo[i+1]; e < r.Low || e > r.High {
						t.Errorf("%s: true %.0f outside [%.1f, %.1f]", r.Name, e, r.Low, r.High)
					}
				}
			}
		})
	}
}

// The intervals are the bootstrap's, from the seed: the same rows and
// seed give the same report, and more games give narrower intervals.
func TestFitEloIntervals(t *testing.T) {
	players := []string{"random", "a", "b", "c"}
	elo := []float64{0, 300, 600, 900}
	few, many := synthetic(players, elo, 20, 0.1, 3), synthetic(players, elo, 500, 0.1, 3)
	a, _ := FitElo(few, players, 5)
	b, _ := FitElo(few, players, 5)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("two fits of the same rows and seed differ:\n%v\n%v", a, b)
	}
	c, _ := FitElo(many, players, 5)
	for i := 1; i < len(players); i++ {
		if wa, wc := a[i].High-a[i].Low, c[i].High-c[i].Low; !(wc < wa/2) {
			t.Errorf("%s: interval %.0f wide with 20 pairs a row, %.0f with 500", players[i], wa, wc)
		}
	}
}

// A row won entirely gives a finite Elo: each row counts a drawn game
// more than it played.
func TestFitEloShutout(t *testing.T) {
	rows := []FitRow{
		{P1: "random", P2: "a", Pairs: [5]int{10, 0, 0, 0, 0}},
		{P1: "a", P2: "b", Wins: 3, Draws: 4, Losses: 3},
	}
	fit, err := FitElo(rows, []string{"random", "a", "b"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	// 20.5 of 21 points: 400 log10(41) = 645.1.
	if got := fit[1].Elo; math.Abs(got-645.1) > 0.1 || math.Abs(fit[2].Elo-got) > 0.1 {
		t.Errorf("a at %.1f, b at %.1f; want both at 645.1", got, fit[2].Elo)
	}
}

func TestFitEloErrors(t *testing.T) {
	for _, c := range []struct {
		name    string
		rows    []FitRow
		players []string
		want    string
	}{
		{"no player", nil, nil, "no player"},
		{"a player no row joins", []FitRow{{P1: "random", P2: "a", Wins: 1}, {P1: "b", P2: "c", Wins: 1}},
			[]string{"random", "a", "b", "c"}, "no row joins b to random"},
		{"a row of a stranger", []FitRow{{P1: "random", P2: "x", Wins: 1}},
			[]string{"random", "a"}, "row random vs x is not between two of the players"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := FitElo(c.rows, c.players, 1)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one saying %q", err, c.want)
			}
		})
	}
}

func TestLadderPairings(t *testing.T) {
	players := LadderPlayers()
	if len(players) != 11 || players[0] != "random" || players[10] != "level:10" {
		t.Fatalf("ladder players %v", players)
	}
	rows := LadderPairings(players, 40, 20)
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%s vs %s %d", r.P1, r.P2, r.Games))
	}
	want := []string{
		"random vs level:1 40", "random vs level:2 20",
		"level:1 vs level:2 40", "level:1 vs level:3 20",
		"level:2 vs level:3 40", "level:2 vs level:4 20",
		"level:3 vs level:4 40", "level:3 vs level:5 20",
		"level:4 vs level:5 40", "level:4 vs level:6 20",
		"level:5 vs level:6 40", "level:5 vs level:7 20",
		"level:6 vs level:7 40", "level:6 vs level:8 20",
		"level:7 vs level:8 40", "level:7 vs level:9 20",
		"level:8 vs level:9 40", "level:8 vs level:10 20",
		"level:9 vs level:10 40",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ladder rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Every level is tied to the scale by more than one match.
	for _, p := range players[1:] {
		n := 0
		for _, r := range rows {
			if r.P1 == p || r.P2 == p {
				n++
			}
		}
		if n < 2 {
			t.Errorf("%s plays in %d rows", p, n)
		}
	}
}
