package analysis

import (
	"fmt"
	"regexp"
	"strings"

	"emergo/player"
	"emergo/record"
	"emergo/rules"
)

// FormatScore writes a score from White's point of view in men: "+0.35",
// "-1.20", "0.00"; a forced win as "+M3" or "-M2" (White or Black wins in
// that many of the winner's moves); a game already won as "1-0" or "0-1".
func FormatScore(s int32) string {
	n, mate := player.MateIn(s)
	switch {
	case mate && n > 0:
		return fmt.Sprintf("+M%d", n)
	case mate && n < 0:
		return fmt.Sprintf("-M%d", -n)
	case mate && s > 0:
		return "1-0"
	case mate:
		return "0-1"
	case s == 0:
		return "0.00"
	case s > 0:
		return "+" + men(s)
	}
	return "-" + men(-s)
}

// men writes a non-negative number of hundredths as men: "1.20".
func men(s int32) string { return fmt.Sprintf("%d.%02d", s/100, s%100) }

// Comment is the record comment of a note: the evaluation after the move
// (White's view); the engine's best move and the evaluation it keeps, if
// the move played was another; and the mark with the loss, from the
// player's point of view. For example
//
//	eval +0.35, best move
//	eval +0.20, best c3xe5 +0.35
//	? eval -0.85, best c3xe5 +0.35; mistake: -1.20
func Comment(g *rules.Geometry, n MoveNote) string {
	var b strings.Builder
	if n.Mark != Good {
		b.WriteString(n.Mark.String() + " ")
	}
	b.WriteString("eval " + FormatScore(n.After))
	if n.Move == n.Best {
		b.WriteString(", best move")
	} else {
		fmt.Fprintf(&b, ", best %s %s", n.Best.Text(g), FormatScore(n.Before))
	}
	if n.Mark != Good {
		fmt.Fprintf(&b, "; %s: -%s", n.Mark.Name(), men(n.Loss))
	}
	return b.String()
}

// ownComment finds a comment that Comment wrote, so that a record
// analysed again gets the new comment instead of a second one.
var ownComment = regexp.MustCompile(`(?:^|\s)(?:\?\?? )?eval (?:[+-][0-9M]|0\.00|1-0|0-1)`)

// Annotate puts the comment of each note after its move in rec, keeping
// any other comment the move had before it, and replacing an earlier
// analysis. notes must come from the analysis of rec's game.
func Annotate(rec *record.Record, notes []MoveNote) error {
	if len(notes) > len(rec.Moves) {
		return fmt.Errorf("analysis: %d notes for %d moves", len(notes), len(rec.Moves))
	}
	g := rec.Start.Geometry()
	comments := make([]string, len(rec.Moves))
	copy(comments, rec.Comments)
	for _, n := range notes {
		if n.Move != rec.Moves[n.Ply] {
			return fmt.Errorf("analysis: move %s is %s in the record, %s in the notes",
				n.Number, rec.Moves[n.Ply].Text(g), n.Move.Text(g))
		}
		old := comments[n.Ply]
		if loc := ownComment.FindStringIndex(old); loc != nil {
			old = old[:loc[0]]
		}
		old = strings.TrimSpace(old)
		if old != "" {
			old += " "
		}
		comments[n.Ply] = old + Comment(g, n)
	}
	rec.Comments = comments
	return nil
}
