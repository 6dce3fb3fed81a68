package diagram

import (
	"errors"
	"fmt"
	"strings"

	"emergo/notation"
	"emergo/rules"
)

// Spec is the source of one diagram, written in the page as a comment
// inside its <figure>: the word diagram and the diagram's name, then one
// key a line (a line that starts with white space goes on with the value
// before it):
//
//	<figure class="wide">
//	<!-- diagram jump
//	moves: a1 f6 g7 a7
//	position: 7x7 w 6/6 a1:W1 f6:B1 a7:B1 g7:W1
//	arrows: g7xe5
//	label: White's man on g7 is about to jump the black man on f6.
//	caption: White must jump the man on <code>f6</code>.
//	-->
//	... the figure, drawn by Rewrite ...
//	</figure>
//
// A translated page gives the name, the label and the caption only:
//
//	<!-- diagram jump
//	label: A dama branca em g7 vai saltar a dama preta em f6.
//	caption: As Brancas têm de saltar a dama em <code>f6</code>.
//	-->
type Spec struct {
	Name      string   // names the diagram in the translations
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

// fields reads the text of a diagram comment, the part after
// "<!-- diagram", into the diagram's name and its keys and values.
func fields(text string, line int) (string, map[string]string, error) {
	fail := func(format string, args ...any) (string, map[string]string, error) {
		return "", nil, fmt.Errorf("diagram: line %d: %s", line, fmt.Sprintf(format, args...))
	}
	first, text, _ := strings.Cut(text, "\n")
	name := strings.TrimSpace(first)
	if name == "" || strings.ContainsAny(name, " \t") {
		return fail("%q is not a diagram's name (<!-- diagram NAME)", name)
	}
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
		if _, seen := values[key]; seen {
			return fail("%s is given twice", key)
		}
		values[key] = strings.TrimSpace(v)
	}
	return name, values, nil
}

// ParseSpec reads the text of a diagram comment with its whole source, the
// part between "<!-- diagram" and "-->". line is where it starts in the
// page.
func ParseSpec(text string, line int) (Spec, error) {
	fail := func(format string, args ...any) (Spec, error) {
		return Spec{}, fmt.Errorf("diagram: line %d: %s", line, fmt.Sprintf(format, args...))
	}
	name, values, err := fields(text, line)
	if err != nil {
		return Spec{}, err
	}
	s := Spec{Name: name, Line: line}
	for _, k := range []string{"moves", "position", "label", "caption"} {
		if _, ok := values[k]; !ok {
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

// ParseTranslation reads the text of a diagram comment of a translated
// page, which names a diagram of sources and gives its label and caption,
// and returns that source with them.
func ParseTranslation(text string, line int, sources map[string]Spec) (Spec, error) {
	fail := func(format string, args ...any) (Spec, error) {
		return Spec{}, fmt.Errorf("diagram: line %d: %s", line, fmt.Sprintf(format, args...))
	}
	name, values, err := fields(text, line)
	if err != nil {
		return Spec{}, err
	}
	s, ok := sources[name]
	if !ok {
		return fail("no diagram %q in the source page", name)
	}
	for k := range values {
		if k != "label" && k != "caption" {
			return fail("%s: a translation takes its diagram from the source page and gives only label and caption", k)
		}
	}
	for _, k := range []string{"label", "caption"} {
		if _, ok := values[k]; !ok {
			return fail("missing %s:", k)
		}
	}
	s.Line, s.Label, s.Caption = line, values["label"], values["caption"]
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

// Figure returns what Rewrite puts in a page in the language l for s: the
// drawing and its caption, whose first line states the board, the side to
// move and the men in hand.
func (s *Spec) Figure(l *Lang) (string, error) {
	gm, err := s.Game()
	if err != nil {
		return "", err
	}
	m, err := s.marks(gm)
	if err != nil {
		return "", fmt.Errorf("diagram: line %d: %w", s.Line, err)
	}
	p := gm.Position()
	return SVG(&p, m, s.Label, l) + "\n<figcaption><strong>" + l.state(gm, "&times;") + "</strong><br>\n" + s.Caption + "</figcaption>\n", nil
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

// Rewrite returns page, written in the language l, with every diagram
// drawn anew: everything between its comment and the </figure> after it
// is replaced. With sources nil the page holds the whole source of every
// diagram (ParseSpec); otherwise it is a translation, and each diagram is
// the one of sources with its name, with the page's label and caption
// (ParseTranslation). It also returns the diagrams, in page order.
func Rewrite(page string, l *Lang, sources []Spec) (string, []Spec, error) {
	var byName map[string]Spec
	if sources != nil {
		byName = make(map[string]Spec, len(sources))
		for _, s := range sources {
			byName[s.Name] = s
		}
	}
	var out strings.Builder
	var specs []Spec
	seen := map[string]int{}
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
		var s Spec
		var err error
		if byName == nil {
			s, err = ParseSpec(rest[i+len(specStart):j], line)
		} else {
			s, err = ParseTranslation(rest[i+len(specStart):j], line, byName)
		}
		if err != nil {
			return "", nil, err
		}
		if before, ok := seen[s.Name]; ok {
			return "", nil, fmt.Errorf("diagram: line %d: the diagram %q is drawn at line %d already", line, s.Name, before)
		}
		seen[s.Name] = line
		fig, err := s.Figure(l)
		if err != nil {
			return "", nil, err
		}
		specs = append(specs, s)
		out.WriteString(rest[:j+len(specEnd)])
		out.WriteString("\n" + fig)
		rest = rest[k:]
	}
}
