package tune

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"emergo/eval"
)

// nParams is the features plus the tempo term (a constant 1).
const nParams = eval.NumFeatures + 1

// vector returns the feature differences of s's position for the side to
// move, and the constant of the tempo term last.
func vector(s *Sample) [nParams]float64 {
	var a, b [eval.NumFeatures]int32
	me := s.Pos.Side()
	eval.Features(&s.Pos, me, &a)
	eval.Features(&s.Pos, me.Other(), &b)
	var x [nParams]float64
	for i := range a {
		x[i] = float64(a[i] - b[i])
	}
	// The entries are weighed by play only (SPSA): the fits are of the
	// ten features before them, and the fitted weights of docs/tuning.md
	// are reproduced as they were.
	x[eval.Entries] = 0
	x[eval.NumFeatures] = 1
	return x
}

// FitResult is a fitted set of weights with its quality.
type FitResult struct {
	Weights eval.Weights
	// Raw are the fitted coefficients in logit units per unit of feature.
	Raw [nParams]float64
	// LogLoss is the mean cross-entropy of the fit; Baseline that of
	// always predicting the mean result.
	LogLoss, Baseline float64
	Iterations        int
}

// namedWeights is the weights of eval by the names docs/tuning.md gives
// them: the engine's, the engine's without its pattern tables, the
// engine's before the second tuning by play of the
// 9x9 weights, before any weights were tuned by play, before each board
// had its own, and the first two rounds of fitting.
var namedWeights = []struct {
	name    string
	weights *eval.Weights
}{
	{"default", &eval.Default},
	{"handcrafted", &eval.Handcrafted},
	{"tuned1", &eval.Tuned1},
	{"fitted", &eval.Fitted},
	{"shared", &eval.Shared},
	{"round1", &eval.Round1},
	{"initial", &eval.Initial},
}

// WeightsNamed returns the weights of eval by their name in docs/tuning.md
// (WeightNames lists them).
func WeightsNamed(name string) (*eval.Weights, bool) {
	for _, n := range namedWeights {
		if n.name == name {
			return n.weights, true
		}
	}
	return nil, false
}

// WeightNames is the names WeightsNamed knows, as a flag's help lists
// them: "default, handcrafted, tuned1, fitted, shared, round1 or initial".
var WeightNames = func() string {
	names := make([]string, len(namedWeights))
	for i, n := range namedWeights {
		names[i] = n.name
	}
	last := len(names) - 1
	return strings.Join(names[:last], ", ") + " or " + names[last]
}()

// WriteWeights writes the fitted weights for a person to read: each
// feature's weight and coefficient, then the weights as the Go source of
// the variable varName of package eval, ready to paste.
func (r FitResult) WriteWeights(w io.Writer, varName string) error {
	var b strings.Builder
	for i, name := range eval.FeatureNames {
		fmt.Fprintf(&b, "  %-16s %6d   (%.5f per unit)\n", name, r.Weights.W[i], r.Raw[i])
	}
	fmt.Fprintf(&b, "  %-16s %6d\n\n", "tempo", r.Weights.Tempo)
	b.WriteString(GoSource(&r.Weights, varName))
	_, err := io.WriteString(w, b.String())
	return err
}

// GoSource returns w as the Go source of the variable varName of package
// eval, ready to paste.
func GoSource(w *eval.Weights, varName string) string {
	ws := make([]string, len(w.W))
	for i, x := range w.W {
		ws[i] = fmt.Sprint(x)
	}
	return fmt.Sprintf("var %s = Weights{\n\tW:     [NumFeatures]int32{%s},\n\tTempo: %d,\n}\n",
		varName, strings.Join(ws, ", "), w.Tempo)
}

// OfSize returns the samples of the n x n board, in their order.
func OfSize(samples []Sample, n int) []Sample {
	var out []Sample
	for _, s := range samples {
		if s.Pos.Geometry().N == n {
			out = append(out, s)
		}
	}
	return out
}

// Fit finds the weights that best predict the results by logistic
// regression, P(result) = 1/(1+exp(-w·x)), with a small L2 penalty, by
// Newton's method. The weights are scaled so that a free man is worth
// 100, which keeps the evaluation in hundredths of a man.
func Fit(samples []Sample, l2 float64) (FitResult, error) {
	if len(samples) == 0 {
		return FitResult{}, errors.New("tune: no samples")
	}
	xs := make([][nParams]float64, len(samples))
	mean := 0.0
	for i := range samples {
		xs[i] = vector(&samples[i])
		mean += samples[i].Result
	}
	mean /= float64(len(samples))
	var w [nParams]float64
	var res FitResult
	for it := 1; it <= 50; it++ {
		var grad [nParams]float64
		var hess [nParams][nParams]float64
		for i, x := range xs {
			p := sigmoid(dot(w, x))
			y := samples[i].Result
			for a := 0; a < nParams; a++ {
				grad[a] += (p - y) * x[a]
				for b := 0; b < nParams; b++ {
					hess[a][b] += p * (1 - p) * x[a] * x[b]
				}
			}
		}
		n := float64(len(xs))
		for a := 0; a < nParams; a++ {
			grad[a] = grad[a]/n + l2*w[a]
			for b := 0; b < nParams; b++ {
				hess[a][b] /= n
			}
			hess[a][a] += l2 + 1e-9
		}
		step, err := solve(hess, grad)
		if err != nil {
			return FitResult{}, err
		}
		size := 0.0
		for a := range w {
			w[a] -= step[a]
			size += step[a] * step[a]
		}
		res.Iterations = it
		if size < 1e-14 {
			break
		}
	}
	res.Raw = w
	for i, x := range xs {
		res.LogLoss += logLoss(sigmoid(dot(w, x)), samples[i].Result)
		res.Baseline += logLoss(mean, samples[i].Result)
	}
	res.LogLoss /= float64(len(xs))
	res.Baseline /= float64(len(xs))
	if w[eval.FreeMen] <= 0 {
		return res, fmt.Errorf("tune: free men fitted with weight %.4f: the data cannot be right", w[eval.FreeMen])
	}
	scale := 100 / w[eval.FreeMen]
	for i := 0; i < eval.NumFeatures; i++ {
		res.Weights.W[i] = int32(math.Round(w[i] * scale))
	}
	res.Weights.Tempo = int32(math.Round(w[eval.NumFeatures] * scale))
	return res, nil
}

func dot(w, x [nParams]float64) float64 {
	s := 0.0
	for i := range w {
		s += w[i] * x[i]
	}
	return s
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

func logLoss(p, y float64) float64 {
	p = math.Min(math.Max(p, 1e-12), 1-1e-12)
	return -(y*math.Log(p) + (1-y)*math.Log(1-p))
}

// solve returns x with a x = b by Gaussian elimination with partial
// pivoting.
func solve(a [nParams][nParams]float64, b [nParams]float64) ([nParams]float64, error) {
	const n = nParams
	for col := 0; col < n; col++ {
		piv := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[piv][col]) {
				piv = r
			}
		}
		if math.Abs(a[piv][col]) < 1e-15 {
			return b, errors.New("tune: singular system: a feature never varies in the data")
		}
		a[col], a[piv] = a[piv], a[col]
		b[col], b[piv] = b[piv], b[col]
		for r := col + 1; r < n; r++ {
			f := a[r][col] / a[col][col]
			for c := col; c < n; c++ {
				a[r][c] -= f * a[col][c]
			}
			b[r] -= f * b[col]
		}
	}
	var x [nParams]float64
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for c := r + 1; c < n; c++ {
			s -= a[r][c] * x[c]
		}
		x[r] = s / a[r][r]
	}
	return x, nil
}
