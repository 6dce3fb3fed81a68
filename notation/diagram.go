package notation

import (
	"strconv"
	"strings"

	"emergo/rules"
)

// ColumnText writes a column as owner and height over prisoners: "W3",
// "B2w2", "B10w12"; an empty square is ".".
func ColumnText(c rules.Column) string {
	if c.Empty() {
		return "."
	}
	own, pr := "W", "b"
	if c.Owner == rules.Black {
		own, pr = "B", "w"
	}
	s := own + strconv.Itoa(c.Top)
	if c.Prisoners > 0 {
		s += pr + strconv.Itoa(c.Prisoners)
	}
	return s
}

// cellWidth fits the widest column, "[B10w12]" with the last-move marks.
const cellWidth = 8

// Diagram draws p as text, rank 9 at the top and file a on the left, every
// column written out with ColumnText so its make-up is visible. The squares
// of last (if not the zero Move) are put in brackets. Light squares are
// blank.
func Diagram(p *rules.Position, last rules.Move) string {
	g := p.Geometry()
	mark := map[rules.Square]bool{}
	if !last.IsZero() {
		for i := 0; i < last.Len(); i++ {
			mark[last.At(i)] = true
		}
	}
	var b strings.Builder
	files := func() {
		b.WriteString("   ")
		for f := 0; f < g.N; f++ {
			b.WriteString(center(string(rune('a'+f)), cellWidth))
		}
		b.WriteByte('\n')
	}
	rule := "   +" + strings.Repeat("-", g.N*cellWidth) + "+\n"
	files()
	b.WriteString(rule)
	for r := g.N - 1; r >= 0; r-- {
		rank := strconv.Itoa(r + 1)
		b.WriteString(" " + rank + " |")
		for f := 0; f < g.N; f++ {
			s := g.At(f, r)
			if s == rules.NoSquare {
				b.WriteString(strings.Repeat(" ", cellWidth))
				continue
			}
			t := ColumnText(p.At(s))
			if mark[s] {
				t = "[" + t + "]"
			}
			b.WriteString(center(t, cellWidth))
		}
		b.WriteString("| " + rank + "\n")
	}
	b.WriteString(rule)
	files()
	return b.String()
}

func center(s string, w int) string {
	if len(s) >= w {
		return s
	}
	left := (w - len(s)) / 2
	return strings.Repeat(" ", left) + s + strings.Repeat(" ", w-len(s)-left)
}
