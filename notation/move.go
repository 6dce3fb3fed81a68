// Package notation reads and writes Emergo text: moves (RULES 7), the
// one-line position text of docs/notation.md, and game records. The rules
// package knows nothing of text beyond square names; every parser of user
// input lives here and answers bad input with an error, never a panic.
package notation

import (
	"fmt"
	"slices"
	"strings"

	"emergo/rules"
)

// MoveError is the error of ParseMove: the text as given and why it is
// not a move. Err is a *SyntaxError when the text is not written as a
// move, and a *rules.IllegalMoveError when it names a move the rules do
// not allow there. Callers that know the move number add it in front, as
// in `move 14 "c3xe6": e6 is not a playable square`.
type MoveError struct {
	Text string
	Err  error
}

func (e *MoveError) Error() string { return fmt.Sprintf("%q: %v", e.Text, e.Err) }

// Unwrap returns the cause of e.
func (e *MoveError) Unwrap() error { return e.Err }

// SyntaxProblem says what is wrong with the form of a move text.
type SyntaxProblem uint8

const (
	EmptyMove   SyntaxProblem = iota + 1 // nothing but white space
	StepForm                             // a step that is not two squares joined by -
	CaptureForm                          // an x that does not stand between two squares
	LongCapture                          // a capture of more than 12 jumps (13 squares)
	NotASquare                           // a part that is not a square: Err says why (a *rules.SquareError in RULES 7)
)

// SyntaxError is the cause of a MoveError for text that is not written as
// a move of RULES 7.
type SyntaxError struct {
	Problem SyntaxProblem
	Err     error // for NotASquare, why the part is not a square
}

func (e *SyntaxError) Error() string {
	switch e.Problem {
	case EmptyMove:
		return "empty move"
	case StepForm:
		return "a step is two squares joined by -, such as c3-d4"
	case CaptureForm:
		return "a capture is squares joined by x, such as c3xe5xg7"
	case LongCapture:
		return "a capture has at most 12 jumps"
	case NotASquare:
		return e.Err.Error()
	}
	return "not a move"
}

// Unwrap returns the cause of NotASquare, or nil.
func (e *SyntaxError) Unwrap() error { return e.Err }

// FormatMove returns m in the notation of RULES 7 on board g.
func FormatMove(g *rules.Geometry, m rules.Move) string { return m.Text(g) }

// SortedMoves returns the text of moves in byte order (RULES 7.4).
func SortedMoves(g *rules.Geometry, moves []rules.Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.Text(g)
	}
	slices.Sort(out)
	return out
}

// ParseSquares splits move text into its squares and the kind its
// separators announce, checking only the syntax and the board: "e5" or
// "@e5" is an entry, "c3-d4" a step, "c3xe5xg7" a capture.
func ParseSquares(g *rules.Geometry, text string) (rules.Kind, []rules.Square, error) {
	s := strings.TrimSpace(text)
	bad := func(p SyntaxProblem, err error) (rules.Kind, []rules.Square, error) {
		return 0, nil, &MoveError{Text: text, Err: &SyntaxError{Problem: p, Err: err}}
	}
	if s == "" {
		return bad(EmptyMove, nil)
	}
	kind := rules.Entry
	var parts []string
	switch {
	case strings.HasPrefix(s, "@"):
		parts = []string{s[1:]}
	case strings.Contains(s, "x") || strings.Contains(s, "X"):
		// Counting the x against the squares also rules out a capture
		// without a landing square: it has an x, so two squares at least.
		kind = rules.Capture
		parts = strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == 'x' })
		if strings.Count(strings.ToLower(s), "x") != len(parts)-1 {
			return bad(CaptureForm, nil)
		}
	case strings.Contains(s, "-"):
		kind = rules.Step
		parts = strings.Split(s, "-")
		if len(parts) != 2 {
			return bad(StepForm, nil)
		}
	default:
		parts = []string{s}
	}
	if len(parts) > 13 {
		return bad(LongCapture, nil)
	}
	squares := make([]rules.Square, len(parts))
	for i, name := range parts {
		sq, err := g.ParseSquare(strings.ToLower(name))
		if err != nil {
			return bad(NotASquare, err)
		}
		squares[i] = sq
	}
	return kind, squares, nil
}

// ParseMove reads move text and returns the legal move of p it names.
// Every error is a *MoveError that says why the move cannot be played.
func ParseMove(p *rules.Position, text string) (rules.Move, error) {
	kind, squares, err := ParseSquares(p.Geometry(), text)
	if err != nil {
		return rules.Move{}, err
	}
	var m rules.Move
	switch kind {
	case rules.Entry:
		m = rules.EntryMove(squares[0])
	case rules.Step:
		m = rules.StepMove(squares[0], squares[1])
	default:
		m, _ = rules.CaptureMove(squares) // ParseSquares bounds the squares
	}
	if why := p.Why(m); why != nil {
		return rules.Move{}, &MoveError{Text: text, Err: why}
	}
	return m, nil
}
