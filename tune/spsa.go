package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"emergo/eval"
	"emergo/player"
	"emergo/rules"
)

// Tuning by play. The fits of fit.go predict the results of games, and
// the weights that predict best have not played best (docs/evidence.md):
// SPSA (Spall, "Multivariate stochastic approximation using a simultaneous
// perturbation gradient approximation", 1992), as engines tune by
// self-play, asks the games themselves. Each game pair (one opening, the
// colours swapped) sets the weights moved a step up against the weights
// moved the same step down, every weight in a direction drawn at random,
// and moves every weight by its step times its direction times the pair's
// result: a weight whose step up won more games drifts up, one that did
// not matter wanders and comes back.

// NumParams is the number of tuned parameters: the features' weights,
// then the tempo.
const NumParams = eval.NumFeatures + 1

// DefaultSteps are the perturbations of the weights, in hundredths of a
// man: a step that changes play now and then without ruining it. The
// weight of the free men stays, as the scale of every other.
var DefaultSteps = [NumParams]float64{
	eval.Hostages: 6, eval.ExposedCols: 8, eval.ExposedMen: 6,
	eval.Columns: 6, eval.Mobility: 2, eval.Edge: 5, eval.Tall: 5,
	eval.Hand: 8, eval.Forks: 8, eval.Entries: 3, eval.NumFeatures: 5,
}

// SPSAConfig says what to tune and with which games.
type SPSAConfig struct {
	// Start is the weights the tuning starts from (Small is ignored: the
	// weights of one board are tuned at a time, on Openings of that board).
	Start eval.Weights
	// Steps are the perturbations of the weights, the tempo last; a
	// weight whose step is 0 is not tuned.
	Steps [NumParams]float64
	// Rate moves a weight by Rate × its step × its direction (±1) × the
	// pair's result (-1 to 1, the points of the weights stepped up less
	// one) per pair.
	Rate float64
	// Openings are the positions the pairs start from, pair k from
	// Openings[k mod len], each player with men in hand and no history
	// to repeat (an opening of entries).
	Openings []rules.Position
	Pairs    int
	Nodes    uint64 // searched per move, by both players
	// Batch is the number of pairs played with the same weights, the
	// moves of the pairs then made in pair order, so that the result does
	// not depend on Workers; default 16.
	Batch    int
	Workers  int // default GOMAXPROCS
	Seed     uint64
	MaxPlies int // a longer game is a draw, default 300
}

// SPSAProgress is reported after every batch.
type SPSAProgress struct {
	Pairs   int          // pairs played
	Weights eval.Weights // the weights now
	// Score is the mean points of the weights stepped up per game, over
	// the pairs so far: near one half, whatever the weights.
	Score float64
}

// SPSA tunes cfg.Start by game pairs and returns the weights after the
// last pair, rounded. The run is a function of cfg, Workers aside.
func SPSA(ctx context.Context, cfg SPSAConfig, progress func(SPSAProgress)) (eval.Weights, error) {
	switch {
	case len(cfg.Openings) == 0:
		return eval.Weights{}, errors.New("tune: SPSA needs openings")
	case cfg.Pairs < 1 || cfg.Nodes < 1:
		return eval.Weights{}, errors.New("tune: SPSA needs pairs and nodes")
	}
	if cfg.Batch <= 0 {
		cfg.Batch = 16
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.MaxPlies <= 0 {
		cfg.MaxPlies = 300
	}
	theta := paramsOf(&cfg.Start)
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5e5a))
	type job struct {
		k           int // pair number
		plus, minus *eval.Weights
		result      *float64
		err         *error
		done        *sync.WaitGroup
	}
	jobs := make(chan job)
	var workers sync.WaitGroup
	for range cfg.Workers {
		workers.Add(1)
		go func() {
			defer workers.Done()
			sides := [2]*player.Searcher{
				player.NewSearcher(player.SearchOptions{}),
				player.NewSearcher(player.SearchOptions{}),
			}
			for j := range jobs {
				op := cfg.Openings[j.k%len(cfg.Openings)]
				a, errA := playSPSAGame(ctx, sides, op, j.plus, j.minus, rules.White, &cfg)
				b, errB := playSPSAGame(ctx, sides, op, j.plus, j.minus, rules.Black, &cfg)
				*j.result, *j.err = a+b-1, errors.Join(errA, errB)
				j.done.Done()
			}
		}()
	}
	defer func() {
		close(jobs)
		workers.Wait()
	}()
	var points float64
	dirs := make([][NumParams]float64, cfg.Batch)
	results := make([]float64, cfg.Batch)
	errs := make([]error, cfg.Batch)
	for start := 0; start < cfg.Pairs; start += cfg.Batch {
		n := min(cfg.Batch, cfg.Pairs-start)
		var batch sync.WaitGroup
		for i := range n {
			plus, minus := theta, theta
			for p := range theta {
				dirs[i][p] = float64(2*rng.IntN(2) - 1)
				plus[p] += cfg.Steps[p] * dirs[i][p]
				minus[p] -= cfg.Steps[p] * dirs[i][p]
			}
			batch.Add(1)
			jobs <- job{k: start + i, plus: weightsOf(plus), minus: weightsOf(minus), result: &results[i], err: &errs[i], done: &batch}
		}
		batch.Wait()
		if err := errors.Join(errs[:n]...); err != nil {
			return eval.Weights{}, err
		}
		for i := range n {
			points += (results[i] + 1) / 2
			for p := range theta {
				theta[p] += cfg.Rate * cfg.Steps[p] * dirs[i][p] * results[i]
			}
		}
		if progress != nil {
			done := start + n
			progress(SPSAProgress{Pairs: done, Weights: *weightsOf(theta), Score: points / float64(done)})
		}
	}
	return *weightsOf(theta), nil
}

// paramsOf returns the parameters of w: its weights, then its tempo.
func paramsOf(w *eval.Weights) (theta [NumParams]float64) {
	for i, x := range w.W {
		theta[i] = float64(x)
	}
	theta[eval.NumFeatures] = float64(w.Tempo)
	return theta
}

// weightsOf returns the weights of parameters theta, rounded.
func weightsOf(theta [NumParams]float64) *eval.Weights {
	w := &eval.Weights{}
	for i := range w.W {
		w.W[i] = int32(math.Round(theta[i]))
	}
	w.Tempo = int32(math.Round(theta[eval.NumFeatures]))
	return w
}

// playSPSAGame plays one game of a pair from start, the weights plus
// having colour plusSide, and returns plus's points (1, 1/2 or 0). Each
// side searches with its own table, cleared before the game.
func playSPSAGame(ctx context.Context, sides [2]*player.Searcher, start rules.Position, plus, minus *eval.Weights, plusSide rules.Color, cfg *SPSAConfig) (float64, error) {
	w := [2]*eval.Weights{minus, minus}
	w[plusSide] = plus
	for _, s := range sides {
		s.NewGame()
	}
	g := rules.NewGameFrom(start)
	for g.Len() < cfg.MaxPlies && !g.Outcome().Over() {
		pos := g.Position()
		side := pos.Side()
		res := sides[side].Search(ctx, g, player.Limits{Nodes: cfg.Nodes, Eval: w[side]}, nil)
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if err := g.Play(res.Move); err != nil {
			return 0, fmt.Errorf("tune: the engine's move %v: %w", res.Move, err)
		}
	}
	white := whitePoints(g.Outcome().Result)
	if plusSide == rules.Black {
		return 1 - white, nil
	}
	return white, nil
}
