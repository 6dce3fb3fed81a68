// Command wasm is the engine of the site's pages: the rules, the notation
// and the search (through package player) compiled to WebAssembly
// (GOOS=js GOARCH=wasm), which server/web/wasm.js and the engine's worker
// load. JavaScript calls it with JSON text and gets JSON text back
// (main_js.go). The rules' functions are package view's, which the
// server's API answers with too, so that a page gets the same views and
// the same refusals from either; the search's are made here (engine.go),
// without syscall/js, so that they are tested natively.
//
// Built for this machine instead, the command builds itself for the
// browser and writes the site's artefact (artefact.go): `go generate
// ./server`, or `go run ./wasm -out server/web`.
package main

import (
	"context"
	"time"

	"emergo/player"
	"emergo/rules"
	"emergo/view"
)

// analyseRequest is a search the engine's worker asks for: a game (its
// position and moves), the lines wanted, and a depth (0: until stopped);
// or, with a level, the move of the engine at that level (1 to
// player.MaxLevel), as it would play it in a game.
type analyseRequest struct {
	view.Request
	MultiPV int `json:"multipv"`
	Depth   int `json:"depth"`
	Level   int `json:"level"`
}

// infoJSON is a line of a search's report, for the side to move: the
// score in hundredths of a man, the moves to a forced end (mate, positive
// when the side to move wins; 0 when none is announced), whether the
// score is exact or a bound, the line, and the search's figures so far.
// Final marks the lines of the result.
type infoJSON struct {
	Depth   int      `json:"depth"`
	MultiPV int      `json:"multipv"`
	Score   int32    `json:"score"`
	Mate    int      `json:"mate"`
	Bound   string   `json:"bound"`
	PV      []string `json:"pv"`
	Nodes   uint64   `json:"nodes"`
	NPS     uint64   `json:"nps"`
	MS      int64    `json:"ms"`
	Final   bool     `json:"final"`
}

// bestJSON is what a search found: the move (empty when the position has
// none), its score and line, and the figures of the whole search.
type bestJSON struct {
	Move  string     `json:"move"`
	Score int32      `json:"score"`
	Mate  int        `json:"mate"`
	PV    []string   `json:"pv"`
	Depth int        `json:"depth"`
	Nodes uint64     `json:"nodes"`
	MS    int64      `json:"ms"`
	Lines []infoJSON `json:"lines"`
}

var boundNames = map[player.Bound]string{player.Exact: "exact", player.LowerBound: "lower", player.UpperBound: "upper"}

func texts(g *rules.Geometry, moves []rules.Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.Text(g)
	}
	return out
}

func mateOf(score int32) int {
	n, _ := player.MateIn(score)
	return n
}

// hashMiB is the transposition table of the browser's engine: the
// native engine's default, so that a search to a depth finds what
// `emergo engine` finds from a fresh table.
const hashMiB = 16

// analyser runs the searches of one engine, one at a time.
type analyser struct {
	searcher *player.Searcher
	// pause hands the thread to the host between slices of a search (see
	// slicedContext); nil never pauses.
	pause func()
	slice time.Duration
}

func newAnalyser(pause func(), slice time.Duration) *analyser {
	return &analyser{searcher: player.NewSearcher(player.SearchOptions{HashMiB: hashMiB}), pause: pause, slice: slice}
}

// analyse runs the search of req until its depth, or until ctx is done,
// telling info every line of every iteration as it comes and then the
// lines of the result (Final), and returns the result. Each search starts
// from a clear table, so that it depends only on its request.
func (a *analyser) analyse(ctx context.Context, req analyseRequest, info func(infoJSON)) (bestJSON, error) {
	g, err := req.Play()
	if err != nil {
		return bestJSON{}, err
	}
	if g.Outcome().Over() {
		return bestJSON{}, view.Refuse(view.CodeAnalysisOver, "the game is over in this position: there is nothing to analyse")
	}
	geo := g.Geometry()
	if a.pause != nil {
		ctx = &slicedContext{Context: ctx, pause: a.pause, slice: a.slice, next: time.Now().Add(a.slice)}
	}
	if req.Level > 0 {
		return a.levelMove(ctx, g, req.Level)
	}
	a.searcher.NewGame()
	lim := player.Limits{Depth: req.Depth, MultiPV: max(req.MultiPV, 1)}
	res := a.searcher.Search(ctx, g, lim, func(in player.Info) {
		info(infoJSON{
			Depth: in.Depth, MultiPV: in.MultiPV, Score: in.Score, Mate: mateOf(in.Score), Bound: boundNames[in.Bound],
			PV: texts(geo, in.PV), Nodes: in.Nodes, NPS: in.NPS, MS: in.Time.Milliseconds(),
		})
	})
	out := bestJSON{
		Move: res.Move.Text(geo), Score: res.Score, Mate: mateOf(res.Score), PV: []string{},
		Depth: res.Depth, Nodes: res.Nodes, MS: res.Time.Milliseconds(), Lines: []infoJSON{},
	}
	nps := uint64(float64(res.Nodes) / max(res.Time.Seconds(), 1e-9))
	for k, l := range res.Lines {
		line := infoJSON{
			Depth: res.Depth, MultiPV: k + 1, Score: l.Score, Mate: mateOf(l.Score), Bound: boundNames[l.Bound],
			PV: texts(geo, l.PV), Nodes: res.Nodes, NPS: nps, MS: out.MS, Final: true,
		}
		out.Lines = append(out.Lines, line)
		info(line)
	}
	if len(res.Lines) > 0 {
		out.PV = out.Lines[0].PV
	}
	return out, nil
}

// levelMove is the move of the engine at level in g, as it plays in a
// game without a clock.
func (a *analyser) levelMove(ctx context.Context, g *rules.Game, level int) (bestJSON, error) {
	a.searcher.NewGame()
	e, err := player.NewEngine(level, player.EngineOptions{Search: a.searcher, Seed: uint64(time.Now().UnixNano())})
	if err != nil {
		return bestJSON{}, view.Refuse(view.CodeInvalid, "%s", err.Error())
	}
	start := time.Now()
	m, err := e.Move(ctx, g, player.Clock{})
	if err != nil {
		return bestJSON{}, view.Refuse(view.CodeInterrupted, "%s", err.Error())
	}
	text := m.Text(g.Geometry())
	return bestJSON{Move: text, PV: []string{text}, MS: time.Since(start).Milliseconds(), Lines: []infoJSON{}}, nil
}

// slicedContext cuts a search into slices for a host that runs it on its
// only thread (WebAssembly in a browser, where Go's goroutines share one
// thread and are never preempted): the search looks at its context's Done
// every few hundred nodes, and once a slice has run, Done first pauses,
// which hands the thread to the host until it resumes the search. Meanwhile
// the host handles its messages, such as one that cancels the context, so
// that a search stops within a slice of being asked.
type slicedContext struct {
	context.Context
	pause func()
	slice time.Duration
	next  time.Time
}

func (c *slicedContext) Done() <-chan struct{} {
	if time.Now().After(c.next) {
		c.pause()
		c.next = time.Now().Add(c.slice)
	}
	return c.Context.Done()
}
