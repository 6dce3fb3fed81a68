package notation

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"emergo/rules"
)

// The position text is one line (docs/notation.md):
//
//	<N>x<N> <side> <white hand>/<black hand> <columns>
//
// such as "9x9 w 12/12 -" for the start of a game, or
// "9x9 b 0/2 a1:W9 e5:W1 h8:B10w2". Columns are written in square order
// (rank 1 first, files left to right), each as square, colon, owner letter
// and men on top, then the other colour's letter and its prisoners if it
// has any. A board without columns is "-". Everything that makes a
// Position is in the text and nothing else is, so the text and the value
// convert both ways without loss.

// PositionError is the error of ParsePosition: the text as given, the part
// of it at fault and what was wrong with it.
type PositionError struct {
	Text   string // the whole text as given
	Part   string // the field at fault, such as `column "c6:W3"`; empty when the text as a whole is wrong
	Reason string
	Err    error // the error of package rules behind Reason, if any
}

func (e *PositionError) Error() string { return "notation: position " + e.Detail() }

// Detail is the text of e without its prefix, for callers that say
// themselves where the position comes from: the text given, the part at
// fault and what was wrong, as in `"9x9 w 12/12 c6:W3": column "c6:W3":
// c6 is not a playable square`.
func (e *PositionError) Detail() string {
	if e.Part == "" {
		return fmt.Sprintf("%q: %s", e.Text, e.Reason)
	}
	return fmt.Sprintf("%q: %s: %s", e.Text, e.Part, e.Reason)
}

// Unwrap returns the error of package rules behind e, or nil.
func (e *PositionError) Unwrap() error { return e.Err }

// FormatPosition returns the canonical position text of p, such as
// "9x9 w 12/12 -". p must be a valid position (one made by
// rules.NewPosition, rules.PositionOf or play from them).
func FormatPosition(p *rules.Position) string {
	return string(appendPosition(make([]byte, 0, 64), p))
}

func appendPosition(b []byte, p *rules.Position) []byte {
	g := p.Geometry()
	b = strconv.AppendInt(b, int64(g.N), 10)
	b = append(b, 'x')
	b = strconv.AppendInt(b, int64(g.N), 10)
	b = append(b, ' ', "wb"[p.Side()], ' ')
	b = strconv.AppendInt(b, int64(p.Hand(rules.White)), 10)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(p.Hand(rules.Black)), 10)
	empty := true
	for s := rules.Square(0); int(s) < g.Squares; s++ {
		c := p.At(s)
		if c.Empty() {
			continue
		}
		empty = false
		b = append(b, ' ')
		b = g.AppendName(b, s)
		b = append(b, ':', "WB"[c.Owner])
		b = strconv.AppendInt(b, int64(c.Top), 10)
		if c.Prisoners > 0 {
			b = append(b, "wb"[c.Owner.Other()])
			b = strconv.AppendInt(b, int64(c.Prisoners), 10)
		}
	}
	if empty {
		b = append(b, " -"...)
	}
	return b
}

// positionForm is quoted by the errors that find the text's overall shape
// wrong, so the user sees at once what is expected.
const positionForm = `a position is <size> <side> <white hand>/<black hand> <columns>, such as "9x9 w 12/12 -"`

// columnForm is quoted by the errors that find a column's shape wrong.
const columnForm = "a column is square:owner and men, such as d4:W3 or c5:B2w2 (B2 on top of 2 white prisoners)"

// ParsePosition reads a position text. It accepts the canonical form that
// FormatPosition writes and also columns in any order, any amount of white
// space between fields, and commas between columns. It rejects everything
// else with a *PositionError that names the part at fault: an unknown
// size, a bad count, a square that is not playable or given twice, a
// column with prisoners of its owner's own colour, and men that do not add
// up to each player's full set (RULES 1.4, checked by rules.PositionOf).
func ParsePosition(text string) (rules.Position, error) {
	fail := func(part, reason string, err error) (rules.Position, error) {
		return rules.Position{}, &PositionError{Text: text, Part: part, Reason: reason, Err: err}
	}
	var head [3]string
	rest := text
	for i, what := range [...]string{"size", "side to move", "men in hand"} {
		head[i], rest = cutField(rest)
		if head[i] == "" {
			return fail("", "missing the "+what+"; "+positionForm, nil)
		}
	}

	size := head[0]
	var g *rules.Geometry
	switch size {
	case "9x9":
		g = rules.Geometry9
	case "7x7":
		g = rules.Geometry7
	default:
		return fail(fmt.Sprintf("size %q", size), "the board is 9x9 or 7x7", nil)
	}

	var side rules.Color
	switch head[1] {
	case "w":
		side = rules.White
	case "b":
		side = rules.Black
	default:
		return fail(fmt.Sprintf("side %q", head[1]), "the side to move is w or b", nil)
	}

	var hand [2]int
	wh, bh, ok := strings.Cut(head[2], "/")
	if !ok {
		return fail(fmt.Sprintf("hands %q", head[2]), "write the men in hand as white/black, such as 12/12", nil)
	}
	for c, h := range [2]string{wh, bh} {
		n, ok := parseCount(h, 0, g.Men)
		if !ok {
			return fail(fmt.Sprintf("hands %q", head[2]), fmt.Sprintf("%s's hand %q is not a number from 0 to %d", rules.Color(c), h, g.Men), nil)
		}
		hand[c] = n
	}

	body := strings.TrimSpace(rest)
	if body == "" {
		return fail("", "missing the columns (- for an empty board); "+positionForm, nil)
	}
	cols := make(map[rules.Square]rules.Column)
	if body != "-" {
		// Commas are optional separators, so a comma must stand between two
		// columns: an empty piece means a stray or doubled comma.
		for piece := range strings.SplitSeq(body, ",") {
			toks := strings.Fields(piece)
			if len(toks) == 0 {
				return fail("", "a comma without a column on both sides", nil)
			}
			for _, tok := range toks {
				part := fmt.Sprintf("column %q", tok)
				if tok == "-" {
					return fail(part, "- stands for an empty board and cannot go with columns", nil)
				}
				s, c, reason := parseColumn(g, tok)
				if reason != "" {
					return fail(part, reason, nil)
				}
				if _, dup := cols[s]; dup {
					return fail(part, g.Name(s)+" is given twice", nil)
				}
				cols[s] = c
			}
		}
	}
	p, err := rules.PositionOf(g, cols, hand, side)
	if err != nil {
		reason := err.Error()
		var invalid *rules.PositionError
		if errors.As(err, &invalid) {
			reason = invalid.Detail
		}
		return fail("", reason, err)
	}
	return p, nil
}

// cutField returns the first field of s, delimited by white space as in
// strings.Fields, and the text after it.
func cutField(s string) (field, rest string) {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	i := strings.IndexFunc(s, unicode.IsSpace)
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

// parseColumn reads one column such as "c5:B2w2". It returns a reason
// instead of an error so the caller can name the column in its message.
func parseColumn(g *rules.Geometry, tok string) (rules.Square, rules.Column, string) {
	name, body, ok := strings.Cut(tok, ":")
	if !ok {
		return 0, rules.Column{}, columnForm
	}
	s, err := g.ParseSquare(name)
	if err != nil {
		return 0, rules.Column{}, err.Error()
	}
	if body == "" {
		return 0, rules.Column{}, columnForm
	}
	var c rules.Column
	switch body[0] {
	case 'W':
		c.Owner = rules.White
	case 'B':
		c.Owner = rules.Black
	case 'w', 'b':
		return 0, rules.Column{}, "the owner is written in upper case, W or B"
	default:
		return 0, rules.Column{}, columnForm
	}
	i := 1
	for i < len(body) && body[i] >= '0' && body[i] <= '9' {
		i++
	}
	if c.Top, ok = parseCount(body[1:i], 1, g.Men); !ok {
		return 0, rules.Column{}, fmt.Sprintf("%q is not a number of men on top from 1 to %d", body[1:i], g.Men)
	}
	if i == len(body) {
		return s, c, ""
	}
	own, other := "WB"[c.Owner], "wb"[c.Owner.Other()]
	switch body[i] {
	case other:
	case own + 'a' - 'A':
		return 0, rules.Column{}, fmt.Sprintf("prisoners are of the other colour: under %c men they are written %c", own, other)
	case 'W', 'B':
		return 0, rules.Column{}, "prisoners are written in lower case, w or b"
	default:
		return 0, rules.Column{}, columnForm
	}
	if c.Prisoners, ok = parseCount(body[i+1:], 1, g.Men); !ok {
		return 0, rules.Column{}, fmt.Sprintf("%q is not a number of prisoners from 1 to %d", body[i+1:], g.Men)
	}
	return s, c, ""
}

// parseCount reads a decimal number from lo to hi. It accepts only the
// digits FormatPosition writes (no sign, no leading zeros), so that every
// accepted text has exactly one canonical spelling of each count.
func parseCount(s string, lo, hi int) (int, bool) {
	if s == "" || len(s) > 3 || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = 10*n + int(s[i]-'0')
	}
	return n, n >= lo && n <= hi
}
