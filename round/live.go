package round

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"emergo/lobby"
	"emergo/store"
)

// The errors of the games on the site, beside the game package's. The
// HTTP layer gives each its status and code.
var (
	ErrNoSuchGame = errors.New("no such game")
	ErrDamaged    = errors.New("this game's record is damaged")
	ErrChanged    = errors.New("the game changed meanwhile: look again and retry")
	ErrStorage    = errors.New("the game could not be saved just now; nothing was lost, please try again")
	ErrNotPlaying = errors.New("you are not playing in this game")
	ErrStale      = errors.New("the board has changed since you looked: your move was not played")
	ErrAbsent     = errors.New("your opponent has not joined yet: send them the invite link")
	ErrSeatsTaken = errors.New("both seats are taken; you can watch")
	ErrDeclined   = errors.New("the engine declines the draw")
	ErrInvited    = errors.New("this seat is kept for the friend who was invited: only the invitation link takes it; you can watch")
	ErrNoAnalysis = errors.New("no engine analysis while the game is being played: it opens when the game ends")
)

// Live is a game held in memory: the round, the viewers waiting for
// changes and the timers. Its mutex serialises every change of the game
// in this process; the store's version check catches changes by another
// process, and the feed brings them to this one.
type Live struct {
	mu   sync.Mutex
	r    *Round
	subs map[chan<- struct{}]struct{}
	// job is the engine's move asked for (enginework), for the game's
	// version jobVersion, while the engine thinks; 0 if it does not.
	job, jobVersion int64
	timer           *time.Timer
	// used is when a request last asked for the game (Unix nanoseconds):
	// idle games are dropped from memory (see sweep).
	used atomic.Int64
	// standing is the players' ratings, rematch the last rematch offered
	// after the game (nil for none).
	standing Standing
	rematch  *lobby.Challenge
	// away is until when each seat's account is on vacation, as read at
	// the game's last change (awayOf).
	away [2]time.Time
	// upload says that the game is an uploaded record that the store
	// keeps as one (store.Uploads), opened when the store last noted its
	// opening (Unix nanoseconds, see noteOpened).
	upload bool
	opened atomic.Int64
}

// View is a game as it stands, for its pages: taken under the game's
// lock, and read without it (its Round is never changed once live).
type View struct {
	Round *Round
	// Thinking says that the engine thinks about the game's move.
	Thinking bool
	Standing Standing
	// Rematch is the last rematch offered after the game, nil for none.
	Rematch *lobby.Challenge
	// Away is until when each seat's account is on vacation, in a
	// correspondence game that goes on (zero for none), as read at the
	// game's last change: a time past is a vacation over.
	Away [2]time.Time
}

// view is lv's view. lv is locked.
func (lv *Live) view() View {
	return View{Round: lv.r, Thinking: lv.thinking(), Standing: lv.standing, Rematch: lv.rematch, Away: lv.away}
}

// View returns the game as it stands.
func (lv *Live) View() View {
	lv.mu.Lock()
	defer lv.mu.Unlock()
	return lv.view()
}

// Subscribe has wake signalled at every change of the game, until the
// returned function is called. A signal is not queued beyond wake's
// buffer: a slow viewer gets the latest state, not a backlog.
func (lv *Live) Subscribe(wake chan<- struct{}) (cancel func()) {
	lv.mu.Lock()
	lv.subs[wake] = struct{}{}
	lv.mu.Unlock()
	return func() {
		lv.mu.Lock()
		delete(lv.subs, wake)
		lv.mu.Unlock()
	}
}

// wake tells every viewer of lv (locked) that the game changed.
func (lv *Live) wake() {
	for ch := range lv.subs {
		select {
		case ch <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
}

// newLive returns the live game of r, asked for now.
func (k *Keeper) newLive(r *Round) *Live {
	lv := &Live{r: r, subs: map[chan<- struct{}]struct{}{}}
	lv.used.Store(k.now().UnixNano())
	return lv
}

// Load returns the live game id, reading it from the store if needed.
// A request asks for it: an upload is noted opened.
func (k *Keeper) Load(ctx context.Context, id string) (*Live, error) {
	lv, err := k.hold(ctx, id)
	if err == nil {
		k.noteOpened(ctx, id, lv)
	}
	return lv, err
}

// Look returns the view of the game id, reading it from the store if
// needed.
func (k *Keeper) Look(ctx context.Context, id string) (View, error) {
	lv, err := k.Load(ctx, id)
	if err != nil {
		return View{}, err
	}
	return lv.View(), nil
}

// Begin takes up the game id just created in the store: it is loaded,
// its clock watched and its engine asked for a move if it is to move.
func (k *Keeper) Begin(ctx context.Context, id string) (View, error) {
	lv, err := k.Load(ctx, id)
	if err != nil {
		return View{}, err
	}
	lv.mu.Lock()
	defer lv.mu.Unlock()
	k.afterChange(lv)
	return lv.view(), nil
}

// hold returns the live game id, reading it from the store if needed.
func (k *Keeper) hold(ctx context.Context, id string) (*Live, error) {
	k.mu.Lock()
	lv := k.games[id]
	if lv == nil {
		k.startLoading(id)
	} else {
		// Marked used under the map's lock, so that the sweep, which
		// checks it there, never drops a game a request has just taken.
		lv.used.Store(k.now().UnixNano())
	}
	k.mu.Unlock()
	if lv != nil {
		return lv, nil
	}
	lv, err := k.read(ctx, id)
	k.mu.Lock()
	l := k.doneLoading(id)
	if other := k.games[id]; other != nil {
		k.mu.Unlock()
		return other, nil // loaded meanwhile by another request
	}
	if err == nil && l.deleted {
		// Deleted from the store (Forget) after it was read: not kept,
		// or it would be served for as long as it stays in memory.
		err = ErrNoSuchGame
	}
	if err != nil {
		k.mu.Unlock()
		return nil, err
	}
	k.games[id] = lv
	k.mu.Unlock()
	lv.mu.Lock()
	if l.changed {
		// Another process changed the game while it was read: read it
		// again, now that the feed's next changes find it.
		k.reload(ctx, lv)
	}
	// A deadline that passed while the game was only in the store ends
	// it now, not at the next deadline sweep.
	k.watchClock(lv)
	lv.mu.Unlock()
	return lv, nil
}

// read reads the game id from the store, as a live game.
func (k *Keeper) read(ctx context.Context, id string) (*Live, error) {
	g, err := k.st.Get(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNoSuchGame
	}
	if err != nil {
		k.log.Error("load game", "game", id, "err", err)
		return nil, ErrStorage
	}
	r, err := k.Of(g)
	if err != nil {
		k.log.Error("stored game does not replay", "game", id, "err", err)
		return nil, ErrDamaged
	}
	lv := k.newLive(r)
	lv.standing, lv.rematch = k.loadStanding(ctx, r), k.loadRematch(ctx, r)
	lv.away = k.awayOf(ctx, r)
	if r.Mode == Analysis && k.cfg.Uploads != nil {
		lv.upload = true
		k.openedAt(ctx, id, lv)
	}
	return lv, nil
}

// loading counts the requests reading a game that is not in memory yet,
// and notes a change announced meanwhile (changed), which their copy may
// have missed, or that the store deleted the game meanwhile (deleted).
type loading struct {
	readers int
	changed bool
	deleted bool
}

// startLoading notes that a request reads the game id. k.mu is locked.
func (k *Keeper) startLoading(id string) {
	l := k.loading[id]
	if l == nil {
		l = &loading{}
		k.loading[id] = l
	}
	l.readers++
}

// doneLoading notes that a request has read the game id, and returns
// what happened to it meanwhile. k.mu is locked.
func (k *Keeper) doneLoading(id string) loading {
	l := k.loading[id]
	if l.readers--; l.readers == 0 {
		delete(k.loading, id)
	}
	return *l
}

// commit stores next (the changed clone of lv.r), and makes it live once
// it is durable, and announces it with the change itself. On failure
// nothing changes.
func (k *Keeper) commit(ctx context.Context, lv *Live, next *Round) error {
	k.vacationTurn(ctx, lv.r, next)
	g := next.Stored(k.now())
	keep := min(lv.r.Game.Len(), next.Game.Len())
	if err := k.save(ctx, lv, next, g, keep); err != nil {
		if errors.Is(err, store.ErrConflict) {
			// Another process changed the game: take its version.
			if k.reload(ctx, lv) {
				k.maybeThink(lv)
			}
			return ErrChanged
		}
		k.metrics.StoreErrors.Add(1)
		k.log.Error("store update", "game", next.ID, "err", err)
		return ErrStorage
	}
	next.Version, next.PersonTurn = g.Version, g.PersonTurn
	lv.r = next
	lv.away = k.awayOf(ctx, next)
	k.afterChange(lv)
	k.Publish(changeOf(g, keep))
	return nil
}

// changeOf is the change that wrote g, keeping the first keep moves of
// the version before: g itself, but for those moves.
func changeOf(g *store.Game, keep int) store.Change {
	state := *g
	state.Moves = g.Moves[keep:]
	return store.Change{Game: g.ID, Version: g.Version, State: &state, Keep: keep}
}

// afterChange runs with lv locked after every change: it wakes the
// viewers, sets the flag timer and starts the engine if it is to move.
func (k *Keeper) afterChange(lv *Live) {
	lv.wake()
	k.watchClock(lv)
	k.maybeThink(lv)
}

// watchClock arms the timer that ends the game when the running side's
// flag falls. A correspondence deadline further away than the deadline
// sweep's horizon gets no timer, so that its game may leave memory: the
// sweep (SweepDeadlines) finds it in the store when it comes near.
func (k *Keeper) watchClock(lv *Live) {
	if lv.timer != nil {
		lv.timer.Stop()
		lv.timer = nil
	}
	deadline, ok := lv.r.Game.Deadline()
	if !ok || k.ctx.Err() != nil {
		return
	}
	wait := max(deadline.Sub(k.now()), 0)
	if wait > k.cfg.DeadlineSweep && lv.r.Game.Control(lv.r.Game.Side()).Correspondence() {
		return
	}
	lv.timer = time.AfterFunc(wait+20*time.Millisecond, func() {
		lv.mu.Lock()
		defer lv.mu.Unlock()
		if _, running := lv.r.Game.Running(); running {
			k.flagIfOut(k.ctx, lv)
		}
	})
}

// sweep drops from memory the games nobody has asked for in
// cfg.EvictAfter and that need nothing from this process: no viewer
// waiting, no engine thinking, no clock to watch. The store holds them;
// the next request loads them again. Each game is looked at under its
// own lock alone, not the map's, so that a game whose lock is held (a
// write to the store) delays no load of another.
func (k *Keeper) sweep() {
	cutoff := k.now().Add(-k.cfg.EvictAfter).UnixNano()
	type candidate struct {
		id string
		lv *Live
	}
	var old []candidate
	k.mu.Lock()
	for id, lv := range k.games {
		if lv.used.Load() <= cutoff {
			old = append(old, candidate{id, lv})
		}
	}
	k.mu.Unlock()
	var idle []candidate
	for _, c := range old {
		c.lv.mu.Lock()
		if len(c.lv.subs) == 0 && c.lv.job == 0 && c.lv.timer == nil {
			idle = append(idle, c)
		}
		c.lv.mu.Unlock()
	}
	if len(idle) == 0 {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, c := range idle {
		// Asked for meanwhile (used again), or replaced: it stays. A
		// viewer or a timer comes only after a request, which marks it
		// used.
		if k.games[c.id] == c.lv && c.lv.used.Load() <= cutoff {
			delete(k.games, c.id)
		}
	}
}

// Cached returns how many games the keeper holds in memory.
func (k *Keeper) Cached() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.games)
}

// held returns the live game id if it is in memory, else nil.
func (k *Keeper) held(id string) *Live {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.games[id]
}

// Deleted drops the games ids, which the store has deleted, from memory,
// and announces it to the other processes, which forget them too.
func (k *Keeper) Deleted(ids []string) {
	k.Forget(ids)
	for _, id := range ids {
		k.Publish(store.Change{Game: id, Deleted: true})
	}
}

// Forget drops the games ids from memory: the store has deleted them. A
// request reading one of them meanwhile does not keep it.
func (k *Keeper) Forget(ids []string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, id := range ids {
		delete(k.games, id)
		if l := k.loading[id]; l != nil {
			l.deleted = true
		}
	}
}

// NoteRematch shows the rematch c on the page of its game, if the game
// is in memory (else it is read with the game).
func (k *Keeper) NoteRematch(c *lobby.Challenge) {
	lv := k.held(c.Rematch)
	if lv == nil {
		return
	}
	lv.mu.Lock()
	lv.rematch = c
	lv.wake()
	lv.mu.Unlock()
}

// loadRematch reads the last rematch offered after the game r, if it is
// over. A failure is logged, and shows none.
func (k *Keeper) loadRematch(ctx context.Context, r *Round) *lobby.Challenge {
	if k.cfg.Lobby == nil || r.Mode != Friend || !r.Game.Over() {
		return nil
	}
	c, err := k.cfg.Lobby.RematchOf(ctx, r.ID)
	if err != nil {
		if !errors.Is(err, lobby.ErrNotFound) {
			k.log.Error("rematch", "game", r.ID, "err", err)
		}
		return nil
	}
	return c
}
