package server

import (
	"context"
	"time"

	"emergo/player"
	"emergo/rules"
)

// engineMoveTime caps the engine's thought per move on the server, so that
// level 10 without a clock answers in reasonable time.
const engineMoveTime = 2 * time.Second

// maybeThink starts the engine if it is to move in lv (locked).
func (s *Server) maybeThink(lv *live) {
	r := lv.r
	g := r.game
	if g.Over() || lv.thinking || s.ctx.Err() != nil {
		return
	}
	side := g.Side()
	if !r.seats[side].engine || len(g.Rules().Legal()) == 0 {
		return
	}
	lv.thinking = true
	version := r.version
	rg := g.Rules().Clone()
	clock := player.Clock{MoveTime: engineMoveTime}
	if _, running := g.Running(); running {
		inc := g.Control(side).Increment
		clock = player.Clock{Time: [2]time.Duration{g.Left(rules.White), g.Left(rules.Black)}, Inc: [2]time.Duration{inc, inc}}
	}
	level, seed := r.level, uint64(g.Len())+uint64(r.created.UnixNano())
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
		if err != nil || lv.r.version != version {
			// The game changed while the engine thought (a take-back, a
			// resignation): think again about the new position. The
			// viewers learn that the thought was dropped, whether or not
			// a new one starts.
			s.maybeThink(lv)
			lv.wake()
			if err != nil {
				s.log.Error("engine move", "game", lv.r.id, "err", err)
			}
			return
		}
		if err := s.play(s.ctx, lv, side, m); err != nil {
			s.log.Error("engine move", "game", lv.r.id, "move", m.Text(rg.Geometry()), "err", err)
		}
	}()
	lv.wake() // viewers learn that the engine is thinking
}

// engineWork runs work on a search from the pool once one is free, or
// returns ctx's error if ctx ends first. It is the one way the server's
// engine work (its moves, the analysis board, draw offers) reaches the
// engine: the place that bounds it, counts it and, one day, orders it.
func (s *Server) engineWork(ctx context.Context, work func(*player.Searcher) error) error {
	se, err := s.searches.Get(ctx)
	if err != nil {
		return err
	}
	defer s.searches.Put(se)
	s.metrics.searching.Add(1)
	defer s.metrics.searching.Add(-1)
	return work(se)
}

// engineMove lets the engine at level choose a move in rg.
func (s *Server) engineMove(rg *rules.Game, level int, seed uint64, clock player.Clock) (m rules.Move, err error) {
	err = s.engineWork(s.ctx, func(se *player.Searcher) error {
		e, err := player.NewEngine(level, player.EngineOptions{Seed: seed, Search: se})
		if err != nil {
			return err
		}
		m, err = e.Move(s.ctx, rg, clock)
		return err
	})
	if err == nil {
		s.metrics.engineMoves.Add(1)
	}
	return m, err
}

// analyse searches a position for the analysis board and the engine's
// answer to a draw offer, to depth or for at most analysisTime.
func (s *Server) analyse(ctx context.Context, rg *rules.Game, depth int) (res player.Result, err error) {
	err = s.engineWork(ctx, func(se *player.Searcher) error {
		res = se.Search(ctx, rg, player.Limits{Depth: depth, MoveTime: analysisTime}, nil)
		return nil
	})
	return res, err
}

const analysisTime = 5 * time.Second
