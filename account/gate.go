package account

import (
	"context"
	"errors"
	"sync"
)

// Errors of a password check refused before it waits: the client has one
// waiting already, or the queue is full. Either is refused at once, so
// that a flood neither queues up nor makes anyone else wait longer.
var (
	ErrHashBusy      = errors.New("account: a password of yours is waiting to be checked; wait for its answer")
	ErrHashQueueFull = errors.New("account: too many passwords are waiting to be checked; try again in a moment")
)

// gate shares the slots that hash passwords between clients fairly. A
// client holds at most one slot, and has at most one request waiting: a
// second is refused with ErrHashBusy. The waiting requests are served in
// the order they came, skipping those whose client holds a slot; as each
// client has one at most, every client waiting when a request came is
// served before it, so that a login waits for at most one hash of each
// other client, however many requests a flood sends. At most maxWaiting
// requests wait at all (ErrHashQueueFull).
type gate struct {
	mu         sync.Mutex
	free       int
	maxWaiting int
	holding    map[string]bool // the clients holding a slot
	queue      []*waiter       // in the order they came, one a client
}

// waiter is a request waiting for a slot; ready is closed when it is
// given one.
type waiter struct {
	client  string
	ready   chan struct{}
	granted bool
}

func newGate(slots, maxWaiting int) *gate {
	return &gate{free: slots, maxWaiting: maxWaiting, holding: map[string]bool{}}
}

// do runs f holding a slot for client, or returns ErrHashBusy,
// ErrHashQueueFull or ctx's error without running it.
func (g *gate) do(ctx context.Context, client string, f func()) error {
	if err := g.acquire(ctx, client); err != nil {
		return err
	}
	defer g.release(client)
	f()
	return nil
}

func (g *gate) acquire(ctx context.Context, client string) error {
	g.mu.Lock()
	for _, w := range g.queue {
		if w.client == client {
			g.mu.Unlock()
			return ErrHashBusy
		}
	}
	if g.free > 0 && !g.holding[client] {
		// A free slot means that nobody waiting may take it: they all
		// hold one (grant gives the slots out as soon as they may).
		g.free--
		g.holding[client] = true
		g.mu.Unlock()
		return nil
	}
	if len(g.queue) >= g.maxWaiting {
		g.mu.Unlock()
		return ErrHashQueueFull
	}
	w := &waiter{client: client, ready: make(chan struct{})}
	g.queue = append(g.queue, w)
	g.mu.Unlock()

	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
		g.mu.Lock()
		defer g.mu.Unlock()
		if w.granted {
			// Given a slot as the request ended: pass it on.
			g.free++
			delete(g.holding, client)
			g.grant()
		} else {
			g.remove(w)
		}
		return ctx.Err()
	}
}

func (g *gate) release(client string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.free++
	delete(g.holding, client)
	g.grant()
}

// grant gives the free slots to the first requests waiting whose clients
// hold none. g.mu is held.
func (g *gate) grant() {
	for i := 0; i < len(g.queue) && g.free > 0; {
		w := g.queue[i]
		if g.holding[w.client] {
			i++
			continue
		}
		g.queue = append(g.queue[:i], g.queue[i+1:]...)
		g.free--
		g.holding[w.client] = true
		w.granted = true
		close(w.ready)
	}
}

func (g *gate) remove(w *waiter) {
	for i, o := range g.queue {
		if o == w {
			g.queue = append(g.queue[:i], g.queue[i+1:]...)
			return
		}
	}
}

// waiting is the number of requests waiting for a slot.
func (g *gate) waiting() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.queue)
}
