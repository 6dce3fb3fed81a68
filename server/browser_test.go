package server_test

// Browser tests: a real Chromium plays through the UI in server/web, by
// clicks and typed moves, against a server over SQLite. They need a
// Chromium (EMERGO_CHROMIUM, else chromium, chromium-browser or
// google-chrome in PATH) and skip without one, and under -short.
// Screenshots of the key moments go to $EMERGO_SCREENSHOTS, by default
// server/testdata/screenshots (not committed).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"emergo/notation"
	"emergo/player"
	"emergo/rating"
	"emergo/rules"
	"emergo/server"
	"emergo/store/sqlstore"
)

// browserStep bounds any one browser action or wait. Every wait is for a
// condition (an element, a text, an answer); the bound only turns a page
// that never gets there into a failure instead of a hang, so it is generous
// enough for a machine whose cores are all busy.
const browserStep = 60 * time.Second

// findChromium returns the browser to test with, or "" if there is none.
func findChromium() string {
	if p := os.Getenv("EMERGO_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

func requireChromium(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests skipped in -short mode")
	}
	exe := findChromium()
	if exe == "" {
		t.Skip("browser tests skipped: no Chromium found; install Debian's chromium or set EMERGO_CHROMIUM (.ci/run does)")
	}
	// The browser keeps its temporary files in the test's directory.
	t.Setenv("TMPDIR", t.TempDir())
	return exe
}

// browserServer is the server under test, over SQLite, without a rate
// limit. Its clock stands still at now: the engine seeds its choices with
// the game's creation time, so a fixed clock makes an engine game
// reproducible.
func browserServer(t *testing.T, now time.Time) *httptest.Server {
	t.Helper()
	ts, _ := browserServerOn(t, filepath.Join(t.TempDir(), "games.db"), now)
	return ts
}

// browserServerOn is browserServer on the SQLite file path. stop stops
// it, as the test's end does if it has not: the connections the browsers
// hold open are cut, and the store is closed, so that another server may
// open the file.
func browserServerOn(t *testing.T, path string, now time.Time) (ts *httptest.Server, stop func()) {
	t.Helper()
	return browserServerWith(t, path, server.Config{Now: func() time.Time { return now }})
}

// browserServerWith is browserServerOn with the configuration cfg, its
// store the SQLite file path, its log discarded and no rate limit.
func browserServerWith(t *testing.T, path string, cfg server.Config) (ts *httptest.Server, stop func()) {
	t.Helper()
	st, err := sqlstore.OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Store, cfg.RateLimit = st, -1
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	srv, err := server.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts = httptest.NewServer(srv.Handler())
	var once sync.Once
	stop = func() {
		once.Do(func() {
			ts.CloseClientConnections()
			ts.Close()
			srv.Close()
			st.Close()
		})
	}
	t.Cleanup(stop)
	return ts, stop
}

// A browser is a Chromium of its own (process, profile, cookies) with one
// tab, so that two browsers are two different people to the server.
type browser struct {
	t    *testing.T
	name string
	ctx  context.Context
}

// newBrowser starts a browser; extra options come after the usual ones,
// such as inLanguage's.
func newBrowser(t *testing.T, exe, name string, extra ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox, // the tests may run as root
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(filepath.Join(t.TempDir(), "profile")),
		chromedp.Env("TMPDIR="+os.Getenv("TMPDIR")),
		chromedp.WindowSize(1280, 960),
	)
	opts = append(opts, extra...)
	actx, acancel := chromedp.NewExecAllocator(t.Context(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		acancel()
	})
	// Start the browser with no deadline of its own: a deadline on the first
	// call would end the browser with it.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("%s: starting %s: %v", name, exe, err)
	}
	return &browser{t: t, name: name, ctx: ctx}
}

func (b *browser) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserStep)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatalf("%s: %s: %v", b.name, what, err)
	}
}

// evalJS runs JavaScript in b's page (awaiting a promise) and decodes the
// value.
func evalJS[T any](b *browser, js string) T {
	b.t.Helper()
	v, err := tryJS[T](b, js)
	if err != nil {
		b.t.Fatalf("%s: evaluating %.60q: %v", b.name, js, err)
	}
	return v
}

// tryJS is evalJS for a page that may be between two documents: the error
// of an evaluation cut short by a navigation is returned, not fatal.
func tryJS[T any](b *browser, js string) (T, error) {
	ctx, cancel := context.WithTimeout(b.ctx, browserStep)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
}

// poll asks read until ok accepts its answer, and returns that answer. A
// read that fails (the page is navigating, the element is not there yet)
// is asked again; only the bound of browserStep ends the wait, with what
// was last seen.
func poll[T any](b *browser, what string, read func() (T, error), ok func(T) bool) T {
	b.t.Helper()
	deadline := time.Now().Add(browserStep)
	for {
		v, err := read()
		if err == nil && ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("%s: %s: not within %v; last seen %+v (error %v)", b.name, what, browserStep, v, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// pageView is what a game page shows, as a player sees it.
type pageView struct {
	Path        string   `json:"path"`
	Moves       []string `json:"moves"`   // the move list
	Last        []string `json:"last"`    // the squares marked as the last move
	Chosen      []string `json:"chosen"`  // the squares of a half-chosen move
	Targets     []string `json:"targets"` // where the move can go on, or entries
	Interactive bool     `json:"interactive"`
	Status      string   `json:"status"`
	Result      string   `json:"result"` // "" while the result box is hidden
	Message     string   `json:"message"`
	Viewing     bool     `json:"viewing"` // an earlier position is shown
	Animating   bool     `json:"animating"`
	Marked      bool     `json:"marked"` // the page has not been reloaded since mark
}

const viewJS = `(() => {
  const q = (s) => document.querySelector(s);
  const text = (s) => (q(s) ? q(s).innerText.trim() : '');
  const cols = [...document.querySelectorAll('.board .col')];
  const squares = (c) => [...document.querySelectorAll('g[data-square].' + c)].map((g) => g.dataset.square).sort();
  return {
    path: location.pathname,
    moves: [...document.querySelectorAll('[data-testid="move-list"] button[data-ply]')].map((b) => b.textContent),
    last: squares('last'),
    chosen: squares('chosen'),
    targets: squares('target'),
    interactive: Boolean(q('#board') && q('#board').classList.contains('interactive')),
    status: text('[data-testid="status"]'),
    result: text('[data-testid="result"]'),
    message: text('[data-testid="message"]'),
    viewing: Boolean(q('#view-bar') && !q('#view-bar').hidden),
    animating: Boolean(q('.anim-layer') && q('.anim-layer').childElementCount > 0) ||
      cols.some((c) => c.getAnimations().length > 0),
    marked: window.emergoTestMark === true,
  };
})()`

func (b *browser) view() pageView { return evalJS[pageView](b, viewJS) }

func (b *browser) tryView() (pageView, error) { return tryJS[pageView](b, viewJS) }

// mark tags the page, so that a later view can tell it was not reloaded.
func (b *browser) mark() { evalJS[bool](b, `window.emergoTestMark = true`) }

// waitView polls the page until ok accepts what it shows.
func (b *browser) waitView(what string, ok func(pageView) bool) pageView {
	b.t.Helper()
	return poll(b, what, b.tryView, ok)
}

// state reads the game from the API inside the page, with the page's cookie.
func (b *browser) state(id string) state {
	b.t.Helper()
	return evalJS[state](b, stateJS(id))
}

func stateJS(id string) string { return `fetch('/api/games/` + id + `').then((r) => r.json())` }

// waitState reads the game from the API inside the page until ok accepts it.
func (b *browser) waitState(what, id string, ok func(state) bool) state {
	b.t.Helper()
	return poll(b, what, func() (state, error) { return tryJS[state](b, stateJS(id)) }, ok)
}

func (b *browser) gameID() string {
	b.t.Helper()
	v := b.waitView("open the game page", func(v pageView) bool {
		return strings.HasPrefix(v.Path, "/g/") && v.Status != ""
	})
	return strings.TrimPrefix(v.Path, "/g/")
}

// waitChosen waits until the board shows the squares clicked so far as the
// chosen part of mv, with next among the squares it can go on to: the
// click after that one lands on a board that expects it.
func (b *browser) waitChosen(mv string, clicked []string, next string) {
	b.t.Helper()
	want := slices.Sorted(slices.Values(clicked))
	want = slices.Compact(want)
	b.waitView(fmt.Sprintf("%v of %s are chosen", clicked, mv), func(v pageView) bool {
		return slices.Equal(v.Chosen, want) && slices.Contains(v.Targets, next)
	})
}

func (b *browser) clickSquare(sq string) {
	b.t.Helper()
	b.do("click "+sq, chromedp.Click(chromedp.CSS(`g[data-square="`+sq+`"] > rect.bg`)))
}

// playByClicks plays mv, one of legal, on the board, each click after the
// board has taken the one before.
func (b *browser) playByClicks(legal []string, mv string) {
	b.t.Helper()
	clicks := clicksFor(legal, mv)
	for i, sq := range clicks {
		b.clickSquare(sq)
		if i < len(clicks)-1 {
			b.waitChosen(mv, clicks[:i+1], clicks[i+1])
		}
	}
}

func (b *browser) screenshot(name string) {
	b.t.Helper()
	b.waitView("settle before a screenshot", func(v pageView) bool { return !v.Animating })
	dir := os.Getenv("EMERGO_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join("testdata", "screenshots")
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(b.ctx, browserStep)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("%s: screenshot: %v", b.name, err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot %s", path)
}

// screenshotAfter shows the position after the ply-th move, mv, from the
// move list, takes a screenshot of it and goes back to the live position.
func (b *browser) screenshotAfter(name string, ply int, mv string) {
	b.t.Helper()
	b.do(fmt.Sprintf("show move %d", ply),
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`[data-testid="move-list"] button[data-ply="%d"]`, ply))))
	v := b.waitView("the board shows the position after "+mv, func(v pageView) bool {
		return slices.Equal(v.Last, lastSquares(mv)) && (v.Viewing || len(v.Moves) == ply)
	})
	b.screenshot(name)
	if v.Viewing {
		b.do("back to live", chromedp.Click(chromedp.CSS(`[data-testid="live"]`)))
		b.waitView("the live position is back", func(v pageView) bool { return !v.Viewing })
	}
}

func squaresOf(mv string) []string {
	return strings.FieldsFunc(mv, func(r rune) bool { return r == '-' || r == 'x' })
}

// clicksFor returns the squares to click to play mv, as the board takes
// them: an entry is its square; a step or a capture is its start and then
// each landing, up to the click after which one legal move is left that
// goes that way, because the board then completes the move by itself.
func clicksFor(legal []string, mv string) []string {
	path := squaresOf(mv)
	if len(path) == 1 {
		return path
	}
	for n := 2; n < len(path); n++ {
		left, exact := 0, false
		for _, l := range legal {
			p := squaresOf(l)
			if len(p) < n || !slices.Equal(p[:n], path[:n]) {
				continue
			}
			if len(p) == n {
				exact = true
			} else {
				left++
			}
		}
		if exact || left == 1 {
			return path[:n]
		}
	}
	return path
}

// replay returns the game of the moves on the board of size.
func replay(t *testing.T, size int, moves []string) *rules.Game {
	t.Helper()
	g := rules.NewGame(rules.GeometryOf(size))
	if err := notation.PlayMoves(g, moves); err != nil {
		t.Fatal(err)
	}
	return g
}

// forcedMultiJump returns a move of p's side that takes at least two men
// now, or, when depth allows, a move after which every reply leaves such
// a capture within depth-1 further moves.
func forcedMultiJump(p *rules.Position, depth int) (rules.Move, bool) {
	legal := p.Legal(nil)
	for _, m := range legal {
		if m.Jumps() >= 2 {
			return m, true
		}
	}
	if depth <= 1 {
		return rules.Move{}, false
	}
	for _, m := range legal {
		q := p.After(m)
		replies := q.Legal(nil)
		if len(replies) == 0 {
			continue
		}
		forced := true
		for _, r := range replies {
			s := q.After(r)
			if _, ok := forcedMultiJump(&s, depth-1); !ok {
				forced = false
				break
			}
		}
		if forced {
			return m, true
		}
	}
	return rules.Move{}, false
}

// personMove is how the person in the engine game plays: while hunting,
// a multi-jump capture when one can be forced within two moves, otherwise
// the engine's level 5 (seeded, so reproducible), avoiding a move that ends
// the game before the hunt is over.
func personMove(t *testing.T, g *rules.Game, hunting bool) rules.Move {
	t.Helper()
	p := g.Position()
	if hunting {
		if m, ok := forcedMultiJump(&p, 2); ok {
			return m
		}
	}
	e, err := player.NewEngine(5, player.EngineOptions{HashMiB: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// No clock: the level's node limit alone stops the search, so the
	// choice does not depend on the machine's speed.
	m, err := e.Move(context.Background(), g, player.Clock{})
	if err != nil {
		t.Fatal(err)
	}
	if hunting {
		if q := p.After(m); q.Lost() {
			for _, alt := range p.Legal(nil) {
				if a := p.After(alt); !a.Lost() {
					return alt
				}
			}
		}
	}
	return m
}

// resultHeads are the result box's headline for each result.
var resultHeads = map[string]string{"1-0": "White wins", "0-1": "Black wins", "1/2-1/2": "Draw"}

// TestBrowserPlaysEngine: a person creates a 7x7 game against the engine
// on the home page and plays it to the end by clicking squares, including
// a capture of several men chosen jump by jump.
func TestBrowserPlaysEngine(t *testing.T) {
	exe := requireChromium(t)
	// This creation time seeds a game in which the person's policy makes a
	// multi-jump capture early and wins in about 40 plies.
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 4, 0, time.UTC))
	b := newBrowser(t, exe, "person")

	b.do("open the home page",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="new-engine"]`)),
	)
	// Beside the level chosen (3 on a fresh page), its measured Elo.
	e3 := player.LevelElo[3]
	strength := fmt.Sprintf("· Elo %.0f ± %.0f (rating about %.0f)", math.Round(e3.Elo), math.Round(e3.Margin()), math.Round(rating.EngineRating(e3.Elo)))
	b.waitText("level 3's Elo beside the level", `[data-testid="level-rating"]`, func(s string) bool { return s == strength })
	b.do("create the game on the home page",
		chromedp.SendKeys(chromedp.CSS(`[data-testid="name"]`), "Ada"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="size"]`), "7"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="level"]`), "1"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="color"]`), "white"),
		chromedp.Click(chromedp.CSS(`[data-testid="new-engine"]`)),
	)
	id := b.gameID()
	b.mark()
	st := b.state(id)
	if st.Size != 7 || st.Mode != "engine" || st.Level != 1 || st.You == nil || *st.You != "white" {
		t.Fatalf("the game made by the home page: %+v, want 7x7 against the engine at level 1, the person White", st)
	}
	b.waitView("the board is ready for the first move", func(v pageView) bool { return v.Interactive })
	// The page tells the player when the site ends a game left unplayed.
	b.waitText("the note on a game left unplayed", `[data-testid="idle-note"]`, func(s string) bool {
		return s == "A game against the engine in which you have not moved within 10 minutes of its start is aborted. "+
			"A game against the engine with no move from you for 30 minutes is ended, as your loss."
	})
	b.screenshot("engine-1-start")

	const plyCap = 80
	geo := rules.GeometryOf(7)
	var multi string // the person's first capture of several men
	multiPly, shot := 0, false
	mine := map[int]string{}
	for {
		// Wait for the engine's reply, if it is its turn.
		st = b.waitState("the engine replies", id, func(st state) bool {
			return st.Result != "*" || (st.Turn == "white" && !st.Thinking)
		})
		if st.Result != "*" {
			break
		}
		n := len(st.Moves)
		v := b.waitView("the engine's reply shows and the board takes a move", func(v pageView) bool {
			return slices.Equal(v.Moves, st.Moves) && v.Interactive && !v.Animating
		})
		if n > 0 {
			if want := lastSquares(st.Moves[n-1]); !slices.Equal(v.Last, want) {
				t.Errorf("after %s the board marks %v as the last move, want %v", st.Moves[n-1], v.Last, want)
			}
		}
		if multi != "" && !shot {
			b.screenshotAfter("engine-3-multijump", multiPly, multi)
			shot = true
		}
		if n >= plyCap {
			b.do("resign", chromedp.Click(chromedp.CSS(`[data-testid="resign"]`)),
				chromedp.Click(chromedp.CSS(`[data-testid="resign-confirm"]`)))
			break
		}

		m := personMove(t, replay(t, 7, st.Moves), multi == "")
		mv := m.Text(geo)
		clicks := clicksFor(st.Legal, mv)
		for i, sq := range clicks {
			b.clickSquare(sq)
			if i == len(clicks)-1 {
				break
			}
			b.waitChosen(mv, clicks[:i+1], clicks[i+1])
			if i == 0 && m.Jumps() >= 2 && multi == "" {
				b.screenshot("engine-2-capture-chosen")
			}
		}
		mine[n] = mv
		b.waitView("the clicked move "+mv+" is in the move list", func(v pageView) bool {
			return len(v.Moves) > n && v.Moves[n] == mv
		})
		if m.Jumps() >= 2 && multi == "" {
			multi, multiPly = mv, n+1
			t.Logf("ply %d: %s played by clicking %v", n+1, mv, clicks)
		}
	}
	if multi != "" && !shot {
		b.screenshotAfter("engine-3-multijump", multiPly, multi)
	}

	v := b.waitView("the result is shown", func(v pageView) bool { return v.Result != "" })
	st = b.state(id)
	t.Logf("%d plies, %s (%s); the person's multi-jump: %s", len(st.Moves), st.Result, st.Reason, multi)
	if !strings.Contains(v.Result, resultHeads[st.Result]) || !strings.Contains(strings.ToLower(v.Result), strings.ToLower(st.Reason)) {
		t.Errorf("the result box says %q; the game ended %s by %s", v.Result, st.Result, st.Reason)
	}
	if !slices.Equal(v.Moves, st.Moves) {
		t.Errorf("the move list shows %q, the game has %q", v.Moves, st.Moves)
	}
	engine := 0
	for i, mv := range st.Moves {
		if i%2 == 1 {
			engine++
		} else if mine[i] != mv {
			t.Errorf("move %d is %s, the person clicked %q", i+1, mv, mine[i])
		}
	}
	if engine == 0 {
		t.Error("the engine never replied")
	}
	if multi == "" {
		t.Error("the person never took several men in one capture; choose another creation time for the game")
	}
	if !v.Marked {
		t.Error("the page was reloaded during the game")
	}
	b.waitText("no note on a game left unplayed once it is over", `[data-testid="idle-note"]`, func(s string) bool { return s == "" })
	b.screenshot("engine-4-result")
}

// lastSquares are the squares the board marks for the last move mv.
func lastSquares(mv string) []string {
	sq := squaresOf(mv)
	slices.Sort(sq)
	return slices.Compact(sq)
}

// TestBrowserFriendsPlayLive: two people in two browsers start a friend
// game by its invite link and play by clicks and typed moves; each move
// shows on the other's board at once, without reloading.
func TestBrowserFriendsPlayLive(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	alice := newBrowser(t, exe, "alice")
	bob := newBrowser(t, exe, "bob")

	alice.do("create a friend game",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="new-friend"]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="name"]`), "Alice"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="size"]`), "7"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="color"]`), "white"),
		chromedp.Click(chromedp.CSS(`[data-testid="new-friend"]`)),
	)
	id := alice.gameID()
	alice.mark()
	link := alice.inviteLink()
	if !strings.HasPrefix(link, ts.URL+"/g/"+id+"#invite=") {
		t.Fatalf("invite link %q, want %s/g/%s#invite=...", link, ts.URL, id)
	}

	bob.do("open the invite link",
		chromedp.Navigate(link),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="join"]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="join-name"]`), "Bob"),
	)
	bob.mark()
	bob.do("join", chromedp.Click(chromedp.CSS(`[data-testid="join"]`)))
	bob.waitView("Bob's page says he joined", func(v pageView) bool {
		return strings.Contains(v.Message, "You have joined")
	})
	if st := bob.state(id); st.You == nil || *st.You != "black" {
		t.Fatalf("after the page said he joined, Bob is %v, want black", st.You)
	}
	alice.waitView("Alice learns that Bob joined", func(v pageView) bool { return v.Interactive })

	// An illegal typed move is refused with the rules' reason.
	alice.do("type an illegal move",
		chromedp.SendKeys(chromedp.CSS(`[data-testid="move-input"]`), "d4\n"))
	start := rules.NewPosition(rules.GeometryOf(7))
	_, err := notation.ParseMove(&start, "d4")
	var illegal *notation.MoveError
	if !errors.As(err, &illegal) {
		t.Fatalf("d4 as the first move: %v, want a move error", err)
	}
	reason := pageCitation(illegal.Err.Error())
	v := alice.waitView("the reason is shown", func(v pageView) bool {
		return strings.Contains(strings.ToLower(v.Message), strings.ToLower(reason))
	})
	if len(v.Moves) != 0 || !v.Interactive {
		t.Errorf("after an illegal move the page shows %+v, want no move and the board still playable", v)
	}

	const plies = 6
	const typed = 2 // the ply played by typing
	people := [2]*browser{alice, bob}
	for ply := range plies {
		mover, other := people[ply%2], people[1-ply%2]
		mover.waitView("my turn", func(v pageView) bool {
			return v.Interactive && len(v.Moves) == ply && !v.Animating
		})
		st := mover.state(id)
		if len(st.Moves) != ply || len(st.Legal) == 0 {
			t.Fatalf("ply %d: %+v", ply, st)
		}
		mv := st.Legal[(ply*7)%len(st.Legal)]
		if ply == typed {
			// The refused d4 is still in the field, for correcting.
			evalJS[string](mover, `document.querySelector('[data-testid="move-input"]').value = ''`)
			mover.do("type "+mv, chromedp.SendKeys(chromedp.CSS(`[data-testid="move-input"]`), mv+"\n"))
		} else {
			mover.playByClicks(st.Legal, mv)
		}
		mover.waitView(mv+" in the mover's list", func(v pageView) bool {
			return len(v.Moves) == ply+1 && v.Moves[ply] == mv
		})
		sent := time.Now()
		ov := other.waitView(mv+" in the other's list", func(v pageView) bool {
			return len(v.Moves) == ply+1 && v.Moves[ply] == mv
		})
		t.Logf("ply %d %s by %s: on the other board after %v", ply+1, mv, mover.name, time.Since(sent).Round(time.Millisecond))
		if want := lastSquares(mv); !slices.Equal(ov.Last, want) {
			t.Errorf("%s's board marks %v as the last move, want %v", other.name, ov.Last, want)
		}
	}

	for _, p := range people {
		v := p.view()
		if !v.Marked {
			t.Errorf("%s's page was reloaded", p.name)
		}
		if len(v.Moves) != plies {
			t.Errorf("%s sees %d moves, want %d", p.name, len(v.Moves), plies)
		}
	}
	// Abstract Play, which reads the JSON download, has no 7x7 board: the
	// page says so beside the link.
	note := evalJS[string](alice, `(() => { const n = document.querySelector('[data-testid="download-json-note"]'); return n.hidden ? '' : n.innerText; })()`)
	if !strings.Contains(note, "no 7x7") {
		t.Errorf("beside the JSON download of a 7x7 game the page says %q, want a note that Abstract Play has no 7x7 board", note)
	}
	alice.screenshot("friends-alice")
	bob.screenshot("friends-bob")
}

// pageCitation is the rules package's message as the English page says
// it: a rule cited as "rule 4.3", not "RULES 4.3".
func pageCitation(message string) string {
	return strings.ReplaceAll(message, "RULES ", "rule ")
}
