package server_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"emergo/notation"
	"emergo/puzzle"
	"emergo/rules"
)

// puzzlesView is what the /puzzles page shows.
type puzzlesView struct {
	ID        string   `json:"id"`
	State     string   `json:"state"` // playing, solved, failed
	Size      string   `json:"size"`  // the board chosen
	Ask       string   `json:"ask"`
	Kind      string   `json:"kind"` // the feedback's: right, solved, wrong, illegal
	Feedback  string   `json:"feedback"`
	RuleLink  string   `json:"ruleLink"`
	Board     bool     `json:"board"` // the board takes moves
	Last      []string `json:"last"`  // the squares of the last move drawn
	Chosen    []string `json:"chosen"`
	Solution  []string `json:"solution"`
	You       string   `json:"you"`
	Facts     string   `json:"facts"`
	Animating bool     `json:"animating"`
	Overflow  []string `json:"overflow"`
}

const puzzlesJS = `(() => {
  const q = (s) => document.querySelector(s);
  const box = q('[data-testid="puzzle"]');
  const fb = q('[data-testid="feedback"]');
  const link = q('[data-testid="feedback-rule"]');
  const shown = (s) => Boolean(q(s) && !q(s).hidden && !q(s).closest('[hidden]'));
  return {
    id: box && !box.hidden ? box.dataset.id : '',
    state: (box && box.dataset.state) || '',
    size: q('[data-testid="puzzle-size"]').value,
    ask: q('[data-testid="puzzle-ask"]').innerText.trim(),
    kind: (fb && fb.dataset.kind) || '',
    feedback: fb ? fb.innerText.trim() : '',
    ruleLink: link ? link.getAttribute('href') : '',
    board: Boolean(q('#board.interactive')),
    last: [...document.querySelectorAll('g[data-square].last')].map((g) => g.dataset.square).sort(),
    chosen: [...document.querySelectorAll('g[data-square].chosen')].map((g) => g.dataset.square).sort(),
    solution: shown('[data-testid="puzzle-solution"]') ? [...document.querySelectorAll('[data-testid="solution-move"]')].map((b) => b.innerText.trim()) : [],
    you: q('[data-testid="puzzle-you"]').innerText.trim(),
    facts: q('[data-testid="puzzle-facts"]').innerText.trim(),
    animating: Boolean(q('.anim-layer') && q('.anim-layer').childElementCount > 0),
    overflow: [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest('[hidden]')).map((e) => e.tagName + (e.id ? '#' + e.id : '')).slice(0, 5),
  };
})()`

func (b *browser) waitPuzzles(what string, ok func(puzzlesView) bool) puzzlesView {
	b.t.Helper()
	return poll(b, what, func() (puzzlesView, error) { return tryJS[puzzlesView](b, puzzlesJS) }, ok)
}

// playOnPuzzle clicks the squares of move (every square of its path, as
// the board that takes any move wants them), each once the board has
// taken the one before.
func (b *browser) playOnPuzzle(move string) {
	b.t.Helper()
	b.waitPuzzles("the board takes a move", func(v puzzlesView) bool { return v.Board && !v.Animating })
	clicks := squaresOf(move)
	for i, sq := range clicks {
		b.clickSquare(sq)
		if i < len(clicks)-1 {
			b.waitPuzzles(fmt.Sprintf("%v chosen", clicks[:i+1]), func(v puzzlesView) bool { return slices.Contains(v.Chosen, sq) })
		}
	}
}

// puzzlesForBrowser picks from the shipped sets a 7x7 puzzle of two moves
// of the solver, and a puzzle with a wrong move and a refused entry of
// one square each (a quiet legal move that is not the solution, and an
// empty square the rules do not let the solver enter on), so that both
// take one click: from the 9x9 set if it has one, else from the 7x7 set
// (the sets are made by the engine, and which puzzles they hold changes
// with it).
func puzzlesForBrowser(t *testing.T) (two *puzzle.Puzzle, one *puzzle.Puzzle, wrong, refused string) {
	t.Helper()
	for i := range puzzle.Set(7).Puzzles {
		if p := &puzzle.Set(7).Puzzles[i]; p.SolverMoves() == 2 {
			two = p
			break
		}
	}
	for _, size := range []int{9, 7} {
		for i := range puzzle.Set(size).Puzzles {
			p := &puzzle.Set(size).Puzzles[i]
			if w, r := entryChoices(p); w != "" && r != "" && p != two {
				one, wrong, refused = p, w, r
				break
			}
		}
		if one != nil {
			break
		}
	}
	if two == nil || one == nil {
		t.Fatal("the sets have no puzzles for the browser test")
	}
	return two, one, wrong, refused
}

// entryChoices returns, for p's start, an entry that is legal and not the
// solution (wrong) and an empty square the rules refuse an entry on
// (refused), each "" when there is none.
func entryChoices(p *puzzle.Puzzle) (wrong, refused string) {
	g := p.Start.Geometry()
	for _, m := range p.Start.Legal(nil) {
		if m.Kind() == rules.Entry && !p.Line[0].Accepts(m) {
			wrong = m.Text(g)
			break
		}
	}
	for s := rules.Square(0); int(s) < g.Squares; s++ {
		if !p.Start.At(s).Empty() {
			continue
		}
		if _, err := notation.ParseMove(&p.Start, g.Name(s)); err != nil {
			refused = g.Name(s)
			break
		}
	}
	return wrong, refused
}

// TestBrowserPuzzles: a solver on a wide window and on a phone solves a
// puzzle of two moves by clicking, the opponent's reply played between
// them, and sees his rating rise; then, in a puzzle with entries (of the
// 9x9 set if it has one), tries an entry the rules refuse (told the rule,
// which costs nothing), plays a wrong move and is told the winning one and
// the engine's refutation, his rating falling, and steps through the
// solution. The screenshots are for the eye.
func TestBrowserPuzzles(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	two, one, wrong, refused := puzzlesForBrowser(t)
	g7 := two.Start.Geometry()
	for _, size := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 960}, {"phone", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			b := newBrowser(t, exe, "solver")
			b.do("the window", chromedp.EmulateViewport(size.w, size.h))
			b.do("open the puzzle", chromedp.Navigate(ts.URL+"/puzzles#"+two.ID))
			v := b.waitPuzzles("the puzzle shown", func(v puzzlesView) bool { return v.ID == two.ID && v.Board })
			colour := map[rules.Color]string{rules.White: "White", rules.Black: "Black"}[two.Solver()]
			if !strings.HasPrefix(v.Ask, colour+" to play") || v.Size != "7" || !strings.Contains(v.You, "1500?") || len(v.Overflow) > 0 {
				t.Errorf("a new solver's puzzle: %+v", v)
			}
			b.screenshot("puzzle-start-" + size.name)

			first, reply, second := two.Line[0].Move.Text(g7), two.Line[1].Move.Text(g7), two.Line[2].Move.Text(g7)
			b.playOnPuzzle(first)
			v = b.waitPuzzles("the reply played", func(v puzzlesView) bool {
				return v.Board && strings.HasPrefix(v.Ask, "Keep going") && slices.Equal(v.Last, lastSquares(reply))
			})
			if v.Kind != "right" || !strings.Contains(v.Feedback, first+": right!") || !strings.Contains(v.Feedback, "answers "+reply) {
				t.Errorf("after %s: %+v", first, v)
			}
			b.playOnPuzzle(second)
			v = b.waitPuzzles("solved", func(v puzzlesView) bool { return v.Kind == "solved" && strings.Contains(v.Feedback, "rating") })
			if v.State != "solved" || v.Ask != "Solved!" || !strings.Contains(v.Feedback, "(+") || v.Board || len(v.Solution) != 3 || !strings.Contains(v.Facts, "Themes:") && !strings.Contains(v.Facts, "No theme") {
				t.Errorf("solved: %+v", v)
			}
			b.screenshot("puzzle-solved-" + size.name)

			// A refused entry, by the keyboard, then a wrong move.
			b.do("open the puzzle with entries", chromedp.Navigate(ts.URL+"/puzzles#"+one.ID))
			b.waitPuzzles("the puzzle shown", func(v puzzlesView) bool { return v.ID == one.ID && v.Board })
			b.do("enter on "+refused+" by the keyboard", chromedp.Focus(chromedp.CSS(`g[data-square="`+refused+`"]`)), chromedp.KeyEvent("\r"))
			v = b.waitPuzzles("the refusal", func(v puzzlesView) bool { return v.Kind == "illegal" })
			if !strings.HasPrefix(v.Feedback, refused+": not allowed.") || !strings.HasPrefix(v.RuleLink, "/rules#") || v.State != "playing" || !v.Board {
				t.Errorf("the refused entry %s: %+v", refused, v)
			}
			b.playOnPuzzle(wrong)
			v = b.waitPuzzles("the wrong move explained", func(v puzzlesView) bool { return v.Kind == "wrong" && strings.Contains(v.Feedback, "rating") })
			best := one.Line[0].Move.Text(one.Start.Geometry())
			if v.State != "failed" || !strings.Contains(v.Feedback, wrong+" is not the move.") || !strings.Contains(v.Feedback, "The winning move was "+best+".") ||
				!strings.Contains(v.Feedback, "the engine plays on") || !strings.Contains(v.Feedback, "(-") || v.Solution[0] != best || len(v.Overflow) > 0 {
				t.Errorf("the wrong move %s: %+v", wrong, v)
			}
			b.screenshot("puzzle-failed-" + size.name)
			b.do("show the solution's first move", chromedp.Click(chromedp.CSS(`[data-testid="solution-move"][data-ply="1"]`)))
			b.waitPuzzles("the solution's position", func(v puzzlesView) bool { return slices.Equal(v.Last, lastSquares(best)) })

			b.do("the next puzzle", chromedp.Click(chromedp.CSS(`[data-testid="puzzle-next"]`)))
			v = b.waitPuzzles("another puzzle", func(v puzzlesView) bool { return v.ID != one.ID && v.ID != "" && v.State == "playing" && v.Board })
			if !strings.HasPrefix(v.ID, fmt.Sprintf("%d-", one.Size())) || v.Kind != "" {
				t.Errorf("the next puzzle: %+v", v)
			}
		})
	}
}
