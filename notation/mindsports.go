package notation

import (
	"fmt"
	"strings"

	"emergo/rules"
)

// MindSports, the designer's site, names a square by the two oblique lines
// through it (RULES 7.5): a letter for the line L = (f-r)/2 + c and a number
// for N = (f+r)/2, with f and r counted from 1 and c = 5 on 9x9, 4 on 7x7.
// Its moves are the squares of the path joined by "-", whatever the kind.

// MindSportsSquare returns the MindSports name of s, such as "e4" for d4.
func MindSportsSquare(g *rules.Geometry, s rules.Square) string {
	f, r := g.FileRank(s)
	f, r = f+1, r+1
	c := (g.N + 1) / 2
	l := (f-r)/2 + c
	n := (f + r) / 2
	return fmt.Sprintf("%c%d", 'a'+l-1, n)
}

// ParseMindSportsSquare reads a MindSports square name.
func ParseMindSportsSquare(g *rules.Geometry, name string) (rules.Square, error) {
	if len(name) != 2 || name[0] < 'a' || name[0] > 'z' || name[1] < '1' || name[1] > '9' {
		return rules.NoSquare, fmt.Errorf("%q is not a MindSports square name", name)
	}
	c := (g.N + 1) / 2
	l, n := int(name[0]-'a')+1, int(name[1]-'0')
	// Inverting L = (f-r)/2 + c and N = (f+r)/2.
	f, r := n+l-c, n-l+c
	s := g.At(f-1, r-1)
	if s == rules.NoSquare {
		return rules.NoSquare, fmt.Errorf("%s is not a square of the %dx%d board in MindSports notation", name, g.N, g.N)
	}
	return s, nil
}

// MindSportsMove writes m in MindSports notation: its squares joined by
// "-".
func MindSportsMove(g *rules.Geometry, m rules.Move) string {
	parts := make([]string, m.Len())
	for i := range parts {
		parts[i] = MindSportsSquare(g, m.At(i))
	}
	return strings.Join(parts, "-")
}

// ParseMindSportsMove reads a move in MindSports notation and returns the
// legal move of p with that path. Steps and captures are both written with
// "-", so the path alone decides.
func ParseMindSportsMove(p *rules.Position, text string) (rules.Move, error) {
	g := p.Geometry()
	bad := func(problem SyntaxProblem, err error) (rules.Move, error) {
		return rules.Move{}, &MoveError{Text: text, Err: &SyntaxError{Problem: problem, Err: err}}
	}
	fields := strings.FieldsFunc(strings.ToLower(strings.TrimSpace(text)), func(r rune) bool { return r == '-' || r == 'x' })
	if len(fields) == 0 {
		return bad(EmptyMove, nil)
	}
	path := make([]rules.Square, len(fields))
	for i, f := range fields {
		s, err := ParseMindSportsSquare(g, f)
		if err != nil {
			return bad(NotASquare, err)
		}
		path[i] = s
	}
	m, ok := rules.CaptureMove(path)
	switch {
	case len(path) == 1:
		m = rules.EntryMove(path[0])
	case len(path) == 2 && !p.CanCapture():
		m = rules.StepMove(path[0], path[1])
	case !ok:
		return bad(LongCapture, nil)
	}
	if why := p.Why(m); why != nil {
		// Say why in the project's own notation, as the reasons do.
		return rules.Move{}, fmt.Errorf("MindSports %q is %w", text, &MoveError{Text: m.Text(g), Err: why})
	}
	return m, nil
}
