// Package lessons is the course for newcomers that the site's /learn page
// teaches: one lesson per rule of docs/rules.md, each a few positions in
// which the learner must find the right move, with an explanation for the
// tempting wrong ones. A lesson is data: its texts are keys of the site's
// catalogues (server/web/i18n, "learn.<lesson>..."), its positions are
// position texts and its moves move texts (docs/notation.md). The tests
// check every one against the rules: that the right moves are legal, that
// the rules refuse each wrong one for the reason its explanation gives,
// and that each position makes its lesson's point. It does no I/O.
package lessons

import (
	"fmt"
	"slices"
	"strconv"

	"emergo/notation"
	"emergo/rules"
)

// A Lesson teaches one rule, or a few that go together.
type Lesson struct {
	// ID names the lesson in its keys and in the page's address and
	// progress: "feeding".
	ID string
	// Rules are the rules it teaches, as docs/rules.md numbers them
	// ("4.4"), the first one the main one.
	Rules     []string
	Exercises []Exercise
}

// An Exercise is a position in which the learner must find a right move.
type Exercise struct {
	// Start is the position text the exercise starts from, and Moves the
	// moves played from there to the position the learner sees; the last
	// of them is shown as the last move.
	Start string
	Moves []string
	// Accept are the right moves, in the canonical text; none means that
	// every legal move is right.
	Accept []string
	// Wrong are the tempting wrong moves, each with its explanation.
	Wrong []Wrong
}

// A Wrong is a wrong move that the exercise explains in its own words,
// rather than with the rules' general message.
type Wrong struct {
	Move string
	// Reason is why the rules refuse the move, as Position.Why says it; 0
	// for a legal move that misses the exercise's point.
	Reason rules.IllegalReason
	// Rule is the rule the explanation cites, as docs/rules.md numbers it.
	Rule string
	// Note names the explanation: its key is learn.<lesson>.<n>.<note>.
	// Wrong moves for one reason may share it.
	Note string
}

// TitleKey is the key of the lesson's title.
func (l *Lesson) TitleKey() string { return "learn." + l.ID + ".title" }

// TextKey is the key of the lesson's explanation.
func (l *Lesson) TextKey() string { return "learn." + l.ID + ".text" }

// AskKey is the key of the instruction of the i-th exercise (from 0).
func (l *Lesson) AskKey(i int) string { return l.exerciseKey(i, "ask") }

// DoneKey is the key of what the i-th exercise's right move did.
func (l *Lesson) DoneKey(i int) string { return l.exerciseKey(i, "done") }

// NoteKey is the key of the explanation of a wrong move of the i-th
// exercise.
func (l *Lesson) NoteKey(i int, w Wrong) string { return l.exerciseKey(i, w.Note) }

// exerciseKey numbers the exercises from 1, as the page does.
func (l *Lesson) exerciseKey(i int, name string) string {
	return "learn." + l.ID + "." + strconv.Itoa(i+1) + "." + name
}

// Keys are every key of the lesson's texts, each once.
func (l *Lesson) Keys() []string {
	keys := []string{l.TitleKey(), l.TextKey()}
	for i, ex := range l.Exercises {
		keys = append(keys, l.AskKey(i), l.DoneKey(i))
		seen := map[string]bool{}
		for _, w := range ex.Wrong {
			if !seen[w.Note] {
				seen[w.Note] = true
				keys = append(keys, l.NoteKey(i, w))
			}
		}
	}
	return keys
}

// Setup returns the position the learner sees, and the move that led to
// it (the zero Move if none did).
func (ex *Exercise) Setup() (rules.Position, rules.Move, error) {
	p, err := notation.ParsePosition(ex.Start)
	if err != nil {
		return rules.Position{}, rules.Move{}, err
	}
	g := rules.NewGameFrom(p)
	if err := notation.PlayMoves(g, ex.Moves); err != nil {
		return rules.Position{}, rules.Move{}, fmt.Errorf("lessons: %q: %w", ex.Start, err)
	}
	var last rules.Move
	if n := g.Len(); n > 0 {
		last = g.Moves()[n-1]
	}
	return g.Position(), last, nil
}

// All returns the course, lessons in the order they are taught. The
// lessons are shared: the caller must not change them.
func All() []Lesson { return slices.Clone(course) }

// ByID returns the lesson with the id, or false.
func ByID(id string) (Lesson, bool) {
	for _, l := range course {
		if l.ID == id {
			return l, true
		}
	}
	return Lesson{}, false
}
