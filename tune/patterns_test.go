package tune_test

import (
	"os"
	"slices"
	"testing"

	"emergo/eval"
	"emergo/rules"
	"emergo/tune"
)

// TestFitPatterns fits tables to the stored 7x7 self-play positions and
// checks that they predict the held-out games better than the
// handcrafted weights they start from, that the result is the same
// twice, and that the score the engine computes is the fit's.
func TestFitPatterns(t *testing.T) {
	f, err := os.Open("testdata/selfplay2.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	samples, err := tune.Read(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	samples = tune.OfSize(samples, 7)
	if testing.Short() {
		samples = samples[:40000]
	}
	cfg := tune.PatternConfig{Start: &eval.Default7, Epochs: 2, Holdout: 0.1, Seed: 3}
	var epochs []float64
	cfg.Progress = func(epoch int, train, valid float64) { epochs = append(epochs, valid) }
	res, err := tune.FitPatterns(samples, 7, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d positions, %d held out, scale %.1f: log loss %.5f -> %.5f, held out %.5f -> %.5f",
		res.TrainSamples, res.Held, res.Scale, res.StartTrain, res.Train, res.StartValid, res.Valid)
	if len(epochs) != 2 {
		t.Errorf("progress called %d times, want once per epoch", len(epochs))
	}
	if res.Train >= res.StartTrain || res.Valid >= res.StartValid {
		t.Errorf("the trained evaluation predicts no better: log loss %.5f -> %.5f, held out %.5f -> %.5f",
			res.StartTrain, res.Train, res.StartValid, res.Valid)
	}
	if res.Weights.W[eval.FreeMen] != 100 {
		t.Errorf("a free man is worth %d, want 100 held", res.Weights.W[eval.FreeMen])
	}
	again, err := tune.FitPatterns(samples, 7, tune.PatternConfig{Start: &eval.Default7, Epochs: 2, Holdout: 0.1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if again.Weights.W != res.Weights.W || again.Valid != res.Valid {
		t.Errorf("a second fit differs: %v, held out %.6f; first %v, %.6f", again.Weights.W, again.Valid, res.Weights.W, res.Valid)
	}
	// Held, the handcrafted weights stay Start's, and the tables alone
	// still predict better.
	held, err := tune.FitPatterns(samples, 7, tune.PatternConfig{Start: &eval.Default7, Hold: true, Epochs: 2, L2: 0.03, Holdout: 0.1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("held weights: held out %.5f -> %.5f", held.StartValid, held.Valid)
	if held.Weights.W != eval.Default7.W || held.Weights.Tempo != eval.Default7.Tempo {
		t.Errorf("held weights moved: %v, tempo %d", held.Weights.W, held.Weights.Tempo)
	}
	if held.Valid >= held.StartValid {
		t.Errorf("the tables on held weights predict no better: held out %.5f -> %.5f", held.StartValid, held.Valid)
	}
	// The search's scores, blended in, move the fit towards them: scores
	// of three men up everywhere make a fit that scores the positions
	// well above the one fitted to the results alone.
	scored := slices.Clone(samples)
	for i := range scored {
		scored[i].Score, scored[i].Scored = 300, true
	}
	blended, err := tune.FitPatterns(scored, 7, tune.PatternConfig{Start: &eval.Default7, Epochs: 2, Holdout: 0.1, Seed: 3, ScoreWeight: 1})
	if err != nil {
		t.Fatal(err)
	}
	mean := func(w *eval.Weights) float64 {
		sum := 0.0
		for i := range samples {
			sum += float64(w.Evaluate(&samples[i].Pos))
		}
		return sum / float64(len(samples))
	}
	if a, b := mean(&res.Weights), mean(&blended.Weights); b < a+100 {
		t.Errorf("fitted to scores of +300 the mean score is %.0f, against %.0f fitted to the results", b, a)
	}
	if blended.StartValid != res.StartValid {
		t.Errorf("the held-out positions are measured by their scores: start %.5f, want %.5f", blended.StartValid, res.StartValid)
	}
	// The tables read back from their file score as the fit's.
	data, err := res.Weights.Patterns.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	pt, err := eval.UnmarshalPatterns(data)
	if err != nil {
		t.Fatal(err)
	}
	back := res.Weights
	back.Patterns = pt
	for i := 0; i < len(samples); i += 997 {
		if a, b := res.Weights.Evaluate(&samples[i].Pos), back.Evaluate(&samples[i].Pos); a != b {
			t.Fatalf("position %d: %d with the fitted tables, %d read back", i, a, b)
		}
	}
}

func TestFitPatternsRefuses(t *testing.T) {
	p := rules.NewPosition(rules.Geometry7)
	few := []tune.Sample{{Pos: p, Result: 1}}
	if _, err := tune.FitPatterns(few, 7, tune.PatternConfig{Start: &eval.Default7}); err == nil {
		t.Error("one position fitted")
	}
	if _, err := tune.FitPatterns(few, 8, tune.PatternConfig{Start: &eval.Default7}); err == nil {
		t.Error("an 8x8 board fitted")
	}
	if _, err := tune.FitPatterns(few, 7, tune.PatternConfig{}); err == nil {
		t.Error("fitted with no weights to start from")
	}
}
