package puzzle

import (
	"context"
	"fmt"

	"emergo/player"
	"emergo/rules"
)

// GenConfig says where Gen looks for puzzles and how.
type GenConfig struct {
	Size int // board size, 9 or 7
	// Records are games to look in before the self-play games, such as the
	// site's; games of another size are passed over.
	Records []*rules.Game
	// Games is the number of self-play games.
	Games int
	// Seed makes the self-play games: the set is a function of the config.
	Seed     uint64
	Criteria Criteria
	// Count, if positive, stops the work once that many puzzles are found.
	Count int
	// ScreenDepth is the depth of the search that picks the candidates
	// worth verifying, default 4.
	ScreenDepth int
	// PlayDepth and PlayMargin are the self-play engines' depth and noise
	// (player.Level), default 3 and 100: noisy enough to make the mistakes
	// that leave a winning shot.
	PlayDepth  int
	PlayMargin int32
	// MaxPlies ends a self-play game, default 200.
	MaxPlies int
}

// GenStats count the work of Gen.
type GenStats struct {
	Games      int // games looked through, records and self-play
	Positions  int // positions screened
	Candidates int // positions verified at the full depth
	Puzzles    int // puzzles found
}

// Gen looks through the records then the self-play games of cfg, screens
// every position with a shallow search and verifies the candidates at
// the criteria's depth. Each puzzle goes to emit as soon as it is found;
// a position seen before, or a puzzle already found, is skipped. progress,
// if set, is called after each position. It stops when the games are
// done, Count is reached, emit fails or ctx ends (returning ctx's error).
// Everything runs on one goroutine with fixed depths, so the puzzles are
// a function of cfg.
func Gen(ctx context.Context, cfg GenConfig, emit func(Puzzle) error, progress func(GenStats)) (GenStats, error) {
	if rules.GeometryOf(cfg.Size) == nil {
		return GenStats{}, fmt.Errorf("puzzle: board size %d: want 9 or 7", cfg.Size)
	}
	if cfg.ScreenDepth == 0 {
		cfg.ScreenDepth = 4
	}
	if cfg.PlayDepth == 0 {
		cfg.PlayDepth = 3
	}
	if cfg.PlayMargin == 0 {
		cfg.PlayMargin = 100
	}
	if cfg.MaxPlies == 0 {
		cfg.MaxPlies = 200
	}
	gen := &generator{cfg: cfg, v: NewVerifier(cfg.Criteria), emit: emit, progress: progress,
		seen: map[uint64]bool{}, ids: map[string]bool{}}
	for i, g := range cfg.Records {
		if g.Geometry().N != cfg.Size {
			continue
		}
		gen.stats.Games++
		for ply := 0; ply <= g.Len(); ply++ {
			if done, err := gen.look(ctx, g.PositionAt(ply), fmt.Sprintf("record %d ply %d", i+1, ply)); done || err != nil {
				return gen.stats, err
			}
		}
	}
	for i := range cfg.Games {
		gen.stats.Games++
		if done, err := gen.selfPlay(ctx, i); done || err != nil {
			return gen.stats, err
		}
	}
	return gen.stats, nil
}

type generator struct {
	cfg      GenConfig
	v        *Verifier
	emit     func(Puzzle) error
	progress func(GenStats)
	stats    GenStats
	seen     map[uint64]bool // positions screened, by hash
	ids      map[string]bool
}

// selfPlay plays self-play game i and looks at each of its positions.
func (gen *generator) selfPlay(ctx context.Context, i int) (done bool, err error) {
	seed := gen.cfg.Seed*1_000_003 + uint64(i)
	lv := player.Level{Depth: gen.cfg.PlayDepth, Margin: gen.cfg.PlayMargin}
	var eng [2]*player.Engine
	for c := range eng {
		if eng[c], err = player.NewEngine(3, player.EngineOptions{HashMiB: 2, Seed: seed*2 + uint64(c), Limits: &lv}); err != nil {
			return true, err
		}
	}
	g := rules.NewGame(rules.GeometryOf(gen.cfg.Size))
	for ply := 0; ply < gen.cfg.MaxPlies && !g.Outcome().Over(); ply++ {
		if done, err := gen.look(ctx, g.Position(), fmt.Sprintf("self-play %d ply %d", i+1, ply)); done || err != nil {
			return done, err
		}
		p := g.Position()
		m, err := eng[p.Side()].Move(ctx, g, player.Clock{})
		if err != nil {
			return true, err
		}
		if err := g.Play(m); err != nil {
			panic("puzzle: the engine's move is not legal: " + err.Error())
		}
	}
	return false, ctx.Err()
}

// look screens pos and verifies it if it is a candidate. done is true
// once the work should stop.
func (gen *generator) look(ctx context.Context, pos rules.Position, origin string) (done bool, err error) {
	if err := ctx.Err(); err != nil {
		return true, err
	}
	if gen.seen[pos.Hash()] {
		return false, nil
	}
	gen.seen[pos.Hash()] = true
	g := rules.NewGameFrom(pos)
	if len(g.Legal()) < 2 {
		return false, nil
	}
	gen.stats.Positions++
	defer func() {
		if gen.progress != nil {
			gen.progress(gen.stats)
		}
	}()
	ch, err := gen.v.Examine(ctx, g, gen.cfg.ScreenDepth)
	if err != nil {
		return true, err
	}
	if !gen.candidate(ch) {
		return false, nil
	}
	gen.stats.Candidates++
	p, ok, err := gen.v.Solve(ctx, pos)
	if err != nil {
		return true, err
	}
	if !ok || gen.ids[p.ID] {
		return false, nil
	}
	gen.ids[p.ID] = true
	// The positions of the line would make puzzles of its tail.
	for i := range p.Line {
		q := p.Game(i + 1).Position()
		gen.seen[q.Hash()] = true
	}
	p.Origin = origin
	if err := gen.emit(p); err != nil {
		return true, err
	}
	gen.stats.Puzzles++
	return gen.cfg.Count > 0 && gen.stats.Puzzles >= gen.cfg.Count, nil
}

// candidate reports whether a shallow search's choice is worth verifying:
// the criteria loosened by a man either way, as the deeper search may
// find more for the best move or less for the others.
func (gen *generator) candidate(ch Choice) bool {
	c := gen.cfg.Criteria
	return ch.Second > -player.Mate && ch.Score >= c.Win-100 && ch.Second <= c.Equal+100 && ch.Score-ch.Second >= (c.Win-c.Equal)/2
}
