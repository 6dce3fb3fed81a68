package analysis

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"

	"emergo/rules"
)

// The chart's frame, in pixels.
const (
	chartW, chartH = 800, 340
	padL, padR     = 56, 16
	padT, padB     = 36, 44
	plotW          = chartW - padL - padR
	plotH          = chartH - padT - padB
)

// SVG draws the evaluation after every move of a game as a standalone SVG
// image: White's point of view upwards, clamped to ±Clamp (ten men, where
// a forced win is drawn too), with a zero line, the move numbers along
// the bottom and a dot on every mistake and blunder. The line has one
// point per note, in order; title, if not empty, heads the chart.
func SVG(title string, g *rules.Geometry, notes []MoveNote) []byte {
	var b bytes.Buffer
	esc := func(s string) string {
		var e strings.Builder
		_ = xml.EscapeText(&e, []byte(s))
		return e.String()
	}
	n := max(len(notes), 1)
	x := func(ply int) float64 { return padL + float64(ply)*plotW/float64(n) }
	y := func(v int32) float64 { return padT + float64(Clamp-clamp(v))*plotH/(2*Clamp) }

	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n",
		chartW, chartH, chartW, chartH)
	if title != "" {
		fmt.Fprintf(&b, "<title>%s</title>\n", esc(title))
		fmt.Fprintf(&b, `<text x="%d" y="22" font-size="14">%s</text>`+"\n", padL, esc(title))
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#fafafa" stroke="#888"/>`+"\n", padL, padT, plotW, plotH)

	// Horizontal lines every five men, the zero line stronger.
	for v := int32(-Clamp); v <= Clamp; v += Clamp / 2 {
		stroke, width := "#ddd", "1"
		if v == 0 {
			stroke, width = "#444", "1.5"
		}
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s" stroke-width="%s"/>`+"\n",
			padL, y(v), padL+plotW, y(v), stroke, width)
		label := fmt.Sprintf("%+d", v/100)
		if v == 0 {
			label = "0"
		}
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", padL-6, y(v), label)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#666">White ahead</text>`+"\n", padL+6, padT+14)
	fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#666">Black ahead</text>`+"\n", padL+6, padT+plotH-6)

	// Move numbers: a tick where each numbered move begins, labelled at a
	// step that keeps about fifteen labels at most.
	if len(notes) > 0 {
		last := moveNum(notes[len(notes)-1].Number)
		step := niceStep(last / 15)
		seen := map[int]bool{}
		for i, nt := range notes {
			num := moveNum(nt.Number)
			if seen[num] {
				continue
			}
			seen[num] = true
			if num%step != 0 && num != 1 {
				continue
			}
			xi := x(i + 1)
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#888"/>`+"\n", xi, padT+plotH, xi, padT+plotH+4)
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", xi, padT+plotH+16, num)
		}
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">move</text>`+"\n", padL+plotW/2, chartH-8)

	// The evaluation, one point per move.
	pts := make([]string, len(notes))
	for i, nt := range notes {
		pts[i] = fmt.Sprintf("%.1f,%.1f", x(i+1), y(nt.After))
	}
	fmt.Fprintf(&b, `<polyline class="eval" fill="none" stroke="#2060c0" stroke-width="2" points="%s"/>`+"\n", strings.Join(pts, " "))

	for i, nt := range notes {
		if nt.Mark == Good {
			continue
		}
		fill := "#f0a000"
		if nt.Mark == Blunder {
			fill = "#d02020"
		}
		tip := fmt.Sprintf("%s %s%s %s: -%s", nt.Number, nt.Move.Text(g), nt.Mark, nt.Mark.Name(), men(nt.Loss))
		fmt.Fprintf(&b, `<circle class="%s" cx="%.1f" cy="%.1f" r="4" fill="%s"><title>%s</title></circle>`+"\n",
			nt.Mark.Name(), x(i+1), y(nt.After), fill, esc(tip))
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// moveNum reads the number of a move number such as "14" or "14...".
func moveNum(s string) int {
	n := 0
	for i := 0; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		n = 10*n + int(s[i]-'0')
	}
	return n
}

// niceStep returns the smallest of 1, 2, 5, 10, 20, 50, ... not below x.
func niceStep(x int) int {
	for s := 1; ; s *= 10 {
		for _, k := range []int{1, 2, 5} {
			if k*s >= x {
				return k * s
			}
		}
	}
}
