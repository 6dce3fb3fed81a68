package engine

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// FuzzProtocol feeds arbitrary input to a session: it must neither panic
// nor hang, and every answer must be a whole line of the protocol. The
// input is tamed only where the protocol obeys on purpose: every go also
// gets "depth 1" (a search that ends soon), bench is dropped (seconds of
// work) and so are Hash and Threads (big allocations).
func FuzzProtocol(f *testing.F) {
	for _, seed := range []string{
		"ugi\nisready\nuginewgame\nposition startpos moves c3 g7\ngo depth 3\nquery p1turn\nquit\n",
		"position startpos\ngo infinite\nisready\nstop\n",
		"setoption name Size value 7\nposition startpos moves a1 g7\ngo p1time 100 p2time 100\nd\n",
		"setoption name Level value 3\nposition startpos\ngo\n",
		"setoption name MultiPV value 4\nposition fen 9x9 w 0/0 a1:W12 i9:B12 moves a1-b2 i9-h8\ngo nodes 200\n",
		"position 7x7 w 0/0 d4:B8w8\nquery result\ngo\n",
		"position startpos moves e5\nsetoption name\nxyz\n\n\t\nquery\n",
		"go movetime\ngo wtime -5 btime x\nstop\nstop\nquit\nquit\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, input string) {
		var tamed []string
		for l := range strings.Lines(input) {
			low := strings.ToLower(l)
			f := strings.Fields(l)
			switch {
			case len(f) > 0 && f[0] == "bench", strings.Contains(low, "hash"), strings.Contains(low, "threads"):
				continue
			case len(f) > 0 && f[0] == "go":
				l = strings.TrimRight(l, "\r\n") + " depth 1\n"
			}
			tamed = append(tamed, l)
		}
		var out bytes.Buffer
		done := make(chan error, 1)
		go func() {
			done <- Run(context.Background(), strings.NewReader(strings.Join(tamed, "")), &out, Options{HashMiB: 1})
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
		case <-time.After(time.Minute):
			t.Fatalf("the session hangs on %q", input)
		}
		checkOutput(t, out.String())
	})
}

// checkOutput checks that every line of out is an answer of the protocol
// or part of the diagram of d.
func checkOutput(t *testing.T, out string) {
	t.Helper()
	if out != "" && !strings.HasSuffix(out, "\n") {
		t.Fatalf("output does not end with a newline: %q", out)
	}
	for l := range strings.Lines(out) {
		l = strings.TrimSuffix(l, "\n")
		first, _, _ := strings.Cut(l, " ")
		switch first {
		case "id", "option", "ugiok", "readyok", "info", "bestmove", "response", "position", "start", "result", "White", "Black":
			continue
		}
		if strings.HasPrefix(l, "   ") || strings.HasPrefix(l, " ") && strings.Contains(l, "|") {
			continue
		}
		t.Fatalf("unexpected line %q in\n%s", l, out)
	}
}
