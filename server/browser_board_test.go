package server_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"emergo/notation"
	"emergo/rules"
)

// boardView is what the analysis board shows.
type boardView struct {
	Ready      bool     `json:"ready"`
	Position   string   `json:"position"` // the position text of the position shown
	Link       string   `json:"link"`
	Moves      []string `json:"moves"`      // the move list's moves, in order
	Variations []string `json:"variations"` // the moves in variations
	Current    string   `json:"current"`    // the move list's move shown
	Marks      []string `json:"marks"`      // the moves judged, with their marks
	Points     int      `json:"points"`     // the evaluation chart's points
	Progress   string   `json:"progress"`
	Done       bool     `json:"done"` // the annotations are complete
	Status     string   `json:"status"`
	Message    string   `json:"message"`
	Setup      string   `json:"setup"` // the set-up's message
	SetupOpen  bool     `json:"setupOpen"`
	Path       string   `json:"path"`
	Animating  bool     `json:"animating"`
}

const boardViewJS = `(() => {
  const q = (s) => document.querySelector(s);
  const text = (s) => (q(s) ? q(s).innerText.trim() : '');
  const cur = q('#ab-moves .mv[aria-current="true"]');
  return {
    ready: document.documentElement.dataset.ready === 'true',
    position: q('#position-text') ? q('#position-text').value : '',
    link: q('#board-link') ? q('#board-link').value : '',
    moves: [...document.querySelectorAll('#ab-moves .mv')].map((b) => b.firstChild ? b.innerText.replace(/[?!]+$/, '').trim() : ''),
    variations: [...document.querySelectorAll('#ab-moves .variation .mv')].map((b) => b.innerText.replace(/[?!]+$/, '').trim()),
    current: cur ? cur.innerText.replace(/[?!]+$/, '').trim() : '',
    marks: [...document.querySelectorAll('#ab-moves .mv.judged')].map((b) => b.innerText.trim()),
    points: document.querySelectorAll('[data-testid="eval-chart"] .eval-point').length,
    progress: text('#ab-progress-text'),
    done: Boolean(q('#ab-progress') && q('#ab-progress').dataset.done === 'true'),
    status: text('[data-testid="ab-status"]'),
    message: text('[data-testid="ab-message"]'),
    setup: text('[data-testid="setup-message"]'),
    setupOpen: Boolean(q('#setup') && !q('#setup').hidden),
    path: location.pathname + location.search,
    animating: Boolean(q('.anim-layer') && q('.anim-layer').childElementCount > 0),
  };
})()`

func (b *browser) boardView() (boardView, error) { return tryJS[boardView](b, boardViewJS) }

func (b *browser) waitBoard(what string, ok func(boardView) bool) boardView {
	b.t.Helper()
	return poll(b, what, b.boardView, ok)
}

// setField gives an input or select of the page a value, as typing it
// and leaving the field does.
func (b *browser) setField(testid, value string) {
	b.t.Helper()
	evalJS[bool](b, fmt.Sprintf(`(() => {
  const e = document.querySelector('[data-testid=%q]');
  e.value = %q;
  e.dispatchEvent(new Event('change', {bubbles: true}));
  return true;
})()`, testid, value))
}

// playOnBoard plays mv from the position text shown by clicks on the
// board, and waits for the position after it.
func (b *browser) playOnBoard(position, mv string) string {
	b.t.Helper()
	p, err := notation.ParsePosition(position)
	if err != nil {
		b.t.Fatal(err)
	}
	g := rules.NewGameFrom(p)
	legal := legalIn(b.t, position)
	if !slices.Contains(legal, mv) {
		b.t.Fatalf("%s is not legal in %s: %v", mv, position, legal)
	}
	m, err := notation.ParseMove(&p, mv)
	if err != nil {
		b.t.Fatal(err)
	}
	if err := g.Play(m); err != nil {
		b.t.Fatal(err)
	}
	after := g.Position()
	want := notation.FormatPosition(&after)
	clicks := clicksFor(legal, mv)
	for i, sq := range clicks {
		b.clickSquare(sq)
		if i < len(clicks)-1 {
			b.waitChosen(mv, clicks[:i+1], clicks[i+1])
		}
	}
	b.waitBoard("the board after "+mv, func(v boardView) bool { return v.Position == want && v.Current == mv })
	return want
}

// TestBrowserAnalysisBoard: a position is set up on the analysis board by
// clicks (a refused one first, with the reason), moves are played for both
// sides, one taken back, a variation made, and the board's link, opened
// again, shows the same board and moves; a finished game opened from its
// page is annotated by the engine, marks in the move list and the chart
// going to its moves. Screenshots on a wide window and a phone's.
func TestBrowserAnalysisBoard(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	b := newBrowser(t, exe, "analyst")
	b.do("open the analysis board", chromedp.Navigate(ts.URL+"/analysis"))
	b.waitBoard("the board is ready", func(v boardView) bool { return v.Ready && v.Position == "9x9 w 12/12 -" })

	// The set-up: an empty 9x9 board, a white column of 2 over a black
	// prisoner on d4, a black man on a7 and one on g7, men in hand.
	b.do("set up a position", chromedp.Click(chromedp.CSS(`[data-testid="ab-edit"]`)))
	b.waitBoard("the set-up is open", func(v boardView) bool { return v.SetupOpen })
	b.do("empty the board", chromedp.Click(chromedp.CSS(`[data-testid="setup-clear"]`)))
	b.setField("setup-top", "2")
	b.setField("setup-prisoners", "1")
	b.clickSquare("d4")
	b.do("choose black", chromedp.Click(chromedp.CSS(`[data-testid="setup-black"]`)))
	b.setField("setup-top", "1")
	b.setField("setup-prisoners", "0")
	b.clickSquare("a7")
	b.clickSquare("g7")
	b.clickSquare("a9")
	b.clickSquare("a9") // the same column again: the square is emptied
	// The keyboard: Enter on a square places the column, and takes it away again.
	columns := func() int { return evalJS[int](b, `document.querySelectorAll('#board g.occupied').length`) }
	b.do("Enter on e5", chromedp.Focus(chromedp.CSS(`g[data-square="e5"]`)), chromedp.KeyEvent(kb.Enter))
	poll(b, "a column placed by the keyboard", func() (int, error) { return columns(), nil }, func(n int) bool { return n == 4 })
	b.do("Enter on e5 again", chromedp.KeyEvent(kb.Enter))
	poll(b, "the column taken away by the keyboard", func() (int, error) { return columns(), nil }, func(n int) bool { return n == 3 })
	b.setField("setup-hand-white", "12")
	b.setField("setup-hand-black", "3")
	for _, size := range []struct {
		name string
		w, h int64
	}{{"phone", 390, 844}, {"wide", 1280, 960}} {
		b.do("a "+size.name+" window", chromedp.EmulateViewport(size.w, size.h))
		if out := evalJS[[]string](b, overflowJS); len(out) > 0 {
			t.Errorf("the set-up, %s window: sticks out: %v", size.name, out)
		}
		b.screenshot("board-setup-" + size.name)
	}
	if got := evalJS[string](b, `document.querySelector('[data-testid="setup-count"]').innerText`); !strings.Contains(got, "White: 2 on the board + 12 in hand (at most 12).") {
		t.Errorf("the set-up's count: %q", got)
	}
	b.do("try to play from it", chromedp.Click(chromedp.CSS(`[data-testid="setup-done"]`)))
	v := b.waitBoard("the set-up is refused", func(v boardView) bool { return v.Setup != "" })
	if !strings.Contains(v.Setup, "White has 14 men") || !v.SetupOpen {
		t.Errorf("the refusal: %q (set-up open %v), want it to say White has 14 men", v.Setup, v.SetupOpen)
	}
	b.setField("setup-hand-white", "3")
	b.do("play from it", chromedp.Click(chromedp.CSS(`[data-testid="setup-done"]`)))
	start := "9x9 w 3/3 d4:W2b1 a7:B1 g7:B1"
	v = b.waitBoard("the set-up position is played from", func(v boardView) bool { return !v.SetupOpen && v.Position == start })

	// Moves for both sides, one taken back, a variation.
	pos := start
	line := []string{}
	for range 3 {
		mv := legalIn(t, pos)[0]
		pos = b.playOnBoard(pos, mv)
		line = append(line, mv)
	}
	if v := b.waitBoard("three moves", func(v boardView) bool { return len(v.Moves) == 3 }); !slices.Equal(v.Moves, line) {
		t.Errorf("the move list: %v, want %v", v.Moves, line)
	}
	b.do("take back", chromedp.Click(chromedp.CSS(`[data-testid="ab-takeback"]`)))
	b.waitBoard("the move is taken back", func(v boardView) bool { return len(v.Moves) == 2 && v.Current == line[1] })
	b.do("back a move", chromedp.Click(chromedp.CSS(`[data-testid="nav-prev"]`)))
	v = b.waitBoard("after the first move", func(v boardView) bool { return v.Current == line[0] })
	alt := legalIn(t, v.Position)
	other := alt[len(alt)-1] // not line[1], the first
	pos = b.playOnBoard(v.Position, other)
	v = b.waitBoard("a variation", func(v boardView) bool { return slices.Equal(v.Variations, []string{other}) })
	if want := []string{line[0], line[1], other}; !slices.Equal(v.Moves, want) {
		t.Errorf("the move list with its variation: %v, want %v", v.Moves, want)
	}
	next := legalIn(t, pos)[0]
	pos = b.playOnBoard(pos, next)
	v = b.waitBoard("the variation goes on", func(v boardView) bool { return slices.Equal(v.Variations, []string{other, next}) })
	// The keyboard: back along the variation, and forward again.
	b.do("step back with the keyboard", chromedp.Focus(chromedp.CSS(`#ab-moves .mv[aria-current="true"]`)), chromedp.KeyEvent(kb.ArrowLeft))
	b.waitBoard("back along the variation", func(v boardView) bool { return v.Current == other })
	b.do("forward again", chromedp.KeyEvent(kb.ArrowRight))
	v = b.waitBoard("forward along the variation", func(v boardView) bool { return v.Current == next && v.Position == pos })

	// The link restores the start, the moves with their variation, and the move shown.
	link := v.Link
	if !strings.Contains(link, "#") {
		t.Fatalf("the board's link %q holds no board", link)
	}
	b.do("open the link", chromedp.Navigate("about:blank"), chromedp.Navigate(link))
	got := b.waitBoard("the link's board", func(v boardView) bool { return v.Ready && v.Position != "" && len(v.Moves) == 4 })
	if want := []string{line[0], line[1], other, next}; got.Position != pos || got.Current != next || !slices.Equal(got.Moves, want) || !slices.Equal(got.Variations, []string{other, next}) {
		t.Errorf("the link's board: %s at %s, moves %v, variations %v; want %s at %s, moves %v", got.Position, got.Current, got.Moves, got.Variations, pos, next, want)
	}
	// Promoted, the variation becomes the main line.
	b.do("promote the variation", chromedp.Click(chromedp.CSS(`[data-testid="ab-promote"]`)))
	b.waitBoard("the variation is the main line", func(v boardView) bool {
		return slices.Equal(v.Moves, []string{line[0], other, line[1], next}) && slices.Equal(v.Variations, []string{line[1]})
	})
	// A record read: its moves, cut before one the rules refuse, with the reason.
	b.do("paste a record", chromedp.SetValue(chromedp.CSS(`[data-testid="record-text"]`), "[Event \"x\"]\n\n1. g1 d2 2. f2 e7 3. g1 *\n"),
		chromedp.Click(chromedp.CSS(`[data-testid="load-record"]`)))
	v = b.waitBoard("the record's moves", func(v boardView) bool { return slices.Equal(v.Moves, []string{"g1", "d2", "f2", "e7"}) })
	if !strings.Contains(v.Message, "3. g1") || !strings.Contains(v.Message, "g1 is occupied") || v.Current != "e7" {
		t.Errorf("the record read: at %s, message %q; want its end and the refused 3. g1 with its reason", v.Current, v.Message)
	}
	b.do("delete from the second move", chromedp.Click(chromedp.CSS(`#ab-moves .mv[data-at="2"]`)), chromedp.Click(chromedp.CSS(`[data-testid="ab-delete"]`)))
	b.waitBoard("one move left", func(v boardView) bool { return slices.Equal(v.Moves, []string{"g1"}) && v.Current == "g1" })

	// The PGN the board writes of the main line, with the engine's comments, reads back on the server.
	status := evalJS[float64](b, `(async () => {
  const { exportPGN } = await import('/boardrecord.js');
  const { parsePosition } = await import('/setup.js');
  const pgn = exportPGN({ position: parsePosition('`+start+`'), moves: ['`+line[0]+`', '`+other+`', '`+next+`'], comments: ['+0.10', '?? −1.20'] });
  return (await fetch('/api/records', { method: 'POST', body: pgn })).status;
})()`)
	if status != 201 {
		t.Errorf("the board's PGN uploaded: %v, want 201", status)
	}

	// A game being played does not open: no engine during a game.
	playing := evalJS[map[string]any](b, `fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({mode: 'engine', size: 7, color: 'white', level: 1})}).then((r) => r.json())`)["id"].(string)
	b.do("open a game being played", chromedp.Navigate(ts.URL+"/analysis?game="+playing))
	if v := b.waitBoard("the game refused", func(v boardView) bool { return v.Ready && v.Message != "" }); !strings.Contains(v.Message, "once it has ended") || len(v.Moves) != 0 {
		t.Errorf("a game being played on the analysis board: %q, moves %v", v.Message, v.Moves)
	}

	// A finished game: a record uploaded, opened from its page.
	record, err := os.ReadFile(filepath.Join("..", "record", "testdata", "known.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	id := evalJS[map[string]any](b, `fetch('/api/records', {method: 'POST', body: `+jsString(string(record))+`}).then((r) => r.json())`)["id"].(string)
	b.do("open the game", chromedp.Navigate(ts.URL+"/g/"+id), chromedp.WaitVisible(chromedp.CSS(`[data-testid="open-board"]`)))
	opened := time.Now()
	b.do("open it in the analysis board", chromedp.Click(chromedp.CSS(`[data-testid="open-board"]`)))
	v = b.waitBoard("the game is annotated", func(v boardView) bool { return v.Done })
	t.Logf("40 positions annotated by the browser's engine (ANNOTATE_DEPTH) in %v, the page's load included", time.Since(opened).Round(10*time.Millisecond))
	if len(v.Moves) != 39 || v.Points != 40 || len(v.Marks) == 0 {
		t.Errorf("the annotated game: %d moves, %d points in the chart, marks %v; want 39 moves, 40 points, some marks", len(v.Moves), v.Points, v.Marks)
	}
	b.do("a point of the chart", chromedp.Click(chromedp.CSS(`[data-testid="eval-chart"] .eval-point[data-ply="17"] .eval-hit`)))
	b.waitBoard("the chart goes to its move", func(v boardView) bool { return v.Current == "c1xe3xg5xi7xg9xe7" })
	for _, size := range []struct {
		name string
		w, h int64
	}{{"wide", 1280, 960}, {"phone", 390, 844}} {
		b.do("a "+size.name+" window", chromedp.EmulateViewport(size.w, size.h))
		if out := evalJS[[]string](b, overflowJS); len(out) > 0 {
			t.Errorf("the analysis board, %s window: sticks out: %v", size.name, out)
		}
		b.screenshot("board-annotated-" + size.name)
	}
}

// legalIn are the legal moves of a position text, in byte order.
func legalIn(t *testing.T, position string) []string {
	t.Helper()
	p, err := notation.ParsePosition(position)
	if err != nil {
		t.Fatal(err)
	}
	return notation.SortedMoves(p.Geometry(), rules.NewGameFrom(p).Legal())
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "`", "\\`", "$", `\$`)
	return "`" + r.Replace(s) + "`"
}

// TestBrowserAnalysisBoardWithoutWebAssembly: in a browser without
// WebAssembly the analysis board takes the rules and the engine from the
// server: a move played by clicks, its position analysed on asking.
func TestBrowserAnalysisBoardWithoutWebAssembly(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	b := newBrowser(t, exe, "analyst")
	b.do("a browser without WebAssembly", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `delete globalThis.WebAssembly`})
		return err
	}))
	b.do("open the analysis board", chromedp.Navigate(ts.URL+"/analysis#pos=7x7+w+8%2F8+-"))
	b.waitBoard("the board is ready", func(v boardView) bool { return v.Ready && v.Position == "7x7 w 8/8 -" })
	if src := evalJS[string](b, `typeof WebAssembly + ' ' + document.querySelector('[data-testid="ab-source"]').innerText`); src != "undefined on the server" {
		t.Fatalf("WebAssembly and the source of the rules: %q, want none and the server", src)
	}
	b.playOnBoard("7x7 w 8/8 -", "c3")
	b.do("ask the server's engine", chromedp.Click(chromedp.CSS(`[data-testid="ab-analyse"]`)))
	line := poll(b, "the server's analysis", func() (string, error) {
		return tryJS[string](b, `(document.querySelector('[data-testid="ab-analysis"] [data-testid="analysis-line"]') || {}).innerText || ''`)
	}, func(s string) bool { return s != "" })
	if !strings.Contains(line, "1…") {
		t.Errorf("the best line after 1. c3: %q, want it numbered from Black's first move", line)
	}
}
