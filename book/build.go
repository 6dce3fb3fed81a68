package book

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"emergo/notation"
	"emergo/player"
	"emergo/rules"
)

// Config says how a book is built: everything the book depends on, so
// that one Config always gives the same book, byte for byte.
type Config struct {
	Size  int // 9 or 7
	Games int // self-play games
	// Plies is the book's depth: the positions before this ply of every
	// game are the book's candidates.
	Plies int
	// Nodes is the search of every move of the games: a fixed number of
	// nodes on one thread, the same on every machine.
	Nodes uint64
	// Margin is the variety of the openings: within the book's plies the
	// engine picks among the moves that score within Margin hundredths of
	// a man of the best (player.Level's noise), favouring the better
	// ones, so that the games spread over the sound openings and none of
	// them gives a man away. After them both sides play their best.
	Margin int32
	// Random is the plies at the start of every game played at random,
	// all legal moves alike, before the engine's choices: the engine
	// prefers a few first moves so strongly that its noise alone would
	// leave the others out of the book.
	Random int
	// Depth is the search of every book position's evaluation.
	Depth int
	Seed  uint64
}

// The fixed parts of a build, which a Config does not name: changing one
// changes every book, and the books in book/data must be built again.
const (
	// MinGames is how many games must reach a position for it to be in
	// the book: a position of one game says nothing of the others.
	MinGames = 2
	// maxPlies ends a game that goes on too long, as a draw.
	maxPlies = 300
	// hashMiB is the table of the games' and the evaluations' searches,
	// cleared before each: a game depends on its seed alone, an
	// evaluation on its position alone, not on what came before.
	hashMiB = 4
	// engineLevel names the engines of the games and, with the seed,
	// seeds their choice among the moves within Margin.
	engineLevel = 5
	// randomStream is the stream of the random plies' generator, beside
	// the game's seed.
	randomStream = 0x626f6f6b // "book"
)

// Defaults fills the zero fields of c that have a default: 4,000 nodes a
// move, a margin of 30, evaluations to depth 8, 16 plies on 9x9 and 12 on
// 7x7, the first ply at random on 9x9 and the first two on 7x7.
func (c Config) Defaults() Config {
	if c.Nodes == 0 {
		c.Nodes = 4000
	}
	if c.Margin == 0 {
		c.Margin = 30
	}
	if c.Depth == 0 {
		c.Depth = 8
	}
	if c.Plies == 0 {
		c.Plies = 16
		if c.Size == 7 {
			c.Plies = 12
		}
	}
	if c.Random == 0 {
		c.Random = 1
		if c.Size == 7 {
			c.Random = 2
		}
	}
	return c
}

// Validate says what is wrong with c, if anything.
func (c Config) Validate() error {
	switch {
	case rules.GeometryOf(c.Size) == nil:
		return fmt.Errorf("book: size %d: want 9 or 7", c.Size)
	case c.Games < 1:
		return fmt.Errorf("book: %d games: at least one", c.Games)
	case c.Plies < 1 || c.Plies > maxPlies:
		return fmt.Errorf("book: %d plies: want 1 to %d", c.Plies, maxPlies)
	case c.Nodes < 1:
		return fmt.Errorf("book: %d nodes a move: at least one", c.Nodes)
	case c.Random < 0 || c.Random > c.Plies:
		return fmt.Errorf("book: %d random plies: want 0 to the book's %d plies", c.Random, c.Plies)
	case c.Margin < 0:
		return fmt.Errorf("book: margin %d: not negative", c.Margin)
	case c.Depth < 1 || c.Depth > 20:
		return fmt.Errorf("book: depth %d: want 1 to 20", c.Depth)
	}
	return nil
}

// Stage is a part of a build, for its progress reports.
type Stage string

// The stages of Build.
const (
	Playing    Stage = "games"
	Evaluating Stage = "evaluations"
)

// Build plays cfg.Games self-play games and makes their book: every
// position before cfg.Plies reached by at least MinGames games, with the
// moves played from it (a game counts once for a position it passes
// twice) and how those games ended, and the position's evaluation to
// cfg.Depth. progress, if set, is called after each game and each
// evaluation. When ctx ends Build stops with its error.
func Build(ctx context.Context, cfg Config, progress func(s Stage, done, total int)) (*Book, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if progress == nil {
		progress = func(Stage, int, int) {}
	}
	se := player.NewSearcher(player.SearchOptions{HashMiB: hashMiB, Threads: 1})
	type seen struct {
		pos   rules.Position
		moves map[string]*Move
	}
	positions := map[uint64]*seen{}
	for i := range cfg.Games {
		path, result, err := playGame(ctx, se, cfg, cfg.Seed*1_000_003+uint64(i))
		if err != nil {
			return nil, err
		}
		for _, st := range path {
			s := positions[st.key]
			if s == nil {
				s = &seen{pos: st.pos, moves: map[string]*Move{}}
				positions[st.key] = s
			}
			m := s.moves[st.move]
			if m == nil {
				m = &Move{Text: st.move}
				s.moves[st.move] = m
			}
			switch result {
			case rules.WhiteWins:
				m.White++
			case rules.BlackWins:
				m.Black++
			default:
				m.Draws++
			}
		}
		progress(Playing, i+1, cfg.Games)
	}

	var keys []uint64
	for k, s := range positions {
		n := 0
		for _, m := range s.moves {
			n += m.Games()
		}
		if n >= MinGames {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	b := &Book{Config: cfg, entries: make(map[uint64]*Entry, len(keys))}
	for i, k := range keys {
		s := positions[k]
		se.NewGame()
		res := se.Search(ctx, rules.NewGameFrom(s.pos), player.Limits{Depth: cfg.Depth}, nil)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e := &Entry{Score: res.Score, Best: notation.FormatMove(s.pos.Geometry(), res.Move)}
		for _, m := range s.moves {
			e.Moves = append(e.Moves, *m)
		}
		SortMoves(e.Moves)
		b.entries[k] = e
		progress(Evaluating, i+1, len(keys))
	}
	return b, nil
}

// SortMoves puts the most played moves first, then the notation's order.
func SortMoves(ms []Move) {
	slices.SortFunc(ms, func(a, b Move) int {
		if c := cmp.Compare(b.Games(), a.Games()); c != 0 {
			return c
		}
		return cmp.Compare(a.Text, b.Text)
	})
}

// step is a position of a game within the book's plies and the move
// played from it.
type step struct {
	key  uint64
	pos  rules.Position
	move string
}

// playGame plays one game of the build from seed: random moves for the
// first cfg.Random plies, the noisy engine for the rest of the book's
// plies, the best moves after them. It returns the first visit
// of every position within the plies and the game's result (a draw for a
// game stopped at maxPlies).
func playGame(ctx context.Context, se *player.Searcher, cfg Config, seed uint64) ([]step, rules.Result, error) {
	se.NewGame()
	noisy, err := player.NewEngine(engineLevel, player.EngineOptions{Search: se, Seed: seed,
		Limits: &player.Level{Nodes: cfg.Nodes, Margin: cfg.Margin}})
	if err != nil {
		return nil, 0, err
	}
	best, err := player.NewEngine(engineLevel, player.EngineOptions{Search: se, Limits: &player.Level{Nodes: cfg.Nodes}})
	if err != nil {
		return nil, 0, err
	}
	rng := rand.New(rand.NewPCG(seed, randomStream))
	g := rules.NewGame(rules.GeometryOf(cfg.Size))
	var path []step
	visited := map[uint64]bool{}
	for g.Len() < maxPlies && !g.Outcome().Over() {
		var m rules.Move
		if g.Len() < cfg.Random {
			legal := g.Legal()
			m = legal[rng.IntN(len(legal))]
		} else {
			e := best
			if g.Len() < cfg.Plies {
				e = noisy
			}
			if m, err = e.Move(ctx, g, player.Clock{}); err != nil {
				return nil, 0, err
			}
		}
		// A search stopped by ctx still gives a move, a worse one: the
		// game would no longer be the one the configuration fixes.
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		if g.Len() < cfg.Plies {
			p := g.Position()
			if k := Key(&p); !visited[k] {
				visited[k] = true
				path = append(path, step{key: k, pos: p, move: notation.FormatMove(p.Geometry(), m)})
			}
		}
		if err := g.Play(m); err != nil {
			return nil, 0, err
		}
	}
	return path, g.Outcome().Result, nil
}
