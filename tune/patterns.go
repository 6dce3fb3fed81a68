package tune

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"emergo/eval"
	"emergo/rules"
)

// PatternConfig says how FitPatterns fits a trained evaluation.
type PatternConfig struct {
	// Start is the handcrafted weights of the board the fit starts from
	// (eval.Default7 on 7x7); the fit moves them with the tables, but for
	// the free men, held at 100 so that a score stays in hundredths of a
	// man, the unit of the search's margins.
	Start *eval.Weights
	// Hold keeps all of Start's weights as they are and fits the tables
	// alone, on top of them.
	Hold bool
	// Epochs over the training positions, default 8; Rate the first
	// epoch's step (Adam, in hundredths of a man), default 1, halved
	// after each epoch; L2 pulls the tables' weights towards 0, default
	// 0.001: in each batch that sees a weight w, as much as a position
	// mispredicted by 0.001·w/100 would (on 1.8 million 7x7 positions the
	// held-out loss was 0.4569 at 0.001, 0.4640 at 0.01, 0.4560 at 0.0003).
	Epochs int
	Rate   float64
	L2     float64
	// Holdout is the share of the samples, the last ones, kept out of the
	// fit to measure it, default 0.05. tune gen writes its games in order,
	// so the held-out positions are whole games but one.
	Holdout float64
	// ScoreWeight blends the search's score into the target of the
	// training positions that have one (tune gen -scores): the target is
	// (1-ScoreWeight) × the game's result + ScoreWeight × the score's
	// expected result under the fitted scale. 0, the default, fits the
	// results alone. The held-out positions are measured against their
	// results either way.
	ScoreWeight float64
	Seed        uint64 // the order of the positions in each epoch
	// Progress, if set, is called after each epoch with the mean log loss
	// on the training and the held-out positions.
	Progress func(epoch int, train, valid float64)
}

// PatternResult is a fitted evaluation and its measures.
type PatternResult struct {
	// Weights is the trained evaluation: the handcrafted weights and the
	// tables (Weights.Patterns), both in hundredths of a man, rounded.
	Weights eval.Weights
	// Scale is the score at which the side to move is expected to win
	// 1/(1+e^-1) = 73% of the points: P = 1/(1+exp(-score/Scale)),
	// fitted to Start's scores and then held.
	Scale float64
	// The mean log loss of Start and of the trained evaluation (rounded,
	// as the engine plays it) on the training and held-out positions.
	StartTrain, StartValid float64
	Train, Valid           float64
	TrainSamples, Held     int
}

// dense is the number of handcrafted inputs: the features and the tempo.
const dense = eval.NumFeatures + 1

// example is a position as the fit reads it.
type example struct {
	x      [dense]float32 // feature differences, side to move first; 1 for the tempo
	active []int32        // the tables' weights Score adds
	y      float32        // the result for the side to move, by which the fit is measured
	target float32        // what the fit aims at: y, or y blended with the search's score (ScoreWeight)
}

// FitPatterns fits a trained evaluation for the board of size to the
// samples of that size: the tables of eval.Patterns and the handcrafted
// weights together, by logistic regression of the results on the score
// (minibatches of 1,024 positions, Adam). The result depends only on the
// samples and the configuration.
func FitPatterns(samples []Sample, size int, cfg PatternConfig) (*PatternResult, error) {
	g := rules.GeometryOf(size)
	if g == nil {
		return nil, fmt.Errorf("tune: no %dx%d board", size, size)
	}
	if cfg.Start == nil {
		return nil, errors.New("tune: FitPatterns needs the weights to start from")
	}
	if cfg.Epochs == 0 {
		cfg.Epochs = 8
	}
	if cfg.Rate == 0 {
		cfg.Rate = 1
	}
	if cfg.L2 == 0 {
		cfg.L2 = 0.001
	}
	if cfg.Holdout == 0 {
		cfg.Holdout = 0.05
	}
	samples = OfSize(samples, size)
	held := int(float64(len(samples)) * cfg.Holdout)
	if len(samples)-held < 1000 || held < 100 {
		return nil, fmt.Errorf("tune: %d positions of %dx%d, too few to fit tables of weights", len(samples), size, size)
	}
	start := *cfg.Start
	start.Small, start.Patterns = nil, nil
	pt := eval.NewPatterns(g)
	// The tables' indices of every position in one array: a slice of it
	// a position, not an allocation each.
	active := make([]int32, 0, len(samples)*pt.Lines())
	all := make([]example, len(samples))
	for i := range samples {
		all[i], active = exampleOf(&samples[i], pt, active)
	}
	train, valid := all[:len(all)-held], all[len(all)-held:]
	res := &PatternResult{TrainSamples: len(train), Held: held}

	// The scale: the one under which Start's scores fit the results best.
	startScores := scoresOf(&start, samples)
	res.Scale = fitScale(startScores[:len(train)], train)
	res.StartTrain = meanLoss(train, res.Scale, func(i int) float64 { return startScores[i] })
	res.StartValid = meanLoss(valid, res.Scale, func(i int) float64 { return startScores[len(train)+i] })
	if k := cfg.ScoreWeight; k > 0 {
		for i := range train {
			if smp := &samples[i]; smp.Scored {
				train[i].target = float32((1-k)*smp.Result + k*sigmoid(float64(smp.Score)/res.Scale))
			}
		}
	}

	// The parameters: the dense weights (the tempo last) and the tables.
	w := make([]float64, dense+pt.Size())
	for i, v := range start.W {
		w[i] = float64(v)
	}
	w[eval.NumFeatures] = float64(start.Tempo)
	fitAdam(w, train, valid, res.Scale, cfg)

	// Round as the engine plays them (the free men's weight, held, is
	// Start's), and measure again.
	out := eval.Weights{Patterns: pt}
	for i := range out.W {
		out.W[i] = int32(math.Round(w[i]))
	}
	out.Tempo = int32(math.Round(w[eval.NumFeatures]))
	for i := range pt.W {
		pt.W[i] = int16(max(math.MinInt16, min(math.MaxInt16, math.Round(w[dense+i]))))
	}
	pt.Tie()
	res.Weights = out
	scores := scoresOf(&out, samples)
	res.Train = meanLoss(train, res.Scale, func(i int) float64 { return scores[i] })
	res.Valid = meanLoss(valid, res.Scale, func(i int) float64 { return scores[len(train)+i] })
	return res, nil
}

// scoresOf is w's score of each sample.
func scoresOf(w *eval.Weights, samples []Sample) []float64 {
	out := make([]float64, len(samples))
	for i := range samples {
		out[i] = float64(w.Evaluate(&samples[i].Pos))
	}
	return out
}

// exampleOf reads s for the fit, its tables' indices appended to active.
func exampleOf(s *Sample, pt *eval.Patterns, active []int32) (example, []int32) {
	var a, b [eval.NumFeatures]int32
	p := &s.Pos
	eval.Features(p, p.Side(), &a)
	eval.Features(p, p.Side().Other(), &b)
	n := len(active)
	active = pt.Active(p, active)
	ex := example{y: float32(s.Result), target: float32(s.Result), active: active[n:len(active):len(active)]}
	for i := range a {
		ex.x[i] = float32(a[i] - b[i])
	}
	ex.x[eval.NumFeatures] = 1
	return ex, active
}

// meanLoss is the mean log loss of the scores score(i) of ex under scale.
func meanLoss(ex []example, scale float64, score func(i int) float64) float64 {
	var sum float64
	for i := range ex {
		sum += logLoss(sigmoid(score(i)/scale), float64(ex[i].y))
	}
	return sum / float64(len(ex))
}

// fitScale finds the scale under which scores predict the results best,
// by golden-section search: the loss is unimodal in it.
func fitScale(scores []float64, ex []example) float64 {
	lo, hi := 20.0, 5000.0
	f := func(s float64) float64 { return meanLoss(ex, s, func(i int) float64 { return scores[i] }) }
	const phi = 0.6180339887498949
	a, b := hi-phi*(hi-lo), lo+phi*(hi-lo)
	fa, fb := f(a), f(b)
	for hi-lo > 0.5 {
		if fa < fb {
			hi, b, fb = b, a, fa
			a = hi - phi*(hi-lo)
			fa = f(a)
		} else {
			lo, a, fa = a, b, fb
			b = lo + phi*(hi-lo)
			fb = f(b)
		}
	}
	return (lo + hi) / 2
}

// fitAdam fits w (the dense weights, then the tables) to train by
// minibatch Adam, the tables' moments updated only where a batch touches
// them (lazy Adam), the free men's weight held.
func fitAdam(w []float64, train, valid []example, scale float64, cfg PatternConfig) {
	const (
		batch        = 1024
		beta1, beta2 = 0.9, 0.999
		eps          = 1e-8
	)
	m := make([]float64, len(w))
	v := make([]float64, len(w))
	grad := make([]float64, len(w))
	seen := make([]int32, len(w)) // the last step (batch) that touched a weight, from 1
	var touched []int32
	order := make([]int32, len(train))
	for i := range order {
		order[i] = int32(i)
	}
	r := rand.New(rand.NewPCG(cfg.Seed, 0x9a77e3))
	score := func(ex *example) float64 {
		s := w[eval.NumFeatures]
		for i := 0; i < eval.NumFeatures; i++ {
			s += w[i] * float64(ex.x[i])
		}
		for _, j := range ex.active {
			s += w[dense+int(j)]
		}
		return s
	}
	rate := cfg.Rate
	step := 0
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for b0 := 0; b0 < len(order); b0 += batch {
			step++
			touched = touched[:0]
			for i := range dense {
				grad[i] = 0
			}
			in := order[b0:min(b0+batch, len(order))]
			for _, k := range in {
				ex := &train[k]
				d := (sigmoid(score(ex)/scale) - float64(ex.target)) / scale
				for i := 0; i < dense; i++ {
					grad[i] += d * float64(ex.x[i])
				}
				for _, j := range ex.active {
					t := dense + int(j)
					if seen[t] != int32(step) {
						seen[t] = int32(step)
						grad[t] = cfg.L2 * w[t] / scale
						touched = append(touched, int32(t))
					}
					grad[t] += d
				}
			}
			c1 := 1 - math.Pow(beta1, float64(step))
			c2 := 1 - math.Pow(beta2, float64(step))
			upd := func(t int) {
				g := grad[t] / batch // the last, shorter batch too, as the tables were fitted
				m[t] = beta1*m[t] + (1-beta1)*g
				v[t] = beta2*v[t] + (1-beta2)*g*g
				w[t] -= rate * (m[t] / c1) / (math.Sqrt(v[t]/c2) + eps)
			}
			for i := range dense {
				if i != eval.FreeMen && !cfg.Hold {
					upd(i)
				}
			}
			for _, t := range touched {
				upd(int(t))
			}
		}
		rate /= 2
		if cfg.Progress != nil {
			cfg.Progress(epoch,
				meanLoss(train, scale, func(i int) float64 { return score(&train[i]) }),
				meanLoss(valid, scale, func(i int) float64 { return score(&valid[i]) }))
		}
	}
}
