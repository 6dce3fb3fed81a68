package record

import (
	"errors"
	"fmt"

	"emergo/notation"
	"emergo/rules"
)

// RulesEnd is the tag a lenient read (ReadOptions.Lenient) gives a record
// that goes on after our rules have ended the game, or that ends with a
// result our rules contradict. Its value says where and how our rules end
// it: "move 20...: 1/2-1/2 (threefold repetition)". Readers make the tag
// themselves and replace one found in their input; Record.Game accepts
// such a record as played when the tag has the value it would give.
const RulesEnd = "RulesEnd"

// ErrRulesEnd is wrapped by the error of a strict read of a record that
// goes on after our rules have ended the game (the Abstract Play server
// has no repetition rule, so its games can go on past a position's third
// occurrence), or whose recorded result our rules contradict. A lenient
// read keeps such a record as played and notes our verdict in the
// RulesEnd tag.
var ErrRulesEnd = errors.New("a lenient read keeps the record as played")

// rulesEndError is an error that a lenient read would not have made.
type rulesEndError struct{ err error }

func (e *rulesEndError) Error() string   { return e.err.Error() + "; " + ErrRulesEnd.Error() }
func (e *rulesEndError) Unwrap() []error { return []error{e.err, ErrRulesEnd} }

// line replays the moves of a record: with rules.Game up to the end our
// rules give and, in a lenient read, on the positions alone after it.
// Only a threefold repetition ends a game while moves remain legal, so
// only then can moves follow the end. The readers and Record.Game share
// it, so they agree on every verdict.
type line struct {
	gm      *rules.Game
	lenient bool
	pos     rules.Position // the position after every move, past the end too
	past    []rules.Move   // the moves after our end
	beyond  bool           // an ending off the board came after our end
	max     int            // the most moves it plays (ReadOptions.MaxPlies), 0 for no limit
}

func newLine(start rules.Position, lenient bool) *line {
	return &line{gm: rules.NewGameFrom(start), lenient: lenient, pos: start}
}

// len returns the number of moves played, past the end too.
func (l *line) len() int { return l.gm.Len() + len(l.past) }

// number returns the number of the next move, as notation.MoveNumber writes it.
func (l *line) number() string {
	start := l.gm.Start()
	return notation.MoveNumber(start.Side(), l.len())
}

// moves returns every move played.
func (l *line) moves() []rules.Move {
	return append(append([]rules.Move(nil), l.gm.Moves()...), l.past...)
}

// closed returns the error for an entry text after our rules' end that a
// read may not keep, or nil.
func (l *line) closed(text string) error {
	o := l.gm.Outcome()
	if !o.Over() {
		return nil
	}
	err := &notation.MoveError{Text: text, Err: &rules.GameOverError{Outcome: o}}
	switch {
	case o.Reason != rules.Repetition:
		// No move is legal at the end of the other kinds.
		return err
	case l.lenient:
		return nil
	}
	return &rulesEndError{err}
}

// play parses a move in the current position and plays it.
func (l *line) play(text string) error {
	if l.max > 0 && l.len() >= l.max {
		return &TooLongError{Plies: l.len() + 1, Max: l.max}
	}
	if err := l.closed(text); err != nil {
		return err
	}
	p := l.pos
	m, err := notation.ParseMove(&p, text)
	if err != nil {
		return err
	}
	return l.add(m)
}

// add plays a move, which must be legal in the current position. A move
// over the limit l.max is not played: the error is a *TooLongError.
func (l *line) add(m rules.Move) error {
	if l.max > 0 && l.len() >= l.max {
		return &TooLongError{Plies: l.len() + 1, Max: l.max}
	}
	text := m.Text(l.pos.Geometry())
	if err := l.closed(text); err != nil {
		return err
	}
	if l.gm.Outcome().Over() {
		if why := l.pos.Why(m); why != nil {
			return &notation.MoveError{Text: text, Err: why}
		}
		l.pos.Play(m)
		l.past = append(l.past, m)
		return nil
	}
	if err := l.gm.Play(m); err != nil {
		return &notation.MoveError{Text: text, Err: err}
	}
	l.pos = l.gm.Position()
	return nil
}

// offBoard records an ending off the board (resignation, time forfeit,
// agreement) written as an entry: after our end only a lenient read keeps
// it.
func (l *line) offBoard(text string) error {
	o := l.gm.Outcome()
	if !o.Over() {
		return nil
	}
	err := &notation.MoveError{Text: text, Err: &rules.GameOverError{Outcome: o}}
	if !l.lenient {
		return &rulesEndError{err}
	}
	l.beyond = true
	return nil
}

// finish checks the recorded result against our rules. It returns the
// value of the RulesEnd tag when the record goes on after our end or
// contradicts our result (a lenient read only), or "".
func (l *line) finish(res rules.Result) (string, error) {
	o := l.gm.Outcome()
	if !o.Over() || res == o.Result && len(l.past) == 0 && !l.beyond {
		return "", nil
	}
	if !l.lenient {
		return "", &rulesEndError{fmt.Errorf("the result %s contradicts the board: %s", res, o)}
	}
	at := "the start"
	if n := l.gm.Len(); n > 0 {
		start := l.gm.Start()
		at = "move " + notation.MoveNumber(start.Side(), n-1)
	}
	return at + ": " + o.String(), nil
}
