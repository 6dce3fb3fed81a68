package round

import (
	"context"
	"errors"

	"emergo/explorer"
	"emergo/game"
	"emergo/rating"
	"emergo/ratings"
	"emergo/rules"
	"emergo/store"
)

// Standing is what a live game shows of its players' ratings: each
// account's rating in the game's pool as it stood when the game was
// loaded, and once a rated game is over what it did to them.
type Standing struct {
	Ratings [2]*rating.Rating // nil for a guest, the engine, or a game of no pool
	Changes []ratings.Change  // White's and Black's, once rated
}

// loadStanding reads the players' ratings of the game r, and what it did
// to them if it was rated, for the game's page. A failure leaves them
// out of the page, and is logged.
func (k *Keeper) loadStanding(ctx context.Context, r *Round) Standing {
	var st Standing
	pool, ok := r.Pool()
	if k.cfg.Ratings == nil || !ok {
		return st
	}
	for c, seat := range r.Seats {
		if seat.User == 0 {
			continue
		}
		entries, err := k.cfg.Ratings.Ratings(ctx, seat.User)
		if err != nil {
			k.log.Error("ratings", "game", r.ID, "user", seat.User, "err", err)
			return Standing{}
		}
		rt := ratings.Of(entries, pool)
		st.Ratings[c] = &rt
	}
	if r.Rated && r.Game.Over() {
		changes, err := k.cfg.Ratings.Changes(ctx, r.ID)
		if err != nil {
			k.log.Error("rating changes", "game", r.ID, "err", err)
		}
		if len(changes) == 2 {
			st.Changes = changes
		}
	}
	return st
}

// toRate returns the rating of the game that next, the round after a
// change of cur, ends: a rated game between two accounts ended with a
// result (an aborted game is not rated). It reports false for every other
// change.
func (k *Keeper) toRate(cur, next *Round) (ratings.Game, bool) {
	pool, ok := next.Pool()
	e := next.Game.Ending()
	if k.cfg.Ratings == nil || !next.Rated || !ok || cur.Game.Over() || !e.Over() || e.Termination == game.Aborted {
		return ratings.Game{}, false
	}
	users := [2]int64{next.Seats[0].User, next.Seats[1].User}
	if users[0] == 0 || users[1] == 0 || users[0] == users[1] {
		k.log.Error("a rated game without two accounts is not rated", "game", next.ID)
		return ratings.Game{}, false
	}
	var score float64
	switch e.Result {
	case rules.WhiteWins:
		score = 1
	case rules.Draw:
		score = 0.5
	case rules.BlackWins:
		score = 0
	default:
		return ratings.Game{}, false
	}
	return ratings.Game{ID: next.ID, Pool: pool, Users: users, Score: score, End: k.now()}, true
}

// write writes next, the changed round of cur, as g, keeping the first
// keep moves of cur: with the game's rating in the same transaction
// when the change ends a rated game (ratings.Finish), else as any
// change (store.Store's Update). A game it ends goes into the explorer's
// index after. It returns the rating's changes, if it rated the game.
func (k *Keeper) write(ctx context.Context, cur, next *Round, g *store.Game, keep int) ([]ratings.Change, error) {
	changes, err := k.writeGame(ctx, cur, next, g, keep)
	if err != nil {
		return nil, err
	}
	if !cur.Game.Over() && next.Game.Over() {
		k.indexGame(ctx, g)
	}
	k.notify(ctx, cur, next)
	return changes, nil
}

// notify tells the Notifier of the change from cur to next, just
// written, if it is a move or the end of a correspondence game (not an
// abort: a game that never began has nothing to tell).
func (k *Keeper) notify(ctx context.Context, cur, next *Round) {
	n := k.cfg.Notifier
	side := next.Game.Side()
	if n == nil || !next.Game.Control(side).Correspondence() {
		return
	}
	ctx = context.WithoutCancel(ctx)
	switch {
	case next.Game.Over() && !cur.Game.Over() && next.Game.Ending().Termination != game.Aborted:
		n.GameOver(ctx, next.ID, [2]int64{next.Seats[0].User, next.Seats[1].User})
	case !next.Game.Over() && next.Game.Len() > cur.Game.Len() && next.Seats[side].User != 0:
		n.YourTurn(ctx, next.ID, next.Seats[side].User, next.Seats[side.Other()].User)
	}
}

// save is write for lv's game (locked), whose standing takes the
// rating's changes.
func (k *Keeper) save(ctx context.Context, lv *Live, next *Round, g *store.Game, keep int) error {
	changes, err := k.write(ctx, lv.r, next, g, keep)
	if changes != nil {
		lv.standing.Changes = changes
	}
	return err
}

// writeGame is write's write of the game, and of its rating if it is
// rated.
func (k *Keeper) writeGame(ctx context.Context, cur, next *Round, g *store.Game, keep int) ([]ratings.Change, error) {
	rg, ok := k.toRate(cur, next)
	if !ok {
		return nil, k.st.Update(ctx, g, keep)
	}
	changes, err := ratings.Finish(ctx, k.cfg.Ratings, g, keep, rg)
	if errors.Is(err, ratings.ErrRated) {
		// Rated by another process, which wrote the game's end too.
		return nil, store.ErrConflict
	}
	if err != nil {
		return nil, err
	}
	k.log.Info("game rated", "game", next.ID, "white", changes[0].After, "black", changes[1].After)
	return changes[:], nil
}

// indexGame adds g, a game that has just ended, to the explorer's index.
// A failure is logged: the game ended all the same, and the next start's
// backfill indexes it.
func (k *Keeper) indexGame(ctx context.Context, g *store.Game) {
	if k.cfg.Explorer == nil {
		return
	}
	if err := explorer.Index(context.WithoutCancel(ctx), k.cfg.Explorer, g); err != nil {
		k.log.Error("explorer index", "game", g.ID, "err", err)
	}
}
