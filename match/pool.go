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

// SummaryOf returns the summary of one or more matches from their records
// as Run writes them (emergo match -out): in each match games 2k-1 and 2k,
// by their Round tags, share an opening, and the first player is White in
// the odd one. The matches are pooled, their game pairs counted together:
// two matches of the same players on different openings make one measure,
// with the interval of all their pairs. The first player is named by the
// first odd game's White tag, the second by its Black; the time control
// is that game's.
func SummaryOf(matches [][]record.Record) (Summary, error) {
	var sum Summary
	offset := 0
	for i, recs := range matches {
		where := ""
		if len(matches) > 1 {
			where = fmt.Sprintf("match %d, ", i+1)
		}
		last := 0
		seen := map[int]bool{}
		for j := range recs {
			g, err := resultOf(&recs[j])
			if err != nil {
				return Summary{}, fmt.Errorf("%sgame %d: %w", where, j+1, err)
			}
			if seen[g.Number] {
				return Summary{}, fmt.Errorf("%sgame %d: a second game of round %d", where, j+1, g.Number)
			}
			seen[g.Number] = true
			last = max(last, g.Number)
			g.Number += offset
			g.Pair = (g.Number + 1) / 2
			sum.Games = append(sum.Games, g)
		}
		// The next match's games follow, its first one odd again.
		offset += last + last%2
	}
	slices.SortFunc(sum.Games, func(a, b GameResult) int { return a.Number - b.Number })
	for i := range sum.Games {
		g := &sum.Games[i]
		sum.Counts.add(g)
		if g.Number%2 == 0 && i > 0 && sum.Games[i-1].Number == g.Number-1 {
			sum.Counts.addPair(&sum.Games[i-1], g)
		}
		if !slices.Contains(sum.Sizes, g.Size) {
			sum.Sizes = append(sum.Sizes, g.Size)
		}
	}
	sum.Planned = len(sum.Games)
	for i := range sum.Games {
		if g := &sum.Games[i]; g.P1White {
			rec := &g.Record
			sum.P1, sum.P2 = rec.Tag("White"), rec.Tag("Black")
			sum.TC = timeControlsOf(rec)
			break
		}
	}
	return sum, nil
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
		Number: n, P1White: n%2 == 1, Size: rec.Start.Geometry().N,
		Result: rec.Result, Termination: term, Plies: len(rec.Moves), Record: *rec,
	}, nil
}

// timeControlsOf returns the players' time controls from the tags of a
// game the first player had White: TimeControl for both, or
// WhiteTimeControl and BlackTimeControl. A tag missing or not read leaves
// the zero TimeControl.
func timeControlsOf(rec *record.Record) [2]TimeControl {
	if t := rec.Tag("TimeControl"); t != "" && t != "?" {
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
