package main

import (
	"fmt"
	"io"
	"strconv"

	"emergo/player"
)

func init() {
	register("bench", "search the fixed bench positions and print nodes, time and nodes/s", runBench)
}

func runBench(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("bench", "[DEPTH]",
		fmt.Sprintf("Searches each of the fixed bench positions to DEPTH (default %d) on a\n"+
			"fresh table and prints the total nodes, the time and the nodes per second.\n"+
			"With the default flags the node count is the build's signature: it changes\n"+
			"exactly when the search or the evaluation does.", player.BenchDepth), stderr)
	hash := fs.Int("hash", 16, "transposition table size in MiB")
	threads := fs.Int("threads", 1, "search threads (more than 1 makes the node count vary)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	depth := player.BenchDepth
	switch fs.NArg() {
	case 0:
	case 1:
		d, err := strconv.Atoi(fs.Arg(0))
		if err != nil || d < 1 {
			return usageError{fmt.Sprintf("depth %q: want a number from 1 to %d", fs.Arg(0), maxSearchDepth)}
		}
		if d > maxSearchDepth {
			return tooDeep("depth", d)
		}
		depth = d
	default:
		return usageError{"bench takes at most one DEPTH argument"}
	}
	if *hash < 1 || *hash > 4096 {
		return usageError{fmt.Sprintf("-hash %d: want 1 to 4096 MiB", *hash)}
	}
	if *threads < 1 || *threads > 64 {
		return usageError{fmt.Sprintf("-threads %d: want 1 to 64", *threads)}
	}
	e := player.NewSearcher(player.SearchOptions{HashMiB: *hash, Threads: *threads})
	nodes, el := e.Bench(depth)
	rate := uint64(0)
	if el > 0 {
		rate = uint64(float64(nodes) / el.Seconds())
	}
	fmt.Fprintf(stdout, "positions %d\ndepth %d\nnodes %d\ntime %d ms\nnps %d\n",
		len(player.BenchPositions()), depth, nodes, el.Milliseconds(), rate)
	return nil
}
