package server

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"emergo/enginework"
	"emergo/game"
	"emergo/lobby"
	"emergo/notation"
	"emergo/rules"
	"emergo/store"
)

// The errors of the games on the site, beside the game package's. The
// HTTP layer gives each its status (httpError).
var (
	errNoSuchGame = errors.New("no such game")
	errDamaged    = errors.New("this game's record is damaged")
	errChanged    = errors.New("the game changed meanwhile: look again and retry")
	errStorage    = errors.New("the game could not be saved just now; nothing was lost, please try again")
	errNotPlaying = errors.New("you are not playing in this game")
	errStale      = errors.New("the board has changed since you looked: your move was not played")
	errAbsent     = errors.New("your opponent has not joined yet: send them the invite link")
	errSeatsTaken = errors.New("both seats are taken; you can watch")
	errDeclined   = errors.New("the engine declines the draw")
	errInvited    = errors.New("this seat is kept for the friend who was invited: only the invitation link takes it; you can watch")
	errNoAnalysis = errors.New("no engine analysis while the game is being played: it opens when the game ends")
)

// live is a game held in memory: the round, the viewers waiting for
// changes and the timers. Its mutex serialises every change of the game
// in this process; the store's version check catches changes by another
// process, and the feed (Config.Feed) brings them to this one.
type live struct {
	mu   sync.Mutex
	r    *round
	subs map[chan struct{}]struct{}
	// job is the engine's move asked for (enginework), for the game's
	// version jobVersion, while the engine thinks; 0 if it does not.
	job, jobVersion int64
	timer           *time.Timer
	// used is when a request last asked for the game (Unix nanoseconds):
	// idle games are dropped from memory (see sweep).
	used atomic.Int64
	// standing is the players' ratings, rematch the last rematch offered
	// after the game (nil for none).
	standing standing
	rematch  *lobby.Challenge
	// upload says that the game is an uploaded record that the store
	// keeps as one (store.Uploads), opened when the store last noted its
	// opening (Unix nanoseconds, see noteOpened).
	upload bool
	opened atomic.Int64
}

// load returns the live game id, reading it from the store if needed.
// A request asks for it: an upload is opened (noteOpened).
func (s *Server) load(ctx context.Context, id string) (*live, error) {
	lv, err := s.hold(ctx, id)
	if err == nil {
		s.noteOpened(ctx, id, lv)
	}
	return lv, err
}

// hold returns the live game id, reading it from the store if needed.
func (s *Server) hold(ctx context.Context, id string) (*live, error) {
	s.mu.Lock()
	lv := s.games[id]
	if lv == nil {
		s.startLoading(id)
	}
	s.mu.Unlock()
	if lv != nil {
		lv.used.Store(s.now().UnixNano())
		return lv, nil
	}
	lv, err := s.read(ctx, id)
	s.mu.Lock()
	changed := s.doneLoading(id)
	if other := s.games[id]; other != nil {
		s.mu.Unlock()
		return other, nil // loaded meanwhile by another request
	}
	if err != nil {
		s.mu.Unlock()
		return nil, err
	}
	s.games[id] = lv
	s.mu.Unlock()
	lv.mu.Lock()
	if changed {
		// Another server changed the game while it was read: read it
		// again, now that the feed's next changes find it.
		s.reload(ctx, lv)
	}
	// A deadline that passed while the game was only in the store ends
	// it now, not at the next deadline sweep.
	s.watchClock(lv)
	lv.mu.Unlock()
	return lv, nil
}

// read reads the game id from the store, as a live game.
func (s *Server) read(ctx context.Context, id string) (*live, error) {
	g, err := s.st.Get(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errNoSuchGame
	}
	if err != nil {
		s.log.Error("load game", "game", id, "err", err)
		return nil, errStorage
	}
	r, err := s.roundOf(g)
	if err != nil {
		s.log.Error("stored game does not replay", "game", id, "err", err)
		return nil, errDamaged
	}
	lv := &live{r: r, subs: map[chan struct{}]struct{}{}, standing: s.loadStanding(ctx, r), rematch: s.loadRematch(ctx, r)}
	lv.used.Store(s.now().UnixNano())
	if r.mode == analysisGame && s.uploads != nil {
		lv.upload = true
		s.openedAt(ctx, id, lv)
	}
	return lv, nil
}

// loading counts the requests reading a game that is not in memory yet,
// and notes a change announced meanwhile (changed), which their copy may
// have missed.
type loading struct {
	readers int
	changed bool
}

// startLoading notes that a request reads the game id. s.mu is locked.
func (s *Server) startLoading(id string) {
	l := s.loading[id]
	if l == nil {
		l = &loading{}
		s.loading[id] = l
	}
	l.readers++
}

// doneLoading notes that a request has read the game id, and reports
// whether a change was announced meanwhile. s.mu is locked.
func (s *Server) doneLoading(id string) bool {
	l := s.loading[id]
	if l.readers--; l.readers == 0 {
		delete(s.loading, id)
	}
	return l.changed
}

// commit stores next (the changed clone of lv.r), and makes it live once
// it is durable. On failure nothing changes.
func (s *Server) commit(ctx context.Context, lv *live, next *round) error {
	g := next.stored(s.now())
	keep := min(lv.r.game.Len(), next.game.Len())
	if err := s.save(ctx, lv, next, g, keep); err != nil {
		if errors.Is(err, store.ErrConflict) {
			// Another process changed the game: take its version.
			if s.reload(ctx, lv) {
				s.maybeThink(lv)
			}
			return errChanged
		}
		s.metrics.storeErrors.Add(1)
		s.log.Error("store update", "game", next.id, "err", err)
		return errStorage
	}
	next.version, next.personTurn = g.Version, g.PersonTurn
	lv.r = next
	s.afterChange(lv)
	s.publish(store.Change{Game: next.id, Version: next.version})
	return nil
}

// afterChange runs with lv locked after every change: it wakes the
// viewers, sets the flag timer and starts the engine if it is to move.
func (s *Server) afterChange(lv *live) {
	lv.wake()
	s.watchClock(lv)
	s.maybeThink(lv)
}

// watchClock arms the timer that ends the game when the running side's
// flag falls. A correspondence deadline further away than the deadline
// sweep's horizon gets no timer, so that its game may leave memory: the
// sweep (sweepDeadlines) finds it in the store when it comes near.
func (s *Server) watchClock(lv *live) {
	if lv.timer != nil {
		lv.timer.Stop()
		lv.timer = nil
	}
	deadline, ok := lv.r.game.Deadline()
	if !ok || s.ctx.Err() != nil {
		return
	}
	wait := max(deadline.Sub(s.now()), 0)
	if wait > s.cfg.DeadlineSweep && lv.r.game.Control(lv.r.game.Side()).Correspondence() {
		return
	}
	lv.timer = time.AfterFunc(wait+20*time.Millisecond, func() {
		lv.mu.Lock()
		defer lv.mu.Unlock()
		if _, running := lv.r.game.Running(); running {
			s.flagIfOut(s.ctx, lv)
		}
	})
}

// flagIfOut ends the game on time if the flag of the side to move has
// fallen. It reports whether it did.
func (s *Server) flagIfOut(ctx context.Context, lv *live) bool {
	deadline, ok := lv.r.game.Deadline()
	if !ok {
		return false
	}
	if s.now().Before(deadline) {
		s.watchClock(lv)
		return false
	}
	next := lv.r.clone()
	if !next.game.Flag() {
		return false
	}
	if err := s.commit(ctx, lv, next); err != nil {
		if !errors.Is(err, errChanged) { // else ended, or moved, by another server
			s.log.Error("flag", "game", next.id, "err", err)
		}
		return false
	}
	return true
}

// play makes move m for by, with the clock, and commits it. lv is locked.
func (s *Server) play(ctx context.Context, lv *live, by rules.Color, m rules.Move) error {
	next := lv.r.clone()
	if err := next.game.Play(by, m); err != nil {
		if errors.Is(err, game.ErrTimeOut) {
			s.flagIfOut(ctx, lv)
		}
		return err
	}
	if err := s.commit(ctx, lv, next); err != nil {
		return err
	}
	s.metrics.movesAccepted.Add(1)
	return nil
}

// The actions of the players. Each runs with lv locked, checks who asks
// (the viewer: its browser's token, or its account), and answers with the errors of the
// site or of the game package.

// mySeat returns the viewer's seat in a game that goes on.
func mySeat(r *round, who viewer) (rules.Color, error) {
	c, ok := r.seatOf(who)
	if !ok {
		return 0, errNotPlaying
	}
	if r.game.Over() {
		return 0, &game.OverError{Ending: r.game.Ending()}
	}
	return c, nil
}

// join gives the viewer the open seat of a friend game, as me, if the
// game's invitation is invite (or it has none). The clock starts when both
// players are there.
func (s *Server) join(ctx context.Context, lv *live, me seat, invite string) error {
	r := lv.r
	if _, ok := r.seatOf(viewer{token: me.token, user: me.user}); ok {
		return nil // already seated: joining again is harmless
	}
	if r.game.Over() {
		return &game.OverError{Ending: r.game.Ending()}
	}
	free := -1
	for c := range r.seats {
		if !r.seats[c].joined() {
			free = c
			break
		}
	}
	if free < 0 || r.mode != friendGame {
		return errSeatsTaken
	}
	if r.invite != "" && !invites(r.invite, invite) {
		return errInvited
	}
	next := r.clone()
	next.seats[free] = me
	next.invite = "" // taken
	next.game.Start()
	return s.commit(ctx, lv, next)
}

// move plays the move text for the viewer, who has seen ply moves.
func (s *Server) move(ctx context.Context, lv *live, who viewer, ply int, text string) error {
	me, err := mySeat(lv.r, who)
	if err != nil {
		return err
	}
	if s.flagIfOut(ctx, lv) {
		return game.ErrTimeOut
	}
	r := lv.r
	switch {
	case ply != r.game.Len():
		return errStale
	case r.game.Side() != me:
		return game.ErrNotYourTurn
	case !r.seats[me.Other()].joined():
		return errAbsent
	}
	p := r.game.Rules().Position()
	m, err := notation.ParseMove(&p, text)
	if err != nil {
		return err
	}
	return s.play(ctx, lv, me, m)
}

// act runs an action of the viewer's seat, in a game that goes on, on
// a clone of the round, and commits the clone.
func (s *Server) act(ctx context.Context, lv *live, who viewer, f func(me rules.Color, next *round) error) error {
	me, err := mySeat(lv.r, who)
	if err != nil {
		return err
	}
	next := lv.r.clone()
	if err := f(me, next); err != nil {
		return err
	}
	return s.commit(ctx, lv, next)
}

// resign ends the game with the viewer's loss.
func (s *Server) resign(ctx context.Context, lv *live, who viewer) error {
	return s.act(ctx, lv, who, func(me rules.Color, next *round) error { return next.game.Resign(me) })
}

// abort calls the game off for the viewer, without a result, while one
// player at least has not moved yet (game.ErrTooLate after that).
func (s *Server) abort(ctx context.Context, lv *live, who viewer) error {
	return s.act(ctx, lv, who, func(_ rules.Color, next *round) error { return next.game.Abort() })
}

// answer is what a player does with an offer: make it (offer a draw, ask
// for a take-back), accept or decline the opponent's.
type answer uint8

const (
	propose answer = iota
	accept
	decline
)

// draw carries out the viewer's draw action in a game between people. A
// draw offered to the engine goes by offerToEngine and answerDraw
// instead, so that the game is not locked while the engine weighs it.
func (s *Server) draw(ctx context.Context, lv *live, who viewer, a answer) error {
	return s.act(ctx, lv, who, func(me rules.Color, next *round) error {
		g := next.game
		switch a {
		case accept:
			return g.AcceptDraw(me)
		case decline:
			return g.DeclineDraw(me)
		}
		return g.OfferDraw(me)
	})
}

// drawOffer is a draw offered to the engine, for the engine to weigh:
// the game's version when it was made, who made it, the board then, and
// the job of the search that weighs it (but for its task).
type drawOffer struct {
	version int64
	by      rules.Color
	board   *rules.Game
	job     enginework.Job
}

// offerToEngine returns the viewer's draw offer in lv's game (locked) for
// the engine to weigh, if the engine is the opponent; nil and no error if
// a person is (draw makes the offer). An offer that the game refuses
// returns its error; one that takes up an offer of the engine's ends the
// game here.
func (s *Server) offerToEngine(ctx context.Context, lv *live, who viewer) (*drawOffer, error) {
	me, err := mySeat(lv.r, who)
	if err != nil {
		return nil, err
	}
	r := lv.r
	if !r.seats[me.Other()].engine {
		return nil, nil
	}
	next := r.clone()
	if err := next.game.OfferDraw(me); err != nil {
		return nil, err
	}
	if next.game.Over() {
		return nil, s.commit(ctx, lv, next)
	}
	return &drawOffer{
		version: r.version, by: me, board: r.game.Rules().Clone(),
		job: enginework.Job{Kind: enginework.Answer, Game: r.id, Client: r.client, Account: r.person().user},
	}, nil
}

// answerDraw makes the draw offer o, which the engine accepts or not, in
// lv's game (locked), if it is still at o's version: the answer to
// another position is dropped (errChanged).
func (s *Server) answerDraw(ctx context.Context, lv *live, who viewer, o *drawOffer, accepts bool) error {
	if lv.r.version != o.version {
		return errChanged
	}
	return s.act(ctx, lv, who, func(me rules.Color, next *round) error {
		if me != o.by {
			return errChanged
		}
		g := next.game
		if err := g.OfferDraw(me); err != nil || g.Over() {
			return err
		}
		if !accepts {
			return errDeclined
		}
		return g.AcceptDraw(me.Other())
	})
}

// takeBack carries out the viewer's take-back action. The engine grants
// every take-back at once.
func (s *Server) takeBack(ctx context.Context, lv *live, who viewer, a answer) error {
	return s.act(ctx, lv, who, func(me rules.Color, next *round) error {
		g := next.game
		switch {
		case a == accept:
			return g.AcceptTakeBack(me)
		case a == decline:
			return g.DeclineTakeBack(me)
		case next.seats[me.Other()].engine:
			return g.TakeBack(me)
		}
		return g.RequestTakeBack(me)
	})
}

// dueBatch bounds the games one deadline sweep takes up.
const dueBatch = 1000

// sweepDeadlines asks the store for the games whose deadline comes
// within the sweep's horizon (cfg.DeadlineSweep), correspondence games
// that may not be in memory: each is loaded, and ended on time if its
// deadline has passed, or watched by a timer until it does. Run every
// horizon, it ends a game at most a horizon late even when its timer was
// never armed in this process (a restart, another server on the same
// database).
func (s *Server) sweepDeadlines() { s.flagDue("deadline sweep", s.now().Add(s.cfg.DeadlineSweep)) }

// flagDue loads the games whose deadline is by (Store.Due) and ends on
// time those whose flag has fallen; the others get a timer. what names
// the sweep in the log.
func (s *Server) flagDue(what string, by time.Time) {
	ids, err := s.st.Due(s.ctx, by, dueBatch)
	if err != nil {
		if s.ctx.Err() == nil {
			s.log.Error(what, "err", err)
		}
		return
	}
	for _, id := range ids {
		lv, err := s.load(s.ctx, id)
		if err != nil {
			s.log.Error(what, "game", id, "err", err)
			continue
		}
		lv.mu.Lock()
		s.flagIfOut(s.ctx, lv)
		lv.mu.Unlock()
	}
}

// sweep drops from memory the games nobody has asked for in
// cfg.EvictAfter and that need nothing from this process: no viewer
// waiting, no engine thinking, no clock to watch. The store holds them;
// the next request loads them again.
func (s *Server) sweep() {
	cutoff := s.now().Add(-s.cfg.EvictAfter).UnixNano()
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, lv := range s.games {
		if lv.used.Load() > cutoff {
			continue
		}
		lv.mu.Lock()
		idle := len(lv.subs) == 0 && lv.job == 0 && lv.timer == nil
		lv.mu.Unlock()
		if idle {
			delete(s.games, id)
		}
	}
}

// Cached returns how many games the server holds in memory.
func (s *Server) Cached() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.games)
}

// wake tells every viewer of lv (locked) that the game changed.
func (lv *live) wake() {
	for ch := range lv.subs {
		select {
		case ch <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
}
