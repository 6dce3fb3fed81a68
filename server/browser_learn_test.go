package server_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// learnView is what the /learn page shows.
type learnView struct {
	Lessons   []string `json:"lessons"` // the lessons listed
	Done      []string `json:"done"`    // those marked done
	Progress  string   `json:"progress"`
	Title     string   `json:"title"`    // the lesson open, "" for the list
	Exercise  string   `json:"exercise"` // "Exercise 1 of 2"
	Kind      string   `json:"kind"`     // the feedback's verdict: right, illegal, legal
	Rule      string   `json:"rule"`     // the rule it cites
	Feedback  string   `json:"feedback"`
	RuleLink  string   `json:"ruleLink"` // the feedback's link to the rule
	Chosen    []string `json:"chosen"`
	Board     bool     `json:"board"` // the board takes moves
	Next      bool     `json:"next"`  // "Next exercise" is shown
	NextLink  bool     `json:"nextLesson"`
	Animating bool     `json:"animating"`
	Overflow  []string `json:"overflow"`
}

const learnJS = `(() => {
  const q = (s) => document.querySelector(s);
  const shown = (s) => Boolean(q(s) && !q(s).hidden && !q(s).closest('[hidden]'));
  const fb = q('[data-testid="feedback"]');
  const link = q('[data-testid="feedback-rule"]');
  return {
    lessons: shown('#learn-list') ? [...document.querySelectorAll('[data-testid="lesson-link"]')].map((a) => a.dataset.lesson) : [],
    done: [...document.querySelectorAll('[data-testid="lesson-link"][data-done="true"]')].map((a) => a.dataset.lesson),
    progress: shown('#learn-list') ? q('[data-testid="learn-progress"]').innerText.trim() : '',
    title: shown('#learn-lesson') ? q('[data-testid="lesson-title"]').innerText.trim() : '',
    exercise: shown('#learn-lesson') ? q('[data-testid="exercise-number"]').innerText.trim() : '',
    kind: (fb && fb.dataset.kind) || '',
    rule: (fb && fb.dataset.rule) || '',
    feedback: fb ? fb.innerText.trim() : '',
    ruleLink: link ? link.getAttribute('href') : '',
    chosen: [...document.querySelectorAll('g[data-square].chosen')].map((g) => g.dataset.square).sort(),
    board: Boolean(q('#board.interactive')),
    next: shown('[data-testid="learn-next"]'),
    nextLesson: shown('[data-testid="learn-next-lesson"]'),
    animating: Boolean(q('.anim-layer') && q('.anim-layer').childElementCount > 0),
    overflow: [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest('[hidden]')).map((e) => e.tagName + (e.id ? '#' + e.id : '')).slice(0, 5),
  };
})()`

func (b *browser) learnView() (learnView, error) { return tryJS[learnView](b, learnJS) }

func (b *browser) waitLearn(what string, ok func(learnView) bool) learnView {
	b.t.Helper()
	return poll(b, what, b.learnView, ok)
}

// tryMove clicks the squares of move on the lesson board, each once the
// board has taken the one before, and waits for the verdict on it, of
// kind.
func (b *browser) tryMove(clicks []string, move, kind string) learnView {
	b.t.Helper()
	b.waitLearn("the board takes a move", func(v learnView) bool { return v.Board })
	for i, sq := range clicks {
		b.clickSquare(sq)
		if i < len(clicks)-1 {
			b.waitLearn(fmt.Sprintf("%v chosen", clicks[:i+1]), func(v learnView) bool { return slices.Contains(v.Chosen, sq) })
		}
	}
	return b.waitLearn("the verdict on "+move, func(v learnView) bool {
		return v.Kind == kind && strings.HasPrefix(v.Feedback, move+":")
	})
}

// TestBrowserLearn: a newcomer on a wide window and on a phone opens the
// lessons, opens the no-feeding lesson and solves it by clicking: a move
// the rules refuse first, told which rule forbids it with a link to it,
// then a legal move that misses the point, then the right ones; the
// lesson is marked done, and still is after the page is loaded again.
// Then a capture of the no-turning-back lesson, jump by jump: the route
// that stops after four men is told why; an entry by the keyboard, the
// centre refused first; and the progress reset. The screenshots are for
// the eye.
func TestBrowserLearn(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	for _, size := range []struct {
		name string
		w, h int64
	}{{"desktop", 1280, 960}, {"phone", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			b := newBrowser(t, exe, "learner")
			b.do("the window", chromedp.EmulateViewport(size.w, size.h))
			b.do("open the lessons", chromedp.Navigate(ts.URL+"/learn"))
			v := b.waitLearn("the lessons listed", func(v learnView) bool { return len(v.Lessons) == 9 })
			if len(v.Done) != 0 || !strings.HasPrefix(v.Progress, "0 of 9") {
				t.Errorf("a newcomer's list: %+v", v)
			}
			b.screenshot("learn-list-" + size.name)
			b.do("open the no-feeding lesson", chromedp.Click(chromedp.CSS(`[data-lesson="feeding"]`)))
			b.waitLearn("the lesson open", func(v learnView) bool {
				return v.Title == "No feeding" && v.Exercise == "Exercise 1 of 2" && v.Board
			})

			v = b.tryMove([]string{"b2"}, "b2", "illegal")
			if v.Rule != "4.4" || !strings.Contains(v.Feedback, "no-feeding rule") || v.RuleLink != "/rules#entering" {
				t.Errorf("b2 after 1.c3: %+v, want refused by the no-feeding rule, 4.4", v)
			}
			b.screenshot("learn-refused-" + size.name)
			v = b.tryMove([]string{"a1"}, "a1", "right")
			if !v.Next || v.Board {
				t.Errorf("a1 after 1.c3: %+v, want right and the next exercise offered", v)
			}
			b.do("the next exercise", chromedp.Click(chromedp.CSS(`[data-testid="learn-next"]`)))
			b.waitLearn("exercise 2", func(v learnView) bool { return v.Exercise == "Exercise 2 of 2" && v.Kind == "" && v.Board })
			v = b.tryMove([]string{"e5"}, "e5", "illegal")
			if v.Rule != "4.4" || !strings.Contains(v.Feedback, "f6 could jump it") {
				t.Errorf("e5: %+v", v)
			}
			v = b.tryMove([]string{"d6"}, "d6", "legal")
			if !strings.Contains(v.Feedback, "does not attack f6") {
				t.Errorf("d6: %+v", v)
			}
			v = b.tryMove([]string{"g7"}, "g7", "right")
			if !v.NextLink || len(v.Overflow) > 0 {
				t.Errorf("g7: %+v, want the next lesson offered, nothing sticking out", v)
			}
			b.screenshot("learn-right-" + size.name)

			b.do("load the lessons again", chromedp.Navigate(ts.URL+"/learn"))
			v = b.waitLearn("the lessons listed again", func(v learnView) bool { return len(v.Lessons) == 9 })
			if len(v.Done) != 1 || v.Done[0] != "feeding" || !strings.HasPrefix(v.Progress, "1 of 9") {
				t.Errorf("after the lesson: %+v, want the no-feeding lesson done", v)
			}

			b.do("open the no-turning-back lesson", chromedp.Navigate(ts.URL+"/learn#turn"))
			b.waitLearn("the lesson open", func(v learnView) bool { return v.Title == "No 180-degree turn" && v.Board })
			b.tryMove([]string{"c3", "e5"}, "c3xe5", "right")
			b.do("the next exercise", chromedp.Click(chromedp.CSS(`[data-testid="learn-next"]`)))
			b.waitLearn("exercise 2", func(v learnView) bool { return v.Exercise == "Exercise 2 of 2" && v.Board })
			// The route that stops after four men: the board waits while a
			// jump is left, and tries the capture where none is.
			v = b.tryMove([]string{"d2", "f4", "d6", "b4", "d2"}, "d2xf4xd6xb4xd2", "illegal")
			if v.Rule != "3.3" || !strings.Contains(v.Feedback, "straight back") || len(v.Overflow) > 0 {
				t.Errorf("d2xf4xd6xb4xd2: %+v, want refused, turning back cited", v)
			}
			b.screenshot("learn-capture-refused-" + size.name)
			b.tryMove([]string{"d2", "b4", "d6", "f4", "d2", "b4"}, "d2xb4xd6xf4xd2xb4", "right")
			b.screenshot("learn-capture-right-" + size.name)

			// The keyboard: a square focused and Enter pressed.
			b.do("open the entering lesson", chromedp.Navigate(ts.URL+"/learn#entering"))
			b.waitLearn("the lesson open", func(v learnView) bool { return v.Title == "Entering" && v.Board })
			b.do("enter on d4 by the keyboard", chromedp.Focus(chromedp.CSS(`g[data-square="d4"]`)), chromedp.KeyEvent("\r"))
			if v := b.waitLearn("the verdict on d4", func(v learnView) bool { return strings.HasPrefix(v.Feedback, "d4:") }); v.Kind != "illegal" || v.Rule != "4.3" {
				t.Errorf("d4 first: %+v, want refused by 4.3", v)
			}
			b.do("enter on c3 by the keyboard", chromedp.Focus(chromedp.CSS(`g[data-square="c3"]`)), chromedp.KeyEvent("\r"))
			b.waitLearn("c3 right", func(v learnView) bool { return v.Kind == "right" && strings.HasPrefix(v.Feedback, "c3:") })

			// The progress forgotten.
			b.do("open the lessons", chromedp.Navigate(ts.URL+"/learn"))
			v = b.waitLearn("the lessons listed", func(v learnView) bool { return len(v.Lessons) == 9 && len(v.Done) == 2 })
			b.do("reset the progress", chromedp.Click(chromedp.CSS(`[data-testid="learn-reset"]`)),
				chromedp.Click(chromedp.CSS(`[data-testid="learn-reset-yes"]`)))
			b.waitLearn("nothing done", func(v learnView) bool { return len(v.Done) == 0 && strings.HasPrefix(v.Progress, "0 of 9") })
			b.do("load the lessons again", chromedp.Navigate(ts.URL+"/learn"))
			if v := b.waitLearn("the lessons listed", func(v learnView) bool { return len(v.Lessons) == 9 }); len(v.Done) != 0 {
				t.Errorf("after the reset: %+v, want nothing done", v)
			}
		})
	}
}

// TestBrowserLearnPlayLink: once every lesson is done, the list's link
// to play the engine on the 7x7 board opens the home page with 7x7 set.
func TestBrowserLearnPlayLink(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	b := newBrowser(t, exe, "learner")
	b.do("open the lessons", chromedp.Navigate(ts.URL+"/learn"))
	b.waitLearn("the lessons listed", func(v learnView) bool { return len(v.Lessons) == 9 })
	// Every exercise of every lesson done, as the lessons list them.
	evalJS[bool](b, `fetch('/api/lessons').then((r) => r.json()).then((ls) => {
  const done = {};
  for (const l of ls.lessons) done[l.id] = l.exercises.map((_, i) => i);
  localStorage.setItem('emergo.learn', JSON.stringify(done));
  return true;
})`)
	b.do("load the lessons again", chromedp.Navigate(ts.URL+"/learn"))
	b.waitLearn("every lesson done", func(v learnView) bool { return len(v.Done) == 9 })
	b.click("play the engine on 7x7", "learn-play")
	size := poll(b, "the home page's form", func() (string, error) {
		// The home page's script shows the page and sets its form at once.
		return tryJS[string](b, `location.pathname === '/' && document.querySelector('#home') && !document.querySelector('#home').hidden ? document.querySelector('[data-testid="size"]').value : ''`)
	}, func(s string) bool { return s != "" })
	if size != "7" {
		t.Errorf("the home page opened from the last lesson has the board %q, want 7", size)
	}
}
