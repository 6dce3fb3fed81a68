package server

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"emergo/round"
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
	// to end so (round.Keeper.ReapIdle); default a minute.
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

// createEngineGame stores rd, a new engine game, within the bounds of
// EngineGameLimits: the rate of its client's new games first, then its
// games in progress and the site's, which the store counts as it creates
// the game.
func (s *Server) createEngineGame(r *request, rd *round.Round) error {
	lim := s.cfg.EngineGames
	return s.createBounded(r, rd, rd.Person(), creationBound{
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
		return s.st.CreateEngineGame(r.Context(), rd.Stored(rd.Created), func(n store.EngineCount) error {
			return admit(creatorCount(n))
		})
	})
}
