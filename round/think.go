package round

import (
	"context"
	"errors"
	"fmt"
	"time"

	"emergo/enginework"
	"emergo/game"
	"emergo/notation"
	"emergo/rules"
	"emergo/store"
)

// The engine's moves reach a game through the queue of engine work
// (Config.Work): a job for the game's version, which a worker plays in
// the game if it is still at that version (ApplyMove in the process
// holding the game, ApplyStored in a worker process).

// engineMoveTime caps the engine's thought per move on the site, so that
// level 10 without a clock answers in reasonable time.
const engineMoveTime = 2 * time.Second

// maybeThink asks for the engine's move if it is to move in lv (locked).
// A job asked for an earlier version is dropped.
func (k *Keeper) maybeThink(lv *Live) {
	r := lv.r
	if k.cfg.Work == nil {
		return // a worker process: its moves are played as stored
	}
	if lv.job != 0 {
		if lv.jobVersion == r.Version {
			return // asked for already
		}
		k.dropJob(lv.job)
		lv.job = 0
	}
	g := r.Game
	if g.Over() || k.ctx.Err() != nil {
		return
	}
	side := g.Side()
	if !r.Seats[side].Engine || len(g.Rules().Legal()) == 0 {
		return
	}
	j := &enginework.Job{Kind: enginework.Move, Game: r.ID, Version: r.Version, Task: enginework.TaskOf(g.Rules()),
		Client: r.Client, Account: r.Person().User}
	j.Task.Level, j.Task.Seed = r.Level, uint64(g.Len())+uint64(r.Created.UnixNano())
	if _, running := g.Running(); running {
		inc := g.Control(side).Increment
		j.Task.Clock.Time = [2]time.Duration{g.Left(rules.White), g.Left(rules.Black)}
		j.Task.Clock.Inc = [2]time.Duration{inc, inc}
	} else {
		j.Task.Clock.MoveTime = engineMoveTime
	}
	if err := k.Submit(k.ctx, j); err != nil {
		k.log.Error("engine move", "game", r.ID, "err", err)
		return
	}
	lv.job, lv.jobVersion = j.ID, r.Version
	k.bg.Add(1)
	go k.awaitMove(lv, j.ID, r.Version)
	lv.wake() // viewers learn that the engine is thinking
}

// Submit queues j, and announces it on the feed, from which the idle
// workers of other processes learn it at once.
func (k *Keeper) Submit(ctx context.Context, j *enginework.Job) error {
	if err := k.cfg.Work.Submit(ctx, j); err != nil {
		return err
	}
	k.Publish(store.Change{Work: true})
	return nil
}

// dropJob cancels the job id in the background: nobody needs it any more.
func (k *Keeper) dropJob(id int64) {
	if k.ctx.Err() != nil {
		return // closing: Close waits for no more goroutines
	}
	k.bg.Add(1)
	go func() {
		defer k.bg.Done()
		if err := k.cfg.Work.Cancel(k.ctx, id); err != nil && k.ctx.Err() == nil {
			k.log.Error("cancel engine work", "job", id, "err", err)
		}
	}()
}

// awaitMove waits for the move job id asked for at version of lv's game.
// A move played here has changed the game already; one played by a worker
// of another process is read from the store, if the feed has not brought
// it yet; a move that failed, or was dropped, leaves the game waiting,
// and its viewers learn that the engine no longer thinks.
func (k *Keeper) awaitMove(lv *Live, id, version int64) {
	defer k.bg.Done()
	j, err := k.cfg.Work.Wait(k.ctx, id)
	if err != nil {
		return // the keeper closes; the job stays for the workers
	}
	lv.mu.Lock()
	defer lv.mu.Unlock()
	if lv.job != id {
		return // played here, or dropped for a newer version
	}
	lv.job = 0
	if j.State == enginework.Failed {
		k.log.Error("engine move", "game", lv.r.ID, "version", version, "err", j.Error)
	} else if lv.r.Version == version && k.refreshed(k.ctx, lv) {
		k.maybeThink(lv)
		return
	}
	lv.wake()
}

// thinking reports whether the engine thinks about lv's game (locked): a
// move asked for its version. (A move asked for an earlier one is being
// dropped, or was played by another process and read here.)
func (lv *Live) thinking() bool { return lv.job != 0 && lv.jobVersion == lv.r.Version }

// ApplyMove plays the engine's move of job j in its game, held in this
// process's memory: the Apply of a server's own workers.
func (k *Keeper) ApplyMove(ctx context.Context, j *enginework.Job, text string) error {
	lv, err := k.Load(ctx, j.Game)
	if errors.Is(err, ErrNoSuchGame) {
		return enginework.ErrStale
	}
	if err != nil {
		return err
	}
	lv.mu.Lock()
	defer lv.mu.Unlock()
	if lv.r.Version < j.Version {
		k.refreshed(ctx, lv) // changed by another process meanwhile
	}
	r := lv.r
	if r.Version != j.Version {
		return enginework.ErrStale
	}
	side := r.Game.Side()
	m, err := engineMoveIn(r, text)
	if err != nil {
		return err
	}
	ours := lv.job == j.ID
	if ours {
		lv.job = 0 // the engine no longer thinks once the move is in
	}
	err = k.play(ctx, lv, side, m)
	switch {
	case err == nil:
		k.metrics.EngineMoves.Add(1)
		return nil
	case errors.Is(err, ErrStorage):
		if ours && lv.r.Version == j.Version {
			lv.job = j.ID // to be tried again
		}
		return err
	}
	// The game changed in the store (ErrChanged), or the engine's time
	// ran out (the flag has fallen, and viewers know it).
	return fmt.Errorf("%w: %v", enginework.ErrStale, err)
}

// ApplyStored plays the engine's move of job j in its game as stored,
// version-checked as every change of a game, and announces it on the
// feed: the Apply of a worker process, which holds no games. A move on a
// clock that ran out makes the flag fall instead, once.
func (k *Keeper) ApplyStored(ctx context.Context, j *enginework.Job, text string) error {
	g, err := k.st.Get(ctx, j.Game)
	if errors.Is(err, store.ErrNotFound) {
		return enginework.ErrStale
	}
	if err != nil {
		return err
	}
	if g.Version != j.Version {
		return enginework.ErrStale
	}
	r, err := k.Of(g)
	if err != nil {
		return fmt.Errorf("%w: game %s does not replay: %v", enginework.ErrStale, j.Game, err)
	}
	m, err := engineMoveIn(r, text)
	if err != nil {
		return err
	}
	next := r.Clone()
	err = next.Game.Play(r.Game.Side(), m)
	if errors.Is(err, game.ErrTimeOut) {
		if next = r.Clone(); !next.Game.Flag() {
			return enginework.ErrStale
		}
		err = nil
	}
	if err != nil {
		return fmt.Errorf("%w: %v", enginework.ErrStale, err)
	}
	keep := r.Game.Len()
	sg := next.Stored(k.now())
	_, err = k.write(ctx, r, next, sg, keep)
	if errors.Is(err, store.ErrConflict) {
		return enginework.ErrStale
	}
	if err != nil {
		return err
	}
	k.Publish(changeOf(sg, keep))
	return nil
}

// engineMoveIn reads the move text of the engine in r, at the version of
// its job: ErrStale if it is not the engine's turn, or the move is not
// legal (it cannot be, since the job's position is r's).
func engineMoveIn(r *Round, text string) (rules.Move, error) {
	if r.Game.Over() || !r.Seats[r.Game.Side()].Engine {
		return rules.Move{}, enginework.ErrStale
	}
	p := r.Game.Rules().Position()
	m, err := notation.ParseMove(&p, text)
	if err != nil {
		return rules.Move{}, fmt.Errorf("%w: the engine's move %q in game %s: %v", enginework.ErrStale, text, r.ID, err)
	}
	return m, nil
}
