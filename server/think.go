package server

import (
	"context"
	"time"

	"emergo/player"
	"emergo/rules"
	"emergo/search"
)

// engineMoveTime caps the engine's thought per move on the server, so that
// level 10 without a clock answers in reasonable time.
const engineMoveTime = 2 * time.Second

// maybeThink starts the engine if it is to move in lv (locked).
func (s *Server) maybeThink(lv *live) {
	g := lv.g
	if g.Result != "*" || lv.thinking || s.ctx.Err() != nil {
		return
	}
	side := lv.side()
	if !g.Seats[side].Engine || len(lv.rg.Legal()) == 0 {
		return
	}
	lv.thinking = true
	version := g.Version
	rg := lv.rg.Clone()
	clock := player.Clock{MoveTime: engineMoveTime}
	if clockRunning(g) {
		left := lv.timeLeft(s.now())
		clock = player.Clock{Time: left, Inc: [2]time.Duration{g.Increment, g.Increment}}
	}
	level, seed := g.Level, uint64(len(g.Moves))+uint64(g.Created.UnixNano())
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		m, err := s.engineMove(rg, level, seed, clock)
		lv.mu.Lock()
		defer lv.mu.Unlock()
		lv.thinking = false
		if s.ctx.Err() != nil {
			return
		}
		if err != nil || lv.g.Version != version {
			// The game changed while the engine thought (a take-back, a
			// resignation): think again about the new position.
			s.maybeThink(lv)
			if err != nil {
				s.log.Error("engine move", "game", lv.g.ID, "err", err)
			}
			return
		}
		if err := s.play(s.ctx, lv, m); err != nil {
			s.log.Error("engine move", "game", lv.g.ID, "move", m.Text(rg.Geometry()), "err", err)
		}
	}()
	lv.wake() // viewers learn that the engine is thinking
}

// engineMove waits for a free engine slot and searches.
func (s *Server) engineMove(rg *rules.Game, level int, seed uint64, clock player.Clock) (rules.Move, error) {
	select {
	case s.engines <- struct{}{}:
	case <-s.ctx.Done():
		return rules.Move{}, s.ctx.Err()
	}
	defer func() { <-s.engines }()
	s.metrics.searching.Add(1)
	defer s.metrics.searching.Add(-1)
	se := s.searches.Get().(*search.Engine)
	defer s.searches.Put(se)
	se.NewGame()
	e, err := player.NewEngine(level, player.EngineOptions{Seed: seed, Search: se})
	if err != nil {
		return rules.Move{}, err
	}
	m, err := e.Move(s.ctx, rg, clock)
	if err == nil {
		s.metrics.engineMoves.Add(1)
	}
	return m, err
}

// analyse searches a position for the analysis board, within the engine
// slots, to depth or for at most analysisTime.
func (s *Server) analyse(ctx context.Context, rg *rules.Game, depth int) (search.Result, error) {
	select {
	case s.engines <- struct{}{}:
	case <-ctx.Done():
		return search.Result{}, ctx.Err()
	}
	defer func() { <-s.engines }()
	s.metrics.searching.Add(1)
	defer s.metrics.searching.Add(-1)
	e := s.searches.Get().(*search.Engine)
	defer s.searches.Put(e)
	e.NewGame()
	p := rg.Position()
	return e.Search(ctx, p, search.HistoryOf(rg), search.Limits{Depth: depth, MoveTime: analysisTime}, nil), nil
}

const analysisTime = 5 * time.Second
