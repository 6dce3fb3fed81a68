package match

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"emergo/notation"
	"emergo/rules"
)

// The test binary doubles as a fake external engine: run with the
// environment variable fakeEnv set and the arguments "fake-engine MODE",
// it speaks just enough of the protocol to play, and misbehaves as MODE
// says. The tests start it through the cmd: spec.
const fakeEnv = "EMERGO_MATCH_FAKE_ENGINE"

func TestMain(m *testing.M) {
	if os.Getenv(fakeEnv) == "1" && len(os.Args) >= 3 && os.Args[1] == "fake-engine" {
		os.Exit(fakeEngine(os.Args[2], os.Stdin, os.Stdout))
	}
	os.Setenv(fakeEnv, "1")
	os.Exit(m.Run())
}

// fakeSpec returns the spec of the fake engine in mode.
func fakeSpec(mode string) string {
	return "cmd:" + os.Args[0] + " fake-engine " + mode
}

// fakeEngine plays the first legal move of every position. MODE is "good",
// or "crash:N", "illegal:N", "hang:N" or "garbage:N" to exit with status 3,
// answer a move that is not legal, never answer, or answer a word that is
// no move at its Nth go (from 1).
func fakeEngine(mode string, in io.Reader, out io.Writer) int {
	kind, nth, _ := strings.Cut(mode, ":")
	n, _ := strconv.Atoi(nth)
	w := bufio.NewWriter(out)
	say := func(format string, args ...any) {
		fmt.Fprintf(w, format+"\n", args...)
		w.Flush()
	}
	size := 9
	var game *rules.Game
	gos := 0
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "ugi":
			say("id name fake-%s", kind)
			say("option name Size type combo default 9 var 9 var 7")
			say("ugiok")
		case "isready":
			say("readyok")
		case "setoption":
			if len(f) == 5 && f[2] == "Size" {
				size, _ = strconv.Atoi(f[4])
			}
		case "position":
			game = fakePosition(size, f[1:])
		case "go":
			gos++
			if gos == n {
				switch kind {
				case "crash":
					return 3
				case "illegal":
					// A square of the board, but no legal move: the
					// first move of the game is never a step.
					say("bestmove a1-b2")
					continue
				case "garbage":
					say("bestmove zz99")
					continue
				case "hang":
					time.Sleep(time.Minute)
					return 0
				}
			}
			if game == nil || len(game.Legal()) == 0 {
				say("bestmove (none)")
				continue
			}
			say("info depth 1 score cp 0")
			say("bestmove %s", game.Legal()[0].Text(game.Geometry()))
		case "quit":
			return 0
		}
	}
	return 0
}

// fakePosition reads "startpos [moves ...]" or "<position text> [moves
// ...]"; nil on any error.
func fakePosition(size int, f []string) *rules.Game {
	mi := len(f)
	for i, s := range f {
		if s == "moves" {
			mi = i
		}
	}
	var start rules.Position
	if len(f) > 0 && f[0] == "startpos" {
		start = rules.NewPosition(rules.GeometryOf(size))
	} else {
		p, err := notation.ParsePosition(strings.Join(f[:mi], " "))
		if err != nil {
			return nil
		}
		start = p
	}
	gm := rules.NewGameFrom(start)
	if notation.PlayMoves(gm, f[min(mi+1, len(f)):]) != nil {
		return nil
	}
	return gm
}
