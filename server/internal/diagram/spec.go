package diagram

import (
	"errors"
	"fmt"
	"strings"

	"emergo/notation"
	"emergo/rules"
)

// Spec is the source of one diagram, written in the page as a comment
// inside its <figure>, one key a line (a line that starts with white space
// goes on with the value before it):
//
//	<figure class="wide">
//	<!-- diagram
//	moves: a1 f6 g7 a7
//	position: 7x7 w 6/6 a1:W1 f6:B1 a7:B1 g7:W1
//	arrows: g7xe5
//	label: White's man on g7 is about to jump the black man on f6.
//	caption: White must jump the man on <code>f6</code>.
//	-->
//	... the figure, drawn by Rewrite ...
//	</figure>
type Spec struct {
	Line      int      // the line of the comment in the page, for messages
	Moves     []string // the game from the empty board, in move notation
	Position  string   // the position the moves reach, as position text
	Highlight []string // squares to tint, such as the centre
	// Dots is "entries" (a dot on every square where the player to move
	// may enter, a cross on every other empty square) or "steps SQ" (a dot
	// on every square the column on SQ may step to); empty for none.
	Dots    string
	Arrows  []string // legal moves of the position, drawn as arrows
	Dashed  []string // capture paths that are not legal, drawn dashed
	Last    bool     // tint the squares of the last move of Moves
	Label   string   // the accessible name of the drawing
	Caption string   // HTML, under the line that states the position
}

// ParseSpec reads the text of a diagram comment, the part between
// "<!-- diagram" and "-->". line is where it starts in the page.
func ParseSpec(text string, line int) (Spec, error) {
	s := Spec{Line: line}
	fail := func(format string, args ...any) (Spec, error) {
		return Spec{}, fmt.Errorf("diagram: line %d: %s", line, fmt.Sprintf(format, args...))
	}
	seen := map[string]bool{}
	var key string
	values := map[string]string{}
	for l := range strings.Lines(text) {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if l[0] == ' ' || l[0] == '\t' {
			if key == "" {
				return fail("%q continues no key", strings.TrimSpace(l))
			}
			values[key] += " " + strings.TrimSpace(l)
			continue
		}
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			return fail("%q is not key: value", strings.TrimSpace(l))
		}
		key = strings.TrimSpace(k)
		if seen[key] {
			return fail("%s is given twice", key)
		}
		seen[key] = true
		values[key] = strings.TrimSpace(v)
	}
	for _, k := range []string{"moves", "position", "label", "caption"} {
		if !seen[k] {
			return fail("missing %s:", k)
		}
	}
	for k, v := range values {
		switch k {
		case "moves":
			s.Moves = strings.Fields(v)
		case "position":
			s.Position = v
		case "highlight":
			s.Highlight = strings.Fields(v)
		case "dots":
			s.Dots = v
		case "arrows":
			s.Arrows = strings.Fields(v)
		case "dashed":
			s.Dashed = strings.Fields(v)
		case "last":
			if v != "yes" {
				return fail("last: is yes or left out, not %q", v)
			}
			s.Last = true
		case "label":
			s.Label = v
		case "caption":
			s.Caption = v
		default:
			return fail("unknown key %q (moves, position, highlight, dots, arrows, dashed, last, label, caption)", k)
		}
	}
	return s, nil
}

// Game replays the moves of s from the empty board and returns the game.
// It fails unless every move is legal and the game reaches exactly the
// position of s, which must hold every man of both players.
func (s *Spec) Game() (*rules.Game, error) {
	fail := func(format string, args ...any) (*rules.Game, error) {
		return nil, fmt.Errorf("diagram: line %d: %s", s.Line, fmt.Sprintf(format, args...))
	}
	want, err := notation.ParsePosition(s.Position)
	if err != nil {
		return fail("%v", err)
	}
	g := want.Geometry()
	for _, c := range []rules.Color{rules.White, rules.Black} {
		if n := want.Men(c); n != g.Men {
			return fail("%s has %d men on the board and in hand; a game on %dx%d keeps all %d (RULES 1.4)", c, n, g.N, g.N, g.Men)
		}
	}
	gm := rules.NewGame(g)
	if err := notation.PlayMoves(gm, s.Moves); err != nil {
		return fail("%v", err)
	}
	got := gm.Position()
	if got != want {
		return fail("the moves reach %q, not %q", notation.FormatPosition(&got), s.Position)
	}
	return gm, nil
}

// Figure returns what Rewrite puts in the page for s: the drawing and its
// caption, whose first line states the board, the side to move and the
// men in hand.
func (s *Spec) Figure() (string, error) {
	gm, err := s.Game()
	if err != nil {
		return "", err
	}
	m, err := s.marks(gm)
	if err != nil {
		return "", fmt.Errorf("diagram: line %d: %w", s.Line, err)
	}
	p := gm.Position()
	return SVG(&p, m, s.Label) + "\n<figcaption><strong>" + State(gm) + "</strong><br>\n" + s.Caption + "</figcaption>\n", nil
}

// State says, in HTML, what a diagram of the current position of gm cannot
// show: the board, the side to move, the men in hand and, at the end, the
// result.
func State(gm *rules.Game) string { return state(gm, "&times;") }

// state is State with the given multiplication sign between the sides of
// the board.
func state(gm *rules.Game, times string) string {
	p := gm.Position()
	g := p.Geometry()
	s := fmt.Sprintf("%d%s%d, %v to move; in hand: White %d, Black %d", g.N, times, g.N, p.Side(), p.Hand(rules.White), p.Hand(rules.Black))
	if o := gm.Outcome(); o.Over() {
		s += "; game over: " + o.String()
	}
	return s
}

// marks works out the marks of s on the position gm reached, checking
// every claim they make: arrows are legal moves, dashed arrows are not,
// dots are where the rules allow.
func (s *Spec) marks(gm *rules.Game) (Marks, error) {
	p := gm.Position()
	g := p.Geometry()
	var m Marks
	for _, name := range s.Highlight {
		sq, err := g.ParseSquare(name)
		if err != nil {
			return m, fmt.Errorf("highlight: %v", err)
		}
		m.Highlight = append(m.Highlight, sq)
	}
	if s.Last {
		if gm.Len() == 0 {
			return m, errors.New("last: no move has been played")
		}
		last := gm.Moves()[gm.Len()-1]
		for i := 0; i < last.Len(); i++ {
			m.Last = append(m.Last, last.At(i))
		}
	}
	for _, text := range s.Arrows {
		mv, err := notation.ParseMove(&p, text)
		if err != nil {
			return m, fmt.Errorf("arrows: %v", err)
		}
		path := make([]rules.Square, mv.Len())
		for i := range path {
			path[i] = mv.At(i)
		}
		m.Arrows = append(m.Arrows, path)
	}
	for _, text := range s.Dashed {
		if _, err := notation.ParseMove(&p, text); err == nil {
			return m, fmt.Errorf("dashed: %s is a legal move; a dashed arrow shows one that is not", text)
		}
		_, path, err := notation.ParseSquares(g, text)
		if err != nil {
			return m, fmt.Errorf("dashed: %v", err)
		}
		m.Dashed = append(m.Dashed, path)
	}
	legal := gm.Legal()
	switch kind, from, _ := strings.Cut(s.Dots, " "); kind {
	case "":
	case "entries":
		var allowed rules.Bitboard
		for _, mv := range legal {
			if mv.Kind() == rules.Entry {
				allowed |= 1 << mv.To()
			}
		}
		if allowed == 0 {
			return m, fmt.Errorf("dots: %s has no entry here", p.Side())
		}
		for sq := rules.Square(0); int(sq) < g.Squares; sq++ {
			switch {
			case allowed>>sq&1 == 1:
				m.Ok = append(m.Ok, sq)
			case p.Empty()>>sq&1 == 1:
				m.No = append(m.No, sq)
			}
		}
	case "steps":
		sq, err := g.ParseSquare(from)
		if err != nil {
			return m, fmt.Errorf("dots: %v", err)
		}
		for _, mv := range legal {
			if mv.Kind() == rules.Step && mv.From() == sq {
				m.Ok = append(m.Ok, mv.To())
			}
		}
		if len(m.Ok) == 0 {
			return m, fmt.Errorf("dots: the column on %s has no step here", from)
		}
	default:
		return m, fmt.Errorf("dots: %q is neither entries nor steps SQUARE", s.Dots)
	}
	return m, nil
}

// The comment that holds a diagram's source, and the end of its figure.
const (
	specStart = "<!-- diagram"
	specEnd   = "-->"
	figureEnd = "</figure>"
)

// Rewrite returns page with every diagram drawn anew from its source
// comment: everything between the comment and the </figure> after it is
// replaced. It also returns the sources, in page order.
func Rewrite(page string) (string, []Spec, error) {
	var out strings.Builder
	var specs []Spec
	rest := page
	for {
		i := strings.Index(rest, specStart)
		if i < 0 {
			out.WriteString(rest)
			return out.String(), specs, nil
		}
		line := strings.Count(page[:len(page)-len(rest)+i], "\n") + 1
		j := strings.Index(rest[i:], specEnd)
		if j < 0 {
			return "", nil, fmt.Errorf("diagram: line %d: the comment does not end", line)
		}
		j += i
		k := strings.Index(rest[j:], figureEnd)
		if k < 0 {
			return "", nil, fmt.Errorf("diagram: line %d: no %s after the comment", line, figureEnd)
		}
		k += j
		s, err := ParseSpec(rest[i+len(specStart):j], line)
		if err != nil {
			return "", nil, err
		}
		fig, err := s.Figure()
		if err != nil {
			return "", nil, err
		}
		specs = append(specs, s)
		out.WriteString(rest[:j+len(specEnd)])
		out.WriteString("\n" + fig)
		rest = rest[k:]
	}
}
