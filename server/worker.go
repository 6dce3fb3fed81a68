package server

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"emergo/enginework"
	"emergo/explorer"
	"emergo/lobby"
	"emergo/ratings"
	"emergo/round"
	"emergo/store"
)

// WorkerConfig configures RunWorker.
type WorkerConfig struct {
	// Store keeps the games, Jobs the queue of engine work: the
	// servers' (a PostgreSQL database that both are on).
	Store store.Store
	Jobs  enginework.Store
	// Feed, if not nil, is the servers' (Config.Feed): the worker
	// announces there every move it plays, so that the servers holding
	// its game show it at once (else at their next check), and learns
	// there of the jobs queued, which it would otherwise see at its next
	// poll.
	Feed Feed
	// Searches is how many jobs the worker runs at once, one of them
	// kept for the games' (enginework.Workers); default the number of
	// CPUs. HashMiB is the table of each, default 8.
	Searches int
	HashMiB  int
	// Lease is how long a job stays the worker's without a renewal
	// (enginework.Config): what a move waits after its worker died.
	Lease time.Duration
	// Poll is how often an idle worker asks for jobs that no
	// announcement brought (a job given back, a lease expired); default
	// a second with a Feed, else 100 ms.
	Poll   time.Duration
	Logger *slog.Logger
	Now    func() time.Time
}

// RunWorker does the engine work of the servers that share cfg.Jobs
// until ctx ends: it claims jobs, searches, and plays each engine move in
// the game as stored, version-checked as every change of a game, so that
// a move is played once however many workers race for it. The servers
// see it as any change made by another process. A search stopped by ctx
// gives its job back.
func RunWorker(ctx context.Context, cfg WorkerConfig) error {
	if cfg.Store == nil || cfg.Jobs == nil {
		return errors.New("server: a worker needs the games' store and the queue of engine work")
	}
	if cfg.Searches <= 0 {
		cfg.Searches = runtime.NumCPU()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	// A keeper of no games, which plays the engine's moves in the games
	// as stored: the games' rules, store, rating, index and feed, as a
	// server's. Its start is the zero time, so that a turn's start is
	// read as stored.
	rc := round.Config{Store: cfg.Store, Logger: cfg.Logger, Now: cfg.Now}
	rc.Ratings, _ = cfg.Store.(ratings.Store)
	rc.Explorer, _ = cfg.Store.(explorer.Store)
	rc.Lobby, _ = cfg.Store.(lobby.Store)
	if cfg.Feed != nil {
		rc.Feed, rc.Origin = cfg.Feed, newOrigin()
	}
	k, err := round.New(ctx, rc)
	if err != nil {
		return err
	}
	defer k.Close()
	if cfg.Poll <= 0 && cfg.Feed != nil {
		cfg.Poll = time.Second
	}
	q := enginework.New(cfg.Jobs, enginework.Config{Lease: cfg.Lease, Poll: cfg.Poll, Now: cfg.Now, Logger: cfg.Logger})
	var wg sync.WaitGroup
	if cfg.Feed != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work := func(c store.Change) {
				if c.Work {
					q.Wake()
				}
			}
			if err := cfg.Feed.Follow(ctx, work, func(error) { q.Wake() }); err != nil {
				cfg.Logger.Warn("the change feed does not answer: jobs are found by polling", "err", err)
			}
		}()
	}
	q.Run(ctx, enginework.Workers{N: cfg.Searches, HashMiB: cfg.HashMiB, Apply: k.ApplyStored})
	wg.Wait()
	return nil
}
