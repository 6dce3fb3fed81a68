package match

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"emergo/game"
	"emergo/record"
	"emergo/rules"
)

// GamesOf reads the games of one match from its records as Run writes them
// (emergo match -out), in the order of their numbers: game n is the Round
// tag, games 2k-1 and 2k share an opening, and the first player is White
// in the odd one. A record that is no match game's (no round, a round
// twice, no result, an unknown Termination) is an error naming it.
func GamesOf(recs []record.Record) ([]GameResult, error) {
	games := make([]GameResult, 0, len(recs))
	seen := map[int]bool{}
	for j := range recs {
		g, err := resultOf(&recs[j])
		if err != nil {
			return nil, fmt.Errorf("game %d: %w", j+1, err)
		}
		if seen[g.Number] {
			return nil, fmt.Errorf("game %d: a second game of round %d", j+1, g.Number)
		}
		seen[g.Number] = true
		games = append(games, g)
	}
	slices.SortFunc(games, func(a, b GameResult) int { return a.Number - b.Number })
	return games, nil
}

// Pool returns the summary of matches read by GamesOf, their game pairs
// counted together: two matches of the same players on different openings
// make one measure, with the interval of all their pairs. The games are
// numbered on, match after match, each match's first game odd. The first
// player is named by the first game he had White, the second by its Black
// tag; the time controls are that game's.
func Pool(matches ...[]GameResult) Summary {
	var sum Summary
	offset := 0
	for _, games := range matches {
		for _, g := range games {
			g.Number += offset
			g.Pair = (g.Number + 1) / 2
			sum.Games = append(sum.Games, g)
		}
		if n := len(games); n > 0 {
			last := games[n-1].Number
			offset += last + last%2
		}
	}
	sum.Counts = countsOf(sum.Games, 0)
	sum.Planned = len(sum.Games)
	for i := range sum.Games {
		g := &sum.Games[i]
		if !slices.Contains(sum.Sizes, g.Size) {
			sum.Sizes = append(sum.Sizes, g.Size)
		}
		if g.P1White && sum.P1 == "" {
			rec := &g.Record
			sum.P1, sum.P2 = rec.Tag("White"), rec.Tag("Black")
			sum.TC = timeControlsOf(rec)
		}
	}
	return sum
}

// resultOf reads one game of a match from its record: its number from the
// Round tag, its board, result and ending.
func resultOf(rec *record.Record) (GameResult, error) {
	n, err := strconv.Atoi(rec.Tag("Round"))
	if err != nil || n < 1 {
		return GameResult{}, fmt.Errorf("round %q: want the game's number, from 1", rec.Tag("Round"))
	}
	if rec.Result == rules.Ongoing {
		return GameResult{}, fmt.Errorf("round %d: no result", n)
	}
	term, err := game.ParseTermination(rec.Tag("Termination"))
	if err != nil {
		return GameResult{}, fmt.Errorf("round %d: %w", n, err)
	}
	return GameResult{
		Number: n, Pair: (n + 1) / 2, P1White: n%2 == 1, Size: rec.Start.Geometry().N,
		Result: rec.Result, Termination: term, Plies: len(rec.Moves), Record: *rec,
	}, nil
}

// timeControlsOf returns the players' time controls from the tags of a
// game the first player had White: TimeControl for both, or
// WhiteTimeControl and BlackTimeControl. A tag missing or not read leaves
// the zero TimeControl.
func timeControlsOf(rec *record.Record) [2]TimeControl {
	if t := rec.Tag("TimeControl"); t != "" {
		tc, _ := parsePGNTimeControl(t)
		return [2]TimeControl{tc, tc}
	}
	w, _ := parsePGNTimeControl(rec.Tag("WhiteTimeControl"))
	b, _ := parsePGNTimeControl(rec.Tag("BlackTimeControl"))
	return [2]TimeControl{w, b}
}

// parsePGNTimeControl reads what pgnTimeControl writes: "1/S" seconds a
// move, "T+I" a clock and its increment in seconds, "-" none.
func parsePGNTimeControl(text string) (TimeControl, error) {
	secs := func(s string) (time.Duration, error) {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || f < 0 {
			return 0, fmt.Errorf("time control %q: %q is not seconds", text, s)
		}
		return time.Duration(f * float64(time.Second)).Round(time.Microsecond), nil
	}
	switch {
	case text == "-":
		return TimeControl{}, nil
	case strings.HasPrefix(text, "1/"):
		d, err := secs(text[2:])
		return TimeControl{MoveTime: d}, err
	}
	t, inc, ok := strings.Cut(text, "+")
	if !ok {
		return TimeControl{}, fmt.Errorf("time control %q: want 1/S, T+I or -", text)
	}
	total, err := secs(t)
	if err != nil {
		return TimeControl{}, err
	}
	i, err := secs(inc)
	return TimeControl{Time: total, Increment: i}, err
}
