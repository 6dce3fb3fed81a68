package server_test

// The board as players handle it: moves dragged by the mouse and by a
// finger, premoves queued on the opponent's turn, and the settings of
// the header (colours, board, sound) kept in the browser and in the
// account.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"emergo/rules"
)

// point is a place on the page, in CSS pixels of the viewport.
type point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// centreOf is the centre of the element sel on b's page.
func (b *browser) centreOf(sel string) point {
	b.t.Helper()
	return evalJS[point](b, `(() => { const r = document.querySelector('`+sel+`').getBoundingClientRect(); `+
		`return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`)
}

// squareSel is the selector of a square of the board, its background.
func squareSel(sq string) string { return `g[data-square="` + sq + `"] > rect.bg` }

// drag presses at from, moves in three steps to to and lets go there: by
// the mouse, or by a finger when touch.
func (b *browser) drag(what string, from, to point, touch bool) {
	b.t.Helper()
	at := func(f float64) point { return point{from.X + (to.X-from.X)*f, from.Y + (to.Y-from.Y)*f} }
	b.do(what, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if touch {
			steps := []input.DispatchTouchEventParams{{Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{{X: from.X, Y: from.Y}}}}
			for _, f := range []float64{0.33, 0.66, 1} {
				p := at(f)
				steps = append(steps, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchMove, TouchPoints: []*input.TouchPoint{{X: p.X, Y: p.Y}}})
			}
			steps = append(steps, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}})
			for _, s := range steps {
				if _, err := cdp.Call(ctx, t, input.DispatchTouchEvent, s); err != nil {
					return err
				}
			}
			return nil
		}
		steps := []input.DispatchMouseEventParams{
			{Type: input.DispatchMouseEventTypeMouseMoved, X: from.X, Y: from.Y},
			{Type: input.DispatchMouseEventTypeMousePressed, X: from.X, Y: from.Y, Button: input.MouseButtonLeft, Buttons: 1, ClickCount: 1},
		}
		for _, f := range []float64{0.33, 0.66, 1} {
			p := at(f)
			steps = append(steps, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: p.X, Y: p.Y, Button: input.MouseButtonLeft, Buttons: 1})
		}
		steps = append(steps, input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseReleased, X: to.X, Y: to.Y, Button: input.MouseButtonLeft, ClickCount: 1})
		for _, s := range steps {
			if _, err := cdp.Call(ctx, t, input.DispatchMouseEvent, s); err != nil {
				return err
			}
		}
		return nil
	}))
}

// dragMove plays mv, one of legal, by dragging as colour: an entry from
// the hand onto its square; a step or a capture from its start to its
// end in one drag when no other legal move goes from there to there,
// else landing by landing, each drag from where the last one ended.
func (b *browser) dragMove(legal []string, mv, colour string, touch bool) {
	b.t.Helper()
	sq := squaresOf(mv)
	if len(sq) == 1 {
		b.drag("drag a man from the hand to "+mv, b.centreOf(`[data-testid="player-`+colour+`"] .hand`), b.centreOf(squareSel(mv)), touch)
		return
	}
	same := 0
	for _, l := range legal {
		p := squaresOf(l)
		if len(p) > 1 && p[0] == sq[0] && p[len(p)-1] == sq[len(sq)-1] {
			same++
		}
	}
	if same == 1 {
		b.drag("drag "+mv, b.centreOf(squareSel(sq[0])), b.centreOf(squareSel(sq[len(sq)-1])), touch)
		return
	}
	clicks := clicksFor(legal, mv)
	for i := 1; i < len(clicks); i++ {
		if i > 1 {
			b.waitChosen(mv, clicks[:i], clicks[i])
		}
		b.drag(fmt.Sprintf("drag %s, landing %d", mv, i), b.centreOf(squareSel(clicks[i-1])), b.centreOf(squareSel(clicks[i])), touch)
	}
}

// TestBrowserDragPlaysEngine: a person plays a 7x7 game against the
// engine at level 1 with every move dragged, by the mouse and, every
// other move of his, by a finger: men from the hand onto the board,
// steps, and captures, in one drag or landing by landing.
func TestBrowserDragPlaysEngine(t *testing.T) {
	exe := requireChromium(t)
	// The creation time of TestBrowserPlaysEngine, whose person makes a
	// capture of several men early: the same policy plays here.
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 4, 0, time.UTC))
	b := newBrowser(t, exe, "dragger")
	b.do("a tall window, the whole board and both hands in it", chromedp.EmulateViewport(1280, 1200))
	b.do("open the home page", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lang"]`)))
	id := evalJS[map[string]any](b, fetchJS("/api/games", `{mode: 'engine', size: 7, color: 'white', level: 1}`))["id"].(string)
	b.do("open the game", chromedp.Navigate(ts.URL+"/g/"+id))
	b.mark()

	const plyCap = 80
	geo := rules.GeometryOf(7)
	mine := map[int]string{}
	kinds := map[string]int{}
	var st state
	for {
		st = b.waitState("the engine replies", id, func(st state) bool {
			return st.Over || (st.Turn == "white" && !st.Thinking)
		})
		if st.Over {
			break
		}
		n := len(st.Moves)
		b.waitView("the board takes a move", func(v pageView) bool {
			return slices.Equal(v.Moves, st.Moves) && v.Interactive && !v.Animating
		})
		if n >= plyCap {
			b.do("resign", chromedp.Click(chromedp.CSS(`[data-testid="resign"]`)), chromedp.Click(chromedp.CSS(`[data-testid="resign-confirm"]`)))
			break
		}
		mv := personMove(t, replay(t, 7, st.Moves), kinds["capture of several men"] == 0).Text(geo)
		touch := n%4 == 2
		b.dragMove(st.Legal, mv, "white", touch)
		kind := "step"
		if len(squaresOf(mv)) == 1 {
			kind = "entry"
		} else if strings.Contains(mv, "x") {
			kind = "capture"
			if len(squaresOf(mv)) > 2 {
				kinds["capture of several men"]++
			}
		}
		if touch {
			kind += " by touch"
		}
		kinds[kind]++
		mine[n] = mv
		b.waitView("the dragged move "+mv+" is in the move list", func(v pageView) bool { return len(v.Moves) > n && v.Moves[n] == mv })
	}
	v := b.waitView("the result is shown", func(v pageView) bool { return v.Result != "" })
	st = b.state(id)
	t.Logf("%d plies, %s (%s); the person's moves dragged: %v", len(st.Moves), st.Result, st.Reason, kinds)
	for i, mv := range st.Moves {
		if i%2 == 0 && mine[i] != mv {
			t.Errorf("move %d is %s, the person dragged %q", i+1, mv, mine[i])
		}
	}
	for _, k := range []string{"entry", "entry by touch", "capture", "capture by touch"} {
		if kinds[k] == 0 {
			t.Errorf("no %s was dragged (%v)", k, kinds)
		}
	}
	if !v.Marked {
		t.Error("the page was reloaded during the game")
	}
}

// premoveJS lists the squares of the board that mark its premove.
const premoveJS = `[...document.querySelectorAll('#board g[data-square].premove')].map((g) => g.dataset.square).sort()`

// waitPremove waits until b's board marks the squares of want as its
// premove (none for "").
func (b *browser) waitPremove(what, want string) {
	b.t.Helper()
	var sq []string
	if want != "" {
		sq = lastSquares(want)
	}
	poll(b, what, func() ([]string, error) { return tryJS[[]string](b, premoveJS) }, func(got []string) bool { return slices.Equal(got, sq) })
}

// entriesAfter are the entries that the side to move may play after the
// moves of a 7x7 game.
func entriesAfter(t *testing.T, moves []string) []string {
	t.Helper()
	p := replay(t, 7, moves).Position()
	return entriesOf(&p)
}

// entriesOf are the entries among the legal moves of p.
func entriesOf(p *rules.Position) []string {
	geo := rules.GeometryOf(7)
	var out []string
	for _, m := range p.Legal(nil) {
		if mv := m.Text(geo); len(squaresOf(mv)) == 1 {
			out = append(out, mv)
		}
	}
	return out
}

// TestBrowserPremove: on Bob's turn Alice queues a premove, dragged from
// her hand, and it is played the moment Bob has moved; one that Bob's
// move makes illegal is forgotten without a word; Escape, a click off
// the board and a click on it cancel one, and nothing is played.
func TestBrowserPremove(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	alice := newBrowser(t, exe, "alice")
	bob := newBrowser(t, exe, "bob")
	alice.do("a tall window, the whole board and both hands in it", chromedp.EmulateViewport(1280, 1200))
	id := startFriendGame(t, ts.URL, alice, bob)
	alice.mark()
	geo := rules.GeometryOf(7)
	premoving := func() (bool, error) {
		return tryJS[bool](alice, `document.querySelector('#board').classList.contains('premoving')`)
	}
	bobPlays := func(mv string, ply int) {
		t.Helper()
		got := evalJS[map[string]any](bob, fetchJS("/api/games/"+id+"/move", fmt.Sprintf(`{move: '%s', ply: %d}`, mv, ply)))
		if got["error"] != nil {
			t.Fatalf("Bob's %s: %v", mv, got)
		}
	}
	alicePlays := func(ply int) {
		t.Helper()
		st := alice.waitState("Alice's turn", id, func(st state) bool { return len(st.Moves) == ply })
		alice.waitView("Alice's board takes a move", func(v pageView) bool { return v.Interactive && len(v.Moves) == ply })
		alice.playByClicks(st.Legal, st.Legal[0])
		poll(alice, "Alice's board takes a premove", premoving, func(ok bool) bool { return ok })
	}

	// A premove dragged from the hand, and Bob's move that leaves it legal.
	alicePlays(0)
	p := replay(t, 7, alice.state(id).Moves).Position()
	var pre, reply string
	for _, b := range p.Legal(nil) {
		q := p.After(b)
		for _, e := range entriesOf(&q) {
			if e != b.Text(geo) {
				pre, reply = e, b.Text(geo)
				break
			}
		}
		if pre != "" {
			break
		}
	}
	alice.drag("drag a premove from the hand to "+pre, alice.centreOf(`[data-testid="player-white"] .hand`), alice.centreOf(squareSel(pre)), false)
	alice.waitPremove("the premove "+pre+" is shown", pre)
	alice.waitText("the premove is said", `[data-testid="announce"]`, func(s string) bool { return strings.Contains(s, "Premove "+pre) })
	bobPlays(reply, 1)
	st := alice.waitState("the premove is played", id, func(st state) bool { return len(st.Moves) >= 3 })
	if st.Moves[2] != pre {
		t.Fatalf("after Bob's %s, move 3 is %s, want the premove %s", reply, st.Moves[2], pre)
	}
	alice.waitView("the premove is in Alice's list, its marks gone", func(v pageView) bool { return len(v.Moves) == 3 })
	alice.waitPremove("no premove left", "")

	// A premove by a click on the square Bob then enters on: forgotten.
	poll(alice, "Alice's board takes a premove", premoving, func(ok bool) bool { return ok })
	taken := entriesAfter(t, st.Moves)[0]
	alice.clickSquare(taken)
	alice.waitPremove("the premove "+taken+" is shown", taken)
	bobPlays(taken, 3)
	v := alice.waitView("Alice may move, the premove forgotten", func(v pageView) bool {
		return len(v.Moves) == 4 && v.Interactive && !v.Animating
	})
	if got := evalJS[[]string](alice, premoveJS); len(got) != 0 || v.Message != "" {
		t.Errorf("after the premove was made illegal: marked %v, message %q; want neither", got, v.Message)
	}
	if n := len(alice.state(id).Moves); n != 4 {
		t.Errorf("%d moves after an illegal premove, want 4", n)
	}

	// Cancelled by Escape, by a click off the board, by a click on it.
	alicePlays(4)
	st = alice.state(id)
	free := entriesAfter(t, st.Moves)
	mark, other := free[0], free[1]
	cancels := []struct {
		name string
		do   func()
	}{
		{"Escape", func() { alice.press("Escape", kb.Escape) }},
		{"a click off the board", func() { alice.do("click the status", chromedp.Click(chromedp.CSS(`[data-testid="status"]`))) }},
		{"a click on another square", func() { alice.clickSquare(other) }},
	}
	for _, c := range cancels {
		alice.clickSquare(mark)
		alice.waitPremove("the premove "+mark+" is shown", mark)
		c.do()
		alice.waitPremove("the premove is cancelled by "+c.name, "")
		alice.waitText("the cancel is said", `[data-testid="announce"]`, func(s string) bool { return s == "Premove cancelled." })
	}
	bobPlays(entriesAfter(t, st.Moves)[0], 5)
	alice.waitView("Alice may move, nothing played for her", func(v pageView) bool { return len(v.Moves) == 6 && v.Interactive })
	if n := len(alice.state(id).Moves); n != 6 {
		t.Errorf("%d moves after the premoves were cancelled, want 6", n)
	}
}

// darkScheme makes b's pages see a system that prefers dark colours
// (true) or light ones.
func (b *browser) darkScheme(dark bool) {
	b.t.Helper()
	value := "light"
	if dark {
		value = "dark"
	}
	b.do("the system prefers "+value+" colours", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: value}},
		})
		return err
	}))
}

// choose picks value in the settings' control of name, as a reader does.
func (b *browser) choose(name, value string) {
	b.t.Helper()
	evalJS[bool](b, `(() => { const menu = document.querySelector('[data-testid="settings"]'); menu.open = true; `+
		`const c = menu.querySelector('[data-pref="`+name+`"]'); `+
		`if (c.type === 'checkbox') c.checked = '`+value+`' === 'on'; else c.value = '`+value+`'; `+
		`c.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`)
}

// looks is how b's page looks: its <html>'s preferences, the page's
// background and the fill of a dark square of its board (if it has one).
type looks struct {
	Theme  string `json:"theme"`
	Board  string `json:"board"`
	Sound  string `json:"sound"`
	Bg     string `json:"bg"`
	Square string `json:"square"`
	Cookie string `json:"cookie"`
}

const looksJS = `(() => { const d = document.documentElement.dataset; const sq = document.querySelector('.board .sq .bg');
  return {theme: d.theme || '', board: d.board || '', sound: d.sound || '', bg: getComputedStyle(document.body).backgroundColor,
    square: sq ? getComputedStyle(sq).fill : '', cookie: document.cookie}; })()`

func (b *browser) waitLooks(what string, ok func(looks) bool) looks {
	b.t.Helper()
	return poll(b, what, func() (looks, error) { return tryJS[looks](b, looksJS) }, ok)
}

// The page's background in each scheme (--bg of style.css).
const (
	lightBg = "rgb(243, 240, 232)"
	darkBg  = "rgb(22, 24, 27)"
)

// TestBrowserThemes: the site follows the system's dark colours until the
// switch says otherwise, which the browser remembers; the board's theme
// changes its squares; an account's choices follow it to another
// browser at the login, and onto the pages the server writes. Screenshots
// of the dark theme go to EMERGO_SCREENSHOTS.
func TestBrowserThemes(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	b := newBrowser(t, exe, "reader")
	b.darkScheme(true)
	b.do("open the home page", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="settings-open"]`)))
	b.waitLooks("dark, as the system", func(l looks) bool { return l.Bg == darkBg && l.Theme == "" })
	b.choose("theme", "light")
	b.waitLooks("light at once, and kept", func(l looks) bool {
		return l.Bg == lightBg && strings.Contains(l.Cookie, "emergo_theme=light")
	})
	b.do("open the analysis board", chromedp.Navigate(ts.URL+"/analysis"))
	poll(b, "the board is ready", func() (bool, error) { return tryJS[bool](b, analysisReadyJS) }, func(ok bool) bool { return ok })
	b.waitLooks("light on the next page, from the server", func(l looks) bool {
		return l.Theme == "light" && l.Bg == lightBg && l.Square == "rgb(124, 156, 116)"
	})
	b.choose("theme", "system")
	b.choose("board", "wood")
	b.choose("sound", "off")
	b.waitLooks("dark again, a wood board, no sound", func(l looks) bool {
		return l.Bg == darkBg && l.Square == "rgb(162, 121, 85)" && l.Sound == "off" &&
			strings.Contains(l.Cookie, "emergo_board=wood") && strings.Contains(l.Cookie, "emergo_sound=off") && strings.Contains(l.Cookie, "emergo_theme=system")
	})
	b.screenshot("dark-analysis-wood")

	// An account's choices.
	evalJS[map[string]any](b, fetchJS("/api/account/signup", `{username: 'Noite', password: 'a long password'}`))
	game := b.engineGameAfter(8)
	b.do("open a game", chromedp.Navigate(ts.URL+"/g/"+game))
	b.waitView("the game is drawn", func(v pageView) bool { return v.Interactive && !v.Animating })
	b.choose("theme", "dark")
	b.choose("board", "slate")
	b.waitLooks("a dark slate board", func(l looks) bool {
		return l.Theme == "dark" && l.Square == "rgb(125, 147, 158)" && strings.Contains(l.Cookie, "emergo_board=slate")
	})
	b.screenshot("dark-game-slate")
	me := evalJS[map[string]any](b, `fetch('/api/account/me').then((r) => r.json())`)["prefs"].(map[string]any)
	// The sound was switched off before the signup: the browser's, not the account's.
	if me["theme"] != "dark" || me["board"] != "slate" || me["sound"] != "" {
		t.Errorf("the account's preferences: %v, want dark, slate and no sound chosen", me)
	}

	// Another browser, on a light system, with a choice of its own.
	other := newBrowser(t, exe, "elsewhere")
	other.darkScheme(false)
	other.do("open the home page", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="login"]`)))
	other.choose("board", "wood")
	other.waitLooks("light, its own wood board kept", func(l looks) bool {
		return l.Bg == lightBg && strings.Contains(l.Cookie, "emergo_board=wood")
	})
	other.do("log in", chromedp.Click(chromedp.CSS(`[data-testid="login"]`)))
	other.fillAccount("log in", "Noite", "a long password")
	other.waitLooks("the account's colours at the login", func(l looks) bool {
		return l.Theme == "dark" && l.Board == "slate" && l.Sound == "" && l.Bg == darkBg
	})
	other.do("open the game", chromedp.Navigate(ts.URL+"/g/"+game))
	other.waitLooks("the account's colours from the server", func(l looks) bool {
		return l.Theme == "dark" && l.Board == "slate" && l.Square == "rgb(125, 147, 158)"
	})
	other.do("log out", chromedp.Click(chromedp.CSS(`[data-testid="logout"]`)))
	other.waitLooks("its own choices again at the logout", func(l looks) bool {
		return l.Theme == "" && l.Board == "wood" && l.Bg == lightBg
	})

	// A phone in the dark.
	phone := newBrowser(t, exe, "phone")
	phone.darkScheme(true)
	phone.do("a phone's window", chromedp.EmulateViewport(390, 844))
	phone.do("open the home page", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="settings-open"]`)))
	phone.do("open the settings", chromedp.Click(chromedp.CSS(`[data-testid="settings-open"]`)))
	phone.waitLooks("dark", func(l looks) bool { return l.Bg == darkBg })
	phone.screenshot("dark-home-phone-settings")
}
