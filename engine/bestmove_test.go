package engine

import (
	"fmt"
	"strings"
	"testing"

	"emergo/notation"
	"emergo/search"
)

// checkReports checks the answers of a session, in order: every bestmove
// but "bestmove none" must be the first move of the last "multipv 1"
// info line since the previous bestmove. It returns the number of
// bestmoves checked.
func checkReports(t *testing.T, lines []string) int {
	t.Helper()
	n := 0
	last := "" // the first move of the last multipv 1 line of this search
	for _, l := range lines {
		switch f := strings.Fields(l); {
		case strings.HasPrefix(l, "info depth ") && field(l, "multipv") == "1":
			last = field(l, "pv")
		case len(f) == 2 && f[0] == "bestmove" && f[1] != "none":
			n++
			if last == "" {
				t.Errorf("%s with no info line before it", l)
			} else if f[1] != last {
				t.Errorf("%s, but the last info line reported %s", l, last)
			}
			last = ""
		}
	}
	return n
}

// TestBestmoveIsLastReported runs many short searches over varied
// positions and limits, most stopped in the middle of an iteration, and
// checks that each plays the move of its last info line. The node limits
// make most cases reproducible; the timed ones check the same whatever the
// timing.
func TestBestmoveIsLastReported(t *testing.T) {
	var positions []string
	for _, p := range search.BenchPositions() {
		positions = append(positions, "position fen "+notation.FormatPosition(&p))
	}
	positions = append(positions, "position startpos moves c3 g7 e7 c9 e3", "position startpos moves c3 g7")
	// each returns, for one position, the commands of a case.
	each := func(setup string, gos ...string) string {
		var b strings.Builder
		b.WriteString(setup + "\n")
		for _, p := range positions {
			for _, g := range gos {
				fmt.Fprintf(&b, "%s\n%s\n", p, g)
			}
		}
		return b.String()
	}
	nodes := []string{"go nodes 1", "go nodes 60", "go nodes 400", "go nodes 1500", "go nodes 5000"}
	for _, tc := range []struct {
		name, script string
	}{
		{"nodes", each("", nodes...)},
		{"nodes after uginewgame", each("", "uginewgame\ngo nodes 2500")},
		{"depth", each("", "go depth 1", "go depth 2", "go depth 4")},
		{"multipv", each("setoption name MultiPV value 3", nodes...)},
		{"movetime", each("", "go movetime 1", "go movetime 4", "go movetime 15")},
		{"clock", each("", "go p1time 150 p2time 150", "go p1time 0 p2time 0", "go p1time 200 p2time 200 p1inc 20 p2inc 20 movestogo 3")},
		{"threads", each("setoption name Threads value 2", "go movetime 3", "go nodes 3000", "go depth 3")},
		{"level 2", each("setoption name Level value 2", "go")},
		{"level 4", each("setoption name Level value 4", "go")},
		{"level 5", each("setoption name Level value 5\nsetoption name MultiPV value 2", "go")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := runAll(t, tc.script)
			lines := strings.Split(strings.TrimSpace(out), "\n")
			for _, l := range lines {
				if strings.HasPrefix(l, "info string") {
					t.Fatalf("unexpected %q", l)
				}
			}
			want := strings.Count(tc.script, "\ngo")
			if n := checkReports(t, lines); n != want {
				t.Errorf("%d searches answered, want %d", n, want)
			}
		})
	}
}

// TestStopReportsBestmove stops infinite searches after a growing number
// of iterations, and ends others with quit and with the end of the input:
// the move played is always the last one reported.
func TestStopReportsBestmove(t *testing.T) {
	c := start(t, Options{})
	var all []string
	for i, pos := range []string{"position startpos moves c3 g7", "position startpos moves c3 g7 e7 c9 e3", "position startpos moves a1 i9 c1"} {
		for iterations := 1; iterations <= 6; iterations++ {
			c.send(pos, "go infinite")
			for range iterations {
				all = append(all, c.until("info depth")...)
			}
			if i == 1 && iterations == 3 {
				all = append(all, c.ask("isready", "readyok")...)
			}
			all = append(all, c.ask("stop", "bestmove")...)
		}
	}
	c.send("go infinite")
	all = append(all, c.until("info depth")...)
	if err := c.quit(); err != nil {
		t.Errorf("Run returned %v", err)
	}
	all = append(all, c.until("bestmove")...)
	if n := checkReports(t, all); n != 19 {
		t.Errorf("%d searches answered, want 19", n)
	}
	for _, cmd := range []string{"go infinite", "go movetime 5", "go nodes 3000"} {
		out := runAll(t, "position startpos moves c3 g7\n"+cmd+"\n")
		if n := checkReports(t, strings.Split(out, "\n")); n != 1 {
			t.Errorf("%s, then the end of the input: %d bestmoves", cmd, n)
		}
	}
}
