package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"emergo/match"
	"emergo/player"
	"emergo/rules"
	"emergo/tune"
)

func init() {
	register("tune", "fit the evaluation weights to self-play games", runTune)
}

const tuneUsage = "Usage: emergo tune gen [flags]        play self-play games and store their quiet positions\n" +
	"       emergo tune fit [flags] FILE   fit the weights to stored positions\n" +
	"       emergo tune spsa [flags]       tune the weights of one board by game pairs (SPSA)\n" +
	"       emergo tune patterns [flags] FILE...  fit a trained evaluation (pattern tables) to stored positions\n\n" +
	"Run 'emergo tune gen -h', 'emergo tune fit -h', 'emergo tune spsa -h' or 'emergo tune patterns -h' for the flags.\n"

func runTune(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	return runSubcommand("tune", tuneUsage, []subcommand{{"gen", runTuneGen}, {"fit", runTuneFit}, {"spsa", runTuneSPSA}, {"patterns", runTunePatterns}}, args, stdout, stderr)
}

// maxGenDepth bounds tune gen -depth: every move of a thousand games is
// searched, and at depth 10 the default run already takes hours.
const maxGenDepth = 10

func runTuneGen(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tune gen", "",
		"Plays self-play games between noisy fixed-depth engines on both board sizes\n"+
			"(or one, -size)\n"+
			"and writes every quiet position with its game's result (gzipped text, a\n"+
			"gzip stream per game). The output is a function of the flags alone. It is\n"+
			"created before the first game and the games are added in order as they\n"+
			"finish, so an interrupted run (Ctrl-C) keeps the games it finished, and\n"+
			"-resume goes on from there with the games that run would have played.\n\n"+
			progressHelp, stderr)
	var cfg tune.GenConfig
	fs.IntVar(&cfg.Games, "games", 500, "games per board size")
	size := fs.Int("size", 0, "play on this board size only: 9 or 7 (0: both)")
	fs.IntVar(&cfg.Depth, "depth", 4, fmt.Sprintf("search depth of both engines, 1 to %d", maxGenDepth))
	fs.IntVar(&cfg.Margin, "margin", 35, "noise: the engines choose among the moves within this many hundredths of a man of the best")
	fs.IntVar(&cfg.Level, "level", 4, "the level number that names the engines and seeds their noise")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random seed of the games")
	fs.IntVar(&cfg.MaxPlies, "maxplies", 300, "a game longer than this counts as a draw")
	fs.IntVar(&cfg.Workers, "workers", 0, "games played at once (default: one per core)")
	out := fs.String("out", "selfplay.txt.gz", "output `file`, replaced")
	resume := fs.Bool("resume", false, "go on with the games of -out, written by an interrupted run with the same flags, instead of replacing it")
	weights := fs.String("weights", "default", "weights the engines play with: "+tune.WeightNames+" (see docs/tuning.md)")
	fs.BoolVar(&cfg.Scores, "scores", false, "keep with each position the score its side's search gave it, for tune patterns -score-weight")
	verbose := fs.Bool("v", false, "a progress line per game, also when standard error is not a terminal")
	quiet := fs.Bool("quiet", false, "no progress")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	w, ok := tune.WeightsNamed(*weights)
	if !ok {
		return usageError{fmt.Sprintf("-weights %q: want %s", *weights, tune.WeightNames)}
	}
	cfg.Weights = w
	sizes := 2
	switch *size {
	case 0:
	case 7, 9:
		sizes = 1
		cfg.Sizes = []int{*size}
	default:
		return usageError{fmt.Sprintf("-size %d: want 9, 7 or 0 (both)", *size)}
	}
	switch {
	case cfg.Games < 1:
		return usageError{fmt.Sprintf("-games %d: at least one game", cfg.Games)}
	case cfg.Depth < 1 || cfg.Depth > maxGenDepth:
		return usageError{fmt.Sprintf("-depth %d: want 1 to %d; every move of every game is searched, and at depth %d "+
			"the default run already takes hours", cfg.Depth, maxGenDepth, maxGenDepth)}
	case cfg.Level < 1 || cfg.Level > player.MaxLevel:
		return usageError{fmt.Sprintf("-level %d: want 1 to %d", cfg.Level, player.MaxLevel)}
	case cfg.Margin < 0 || cfg.MaxPlies < 1 || cfg.Workers < 0:
		return usageError{"-margin and -workers must not be negative, and -maxplies must be positive"}
	}
	f, skip, err := openGenOutput(*out, *resume)
	if err != nil {
		return err
	}
	defer f.Close()
	cfg.Skip = skip
	positions, games := 0, 0
	cfg.Game = func(samples []tune.Sample) error {
		positions += len(samples)
		games++
		if err := tune.Write(f, samples); err != nil {
			return fmt.Errorf("writing %s: %w", *out, err)
		}
		return nil
	}
	prog := newProgress(stderr, *verbose, *quiet)
	ctx, stop := interruptible()
	defer stop()
	_, err = tune.Generate(ctx, cfg, func(done, total int) { prog.status("games %d/%d", done, total) })
	prog.done()
	if cerr := f.Close(); err == nil && cerr != nil {
		err = cerr
	}
	fmt.Fprintf(stdout, "%s from %s written to %s\n", plural(positions, "position"), plural(games, "game"), *out)
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("tune gen interrupted after %d of %s; -resume goes on", skip+games, plural(cfg.Games*sizes, "game"))
	}
	return err
}

// openGenOutput opens tune gen's output: created afresh, or with resume
// the games an earlier run finished kept (the unfinished one cut off) and
// the file opened to add the next ones; skip is how many it holds.
func openGenOutput(name string, resume bool) (f *os.File, skip int, err error) {
	if !resume {
		f, err = os.Create(name)
		return f, 0, err
	}
	f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, 0, err
	}
	games, size, err := tune.Complete(f)
	if err == nil {
		var st os.FileInfo
		if st, err = f.Stat(); err == nil && games == 0 && st.Size() > 0 {
			err = fmt.Errorf("%s holds no whole game of tune gen; leave out -resume to replace it", name)
		}
	}
	if err == nil {
		err = f.Truncate(size)
	}
	if err == nil {
		_, err = f.Seek(size, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, games, nil
}

func runTuneFit(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tune fit", "FILE",
		"Fits the evaluation weights to the positions of FILE (written by tune gen)\n"+
			"by logistic regression and prints them as Go for package eval: eval.Default\n"+
			"from the 9x9 positions (-size 9), eval.Fitted7 from the 7x7 ones (-size 7),\n"+
			"eval.Shared from both.", stderr)
	l2 := fs.Float64("l2", 1e-4, "L2 regularisation strength")
	size := fs.Int("size", 0, "fit the positions of this board size only: 9 or 7 (0: both)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{"tune fit needs one FILE"}
	}
	// The variable of package eval the weights are printed as.
	name, ok := map[int]string{0: "Shared", 9: "Default", 7: "Fitted7"}[*size]
	if !ok {
		return usageError{fmt.Sprintf("-size %d: want 9, 7 or 0 (both)", *size)}
	}
	samples, err := tune.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	if *size != 0 {
		samples = tune.OfSize(samples, *size)
		if len(samples) == 0 {
			return fmt.Errorf("%s has no %dx%d positions", fs.Arg(0), *size, *size)
		}
	}
	res, err := tune.Fit(samples, *l2)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s, %s, log loss %.5f (always the mean: %.5f)\n",
		plural(len(samples), "position"), plural(res.Iterations, "iteration"), res.LogLoss, res.Baseline)
	if err := res.WriteWeights(stdout, name); err != nil {
		return err
	}
	return nil
}

func runTuneSPSA(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tune spsa", "",
		"Tunes the evaluation weights of one board by play (SPSA): each game pair, from\n"+
			"a balanced random opening with the colours swapped, sets the weights moved a\n"+
			"step up against the same weights moved down, every weight in a random\n"+
			"direction, and moves each weight by -rate times its step and direction times\n"+
			"the pair's result. Both players search -nodes a move. Prints the weights as Go\n"+
			"for package eval at the end, and at every batch with -v. The run is a\n"+
			"function of the flags, -workers aside.\n\n"+progressHelp, stderr)
	size := fs.Int("size", 7, "board: 9 or 7")
	pairs := fs.Int("pairs", 2000, "game pairs")
	nodes := fs.Uint64("nodes", 50000, "nodes searched a move")
	seed := fs.Uint64("seed", 1, "random seed of the openings and the directions")
	rate := fs.Float64("rate", 0.03, "a pair moves a weight by rate × its step × its direction × the result (-1 to 1)")
	batch := fs.Int("batch", 16, "pairs played with the same weights")
	workers := fs.Int("workers", 0, "pairs played at once (default: one per core)")
	start := fs.String("start", "default", "weights to start from: "+tune.WeightNames+" (the board's own set)")
	verbose := fs.Bool("v", false, "the weights after every batch")
	quiet := fs.Bool("quiet", false, "no progress")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	geo := rules.GeometryOf(*size)
	w, ok := tune.WeightsNamed(*start)
	switch {
	case geo == nil:
		return usageError{fmt.Sprintf("-size %d: want 9 or 7", *size)}
	case !ok:
		return usageError{fmt.Sprintf("-start %q: want %s", *start, tune.WeightNames)}
	case *pairs < 1 || *nodes < 1 || *batch < 1 || *workers < 0 || *rate <= 0:
		return usageError{"-pairs, -nodes, -batch and -rate must be positive, -workers not negative"}
	}
	p0 := rules.NewPosition(geo)
	ops, err := match.GenerateOpenings(geo, *pairs, *seed, match.OpeningOptions{})
	if err != nil {
		return err
	}
	scfg := tune.SPSAConfig{
		Start: *w.For(&p0), Steps: tune.DefaultSteps, Rate: *rate, Pairs: *pairs, Nodes: *nodes,
		Batch: *batch, Workers: *workers, Seed: *seed,
	}
	for _, op := range ops {
		g, err := op.Game()
		if err != nil {
			return err
		}
		scfg.Openings = append(scfg.Openings, g.Position())
	}
	name := map[int]string{9: "Default", 7: "Default7"}[*size]
	prog := newProgress(stderr, *verbose, *quiet)
	ctx, stop := interruptible()
	defer stop()
	res, err := tune.SPSA(ctx, scfg, func(p tune.SPSAProgress) {
		prog.status("pairs %d/%d, the weights stepped up score %.3f", p.Pairs, *pairs, p.Score)
		if *verbose {
			prog.status("%s", strings.TrimSpace(tune.GoSource(&p.Weights, name)))
		}
	})
	prog.done()
	if errors.Is(err, context.Canceled) {
		return errors.New("tune spsa interrupted")
	}
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, tune.GoSource(&res, name))
	return err
}

func runTunePatterns(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tune patterns", "FILE...",
		"Fits a trained evaluation of one board to the positions of the FILEs (written\n"+
			"by tune gen): the pattern tables of eval.Patterns, a weight for every state of\n"+
			"every line of three squares, together with the handcrafted weights, by\n"+
			"logistic regression of the games' results on the score (docs/tuning.md).\n"+
			"The last -holdout of the positions are kept out of the fit to measure it.\n"+
			"Writes the tables to -out and prints the handcrafted weights as Go for\n"+
			"package eval (with -hold, they are -start's). The result is a function of\n"+
			"the files and the flags.\n\n"+
			progressHelp, stderr)
	size := fs.Int("size", 7, "board: 9 or 7")
	out := fs.String("out", "", "the tables' `file` (eval/patterns7.bin for the engine's 7x7 evaluation)")
	start := fs.String("start", "handcrafted", "handcrafted weights to start from (their tables left out): "+tune.WeightNames+" (the board's own set)")
	var cfg tune.PatternConfig
	fs.BoolVar(&cfg.Hold, "hold", false, "keep the handcrafted weights of -start and fit the tables alone")
	fs.IntVar(&cfg.Epochs, "epochs", 8, "passes over the positions")
	fs.Float64Var(&cfg.Rate, "rate", 1, "the first epoch's step, in hundredths of a man, halved after each")
	fs.Float64Var(&cfg.L2, "l2", 0.001, "how strongly the tables' weights are pulled towards 0")
	fs.Float64Var(&cfg.Holdout, "holdout", 0.05, "the share of the positions, the last ones, kept to measure the fit")
	fs.Float64Var(&cfg.ScoreWeight, "score-weight", 0, "the share of the search's score in the target of the positions that have one (tune gen -scores), the game's result the rest")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random seed of the order of the positions")
	verbose := fs.Bool("v", false, "a progress line per epoch, also when standard error is not a terminal")
	quiet := fs.Bool("quiet", false, "no progress")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	geo := rules.GeometryOf(*size)
	w, ok := tune.WeightsNamed(*start)
	switch {
	case fs.NArg() == 0:
		return usageError{"tune patterns needs at least one FILE"}
	case geo == nil:
		return usageError{fmt.Sprintf("-size %d: want 9 or 7", *size)}
	case !ok:
		return usageError{fmt.Sprintf("-start %q: want %s", *start, tune.WeightNames)}
	case *out == "":
		return usageError{"-out: where to write the tables"}
	case cfg.Epochs < 1 || cfg.Rate <= 0 || cfg.L2 < 0 || cfg.Holdout <= 0 || cfg.Holdout >= 1:
		return usageError{"-epochs and -rate must be positive, -l2 not negative, -holdout between 0 and 1"}
	case cfg.ScoreWeight < 0 || cfg.ScoreWeight > 1:
		return usageError{fmt.Sprintf("-score-weight %g: want 0 to 1", cfg.ScoreWeight)}
	}
	p0 := rules.NewPosition(geo)
	cfg.Start = w.For(&p0)
	var samples []tune.Sample
	for _, name := range fs.Args() {
		s, err := tune.ReadFile(name)
		if err != nil {
			return err
		}
		samples = append(samples, tune.OfSize(s, *size)...)
	}
	prog := newProgress(stderr, *verbose, *quiet)
	prog.status("%s of %dx%d read", plural(len(samples), "position"), *size, *size)
	cfg.Progress = func(epoch int, train, valid float64) {
		prog.status("epoch %d/%d: log loss %.5f, held out %.5f", epoch, cfg.Epochs, train, valid)
	}
	res, err := tune.FitPatterns(samples, *size, cfg)
	prog.done()
	if err != nil {
		return err
	}
	data, err := res.Weights.Patterns.MarshalBinary()
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s fitted, %s held out; scale %.1f\n", plural(res.TrainSamples, "position"), plural(res.Held, "position"), res.Scale)
	fmt.Fprintf(stdout, "log loss: start %.5f, held out %.5f; trained %.5f, held out %.5f\n", res.StartTrain, res.StartValid, res.Train, res.Valid)
	fmt.Fprintf(stdout, "tables (%d weights) written to %s\n", res.Weights.Patterns.Size(), *out)
	if cfg.Hold {
		fmt.Fprintln(stdout, "handcrafted weights held as -start gave them")
	} else {
		// The weights fitted with the tables, for eval/trained.go.
		fmt.Fprint(stdout, tune.GoSource(&res.Weights, fmt.Sprintf("Trained%d", *size)))
	}
	return nil
}
