package tune

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"emergo/eval"
	"emergo/rules"
)

// entryOpenings returns n positions of the 7x7 board after six random
// entries with no capture to make: openings of the kind SPSA plays from.
func entryOpenings(n int, seed uint64) []rules.Position {
	r := rand.New(rand.NewPCG(seed, 11))
	var out []rules.Position
	var buf []rules.Move
	for len(out) < n {
		p := rules.NewPosition(rules.Geometry7)
		for range 6 {
			buf = p.Legal(buf[:0])
			p.Play(buf[r.IntN(len(buf))])
		}
		if !p.CanCapture() {
			out = append(out, p)
		}
	}
	return out
}

func smallSPSA(workers int) SPSAConfig {
	return SPSAConfig{
		Start: eval.Fitted7, Steps: DefaultSteps, Rate: 0.05,
		Openings: entryOpenings(8, 1), Pairs: 6, Nodes: 800, Batch: 4, Workers: workers, Seed: 5,
	}
}

// The run is a function of its configuration, however many workers play
// the pairs, and a weight whose step is 0 is not tuned.
func TestSPSAIsAFunctionOfItsConfiguration(t *testing.T) {
	one, err := SPSA(context.Background(), smallSPSA(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := smallSPSA(3)
	var reports []SPSAProgress
	two, err := SPSA(context.Background(), cfg, func(p SPSAProgress) { reports = append(reports, p) })
	if err != nil {
		t.Fatal(err)
	}
	if one != two {
		t.Errorf("1 worker: %+v\n3 workers: %+v", one, two)
	}
	if one.W[eval.FreeMen] != 100 {
		t.Errorf("free men %d: its step is 0, want the scale 100 kept", one.W[eval.FreeMen])
	}
	if len(reports) != 2 || reports[0].Pairs != 4 || reports[1].Pairs != 6 || reports[1].Weights != two {
		t.Errorf("reports %+v: want one after each batch, of 4 and 6 pairs, the last with the result", reports)
	}
	for _, r := range reports {
		if r.Score < 0 || r.Score > 1 {
			t.Errorf("score %v out of [0, 1]", r.Score)
		}
	}
}

// A weight set far wrong is moved back by play: men exposed to a jump
// valued at most of a free man each, the tuning lowers their weight.
func TestSPSAMovesAWrongWeightBack(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 96 game pairs")
	}
	cfg := smallSPSA(0)
	cfg.Start.W[eval.ExposedMen] = 80
	cfg.Steps = [NumParams]float64{eval.ExposedMen: 20}
	cfg.Rate = 0.1
	cfg.Openings = entryOpenings(96, 2)
	cfg.Pairs = 96
	w, err := SPSA(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("exposed men %d", w.W[eval.ExposedMen])
	if w.W[eval.ExposedMen] >= 50 {
		t.Errorf("exposed men %d after 96 pairs from 80: want it lowered by play", w.W[eval.ExposedMen])
	}
	w.W[eval.ExposedMen] = cfg.Start.W[eval.ExposedMen]
	if w != cfg.Start {
		t.Errorf("weights without a step moved: %+v", w)
	}
}

func TestSPSAStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := SPSA(ctx, smallSPSA(2), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
	cfg := smallSPSA(1)
	cfg.Openings = nil
	if _, err := SPSA(context.Background(), cfg, nil); err == nil {
		t.Error("no openings: no error")
	}
}
