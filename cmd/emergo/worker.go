package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"emergo/server"
)

func init() {
	register("worker", "do the engine's work of servers on a shared PostgreSQL", runWorker)
}

func runWorker(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("worker", "",
		"Does the engine's work of the Emergo servers that share a PostgreSQL\n"+
			"database (emergo serve -postgres): it claims jobs from their queue (the\n"+
			"engine's moves in games and its answers to draw offers first, then the\n"+
			"analysis board's searches), searches, and plays each move in its game,\n"+
			"which the servers then show. Run as many as the load needs, on any\n"+
			"machine that reaches the database; a move is played once however many\n"+
			"race for it, and the job of a worker that dies goes to another when its\n"+
			"lease expires. Ctrl-C (SIGINT) or SIGTERM stops the worker: a search under\n"+
			"way goes back to the queue at once.", stderr)
	pg := fs.String("postgres", "", "PostgreSQL connection URL of the servers' database (default $EMERGO_POSTGRES)")
	threads := fs.Int("threads", 0, "searches at once, one of them kept for engine moves (default: one per CPU)")
	lease := fs.Duration("lease", 10*time.Second, "how long a job stays this worker's between renewals: what a move waits when its worker dies")
	verbose := fs.Bool("v", false, "log more")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	postgres := *pg
	if postgres == "" {
		postgres = os.Getenv("EMERGO_POSTGRES")
	}
	switch {
	case postgres == "":
		return usageError{"worker needs -postgres (or $EMERGO_POSTGRES): the database of the servers it works for"}
	case *threads < 0:
		return usageError{fmt.Sprintf("-threads %d: give a count of searches", *threads)}
	case *lease < time.Second:
		return usageError{fmt.Sprintf("-lease %v: give a second or more", *lease)}
	}
	n := *threads
	if n == 0 {
		n = runtime.NumCPU()
	}
	log := serviceLog(stderr, *verbose)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, _, err := openStore(ctx, "", postgres)
	if err != nil {
		return err
	}
	defer st.Close()
	feed, err := st.Feed(ctx) // where the servers learn the moves played
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	log.Info("working", "searches", n, "lease", *lease)
	fmt.Fprintf(stdout, "Emergo worker is ready: %d searches\n", n)
	err = server.RunWorker(ctx, server.WorkerConfig{Store: st, Jobs: st, Feed: feed, Searches: n, Lease: *lease, Logger: log})
	log.Info("stopped")
	return err
}
