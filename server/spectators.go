package server

import (
	"sync"
	"time"

	"emergo/store"
)

// The spectators of a game are the viewers of its event stream who hold
// no seat in it. Each server counts its own (spectatorHub.join) and
// announces its count on the change feed when it changes, and again
// every spectatorsRenew while it is not 0; it adds the counts the other
// servers announced within spectatorsKept, so that a server that stopped
// without saying so is forgotten. Every stream of the game hears the
// total when it changes: the game's page says how many watch.
const (
	spectatorsRenew = 30 * time.Second
	spectatorsKept  = 75 * time.Second
)

// spectatorHub counts the spectators of the games.
type spectatorHub struct {
	mu sync.Mutex
	// local is this server's spectators of each game with any.
	local map[string]int
	// remote is the other servers' counts of each game, by origin.
	remote map[string]map[string]remoteCount
	// subs are the streams of each game, told the total.
	subs map[string]map[chan int]struct{}
}

// remoteCount is a count another server announced, and when.
type remoteCount struct {
	n  int
	at time.Time
}

// initLocked makes the hub's maps the first time; h.mu is held.
func (h *spectatorHub) initLocked() {
	if h.subs == nil {
		h.subs, h.local, h.remote = map[string]map[chan int]struct{}{}, map[string]int{}, map[string]map[string]remoteCount{}
	}
}

// totalLocked is game's spectators on every server at now; h.mu is held.
func (h *spectatorHub) totalLocked(game string, now time.Time) int {
	n := h.local[game]
	for origin, c := range h.remote[game] {
		if now.Sub(c.at) > spectatorsKept {
			delete(h.remote[game], origin)
			continue
		}
		n += c.n
	}
	return n
}

// tellLocked sends game's total to its streams, replacing a total not
// yet read; h.mu is held.
func (h *spectatorHub) tellLocked(game string, now time.Time) {
	n := h.totalLocked(game, now)
	for ch := range h.subs[game] {
		select {
		case <-ch:
		default:
		}
		select {
		case ch <- n:
		default:
		}
	}
}

// joinSpectators adds a stream of game, a spectator's if spectator, and returns
// the channel that hears the game's total (the first at once) and the
// function that ends it.
func (s *Server) joinSpectators(game string, spectator bool) (<-chan int, func()) {
	h := &s.spectators
	ch := make(chan int, 1)
	h.mu.Lock()
	h.initLocked()
	if h.subs[game] == nil {
		h.subs[game] = map[chan int]struct{}{}
	}
	h.subs[game][ch] = struct{}{}
	n := h.local[game]
	if spectator {
		n++
		h.local[game] = n
		h.tellLocked(game, s.now())
	} else {
		ch <- h.totalLocked(game, s.now())
	}
	h.mu.Unlock()
	if spectator {
		s.rounds.Publish(store.Change{Spectators: n, SpectatorsGame: game})
	}
	return ch, func() {
		h.mu.Lock()
		delete(h.subs[game], ch)
		if len(h.subs[game]) == 0 {
			delete(h.subs, game)
		}
		n := h.local[game]
		if spectator {
			if n--; n == 0 {
				delete(h.local, game)
			} else {
				h.local[game] = n
			}
			h.tellLocked(game, s.now())
		}
		h.mu.Unlock()
		if spectator {
			s.rounds.Publish(store.Change{Spectators: n, SpectatorsGame: game})
		}
	}
}

// spectatorsHeard takes in another server's count of a game's
// spectators.
func (s *Server) spectatorsHeard(c store.Change) {
	h := &s.spectators
	h.mu.Lock()
	defer h.mu.Unlock()
	h.initLocked()
	game := c.SpectatorsGame
	if c.Spectators == 0 {
		delete(h.remote[game], c.Origin)
	} else {
		if h.remote[game] == nil {
			h.remote[game] = map[string]remoteCount{}
		}
		h.remote[game][c.Origin] = remoteCount{c.Spectators, s.now()}
	}
	if len(h.remote[game]) == 0 {
		delete(h.remote, game)
	}
	h.tellLocked(game, s.now())
}

// renewSpectators announces again this server's counts that are not 0,
// so that the other servers keep them.
func (s *Server) renewSpectators() {
	h := &s.spectators
	h.mu.Lock()
	cs := make([]store.Change, 0, len(h.local))
	for game, n := range h.local {
		cs = append(cs, store.Change{Spectators: n, SpectatorsGame: game})
	}
	h.mu.Unlock()
	for _, c := range cs {
		s.rounds.Publish(c)
	}
}
