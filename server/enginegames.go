package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"emergo/game"
	"emergo/store"
	"emergo/throttle"
)

// A game against the engine holds the engine's work on the queue, a move
// at every turn of the engine's, and its place in memory and in the
// store while it goes on. So the engine games are bounded: per client
// and in total while they go on, by the rate at which a client starts
// them, and in time, since a game nobody plays is ended.

// EngineGameLimits bound the games against the engine.
type EngineGameLimits struct {
	// PerClient is the most engine games in progress of one client: of
	// an account, and of a guest both by its browser (the seats' token)
	// and by its address (the client key, throttle.ClientKey), so that
	// neither many cookies from one address nor one cookie from many
	// addresses go beyond it. The guests behind one address share its
	// games; an account has its own. Default 3.
	PerClient int
	// Total is the most engine games in progress on the site; default
	// 1000.
	Total int
	// Rate bounds how fast a client starts engine games, by the same
	// names, across every server of the site (Config.Throttles); a game
	// refused by the other bounds does not count. Default a burst of 10,
	// then one every 20 seconds; an Every below 0 is no limit.
	Rate throttle.Limit
	// Unstarted is how long an engine game may wait for both players'
	// first moves before it is aborted; default 10 minutes.
	Unstarted time.Duration
	// Idle is how long the person may leave his turn, once both players
	// have moved, in an engine game without a clock, before the game is
	// ended as abandoned and lost by him; default 30 minutes. (The flag
	// ends a game on a clock.)
	Idle time.Duration
	// Sweep is how often the server asks the store for the engine games
	// to end so (reapIdle); default a minute.
	Sweep time.Duration
}

// DefaultEngineGameLimits are EngineGameLimits' defaults. Three games
// are more than a person plays at once against the engine, and the
// abandoned ones end within half an hour; a bound on a guest's address
// is one on the guests behind it, who may take accounts.
var DefaultEngineGameLimits = EngineGameLimits{
	PerClient: 3, Total: 1000,
	Rate:      throttle.Limit{Burst: 10, Every: 20 * time.Second},
	Unstarted: 10 * time.Minute, Idle: 30 * time.Minute, Sweep: time.Minute,
}

// withDefaults fills in the limits not set.
func (l EngineGameLimits) withDefaults() EngineGameLimits {
	d := DefaultEngineGameLimits
	if l.PerClient <= 0 {
		l.PerClient = d.PerClient
	}
	if l.Total <= 0 {
		l.Total = d.Total
	}
	if l.Rate == (throttle.Limit{}) {
		l.Rate = d.Rate
	}
	if l.Unstarted <= 0 {
		l.Unstarted = d.Unstarted
	}
	if l.Idle <= 0 {
		l.Idle = d.Idle
	}
	if l.Sweep <= 0 {
		l.Sweep = d.Sweep
	}
	return l
}

// errEngineGamesFull refuses an engine game while the site has as many
// in progress as it takes.
var errEngineGamesFull = errors.New("the site has as many games against the engine in progress as it can take: try again in a few minutes")

// person is the seat of the person in an engine game.
func (r *round) person() seat {
	if r.seats[0].engine {
		return r.seats[1]
	}
	return r.seats[0]
}

// createEngineGame stores rd, a new engine game, within the bounds of
// EngineGameLimits: the rate of its client's new games first, then its
// games in progress and the site's, which the store counts as it creates
// the game.
func (s *Server) createEngineGame(r *request, rd *round) error {
	lim := s.cfg.EngineGames
	return s.createBounded(r, rd, rd.person(), creationBound{
		rate: s.engineRate, perClient: lim.PerClient, total: lim.Total,
		tooFast: func(secs int) error {
			return &apiError{http.StatusTooManyRequests, codeEngineGamesTooFast,
				fmt.Sprintf("you are starting games against the engine too fast: wait %s and try again", waitText(secs)),
				map[string]any{"n": secs}}
		},
		tooMany: &apiError{http.StatusTooManyRequests, codeTooManyEngineGames,
			fmt.Sprintf("you have %d games against the engine in progress, as many as you may: finish, resign or abort one first", lim.PerClient),
			map[string]any{"n": lim.PerClient}},
		full: errEngineGamesFull, refused: &s.metrics.engineGamesRefused,
	}, func(admit func(creatorCount) error) error {
		return s.st.CreateEngineGame(r.Context(), rd.stored(rd.created), func(n store.EngineCount) error {
			return admit(creatorCount(n))
		})
	})
}

// personTurnStart is when the person's turn began in an engine game
// without a clock that goes on, while it is his turn; zero otherwise.
// The store keeps it (store.Game.PersonTurn), and the round as it was
// stored (round.personTurn).
func (r *round) personTurnStart() time.Time {
	g := r.game
	side := g.Side()
	if r.mode != engineGame || g.Over() || r.seats[side].engine || !g.Control(side).None() {
		return time.Time{}
	}
	return g.TurnStart()
}

// idleEnding returns how the engine game r ends for want of its person,
// if it does now: aborted when both players have not moved within
// EngineGameLimits.Unstarted of its creation (which calls off no result,
// whoever is to blame: the engine's first move too may have waited), and
// lost by the person as abandoned when his turn has lasted
// EngineGameLimits.Idle. The times are the store's (created,
// personTurn), not the clock's, which a server alone on its store
// restarts (roundOf): a game left while the site was down was left all
// the same.
func (s *Server) idleEnding(r *round) (game.Ending, bool) {
	if r.mode == friendGame {
		return s.invitationEnding(r)
	}
	g, lim, now := r.game, s.cfg.EngineGames, s.now()
	if r.mode != engineGame || g.Over() {
		return game.Ending{}, false
	}
	if g.CanAbort() {
		return game.Ending{Termination: game.Aborted}, now.Sub(r.created) >= lim.Unstarted
	}
	side := g.Side()
	if r.seats[side].engine || r.personTurn.IsZero() {
		return game.Ending{}, false
	}
	return game.Loss(side, game.Abandoned), now.Sub(r.personTurn) >= lim.Idle
}

// reapIdle ends the engine games that wait on their person too long
// (idleEnding), and aborts the invitations nobody took in time
// (invitationEnding), as the store finds them (IdleEngineGames,
// ExpiredInvitations), wherever they
// are held: a game in this server's memory as every change of it is
// made, one that is not as stored, without loading it, as a worker
// process plays (applyStored). Their engine work is dropped. Of two
// servers racing to end a game, the store's version check lets one write
// the ending.
func (s *Server) reapIdle() {
	lim, now := s.cfg.EngineGames, s.now()
	ids, err := s.st.IdleEngineGames(s.ctx, now.Add(-lim.Unstarted), now.Add(-lim.Idle), dueBatch)
	engines := len(ids)
	if err == nil {
		var expired []string
		expired, err = s.expiredInvitations(now)
		ids = append(ids, expired...)
	}
	if err != nil {
		if s.ctx.Err() == nil {
			s.log.Error("idle engine games", "err", err)
		}
		return
	}
	for i, id := range ids {
		if s.ctx.Err() != nil {
			return
		}
		s.mu.Lock()
		lv := s.games[id]
		s.mu.Unlock()
		ended := false
		if lv != nil {
			lv.mu.Lock()
			ended = s.endIdle(s.ctx, lv)
			lv.mu.Unlock()
		} else {
			ended = s.endIdleStored(s.ctx, id)
		}
		if ended && i >= engines { // an invitation: no engine work
			s.metrics.invitationsExpired.Add(1)
			continue
		}
		if ended {
			s.metrics.idleGamesEnded.Add(1)
			if err := s.work.CancelGame(s.ctx, id); err != nil && s.ctx.Err() == nil {
				s.log.Error("cancel the engine work of an ended game", "game", id, "err", err)
			}
		}
	}
}

// endIdle ends lv's game (locked) if it waits on its person too long,
// and reports whether it did.
func (s *Server) endIdle(ctx context.Context, lv *live) bool {
	e, ok := s.idleEnding(lv.r)
	if !ok {
		return false
	}
	next := lv.r.clone()
	if err := next.game.End(e); err != nil {
		s.log.Error("end an idle engine game", "game", next.id, "err", err)
		return false
	}
	if err := s.commit(ctx, lv, next); err != nil {
		if !errors.Is(err, errChanged) { // else changed by another server: decided at the next sweep
			s.log.Error("end an idle engine game", "game", next.id, "err", err)
		}
		return false
	}
	s.log.Info("idle engine game ended", "game", next.id, "ending", e)
	return true
}

// endIdleStored ends the game id as stored, not held here, if it waits on
// its person too long, and reports whether it did. The other servers
// learn it from the feed; a request of this server reading it meanwhile
// reads it again (heard).
func (s *Server) endIdleStored(ctx context.Context, id string) bool {
	g, err := s.st.Get(ctx, id)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) && ctx.Err() == nil {
			s.log.Error("end an idle engine game", "game", id, "err", err)
		}
		return false
	}
	r, err := s.roundOf(g)
	if err != nil {
		s.log.Error("stored game does not replay", "game", id, "err", err)
		return false
	}
	e, ok := s.idleEnding(r)
	if !ok {
		return false
	}
	next := r.clone()
	if err := next.game.End(e); err != nil {
		s.log.Error("end an idle engine game", "game", id, "err", err)
		return false
	}
	sg := next.stored(s.now())
	if err := s.save(ctx, &live{r: r}, next, sg, r.game.Len()); err != nil {
		if !errors.Is(err, store.ErrConflict) {
			s.log.Error("end an idle engine game", "game", id, "err", err)
		}
		return false
	}
	c := store.Change{Game: id, Version: sg.Version}
	s.publish(c)
	s.heard(c)
	s.log.Info("idle engine game ended", "game", id, "ending", e)
	return true
}
