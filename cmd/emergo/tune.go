package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"emergo/eval"
	"emergo/tune"
)

func init() {
	register("tune", "fit the evaluation weights to self-play games", runTune)
}

func runTune(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "gen" && args[0] != "fit") {
		fmt.Fprintln(stderr, "Usage: emergo tune gen [flags]   play self-play games and store their quiet positions\n       emergo tune fit [flags] FILE   fit the weights to stored positions")
		return usageError{"tune needs gen or fit"}
	}
	if args[0] == "gen" {
		return runTuneGen(args[1:], stdout, stderr)
	}
	return runTuneFit(args[1:], stdout, stderr)
}

func runTuneGen(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tune gen", "",
		"Plays self-play games between noisy fixed-depth engines on both board sizes\n"+
			"and writes every quiet position with its game's result (gzipped text).\n"+
			"The output is a function of the flags alone.", stderr)
	var cfg tune.GenConfig
	fs.IntVar(&cfg.Games, "games", 500, "games per board size")
	fs.IntVar(&cfg.Depth, "depth", 4, "search depth of both engines")
	fs.IntVar(&cfg.Margin, "margin", 35, "noise: the engines choose among the moves within this many hundredths of a man of the best")
	fs.IntVar(&cfg.Level, "level", 4, "the level number that names the engines and seeds their noise")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random seed of the games")
	fs.IntVar(&cfg.MaxPlies, "maxplies", 300, "a game longer than this counts as a draw")
	fs.IntVar(&cfg.Workers, "workers", 0, "games played at once (default: one per core)")
	out := fs.String("out", "tune/testdata/selfplay.txt.gz", "output file")
	weights := fs.String("weights", "default", "weights the engines play with: default, round1 or initial (see docs/tuning.md)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch *weights {
	case "default":
		cfg.Weights = &eval.Default
	case "round1":
		cfg.Weights = &eval.Round1
	case "initial":
		cfg.Weights = &eval.Initial
	default:
		return usageError{fmt.Sprintf("-weights %q: want default, round1 or initial", *weights)}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	samples, err := tune.Generate(ctx, cfg, func(done, total int) {
		if done%20 == 0 || done == total {
			fmt.Fprintf(stderr, "\rgames %d/%d", done, total)
		}
	})
	fmt.Fprintln(stderr)
	if err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := tune.Write(f, samples); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d positions from %d games written to %s\n", len(samples), cfg.Games*2, *out)
	return nil
}

func runTuneFit(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tune fit", "FILE",
		"Fits the evaluation weights to the positions of FILE (written by tune gen)\n"+
			"by logistic regression and prints them as Go for eval.Default.", stderr)
	l2 := fs.Float64("l2", 1e-4, "L2 regularisation strength")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{"tune fit needs one FILE"}
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	samples, err := tune.Read(f)
	f.Close()
	if err != nil {
		return err
	}
	res, err := tune.Fit(samples, *l2)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d positions, %d iterations, log loss %.5f (always the mean: %.5f)\n",
		len(samples), res.Iterations, res.LogLoss, res.Baseline)
	for i, name := range eval.FeatureNames {
		fmt.Fprintf(stdout, "  %-16s %6d   (%.5f per unit)\n", name, res.Weights.W[i], res.Raw[i])
	}
	fmt.Fprintf(stdout, "  %-16s %6d\n\n", "tempo", res.Weights.Tempo)
	ws := make([]string, len(res.Weights.W))
	for i, w := range res.Weights.W {
		ws[i] = fmt.Sprint(w)
	}
	fmt.Fprintf(stdout, "var Default = Weights{\n\tW:     [NumFeatures]int32{%s},\n\tTempo: %d,\n}\n",
		strings.Join(ws, ", "), res.Weights.Tempo)
	return nil
}
