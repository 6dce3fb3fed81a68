package server_test

// A game played with the keyboard alone, as a person who cannot use a
// mouse, or cannot see the board, plays it: where the focus is after each
// action, and what the page's live region says after each move.

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"emergo/rules"
)

// focusJS names the element with the focus: a board square as "square
// d4", else its data-testid, "move-list" for a move of the list, else its
// tag; "body" when nothing has it. After a "|" comes a number that is the
// element's own, so that two links are told apart.
const focusJS = `(() => {
  const e = document.activeElement;
  if (!e || e === document.body) return 'body|0';
  const ids = window.emergoFocusIDs || (window.emergoFocusIDs = new WeakMap());
  if (!ids.has(e)) ids.set(e, (window.emergoFocusCount = (window.emergoFocusCount || 0) + 1));
  const id = ids.get(e);
  if (e.dataset && e.dataset.square) return 'square ' + e.dataset.square + '|' + id;
  if (e.dataset && e.dataset.testid) return e.dataset.testid + '|' + id;
  if (e.closest('[data-testid="move-list"]')) return 'move-list|' + id;
  return e.tagName.toLowerCase() + '|' + id;
})()`

// focusedAs is the element with the focus, as focusJS names it.
func (b *browser) focusedAs() (string, error) { return tryJS[string](b, focusJS) }

// focused names the element with the focus, as focusJS does, without its number.
func (b *browser) focused() (string, error) {
	f, err := b.focusedAs()
	name, _, _ := strings.Cut(f, "|")
	return name, err
}

// waitFocus waits until the focus is on want.
func (b *browser) waitFocus(what, want string) {
	b.t.Helper()
	poll(b, what+": the focus on "+want, b.focused, func(f string) bool { return f == want })
}

func (b *browser) press(what, keys string, opts ...chromedp.KeyOption) {
	b.t.Helper()
	b.do(what, chromedp.KeyEvent(keys, opts...))
}

// tabTo presses Tab (Shift+Tab when back) until the focus is on an
// element that ok accepts, and returns how many presses it took. Each
// press is counted once the focus has left the element before it.
func (b *browser) tabTo(what string, back bool, ok func(string) bool) int {
	b.t.Helper()
	var opts []chromedp.KeyOption
	if back {
		opts = append(opts, chromedp.KeyModifiers(chromedp.ModifierShift))
	}
	at, err := b.focusedAs()
	if err != nil {
		b.t.Fatalf("%s: %s: %v", b.name, what, err)
	}
	for n := 1; n <= 60; n++ {
		b.press(what, kb.Tab, opts...)
		from := at
		at = poll(b, what+": the focus moves on from "+from, b.focusedAs, func(f string) bool { return f != from })
		if name, _, _ := strings.Cut(at, "|"); ok(name) {
			return n
		}
	}
	b.t.Fatalf("%s: %s: not reached in 60 presses of Tab; the focus is on %s", b.name, what, at)
	return 0
}

// arrowKeys are the arrow keys that take the board's focus from one
// square to another, fewest first, as board.js moves it for White: left
// and right two files along the rank, up and down to the next rank, one
// file to the right where there is one, else to the left.
func arrowKeys(size int, from, to string) string {
	type sq struct{ f, r int }
	parse := func(s string) sq { return sq{int(s[0] - 'a'), int(s[1] - '1')} }
	in := func(q sq) bool { return q.f >= 0 && q.r >= 0 && q.f < size && q.r < size }
	next := func(q sq, key string) (sq, bool) {
		switch key {
		case kb.ArrowLeft, kb.ArrowRight:
			d := 2
			if key == kb.ArrowLeft {
				d = -2
			}
			n := sq{q.f + d, q.r}
			return n, in(n)
		default:
			r := q.r + 1
			if key == kb.ArrowDown {
				r = q.r - 1
			}
			for _, f := range []int{q.f + 1, q.f - 1} {
				if n := (sq{f, r}); in(n) {
					return n, true
				}
			}
			return q, false
		}
	}
	start, goal := parse(from), parse(to)
	path := map[sq]string{start: ""}
	queue := []sq{start}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		if q == goal {
			return path[q]
		}
		for _, key := range []string{kb.ArrowUp, kb.ArrowDown, kb.ArrowLeft, kb.ArrowRight} {
			if n, ok := next(q, key); ok {
				if _, seen := path[n]; !seen {
					path[n] = path[q] + key
					queue = append(queue, n)
				}
			}
		}
	}
	panic(fmt.Sprintf("no way by the arrow keys from %s to %s", from, to))
}

// pressSquares plays mv, one of legal, on the board by the keyboard: the
// focus taken to each square the board needs (clicksFor) by the arrow
// keys, then Enter; each press waits until the board has taken the one
// before. It returns the last square pressed.
func (b *browser) pressSquares(legal []string, mv string) string {
	b.t.Helper()
	presses := clicksFor(legal, mv)
	for i, sq := range presses {
		at := poll(b, "the focus is on the board", b.focused, func(f string) bool { return strings.HasPrefix(f, "square ") })
		if keys := arrowKeys(7, strings.TrimPrefix(at, "square "), sq); keys != "" {
			b.press("arrows to "+sq, keys)
		}
		b.waitFocus("arrows to "+sq, "square "+sq)
		b.press("Enter on "+sq, kb.Enter)
		if i < len(presses)-1 {
			b.waitChosen(mv, presses[:i+1], presses[i+1])
		}
	}
	return presses[len(presses)-1]
}

// spoken matches the words in which the live region says mv played by
// mover (White or Black), in English.
func spoken(mover, mv string) *regexp.Regexp {
	sq := squaresOf(mv)
	var words string
	switch {
	case strings.Contains(mv, "x"):
		men := "men"
		if len(sq) == 2 {
			men = "man"
		}
		words = fmt.Sprintf("%s captured %s, taking %d %s %s prisoner.", mover, mv, len(sq)-1, strings.ToLower(otherColour(mover)), men)
	case len(sq) == 2:
		words = fmt.Sprintf("%s moved %s to %s.", mover, sq[0], sq[1])
	default:
		return regexp.MustCompile(mover + ` entered (a man|the shadow piece, \d+ men? as one column,) on ` + sq[0] + `\.`)
	}
	return regexp.MustCompile(regexp.QuoteMeta(words))
}

func otherColour(c string) string {
	if c == "White" {
		return "Black"
	}
	return "White"
}

// recordAnnouncementsJS keeps every text the page puts in its live region
// in window.emergoSaid.
const recordAnnouncementsJS = `(() => {
  const region = document.querySelector('[data-testid="announce"]');
  window.emergoSaid = [];
  new MutationObserver(() => { if (region.textContent) window.emergoSaid.push(region.textContent); })
    .observe(region, {childList: true, characterData: true, subtree: true});
  return true;
})()`

const announcedJS = `document.querySelector('[data-testid="announce"]').textContent`

// TestBrowserKeyboardGame: a person plays the engine with the keyboard
// alone: Tab to the board, an entry, a typed move, a capture of several
// men jump by jump, a step, the move list stepped through by its arrow
// keys, and a resignation, cancelled once with Escape. After each action
// the focus is where the person was (the square last pressed, the move
// field, the move list, the result); after each of the engine's moves
// the live region says the move in words and that it is the person's
// turn; every move is said once. The number of Tab presses from the board
// to Resign late in the game is measured.
func TestBrowserKeyboardGame(t *testing.T) {
	exe := requireChromium(t)
	// TestBrowserPlaysEngine's game: the person's policy makes a
	// multi-jump capture early, and steps later.
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 4, 0, time.UTC))
	b := newBrowser(t, exe, "keyboard")
	b.do("create the game on the home page",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="new-engine"]`)),
		chromedp.SetValue(chromedp.CSS(`[data-testid="size"]`), "7"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="level"]`), "1"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="color"]`), "white"),
		chromedp.Click(chromedp.CSS(`[data-testid="new-engine"]`)),
	)
	id := b.gameID()
	b.mark()
	b.waitView("the board takes the first move", func(v pageView) bool { return v.Interactive })
	evalJS[bool](b, recordAnnouncementsJS)
	evalJS[bool](b, `document.activeElement.blur(), true`)
	tabs := b.tabTo("Tab to the board", false, func(f string) bool { return strings.HasPrefix(f, "square ") })
	t.Logf("%d presses of Tab from the top of the page to the board", tabs)

	var entry, typed, multi, step string
	geo := rules.GeometryOf(7)
	for {
		st := b.waitState("the engine replies", id, func(st state) bool {
			return st.Result != "*" || (st.Turn == "white" && !st.Thinking)
		})
		if st.Result != "*" {
			t.Fatalf("the game ended (%s, %s) before the person had entered, typed, captured several men and stepped: %q, %q, %q, %q; "+
				"choose another creation time for the game, as for TestBrowserPlaysEngine", st.Result, st.Reason, entry, typed, multi, step)
		}
		n := len(st.Moves)
		b.waitView("the engine's reply shows and the board takes a move", func(v pageView) bool {
			return slices.Equal(v.Moves, st.Moves) && v.Interactive && !v.Animating
		})
		if n > 0 {
			reply := st.Moves[n-1]
			words := spoken("Black", reply)
			said := poll(b, "the live region says "+reply, func() (string, error) { return tryJS[string](b, announcedJS) },
				func(s string) bool { return words.MatchString(s) && strings.Contains(s, "Your move") })
			if n == 2 || strings.Contains(reply, "x") {
				t.Logf("after %s the live region says %q", reply, said)
			}
		}
		if entry != "" && typed != "" && multi != "" && step != "" {
			break
		}

		m := personMove(t, replay(t, 7, st.Moves), multi == "")
		mv := m.Text(geo)
		at, _ := b.focused()
		switch {
		case typed == "" && entry != "" && !strings.ContainsAny(mv, "-x"):
			b.tabTo("Tab to the move field", false, func(f string) bool { return f == "move-input" })
			b.press("type "+mv, mv+kb.Enter)
			typed = mv
			b.waitView(mv+" in the move list", func(v pageView) bool { return len(v.Moves) > n && v.Moves[n] == mv })
			b.waitFocus("after the typed move", "move-input")
			poll(b, "the move field is emptied once "+mv+" is played", func() (string, error) {
				return tryJS[string](b, `document.querySelector('[data-testid="move-input"]').value`)
			}, func(v string) bool { return v == "" })
			b.waitFocus("after the typed move is answered", "move-input")
			continue
		case !strings.HasPrefix(at, "square "):
			b.tabTo("Shift+Tab back to the board", true, func(f string) bool { return strings.HasPrefix(f, "square ") })
		}
		last := b.pressSquares(st.Legal, mv)
		b.waitView(mv+" in the move list", func(v pageView) bool { return len(v.Moves) > n && v.Moves[n] == mv })
		b.waitFocus("after "+mv, "square "+last)
		switch {
		case m.Jumps() >= 2 && multi == "":
			multi = mv
		case strings.Contains(mv, "-") && step == "":
			step = mv
		case !strings.ContainsAny(mv, "-x") && entry == "":
			entry = mv
		}
	}
	t.Logf("entered %s, typed %s, took several men with %s, stepped %s", entry, typed, multi, step)

	// The move list: one Tab stop, its arrow keys step through the game.
	st := b.state(id)
	n := len(st.Moves)
	b.tabTo("Tab to the move list", false, func(f string) bool { return f == "move-list" })
	b.press("ArrowUp in the move list", kb.ArrowUp)
	b.waitView("the move before the last is shown", func(v pageView) bool { return v.Viewing && slices.Equal(v.Last, lastSquares(st.Moves[n-2])) })
	b.waitFocus("after ArrowUp in the move list", "move-list")
	if sel := evalJS[string](b, `document.activeElement.getAttribute('aria-selected') + ' ' + document.activeElement.dataset.ply`); sel != fmt.Sprintf("true %d", n-1) {
		t.Errorf("after ArrowUp the focused move is %q, want the selected ply %d", sel, n-1)
	}
	b.press("End in the move list", kb.End)
	b.waitView("the live position is back", func(v pageView) bool { return !v.Viewing })
	b.waitFocus("after End in the move list", "move-list")

	// Tab presses from the board to Resign, late in the game.
	b.tabTo("Shift+Tab back to the board", true, func(f string) bool { return strings.HasPrefix(f, "square ") })
	toResign := b.tabTo("Tab from the board to Resign", false, func(f string) bool { return f == "resign" })
	t.Logf("ply %d: %d presses of Tab from the board to Resign", n, toResign)
	if toResign > 12 {
		t.Errorf("%d presses of Tab from the board to Resign, want 12 at most", toResign)
	}

	b.press("Enter on Resign", kb.Enter)
	b.waitFocus("Resign asks", "resign-cancel")
	b.press("Escape", kb.Escape)
	b.waitFocus("Escape cancels", "resign")
	b.press("Enter on Resign", kb.Enter)
	b.waitFocus("Resign asks again", "resign-cancel")
	b.tabTo("Shift+Tab to Yes", true, func(f string) bool { return f == "resign-confirm" })
	b.press("Enter on Yes", kb.Enter)
	b.waitView("the result is shown", func(v pageView) bool { return v.Result != "" })
	b.waitFocus("after resigning", "result")
	poll(b, "the live region says the result", func() (string, error) { return tryJS[string](b, announcedJS) },
		func(s string) bool { return strings.Contains(s, "Black wins. By resignation. You lost.") })

	// Every move was said once, and so was the end.
	st = b.state(id)
	said := evalJS[[]string](b, `window.emergoSaid`)
	for i, mv := range st.Moves {
		mover := []string{"White", "Black"}[i%2]
		words := spoken(mover, mv)
		want, got := 0, 0
		for j, other := range st.Moves {
			if spoken([]string{"White", "Black"}[j%2], other).String() == words.String() {
				want++
			}
		}
		for _, s := range said {
			if words.MatchString(s) {
				got++
			}
		}
		if got != want {
			t.Errorf("ply %d, %s: said %d times, want %d; the live region said %q", i+1, mv, got, want, said)
		}
	}
	ends := 0
	for _, s := range said {
		if strings.Contains(s, "By resignation") {
			ends++
		}
	}
	if ends != 1 {
		t.Errorf("the live region said the resignation %d times, want once: %q", ends, said)
	}
	if !b.view().Marked {
		t.Error("the page was reloaded during the game")
	}
	b.screenshot("keyboard-result")
}

// TestBrowserFocusStays: in a game between two people, each of the
// panel's buttons pressed with Enter leaves the focus where the player can
// go on: an offer's button keeps it while it says the offer is made, an
// answered offer gives it to the status, an aborted game to its result.
func TestBrowserFocusStays(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	alice := newBrowser(t, exe, "alice")
	bob := newBrowser(t, exe, "bob")
	startFriendGame(t, ts.URL, alice, bob)
	idle := func(b *browser, testid string) bool {
		return evalJS[bool](b, `document.querySelector('[data-testid="`+testid+`"]').getAttribute('aria-disabled') === 'true'`)
	}

	// enter focuses the button testid, as Tab would, and presses Enter on it.
	enter := func(b *browser, testid string) {
		t.Helper()
		poll(b, testid+" is shown", func() (bool, error) {
			return tryJS[bool](b, `(() => { const e = document.querySelector('[data-testid="`+testid+`"]'); return Boolean(e && e.getClientRects().length); })()`)
		}, func(ok bool) bool { return ok })
		evalJS[bool](b, `document.querySelector('[data-testid="`+testid+`"]').focus(), true`)
		b.waitFocus("focus "+testid, testid)
		b.press("Enter on "+testid, kb.Enter)
	}

	enter(alice, "draw-offer")
	alice.waitPanel("Alice's offer is shown", func(v panelView) bool { return strings.Contains(v.Text, "You offered a draw") })
	alice.waitFocus("after offering a draw", "draw-offer")
	if !idle(alice, "draw-offer") {
		t.Error("the draw button is not idle once the draw is offered")
	}
	enter(alice, "draw-offer")
	bob.waitPanel("Bob may answer", func(v panelView) bool { return v.DrawAnswer })
	enter(bob, "draw-decline")
	bob.waitPanel("the offer is declined", func(v panelView) bool { return !v.DrawAnswer })
	bob.waitFocus("after declining", "status")
	alice.waitPanel("Alice learns it", func(v panelView) bool { return !strings.Contains(v.Text, "You offered a draw") })
	alice.waitFocus("after her offer was declined", "draw-offer")
	if idle(alice, "draw-offer") {
		t.Error("the draw button is still idle after the offer was declined")
	}

	st := alice.state(alice.gameID())
	alice.playByClicks(st.Legal, st.Legal[0])
	bob.waitView("Alice's move reaches Bob", func(v pageView) bool { return len(v.Moves) == 1 })
	enter(alice, "takeback-request")
	bob.waitPanel("Bob is asked for a take-back", func(v panelView) bool { return v.TakeAnswer })
	alice.waitFocus("after asking for a take-back", "takeback-request")
	enter(bob, "takeback-accept")
	alice.waitView("the move is taken back", func(v pageView) bool { return len(v.Moves) == 0 })
	bob.waitFocus("after granting the take-back", "status")

	enter(alice, "abort")
	alice.waitView("the game is aborted", func(v pageView) bool { return strings.Contains(v.Result, "Aborted") })
	alice.waitFocus("after aborting", "result")
}
