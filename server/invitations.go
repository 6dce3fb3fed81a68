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

// A friend game made by its link (POST /api/games, mode "friend") waits
// with a seat open until the friend takes it: an invitation. It costs
// little while it waits, a row in the store, but a client could make them
// without end, and nobody would ever end them. So the invitations are
// bounded as the engine games are (enginegames.go): per client and in
// total while they wait, by the rate at which a client makes them, and in
// time, since one that nobody takes is aborted. The games the lobby makes
// have both seats taken, and are bounded by the lobby's own bounds.

// InvitationLimits bound the invitations: the friend games that wait for
// their second player.
type InvitationLimits struct {
	// PerClient is the most invitations that wait of one client: of an
	// account, and of a guest both by its browser (the seat's token) and
	// by its address (the client key, throttle.ClientKey), as
	// EngineGameLimits.PerClient. Default 10.
	PerClient int
	// Total is the most invitations that wait on the site; default
	// 10,000.
	Total int
	// Rate bounds how fast a client makes invitations, by the same
	// names, across every server of the site (Config.Throttles); one
	// refused by the other bounds does not count. Default a burst of 10,
	// then one every 20 seconds; an Every below 0 is no limit.
	Rate throttle.Limit
	// Expiry is how long an invitation to a live game (on a clock or
	// without one) waits before it is aborted, default 24 hours;
	// CorrespondenceExpiry that of a correspondence game, default 7 days.
	// The sweep of EngineGameLimits.Sweep aborts them (round's
	// ReapIdle).
	Expiry, CorrespondenceExpiry time.Duration
}

// DefaultInvitationLimits are InvitationLimits' defaults. A person sends a
// few links at a time; ten waiting leave room for a tournament among
// friends. A live game's link is sent to someone who is there to play:
// by the next day it is forgotten. A correspondence game's is sent by
// mail to someone who plays a move a day at his own time, and may take
// some days to answer: a week, the longest of the days per move but one.
var DefaultInvitationLimits = InvitationLimits{
	PerClient: 10, Total: 10000,
	Rate:   throttle.Limit{Burst: 10, Every: 20 * time.Second},
	Expiry: 24 * time.Hour, CorrespondenceExpiry: 7 * 24 * time.Hour,
}

// withDefaults fills in the limits not set.
func (l InvitationLimits) withDefaults() InvitationLimits {
	d := DefaultInvitationLimits
	if l.PerClient <= 0 {
		l.PerClient = d.PerClient
	}
	if l.Total <= 0 {
		l.Total = d.Total
	}
	if l.Rate == (throttle.Limit{}) {
		l.Rate = d.Rate
	}
	if l.Expiry <= 0 {
		l.Expiry = d.Expiry
	}
	if l.CorrespondenceExpiry <= 0 {
		l.CorrespondenceExpiry = d.CorrespondenceExpiry
	}
	return l
}

// errInvitationsFull refuses an invitation while the site has as many
// waiting as it takes.
var errInvitationsFull = errors.New("the site has as many games waiting for a second player as it can take: try again later")

// createInvitation stores rd, a new friend game with a seat open, within
// the bounds of InvitationLimits: the rate of its creator's new
// invitations first, then his invitations that wait and the site's, which
// the store counts as it creates the game.
func (s *Server) createInvitation(r *request, rd *round.Round) error {
	lim := s.cfg.Invitations
	p := rd.Seats[0]
	if !p.Joined() {
		p = rd.Seats[1]
	}
	return s.createBounded(r, rd, p, creationBound{
		rate: s.invitationRate, perClient: lim.PerClient, total: lim.Total,
		tooFast: func(secs int) error {
			return &apiError{http.StatusTooManyRequests, codeInvitationsTooFast,
				fmt.Sprintf("you are inviting friends to games too fast: wait %s and try again", waitText(secs)),
				map[string]any{"n": secs}}
		},
		tooMany: &apiError{http.StatusTooManyRequests, codeTooManyInvitations,
			fmt.Sprintf("you have %d games waiting for a friend to join, as many as you may: abort one, or wait for a friend to join it", lim.PerClient),
			map[string]any{"n": lim.PerClient}},
		full: errInvitationsFull, refused: &s.metrics.invitationsRefused,
	}, func(admit func(creatorCount) error) error {
		return s.st.CreateInvitation(r.Context(), rd.Stored(rd.Created), func(n store.InvitationCount) error {
			return admit(creatorCount(n))
		})
	})
}

// invitationIdle is, for the state of an invitation that waits, how long
// after its creation it is aborted (idleJSON.AbortMS); nil for any other
// game.
func (s *Server) invitationIdle(r *round.Round) *idleJSON {
	if !r.WaitsForFriend() {
		return nil
	}
	return &idleJSON{AbortMS: s.rounds.InvitationExpiry(r).Milliseconds()}
}
