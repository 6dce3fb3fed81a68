package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"emergo/lobby"
	"emergo/store"
)

// Feed carries the changes of games and of the lobby between the servers
// that share one store, so that several servers behind a load balancer
// behave as one site: each holds in memory the games its viewers watch,
// and on a change made by another reads the game again and wakes them.
// sqlstore's Feed is the PostgreSQL one (LISTEN/NOTIFY); LocalFeed joins
// servers in one process.
type Feed interface {
	// Publish announces c, a change just committed to the store, to the
	// followers of the feed.
	Publish(ctx context.Context, c store.Change) error
	// Follow calls changed with every change published on the feed, one
	// at a time, until ctx ends. It calls lost once it listens, and again
	// each time it listens again after a break (with why): changes
	// published meanwhile may be lost to it. It returns at once if it
	// cannot listen at first. changed and lost must not block.
	Follow(ctx context.Context, changed func(store.Change), lost func(error)) error
}

// LocalFeed is a Feed for servers in one process on one store (two
// servers on one SQLite file, as in tests): a change reaches every
// follower at once, in the goroutine that publishes it.
type LocalFeed struct {
	mu        sync.RWMutex
	followers map[*func(store.Change)]struct{}
}

// NewLocalFeed returns a LocalFeed without followers.
func NewLocalFeed() *LocalFeed {
	return &LocalFeed{followers: map[*func(store.Change)]struct{}{}}
}

// Publish implements Feed.
func (f *LocalFeed) Publish(_ context.Context, c store.Change) error {
	f.mu.RLock()
	defer f.mu.RUnlock()
	for changed := range f.followers {
		(*changed)(c)
	}
	return nil
}

// Follow implements Feed. Once it returns, changed is called no more.
func (f *LocalFeed) Follow(ctx context.Context, changed func(store.Change), lost func(error)) error {
	f.mu.Lock()
	f.followers[&changed] = struct{}{}
	f.mu.Unlock()
	lost(nil)
	<-ctx.Done()
	f.mu.Lock()
	delete(f.followers, &changed)
	f.mu.Unlock()
	return nil
}

// follow starts following the feed, and returns once it listens.
func (s *Server) follow() error {
	b := make([]byte, 8)
	rand.Read(b)
	s.origin = hex.EncodeToString(b)
	listening := make(chan struct{})
	var once sync.Once
	failed := make(chan error, 1)
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		failed <- s.feed.Follow(s.ctx, s.changed, func(err error) {
			once.Do(func() { close(listening) })
			s.lost(err)
		})
	}()
	select {
	case <-listening:
	case err := <-failed:
		return err
	}
	s.every(s.cfg.FeedCheck, s.refreshAll)
	s.every(s.cfg.FlagSweep, s.sweepFlags)
	return nil
}

// publish announces c, a change of this server's, on the feed. A failure
// is logged: the write is done, and the other servers learn of it by
// their periodic check (Config.FeedCheck) instead.
func (s *Server) publish(c store.Change) {
	if s.feed == nil {
		return
	}
	c.Origin = s.origin
	ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
	defer cancel()
	if err := s.feed.Publish(ctx, c); err != nil && s.ctx.Err() == nil {
		s.log.Error("publish a change", "game", c.Game, "lobby", c.Lobby, "err", err)
	}
}

// lobbyChanged wakes the viewers of the lobby after a change of the
// challenge c, this server's and the others', and announces it with the
// game whose rematch c is, if any.
func (s *Server) lobbyChanged(c *lobby.Challenge) {
	s.hub.wake(c, s.now())
	s.publish(store.Change{Lobby: true, Game: c.Rematch})
}

// changed takes in a change announced by another server: the lobby's
// viewers are woken, and a game held in memory is read again, with its
// viewers woken, in a goroutine of its own (the feed must not wait).
// A game being loaded meanwhile is marked, to be read again once loaded.
func (s *Server) changed(c store.Change) {
	if c.Origin == s.origin || s.ctx.Err() != nil {
		return
	}
	s.metrics.feedChanges.Add(1)
	s.heard(c)
}

// heard takes in a change committed elsewhere than in this server's
// memory: by another server (changed), or by this one in the store alone
// (endIdleStored).
func (s *Server) heard(c store.Change) {
	if c.Lobby {
		s.hub.wake(nil, s.now())
	}
	if c.Work {
		s.work.Wake()
	}
	if c.Game == "" {
		return
	}
	s.mu.Lock()
	lv := s.games[c.Game]
	if lv == nil {
		if l := s.loading[c.Game]; l != nil {
			l.changed = true
		}
	}
	s.mu.Unlock()
	if lv == nil {
		return
	}
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		lv.mu.Lock()
		defer lv.mu.Unlock()
		switch {
		case c.Version == 0:
			lv.rematch = s.loadRematch(s.ctx, lv.r)
			lv.wake()
		case c.Version > lv.r.version:
			s.reload(s.ctx, lv)
		}
	}()
}

// lost reads again everything held after the feed says that changes may
// have been lost to this server.
func (s *Server) lost(why error) {
	if why != nil {
		s.metrics.feedBreaks.Add(1)
		s.log.Warn("the change feed broke and listens again: reading again the games held", "err", why)
	}
	s.hub.wake(nil, s.now())
	s.work.Wake()
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		s.refreshAll()
	}()
}

// refreshAll reads again every game held whose stored version is newer.
func (s *Server) refreshAll() {
	s.mu.Lock()
	held := make(map[string]*live, len(s.games))
	ids := make([]string, 0, len(s.games))
	for id, lv := range s.games {
		held[id] = lv
		ids = append(ids, id)
	}
	s.mu.Unlock()
	if len(ids) == 0 {
		return
	}
	versions, err := s.st.Versions(s.ctx, ids)
	if err != nil {
		if s.ctx.Err() == nil {
			s.log.Error("check the games held", "err", err)
		}
		return
	}
	for id, v := range versions {
		lv := held[id]
		lv.mu.Lock()
		if v > lv.r.version {
			s.reload(s.ctx, lv)
		}
		lv.mu.Unlock()
	}
}

// reload reads lv's game (locked) again from the store, after another
// server changed it, and wakes its viewers; it reports whether it could
// (a failure is logged, and leaves lv as it was). The players' ratings
// are read again when the game has just ended, its rematch whenever it
// is over.
func (s *Server) reload(ctx context.Context, lv *live) bool {
	g, err := s.st.Get(ctx, lv.r.id)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Error("read a game again", "game", lv.r.id, "err", err)
		}
		return false
	}
	r, err := s.roundOf(g)
	if err != nil {
		s.log.Error("stored game does not replay", "game", lv.r.id, "err", err)
		return false
	}
	if r.game.Over() {
		if !lv.r.game.Over() {
			lv.standing = s.loadStanding(ctx, r)
		}
		lv.rematch = s.loadRematch(ctx, r)
	}
	lv.r = r
	lv.wake()
	s.watchClock(lv)
	s.metrics.feedReloads.Add(1)
	return true
}

// refreshed reads lv's game (locked) again if the store has a newer
// version, and reports whether it did: an action refused on this
// server's copy is decided again on the fresh one.
func (s *Server) refreshed(ctx context.Context, lv *live) bool {
	versions, err := s.st.Versions(ctx, []string{lv.r.id})
	if err != nil || versions[lv.r.id] <= lv.r.version {
		return false
	}
	return s.reload(ctx, lv)
}

// sweepFlags ends the games whose running side's time has run out, as
// the store says, wherever they are held: the timer of a game whose
// server is gone went with it. Of two servers racing to end a game, the
// store's version check lets one write the ending; the other reads it.
func (s *Server) sweepFlags() { s.flagDue("flag sweep", s.now()) }
