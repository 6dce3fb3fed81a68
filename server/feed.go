package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"

	"emergo/lobby"
	"emergo/store"
)

// Feed carries the changes of games and of the lobby between the servers
// that share one store, so that several servers behind a load balancer
// behave as one site: each holds in memory the games its viewers watch,
// and on a change made by another takes it in (the change itself, or the
// game read again) and wakes them.
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
		return nil
	case err := <-failed:
		return err
	}
}

// newOrigin returns a name for this server on the feed.
func newOrigin() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// lobbyChanged wakes the viewers of the lobby after a change of the
// challenge c, this server's and the others', and announces it with the
// game whose rematch c is, if any.
func (s *Server) lobbyChanged(c *lobby.Challenge) {
	s.hub.wake(c, s.now())
	s.rounds.Publish(store.Change{Lobby: true, Game: c.Rematch})
}

// changed takes in a change announced by another server: the lobby's
// viewers are woken, the idle workers look for work, the chat's lines
// and blocks reach this server's streams (chatHeard), and a game held
// in memory takes the change in (round.Keeper.Heard).
func (s *Server) changed(c store.Change) {
	if c.Origin == s.origin || s.ctx.Err() != nil {
		return
	}
	s.metrics.feedChanges.Add(1)
	if c.Lobby {
		s.hub.wake(nil, s.now())
	}
	if c.Work {
		s.work.Wake()
	}
	if c.Chat != 0 || c.Blocks != 0 {
		s.chatHeard(c)
	}
	if c.SpectatorsGame != "" {
		s.spectatorsHeard(c)
	}
	s.rounds.Heard(c)
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
	s.rounds.Lost()
}
