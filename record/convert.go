package record

import (
	"bytes"
	"fmt"
	"strings"
)

// LossError says what a game loses when it is written in a format that
// has no place for all of it: the tags the format cannot hold, and the
// comments. The game is written all the same.
type LossError struct {
	Game     int    // the game's place in its file, from 1
	Format   Format // the format written
	Tags     []Tag  // the tags that do not come back, with their values
	Comments bool   // whether comments are left out
}

func (e *LossError) Error() string {
	var lost []string
	for _, t := range e.Tags {
		lost = append(lost, fmt.Sprintf("%s %q", t.Key, t.Value))
	}
	if e.Comments {
		lost = append(lost, "the comments")
	}
	list := lost[0]
	if n := len(lost); n > 1 {
		list = strings.Join(lost[:n-1], ", ") + " and " + lost[n-1]
	}
	return fmt.Sprintf("record: game %d: %s has no place for %s: left out", e.Game, e.Format, list)
}

// String names the format: "PGN-style text" or "Abstract Play JSON".
func (f Format) String() string {
	if f == APJSON {
		return "Abstract Play JSON"
	}
	return "PGN-style text"
}

// Convert reads every game of a record file in any format ReadAll knows,
// with the options o, and writes them in the format to: every tag the
// format can hold is kept. The warnings say what is lost: a *LossError for
// a game whose tags or comments the format cannot hold, and for AP JSON
// the APJSONWarnings of each game. The PGN-style text holds everything.
func (o ReadOptions) Convert(data []byte, to Format) (out []byte, warnings []error, err error) {
	recs, err := o.ReadAll(data)
	if err != nil {
		return nil, nil, err
	}
	if len(recs) == 0 {
		return nil, nil, &Error{Err: fmt.Errorf("no games")}
	}
	var buf bytes.Buffer
	if err := Write(&buf, to, recs...); err != nil {
		return nil, nil, err
	}
	if to == APJSON {
		for i := range recs {
			if e := lostInAPJSON(&recs[i]); e != nil {
				e.Game = i + 1
				warnings = append(warnings, e)
			}
			for _, w := range APJSONWarnings(recs[i]) {
				warnings = append(warnings, &gameWarning{i + 1, w})
			}
		}
	}
	return buf.Bytes(), warnings, nil
}

// lostInAPJSON returns what rec loses in AP JSON, or nil. It writes the
// record and reads it back, so that it says what the reader and the writer
// do rather than what a list of them might claim. A tag of rec that comes
// back with another value, or not at all, is lost; a roster tag that is
// unknown ("?") loses nothing.
func lostInAPJSON(rec *Record) *LossError {
	b, err := WriteAPJSON(*rec)
	if err != nil {
		return nil
	}
	_, lenient := lookup(rec.Tags, RulesEnd)
	back, err := ReadOptions{Lenient: lenient}.readAPJSON(b)
	if err != nil {
		return nil
	}
	e := &LossError{Format: APJSON, Comments: rec.Comment != ""}
	for _, c := range rec.Comments {
		e.Comments = e.Comments || c != ""
	}
	for _, t := range rec.Tags {
		if back.Tag(t.Key) != t.Value {
			e.Tags = append(e.Tags, t)
		}
	}
	if len(e.Tags) == 0 && !e.Comments {
		return nil
	}
	return e
}

// gameWarning is a warning about one game of a file, which errors.Is
// finds as the warning itself.
type gameWarning struct {
	game int
	err  error
}

func (w *gameWarning) Error() string {
	return fmt.Sprintf("record: game %d: %s", w.game, strings.TrimPrefix(w.err.Error(), "record: "))
}

func (w *gameWarning) Unwrap() error { return w.err }
