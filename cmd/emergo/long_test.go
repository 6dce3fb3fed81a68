package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"emergo/eval"
	"emergo/puzzle"
	"emergo/tune"
)

func TestProgress(t *testing.T) {
	// A clock that stands still: after the first status line, the next
	// ones wait for done.
	stopped := func() time.Time { return time.Unix(1e9, 0) }
	steps := func(p *progress) {
		p.status("game %d", 1)
		p.update("depth %d", 5)
		p.note("row %d done", 1)
		p.status("game %d", 2)
		p.done()
	}
	for _, c := range []struct {
		name string
		p    *progress
		want string
	}{
		{"not a terminal", newProgress(nil, false, false), ""},
		{"quiet", newProgress(nil, true, true), ""},
		{"verbose", newProgress(nil, true, false), "game 1\nrow 1 done\ngame 2\n"},
		// On a terminal the status line is rewritten; a note replaces it
		// with a line of its own; done leaves the last status.
		{"terminal", &progress{tty: true, now: stopped}, "\rgame 1\x1b[K\r\x1b[Krow 1 done\n\rgame 2\x1b[K\n"},
		{"narrow terminal", &progress{tty: true, width: 5, now: stopped}, "\rgam…\x1b[K\r\x1b[Krow 1 done\n\rgam…\x1b[K\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if c.p.w == nil {
				c.p.w = &buf
			}
			steps(c.p)
			if got := buf.String(); got != c.want {
				t.Errorf("wrote %q, want %q", got, c.want)
			}
		})
	}
}

// cancelOn is the standard error of a command: it cancels the command's
// context once the text written to it holds mark.
type cancelOn struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	mark   string
	cancel context.CancelFunc
}

func (w *cancelOn) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.mark) {
		w.cancel()
	}
	return len(p), nil
}

// interruptOn runs the command args as if Ctrl-C came when its standard
// error shows mark (its progress, with -v).
func interruptOn(t *testing.T, mark string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	saved := interruptible
	interruptible = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	defer func() { interruptible = saved }()
	var out bytes.Buffer
	w := &cancelOn{mark: mark, cancel: cancel}
	err = run(args, strings.NewReader(""), &out, w)
	return out.String(), w.buf.String(), err
}

// A long command fails at once on an output it cannot write, before its
// first game or search (with -v each would be a line on standard error).
func TestLongCommandsCheckTheirOutputFirst(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "such")
	game := filepath.Join(dir, "game.pgn")
	writeBlunderRecord(t, game)
	for _, c := range []struct {
		name string
		args []string
		file string
	}{
		{"strength", []string{"strength", "-rows", "random vs greedy", "-games", "2", "-size", "7", "-v", "-out", missing + "/s.md"}, missing + "/s.md"},
		{"strength to a directory", []string{"strength", "-rows", "random vs greedy", "-games", "2", "-size", "7", "-v", "-out", dir}, dir},
		{"tune gen", []string{"tune", "gen", "-games", "1", "-depth", "1", "-v", "-out", missing + "/x.gz"}, missing + "/x.gz"},
		{"puzzles gen", []string{"puzzles", "gen", "-games", "1", "-depth", "2", "-screen", "1", "-v", "-out", missing + "/p.gz"}, missing + "/p.gz"},
		{"analyze -out", []string{"analyze", "-depth", "1", "-v", "-out", missing + "/a.pgn", game}, missing + "/a.pgn"},
		{"analyze -svg", []string{"analyze", "-depth", "1", "-v", "-svg", missing + "/a.svg", game}, missing + "/a.svg"},
		{"match", []string{"match", "-p1", "random", "-p2", "greedy", "-games", "2", "-size", "7", "-v", "-out", missing + "/m.pgn"}, missing + "/m.pgn"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errs, err := emergo(t, "", c.args...)
			if err == nil || !strings.Contains(err.Error(), c.file) {
				t.Fatalf("error %v, want one naming %s", err, c.file)
			}
			if out != "" || errs != "" {
				t.Errorf("work was done before the output was checked:\n%s%s", out, errs)
			}
		})
	}
}

// An interrupted strength run keeps the rows it finished in its file.
func TestStrengthKeepsFinishedRows(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "strength.md")
	args := []string{"strength", "-rows", "random vs greedy; greedy vs random", "-games", "2", "-size", "7", "-v", "-out", page}

	stdout, stderr, err := interruptOn(t, "random vs greedy: 2/2 games", args...)
	if err == nil || err.Error() != "strength interrupted after 1 of 2 rows" {
		t.Fatalf("error %v\n%s", err, stderr)
	}
	data, rerr := os.ReadFile(page)
	if rerr != nil {
		t.Fatal(rerr)
	}
	wantInOrder(t, string(data), "| random | greedy | 2 |", "The table holds 1 of the 2 rows of the run.")
	if strings.Contains(string(data), "| greedy | random |") {
		t.Errorf("the unfinished row is in the table:\n%s", data)
	}
	if stdout != "1 row written to "+page+"\n" {
		t.Errorf("standard output %q", stdout)
	}

	// Run to its end, the page has both rows and no note.
	if _, errs, err := emergo(t, "", args...); err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	data, _ = os.ReadFile(page)
	wantInOrder(t, string(data), "| random | greedy | 2 |", "| greedy | random | 2 |")
	if strings.Contains(string(data), "The table holds") {
		t.Errorf("a finished table says it is not:\n%s", data)
	}
}

// tune gen writes every game as it finishes: an interrupted run leaves the
// games before it, which read back, and -resume goes on to the file the
// whole run writes.
func TestTuneGenKeepsFinishedGames(t *testing.T) {
	file := filepath.Join(t.TempDir(), "self.txt.gz")
	args := []string{"tune", "gen", "-games", "2", "-depth", "1", "-level", "2", "-workers", "1", "-v", "-out", file}
	stdout, stderr, err := interruptOn(t, "games 1/4", args...)
	if err == nil || err.Error() != "tune gen interrupted after 1 of 4 games; -resume goes on" {
		t.Fatalf("error %v\n%s", err, stderr)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	samples, err := tune.Read(f)
	if err != nil || len(samples) == 0 {
		t.Fatalf("the file holds %d positions: %v", len(samples), err)
	}
	if want := plural(len(samples), "position") + " from 1 game written to " + file + "\n"; stdout != want {
		t.Errorf("standard output %q, want %q", stdout, want)
	}

	// Resumed, the file is the one a run never interrupted writes.
	if _, errs, err := emergo(t, "", append(args, "-resume")...); err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	whole := filepath.Join(t.TempDir(), "whole.txt.gz")
	if _, errs, err := emergo(t, "", append(slices.Clone(args[:len(args)-1]), whole)...); err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	read := func(name string) []tune.Sample {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		s, err := tune.Read(f)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return s
	}
	if a, b := read(file), read(whole); !slices.Equal(a, b) {
		t.Errorf("resumed: %d positions, not the %d of the whole run", len(a), len(b))
	}
	// A file that is not tune gen's is not resumed.
	if err := os.WriteFile(file, []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := emergo(t, "", append(args, "-resume")...); err == nil || !strings.Contains(err.Error(), "no whole game") {
		t.Errorf("resuming a file of no game: %v", err)
	}
}

// tune spsa reports every batch and prints the tuned weights as Go.
func TestTuneSPSA(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := []string{"tune", "spsa", "-size", "7", "-pairs", "3", "-batch", "2", "-nodes", "500", "-v"}
	if err := run(args, strings.NewReader(""), &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for _, want := range []string{"pairs 2/3, the weights stepped up score ", "pairs 3/3, ", "var Default7 = Weights{"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("progress %q: no %q", stderr.String(), want)
		}
	}
	if out := stdout.String(); !strings.HasPrefix(out, "var Default7 = Weights{\n\tW:     [NumFeatures]int32{100, ") {
		t.Errorf("standard output %q: want the weights as Go", out)
	}
}

// puzzles gen writes every puzzle as it finds it: an interrupted run
// leaves those, with the command and criteria that read back.
func TestPuzzlesGenKeepsFoundPuzzles(t *testing.T) {
	file := filepath.Join(t.TempDir(), "p.txt.gz")
	args := []string{"puzzles", "gen", "-size", "7", "-games", "50", "-depth", "6", "-screen", "3", "-v", "-out", file}
	stdout, stderr, err := interruptOn(t, "puzzle 1:", args...)
	if err == nil || err.Error() != "puzzles gen interrupted after 1 puzzle" {
		t.Fatalf("error %v\n%s", err, stderr)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	set, err := puzzle.Read(f)
	if err != nil || len(set.Puzzles) != 1 {
		t.Fatalf("the file holds %v: %v", set, err)
	}
	if set.Command != "emergo puzzles gen "+strings.Join(args[2:], " ") || set.Criteria != (puzzle.Criteria{Depth: 6, Win: 200, Equal: 50}) {
		t.Errorf("command %q, criteria %v", set.Command, set.Criteria)
	}
	if !strings.HasPrefix(stdout, "1 puzzle from ") || !strings.HasSuffix(stdout, " written to "+file+"\n") {
		t.Errorf("standard output %q", stdout)
	}
}

// An interrupted analysis writes every game, the first annotated as far
// as the analysis got, and says so in its Annotator tag.
func TestAnalyzeInterrupted(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "game.pgn"), filepath.Join(dir, "out.pgn")
	orig := writeBlunderRecord(t, in)
	_, stderr, err := interruptOn(t, "move 3 of 27", "analyze", "-depth", "2", "-v", "-out", out, in)
	if err == nil || !strings.Contains(err.Error(), "analyze interrupted at move 4 of game 1 (alice-bob)") ||
		!strings.Contains(err.Error(), out+" holds every game") {
		t.Fatalf("error %v\n%s", err, stderr)
	}
	rec := readOneRecord(t, out)
	if !equalGames(orig, rec) {
		t.Fatalf("the record written is another game")
	}
	if got := rec.Tag("Annotator"); got != "emergo analyze, depth 2, moves 1 to 3 of 27" {
		t.Errorf("Annotator %q", got)
	}
	for i, c := range rec.Comments {
		if (c != "") != (i < 3) {
			t.Errorf("comment %d: %q", i, c)
		}
	}
}

// strength plays a ladder and fits its scale: a small one of three
// players, the page to standard output; its flags are checked first.
func TestStrengthLadder(t *testing.T) {
	out, errs, err := emergo(t, "", "strength", "-ladder", "random; engine:depth=1,horizon=1,eval=beginner; engine:depth=2",
		"-games", "2", "-games2", "2", "-size", "7", "-quiet", "-out", "-")
	if err != nil {
		t.Fatalf("%v\n%s", err, errs)
	}
	wantInOrder(t, out, "| random | a uniformly random legal move | 0 | (the zero) |",
		"| engine:depth=1,horizon=1,eval=beginner |", "| engine:depth=2 |",
		"## The matches", "| random | engine:depth=1,horizon=1,eval=beginner | 2 |",
		"| random | engine:depth=2 | 2 |", "| engine:depth=1,horizon=1,eval=beginner | engine:depth=2 | 2 |",
		"emergo strength -ladder", "The run took", "## How the levels are weakened")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"rows and a ladder", []string{"-rows", "random vs greedy", "-ladder", "random; greedy"}, "-rows and -ladder: give one of them"},
		{"a ladder of one", []string{"-ladder", "random"}, `-ladder "random": at least two players`},
		{"no games two apart", []string{"-games2", "0"}, "-games2 0: at least one game"},
		{"a misspelt setting", []string{"-ladder", "random; engine:depht=2"}, `unknown setting "depht"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := emergo(t, "", append([]string{"strength", "-out", "-"}, c.args...)...)
			if err == nil || !strings.Contains(err.Error(), c.want) || exitCode(err) != 2 {
				t.Errorf("error %v (exit %d), want a usage error with %q", err, exitCode(err), c.want)
			}
		})
	}
}

// puzzles verify keeps the puzzles that hold at the deeper depth, in their
// order, under the set's own header and a "verified depth" line, and
// names the ones it drops: 9-e4f0619b8a holds at depth 10, where it was
// found, but at 14 a second move is good too.
func TestPuzzlesVerifyDropsWhatFailsDeeper(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.txt.gz"), filepath.Join(dir, "out.txt.gz")
	const set = "# emergo puzzles gen -size 9 -seed 1\n# criteria depth=10 win=200 equal=50\n" +
		"9-635460c54c\t9x9 b 0/0 a1:B1 i1:W1b2 b2:W1 e3:B6 b4:W1 f4:B1w3 a5:W3b1 e5:B1w2 f6:W1\te5xg7\t-\t690\t1\t246\tself-play 4 ply 51\n" +
		"9-e4f0619b8a\t9x9 w 0/0 c3:B4 c7:W6 e7:B1w5 b8:W1b4 h8:B3\tc7-d6\t-\t850\t1\t742\tself-play 7 ply 80\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(set))
	zw.Close()
	if err := os.WriteFile(in, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := run([]string{"puzzles", "verify", "-depth", "14", "-threads", "2", "-quiet", "-out", out, in}, nil, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	want := "dropped puzzle 9-e4f0619b8a: move 1: not the only good move (best 29971, next 121)\n" +
		"1 puzzle of 2 kept at depth 14 (1 dropped), written to " + out + "\n"
	if stdout.String() != want {
		t.Errorf("standard output %q, want %q", stdout.String(), want)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := puzzle.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if got.Deep != 14 || got.Command != "emergo puzzles gen -size 9 -seed 1" || got.Criteria != puzzle.DefaultCriteria[9] ||
		len(got.Puzzles) != 1 || got.Puzzles[0].ID != "9-635460c54c" {
		t.Errorf("the verified set: depth %d, command %q, criteria %v, %d puzzles", got.Deep, got.Command, got.Criteria, len(got.Puzzles))
	}
}

// tune patterns fits the tables of a board to tune gen's positions,
// writes them where -out says, in a form the evaluation reads, and prints
// the handcrafted weights fitted with them as Go, or, with -hold, says
// they were held.
func TestTunePatterns(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "self.txt.gz")
	if _, errs, err := emergo(t, "", "tune", "gen", "-games", "60", "-size", "7", "-depth", "1", "-workers", "1", "-quiet", "-out", games); err != nil {
		t.Fatalf("tune gen: %v\n%s", err, errs)
	}
	for _, hold := range []bool{false, true} {
		out := filepath.Join(dir, fmt.Sprintf("tables-%v.bin", hold))
		args := []string{"tune", "patterns", "-size", "7", "-epochs", "2", "-holdout", "0.2", "-quiet", "-out", out}
		if hold {
			args = append(args, "-hold")
		}
		stdout, errs, err := emergo(t, "", append(args, games)...)
		if err != nil {
			t.Fatalf("hold %v: %v\n%s", hold, err, errs)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		pt, err := eval.UnmarshalPatterns(data)
		if err != nil || pt.Geometry().N != 7 {
			t.Fatalf("hold %v: the tables written do not read back as 7x7's: %v", hold, err)
		}
		if !strings.Contains(stdout, "log loss: start ") || !strings.Contains(stdout, fmt.Sprintf("tables (%d weights) written to %s", pt.Size(), out)) {
			t.Errorf("hold %v: the report says neither the loss nor the tables:\n%s", hold, stdout)
		}
		printsGo := strings.Contains(stdout, "var Trained7 = Weights{")
		if printsGo == hold || strings.Contains(stdout, "held as -start gave them") != hold {
			t.Errorf("hold %v: the weights printed as Go %v, want %v:\n%s", hold, printsGo, !hold, stdout)
		}
	}
}
