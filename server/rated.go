package server

import (
	"context"
	"errors"
	"math"

	"emergo/game"
	"emergo/rating"
	"emergo/ratings"
	"emergo/rules"
	"emergo/store"
)

// standing is what a live game shows of its players' ratings: each
// account's rating in the game's pool as it stood when the game was
// loaded, and once a rated game is over what it did to them.
type standing struct {
	ratings [2]*rating.Rating // nil for a guest, the engine, or a game of no pool
	changes []ratings.Change  // White's and Black's, once rated
}

// pool returns the pool of ratings a game between people counts in, by
// its board and time control, if it has one.
func (r *round) pool() (ratings.Pool, bool) {
	if r.mode != friendGame {
		return ratings.Pool{}, false
	}
	c := r.game.Control(rules.White)
	speed, ok := ratings.SpeedOf(c.Time, c.Days)
	return ratings.Pool{Size: r.game.Rules().Geometry().N, Speed: speed}, ok
}

// loadStanding reads the players' ratings of the game r, and what it did
// to them if it was rated, for the game's page. A failure leaves them
// out of the page, and is logged.
func (s *Server) loadStanding(ctx context.Context, r *round) standing {
	var st standing
	pool, ok := r.pool()
	if s.rated == nil || !ok {
		return st
	}
	for c, seat := range r.seats {
		if seat.user == 0 {
			continue
		}
		entries, err := s.rated.Ratings(ctx, seat.user)
		if err != nil {
			s.log.Error("ratings", "game", r.id, "user", seat.user, "err", err)
			return standing{}
		}
		rt := ratings.Of(entries, pool)
		st.ratings[c] = &rt
	}
	if r.rated && r.game.Over() {
		changes, err := s.rated.Changes(ctx, r.id)
		if err != nil {
			s.log.Error("rating changes", "game", r.id, "err", err)
		}
		if len(changes) == 2 {
			st.changes = changes
		}
	}
	return st
}

// toRate returns the rating of the game that next, the round after a
// change of cur, ends: a rated game between two accounts ended with a
// result (an aborted game is not rated). It reports false for every other
// change.
func (s *Server) toRate(cur, next *round) (ratings.Game, bool) {
	pool, ok := next.pool()
	e := next.game.Ending()
	if s.rated == nil || !next.rated || !ok || cur.game.Over() || !e.Over() || e.Termination == game.Aborted {
		return ratings.Game{}, false
	}
	users := [2]int64{next.seats[0].user, next.seats[1].user}
	if users[0] == 0 || users[1] == 0 || users[0] == users[1] {
		s.log.Error("a rated game without two accounts is not rated", "game", next.id)
		return ratings.Game{}, false
	}
	var score float64
	switch e.Result {
	case rules.WhiteWins:
		score = 1
	case rules.Draw:
		score = 0.5
	case rules.BlackWins:
		score = 0
	default:
		return ratings.Game{}, false
	}
	return ratings.Game{ID: next.id, Pool: pool, Users: users, Score: score, End: s.now()}, true
}

// save writes next, the changed round of lv (locked), as g: with the
// game's rating in the same transaction when the change ends a rated
// game (ratings.Finish), else as any change (store.Store's Update). A
// game it ends goes into the explorer's index after.
func (s *Server) save(ctx context.Context, lv *live, next *round, g *store.Game, keep int) error {
	if err := s.writeGame(ctx, lv, next, g, keep); err != nil {
		return err
	}
	if !lv.r.game.Over() && next.game.Over() {
		s.indexGame(ctx, g)
	}
	return nil
}

// writeGame is save's write of the game, and of its rating if it is rated.
func (s *Server) writeGame(ctx context.Context, lv *live, next *round, g *store.Game, keep int) error {
	rg, ok := s.toRate(lv.r, next)
	if !ok {
		return s.st.Update(ctx, g, keep)
	}
	changes, err := ratings.Finish(ctx, s.rated, g, keep, rg)
	if errors.Is(err, ratings.ErrRated) {
		// Rated by another process, which wrote the game's end too.
		return store.ErrConflict
	}
	if err != nil {
		return err
	}
	lv.standing.changes = changes[:]
	s.log.Info("game rated", "game", next.id, "white", changes[0].After, "black", changes[1].After)
	return nil
}

// rateState adds the players' ratings to st, the state of lv's game
// (locked): each account's rating, and once the game is rated its new
// rating and the change, rounded as shown.
func (s *Server) rateState(lv *live, st *stateJSON) {
	st.Rated = lv.r.rated
	now := s.now()
	for c, name := range colorNames {
		p := st.Players[name]
		switch {
		case len(lv.standing.changes) == 2:
			ch := lv.standing.changes[c]
			p.Rating = rating.Rating{Rating: ch.After, Deviation: ch.Deviation}.String()
			diff := int(math.Round(ch.After - ch.Before))
			p.RatingDiff = &diff
		case lv.standing.ratings[c] != nil:
			p.Rating = lv.standing.ratings[c].At(now).String()
		}
		st.Players[name] = p
	}
}
