// Package match plays matches between two players, in this process or as
// engines in other processes (External), and measures the difference in
// strength: Elo with its confidence interval, the likelihood of
// superiority and a sequential probability ratio test (stats.go, with the
// formulas).
//
// The rules engine is the referee: every move goes through rules.Game.Play,
// and the board ends the games it decides. The match ends the others: a
// crash, a time forfeit or an illegal move loses, and a game that reaches
// the ply limit is adjudicated a draw. Each opening is played twice with
// the colours swapped, a game pair, so that the openings' bias cancels;
// pairs run side by side on several workers, and every game is written to
// a PGN-style record file (package record).
package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"emergo/game"
	"emergo/player"
	"emergo/record"
	"emergo/rules"
)

const (
	DefaultGrace  = 200 * time.Millisecond
	defaultEvent  = "emergo match"
	openingMarker = "end of opening"
)

// Config is a match.
type Config struct {
	P1, P2 Spec
	// TC holds the time controls of P1 and P2.
	TC [2]TimeControl
	// Games is the number of games, rounded up to an even number: every
	// opening is played twice, the colours swapped.
	Games int
	// Sizes are the boards (9, 7): pair k is played on Sizes[k mod
	// len(Sizes)]. Default 9 only.
	Sizes []int
	// Openings, if set, are used in turn, pair k taking Openings[k mod
	// len(Openings)], and Sizes is ignored. Otherwise the openings are
	// generated from Seed with OpeningOptions.
	Openings       []Opening
	OpeningOptions OpeningOptions
	// Concurrency is the number of game pairs played at once; default 1.
	Concurrency int
	// MaxPlies adjudicates a draw when a game reaches this many moves,
	// the opening's included; 0 for no limit.
	MaxPlies int
	// Grace is how far a player may overrun its time before it loses on
	// time; default DefaultGrace.
	Grace time.Duration
	// SPRT, if set, is tested after every game, over the finished pairs,
	// and the match stops starting pairs when it accepts either
	// hypothesis.
	SPRT *SPRT
	// Seed fixes the openings and the players' randomness.
	Seed uint64
	// PGN, if set, receives the record of every game, in game order.
	PGN io.Writer
	// Event is the Event tag of the records; default "emergo match".
	Event string
}

func (cfg *Config) check() error {
	switch {
	case cfg.P1.New == nil || cfg.P2.New == nil:
		return errors.New("match: both players are needed")
	case cfg.Games < 1:
		return fmt.Errorf("match: %d games: at least one is needed", cfg.Games)
	case cfg.MaxPlies < 0:
		return fmt.Errorf("match: ply limit %d is negative", cfg.MaxPlies)
	}
	for _, n := range cfg.Sizes {
		if rules.GeometryOf(n) == nil {
			return fmt.Errorf("match: board size %d: it is 9 or 7", n)
		}
	}
	if cfg.SPRT != nil {
		return cfg.SPRT.check()
	}
	return nil
}

// pairOpenings returns the opening of every pair.
func (cfg *Config) pairOpenings(pairs int) ([]Opening, error) {
	out := make([]Opening, pairs)
	if len(cfg.Openings) > 0 {
		for k := range out {
			out[k] = cfg.Openings[k%len(cfg.Openings)]
			if _, err := out[k].Game(); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	sizes := cfg.Sizes
	if len(sizes) == 0 {
		sizes = []int{9}
	}
	for i, n := range sizes {
		need := (pairs - i + len(sizes) - 1) / len(sizes)
		if need <= 0 {
			continue
		}
		ops, err := GenerateOpenings(rules.GeometryOf(n), need, cfg.Seed, cfg.OpeningOptions)
		if err != nil {
			return nil, err
		}
		for j, op := range ops {
			out[i+j*len(sizes)] = op
		}
	}
	return out, nil
}

// Run plays the match and returns its summary. progress, if not nil, is
// called after every game, one call at a time. When ctx ends, the games in
// progress are abandoned and Run returns the summary of the finished ones
// with ctx's error.
func Run(ctx context.Context, cfg Config, progress func(Progress)) (Summary, error) {
	if err := cfg.check(); err != nil {
		return Summary{}, err
	}
	if cfg.Grace <= 0 {
		cfg.Grace = DefaultGrace
	}
	if cfg.Event == "" {
		cfg.Event = defaultEvent
	}
	pairs := (cfg.Games + 1) / 2
	openings, err := cfg.pairOpenings(pairs)
	if err != nil {
		return Summary{}, err
	}
	sum := Summary{P1: cfg.P1.Text, P2: cfg.P2.Text, TC: cfg.TC, Planned: 2 * pairs, SPRT: cfg.SPRT}
	for _, op := range openings {
		if n := op.Start.Geometry().N; !slices.Contains(sum.Sizes, n) {
			sum.Sizes = append(sum.Sizes, n)
		}
	}
	// Make each player once before the games, so that a spec that cannot
	// work (an engine that does not start) fails the match at once
	// instead of losing every game.
	for _, sp := range []Spec{cfg.P1, cfg.P2} {
		p, err := sp.New(ctx, cfg.Seed)
		if err != nil {
			// An engine's own error names the engine already.
			var ee *EngineError
			if !errors.As(err, &ee) {
				err = fmt.Errorf("match: player %s: %w", sp.Text, err)
			}
			return sum, err
		}
		closePlayer(p)
	}

	r := &runner{cfg: cfg, openings: openings, results: make([]*GameResult, 2*pairs), progress: progress, sum: &sum}
	if cfg.PGN != nil {
		r.pgn = record.NewEncoder(cfg.PGN)
	}
	workers := min(max(cfg.Concurrency, 1), pairs)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() { r.work(ctx) })
	}
	wg.Wait()

	for _, g := range r.results {
		if g != nil {
			sum.Games = append(sum.Games, *g)
		}
	}
	r.flush(true)
	if cfg.SPRT != nil {
		sum.LLR = sum.Counts.LLR(*cfg.SPRT)
		sum.Decision = cfg.SPRT.Decide(sum.LLR)
	}
	if r.err != nil {
		return sum, r.err
	}
	return sum, ctx.Err()
}

// runner is the shared state of the workers of a match.
type runner struct {
	cfg      Config
	openings []Opening
	next     atomic.Int64 // the next pair to play
	stop     atomic.Bool  // no new pairs: the SPRT decided or an error

	mu       sync.Mutex // guards everything below
	results  []*GameResult
	written  int // games written to the PGN, in order
	pgn      *record.Encoder
	progress func(Progress)
	sum      *Summary
	err      error
}

// work plays pairs until none is left.
func (r *runner) work(ctx context.Context) {
	for !r.stop.Load() && ctx.Err() == nil {
		k := int(r.next.Add(1) - 1)
		if k >= len(r.openings) {
			return
		}
		for i := range 2 {
			g, err := r.play(ctx, 2*k+i, k, r.openings[k], i == 0)
			if err != nil {
				if ctx.Err() == nil {
					r.fail(err)
				}
				return
			}
			r.finish(g)
		}
	}
}

func (r *runner) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
	}
	r.stop.Store(true)
}

// finish counts a game, reports it and writes the records that are due.
func (r *runner) finish(g *GameResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	idx := g.Number - 1
	r.results[idx] = g
	c := &r.sum.Counts
	c.add(g)
	if mate := r.results[idx^1]; mate != nil {
		c.addPair(g, mate)
	}
	var llr float64
	if s := r.cfg.SPRT; s != nil {
		llr = c.LLR(*s)
		if s.Decide(llr) != Continue {
			r.stop.Store(true)
		}
	}
	if r.progress != nil {
		r.progress(Progress{Game: g, Played: c.Games(), Total: len(r.results), Counts: *c, SPRT: r.cfg.SPRT, LLR: llr})
	}
	r.flush(false)
}

// flush writes the records of the games finished in order; at the end
// (all) also those after a gap left by an abandoned game. r.mu is held,
// or the workers are done.
func (r *runner) flush(all bool) {
	if r.pgn == nil {
		return
	}
	for ; r.written < len(r.results); r.written++ {
		g := r.results[r.written]
		if g == nil {
			if all {
				continue
			}
			return
		}
		if err := r.pgn.Encode(&g.Record); err != nil && r.err == nil {
			r.err = fmt.Errorf("match: writing game %d: %w", g.Number, err)
			r.stop.Store(true)
		}
	}
}

// seedOf returns the seed of player 0 or 1 in game number n: splitmix64
// of the match's seed and both, so that nearby seeds differ in every bit.
func seedOf(seed uint64, n, who int) uint64 {
	z := seed + uint64(2*n+who+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// play plays game index (from 0) of pair k. It returns an error only when
// the game cannot be played at all: ctx ended or the opening is broken.
func (r *runner) play(ctx context.Context, index, k int, op Opening, p1White bool) (*GameResult, error) {
	cfg := &r.cfg
	res := &GameResult{Number: index + 1, Pair: k + 1, P1White: p1White, Size: op.Start.Geometry().N}
	gm, err := op.Game()
	if err != nil {
		return nil, err
	}
	specs := [2]Spec{cfg.P1, cfg.P2}
	tcs := cfg.TC
	who := [2]int{0, 1} // who[colour] is 0 for P1, 1 for P2
	if !p1White {
		specs[0], specs[1] = specs[1], specs[0]
		tcs[0], tcs[1] = tcs[1], tcs[0]
		who = [2]int{1, 0}
	}
	var players [2]player.Player
	defer func() {
		for _, p := range players {
			if p != nil {
				closePlayer(p)
			}
		}
	}()
	names := [2]string{specs[0].Text, specs[1].Text}
	// The match reads the time: the clock is the game's.
	g := game.New(gm, game.Options{Now: time.Now, Control: tcs, Grace: cfg.Grace})
	var note string
	forfeit := func(loser rules.Color, why game.Termination, detail string) {
		if err := g.End(game.Loss(loser, why)); err != nil {
			panic(err) // the game goes on, and a loss fits every reason given
		}
		note = fmt.Sprintf("%s (%s) loses by %s: %s", loser, names[loser], why, detail)
	}
	for c := rules.White; c <= rules.Black && !g.Over(); c++ {
		p, err := specs[c].New(ctx, seedOf(cfg.Seed, index, who[c]))
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			forfeit(c, game.Crash, err.Error())
			continue
		}
		players[c], names[c] = p, p.Name()
		if ng, ok := p.(player.NewGamer); ok {
			ng.NewGame()
		}
	}

	g.Start()
	for !g.Over() {
		if cfg.MaxPlies > 0 && g.Len() >= cfg.MaxPlies {
			if err := g.End(game.Outside(rules.Draw)); err != nil {
				panic(err) // the game goes on
			}
			note = fmt.Sprintf("adjudicated a draw at the ply limit of %d", cfg.MaxPlies)
			break
		}
		side := g.Side()
		mctx, cancel := ctx, context.CancelFunc(func() {})
		lim := limit(g, side)
		if lim > 0 {
			mctx, cancel = context.WithTimeout(ctx, lim+cfg.Grace)
		}
		clock := clockOf(g, side)
		m, err := players[side].Move(mctx, g.Rules(), clock)
		took := time.Since(g.TurnStart()).Round(time.Millisecond)
		cancel()
		res.Times = append(res.Times, MoveTime{Ply: g.Len() + 1, Side: side, Left: clock.Time[side], Took: took})
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		flag := func() {
			g.Flag()
			note = fmt.Sprintf("%s (%s) loses by %s: move %d took %v with %v allowed", side, names[side], game.TimeForfeit, g.Len()+1, took, lim)
		}
		var ill *IllegalMoveError
		switch {
		case g.Flag():
			flag()
		case errors.As(err, &ill):
			forfeit(side, game.IllegalMove, ill.Error())
		case errors.Is(err, context.DeadlineExceeded):
			forfeit(side, game.TimeForfeit, fmt.Sprintf("no move after %v", took))
		case errors.Is(err, ErrTimeout):
			forfeit(side, game.TimeForfeit, err.Error())
		case err != nil:
			forfeit(side, game.Crash, err.Error())
		default:
			switch err := g.Play(side, m); {
			case errors.Is(err, game.ErrTimeOut):
				flag()
			case err != nil:
				forfeit(side, game.IllegalMove, fmt.Sprintf("%s is not legal", m.Text(gm.Geometry())))
			}
		}
	}

	end := g.Ending()
	res.Result, res.Termination, res.Plies = end.Result, end.Termination, g.Len()
	rec := record.Of(g)
	tags := []record.Tag{
		{Key: "Event", Value: cfg.Event},
		{Key: "Date", Value: time.Now().Format("2006.01.02")},
		{Key: "Round", Value: strconv.Itoa(index + 1)},
		{Key: "White", Value: names[0]},
		{Key: "Black", Value: names[1]},
	}
	if tcs[0] == tcs[1] {
		tags = append(tags, record.Tag{Key: "TimeControl", Value: pgnTimeControl(tcs[0])})
	} else {
		tags = append(tags, record.Tag{Key: "WhiteTimeControl", Value: pgnTimeControl(tcs[0])},
			record.Tag{Key: "BlackTimeControl", Value: pgnTimeControl(tcs[1])})
	}
	for _, t := range tags {
		if err := rec.SetTag(t.Key, t.Value); err != nil {
			return nil, fmt.Errorf("match: game %d: %w", index+1, err)
		}
	}
	if n := len(op.Moves); n > 0 {
		rec.Comments = make([]string, len(rec.Moves))
		rec.Comments[n-1] = openingMarker
	}
	if note != "" {
		// A comment is one line of words without the brace that ends it.
		note = strings.Join(strings.Fields(strings.ReplaceAll(note, "}", ")")), " ")
		if len(rec.Moves) == 0 {
			rec.Comment = note
		} else {
			if rec.Comments == nil {
				rec.Comments = make([]string, len(rec.Moves))
			}
			c := &rec.Comments[len(rec.Moves)-1]
			*c = strings.TrimSpace(*c + " " + note)
		}
	}
	res.Record = rec
	return res, nil
}

// closePlayer closes p if it holds resources, such as an engine process.
func closePlayer(p player.Player) {
	if c, ok := p.(io.Closer); ok {
		c.Close()
	}
}
