package diagram

import (
	"fmt"
	"strings"

	"emergo/notation"
	"emergo/rules"
)

// RewriteText returns a Markdown document with every text diagram drawn
// anew: a fenced block whose first line is a position text becomes that
// text in canonical form, a blank line, the board as notation.Diagram
// draws it (the drawing of `emergo show`) and a line that says who is to
// move, the men in hand and, if the game is over there, its result. The
// positions may be composed ones that leave out men who play no part.
func RewriteText(doc string) (string, error) {
	var out strings.Builder
	lines := strings.SplitAfter(doc, "\n")
	for i := 0; i < len(lines); i++ {
		out.WriteString(lines[i])
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		end := i + 1
		for end < len(lines) && !strings.HasPrefix(lines[end], "```") {
			end++
		}
		if end == len(lines) {
			return "", fmt.Errorf("diagram: line %d: the block does not end", i+1)
		}
		body := strings.Join(lines[i+1:end], "")
		if first, _, _ := strings.Cut(body, "\n"); first != "" {
			if p, err := notation.ParsePosition(first); err == nil {
				var b strings.Builder
				b.WriteString(notation.FormatPosition(&p) + "\n\n")
				b.WriteString(notation.Diagram(&p, rules.Move{}))
				b.WriteString(English.state(rules.NewGameFrom(p), "x") + "\n")
				body = b.String()
			}
		}
		out.WriteString(body + lines[end])
		i = end
	}
	return out.String(), nil
}
