package record

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"emergo/game"
	"emergo/notation"
	"emergo/rules"
)

// A MindSports move list is the moves of one game as the designer's site
// writes them (RULES 7.5, docs/notation.md): the squares of each path
// joined by "-" (or "x", with an "x" after the last square allowed), one
// move after the other, separated by white space or commas, each move
// perhaps numbered ("1.", "1...", "1.e4"), with a result token (1-0, 0-1,
// 1/2-1/2, *) at the end or none. It has no tags and no board size: it is
// read on 9x9, and on 7x7 when its moves are not a game on 9x9.

// ReadMindSports reads a MindSports move list as one game, from the
// start position of its board. Without a result token the result is the
// board's, or * while the game goes on. ReadAll reads such a list too
// when it has no result token (isMoveList).
func (o ReadOptions) ReadMindSports(data []byte) (Record, error) {
	text, err := decodeText(data)
	if err != nil {
		return Record{}, err
	}
	return o.readMindSports(text)
}

func (o ReadOptions) readMindSports(text []byte) (Record, error) {
	rec, err := o.readMindSportsOn(rules.Geometry9, text)
	if err == nil {
		return rec, nil
	}
	var tooLong *TooLongError
	if errors.As(err, &tooLong) {
		return Record{}, err
	}
	if rec7, err7 := o.readMindSportsOn(rules.Geometry7, text); err7 == nil {
		return rec7, nil
	}
	return Record{}, err // the 9x9 reading's error: the board the list most likely has
}

// mindSportsTokens returns the moves of a move list without their numbers,
// and its result token, or "".
func mindSportsTokens(text []byte) (moves []string, result string, err error) {
	fields := strings.FieldsFunc(string(text), func(r rune) bool {
		return r == ',' || r == ' ' || r == '\t' || r == '\r' || r == '\n'
	})
	for i, f := range fields {
		if _, err := game.ParseResult(f); err == nil {
			if i != len(fields)-1 {
				return nil, "", fmt.Errorf("result %q before the end of the move list", f)
			}
			return moves, f, nil
		}
		// A move number, alone or touching its move.
		if n := strings.IndexFunc(f, func(r rune) bool { return !isDigit(byte(r)) || r > 0x7f }); n > 0 && f[n] == '.' {
			f = strings.TrimLeft(f[n:], ".")
		}
		if f == "" {
			continue
		}
		moves = append(moves, f)
	}
	return moves, "", nil
}

// msMoveRE is the shape of a move in MindSports notation: squares joined
// by "-" or "x", perhaps with an "x" after the last.
var msMoveRE = regexp.MustCompile(`^(?i)[a-z][1-9]([-x][a-z][1-9])*x?$`)

// isMoveList reports whether ReadAll takes text for a MindSports move
// list: moves of that shape with their numbers, at least one, and no
// result token. The PGN-style text requires one, so no text is both; a
// list with a result is read by ReadMindSports alone, as "1. e6 *" is
// our text's error (e6 is no square of ours) and MindSports' game.
func isMoveList(text []byte) bool {
	moves, result, err := mindSportsTokens(text)
	if err != nil || len(moves) == 0 || result != "" {
		return false
	}
	for _, m := range moves {
		if !msMoveRE.MatchString(m) {
			return false
		}
	}
	return true
}

func (o ReadOptions) readMindSportsOn(g *rules.Geometry, text []byte) (Record, error) {
	moves, result, err := mindSportsTokens(text)
	if err != nil {
		return Record{}, &Error{Err: fmt.Errorf("MindSports move list: %w", err)}
	}
	start := rules.NewPosition(g)
	l := newLine(start, o.Lenient)
	l.max = o.MaxPlies
	for i, text := range moves {
		number := notation.MoveNumber(start.Side(), i)
		if l.max > 0 && l.len() >= l.max {
			return Record{}, &TooLongError{Plies: len(moves), Max: l.max}
		}
		if err := l.closed(text); err != nil {
			return Record{}, &Error{Move: number, Err: err}
		}
		p := l.pos
		m, err := notation.ParseMindSportsMove(&p, text)
		if err != nil {
			return Record{}, &Error{Move: number, Err: err}
		}
		if err := l.add(m); err != nil {
			return Record{}, &Error{Move: number, Err: err}
		}
	}
	o2 := l.gm.Outcome()
	res := o2.Result
	if result != "" {
		res, _ = game.ParseResult(result)
	}
	end, err := l.finish(res)
	if err != nil {
		return Record{}, &Error{Err: err}
	}
	var tags []Tag
	switch {
	case o2.Over() && end == "":
		tags = append(tags, Tag{"Termination", game.EndingOf(o2).Termination.String()})
	case res == rules.Ongoing:
		tags = append(tags, Tag{"Termination", game.Unterminated.String()})
	}
	if end != "" {
		tags = append(tags, Tag{RulesEnd, end})
	}
	return Record{
		Tags:   normalizeTags(tags),
		Start:  start,
		Moves:  l.moves(),
		Result: res,
	}, nil
}
