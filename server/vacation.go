package server

import (
	"context"
	"errors"
	"net/http"
	"time"

	"emergo/account"
	"emergo/notify"
	"emergo/round"
)

// Vacation: an account pauses the deadlines of its correspondence games
// for a few days a year (package account keeps the rules, package round
// postpones the turns): POST /api/account/vacation begins one, DELETE
// ends it early. Its opponents are told, the games and the profile show
// it, and GET /api/account/me says how many days are left.

// vacationJSON is the answer of POST and DELETE /api/account/vacation:
// the end of the vacation under way (null for none), and the days of
// the year's allowance left.
type vacationJSON struct {
	Until    *string `json:"until"`
	DaysLeft int     `json:"daysLeft"`
}

// meJSON is the viewer's account with its vacation (GET
// /api/account/me): the end of the vacation under way or null, the days
// left of the year's allowance, and the allowance.
type meJSON struct {
	*userJSON
	Vacation         *string `json:"vacation"`
	VacationDaysLeft int     `json:"vacationDaysLeft"`
	// VacationAllowance is the days of vacation of a year.
	VacationAllowance int `json:"vacationAllowance"`
}

// vacationUntil is the end of the vacation v in the API's words, if it
// runs at now; nil otherwise.
func vacationUntil(v account.Vacation, now time.Time) *string {
	if !v.On(now) {
		return nil
	}
	until := formatDeadline(v.Until)
	return &until
}

// vacationsOf returns the store of the vacations and the account asking,
// or the error to answer with.
func (s *Server) vacationsOf(r *request) (account.VacationStore, int64, error) {
	if s.vacations == nil {
		return nil, 0, errNoAccounts
	}
	if r.user == nil {
		return nil, 0, errLogInFirst
	}
	return s.vacations, r.user.ID, nil
}

// vacationError is the answer to a vacation refused: v is the account's
// as it stands.
func (s *Server) vacationError(err error, v account.Vacation, now time.Time) error {
	switch left := v.DaysLeft(now); {
	case errors.Is(err, account.ErrOnVacation):
		return &apiError{http.StatusConflict, codeOnVacation, "you are on vacation already, until " + formatDeadline(v.Until),
			map[string]any{"until": formatDeadline(v.Until)}}
	case errors.Is(err, account.ErrNotOnVacation):
		return failure(http.StatusConflict, codeNotOnVacation, "you are not on vacation")
	case errors.Is(err, account.ErrVacationDays) && left == 0:
		return failure(http.StatusConflict, codeNoVacationDay, "you have taken all your days of vacation this year")
	case errors.Is(err, account.ErrVacationDays):
		return &apiError{http.StatusConflict, codeVacationDays, "a vacation is of 1 to the days you have left this year",
			map[string]any{"n": left}}
	}
	s.log.Error("vacation", "err", err)
	return errAccountStorage
}

// handleStartVacation begins a vacation of the viewer's, of {"days": N}
// whole days from now, postpones his turns, and tells his opponents in
// correspondence games.
func (s *Server) handleStartVacation(r *request) (int, any, error) {
	vs, user, err := s.vacationsOf(r)
	if err != nil {
		return 0, nil, err
	}
	var req struct {
		Days int `json:"days"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	now := s.now()
	v, err := account.StartVacation(r.Context(), vs, user, now, req.Days)
	if err != nil {
		return 0, nil, s.vacationError(err, v, now)
	}
	// The vacation is kept: its games are postponed whether or not the
	// client waits for the answer.
	ctx := context.WithoutCancel(r.Context())
	opponents, err := s.rounds.Away(ctx, user, v)
	if err != nil {
		s.log.Error("vacation: the games", "user", user, "err", err)
	}
	for opponent, game := range opponents {
		s.tell(ctx, notify.Notification{User: opponent, Type: notify.Vacation, Game: game, From: user})
	}
	return http.StatusOK, vacationJSON{Until: vacationUntil(v, now), DaysLeft: v.DaysLeft(now)}, nil
}

// handleEndVacation ends the viewer's vacation now, gives back its whole
// days not reached, and takes back what it postponed beyond now.
func (s *Server) handleEndVacation(r *request) (int, any, error) {
	vs, user, err := s.vacationsOf(r)
	if err != nil {
		return 0, nil, err
	}
	now := s.now().Truncate(time.Millisecond)
	was, err := account.EndVacation(r.Context(), vs, user, now)
	if err != nil {
		return 0, nil, s.vacationError(err, was, now)
	}
	if err := s.rounds.Back(context.WithoutCancel(r.Context()), user, was, now); err != nil {
		s.log.Error("vacation: the games", "user", user, "err", err)
	}
	v, err := vs.Vacation(r.Context(), user)
	if err != nil {
		return 0, nil, s.vacationError(err, v, now)
	}
	return http.StatusOK, vacationJSON{DaysLeft: v.DaysLeft(now)}, nil
}

// handleMe answers the viewer's account, with its vacation if the store
// keeps them; null for a guest.
func (s *Server) handleMe(r *request) (int, any, error) {
	if r.user == nil || s.vacations == nil {
		return http.StatusOK, me(r.user), nil
	}
	now := s.now()
	v, err := s.vacations.Vacation(r.Context(), r.user.ID)
	if err != nil {
		return 0, nil, s.vacationError(err, v, now)
	}
	return http.StatusOK, meJSON{userJSON: me(r.user), Vacation: vacationUntil(v, now), VacationDaysLeft: v.DaysLeft(now),
		VacationAllowance: account.VacationAllowance}, nil
}

// vacationState is the vacations of a game's players as its state shows
// them: until when each account on vacation is away, by colour; nil for
// none.
func (s *Server) vacationState(v round.View) map[string]string {
	var out map[string]string
	now := s.now()
	for c, until := range v.Away {
		if until.After(now) {
			if out == nil {
				out = map[string]string{}
			}
			out[colorNames[c]] = formatDeadline(until)
		}
	}
	return out
}

// profileVacation is the end of the vacation of the account id under
// way, for its profile; nil for none, or when it cannot be read (the
// profile is shown without it).
func (s *Server) profileVacation(ctx context.Context, id int64) *string {
	if s.vacations == nil {
		return nil
	}
	v, err := s.vacations.Vacation(ctx, id)
	if err != nil {
		s.log.Error("vacation", "user", id, "err", err)
		return nil
	}
	return vacationUntil(v, s.now())
}
