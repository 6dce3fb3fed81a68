package engine

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"emergo/notation"
	"emergo/player"
	"emergo/rules"
	"emergo/search"
)

// client drives a session over pipes, as a GUI would.
type client struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

// patience bounds every wait for an answer, so that a broken session
// fails the test instead of hanging it. It is not a timing assertion.
const patience = 2 * time.Minute

func start(t *testing.T, opts Options) *client {
	t.Helper()
	if opts.HashMiB == 0 {
		opts.HashMiB = 1
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, in: inW, lines: make(chan string, 1024), done: make(chan error, 1)}
	go func() {
		err := Run(context.Background(), inR, outW, opts)
		outW.Close()
		c.done <- err
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() { c.in.Close() })
	return c
}

func (c *client) send(lines ...string) {
	c.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(c.in, l+"\n"); err != nil {
			c.t.Fatalf("sending %q: %v", l, err)
		}
	}
}

// until reads answers up to and including the first line that starts with
// prefix, and returns them all.
func (c *client) until(prefix string) []string {
	c.t.Helper()
	var got []string
	timer := time.NewTimer(patience)
	defer timer.Stop()
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				c.t.Fatalf("the session ended waiting for %q; got %q", prefix, got)
			}
			got = append(got, l)
			if strings.HasPrefix(l, prefix) {
				return got
			}
		case <-timer.C:
			c.t.Fatalf("no %q after %v; got %q", prefix, patience, got)
		}
	}
}

// ask sends a command and returns the answers up to the line that starts
// with prefix.
func (c *client) ask(cmd, prefix string) []string {
	c.t.Helper()
	c.send(cmd)
	return c.until(prefix)
}

// quit ends the session and returns what Run returned.
func (c *client) quit() error {
	c.t.Helper()
	c.send("quit")
	select {
	case err := <-c.done:
		return err
	case <-time.After(patience):
		c.t.Fatal("Run did not return after quit")
	}
	return nil
}

// runAll runs input through a whole session and returns the output.
func runAll(t *testing.T, input string) string {
	t.Helper()
	var out bytes.Buffer
	if err := Run(context.Background(), strings.NewReader(input), &out, Options{HashMiB: 1}); err != nil {
		t.Fatalf("Run: %v", err)
	}
	return out.String()
}

func TestHandshake(t *testing.T) {
	c := start(t, Options{})
	got := c.ask("ugi", "ugiok")
	want := []string{
		"id name Emergo",
		"id author The Emergo authors",
		"option name Hash type spin default 1 min 1 max 4096", // the test's Options
		"option name Threads type spin default 1 min 1 max 64",
		"option name Level type spin default 10 min 1 max 10",
		"option name Size type combo default 9 var 9 var 7",
		"option name MultiPV type spin default 1 min 1 max 16",
		"ugiok",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ugi answered\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := c.ask("isready", "readyok"); len(got) != 1 {
		t.Errorf("isready answered %q", got)
	}
	if err := c.quit(); err != nil {
		t.Errorf("Run returned %v", err)
	}
}

func TestDefaultOptions(t *testing.T) {
	out := runAll(t, "ugi\n")
	for _, want := range []string{"option name Hash type spin default 1 ", "ugiok"} {
		if !strings.Contains(out, want) {
			t.Errorf("ugi answer lacks %q:\n%s", want, out)
		}
	}
	var b bytes.Buffer
	if err := Run(context.Background(), strings.NewReader("ugi\n"), &b, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "option name Hash type spin default 16 min 1 max 4096") {
		t.Errorf("default Hash is not 16:\n%s", b.String())
	}
	for _, o := range []Options{{HashMiB: -1}, {Level: 11}, {Size: 8}, {MultiPV: 17}, {Threads: 65}} {
		if err := Run(context.Background(), strings.NewReader(""), io.Discard, o); err == nil {
			t.Errorf("Run accepted %+v", o)
		}
	}
}

// field returns the value after key in an info line, or "".
func field(line, key string) string {
	f := strings.Fields(line)
	for i := 0; i+1 < len(f); i++ {
		if f[i] == key {
			return f[i+1]
		}
	}
	return ""
}

// checkBest checks that the last line is a legal bestmove of p, that
// every info line before it is well formed, and that the last of them is
// the line of the bestmove.
func checkBest(t *testing.T, lines []string, p rules.Position) rules.Move {
	t.Helper()
	if len(lines) > 1 {
		checkReports(t, lines)
	}
	last := lines[len(lines)-1]
	text, ok := strings.CutPrefix(last, "bestmove ")
	if !ok {
		t.Fatalf("last line %q is not a bestmove", last)
	}
	m, err := notation.ParseMove(&p, text)
	if err != nil {
		t.Fatalf("bestmove %q: %v", text, err)
	}
	for _, l := range lines[:len(lines)-1] {
		if !strings.HasPrefix(l, "info depth ") {
			t.Errorf("unexpected line during the search: %q", l)
			continue
		}
		for _, key := range []string{"depth", "seldepth", "multipv", "nodes", "nps", "time", "hashfull"} {
			if _, err := strconv.ParseUint(field(l, key), 10, 64); err != nil {
				t.Errorf("%q: %s is not a number", l, key)
			}
		}
		kind := field(l, "score")
		if kind != "cp" && kind != "mate" {
			t.Errorf("%q: bad score", l)
		}
		pv := strings.Fields(l[strings.Index(l, " pv ")+4:])
		q := p
		for _, mt := range pv {
			m, err := notation.ParseMove(&q, mt)
			if err != nil {
				t.Errorf("%q: pv move %q: %v", l, mt, err)
				break
			}
			q.Play(m)
		}
	}
	return m
}

func mustPosition(t *testing.T, text string, moves ...string) rules.Position {
	t.Helper()
	p, err := notation.ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	g := rules.NewGameFrom(p)
	if err := notation.PlayMoves(g, moves); err != nil {
		t.Fatal(err)
	}
	return g.Position()
}

func TestGoDepth(t *testing.T) {
	c := start(t, Options{})
	c.send("uginewgame", "position startpos moves c3 g7")
	got := c.ask("go depth 4", "bestmove")
	checkBest(t, got, mustPosition(t, "9x9 w 12/12 -", "c3", "g7"))
	if n := len(got); n != 5 || field(got[n-2], "depth") != "4" {
		t.Errorf("want one info line per depth 1 to 4, got %q", got)
	}
	if err := c.quit(); err != nil {
		t.Errorf("Run returned %v", err)
	}
}

func TestGoInfiniteThenStop(t *testing.T) {
	c := start(t, Options{})
	c.send("position startpos", "go infinite")
	// The session answers while it searches, and gives no bestmove yet.
	for _, l := range c.ask("isready", "readyok") {
		if strings.HasPrefix(l, "bestmove") {
			t.Fatalf("bestmove before stop: %q", l)
		}
	}
	if got := c.ask("query p1turn", "response"); got[len(got)-1] != "response true" {
		t.Errorf("query p1turn during the search: %q", got)
	}
	if got := c.ask("go depth 1", "info string error"); !strings.Contains(got[len(got)-1], "an infinite search is running") {
		t.Errorf("second go: %q", got)
	}
	got := c.ask("stop", "bestmove")
	checkBest(t, got, mustPosition(t, "9x9 w 12/12 -"))
	// After stop the session searches again.
	checkBest(t, c.ask("go depth 2", "bestmove"), mustPosition(t, "9x9 w 12/12 -"))
	if err := c.quit(); err != nil {
		t.Errorf("Run returned %v", err)
	}
}

func TestQuitDuringSearch(t *testing.T) {
	c := start(t, Options{})
	c.send("position startpos", "go infinite")
	c.ask("isready", "readyok")
	if err := c.quit(); err != nil {
		t.Errorf("Run returned %v", err)
	}
	got := c.until("bestmove")
	checkBest(t, got[len(got)-1:], mustPosition(t, "9x9 w 12/12 -"))
}

func TestContextEndsSession(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	defer inW.Close()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Run(ctx, inR, outW, Options{HashMiB: 1}); outW.Close() }()
	go io.WriteString(inW, "go infinite\n")
	sc := bufio.NewScanner(outR)
	if !sc.Scan() || !strings.HasPrefix(sc.Text(), "info depth") {
		t.Fatalf("want info, got %q", sc.Text())
	}
	cancel()
	var last string
	for sc.Scan() {
		last = sc.Text()
	}
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v, want context.Canceled", err)
	}
	if !strings.HasPrefix(last, "bestmove ") {
		t.Errorf("last line %q, want the bestmove", last)
	}
}

func TestEndOfInput(t *testing.T) {
	// A search with limits finishes; an infinite one is stopped.
	for _, cmd := range []string{"go depth 3", "go infinite", "go nodes 500"} {
		out := runAll(t, "position startpos\n"+cmd+"\n")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		checkBest(t, lines, mustPosition(t, "9x9 w 12/12 -"))
		if cmd == "go depth 3" && field(lines[len(lines)-2], "depth") != "3" {
			t.Errorf("%s: the search did not finish: %q", cmd, lines)
		}
	}
}

func TestCommandsWaitForSearch(t *testing.T) {
	// A go or bench during a search with limits waits for its bestmove, so
	// that a script's searches come out in order.
	out := runAll(t, "position startpos\ngo depth 3\nposition startpos moves c3\ngo depth 2\nbench 1\n")
	var got []string
	for l := range strings.Lines(out) {
		f := strings.Fields(l)
		switch {
		case f[0] == "bestmove":
			got = append(got, "bestmove")
		case f[0] == "info" && f[1] == "depth":
			got = append(got, f[2])
		case f[0] == "info" && f[1] == "string":
			got = append(got, f[2])
		}
	}
	if want := "1 2 3 bestmove 1 2 bestmove bench"; strings.Join(got, " ") != want {
		t.Errorf("order of the answers: %s, want %s", strings.Join(got, " "), want)
	}
}

func TestFinishedGame(t *testing.T) {
	// White has no men in hand and no column: Black has won (RULES 6.1).
	out := runAll(t, strings.Join([]string{
		"position 7x7 w 0/0 d4:B8w8",
		"query gameover",
		"query p1turn",
		"query result",
		"go depth 3",
		"position fen 7x7 b 0/0 d4:W8b8",
		"query result",
		"go",
	}, "\n"))
	want := `response true
response true
response p2win
info string error: the game is over (0-1, all men taken prisoner)
bestmove none
response p1win
info string error: the game is over (1-0, all men taken prisoner)
bestmove none
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestQueries(t *testing.T) {
	out := runAll(t, strings.Join([]string{
		"query gameover", "query p1turn", "query result",
		"position startpos moves c3",
		"query p1turn", "query result",
		"query", "query color", "query result extra",
	}, "\n"))
	want := `response false
response true
response none
response false
response none
info string error: query: want one of gameover, p1turn, result
info string error: query: unknown question "color"; want gameover, p1turn or result
info string error: query: want one of gameover, p1turn, result
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestRepetitionDraw(t *testing.T) {
	// Two columns step to and fro; the start recurs for the third time
	// after eight moves (RULES 6.3).
	cycle := "a1-b2 i9-h8 b2-a1 h8-i9 "
	out := runAll(t, strings.Join([]string{
		"position 9x9 w 0/0 a1:W12 i9:B12 moves " + cycle + cycle,
		"query result",
		"position 9x9 w 0/0 a1:W12 i9:B12 moves " + cycle + cycle + "a1-b2",
		"query result",
	}, "\n"))
	want := `response draw
info string error: position: move 9 "a1-b2": the game is over (1/2-1/2, threefold repetition)
response draw
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestIllegalMoveKeepsPosition(t *testing.T) {
	out := runAll(t, strings.Join([]string{
		"position startpos moves c3 g7",
		"position startpos moves c3 c3",
		"position startpos moves e5",
		"position startpos moves c3 zz",
		"position startpos moves c3 g7 c3-d4",
		"position 9x9 w 12/12 - junk",
		"position 9x9 x 12/12 -",
		"position fen",
		"position",
		"position startpos 7x7",
		"d",
	}, "\n"))
	want := []string{
		`info string error: position: move 2 "c3": c3 is occupied`,
		`info string error: position: move 1 "e5": the first move may not be on the centre e5 (RULES 4.3)`,
		`info string error: position: move 2 "zz": "zz" is not a square name`,
		`info string error: position: move 3 "c3-d4": White has men in hand and must enter one (RULES 4.1)`,
		`info string error: position: "9x9 w 12/12 - junk": column "-": - stands for an empty board and cannot go with columns`,
		`info string error: position: "9x9 x 12/12 -": side "x": the side to move is w or b`,
		`info string error: position: missing the position text after fen`,
		`info string error: position: want startpos, or a position text such as "9x9 w 12/12 -"`,
		`info string error: position: unexpected "7x7" after startpos`,
	}
	lines := strings.Split(out, "\n")
	for i, w := range want {
		if i >= len(lines) || lines[i] != w {
			t.Errorf("line %d:\n got %q\nwant %q", i+1, lines[min(i, len(lines)-1)], w)
		}
	}
	for _, w := range []string{"\nposition 9x9 w 11/11 c3:W1 g7:B1\n", "\nstart 9x9 w 12/12 - moves c3 g7\n", "\nWhite to move, 35 legal moves\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("d after the errors lacks %q: the position changed?\n%s", strings.TrimSpace(w), out)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"unknown command", "xyz 1 2", `info string error: unknown command "xyz"`},
		{"case matters", "UGI", `info string error: unknown command "UGI"`},
		{"empty lines", "\n   \n\t", ``},
		{"setoption without name", "setoption Hash value 3", `info string error: setoption: want setoption name <name> value <value>`},
		{"setoption bare", "setoption", `info string error: setoption: want setoption name <name> value <value>`},
		{"setoption no name", "setoption name value 3", `info string error: setoption: missing the option name`},
		{"setoption unknown", "setoption name Ponder value true", `info string error: setoption: unknown option "Ponder"`},
		{"setoption no value", "setoption name Hash", `info string error: setoption: Hash: missing the value`},
		{"setoption empty value", "setoption name Hash value", `info string error: setoption: Hash: value "" is not a number from 1 to 4096`},
		{"setoption not a number", "setoption name Level value max", `info string error: setoption: Level: value "max" is not a number from 1 to 10`},
		{"setoption too high", "setoption name MultiPV value 17", `info string error: setoption: MultiPV: value "17" is not a number from 1 to 16`},
		{"setoption combo", "setoption name Size value 8", `info string error: setoption: Size: value "8" is not one of 9, 7`},
		{"setoption any case", "setoption name threads value 2", ``},
		{"bench bad depth", "bench deep", `info string error: bench: want an optional depth from 1 to 128, not "deep"`},
		{"bench two args", "bench 1 2", `info string error: bench: want an optional depth from 1 to 128, not "1 2"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.TrimSuffix(runAll(t, tc.in+"\n"), "\n")
			if got != tc.want {
				t.Errorf("%q answered\n%s\nwant\n%s", tc.in, got, tc.want)
			}
		})
	}
}

func TestGoFieldErrors(t *testing.T) {
	// A bad field is reported and ignored; the search still runs, with the
	// fields that could be read.
	out := runAll(t, "position startpos\ngo movetime depth 2 ponder nodes -5\n")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	wantErr := []string{
		`info string error: go: movetime: "depth" is not a number`,
		`info string error: go: unknown field "ponder"`,
		`info string error: go: nodes: -5 is not from 1 to 4611686018427387904`,
	}
	for i, w := range wantErr {
		if lines[i] != w {
			t.Errorf("line %d: got %q, want %q", i+1, lines[i], w)
		}
	}
	rest := lines[len(wantErr):]
	checkBest(t, rest, mustPosition(t, "9x9 w 12/12 -"))
	if len(rest) != 3 {
		t.Errorf("want depth 1 and 2 and the bestmove, got %q", rest)
	}
}

func TestSizeOption(t *testing.T) {
	out := runAll(t, "setoption name Size value 7\nd\nposition startpos moves a1\ngo depth 2\n")
	if !strings.Contains(out, "\nposition 7x7 w 8/8 -\n") {
		t.Errorf("Size 7 did not start a 7x7 game:\n%s", out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	i := len(lines) - 1
	for i > 0 && strings.HasPrefix(lines[i-1], "info depth") {
		i--
	}
	checkBest(t, lines[i:], mustPosition(t, "7x7 w 8/8 -", "a1"))
}

func TestMultiPV(t *testing.T) {
	c := start(t, Options{})
	c.send("setoption name MultiPV value 3", "position startpos")
	got := c.ask("go depth 3", "bestmove")
	var pvs []string
	for _, l := range got[:len(got)-1] {
		pvs = append(pvs, field(l, "depth")+"/"+field(l, "multipv"))
	}
	if want := "1/1 1/2 1/3 2/1 2/2 2/3 3/1 3/2 3/3"; strings.Join(pvs, " ") != want {
		t.Errorf("depth/multipv of the info lines: %s, want %s", strings.Join(pvs, " "), want)
	}
	checkBest(t, got, mustPosition(t, "9x9 w 12/12 -"))
	if first := field(got[len(got)-4], "pv"); "bestmove "+first != got[len(got)-1] {
		t.Errorf("bestmove %q is not the first line's move %q", got[len(got)-1], first)
	}
	c.quit()
}

func TestLevels(t *testing.T) {
	// Every level answers a legal move under a clock; the weak ones search
	// their own limits and choose with noise.
	for _, level := range []int{1, 3, 5, 10} {
		c := start(t, Options{Level: level, Seed: 7})
		c.send("position startpos moves c3 g7 e3")
		// The levels with a depth are checked to search to it, so their
		// clock is long enough never to cut them short on a slow machine;
		// the strong ones are stopped by a short one.
		depth := player.Levels[level].Depth
		clock := "go p1time 2000 p2time 2000 p1inc 10 p2inc 10"
		if depth > 0 {
			clock = "go p1time 3600000 p2time 3600000 p1inc 10 p2inc 10"
		}
		got := c.ask(clock, "bestmove")
		checkBest(t, got, mustPosition(t, "9x9 w 12/12 -", "c3", "g7", "e3"))
		if depth > 0 {
			if d := field(got[len(got)-2], "depth"); d != strconv.Itoa(depth) {
				t.Errorf("level %d searched to depth %s, want %d", level, d, depth)
			}
		}
		c.quit()
	}
	// An explicit limit overrides the level.
	c := start(t, Options{Level: 1})
	c.send("position startpos")
	got := c.ask("go depth 3", "bestmove")
	if d := field(got[len(got)-2], "depth"); d != "3" {
		t.Errorf("level 1 with go depth 3 searched to depth %s", d)
	}
	c.send("setoption name Level value 3")
	got = c.ask("go", "bestmove")
	if d, want := field(got[len(got)-2], "depth"), strconv.Itoa(player.Levels[3].Depth); d != want {
		t.Errorf("level 3 searched to depth %s, want %s", d, want)
	}
	c.quit()
}

func TestDeterminism(t *testing.T) {
	c := start(t, Options{})
	var best, nodes [2]string
	for i := range 2 {
		c.send("uginewgame", "position startpos moves c3 g7 e3")
		got := c.ask("go depth 5", "bestmove")
		best[i], nodes[i] = got[len(got)-1], field(got[len(got)-2], "nodes")
		// Fill the table with something else in between.
		c.send("position startpos moves a1")
		c.ask("go depth 3", "bestmove")
	}
	if best[0] != best[1] || nodes[0] != nodes[1] {
		t.Errorf("two searches after uginewgame differ: %s with %s nodes, then %s with %s nodes",
			best[0], nodes[0], best[1], nodes[1])
	}
	c.quit()
}

func TestBench(t *testing.T) {
	out := runAll(t, "bench 1\n")
	f := strings.Fields(out)
	if len(f) != 9 || strings.Join([]string{f[0], f[1], f[2], f[3], f[5], f[7]}, " ") != "info string bench nodes time nps" {
		t.Fatalf("bench answered %q", out)
	}
	if n, err := strconv.ParseUint(f[4], 10, 64); err != nil || n == 0 {
		t.Errorf("bench nodes %q", f[4])
	}
}

func TestDebug(t *testing.T) {
	out := runAll(t, "position startpos moves c3 g7\nd\n")
	p := mustPosition(t, "9x9 w 12/12 -", "c3")
	m, _ := notation.ParseMove(&p, "g7")
	p.Play(m)
	want := notation.Diagram(&p, m) +
		"position 9x9 w 11/11 c3:W1 g7:B1\n" +
		"start 9x9 w 12/12 - moves c3 g7\n" +
		"White to move, 35 legal moves\n"
	if out != want {
		t.Errorf("d printed\n%s\nwant\n%s", out, want)
	}
}

func TestLongLine(t *testing.T) {
	in := "position startpos moves " + strings.Repeat("c3 ", MaxLine/3) + "\nquery p1turn\n"
	out := runAll(t, in)
	want := "info string error: line too long (more than 1048576 bytes), ignored\nresponse true\n"
	if out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	// A last line without a newline is read too.
	if out := runAll(t, "query p1turn"); out != "response true\n" {
		t.Errorf("last line without newline: %q", out)
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n == 0 {
		return 0, errors.New("broken pipe")
	}
	w.n--
	return len(p), nil
}

func TestWriteError(t *testing.T) {
	err := Run(context.Background(), strings.NewReader("isready\nisready\nisready\n"), &failWriter{n: 1}, Options{HashMiB: 1})
	if err == nil || !strings.Contains(err.Error(), "broken pipe") {
		t.Errorf("Run returned %v, want the write error", err)
	}
}

func TestScoreText(t *testing.T) {
	for _, tc := range []struct {
		score int32
		want  string
	}{
		{0, "cp 0"}, {-35, "cp -35"}, {29000 - 1, "cp 28999"},
		{30000 - 1, "mate 1"}, {30000 - 3, "mate 2"}, {-(30000 - 2), "mate -1"}, {-(30000 - 4), "mate -2"},
	} {
		if got := scoreText(tc.score); got != tc.want {
			t.Errorf("scoreText(%d) = %q, want %q", tc.score, got, tc.want)
		}
	}
}

func TestInfoLine(t *testing.T) {
	p := mustPosition(t, "9x9 w 12/12 -")
	c3, _ := notation.ParseMove(&p, "c3")
	base := search.Info{Depth: 3, SelDepth: 5, MultiPV: 1, Score: 12, Nodes: 100, NPS: 1000, Time: 100 * time.Millisecond, HashFull: 2, PV: []rules.Move{c3}}
	for _, tc := range []struct {
		name  string
		score int32
		bound search.Bound
		want  string
	}{
		{"exact", 12, search.Exact, "info depth 3 seldepth 5 multipv 1 score cp 12 nodes 100 nps 1000 time 100 hashfull 2 pv c3"},
		{"lower bound", 12, search.LowerBound, "info depth 3 seldepth 5 multipv 1 score cp 12 lowerbound nodes 100 nps 1000 time 100 hashfull 2 pv c3"},
		{"upper bound", -(search.Mate - 2), search.UpperBound, "info depth 3 seldepth 5 multipv 1 score mate -1 upperbound nodes 100 nps 1000 time 100 hashfull 2 pv c3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := base
			in.Score, in.Bound = tc.score, tc.bound
			if got := infoLine(p.Geometry(), in); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
