package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"emergo/enginework"
	"emergo/game"
	"emergo/notation"
	"emergo/player"
	"emergo/rules"
	"emergo/store"
)

// The engine's work reaches the engine through the queue of package
// enginework, and nowhere else: the engine's moves, its answers to draw
// offers and the analysis board's searches are jobs, which the queue
// orders (a game's first), bounds (analysis per client and in total) and
// gives to workers: this server's own (Config.EngineWorkers) and those of
// `emergo worker` processes on a shared PostgreSQL database (Config.Jobs).

// engineMoveTime caps the engine's thought per move on the server, so that
// level 10 without a clock answers in reasonable time.
const engineMoveTime = 2 * time.Second

// analysisTime caps a search of the analysis board, and the engine's
// answer to a draw offer.
const analysisTime = 5 * time.Second

// maybeThink asks for the engine's move if it is to move in lv (locked):
// a job for the game's version, which a worker plays in the game if the
// game is still at that version (applyMove here, applyStored in a worker
// process). A job asked for an earlier version is dropped.
func (s *Server) maybeThink(lv *live) {
	r := lv.r
	if lv.job != 0 {
		if lv.jobVersion == r.version {
			return // asked for already
		}
		s.dropJob(lv.job)
		lv.job = 0
	}
	g := r.game
	if g.Over() || s.ctx.Err() != nil {
		return
	}
	side := g.Side()
	if !r.seats[side].engine || len(g.Rules().Legal()) == 0 {
		return
	}
	j := &enginework.Job{Kind: enginework.Move, Game: r.id, Version: r.version, Task: enginework.TaskOf(g.Rules()),
		Client: r.client, Account: r.person().user}
	j.Task.Level, j.Task.Seed = r.level, uint64(g.Len())+uint64(r.created.UnixNano())
	j.Task.Clock = player.Clock{MoveTime: engineMoveTime}
	if _, running := g.Running(); running {
		inc := g.Control(side).Increment
		j.Task.Clock = player.Clock{Time: [2]time.Duration{g.Left(rules.White), g.Left(rules.Black)}, Inc: [2]time.Duration{inc, inc}}
	}
	if err := s.submit(s.ctx, j); err != nil {
		s.log.Error("engine move", "game", r.id, "err", err)
		return
	}
	lv.job, lv.jobVersion = j.ID, r.version
	s.bg.Add(1)
	go s.awaitMove(lv, j.ID, r.version)
	lv.wake() // viewers learn that the engine is thinking
}

// submit queues j, and announces it on the feed, from which the idle
// workers of other processes learn it at once.
func (s *Server) submit(ctx context.Context, j *enginework.Job) error {
	if err := s.work.Submit(ctx, j); err != nil {
		return err
	}
	s.publish(store.Change{Work: true})
	return nil
}

// dropJob cancels the job id in the background: nobody needs it any more.
func (s *Server) dropJob(id int64) {
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		if err := s.work.Cancel(s.ctx, id); err != nil && s.ctx.Err() == nil {
			s.log.Error("cancel engine work", "job", id, "err", err)
		}
	}()
}

// awaitMove waits for the move job id asked for at version of lv's game.
// A move played here has changed the game already; one played by a worker
// of another process is read from the store, if the feed has not brought
// it yet; a move that failed, or was dropped, leaves the game waiting,
// and its viewers learn that the engine no longer thinks.
func (s *Server) awaitMove(lv *live, id, version int64) {
	defer s.bg.Done()
	j, err := s.work.Wait(s.ctx, id)
	if err != nil {
		return // the server closes; the job stays for the workers
	}
	lv.mu.Lock()
	defer lv.mu.Unlock()
	if lv.job != id {
		return // played here, or dropped for a newer version
	}
	lv.job = 0
	if j.State == enginework.Failed {
		s.log.Error("engine move", "game", lv.r.id, "version", version, "err", j.Error)
	} else if lv.r.version == version && s.refreshed(s.ctx, lv) {
		s.maybeThink(lv)
		return
	}
	lv.wake()
}

// thinking reports whether the engine thinks about lv's game (locked): a
// move asked for its version. (A move asked for an earlier one is being
// dropped, or was played by another process and read here.)
func (lv *live) thinking() bool { return lv.job != 0 && lv.jobVersion == lv.r.version }

// applyMove plays the engine's move of job j in its game, held in this
// server's memory: the Apply of the server's own workers.
func (s *Server) applyMove(ctx context.Context, j *enginework.Job, text string) error {
	lv, err := s.load(ctx, j.Game)
	if errors.Is(err, errNoSuchGame) {
		return enginework.ErrStale
	}
	if err != nil {
		return err
	}
	lv.mu.Lock()
	defer lv.mu.Unlock()
	if lv.r.version < j.Version {
		s.refreshed(ctx, lv) // changed by another process meanwhile
	}
	r := lv.r
	if r.version != j.Version {
		return enginework.ErrStale
	}
	side := r.game.Side()
	m, err := engineMoveIn(r, text)
	if err != nil {
		return err
	}
	ours := lv.job == j.ID
	if ours {
		lv.job = 0 // the engine no longer thinks once the move is in
	}
	err = s.play(ctx, lv, side, m)
	switch {
	case err == nil:
		s.metrics.engineMoves.Add(1)
		return nil
	case errors.Is(err, errStorage):
		if ours && lv.r.version == j.Version {
			lv.job = j.ID // to be tried again
		}
		return err
	}
	// The game changed in the store (errChanged), or the engine's time
	// ran out (the flag has fallen, and viewers know it).
	return fmt.Errorf("%w: %v", enginework.ErrStale, err)
}

// applyStored plays the engine's move of job j in its game as stored,
// version-checked as every change of a game, and announces it on the
// feed: the Apply of a worker process (RunWorker), which holds no games.
// A move on a clock that ran out makes the flag fall instead, once.
func (s *Server) applyStored(ctx context.Context, j *enginework.Job, text string) error {
	g, err := s.st.Get(ctx, j.Game)
	if errors.Is(err, store.ErrNotFound) {
		return enginework.ErrStale
	}
	if err != nil {
		return err
	}
	if g.Version != j.Version {
		return enginework.ErrStale
	}
	r, err := s.roundOf(g)
	if err != nil {
		return fmt.Errorf("%w: game %s does not replay: %v", enginework.ErrStale, j.Game, err)
	}
	m, err := engineMoveIn(r, text)
	if err != nil {
		return err
	}
	lv := &live{r: r} // nobody's: no viewers, no timers
	next := r.clone()
	err = next.game.Play(r.game.Side(), m)
	if errors.Is(err, game.ErrTimeOut) {
		if next = r.clone(); !next.game.Flag() {
			return enginework.ErrStale
		}
		err = nil
	}
	if err != nil {
		return fmt.Errorf("%w: %v", enginework.ErrStale, err)
	}
	sg := next.stored(s.now())
	err = s.save(ctx, lv, next, sg, r.game.Len())
	if errors.Is(err, store.ErrConflict) {
		return enginework.ErrStale
	}
	if err != nil {
		return err
	}
	s.publish(store.Change{Game: j.Game, Version: sg.Version})
	return nil
}

// engineMoveIn reads the move text of the engine in r, at the version of
// its job: ErrStale if it is not the engine's turn, or the move is not
// legal (it cannot be, since the job's position is r's).
func engineMoveIn(r *round, text string) (rules.Move, error) {
	if r.game.Over() || !r.seats[r.game.Side()].engine {
		return rules.Move{}, enginework.ErrStale
	}
	p := r.game.Rules().Position()
	m, err := notation.ParseMove(&p, text)
	if err != nil {
		return rules.Move{}, fmt.Errorf("%w: the engine's move %q in game %s: %v", enginework.ErrStale, text, r.id, err)
	}
	return m, nil
}

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
	if err := s.submit(ctx, j); err != nil {
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
