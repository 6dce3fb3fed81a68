package server

import (
	"context"
	"fmt"
	"time"

	"emergo/enginework"
	"emergo/rules"
)

// The engine's work reaches the engine through the queue of package
// enginework, and nowhere else: the engine's moves, its answers to draw
// offers and the analysis board's searches are jobs, which the queue
// orders (a game's first), bounds (analysis per client and in total) and
// gives to workers: this server's own (Config.EngineWorkers) and those of
// `emergo worker` processes on a shared PostgreSQL database (Config.Jobs).

// analysisTime caps a search of the analysis board, and the engine's
// answer to a draw offer.
const analysisTime = 5 * time.Second

// asker is who asks for an analysis: the client's address and its
// account (0 for a guest), which the queue's limits count.
type asker struct {
	addr string
	user int64
}

// analyse searches the current position of rg to depth, or for at most
// analysisTime, for the analysis board when who asks: after the games'
// work, within the limits. If ctx ends first the job is dropped.
func (s *Server) analyse(ctx context.Context, rg *rules.Game, depth int, who *asker) (enginework.Result, error) {
	return s.search(ctx, &enginework.Job{Kind: enginework.Analysis, Client: who.addr, Account: who.user}, rg, depth)
}

// search queues j (its kind and whose it is), a search of the current
// position of rg to depth or for at most analysisTime, and waits for its
// result; if ctx ends first the job is dropped.
func (s *Server) search(ctx context.Context, j *enginework.Job, rg *rules.Game, depth int) (enginework.Result, error) {
	j.Task = enginework.TaskOf(rg)
	j.Task.Depth, j.Task.MoveTime = depth, analysisTime
	if err := s.rounds.Submit(ctx, j); err != nil {
		return enginework.Result{}, err
	}
	done, err := s.work.Wait(ctx, j.ID)
	if err != nil {
		s.work.Cancel(context.WithoutCancel(ctx), j.ID)
		return enginework.Result{}, err
	}
	if done.State != enginework.Done {
		return enginework.Result{}, fmt.Errorf("search %s: %s", done.State, done.Error)
	}
	return done.Result, nil
}
