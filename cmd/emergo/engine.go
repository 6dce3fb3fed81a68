package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"emergo/engine"
	"emergo/player"
)

func init() {
	register("engine", "speak the engine protocol (docs/protocol.md) on stdin and stdout", runEngine)
}

func runEngine(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("engine", "",
		"Reads protocol commands from standard input, one per line, and writes the\n"+
			"answers to standard output (docs/protocol.md): ugi, setoption, position,\n"+
			"go, stop, query, bench, d, quit. The flags set the options' starting values.", stderr)
	hash := fs.Int("hash", 16, "transposition table size in MiB (1 to 4096)")
	threads := fs.Int("threads", 1, "search threads (1 to 64)")
	level := fs.Int("level", player.MaxLevel, fmt.Sprintf("playing level (1 to %d; %[1]d is full strength)", player.MaxLevel))
	size := fs.Int("size", 9, "board of position startpos: 9 or 7")
	seed := fs.Uint64("seed", 0, fmt.Sprintf("seed of the noise of the levels below %d (0: from the clock)", player.MaxLevel))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{"engine takes no arguments"}
	}
	// Zero would mean the default to engine.Run; the upper bounds are its
	// to check.
	for _, f := range []struct {
		name string
		v    int
	}{{"hash", *hash}, {"threads", *threads}, {"level", *level}, {"size", *size}} {
		if f.v < 1 {
			return usageError{fmt.Sprintf("-%s %d: want a positive number", f.name, f.v)}
		}
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	opts := engine.Options{HashMiB: *hash, Threads: *threads, Level: *level, Size: *size, Seed: *seed}
	return engine.Run(context.Background(), stdin, stdout, opts)
}
