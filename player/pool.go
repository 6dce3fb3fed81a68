package player

import (
	"context"
	"sync"
)

// Pool lends searches to a program that runs many at once, as the server
// does for its games: at most Size search at a time, each on its own
// table. The tables are kept between uses, since a table is megabytes and
// allocating one for every move would cost more than a short search; the
// pool may still drop the ones it has not lent for a while.
type Pool struct {
	slots chan struct{} // a token per search lent
	free  sync.Pool
}

// NewPool returns a pool of at most size searches (at least one) on
// single-threaded searches with tables of hashMiB.
func NewPool(size, hashMiB int) *Pool {
	p := &Pool{slots: make(chan struct{}, max(size, 1))}
	p.free.New = func() any { return NewSearcher(SearchOptions{HashMiB: hashMiB}) }
	return p
}

// Size returns the most searches the pool lends at once.
func (p *Pool) Size() int { return cap(p.slots) }

// Get waits until a search is free or ctx is done, and returns the search
// with its table cleared, so that what it finds does not depend on the
// searches it ran before. Give it back with Put.
func (p *Pool) Get(ctx context.Context) (*Searcher, error) {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	s := p.free.Get().(*Searcher)
	s.NewGame()
	return s, nil
}

// Put gives back a search that Get lent.
func (p *Pool) Put(s *Searcher) {
	p.free.Put(s)
	<-p.slots
}
