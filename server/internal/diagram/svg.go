// Package diagram draws the board diagrams of the site's rules pages
// (server/web/rules.html and its translations, rules.pt.html,
// rules.ru.html, rules.lfn.html) from position text, and keeps the pages'
// diagrams true to the game. Each diagram's source sits in the English page
// as an HTML comment: its name, the moves of a game from the empty board,
// the position they reach, and what to mark on it. Rewrite replays the
// moves with package rules, checks that they reach that position, and draws
// the figure, so a diagram can only show a position that a real game
// reaches. A translated page names each diagram and gives only its label
// and caption; the drawing comes from the English page's source, with the
// words the package writes itself (Lang) in the page's language.
//
// The drawing follows the game board of server/web/board.js: the same
// units, coordinates and classes of server/web/style.css, every column a
// pile of coins with its count label and a <title>.
package diagram

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"emergo/rules"
)

// Drawing units, as in board.js: a square is cell wide, and the margins
// hold the coordinates.
const (
	cell         = 100
	marginLeft   = 34
	marginBottom = 34
	marginTop    = 6
	marginRight  = 6
)

// A man is a coin seen from above at an angle (board.js: RX, RY, TH).
const (
	coinRX    = 32
	coinRY    = 15
	coinThick = 7
	pileMax   = 44 // the height a pile may take within its square
)

// Marks says what a figure shows on top of the position.
type Marks struct {
	Highlight []rules.Square // squares tinted, such as the centre
	Last      []rules.Square // the squares of the move just played
	Ok        []rules.Square // a dot: an allowed entry or destination
	No        []rules.Square // a cross: a square where the man may not go
	Arrows    [][]rules.Square
	Dashed    [][]rules.Square // arrows of moves that are not allowed
}

// SVG draws p with its marks as an inline <svg> of a rules page in the
// language l. label is its accessible name and title.
func SVG(p *rules.Position, m Marks, label string, l *Lang) string {
	g := p.Geometry()
	n := g.N
	w := marginLeft + n*cell + marginRight
	h := marginTop + n*cell + marginBottom
	var b strings.Builder
	label = html.EscapeString(label)
	fmt.Fprintf(&b, `<svg class="board diagram" viewBox="0 0 %d %d" role="img" aria-label="%s" xmlns="http://www.w3.org/2000/svg"><title>%s</title>`, w, h, label, label)
	fmt.Fprintf(&b, `<rect class="frame" x="%d" y="%d" width="%d" height="%d" rx="6"/>`, marginLeft-4, marginTop-4, n*cell+8, n*cell+8)

	// The light squares first, rank n at the top.
	b.WriteString(`<g class="light">`)
	for row := 0; row < n; row++ {
		for f := 0; f < n; f++ {
			if g.At(f, n-1-row) == rules.NoSquare {
				fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d"/>`, marginLeft+f*cell, marginTop+row*cell, cell, cell)
			}
		}
	}
	b.WriteString(`</g><g class="coords" aria-hidden="true">`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%c</text>`, marginLeft+i*cell+cell/2, marginTop+n*cell+27, 'a'+i)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%d</text>`, marginLeft/2-1, marginTop+i*cell+cell/2+8, n-i)
	}
	b.WriteString(`</g>`)

	set := func(sq []rules.Square) map[rules.Square]bool {
		s := make(map[rules.Square]bool, len(sq))
		for _, x := range sq {
			s[x] = true
		}
		return s
	}
	hi, last, ok, no := set(m.Highlight), set(m.Last), set(m.Ok), set(m.No)

	// The dark squares from the top down, so that nothing of a lower square
	// hides under the column of the square above it.
	for row := 0; row < n; row++ {
		for f := 0; f < n; f++ {
			s := g.At(f, n-1-row)
			if s == rules.NoSquare {
				continue
			}
			x, y := marginLeft+f*cell, marginTop+row*cell
			if last[s] {
				b.WriteString(`<g class="sq last">`)
			} else {
				b.WriteString(`<g class="sq">`)
			}
			fmt.Fprintf(&b, `<rect class="bg" x="%d" y="%d" width="%d" height="%d"/>`, x, y, cell, cell)
			// Inset as the board of the game page insets them (board.js),
			// so that their frames stay within the square.
			if last[s] {
				fmt.Fprintf(&b, `<rect class="hl" x="%d" y="%d" width="%d" height="%d" rx="3"/>`, x+6, y+6, cell-12, cell-12)
			}
			if hi[s] {
				fmt.Fprintf(&b, `<rect class="mark-sq" x="%d" y="%d" width="%d" height="%d" rx="3"/>`, x+6, y+6, cell-12, cell-12)
			}
			if c := p.At(s); !c.Empty() {
				drawColumn(&b, l.columnTitle(g.Name(s), c), x, y, c)
			}
			cx, cy := x+cell/2, y+cell/2
			if ok[s] {
				fmt.Fprintf(&b, `<circle class="mark-ok" cx="%d" cy="%d" r="15"/>`, cx, cy)
			}
			if no[s] {
				fmt.Fprintf(&b, `<path class="mark-no" d="M%d,%dl28,28m0,-28l-28,28"/>`, cx-14, cy-14)
			}
			b.WriteString(`</g>`)
		}
	}
	for _, a := range m.Dashed {
		drawArrow(&b, g, a, " dashed")
	}
	for _, a := range m.Arrows {
		drawArrow(&b, g, a, "")
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// centre returns the middle of square s in drawing units.
func centre(g *rules.Geometry, s rules.Square) (x, y float64) {
	f, r := g.FileRank(s)
	return float64(marginLeft + f*cell + cell/2), float64(marginTop + (g.N-1-r)*cell + cell/2)
}

// drawArrow draws a line through the centres of path, ending in a head
// just short of the last square's centre.
func drawArrow(b *strings.Builder, g *rules.Geometry, path []rules.Square, class string) {
	pts := make([][2]float64, len(path))
	for i, s := range path {
		pts[i][0], pts[i][1] = centre(g, s)
	}
	// The last leg stops where the head begins; the head's tip stops short
	// of the centre so that it does not cover the man there.
	const tipGap, headLen, headHalf = 8, 28, 16
	a, z := pts[len(pts)-2], pts[len(pts)-1]
	dx, dy := z[0]-a[0], z[1]-a[1]
	d := math.Sqrt(dx*dx + dy*dy)
	ux, uy := dx/d, dy/d
	tip := [2]float64{z[0] - tipGap*ux, z[1] - tipGap*uy}
	base := [2]float64{tip[0] - headLen*ux, tip[1] - headLen*uy}
	pts[len(pts)-1] = [2]float64{tip[0] - (headLen-6)*ux, tip[1] - (headLen-6)*uy}
	fmt.Fprintf(b, `<polyline class="arrow%s" points="`, class)
	for i, p := range pts {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(num(p[0]) + "," + num(p[1]))
	}
	fmt.Fprintf(b, `"/><path class="arrow-head%s" d="M%s,%sL%s,%sL%s,%sz"/>`, class,
		num(tip[0]), num(tip[1]),
		num(base[0]-headHalf*uy), num(base[1]+headHalf*ux),
		num(base[0]+headHalf*uy), num(base[1]-headHalf*ux))
}

// num writes a coordinate with at most one decimal.
func num(v float64) string {
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}

// drawColumn draws the column c of a square whose corner is (x, y): its
// tooltip title, the pile of coins and, on a column of more than one man,
// the count label (board.js: drawColumn).
func drawColumn(b *strings.Builder, title string, x, y int, c rules.Column) {
	owner, other := "white", "black"
	if c.Owner == rules.Black {
		owner, other = other, owner
	}
	fmt.Fprintf(b, `<g><title>%s</title>`, title)

	// The pile: prisoners at the bottom, the owner's men on top of them.
	cx, cy := float64(x+cell/2), float64(y+cell/2)
	count := c.Height()
	step := 0.0
	if count > 1 {
		step = min(10, float64(pileMax)/float64(count-1))
	}
	yBottom := cy + (float64(count-1)*step-coinThick)/2
	for i := 0; i < count; i++ {
		colour := owner
		if i < c.Prisoners {
			colour = other
		}
		coin(b, cx, yBottom-float64(i)*step, colour[:1], i == count-1)
	}
	if count > 1 {
		badge(b, x+cell-3, y+cell-3, owner, c.Top, other, c.Prisoners)
	}
	b.WriteString(`</g>`)
}

// coin draws one man: its side band, its face and, on the top man, a ring.
func coin(b *strings.Builder, cx, y float64, c string, top bool) {
	fmt.Fprintf(b, `<path class="man-side %s" d="M%s,%sv%da%d,%d 0 0 0 %d,0v-%dz"/>`, c, num(cx-coinRX), num(y), coinThick, coinRX, coinRY, 2*coinRX, coinThick)
	fmt.Fprintf(b, `<ellipse class="man-face %s" cx="%s" cy="%s" rx="%d" ry="%d"/>`, c, num(cx), num(y), coinRX, coinRY)
	if top {
		fmt.Fprintf(b, `<ellipse class="man-ring %s" cx="%s" cy="%s" rx="%s" ry="%s"/>`, c, num(cx), num(y), num(coinRX*0.62), num(coinRY*0.62))
	}
}

// badge draws the count label whose lower right corner is (x, y): a chip
// in the owner's colour with his men, then one in the other colour with
// the prisoners, if any.
func badge(b *strings.Builder, x, y int, owner string, top int, other string, prisoners int) {
	type chip struct {
		colour string
		n, w   int
	}
	chips := []chip{{owner[:1], top, 0}}
	if prisoners > 0 {
		chips = append(chips, chip{other[:1], prisoners, 0})
	}
	total := 2 * (len(chips) - 1)
	for i := range chips {
		chips[i].w = 14 + 15*len(strconv.Itoa(chips[i].n))
		total += chips[i].w
	}
	px := x - total
	b.WriteString(`<g class="badge">`)
	for _, c := range chips {
		fmt.Fprintf(b, `<rect class="chip %s" x="%d" y="%d" width="%d" height="32" rx="7"/>`, c.colour, px, y-32, c.w)
		fmt.Fprintf(b, `<text class="chip-text %s" x="%s" y="%d" text-anchor="middle">%d</text>`, c.colour, num(float64(px)+float64(c.w)/2), y-7, c.n)
		px += c.w + 2
	}
	b.WriteString(`</g>`)
}
