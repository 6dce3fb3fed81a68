// Package record reads and writes whole Emergo games: the PGN-style text
// format of docs/records.md and the JSON game record of the Abstract Play
// server. A Record holds the tags, the start position, the moves, the
// comments and the result. Every reader replays the moves through
// rules.Game, so a Record read without error is a legal game whose result
// agrees with the board wherever the board decides it.
package record

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"emergo/game"
	"emergo/notation"
	"emergo/rules"
)

// Tag is one tag pair of a record, such as White "alice".
type Tag struct {
	Key, Value string
}

// roster is the seven-tag roster of PGN, written first and in this order.
var roster = [...]string{"Event", "Site", "Date", "Round", "White", "Black", "Result"}

// Record is one game.
//
// Tags holds every tag but four, in the order they are written: the roster
// tags Event, Site, Date, Round, White and Black first, then the others.
// The other four follow from the fields, so that a record cannot
// contradict itself: Result from Result, and Size, SetUp and Position from
// Start. Tag and SetTag handle all of them alike.
//
// Comments[i] is the comment after Moves[i]; Comments may be shorter than
// Moves or nil, and an empty string is no comment. Comment is the comment
// before the first move. Comments are single lines of words: readers join
// the words with one space, as the writer may break lines between them.
type Record struct {
	Tags     []Tag
	Start    rules.Position
	Moves    []rules.Move
	Comment  string
	Comments []string
	Result   rules.Result
}

// FromGame returns the record of gm: its start, its moves and the result
// the board gives, with the roster tags unknown ("?") and a Termination
// tag that gives the board's reason, or "unterminated" while the game goes
// on. A game ended off the board (RULES 6.4) sets its ending afterwards
// (SetEnding); Of does both for a game as played.
func FromGame(gm *rules.Game) Record {
	rec := Record{
		Start: gm.Start(),
		Moves: append([]rules.Move(nil), gm.Moves()...),
		Tags:  normalizeTags(nil),
	}
	rec.SetEnding(game.EndingOf(gm.Outcome()))
	return rec
}

// Of returns the record of a game as played: its board's record with the
// game's ending.
func Of(g *game.Game) Record {
	rec := FromGame(g.Rules())
	rec.SetEnding(g.Ending())
	return rec
}

// SetEnding sets the result and the Termination tag (the words of the
// game package, docs/records.md) to e.
func (r *Record) SetEnding(e game.Ending) {
	r.Result = e.Result
	if err := r.SetTag("Termination", e.Termination.String()); err != nil {
		panic(err) // the words of the game package are valid values
	}
}

// Played returns the record as a game as played, with opts: the game of
// its moves (Game), ended as the record says where the board leaves it
// open. A Termination tag that is not one of the game package's words
// (another program's "normal", or none), or that this game cannot have
// (an abort after both players moved), gives the recorded result as
// decided from outside the game (game.Recorded, game.Outside).
func (r *Record) Played(opts game.Options) (*game.Game, error) {
	board, err := r.Game()
	if err != nil {
		return nil, err
	}
	g := game.New(board, opts)
	if g.Over() {
		return g, nil
	}
	if e := game.Recorded(r.Result, r.Tag("Termination")); !e.Over() || g.End(e) == nil {
		return g, nil
	}
	if e := game.Outside(r.Result); e.Over() {
		if err := g.End(e); err != nil {
			panic(err) // an adjudication fits any result and any game that goes on
		}
	}
	return g, nil
}

// Game replays the record and returns the game at its end. It fails if a
// move is illegal, if a move follows the end of the game, or if the board
// decides the game and Result says otherwise. A decisive Result while the
// board says the game goes on is fine: resignations and time forfeits end
// games too.
//
// A record with a RulesEnd tag (from a lenient read) may go on after the
// end our rules give, or end with another result, as long as the tag
// says where and how our rules end it and every move after that end is
// legal in its position. Game then returns the game at our rules' end.
func (r *Record) Game() (*rules.Game, error) {
	fail := func(err error) (*rules.Game, error) {
		e := &Error{Err: err}
		e.setNames(r.Tags)
		return nil, e
	}
	g := r.Start.Geometry()
	if g == nil {
		return fail(fmt.Errorf("no start position"))
	}
	if err := r.Start.Validate(); err != nil {
		var invalid *rules.PositionError
		if errors.As(err, &invalid) {
			err = errors.New(invalid.Detail)
		}
		return fail(fmt.Errorf("start position: %w", err))
	}
	if len(r.Comments) > len(r.Moves) {
		return fail(fmt.Errorf("%d comments for %d moves", len(r.Comments), len(r.Moves)))
	}
	tag, lenient := lookup(r.Tags, RulesEnd)
	l := newLine(r.Start, lenient)
	for i, m := range r.Moves {
		if err := l.add(m); err != nil {
			e := &Error{Move: notation.MoveNumber(r.Start.Side(), i), Err: err}
			e.setNames(r.Tags)
			return nil, e
		}
	}
	end, err := l.finish(r.Result)
	switch {
	case err != nil:
		return fail(err)
	case end != tag && end == "":
		return fail(fmt.Errorf("tag %s %q, but our rules do not end this game before the record does", RulesEnd, tag))
	case end != tag:
		return fail(fmt.Errorf("tag %s %q, but our rules end this game at %s", RulesEnd, tag, end))
	}
	return l.gm, nil
}

// derived reports whether a tag follows from the fields of Record rather
// than living in Tags.
func derived(key string) bool {
	switch key {
	case "Result", "Size", "SetUp", "Position":
		return true
	}
	return false
}

// rosterDefault returns the value written for a roster tag the record
// lacks: PGN's "unknown".
func rosterDefault(key string) string {
	if key == "Date" {
		return "????.??.??"
	}
	return "?"
}

func rosterIndex(key string) int {
	for i, k := range roster[:6] {
		if k == key {
			return i
		}
	}
	return -1
}

// normalizeTags returns tags with the six roster tags first, in roster
// order and filled with their defaults where missing, and the others after
// them in their order. Readers and FromGame produce records in this form,
// so a record written and read back compares equal.
func normalizeTags(tags []Tag) []Tag {
	out := make([]Tag, 0, len(tags)+6)
	for _, k := range roster[:6] {
		v := rosterDefault(k)
		for _, t := range tags {
			if t.Key == k {
				v = t.Value
				break
			}
		}
		out = append(out, Tag{k, v})
	}
	for _, t := range tags {
		if rosterIndex(t.Key) < 0 {
			out = append(out, t)
		}
	}
	return out
}

// isStart reports whether p is the start of a game on its board, which
// needs no SetUp tag.
func isStart(p *rules.Position) bool {
	return *p == rules.NewPosition(p.Geometry())
}

// Tag returns the value of the tag key, or "" if the record has none. The
// roster tags have their defaults ("?") when missing; Result, Size, SetUp
// and Position are computed from the fields.
func (r *Record) Tag(key string) string {
	switch key {
	case "Result":
		return r.Result.String()
	case "Size":
		if g := r.Start.Geometry(); g != nil {
			return strconv.Itoa(g.N)
		}
		return ""
	case "SetUp":
		if r.Start.Geometry() != nil && !isStart(&r.Start) {
			return "1"
		}
		return ""
	case "Position":
		if r.Start.Geometry() != nil && !isStart(&r.Start) {
			return notation.FormatPosition(&r.Start)
		}
		return ""
	}
	for _, t := range r.Tags {
		if t.Key == key {
			return t.Value
		}
	}
	if rosterIndex(key) >= 0 {
		return rosterDefault(key)
	}
	return ""
}

// SetTag sets the tag key to value, in place if the record has it, else at
// its roster place or at the end. Setting Result sets the Result field;
// Size, SetUp and Position cannot be set, as they follow from Start. It
// fails for a key or value the text format cannot hold.
func (r *Record) SetTag(key, value string) error {
	if err := checkTag(key, value); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	switch key {
	case "Result":
		res, err := game.ParseResult(value)
		if err != nil {
			return fmt.Errorf("record: unknown result %q", value)
		}
		r.Result = res
		return nil
	case "Size", "SetUp", "Position":
		return fmt.Errorf("record: the %s tag follows from the start position", key)
	}
	for i := range r.Tags {
		if r.Tags[i].Key == key {
			r.Tags[i].Value = value
			return nil
		}
	}
	if ri := rosterIndex(key); ri >= 0 {
		// Insert before the first tag that is not a roster tag coming
		// earlier, so the roster keeps its order.
		at := 0
		for at < len(r.Tags) {
			if j := rosterIndex(r.Tags[at].Key); j < 0 || j > ri {
				break
			}
			at++
		}
		r.Tags = slices.Insert(r.Tags, at, Tag{key, value})
		return nil
	}
	r.Tags = append(r.Tags, Tag{key, value})
	return nil
}

// positionError is the error of a position text that names where it comes
// from (a tag, a field) instead of the notation package.
func positionError(where string, err error) error {
	var pe *notation.PositionError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: position %s", where, pe.Detail())
	}
	return fmt.Errorf("%s: %w", where, err)
}

// checkTag reports whether the text format can hold the tag: a name of
// letters, digits and underscores that starts with a letter, and a value
// on one line without control characters.
func checkTag(key, value string) error {
	if !validKey(key) {
		return fmt.Errorf("bad tag name %q: use letters, digits and _, starting with a letter", key)
	}
	for i := 0; i < len(value); i++ {
		if c := value[i]; c < 0x20 || c == 0x7f {
			return fmt.Errorf("tag %s: control character %q in the value", key, c)
		}
	}
	return nil
}

func validKey(key string) bool {
	if key == "" || !isLetter(key[0]) {
		return false
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; !isLetter(c) && !isDigit(c) && c != '_' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// Error is the error of the readers and writers: what was wrong, and
// where. Its text reads like
//
//	record: game 2 (alice-bob): move 14 "c3xe6": e6 is not a playable square
//
// Err is a *notation.MoveError when a move is at fault.
type Error struct {
	Game  int    // index of the game in its file, from 1; 0 for a single record
	White string // White's name, if known
	Black string // Black's name, if known
	Line  int    // line of the input for a syntax error, or 0
	Move  string // move number, "14" for White's move or "14..." for Black's, or ""
	Err   error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("record: ")
	names := ""
	if e.White != "" || e.Black != "" {
		names = or(e.White, "?") + "-" + or(e.Black, "?")
	}
	switch {
	case e.Game > 0 && names != "":
		fmt.Fprintf(&b, "game %d (%s): ", e.Game, names)
	case e.Game > 0:
		fmt.Fprintf(&b, "game %d: ", e.Game)
	case names != "":
		b.WriteString(names + ": ")
	}
	if e.Move != "" {
		fmt.Fprintf(&b, "move %s ", e.Move)
	} else if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the cause of e.
func (e *Error) Unwrap() error { return e.Err }

// setNames takes the players' names from tags, leaving out unknown ones.
func (e *Error) setNames(tags []Tag) {
	for _, t := range tags {
		if t.Value == "?" {
			continue
		}
		switch t.Key {
		case "White":
			e.White = t.Value
		case "Black":
			e.Black = t.Value
		}
	}
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
