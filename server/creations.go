package server

import (
	"context"
	"errors"
	"expvar"
	"strconv"
	"time"

	"emergo/round"
	"emergo/throttle"
)

// creationBound bounds the games of one kind that go on which one client
// creates, as the store counts them when it creates one: the engine games
// (enginegames.go) and the invitations (invitations.go). A client is
// counted by the names of creatorNames; the site has a total bound.
type creationBound struct {
	// rate bounds how fast a client creates them.
	rate throttle.Limiter
	// perClient and total are the most a client, and the site, may have.
	perClient, total int
	// tooFast is the refusal of the rate, given the seconds to wait;
	// tooMany that of the client's games, full that of the site's.
	tooFast       func(secs int) error
	tooMany, full error
	// refused counts the refusals.
	refused *expvar.Int
}

// creatorCount is what the store counts of the games a bound counts: of
// the creator's account, of his browser and of his address as a guest
// (store.EngineCount, store.InvitationCount), and of the site.
type creatorCount struct {
	Account, Token, Client int
	Total                  int
}

// creatorNames are the names by which the bounds on what the person p
// creates from the client key client count him: his account, or, for a
// guest, his browser and his address.
func creatorNames(p round.Seat, client string) []string {
	if p.User != 0 {
		return []string{"account:" + strconv.FormatInt(p.User, 10)}
	}
	return []string{"browser:" + p.Token, "address:" + client}
}

// createBounded creates rd, the person p's, within b: the rate of p's
// creations first, then the games that go on of p and of the site, which
// create counts as it stores rd, asking admit. A creation refused gives
// back its rate.
func (s *Server) createBounded(r *request, rd *round.Round, p round.Seat, b creationBound, create func(admit func(creatorCount) error) error) error {
	giveBack, err := s.takeRate(r, b.rate, creatorNames(p, rd.Client), b.tooFast)
	if err != nil {
		if !errors.Is(err, errStorage) {
			b.refused.Add(1)
		}
		return err
	}
	err = create(func(n creatorCount) error {
		mine := n.Account
		if p.User == 0 {
			mine = max(n.Token, n.Client)
		}
		switch {
		case mine >= b.perClient:
			return b.tooMany
		case n.Total >= b.total:
			return b.full
		}
		return nil
	})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, b.tooMany), errors.Is(err, b.full):
		giveBack()
		b.refused.Add(1)
		return err
	}
	giveBack()
	s.metrics.storeErrors.Add(1)
	s.log.Error("create game", "game", rd.ID, "err", err)
	return errStorage
}

// takeRate takes one from rate for each of names, and returns the
// function that gives them back. When a name has none left it gives back
// those taken, sets Retry-After, and returns tooFast given the seconds to
// wait.
func (s *Server) takeRate(r *request, rate throttle.Limiter, names []string, tooFast func(secs int) error) (giveBack func(), err error) {
	ctx := r.Context()
	var taken []string
	giveBack = func() {
		for _, name := range taken {
			if err := rate.Give(context.WithoutCancel(ctx), name); err != nil {
				s.log.Error("creation rate: give back", "err", err)
			}
		}
	}
	for _, name := range names {
		wait, err := rate.Take(ctx, name, s.now())
		if err != nil {
			giveBack()
			s.metrics.storeErrors.Add(1)
			s.log.Error("creation rate", "err", err)
			return nil, errStorage
		}
		if wait > 0 {
			giveBack()
			secs := int((wait + time.Second - 1) / time.Second)
			r.w.Header().Set("Retry-After", strconv.Itoa(secs))
			return nil, tooFast(secs)
		}
		taken = append(taken, name)
	}
	return giveBack, nil
}
