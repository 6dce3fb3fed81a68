package round

import (
	"context"

	"emergo/store"
)

// Heard takes in c, a change of a game committed elsewhere than in this
// keeper's memory: by another process (announced on the feed), or by
// this one in the store alone (endIdleStored). A game held in memory
// takes it in a goroutine of its own (the feed must not wait), and its
// viewers are woken: a game held at the version before the change
// applies it, as the change carries it, without reading the store; one
// further behind, or a change that does not carry the game, reads the
// game back. A game being loaded meanwhile is marked, to be read again
// once loaded.
func (k *Keeper) Heard(c store.Change) {
	if c.Game == "" || k.ctx.Err() != nil {
		return
	}
	if c.Deleted {
		k.Forget([]string{c.Game})
		return
	}
	k.mu.Lock()
	lv := k.games[c.Game]
	if lv == nil {
		if l := k.loading[c.Game]; l != nil {
			l.changed = true
		}
	}
	k.mu.Unlock()
	if lv == nil {
		return
	}
	k.bg.Add(1)
	go func() {
		defer k.bg.Done()
		lv.mu.Lock()
		defer lv.mu.Unlock()
		switch {
		case c.Version == 0:
			lv.rematch = k.loadRematch(k.ctx, lv.r)
			lv.wake()
		case c.Version == lv.r.Version+1 && c.State != nil && k.apply(k.ctx, lv, c):
		case c.Version > lv.r.Version:
			k.reload(k.ctx, lv)
		}
	}()
}

// apply makes c, the change that follows lv's game (locked) as it is
// held, the game's, and reports whether it could: the game stored is
// the held one's first c.Keep moves and the rest of c.State.
func (k *Keeper) apply(ctx context.Context, lv *Live, c store.Change) bool {
	cur := lv.r
	if c.Keep < 0 || c.Keep > cur.Game.Len() || c.State.ID != cur.ID {
		return false
	}
	g := *c.State
	g.Moves = append(cur.storedMoves(c.Keep), c.State.Moves...)
	r, err := k.Of(&g)
	if err != nil {
		k.log.Error("a change of the feed does not replay", "game", cur.ID, "version", c.Version, "err", err)
		return false
	}
	k.take(ctx, lv, r)
	k.metrics.FeedApplied.Add(1)
	return true
}

// storedMoves returns the first n moves of r as the store keeps them.
func (r *Round) storedMoves(n int) []store.Move {
	st := r.Game.State()
	moves := make([]store.Move, n, n+1)
	for i := range moves {
		moves[i] = store.Move{Text: st.Moves[i], At: st.Stamps[i].At, TimeLeft: st.Stamps[i].Left}
	}
	return moves
}

// take makes r, the game as another process left it, lv's (locked), and
// wakes its viewers. The players' ratings are read again when the game
// has just ended, its rematch whenever it is over.
func (k *Keeper) take(ctx context.Context, lv *Live, r *Round) {
	if r.Game.Over() {
		if !lv.r.Game.Over() {
			lv.standing = k.loadStanding(ctx, r)
		}
		lv.rematch = k.loadRematch(ctx, r)
	}
	lv.r = r
	lv.away = k.awayOf(ctx, r)
	lv.wake()
	k.watchClock(lv)
}

// Lost reads again every game held whose stored version is newer, in the
// background: the feed says that changes may have been lost to this
// process.
func (k *Keeper) Lost() {
	if k.ctx.Err() != nil {
		return
	}
	k.bg.Add(1)
	go func() {
		defer k.bg.Done()
		k.refreshAll()
	}()
}

// refreshAll reads again every game held whose stored version is newer,
// and forgets those the store no longer has (deleted by another process,
// whose announcement was lost).
func (k *Keeper) refreshAll() {
	k.mu.Lock()
	held := make(map[string]*Live, len(k.games))
	ids := make([]string, 0, len(k.games))
	for id, lv := range k.games {
		held[id] = lv
		ids = append(ids, id)
	}
	k.mu.Unlock()
	if len(ids) == 0 {
		return
	}
	versions, err := k.st.Versions(k.ctx, ids)
	if err != nil {
		if k.ctx.Err() == nil {
			k.log.Error("check the games held", "err", err)
		}
		return
	}
	var gone []string
	for id, lv := range held {
		v, ok := versions[id]
		if !ok {
			gone = append(gone, id)
			continue
		}
		lv.mu.Lock()
		if v > lv.r.Version {
			k.reload(k.ctx, lv)
		}
		lv.mu.Unlock()
	}
	if len(gone) > 0 {
		k.Forget(gone)
	}
}

// reload reads lv's game (locked) again from the store, after another
// process changed it, and wakes its viewers; it reports whether it could
// (a failure is logged, and leaves lv as it was).
func (k *Keeper) reload(ctx context.Context, lv *Live) bool {
	g, err := k.st.Get(ctx, lv.r.ID)
	if err != nil {
		if ctx.Err() == nil {
			k.log.Error("read a game again", "game", lv.r.ID, "err", err)
		}
		return false
	}
	r, err := k.Of(g)
	if err != nil {
		k.log.Error("stored game does not replay", "game", lv.r.ID, "err", err)
		return false
	}
	k.take(ctx, lv, r)
	k.metrics.FeedReloads.Add(1)
	return true
}

// refreshed reads lv's game (locked) again if the store has a newer
// version, and reports whether it did: an action refused on this
// process's copy is decided again on the fresh one.
func (k *Keeper) refreshed(ctx context.Context, lv *Live) bool {
	versions, err := k.st.Versions(ctx, []string{lv.r.ID})
	if err != nil || versions[lv.r.ID] <= lv.r.Version {
		return false
	}
	return k.reload(ctx, lv)
}
