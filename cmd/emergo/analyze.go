package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"emergo/analysis"
	"emergo/eval"
	"emergo/record"
	"emergo/rules"
	"emergo/search"
)

func init() {
	register("analyze", "annotate the games of a record with the engine's evaluations and mistakes", runAnalyze)
}

func runAnalyze(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("analyze", "RECORD",
		"Searches the position before and after every move of every game in RECORD\n"+
			"(PGN-style, or Abstract Play JSON if the name ends in .json), marks the moves\n"+
			"that lose THRESHOLD hundredths of a man or more with ? and three times that\n"+
			"with ??, and writes the record with a comment after every move, such as\n"+
			"{? eval -0.85, best c3xe5 +0.35; mistake: -1.20}: evaluations in men from\n"+
			"White's point of view, the loss from the mover's. The annotated record goes\n"+
			"to -out or standard output; a summary per game to standard output with -out,\n"+
			"else to standard error.", stderr)
	depth := fs.Int("depth", analysis.DefaultDepth, "search depth per position (the same result on every machine)")
	moveTime := fs.Duration("movetime", 0, "search time per position instead of a depth, such as 500ms")
	out := fs.String("out", "", "write the annotated record to this file")
	svg := fs.String("svg", "", "draw the evaluation over each game as an SVG chart in this file (NAME-2.svg... for further games)")
	threshold := fs.Int("threshold", analysis.DefaultThreshold, "loss of a mistake, in hundredths of a man")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{"analyze needs one record file"}
	}
	if wasSet(fs, "depth") && wasSet(fs, "movetime") {
		return usageError{"give -depth or -movetime, not both"}
	}
	if *moveTime < 0 || *depth < 1 || *threshold < 1 {
		return usageError{"-depth, -movetime and -threshold must be positive"}
	}
	opts := analysis.Options{Depth: *depth, Threshold: int32(*threshold)}
	limit := fmt.Sprintf("depth %d", *depth)
	if *moveTime > 0 {
		opts = analysis.Options{MoveTime: *moveTime, Threshold: int32(*threshold)}
		limit = fmt.Sprintf("%v per position", *moveTime)
	}

	recs, err := readRecordFile(fs.Arg(0))
	if err != nil {
		return err
	}
	summary := stderr
	if *out != "" {
		summary = stdout
	}
	opts.Engine = search.New(search.Options{Threads: 1, Eval: &eval.Default})
	ctx := context.Background()
	for i := range recs {
		rec := &recs[i]
		gm, err := rec.Game()
		if err != nil {
			return err
		}
		name := gameName(i+1, rec)
		opts.Progress = analyzeProgress(stderr, name)
		notes, err := analysis.Analyze(ctx, gm, opts)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := analysis.Annotate(rec, notes); err != nil {
			return err
		}
		if err := rec.SetTag("Annotator", "emergo analyze, "+limit); err != nil {
			return err
		}
		writeSummary(summary, name, rec, analysis.Summarize(notes))
		if *svg != "" {
			file := svgName(*svg, i+1, len(recs))
			title := fmt.Sprintf("%s - %s, %s", rec.Tag("White"), rec.Tag("Black"), rec.Result)
			if err := os.WriteFile(file, analysis.SVG(title, gm.Geometry(), notes), 0o644); err != nil {
				return err
			}
		}
	}

	var buf bytes.Buffer
	if err := record.WritePGN(&buf, recs...); err != nil {
		return err
	}
	if *out != "" {
		return os.WriteFile(*out, buf.Bytes(), 0o644)
	}
	_, err = stdout.Write(buf.Bytes())
	return err
}

// readRecordFile reads every game of a record file: Abstract Play JSON if its
// name ends in .json, the PGN-style text otherwise.
func readRecordFile(name string) ([]record.Record, error) {
	if strings.EqualFold(filepath.Ext(name), ".json") {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		rec, err := record.ReadAPJSON(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return []record.Record{rec}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := record.ReadPGN(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: no game in the file", name)
	}
	return recs, nil
}

// gameName names a game in messages: its number and its players.
func gameName(n int, rec *record.Record) string {
	return fmt.Sprintf("game %d (%s-%s)", n, rec.Tag("White"), rec.Tag("Black"))
}

// analyzeProgress reports "game 1 (...): move i of n" to w at most twice a second,
// and once at the end of a game that took long enough to report at all.
func analyzeProgress(w io.Writer, name string) func(done, total int) {
	start := time.Now()
	last := start
	shown := false
	return func(done, total int) {
		now := time.Now()
		if now.Sub(last) < 500*time.Millisecond && !(shown && done == total) {
			return
		}
		last, shown = now, true
		fmt.Fprintf(w, "%s: move %d of %d\n", name, done, total)
	}
}

// writeSummary prints one game's result and each side's marked moves.
func writeSummary(w io.Writer, name string, rec *record.Record, s analysis.Summary) {
	fmt.Fprintf(w, "%s: %d moves, %s\n", name, len(rec.Moves), rec.Result)
	for c := rules.White; c <= rules.Black; c++ {
		fmt.Fprintf(w, "  %-5s %s, %s, average loss %.2f\n", c,
			countWord(s.Mistakes[c], "mistake"), countWord(s.Blunders[c], "blunder"), s.AvgLoss[c]/100)
	}
}

func countWord(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// svgName is the chart file of game n of total: name itself for a single
// game, else name with -n before its extension from the second game on.
func svgName(name string, n, total int) string {
	if total == 1 || n == 1 {
		return name
	}
	ext := filepath.Ext(name)
	return fmt.Sprintf("%s-%d%s", strings.TrimSuffix(name, ext), n, ext)
}
