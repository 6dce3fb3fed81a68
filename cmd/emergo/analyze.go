package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"emergo/analysis"
	"emergo/player"
	"emergo/record"
	"emergo/rules"
)

func init() {
	register("analyze", "annotate the games of a record with the engine's evaluations and mistakes", runAnalyze)
}

// maxSearchDepth bounds the depth of analyze and bench. Each further ply
// about doubles the time of a search, and depth 20 already takes minutes
// a position on 9x9 (analyze searches two a move).
const maxSearchDepth = 20

// tooDeep is the error of a depth beyond maxSearchDepth.
func tooDeep(what string, depth int) error {
	return usageError{fmt.Sprintf("%s %d: at most %d, as each further ply about doubles the time and depth %d "+
		"already takes minutes a position", what, depth, maxSearchDepth, maxSearchDepth)}
}

func runAnalyze(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("analyze", "RECORD",
		"Searches the position before and after every move of every game in RECORD\n"+
			"(PGN-style or Abstract Play JSON, told apart by the content), marks the moves\n"+
			"that lose THRESHOLD hundredths of a man or more with ? and three times that\n"+
			"with ??, and writes the record with a comment after every move, such as\n"+
			"{? eval -0.85, best c3xe5 +0.35; mistake: -1.20}: evaluations in men from\n"+
			"White's point of view, the loss from the mover's. The annotated record goes\n"+
			"to -out or standard output; a summary per game to standard output with -out,\n"+
			"else to standard error. -out and -svg are checked before the first search.\n"+
			"Ctrl-C stops the analysis and writes every game, annotated as far as it got.\n\n"+
			progressHelp+" The status line shows the game, the move\n"+
			"and the depth reached.", stderr)
	depth := fs.Int("depth", analysis.DefaultDepth, fmt.Sprintf("search depth per position, 1 to %d (the same result on every machine)", maxSearchDepth))
	moveTime := fs.Duration("movetime", 0, "search time per position instead of a depth, such as 500ms")
	out := fs.String("out", "", "write the annotated record to this file")
	svg := fs.String("svg", "", "draw the evaluation over each game as an SVG chart in this file (NAME-2.svg... for further games)")
	threshold := fs.Int("threshold", analysis.DefaultThreshold, "loss of a mistake, in hundredths of a man")
	verbose := fs.Bool("v", false, "a progress line per move, also when standard error is not a terminal")
	quiet := fs.Bool("quiet", false, "no progress")
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
	if *depth > maxSearchDepth {
		return tooDeep("-depth", *depth)
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
	for _, name := range []string{*out, svgName(*svg, 1, len(recs))} {
		if name != "" {
			if err := checkWritable(name); err != nil {
				return err
			}
		}
	}
	summary := stderr
	if *out != "" {
		summary = stdout
	}
	prog := newProgress(stderr, *verbose, *quiet)
	opts.Engine = player.NewSearcher(player.SearchOptions{Threads: 1})
	ctx, stop := interruptible()
	defer stop()
	var stopped error
	interrupted := false
	for i := range recs {
		rec := &recs[i]
		gm, err := rec.Game()
		if err != nil {
			stopped = err
			break
		}
		name := gameName(i+1, rec)
		move, total := 1, gm.Len()
		opts.Progress = func(done, total int) {
			move = done + 1
			prog.status("%s: move %d of %d", name, done, total)
		}
		opts.Info = func(in player.Info) {
			prog.update("%s: move %d of %d, depth %d", name, move, total, in.Depth)
		}
		notes, err := analysis.Analyze(ctx, gm, opts)
		tag := "emergo analyze, " + limit
		if err != nil {
			stopped = fmt.Errorf("%s: %w", name, err)
			if interrupted = errors.Is(err, context.Canceled); interrupted {
				stopped = fmt.Errorf("analyze interrupted at move %d of %s", len(notes)+1, name)
			}
			if len(notes) == 0 {
				break
			}
			tag += fmt.Sprintf(", moves 1 to %d of %d", len(notes), total)
		}
		if err := analysis.Annotate(rec, notes); err != nil {
			return err
		}
		if err := rec.SetTag("Annotator", tag); err != nil {
			return err
		}
		if stopped != nil {
			break
		}
		prog.clear()
		writeSummary(summary, name, rec, analysis.Summarize(notes))
		if *svg != "" {
			title := fmt.Sprintf("%s - %s, %s", rec.Tag("White"), rec.Tag("Black"), rec.Result)
			if err := writeFileAtomic(svgName(*svg, i+1, len(recs)), analysis.SVG(title, gm.Geometry(), notes)); err != nil {
				stopped = err
				break
			}
		}
	}
	prog.done()

	// Every game is written, the ones not analysed as they were.
	var buf bytes.Buffer
	if err := record.WritePGN(&buf, recs...); err != nil {
		return err
	}
	if *out != "" {
		err = writeFileAtomic(*out, buf.Bytes())
	} else {
		_, err = stdout.Write(buf.Bytes())
	}
	if err != nil {
		return err
	}
	if interrupted {
		where := "standard output"
		if *out != "" {
			where = *out
		}
		return fmt.Errorf("%w; %s holds every game, annotated as far as the analysis got", stopped, where)
	}
	return stopped
}

// gameName names a game in messages: its number and its players.
func gameName(n int, rec *record.Record) string {
	return fmt.Sprintf("game %d (%s-%s)", n, rec.Tag("White"), rec.Tag("Black"))
}

// writeSummary prints one game's result and each side's marked moves.
func writeSummary(w io.Writer, name string, rec *record.Record, s analysis.Summary) {
	fmt.Fprintf(w, "%s: %s, %s\n", name, plural(len(rec.Moves), "move"), rec.Result)
	for c := rules.White; c <= rules.Black; c++ {
		fmt.Fprintf(w, "  %-5s %s, %s, average loss %.2f\n", c,
			plural(s.Mistakes[c], "mistake"), plural(s.Blunders[c], "blunder"), s.AvgLoss[c]/100)
	}
}

// svgName is the chart file of game n of total: name itself for a single
// game, else name with -n before its extension from the second game on.
func svgName(name string, n, total int) string {
	if name == "" || total == 1 || n == 1 {
		return name
	}
	ext := filepath.Ext(name)
	return fmt.Sprintf("%s-%d%s", strings.TrimSuffix(name, ext), n, ext)
}
