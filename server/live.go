package server

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"emergo/notation"
	"emergo/rules"
	"emergo/store"
)

// live is a game held in memory: the stored record, the rules game it
// replays to, the viewers waiting for changes and the timers. Its mutex
// serialises every change of the game in this process; the store's
// version check catches changes by another process.
type live struct {
	mu       sync.Mutex
	g        *store.Game
	rg       *rules.Game
	subs     map[chan struct{}]struct{}
	thinking bool
	timer    *time.Timer
	// turnStart is when the current turn's clock started in this process:
	// the stored start, or the server's start if later, so that time the
	// server was down is not charged to anyone.
	turnStart time.Time
	// used is when a request last asked for the game (Unix nanoseconds):
	// idle games are dropped from memory (see sweep).
	used atomic.Int64
}

// load returns the live game id, reading it from the store if needed.
func (s *Server) load(ctx context.Context, id string) (*live, error) {
	s.mu.Lock()
	lv := s.games[id]
	s.mu.Unlock()
	if lv != nil {
		lv.used.Store(s.now().UnixNano())
		return lv, nil
	}
	g, err := s.st.Get(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, &apiError{http.StatusNotFound, "no such game"}
	}
	if err != nil {
		s.log.Error("load game", "game", id, "err", err)
		return nil, errStorage
	}
	rg, err := replay(g)
	if err != nil {
		s.log.Error("stored game does not replay", "game", id, "err", err)
		return nil, &apiError{http.StatusInternalServerError, "this game's record is damaged"}
	}
	lv = &live{g: g, rg: rg, subs: map[chan struct{}]struct{}{}}
	lv.used.Store(s.now().UnixNano())
	lv.turnStart = g.TurnStart
	if lv.turnStart.Before(s.started) {
		lv.turnStart = s.started
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if other := s.games[id]; other != nil {
		return other, nil // loaded meanwhile by another request
	}
	s.games[id] = lv
	return lv, nil
}

// replay rebuilds the rules game of a stored game.
func replay(g *store.Game) (*rules.Game, error) {
	start, err := notation.ParsePosition(g.Start)
	if err != nil {
		return nil, err
	}
	rg := rules.NewGameFrom(start)
	texts := make([]string, len(g.Moves))
	for i, m := range g.Moves {
		texts[i] = m.Text
	}
	if err := notation.PlayMoves(rg, texts); err != nil {
		return nil, err
	}
	return rg, nil
}

// clone copies the stored game, moves included, so a change can be
// prepared and written before the live copy is replaced.
func clone(g *store.Game) *store.Game {
	c := *g
	c.Moves = append([]store.Move(nil), g.Moves...)
	return &c
}

// commit writes next (the changed copy of lv.g) keeping the first keep
// moves, and makes it live once it is durable. On failure nothing changes.
func (s *Server) commit(ctx context.Context, lv *live, next *store.Game, keep int) error {
	next.Updated = s.now()
	if err := s.st.Update(ctx, next, keep); err != nil {
		if errors.Is(err, store.ErrConflict) {
			// Another process changed the game: take its version.
			if g, gerr := s.st.Get(ctx, next.ID); gerr == nil {
				if rg, rerr := replay(g); rerr == nil {
					lv.g, lv.rg = g, rg
					s.afterChange(lv)
				}
			}
			return &apiError{http.StatusConflict, "the game changed meanwhile: look again and retry"}
		}
		s.metrics.storeErrors.Add(1)
		s.log.Error("store update", "game", next.ID, "err", err)
		return errStorage
	}
	lv.g = next
	s.afterChange(lv)
	return nil
}

// afterChange runs with lv locked after every change: it wakes the
// viewers, sets the flag timer and starts the engine if it is to move.
func (s *Server) afterChange(lv *live) {
	lv.wake()
	s.watchClock(lv)
	s.maybeThink(lv)
}

// seatOf returns the colour whose seat token holds, or -1.
func seatOf(g *store.Game, token string) int {
	if token == "" {
		return -1
	}
	for c := 0; c < 2; c++ {
		if g.Seats[c].Token == token {
			return c
		}
	}
	return -1
}

func joined(s store.Seat) bool { return s.Engine || s.Token != "" }

// clockRunning reports whether the game's clock runs: a clock is set, the
// game goes on and both seats are taken.
func clockRunning(g *store.Game) bool {
	return g.Initial > 0 && g.Result == "*" && joined(g.Seats[0]) && joined(g.Seats[1])
}

// timeLeft returns each side's time at now.
func (lv *live) timeLeft(now time.Time) [2]time.Duration {
	t := lv.g.TimeLeft
	if clockRunning(lv.g) {
		side := lv.side()
		t[side] -= now.Sub(lv.turnStart)
	}
	return t
}

// watchClock arms the timer that ends the game when the running side's
// flag falls.
func (s *Server) watchClock(lv *live) {
	if lv.timer != nil {
		lv.timer.Stop()
		lv.timer = nil
	}
	if !clockRunning(lv.g) || s.ctx.Err() != nil {
		return
	}
	side := lv.side()
	left := lv.timeLeft(s.now())[side]
	id := lv.g.ID
	lv.timer = time.AfterFunc(max(left, 0)+20*time.Millisecond, func() {
		lv.mu.Lock()
		defer lv.mu.Unlock()
		if lv.g.ID != id || !clockRunning(lv.g) {
			return
		}
		s.flagIfOut(s.ctx, lv)
	})
}

// flagIfOut ends the game on time if the side to move has none left. It
// reports whether it did.
func (s *Server) flagIfOut(ctx context.Context, lv *live) bool {
	if !clockRunning(lv.g) {
		return false
	}
	now := s.now()
	side := lv.side()
	left := lv.timeLeft(now)
	if left[side] > 0 {
		s.watchClock(lv)
		return false
	}
	next := clone(lv.g)
	left[side] = 0
	next.TimeLeft = left
	next.TurnStart = now
	next.Result = winFor(rules.Color(side).Other())
	next.Reason = "time forfeit"
	if err := s.commit(ctx, lv, next, len(next.Moves)); err != nil {
		s.log.Error("flag", "game", next.ID, "err", err)
		return false
	}
	return true
}

func winFor(c rules.Color) string {
	if c == rules.White {
		return "1-0"
	}
	return "0-1"
}

// play makes move m for the side to move, with the clock, and commits it.
// lv is locked.
func (s *Server) play(ctx context.Context, lv *live, m rules.Move) error {
	now := s.now()
	g := lv.g
	side := lv.side()
	next := clone(g)
	if clockRunning(g) {
		left := lv.timeLeft(now)
		if left[side] <= 0 {
			s.flagIfOut(ctx, lv)
			return &apiError{http.StatusConflict, "your time ran out"}
		}
		left[side] += g.Increment
		next.TimeLeft = left
	}
	next.TurnStart = now
	rg := lv.rg
	if err := rg.Play(m); err != nil {
		return &apiError{http.StatusBadRequest, err.Error()}
	}
	next.Moves = append(next.Moves, store.Move{Text: m.Text(rg.Geometry()), At: now, TimeLeft: next.TimeLeft})
	next.DrawOffer, next.TakeBack = -1, -1
	if o := rg.Outcome(); o.Over() {
		next.Result, next.Reason = o.Result.String(), o.Reason.String()
	}
	oldStart := lv.turnStart
	lv.turnStart = now
	if err := s.commit(ctx, lv, next, len(g.Moves)); err != nil {
		if lv.rg == rg { // not replaced by a newer version from the store
			rg.Undo()
			lv.turnStart = oldStart
		}
		return err
	}
	s.metrics.movesAccepted.Add(1)
	return nil
}

// side returns the colour to move.
func (lv *live) side() rules.Color {
	p := lv.rg.Position()
	return p.Side()
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
		idle := len(lv.subs) == 0 && !lv.thinking && lv.timer == nil
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
