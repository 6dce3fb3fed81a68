package match

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"

	"emergo/player"
)

// Spec says how to make one player of a match. The match makes a fresh
// player for every game, seeded for that game, so that a game depends on
// the match's seed and its number and not on which worker plays it.
type Spec struct {
	// Text is the spec as the user wrote it, such as "level:5"; it names
	// the player in reports.
	Text string
	// New makes the player of one game. A player that is an io.Closer is
	// closed at the end of the game.
	New func(ctx context.Context, seed uint64) (player.Player, error)
}

// SpecOptions configure the players that ParseSpec makes.
type SpecOptions struct {
	// HashMiB is the transposition table of level:N players; 0 for the
	// engine's default.
	HashMiB int
	// EngineStderr receives the standard error of cmd: engines; nil
	// discards it.
	EngineStderr io.Writer
}

// SpecHelp lists the player specs, for usage messages.
var SpecHelp = fmt.Sprintf(`level:N         the engine at level N (1 to %d)
nodes:N[/M]     the full engine limited to N nodes a move, no clock; with /M it
                picks among the moves within M hundredths of a man of the best
engine:K=V,...  a level's settings spelled out (depth, nodes, margin, horizon,
                eval=beginner|novice), as in engine:depth=2,horizon=1,eval=novice
random          a uniformly random mover
greedy          the one-ply material grabber
mcts:PLAYOUTS   Monte-Carlo tree search with PLAYOUTS playouts per move
cmd:PATH ARGS   an external engine speaking the protocol of docs/protocol.md`, player.MaxLevel)

// ParseSpec reads a player spec: level:N, nodes:N[/M], engine:K=V,...,
// random, greedy, mcts:PLAYOUTS or cmd:PATH [ARGS] (arguments split at spaces, without
// quoting).
func ParseSpec(text string, o SpecOptions) (Spec, error) {
	bad := func(format string, args ...any) (Spec, error) {
		return Spec{}, settingError("player %q: %s", text, fmt.Sprintf(format, args...))
	}
	kind, arg, hasArg := strings.Cut(strings.TrimSpace(text), ":")
	sp := Spec{Text: strings.TrimSpace(text)}
	number := func(lo, hi int) (int, bool) {
		n, err := strconv.Atoi(arg)
		return n, err == nil && n >= lo && n <= hi
	}
	switch kind {
	case "level":
		n, ok := number(1, player.MaxLevel)
		if !ok {
			return bad("the level is a number from 1 to %d", player.MaxLevel)
		}
		sp.New = func(_ context.Context, seed uint64) (player.Player, error) {
			return player.NewEngine(n, player.EngineOptions{HashMiB: o.HashMiB, Threads: 1, Seed: seed})
		}
	case "nodes":
		nodes, margin, hasMargin := strings.Cut(arg, "/")
		n, err := strconv.ParseUint(nodes, 10, 64)
		if err != nil || n < 1 {
			return bad("the nodes are a positive number, as in nodes:5000 or nodes:5000/20")
		}
		lv := player.Level{Nodes: n}
		if hasMargin {
			m, err := strconv.Atoi(margin)
			if err != nil || m < 0 || m > 1000 {
				return bad("the margin after / is 0 to 1000 hundredths of a man, as in nodes:5000/20")
			}
			lv.Margin = int32(m)
		}
		sp.New = func(_ context.Context, seed uint64) (player.Player, error) {
			return player.NewEngine(player.MaxLevel, player.EngineOptions{HashMiB: o.HashMiB, Threads: 1, Seed: seed, Limits: &lv})
		}
	case "engine":
		lv, err := parseLevel(arg)
		if err != nil {
			return bad("%v", err)
		}
		sp.New = func(_ context.Context, seed uint64) (player.Player, error) {
			return player.NewEngine(player.MaxLevel, player.EngineOptions{HashMiB: o.HashMiB, Threads: 1, Seed: seed, Limits: &lv})
		}
	case "random", "greedy":
		if hasArg {
			return bad("%s takes no setting", kind)
		}
		if kind == "random" {
			sp.New = func(_ context.Context, seed uint64) (player.Player, error) { return player.NewRandom(seed), nil }
		} else {
			sp.New = func(_ context.Context, seed uint64) (player.Player, error) { return player.NewGreedy(seed), nil }
		}
	case "mcts":
		n, ok := number(1, 1<<30)
		if !ok {
			return bad("the playouts per move are a positive number, as in mcts:10000")
		}
		sp.New = func(_ context.Context, seed uint64) (player.Player, error) { return player.NewMCTS(n, seed), nil }
	case "cmd":
		f := strings.Fields(arg)
		if len(f) == 0 {
			return bad("cmd: needs the path of the engine, as in cmd:./engine")
		}
		path, err := exec.LookPath(f[0])
		if err != nil {
			return bad("cannot run %s: %v", f[0], err)
		}
		args := f[1:]
		sp.New = func(ctx context.Context, _ uint64) (player.Player, error) {
			return StartExternal(ctx, path, args, ExternalOptions{Stderr: o.EngineStderr})
		}
	default:
		return bad("unknown kind %q; want one of\n%s", kind, SpecHelp)
	}
	return sp, nil
}

// parseLevel reads the settings of an engine: spec, such as
// "depth=2,horizon=1,eval=novice" (see player.Level).
func parseLevel(text string) (player.Level, error) {
	var lv player.Level
	if strings.TrimSpace(text) == "" {
		return lv, fmt.Errorf("engine: needs settings, as in engine:depth=2,horizon=1,eval=novice")
	}
	for _, kv := range strings.Split(text, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
		n, err := strconv.ParseUint(v, 10, 64)
		switch {
		case k == "eval":
			w, ok := player.Evals[v]
			if !ok {
				return lv, fmt.Errorf("eval=%s: want beginner or novice", v)
			}
			lv.Eval = w
			continue
		case k != "depth" && k != "nodes" && k != "margin" && k != "horizon":
			return lv, fmt.Errorf("unknown setting %q; want depth, nodes, margin, horizon or eval", k)
		case err != nil || n > 1<<40 || k == "margin" && n > 1000:
			return lv, fmt.Errorf("%s=%s is not a number of the setting", k, v)
		}
		switch k {
		case "depth":
			lv.Depth = int(n)
		case "nodes":
			lv.Nodes = n
		case "margin":
			lv.Margin = int32(n)
		case "horizon":
			lv.Horizon = int(n)
		}
	}
	if lv.Depth == 0 && lv.Nodes == 0 {
		return lv, fmt.Errorf("engine: needs a depth or nodes, or it would think without end")
	}
	return lv, nil
}
