package server

import (
	"context"
	"errors"
	"sync"
	"time"

	"emergo/game"
	"emergo/notify"
	"emergo/round"
	"emergo/rules"
	"emergo/store"
	"emergo/tournament"
)

// The director runs the tournaments: every Config.TournamentSweep each
// server writes the results of the tournaments' games that have ended,
// starts the tournaments whose start has come, pairs the next round (the
// waiting players of an arena) and finishes what is done. Servers
// sharing a store all direct, and race: the store pairs a round once
// (tournament.Store's Pair), and a result or a change of status written
// by another is read at the next sweep.

// directed remembers the version of each tournament at the last sweep
// that looked at it, so that a sweep passes over the tournaments that
// have not changed and have nothing due.
type directed struct {
	mu   sync.Mutex
	seen map[string]int64
}

// sweepTournaments is one sweep of the director.
func (s *Server) sweepTournaments() {
	ctx := s.ctx
	s.abortUnstarted(ctx)
	ended, err := s.tours.Ended(ctx)
	if err != nil {
		s.logTournament("ended games", "", err)
		return
	}
	for _, e := range ended {
		if err := s.tours.Record(ctx, e.Tournament, e.Round, e.Board, tournament.ResultOf(e.Result, e.Plies)); err != nil {
			s.logTournament("record", e.Tournament, err)
			continue
		}
		s.tourHub.changed(e.Tournament)
	}
	list, err := s.tours.Tournaments(ctx, 0)
	if err != nil {
		s.logTournament("list", "", err)
		return
	}
	now := s.now()
	s.directed.mu.Lock()
	if s.directed.seen == nil {
		s.directed.seen = map[string]int64{}
	}
	var due []*tournament.Tournament
	live := map[string]bool{}
	for _, t := range list {
		live[t.ID] = true
		timed := (t.Status == tournament.Created && !t.Start.IsZero() && !now.Before(t.Start)) ||
			(t.Status == tournament.Running && t.System == tournament.Arena && !now.Before(t.Ends))
		if timed || s.directed.seen[t.ID] != t.Version {
			due = append(due, t)
		}
	}
	for id := range s.directed.seen {
		if !live[id] {
			delete(s.directed.seen, id)
		}
	}
	s.directed.mu.Unlock()
	for _, t := range due {
		if ctx.Err() != nil {
			return
		}
		if err := s.direct(ctx, t, now); err != nil && !errors.Is(err, tournament.ErrConflict) {
			s.logTournament("direct", t.ID, err)
			continue
		}
		if err == nil {
			s.directed.mu.Lock()
			s.directed.seen[t.ID] = t.Version
			s.directed.mu.Unlock()
		}
	}
}

// abortUnstarted aborts the live games of the tournaments whose players
// have not both moved within Config.TournamentFirstMove of the game's
// start, in the name of the player to move: their clocks start with
// their first moves, and a player who never comes would hold up the
// round. The pairing's result is then a forfeit lost by him
// (tournament.ResultOf).
func (s *Server) abortUnstarted(ctx context.Context) {
	stalled, err := s.tours.Unstarted(ctx, s.now().Add(-s.cfg.TournamentFirstMove))
	if err != nil {
		s.logTournament("unstarted games", "", err)
		return
	}
	for _, e := range stalled {
		absent := e.White
		if e.Plies == 1 {
			absent = e.Black
		}
		_, err := s.rounds.Abort(ctx, e.Game, round.Player{User: absent})
		if err != nil && !errors.Is(err, game.ErrTooLate) && !errors.As(err, new(*game.OverError)) {
			s.logTournament("abort unstarted", e.Tournament, err)
		}
	}
}

func (s *Server) logTournament(what, id string, err error) {
	if s.ctx.Err() == nil {
		s.log.Error("tournament "+what, "tournament", id, "err", err)
	}
}

// direct does what is due in tournament t at now. A conflict (another
// server, or a request, changed it meanwhile) leaves it to the next
// sweep.
func (s *Server) direct(ctx context.Context, t *tournament.Tournament, now time.Time) error {
	switch t.Status {
	case tournament.Created:
		if t.Start.IsZero() || now.Before(t.Start) {
			return nil
		}
		entries, err := s.tours.Entries(ctx, t.ID)
		if err != nil {
			return err
		}
		if tooFew(t, entries) {
			return s.setStatus(ctx, t, tournament.Cancelled, now, entries)
		}
		if err := s.setStatus(ctx, t, tournament.Running, now, entries); err != nil {
			return err
		}
		return s.direct(ctx, t, now) // its first round at once
	case tournament.Running:
	default:
		return nil
	}
	entries, err := s.tours.Entries(ctx, t.ID)
	if err != nil {
		return err
	}
	ps, err := s.tours.Pairings(ctx, t.ID)
	if err != nil {
		return err
	}
	if t.System == tournament.Arena {
		if !now.Before(t.Ends) {
			// The games begun before the end count when they end.
			if len(tournament.Playing(ps)) == 0 {
				return s.setStatus(ctx, t, tournament.Finished, now, entries)
			}
			return nil
		}
		batch := tournament.ArenaPairs(entries, ps, t.Round+1)
		if len(batch) == 0 {
			return nil
		}
		return s.pairRound(ctx, t, entries, batch)
	}
	if !tournament.RoundDone(ps, t.Round) {
		return nil
	}
	next, err := tournament.Next(t, entries, ps)
	if errors.Is(err, tournament.ErrNoRound) {
		return s.setStatus(ctx, t, tournament.Finished, now, entries)
	}
	if err != nil {
		return err
	}
	return s.pairRound(ctx, t, entries, next)
}

// tooFew reports whether t has too few players to start: two, and
// three for a round robin (the Berger tables' least).
func tooFew(t *tournament.Tournament, entries []tournament.Entry) bool {
	least := 2
	if t.System == tournament.RoundRobin {
		least = 3
	}
	return len(entries) < least
}

// setStatus gives t status at now: a start sets its start time, an
// arena's end and a round robin's number of rounds.
func (s *Server) setStatus(ctx context.Context, t *tournament.Tournament, status tournament.Status, now time.Time, entries []tournament.Entry) error {
	next := *t
	next.Status = status
	if status == tournament.Running && t.Status == tournament.Created {
		next.Started = now
		switch t.System {
		case tournament.Arena:
			next.Ends = now.Add(time.Duration(t.Minutes) * time.Minute)
		case tournament.RoundRobin:
			next.Rounds = tournament.TableRounds(len(entries), t.Double)
		}
	}
	if err := s.tours.UpdateTournament(ctx, &next); err != nil {
		return err
	}
	*t = next
	s.log.Info("tournament", "id", t.ID, "status", string(status))
	s.tourHub.changed(t.ID)
	return nil
}

// pairRound writes the pairings ps of round t.Round+1 with a new game
// for each of them to play (as a challenge accepted makes one), and
// begins the games. Another server that paired the round first makes it
// a conflict, and nothing is written.
func (s *Server) pairRound(ctx context.Context, t *tournament.Tournament, entries []tournament.Entry, ps []tournament.Pairing) error {
	byUser := map[int64]tournament.Entry{}
	for _, e := range entries {
		byUser[e.User] = e
	}
	control := game.Control{Time: t.Initial, Increment: t.Increment, Days: t.Days}
	var games []*store.Game
	for i := range ps {
		p := &ps[i]
		if p.Result != tournament.Pending {
			continue
		}
		rd := s.rounds.New(newID(), round.Friend, rules.GeometryOf(t.Size), control)
		rd.Rated = t.Rated
		for c, u := range [2]int64{p.White, p.Black} {
			e := byUser[u]
			rd.Seats[c] = round.Seat{Name: e.Name, User: e.User, Bot: e.Bot}
		}
		rd.Game.Start()
		p.Game = rd.ID
		games = append(games, rd.Stored(rd.Created))
	}
	number := t.Round + 1
	if err := s.tours.Pair(ctx, t.ID, number, ps, games); err != nil {
		return err
	}
	t.Round = number
	t.Version++
	s.log.Info("tournament paired", "id", t.ID, "round", number, "games", len(games))
	for _, g := range games {
		s.metrics.gamesCreated.Add(1)
		// A failure to begin is the players' first request's to tell.
		s.rounds.Begin(ctx, g.ID)
		// An arena's players are on its page: they are not told.
		if t.System != tournament.Arena {
			for c, st := range g.Seats {
				s.tell(ctx, notify.Notification{User: st.UserID, Type: notify.TournamentRound, Game: g.ID, From: g.Seats[1-c].UserID})
			}
		}
	}
	s.tourHub.changed(t.ID)
	return nil
}

// tourHub wakes the viewers of each tournament when it changes: at once
// for the changes this server makes, and by polling the tournament's
// version in the store (one poll a tournament, whatever its number of
// viewers) for those of the other servers.
type tourHub struct {
	mu      sync.Mutex
	watches map[string]*tourWatch
}

type tourWatch struct {
	subs    map[chan<- struct{}]struct{}
	version int64
}

// changed wakes the viewers of tournament id.
func (h *tourHub) changed(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if w := h.watches[id]; w != nil {
		w.wake()
	}
}

func (w *tourWatch) wake() {
	for c := range w.subs {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

// watchTournament wakes wake when tournament id changes, until the
// returned function is called.
func (s *Server) watchTournament(id string, wake chan<- struct{}) func() {
	h := &s.tourHub
	h.mu.Lock()
	if h.watches == nil {
		h.watches = map[string]*tourWatch{}
	}
	w := h.watches[id]
	if w == nil {
		w = &tourWatch{subs: map[chan<- struct{}]struct{}{}, version: -1}
		h.watches[id] = w
		s.bg.Add(1)
		go s.pollTournament(id, w)
	}
	w.subs[wake] = struct{}{}
	h.mu.Unlock()
	return func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		delete(w.subs, wake)
	}
}

// pollTournament reads tournament id's version every sweep while it has
// viewers, and wakes them when it changes.
func (s *Server) pollTournament(id string, w *tourWatch) {
	defer s.bg.Done()
	tick := time.NewTicker(s.cfg.TournamentSweep)
	defer tick.Stop()
	h := &s.tourHub
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-tick.C:
		}
		h.mu.Lock()
		if len(w.subs) == 0 {
			delete(h.watches, id)
			h.mu.Unlock()
			return
		}
		h.mu.Unlock()
		v, err := s.tours.TournamentVersion(s.ctx, id)
		if err != nil {
			continue
		}
		h.mu.Lock()
		if v != w.version {
			w.version = v
			w.wake()
		}
		h.mu.Unlock()
	}
}
