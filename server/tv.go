package server

import (
	"context"
	"math"
	"net/http"
	"sync"
	"time"

	"emergo/rating"
	"emergo/store"
)

// The site's TV (/tv) shows the best game that goes on of each board
// size, as the store chooses it (store.TV): from the store, so that
// every server of a site shows the same. GET /api/tv answers it for
// every viewer from one query made at most every tvFresh on each server:
// the page asks again only when its game ends, or while no game goes on,
// and follows the game on its event stream, bounded as any.
const (
	tvFresh = 2 * time.Second
	// tvQueryTimeout bounds the one query that the viewers of a server
	// wait for.
	tvQueryTimeout = 5 * time.Second
)

// tvSizes are the TV's channels, one for each board size, the larger
// first.
var tvSizes = []int{9, 7}

// errNoTV refuses the TV of a store that does not choose its games.
var errNoTV = failure(http.StatusNotImplemented, codeNoTV, "this server has no TV")

// tvCache is the TV's last answer, and the query under way.
type tvCache struct {
	mu     sync.Mutex
	answer tvAnswer
	at     time.Time
	// asking is closed when the query under way is answered; nil while
	// none is.
	asking chan struct{}
	err    error
}

// tvAnswer is GET /api/tv's answer.
type tvAnswer struct {
	Channels []tvChannel `json:"channels"`
}

// tvChannel is the game a board size's channel shows, nil for none.
type tvChannel struct {
	Size int     `json:"size"`
	Game *tvGame `json:"game"`
}

// tvGame is a game the TV shows.
type tvGame struct {
	ID    string `json:"id"`
	Mode  string `json:"mode"`
	White string `json:"white"`
	Black string `json:"black"`
	// WhiteRating and BlackRating are the accounts' ratings in the
	// game's pool, nil for a guest's seat and the engine's.
	WhiteRating *int `json:"whiteRating"`
	BlackRating *int `json:"blackRating"`
	// WhiteGuest and BlackGuest say that the seat is a guest's,
	// WhiteBot and BlackBot a bot's, as the list of games does.
	WhiteGuest bool   `json:"whiteGuest"`
	BlackGuest bool   `json:"blackGuest"`
	WhiteBot   bool   `json:"whiteBot"`
	BlackBot   bool   `json:"blackBot"`
	Rated      bool   `json:"rated"`
	Speed      string `json:"speed"`
	Plies      int    `json:"plies"`
}

func (s *Server) handleTV(r *request) (int, any, error) {
	a, err := s.tv(r.Context())
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, a, nil
}

// tv returns the TV's answer: the last one if it is fresh, else that of
// the query under way, else a new query's. The viewers wait for the query
// without holding the lock.
func (s *Server) tv(ctx context.Context) (tvAnswer, error) {
	st, ok := s.st.(store.TV)
	if !ok {
		return tvAnswer{}, errNoTV
	}
	c := &s.tvCache
	c.mu.Lock()
	if c.asking == nil && !c.at.IsZero() && s.now().Sub(c.at) < tvFresh {
		a := c.answer
		c.mu.Unlock()
		return a, nil
	}
	asking := c.asking
	if asking == nil {
		asking = make(chan struct{})
		c.asking = asking
		go s.askTV(st, asking)
	}
	c.mu.Unlock()
	select {
	case <-asking:
	case <-ctx.Done():
		return tvAnswer{}, ctx.Err()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.answer, c.err
}

// askTV asks st for the TV's games and keeps the answer, then closes
// asking. The query runs on the server's context, not a viewer's, since
// every viewer waiting takes its answer.
func (s *Server) askTV(st store.TV, asking chan struct{}) {
	ctx, cancel := context.WithTimeout(s.ctx, tvQueryTimeout)
	defer cancel()
	games, err := st.Featured(ctx, s.now().Add(-recentIdle), rating.DefaultRating)
	c := &s.tvCache
	c.mu.Lock()
	defer c.mu.Unlock()
	defer close(asking)
	c.asking = nil
	if err != nil {
		if s.ctx.Err() == nil {
			s.log.Error("tv", "err", err)
		}
		c.err, c.at = errStorage, time.Time{}
		return
	}
	c.answer, c.err, c.at = tvChannels(games), nil, s.now()
}

// tvChannels is the answer of the featured games.
func tvChannels(games []store.Featured) tvAnswer {
	a := tvAnswer{Channels: make([]tvChannel, len(tvSizes))}
	for i, size := range tvSizes {
		a.Channels[i].Size = size
		for _, f := range games {
			if f.Size == size {
				a.Channels[i].Game = featuredGame(f)
			}
		}
	}
	return a
}

func featuredGame(f store.Featured) *tvGame {
	var ratings [2]*int
	guest := [2]bool{}
	for c := range 2 {
		guest[c] = f.Tokens[c] != "" && f.Users[c] == 0
		if f.Users[c] != 0 {
			r := int(math.Round(f.Ratings[c]))
			ratings[c] = &r
		}
	}
	speed := "live"
	if f.Days > 0 {
		speed = "correspondence"
	}
	return &tvGame{
		ID: f.ID, Mode: f.Mode, White: f.Names[0], Black: f.Names[1],
		WhiteRating: ratings[0], BlackRating: ratings[1],
		WhiteGuest: guest[0], BlackGuest: guest[1], WhiteBot: f.Bots[0], BlackBot: f.Bots[1],
		Rated: f.Rated, Speed: speed, Plies: f.Plies,
	}
}
