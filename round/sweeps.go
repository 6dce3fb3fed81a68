package round

import (
	"context"
	"errors"
	"time"

	"emergo/game"
	"emergo/store"
)

// dueBatch bounds the games one sweep takes up.
const dueBatch = 1000

// SweepDeadlines asks the store for the games whose deadline comes
// within the sweep's horizon (Config.DeadlineSweep), correspondence
// games that may not be in memory: each is loaded, and ended on time if
// its deadline has passed, or watched by a timer until it does. Run
// every horizon, it ends a game at most a horizon late even when its
// timer was never armed in this process (a restart, another server on
// the same database).
func (k *Keeper) SweepDeadlines() {
	k.flagDue("deadline sweep", k.now().Add(k.cfg.DeadlineSweep))
}

// sweepFlags ends the games whose running side's time has run out, as
// the store says, wherever they are held: the timer of a game whose
// server is gone went with it. Of two servers racing to end a game, the
// store's version check lets one write the ending; the other reads it.
func (k *Keeper) sweepFlags() { k.flagDue("flag sweep", k.now()) }

// flagDue loads the games whose deadline is by (Store.Due) and ends on
// time those whose flag has fallen; the others get a timer. what names
// the sweep in the log.
func (k *Keeper) flagDue(what string, by time.Time) {
	ids, err := k.st.Due(k.ctx, by, dueBatch)
	if err != nil {
		if k.ctx.Err() == nil {
			k.log.Error(what, "err", err)
		}
		return
	}
	for _, id := range ids {
		lv, err := k.Load(k.ctx, id)
		if err != nil {
			k.log.Error(what, "game", id, "err", err)
			continue
		}
		lv.mu.Lock()
		k.flagIfOut(k.ctx, lv)
		lv.mu.Unlock()
	}
}

// idleEnding returns how the engine game r ends for want of its person,
// if it does now: aborted when both players have not moved within
// Config.Unstarted of its creation (which calls off no result, whoever
// is to blame: the engine's first move too may have waited), and lost by
// the person as abandoned when his turn has lasted Config.Idle. The
// times are the store's (Created, PersonTurn), not the clock's, which a
// server alone on its store restarts (Of): a game left while the site
// was down was left all the same.
func (k *Keeper) idleEnding(r *Round) (game.Ending, bool) {
	if r.Mode == Friend {
		return k.invitationEnding(r)
	}
	g, now := r.Game, k.now()
	if r.Mode != Engine || g.Over() {
		return game.Ending{}, false
	}
	if g.CanAbort() {
		return game.Ending{Termination: game.Aborted}, now.Sub(r.Created) >= k.cfg.Unstarted
	}
	side := g.Side()
	if r.Seats[side].Engine || r.PersonTurn.IsZero() {
		return game.Ending{}, false
	}
	return game.Loss(side, game.Abandoned), now.Sub(r.PersonTurn) >= k.cfg.Idle
}

// ReapIdle ends the engine games that wait on their person too long
// (idleEnding), and aborts the invitations nobody took in time
// (invitationEnding), as the store finds them (IdleEngineGames,
// ExpiredInvitations), wherever they
// are held: a game in this keeper's memory as every change of it is
// made, one that is not as stored, without loading it, as a worker
// process plays (ApplyStored). Their engine work is dropped. Of two
// servers racing to end a game, the store's version check lets one
// write the ending.
func (k *Keeper) ReapIdle() {
	now := k.now()
	ids, err := k.st.IdleEngineGames(k.ctx, now.Add(-k.cfg.Unstarted), now.Add(-k.cfg.Idle), dueBatch)
	engines := len(ids)
	if err == nil {
		var expired []string
		expired, err = k.st.ExpiredInvitations(k.ctx, now.Add(-k.cfg.InvitationExpiry), now.Add(-k.cfg.CorrespondenceExpiry), dueBatch)
		ids = append(ids, expired...)
	}
	if err != nil {
		if k.ctx.Err() == nil {
			k.log.Error("idle engine games", "err", err)
		}
		return
	}
	for i, id := range ids {
		if k.ctx.Err() != nil {
			return
		}
		ended := false
		if lv := k.held(id); lv != nil {
			lv.mu.Lock()
			ended = k.endIdle(k.ctx, lv)
			lv.mu.Unlock()
		} else {
			ended = k.endIdleStored(k.ctx, id)
		}
		if ended && i >= engines { // an invitation: no engine work
			k.metrics.InvitationsExpired.Add(1)
			continue
		}
		if ended {
			k.metrics.IdleGamesEnded.Add(1)
			if k.cfg.Work == nil {
				continue
			}
			if err := k.cfg.Work.CancelGame(k.ctx, id); err != nil && k.ctx.Err() == nil {
				k.log.Error("cancel the engine work of an ended game", "game", id, "err", err)
			}
		}
	}
}

// endIdle ends lv's game (locked) if it waits on its person too long,
// and reports whether it did.
func (k *Keeper) endIdle(ctx context.Context, lv *Live) bool {
	e, ok := k.idleEnding(lv.r)
	if !ok {
		return false
	}
	next := lv.r.Clone()
	if err := next.Game.End(e); err != nil {
		k.log.Error("end an idle game", "game", next.ID, "err", err)
		return false
	}
	if err := k.commit(ctx, lv, next); err != nil {
		if !errors.Is(err, ErrChanged) { // else changed by another server: decided at the next sweep
			k.log.Error("end an idle game", "game", next.ID, "err", err)
		}
		return false
	}
	k.log.Info("idle game ended", "game", next.ID, "ending", e)
	return true
}

// endIdleStored ends the game id as stored, not held here, if it waits
// on its person too long, and reports whether it did. The other servers
// learn it from the feed; a request of this process reading it meanwhile
// takes it in too (Heard).
func (k *Keeper) endIdleStored(ctx context.Context, id string) bool {
	g, err := k.st.Get(ctx, id)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) && ctx.Err() == nil {
			k.log.Error("end an idle game", "game", id, "err", err)
		}
		return false
	}
	r, err := k.Of(g)
	if err != nil {
		k.log.Error("stored game does not replay", "game", id, "err", err)
		return false
	}
	e, ok := k.idleEnding(r)
	if !ok {
		return false
	}
	next := r.Clone()
	if err := next.Game.End(e); err != nil {
		k.log.Error("end an idle game", "game", id, "err", err)
		return false
	}
	keep := r.Game.Len()
	sg := next.Stored(k.now())
	if _, err := k.write(ctx, r, next, sg, keep); err != nil {
		if !errors.Is(err, store.ErrConflict) {
			k.log.Error("end an idle game", "game", id, "err", err)
		}
		return false
	}
	c := changeOf(sg, keep)
	k.Publish(c)
	k.Heard(c)
	k.log.Info("idle game ended", "game", id, "ending", e)
	return true
}

// WaitsForFriend reports whether r is an invitation that waits: a friend
// game that goes on with a seat open.
func (r *Round) WaitsForFriend() bool {
	return r.Mode == Friend && !r.Game.Over() && !r.Seated()
}

// InvitationExpiry is how long the invitation r may wait before it is
// aborted.
func (k *Keeper) InvitationExpiry(r *Round) time.Duration {
	if r.Game.Control(r.Game.Side()).Correspondence() {
		return k.cfg.CorrespondenceExpiry
	}
	return k.cfg.InvitationExpiry
}

// invitationEnding returns the abort of the invitation r if it has
// waited its time, on the store's clock (Created) as an engine game's
// (idleEnding).
func (k *Keeper) invitationEnding(r *Round) (game.Ending, bool) {
	if !r.WaitsForFriend() {
		return game.Ending{}, false
	}
	return game.Ending{Termination: game.Aborted}, k.now().Sub(r.Created) >= k.InvitationExpiry(r)
}
