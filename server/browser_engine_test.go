package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"emergo/notation"
	"emergo/player"
	"emergo/rules"
)

// TestBrowserRules: a page of the site, under its security policy, loads
// the rules module with the engine, and asks it what a page asks: the
// state after some moves and why a move is refused, with the server's
// reasons and rule numbers.
func TestBrowserRules(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped under -short")
	}
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	b := newBrowser(t, exe, "reader")
	b.do("open the rules", chromedp.Navigate(ts.URL+"/rules"))
	type answer struct {
		Position string   `json:"position"`
		Legal    []string `json:"legal"`
		Code     string   `json:"code"`
		Rule     string   `json:"rule"`
		Index    int      `json:"index"`
		Why      string   `json:"why"`
	}
	got := evalJS[answer](b, `(async () => {
  const { loadRules } = await import('/wasm.js');
  const rules = await loadRules();
  const s = rules.state({ size: 7, moves: ['d6', 'c7', 'f6'] });
  let refused = {};
  try { rules.state({ size: 7, moves: ['d6', 'c7', 'f6', 'a1'] }); } catch (e) { refused = e; }
  return { position: s.position, legal: s.legal, code: refused.code, rule: refused.rule, index: refused.index,
    why: rules.why('7x7 w 8/8 -', 'd4').code };
})()`)
	want := answer{Position: "7x7 b 6/7 d6:W1 f6:W1 c7:B1", Legal: []string{"c7xe5xg7"}, Code: "move.must_capture", Rule: "3.5", Index: 3, Why: "move.centre_first"}
	if got.Position != want.Position || len(got.Legal) != 1 || got.Legal[0] != want.Legal[0] || got.Code != want.Code || got.Rule != want.Rule || got.Index != want.Index || got.Why != want.Why {
		t.Errorf("the rules in the browser: %+v, want %+v", got, want)
	}
}

// TestBrowserEngine: the engine's worker, started by a page of the site,
// searches with the server stopped: to a depth, it finds the native
// engine's move, score, lines and nodes at that depth; an infinite
// analysis reports its iterations live and, stopped, ends with the best
// move found so far.
func TestBrowserEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped under -short")
	}
	exe := requireChromium(t)
	ts, stop := browserServerOn(t, filepath.Join(t.TempDir(), "games.db"), time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	b := newBrowser(t, exe, "analyst")
	b.do("open the rules", chromedp.Navigate(ts.URL+"/rules"))
	if !evalJS[bool](b, `import('/engine.js').then(async ({ BrowserEngine }) => {
  window.engine = new BrowserEngine();
  await window.engine.ready;
  return BrowserEngine.supported();
})`) {
		t.Fatal("the engine is not supported")
	}
	stop()
	if got := evalJS[string](b, `fetch('/healthz').then(() => 'up', () => 'down')`); got != "down" {
		t.Fatalf("the server is %s after it stopped", got)
	}

	moves := []string{"c3", "g7", "e7", "c9", "e3"}
	const depth, lines = 7, 2
	type line struct {
		Depth int      `json:"depth"`
		Score int32    `json:"score"`
		PV    []string `json:"pv"`
		Final bool     `json:"final"`
	}
	type best struct {
		Move  string   `json:"move"`
		Score int32    `json:"score"`
		PV    []string `json:"pv"`
		Depth int      `json:"depth"`
		Nodes uint64   `json:"nodes"`
		Lines []line   `json:"lines"`
		Infos []line   `json:"infos"`
	}
	movesJS, err := json.Marshal(moves)
	if err != nil {
		t.Fatal(err)
	}
	got := evalJS[best](b, fmt.Sprintf(`(async () => {
  const infos = [];
  const best = await window.engine.analyse({ size: 9, moves: %s, depth: %d, multipv: %d }, (l) => infos.push(l));
  return { ...best, infos };
})()`, movesJS, depth, lines))

	g := rules.NewGame(rules.Geometry9)
	if err := notation.PlayMoves(g, moves); err != nil {
		t.Fatal(err)
	}
	want := player.NewSearcher(player.SearchOptions{HashMiB: 16}).Search(t.Context(), g, player.Limits{Depth: depth, MultiPV: lines}, nil)
	geo := g.Geometry()
	if got.Move != want.Move.Text(geo) || got.Score != want.Score || got.Depth != depth || got.Nodes != want.Nodes {
		t.Errorf("in the browser %s %d at depth %d, %d nodes; natively %s %d, %d nodes", got.Move, got.Score, got.Depth, got.Nodes, want.Move.Text(geo), want.Score, want.Nodes)
	}
	if len(got.Lines) != lines || len(want.Lines) != lines {
		t.Fatalf("%d lines in the browser, %d natively; want %d", len(got.Lines), len(want.Lines), lines)
	}
	for k, l := range want.Lines {
		if pv := notation.SortedMoves(geo, l.PV[:1]); got.Lines[k].Score != l.Score || got.Lines[k].PV[0] != pv[0] {
			t.Errorf("line %d: %d %v in the browser, %d %v natively", k+1, got.Lines[k].Score, got.Lines[k].PV, l.Score, pv)
		}
	}
	if n := len(got.Infos); n != (depth+1)*lines || got.Infos[0].Depth != 1 || !got.Infos[n-1].Final {
		t.Errorf("%d reports (first %+v), want %d, one per line of every iteration and of the result", n, got.Infos[0], (depth+1)*lines)
	}

	// An analysis without a depth, stopped once it has reported depth 6.
	evalJS[bool](b, fmt.Sprintf(`window.lines = [];
window.running = window.engine.analyse({ size: 9, moves: %s }, (l) => window.lines.push(l));
true`, movesJS))
	poll(b, "an analysis reaching depth 6", func() (int, error) {
		return tryJS[int](b, `Math.max(0, ...window.lines.map((l) => l.depth))`)
	}, func(d int) bool { return d >= 6 })
	type stopped struct {
		Best best    `json:"best"`
		Seen int     `json:"seen"`
		MS   float64 `json:"ms"`
	}
	end := evalJS[stopped](b, `(async () => {
  const t0 = performance.now();
  window.engine.stop();
  const best = await window.running;
  return { best, seen: Math.max(...window.lines.filter((l) => !l.final).map((l) => l.depth)), ms: performance.now() - t0 };
})()`)
	if end.Best.Move == "" || end.Best.Depth < end.Seen || len(end.Best.PV) == 0 {
		t.Errorf("stopped after depth %d: %+v; want a move of that depth or deeper", end.Seen, end.Best)
	}
	t.Logf("stopped at depth %d in %.1f ms", end.Best.Depth, end.MS)
}

// TestBrowserAnalysisEngine: the analysis board analyses with the
// browser's engine, the server stopped once the page is loaded. Its panel
// analyses the start without end, rests while the page is out of sight,
// and the button stops it and starts it again; a won position typed in then gets the native engine's best move
// at the same depth (the search ends once the win is proven), drawn as an
// arrow on the board, its score a forced win.
func TestBrowserAnalysisEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped under -short")
	}
	exe := requireChromium(t)
	ts, stopServer := browserServerOn(t, filepath.Join(t.TempDir(), "games.db"), time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	// Black wins in two moves, and every depth from 4 on finds the same
	// move.
	const won = "7x7 b 0/0 c1:B2w2 g1:B1 f2:B1 a3:W1b1 b4:B1w1 f6:B2w4"
	p, err := notation.ParsePosition(won)
	if err != nil {
		t.Fatal(err)
	}
	native := player.NewSearcher(player.SearchOptions{HashMiB: 16}).Search(t.Context(), rules.NewGameFrom(p), player.Limits{}, nil)
	best := native.Move.Text(p.Geometry())

	b := newBrowser(t, exe, "analyst")
	b.do("open the analysis board", chromedp.Navigate(ts.URL+"/analysis"))
	type panel struct {
		Searching string `json:"searching"`
		Facts     string `json:"facts"`
		Depth     int    `json:"depth"`
		Score     string `json:"score"`
		Best      string `json:"best"`
		Arrow     string `json:"arrow"`
		Toggle    string `json:"toggle"`
		Status    string `json:"status"`
		Lines     int    `json:"lines"`
	}
	read := func() (panel, error) {
		return tryJS[panel](b, `(() => {
  const q = (s) => document.querySelector('[data-testid="' + s + '"]');
  const root = q('engine-panel');
  if (!root) return { searching: 'absent' };
  const facts = q('engine-facts').textContent;
  const arrow = document.querySelector('.board .arrow-layer');
  return { searching: root.dataset.searching, facts, depth: Number((/(\d+)/.exec(facts) || [0, 0])[1]),
    score: q('engine-score').textContent, best: q('engine-best').textContent,
    arrow: arrow && arrow.dataset.move && arrow.getAttribute('role') === 'img' ? arrow.dataset.move : '',
    toggle: q('engine-toggle').getAttribute('aria-pressed'), status: q('engine-status').textContent,
    lines: document.querySelectorAll('[data-testid="engine-line"]').length };
})()`)
	}
	poll(b, "the engine's first lines", read, func(v panel) bool { return v.Depth >= 1 && v.Searching == "true" })
	stopServer()
	if got := evalJS[string](b, `fetch('/healthz').then(() => 'up', () => 'down')`); got != "down" {
		t.Fatalf("the server is %s after it stopped", got)
	}
	poll(b, "the start analysed to depth 6", read, func(v panel) bool { return v.Depth >= 6 && v.Arrow != "" })

	// The page out of sight (as the browser says it: document.hidden and
	// its event), then seen again.
	visible := func(seen bool) {
		evalJS[bool](b, fmt.Sprintf(`Object.defineProperty(document, 'hidden', { value: %t, configurable: true });
document.dispatchEvent(new Event('visibilitychange'));
true`, !seen))
	}
	visible(false)
	poll(b, "the engine resting out of sight", read, func(v panel) bool { return v.Searching == "false" && v.Toggle == "true" })
	visible(true)
	poll(b, "the engine searching again", read, func(v panel) bool { return v.Searching == "true" })
	b.do("stop the engine", chromedp.Click(chromedp.CSS(`[data-testid="engine-toggle"]`)))
	poll(b, "the engine stopped", read, func(v panel) bool {
		return v.Searching == "false" && v.Toggle == "false" && v.Status == "The engine is stopped."
	})
	b.do("start the engine again", chromedp.Click(chromedp.CSS(`[data-testid="engine-toggle"]`)))
	poll(b, "the engine searching", read, func(v panel) bool { return v.Searching == "true" && v.Toggle == "true" })

	b.do("load the won position",
		chromedp.SetValue(chromedp.CSS(`[data-testid="position-text"]`), won),
		chromedp.Click(chromedp.CSS(`[data-testid="load-position"]`)))
	// The start's analysis has no end: the engine is idle once it has
	// proven the win.
	got := poll(b, "the won position analysed", read, func(v panel) bool { return v.Toggle == "true" && v.Searching == "false" })
	if got.Depth != native.Depth || got.Arrow != best || got.Best != "Best move: "+best || got.Score != "#−2" || got.Lines != 1 {
		t.Errorf("the panel: %+v; want %s at depth %d, as the native engine, drawn, and Black winning in 2", got, best, native.Depth)
	}
	b.screenshot("analysis-engine")
}

// TestBrowserEngineSpeed measures the engine in Chromium beside the same
// searches natively, on this machine: the bench positions (player's, the
// ones of `emergo bench`) each searched to the bench depth from a fresh
// table, the nodes per second of both, the pauses the browser's search
// makes to hear its messages, how soon a stop ends an analysis, and the
// analysis board's first load (a fresh browser, nothing cached) until its
// engine reports. It only runs when EMERGO_SPEED is set, and it asserts
// nothing of the times (timings belong to measurements, not tests):
//
//	EMERGO_SPEED=1 go test ./server -run TestBrowserEngineSpeed -v
func TestBrowserEngineSpeed(t *testing.T) {
	if os.Getenv("EMERGO_SPEED") == "" {
		t.Skip("a measurement: set EMERGO_SPEED=1 to run it")
	}
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))

	// The analysis board's first load, until the engine's first line.
	loader := newBrowser(t, exe, "first visit")
	start := time.Now()
	loader.do("open the analysis board", chromedp.Navigate(ts.URL+"/analysis"))
	loaded := time.Since(start)
	poll(loader, "the engine's first line", func() (int, error) {
		return tryJS[int](loader, `document.querySelectorAll('[data-testid="engine-line"]').length`)
	}, func(n int) bool { return n > 0 })
	firstLine := time.Since(start)
	t.Logf("the analysis board: loaded in %d ms, the engine's first line after %d ms", loaded.Milliseconds(), firstLine.Milliseconds())

	b := newBrowser(t, exe, "bench")
	b.do("open the rules", chromedp.Navigate(ts.URL+"/rules"))
	evalJS[bool](b, `import('/engine.js').then(async ({ BrowserEngine }) => {
  window.engine = new BrowserEngine();
  await window.engine.ready;
  return true;
})`)
	type searched struct {
		Nodes  uint64 `json:"nodes"`
		MS     int64  `json:"ms"`
		Paused struct {
			Count int     `json:"count"`
			MS    float64 `json:"ms"`
		} `json:"paused"`
	}
	var wasmNodes, nativeNodes uint64
	var wasmTime, nativeTime time.Duration
	var pauses int
	var pausedMS float64
	for i, p := range player.BenchPositions() {
		text := notation.FormatPosition(&p)
		got := evalJS[searched](b, fmt.Sprintf(`window.engine.analyse({ position: %q, depth: %d })`, text, player.BenchDepth))
		wasmNodes += got.Nodes
		wasmTime += time.Duration(got.MS) * time.Millisecond
		pauses += got.Paused.Count
		pausedMS += got.Paused.MS
		s := player.NewSearcher(player.SearchOptions{HashMiB: 16})
		res := s.Search(t.Context(), rules.NewGameFrom(p), player.Limits{Depth: player.BenchDepth}, nil)
		nativeNodes += res.Nodes
		nativeTime += res.Time
		if res.Nodes != got.Nodes {
			t.Errorf("position %d: %d nodes in the browser, %d natively", i, got.Nodes, res.Nodes)
		}
	}
	nps := func(n uint64, d time.Duration) float64 { return float64(n) / d.Seconds() }
	t.Logf("bench positions to depth %d: %d nodes; browser %.0f nodes/s (%v), native %.0f nodes/s (%v): %.0f%% of native",
		player.BenchDepth, wasmNodes, nps(wasmNodes, wasmTime), wasmTime, nps(nativeNodes, nativeTime), nativeTime,
		100*nps(wasmNodes, wasmTime)/nps(nativeNodes, nativeTime))
	t.Logf("the browser's search paused %d times, %.1f ms in all (%.2f%% of its time)", pauses, pausedMS, 100*pausedMS/float64(wasmTime.Milliseconds()))

	// Stops: an analysis without end, stopped once it has reported depth
	// 8, on each of the first positions; the time from stop to its end.
	var stops []float64
	for _, p := range player.BenchPositions()[:8] {
		ms := evalJS[float64](b, fmt.Sprintf(`(async () => {
  let deep = null;
  const reached = new Promise((resolve) => { deep = resolve; });
  const run = window.engine.analyse({ position: %q }, (l) => { if (l.depth >= 8) deep(); });
  await Promise.race([reached, run]);
  const t0 = performance.now();
  window.engine.stop();
  await run;
  return performance.now() - t0;
})()`, notation.FormatPosition(&p)))
		stops = append(stops, ms)
	}
	slices.Sort(stops)
	t.Logf("stop to the analysis' end: median %.1f ms, max %.1f ms (%d stops)", stops[len(stops)/2], stops[len(stops)-1], len(stops))
}
