package lessons_test

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"emergo/lessons"
	"emergo/notation"
	"emergo/rules"
)

// ruleNumbers are the rules docs/rules.md states, "**4.4**" at the start
// of a paragraph.
func ruleNumbers(t *testing.T) map[string]bool {
	t.Helper()
	doc, err := os.ReadFile("../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	nums := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\*\*(\d+\.\d+)\*\*`).FindAllSubmatch(doc, -1) {
		nums[string(m[1])] = true
	}
	if len(nums) < 30 {
		t.Fatalf("docs/rules.md: found %d rule numbers, want every rule's", len(nums))
	}
	return nums
}

// anyMove returns the move a text names, legal or not, as the rules would
// be asked about it.
func anyMove(t *testing.T, g *rules.Geometry, text string) rules.Move {
	t.Helper()
	kind, squares, err := notation.ParseSquares(g, text)
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	switch kind {
	case rules.Entry:
		return rules.EntryMove(squares[0])
	case rules.Step:
		return rules.StepMove(squares[0], squares[1])
	}
	m, _ := rules.CaptureMove(squares)
	return m
}

// TestCourse checks every lesson against docs/rules.md and the rules: the
// rules it cites exist, every exercise's position can be set up and has a
// move to find, every right move is legal and written as the notation
// writes it, and every wrong move is refused by the rules for the reason
// its explanation gives, or, if the explanation says that it is legal
// but misses the point, legal and not among the right ones.
func TestCourse(t *testing.T) {
	nums := ruleNumbers(t)
	ids := map[string]bool{}
	course := lessons.All()
	if len(course) != 9 {
		t.Errorf("%d lessons, want one for each of the 9 subjects", len(course))
	}
	for _, l := range course {
		t.Run(l.ID, func(t *testing.T) {
			if ids[l.ID] || !regexp.MustCompile(`^[a-z]+$`).MatchString(l.ID) {
				t.Errorf("id %q: want a word of its own", l.ID)
			}
			ids[l.ID] = true
			if len(l.Rules) == 0 {
				t.Error("cites no rule")
			}
			for _, r := range l.Rules {
				if !nums[r] {
					t.Errorf("cites rule %s, which docs/rules.md has not", r)
				}
			}
			if n := len(l.Exercises); n < 2 || n > 4 {
				t.Errorf("%d exercises, want 2 to 4", n)
			}
			for i, ex := range l.Exercises {
				checkExercise(t, i, ex, nums)
			}
		})
	}
}

func checkExercise(t *testing.T, i int, ex lessons.Exercise, nums map[string]bool) {
	p, _, err := ex.Setup()
	if err != nil {
		t.Fatalf("exercise %d: %v", i+1, err)
	}
	g := p.Geometry()
	legal := notation.SortedMoves(g, p.Legal(nil))
	if len(legal) == 0 || rules.NewGameFrom(p).Outcome().Over() {
		t.Fatalf("exercise %d: the game is over in %q", i+1, notation.FormatPosition(&p))
	}
	if len(ex.Accept) == 0 && len(legal) < 2 {
		t.Errorf("exercise %d: every legal move is right, and there is only %v", i+1, legal)
	}
	for _, a := range ex.Accept {
		if !slices.Contains(legal, a) {
			t.Errorf("exercise %d: right move %q is not legal; legal: %v", i+1, a, legal)
		}
	}
	for _, w := range ex.Wrong {
		if !nums[w.Rule] {
			t.Errorf("exercise %d: %s cites rule %q, which docs/rules.md has not", i+1, w.Move, w.Rule)
		}
		if w.Note == "" || !regexp.MustCompile(`^[a-z0-9_]+$`).MatchString(w.Note) {
			t.Errorf("exercise %d: %s: note %q, want a name", i+1, w.Move, w.Note)
		}
		m := anyMove(t, g, w.Move)
		if m.Text(g) != w.Move {
			t.Errorf("exercise %d: wrong move %q is written %q", i+1, w.Move, m.Text(g))
		}
		why := p.Why(m)
		switch {
		case w.Reason == 0 && why != nil:
			t.Errorf("exercise %d: %s should be legal but misses the point; it is illegal: %v", i+1, w.Move, why)
		case w.Reason == 0 && (len(ex.Accept) == 0 || slices.Contains(ex.Accept, w.Move)):
			t.Errorf("exercise %d: %s is both right and wrong", i+1, w.Move)
		case w.Reason != 0 && why == nil:
			t.Errorf("exercise %d: %s should be refused (%d), but it is legal", i+1, w.Move, w.Reason)
		case w.Reason != 0 && why.Reason != w.Reason:
			t.Errorf("exercise %d: %s is refused for %v (%v), want reason %d", i+1, w.Move, why.Reason, why, w.Reason)
		}
	}
	for _, a := range ex.Accept {
		m := anyMove(t, g, a)
		if m.Text(g) != a {
			t.Errorf("exercise %d: right move %q is written %q", i+1, a, m.Text(g))
		}
	}
}

// TestKeys: the keys of the texts are distinct, and each exercise's
// explanations are named once per reason.
func TestKeys(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range lessons.All() {
		for _, k := range l.Keys() {
			if seen[k] {
				t.Errorf("key %s twice", k)
			}
			seen[k] = true
			if !regexp.MustCompile(`^learn\.[a-z]+\.([1-4]\.)?[a-z0-9_]+$`).MatchString(k) {
				t.Errorf("key %q is not of the form learn.<lesson>[.<n>].<name>", k)
			}
		}
	}
	if l, ok := lessons.ByID("feeding"); !ok || l.TitleKey() != "learn.feeding.title" || l.NoteKey(1, l.Exercises[1].Wrong[0]) != "learn.feeding.2.e5" {
		t.Errorf("ByID(feeding) = %+v, %v", l, ok)
	}
	if _, ok := lessons.ByID("nothing"); ok {
		t.Error("ByID(nothing) found a lesson")
	}
}

// exercise sets up the i-th exercise of lesson id.
func exercise(t *testing.T, id string, i int) (lessons.Exercise, rules.Position) {
	t.Helper()
	l, ok := lessons.ByID(id)
	if !ok {
		t.Fatalf("no lesson %s", id)
	}
	ex := l.Exercises[i]
	p, _, err := ex.Setup()
	if err != nil {
		t.Fatal(err)
	}
	return ex, p
}

// after plays a move text on p, legal or not: the rules' Play does what
// the move says.
func after(t *testing.T, p rules.Position, text string) rules.Position {
	t.Helper()
	return p.After(anyMove(t, p.Geometry(), text))
}

// canCapture reports whether the side to move in p can capture.
func canCapture(p rules.Position) bool { return p.CanCapture() }

// legalTexts are the legal moves of p.
func legalTexts(p rules.Position) []string { return notation.SortedMoves(p.Geometry(), p.Legal(nil)) }

// wrongs are the exercise's wrong moves for reason.
func wrongs(ex lessons.Exercise, reason rules.IllegalReason) []string {
	var out []string
	for _, w := range ex.Wrong {
		if w.Reason == reason {
			out = append(out, w.Move)
		}
	}
	return out
}

// rightMoves are the exercise's right moves: Accept, or every legal move.
func rightMoves(ex lessons.Exercise, p rules.Position) []string {
	if len(ex.Accept) > 0 {
		return ex.Accept
	}
	return legalTexts(p)
}

// rebuilt is p changed by edit: its columns, hands and side to move.
func rebuilt(t *testing.T, p rules.Position, edit func(cols map[rules.Square]rules.Column, hand *[2]int, side *rules.Color)) rules.Position {
	t.Helper()
	g := p.Geometry()
	cols := map[rules.Square]rules.Column{}
	for s := rules.Square(0); int(s) < g.Squares; s++ {
		cols[s] = p.At(s)
	}
	hand, side := [2]int{p.Hand(rules.White), p.Hand(rules.Black)}, p.Side()
	edit(cols, &hand, &side)
	q, err := rules.PositionOf(g, cols, hand, side)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// without is p with the columns on squares taken off the board.
func without(t *testing.T, p rules.Position, squares ...rules.Square) rules.Position {
	return rebuilt(t, p, func(cols map[rules.Square]rules.Column, _ *[2]int, _ *rules.Color) {
		for _, s := range squares {
			delete(cols, s)
		}
	})
}

// jumped are the squares a capture jumps, in order.
func jumped(m rules.Move) []rules.Square {
	var out []rules.Square
	for i := 1; i < m.Len(); i++ {
		out = append(out, rules.Square((int(m.At(i-1))+int(m.At(i)))/2))
	}
	return out
}

// jumpsFrom are the directions in which the column of side on s could
// jump in p: over an enemy-topped column onto an empty square.
func jumpsFrom(p rules.Position, s rules.Square, side rules.Color) []int {
	g := p.Geometry()
	var dirs []int
	for d := 0; d < 4; d++ {
		over, land := g.Neighbour(s, d), g.Beyond(s, d)
		if over == rules.NoSquare || land == rules.NoSquare {
			continue
		}
		if c := p.At(over); !c.Empty() && c.Owner != side && p.At(land).Empty() {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// freed are the squares whose column changed hands to side between p and
// q: prisoners set free.
func freed(p, q rules.Position, side rules.Color) []rules.Square {
	var out []rules.Square
	for s := rules.Square(0); int(s) < p.Geometry().Squares; s++ {
		if b, a := p.At(s), q.At(s); !b.Empty() && b.Owner != side && !a.Empty() && a.Owner == side {
			out = append(out, s)
		}
	}
	return out
}

// TestLessonPoints: each position makes its lesson's point, as the
// lesson's explanations tell it.
func TestLessonPoints(t *testing.T) {
	points := map[string]func(t *testing.T){
		"entering": func(t *testing.T) {
			// The first move: every square but the centre.
			_, p := exercise(t, "entering", 0)
			g := p.Geometry()
			if !p.FirstMove() || len(legalTexts(p)) != g.Squares-1 {
				t.Errorf("exercise 1: want the first move, with %d entries; got %v", g.Squares-1, legalTexts(p))
			}
			// Men in hand: no step, although columns could step, and
			// every empty square an entry (no feeding yet to refuse one).
			ex, p := exercise(t, "entering", 1)
			if p.Entries() != p.Empty() || len(legalTexts(p)) != g.Squares-4 {
				t.Errorf("exercise 2: want every empty square an entry and nothing else; got %v", legalTexts(p))
			}
			// Only the men in hand forbid the steps: with an empty hand
			// they would be legal.
			emptied := rebuilt(t, p, func(_ map[rules.Square]rules.Column, hand *[2]int, _ *rules.Color) { *hand = [2]int{} })
			for _, s := range wrongs(ex, rules.MustEnter) {
				if why := emptied.Why(anyMove(t, g, s)); why != nil {
					t.Errorf("exercise 2: %s is no step of the board: %v", s, why)
				}
			}
		},
		"feeding": func(t *testing.T) {
			for i := range 2 {
				ex, p := exercise(t, "feeding", i)
				// The opponent could capture nothing before (4.4 applies),
				// and could jump the fed man at once after.
				turned := rebuilt(t, p, func(_ map[rules.Square]rules.Column, _ *[2]int, side *rules.Color) { *side = side.Other() })
				if turned.CanCapture() {
					t.Errorf("exercise %d: the opponent can capture already", i+1)
				}
				for _, s := range wrongs(ex, rules.Feeding) {
					if q := after(t, p, s); !q.CanCapture() {
						t.Errorf("exercise %d: after %s the opponent has no capture", i+1, s)
					}
				}
				for _, s := range rightMoves(ex, p) {
					if q := after(t, p, s); q.CanCapture() {
						t.Errorf("exercise %d: after the right move %s the opponent has a capture", i+1, s)
					}
				}
			}
			// The attack: the right entries are exactly the legal ones
			// from which the man could jump f6 next turn.
			ex, p := exercise(t, "feeding", 1)
			g := p.Geometry()
			target, _ := g.ParseSquare("f6")
			var attacks []string
			for _, s := range legalTexts(p) {
				q := after(t, p, s)
				if slices.ContainsFunc(jumpsFrom(q, anyMove(t, g, s).From(), p.Side()), func(d int) bool {
					return g.Neighbour(anyMove(t, g, s).From(), d) == target
				}) {
					attacks = append(attacks, s)
				}
			}
			if !slices.Equal(attacks, ex.Accept) {
				t.Errorf("exercise 2: the safe entries attacking f6 are %v, the exercise accepts %v", attacks, ex.Accept)
			}
		},
		"steps": func(t *testing.T) {
			// The right steps save the threatened man; the legal wrong
			// one leaves it to be captured.
			ex, p := exercise(t, "steps", 0)
			if p.Hand(p.Side()) != 0 || !canCapture(after(t, p, "a7-b6")) {
				t.Errorf("exercise 1: want an empty hand and a man in danger")
			}
			for _, s := range ex.Accept {
				if canCapture(after(t, p, s)) {
					t.Errorf("exercise 1: after %s Black can still capture", s)
				}
			}
			for _, s := range wrongs(ex, 0) {
				if !canCapture(after(t, p, s)) {
					t.Errorf("exercise 1: after %s Black has no capture", s)
				}
			}
			// One side moves while the other still enters.
			_, p = exercise(t, "steps", 1)
			if p.Hand(p.Side()) != 0 || p.Hand(p.Side().Other()) == 0 {
				t.Errorf("exercise 2: want the mover's hand empty and the opponent's not")
			}
			for _, m := range p.Legal(nil) {
				if m.Kind() != rules.Step {
					t.Errorf("exercise 2: %s is not a step", m.Text(p.Geometry()))
				}
			}
		},
		"captures": func(t *testing.T) {
			// Compulsory while men are in hand.
			_, p := exercise(t, "captures", 0)
			if p.Hand(p.Side()) == 0 || p.Entries() == 0 {
				t.Errorf("exercise 1: want men in hand and empty squares to enter on")
			}
			for _, m := range p.Legal(nil) {
				if m.Kind() != rules.Capture {
					t.Errorf("exercise 1: %s is not a capture", m.Text(p.Geometry()))
				}
			}
			// The wrong ones stop on the way of the right one.
			ex, p := exercise(t, "captures", 1)
			right := ex.Accept[0]
			for _, s := range wrongs(ex, rules.Majority) {
				if len(s) >= len(right) || right[:len(s)] != s {
					t.Errorf("exercise 2: %s is not a beginning of %s", s, right)
				}
			}
			if m := anyMove(t, p.Geometry(), right); m.Jumps() < 3 {
				t.Errorf("exercise 2: %s is no multi-jump", right)
			}
		},
		"majority": func(t *testing.T) {
			// The wrong capture is complete: without the men only the
			// right one takes, the rules would allow it. So the majority
			// rule alone refuses it.
			for i := range 2 {
				ex, p := exercise(t, "majority", i)
				g := p.Geometry()
				right := anyMove(t, g, ex.Accept[0])
				for _, s := range wrongs(ex, rules.Majority) {
					w := anyMove(t, g, s)
					var only []rules.Square
					for _, sq := range jumped(right) {
						if !slices.Contains(jumped(w), sq) {
							only = append(only, sq)
						}
					}
					if q := without(t, p, only...); q.Why(w) != nil {
						t.Errorf("exercise %d: %s is not a complete capture: %v", i+1, s, q.Why(w))
					}
					if w.Jumps() >= right.Jumps() {
						t.Errorf("exercise %d: %s takes as many as %s", i+1, s, ex.Accept[0])
					}
				}
			}
		},
		"turn": func(t *testing.T) {
			// Every refused route ends where the only jump left would
			// turn straight back, over a column that is still the
			// opponent's.
			for i := range 2 {
				ex, p := exercise(t, "turn", i)
				g := p.Geometry()
				for _, w := range ex.Wrong {
					m := anyMove(t, g, w.Move)
					stop := m
					if w.Reason == rules.NoSuchCapture { // the last jump is the one turning back
						stop, _ = rules.CaptureMove(pathOf(m)[:m.Len()-1])
					}
					q := after(t, p, stop.Text(g))
					back := 3 - direction(g, stop.At(stop.Len()-2), stop.To())
					if dirs := jumpsFrom(q, stop.To(), p.Side()); !slices.Equal(dirs, []int{back}) {
						t.Errorf("exercise %d: after %s the jumps left are %v, want only straight back (%d)", i+1, stop.Text(g), dirs, back)
					}
				}
			}
			// D1: the right route jumps c3 twice.
			ex, p := exercise(t, "turn", 1)
			js := jumped(anyMove(t, p.Geometry(), ex.Accept[0]))
			c3, _ := p.Geometry().ParseSquare("c3")
			if n := len(slices.DeleteFunc(slices.Clone(js), func(s rules.Square) bool { return s != c3 })); n != 2 {
				t.Errorf("exercise 2: c3 is jumped %d times, want 2", n)
			}
		},
		"freeing": func(t *testing.T) {
			// The right capture frees prisoners, the wrong one does not.
			for i := range 2 {
				ex, p := exercise(t, "freeing", i)
				for _, s := range ex.Accept {
					if len(freed(p, after(t, p, s), p.Side())) == 0 {
						t.Errorf("exercise %d: %s frees nobody", i+1, s)
					}
				}
				for _, s := range wrongs(ex, 0) {
					if f := freed(p, after(t, p, s), p.Side()); len(f) > 0 {
						t.Errorf("exercise %d: %s frees prisoners too", i+1, s)
					}
				}
			}
		},
		"shadow": func(t *testing.T) {
			// All the men in hand enter as one column, where they cannot
			// be jumped.
			ex, p := exercise(t, "shadow", 0)
			me := p.Side()
			n := p.Hand(me)
			if n < 2 || p.Hand(me.Other()) != 0 || p.EntrySize() != n {
				t.Fatalf("exercise 1: want a shadow piece of 2 or more, got hands %d and %d", n, p.Hand(me.Other()))
			}
			for _, s := range legalTexts(p) {
				q := after(t, p, s)
				if c := q.At(anyMove(t, p.Geometry(), s).From()); c.Owner != me || c.Top != n || q.Hand(me) != 0 {
					t.Errorf("exercise 1: after %s the column is %+v", s, c)
				}
			}
			for _, s := range wrongs(ex, rules.Feeding) {
				if !canCapture(after(t, p, s)) {
					t.Errorf("exercise 1: after %s the opponent has no capture", s)
				}
			}
			// The capture comes first: the shadow piece waits.
			_, p = exercise(t, "shadow", 1)
			if p.EntrySize() < 2 || p.Hand(p.Side().Other()) != 0 {
				t.Errorf("exercise 2: want a shadow piece waiting")
			}
			for _, m := range p.Legal(nil) {
				if m.Kind() != rules.Capture {
					t.Errorf("exercise 2: %s is not a capture", m.Text(p.Geometry()))
				}
			}
		},
		"ending": func(t *testing.T) {
			// The right move leaves the opponent no men in hand and no
			// column: the mover has won, in the second exercise while
			// holding men himself.
			for i := range 2 {
				ex, p := exercise(t, "ending", i)
				g := rules.NewGameFrom(p)
				m := anyMove(t, p.Geometry(), ex.Accept[0])
				if err := g.Play(m); err != nil {
					t.Fatal(err)
				}
				win := rules.WhiteWins
				if p.Side() == rules.Black {
					win = rules.BlackWins
				}
				if o := g.Outcome(); o.Result != win || o.Reason != rules.NoMen {
					t.Errorf("exercise %d: after %s the outcome is %v, want a win for the mover", i+1, ex.Accept[0], o)
				}
			}
			if _, p := exercise(t, "ending", 1); p.Hand(p.Side()) == 0 {
				t.Error("exercise 2: the winner holds no men in hand")
			}
			// Blocking the opponent draws (6.2); the right moves leave him
			// a move and no capture.
			ex, p := exercise(t, "ending", 2)
			for _, s := range legalTexts(p) {
				g := rules.NewGameFrom(p)
				if err := g.Play(anyMove(t, p.Geometry(), s)); err != nil {
					t.Fatal(err)
				}
				blocks := g.Outcome() == rules.Outcome{Result: rules.Draw, Reason: rules.NoMove}
				good := !g.Outcome().Over() && !canCapture(g.Position())
				switch {
				case slices.Contains(ex.Accept, s) != good:
					t.Errorf("exercise 3: %s leaves Black a move and no capture: %v; accepted: %v", s, good, !good)
				case s == "c1-b2" && !blocks:
					t.Errorf("exercise 3: c1-b2 does not block Black: %v", g.Outcome())
				}
			}
		},
	}
	for _, l := range lessons.All() {
		point, ok := points[l.ID]
		if !ok {
			t.Errorf("lesson %s: no test of its point", l.ID)
			continue
		}
		t.Run(l.ID, point)
	}
}

// pathOf is the squares of a move.
func pathOf(m rules.Move) []rules.Square {
	out := make([]rules.Square, m.Len())
	for i := range out {
		out[i] = m.At(i)
	}
	return out
}

// direction is the direction of the jump from a to b.
func direction(g *rules.Geometry, a, b rules.Square) int {
	for d := 0; d < 4; d++ {
		if g.Beyond(a, d) == b {
			return d
		}
	}
	panic("not a jump")
}
