package diagram_test

import (
	"strings"
	"testing"

	"emergo/server/internal/diagram"
)

// figure is a page with one diagram whose source has the given lines.
func figure(source string) string {
	return "<p>before</p>\n<figure class=\"wide\">\n<!-- diagram one\n" + source + "-->\nold drawing\n</figure>\n<p>after</p>\n"
}

func TestRewriteDrawsFromSource(t *testing.T) {
	page := figure(`moves: c3
position: 7x7 b 7/8 c3:W1
dots: entries
label: After 1.c3 & a caption
caption: Black may not enter
  next to <code>c3</code>.
`)
	got, specs, err := diagram.Rewrite(page, diagram.English, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) != 1 || specs[0].Line != 3 || specs[0].Name != "one" {
		t.Fatalf("specs %+v, want one at line 3", specs)
	}
	for _, want := range []string{
		"<p>before</p>\n<figure class=\"wide\">\n<!-- diagram one\n", // the source stays
		"-->\n<svg class=\"board diagram\" viewBox=\"0 0 740 740\"",
		`aria-label="After 1.c3 &amp; a caption"`,
		"<figcaption><strong>7&times;7, Black to move; in hand: White 7, Black 8</strong><br>\nBlack may not enter next to <code>c3</code>.</figcaption>\n</figure>\n<p>after</p>\n",
		`<title>c3: White's column, 1 white man on top</title>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("rewritten page lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "old drawing") {
		t.Error("the old drawing is still there")
	}
	// After 1.c3 on 7x7 Black may enter on 20 squares; b2, d2, b4 and d4
	// are crossed.
	if n := strings.Count(got, `class="mark-ok"`); n != 20 {
		t.Errorf("%d dots, want 20", n)
	}
	if n := strings.Count(got, `class="mark-no"`); n != 4 {
		t.Errorf("%d crosses, want 4", n)
	}
	again, _, err := diagram.Rewrite(got, diagram.English, nil)
	if err != nil || again != got {
		t.Errorf("rewriting twice changes the page (err %v)", err)
	}
}

// TestRewriteDrawsColumns checks a pile with prisoners, its label and an
// arrow.
func TestRewriteDrawsColumns(t *testing.T) {
	page := figure(`moves: d2 c7 b2 a3 b6 a3xc1xe3 d2 c7xa5
position: 7x7 w 4/6 d2:W1 e3:B1w2 a5:B1w1
arrows: d2xf4
label: x
caption: x
`)
	got, _, err := diagram.Rewrite(page, diagram.English, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<title>e3: Black's column, 1 black man on top of 2 white prisoners</title>`,
		`<rect class="chip b" x="`, `<rect class="chip w" x="`,
		`<polyline class="arrow" points="384,556 `,
		`class="man-ring b"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("drawing lacks %q", want)
		}
	}
	if n := strings.Count(got, `class="man-face`); n != 1+3+2 {
		t.Errorf("%d men drawn, want 6", n)
	}
}

// TestRewriteRefuses lists sources whose claims the game does not bear
// out, and malformed ones.
func TestRewriteRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, source, want string
	}{
		{"composed position", "moves:\nposition: 7x7 w 0/0 d4:W1 c5:B1\nlabel: x\ncaption: x\n",
			"White has 1 men on the board and in hand; a game on 7x7 keeps all 8"},
		{"moves reach another position", "moves: c3\nposition: 7x7 b 7/8 e3:W1\nlabel: x\ncaption: x\n",
			`the moves reach "7x7 b 7/8 c3:W1", not "7x7 b 7/8 e3:W1"`},
		{"illegal move", "moves: d4\nposition: 7x7 b 7/8 d4:W1\nlabel: x\ncaption: x\n",
			`move 1 "d4": the first move may not be on the centre d4 (RULES 4.3)`},
		{"move after the end", "moves: a3 g3 d6 a5 f6 g1 c1 g7 b4 g7xe5xc7 b6 a5xc3 d2 c3xe1 b2 c7xa5 a3-b4 a5xc3xa1 c1-d2 e1xc3 a5\nposition: 7x7 w 0/4 a1:B1w5 g1:B1 c3:B1w3 g3:B1\nlabel: x\ncaption: x\n",
			`move 21 "a5": the game is over (0-1, all men taken prisoner)`},
		{"arrow not legal", "moves: c3 d6 e7 b4\nposition: 7x7 w 6/6 c3:W1 b4:B1 d6:B1 e7:W1\narrows: c3xa5\nlabel: x\ncaption: x\n",
			"arrows: \"c3xa5\": a capture of 2 men is compulsory (majority rule, RULES 3.6)"},
		{"dashed but legal", "moves: c3 d6 e7 b4\nposition: 7x7 w 6/6 c3:W1 b4:B1 d6:B1 e7:W1\ndashed: e7xc5xa3\nlabel: x\ncaption: x\n",
			"dashed: e7xc5xa3 is a legal move"},
		{"no entries", "moves: c3 d6 e7 b4\nposition: 7x7 w 6/6 c3:W1 b4:B1 d6:B1 e7:W1\ndots: entries\nlabel: x\ncaption: x\n",
			"dots: White has no entry here"},
		{"no steps", "moves: c3\nposition: 7x7 b 7/8 c3:W1\ndots: steps c3\nlabel: x\ncaption: x\n",
			"dots: the column on c3 has no step here"},
		{"last without moves", "moves:\nposition: 7x7 w 8/8 -\nlast: yes\nlabel: x\ncaption: x\n",
			"last: no move has been played"},
		{"unknown key", "moves:\nposition: 7x7 w 8/8 -\ncolour: red\nlabel: x\ncaption: x\n",
			`unknown key "colour"`},
		{"missing caption", "moves:\nposition: 7x7 w 8/8 -\nlabel: x\n",
			"missing caption:"},
		{"key twice", "moves:\nmoves: c3\nposition: 7x7 w 8/8 -\nlabel: x\ncaption: x\n",
			"moves is given twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := diagram.Rewrite(figure(tc.source), diagram.English, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "diagram: line 3: ") {
				t.Errorf("error %v, want one at line 3 with %q", err, tc.want)
			}
		})
	}
}

func TestRewriteText(t *testing.T) {
	doc := "# Cases\n\n```\n9x9 w 0/0  e5:B1 d4:W3\nold\n```\n\n```\nnot a position\n```\n"
	got, err := diagram.RewriteText(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := "# Cases\n\n```\n9x9 w 0/0 d4:W3 e5:B1\n\n" +
		"      a       b       c       d       e       f       g       h       i    \n" +
		"   +------------------------------------------------------------------------+\n"
	if !strings.HasPrefix(got, want) {
		t.Errorf("got\n%s\nwant it to start with\n%s", got, want)
	}
	for _, want := range []string{
		" 4 |           .               W3              .               .            | 4\n",
		"White to move; in hand: White 0, Black 0\n```\n\n```\nnot a position\n```\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("got\n%s\nwant it to contain\n%q", got, want)
		}
	}
	if _, err := diagram.RewriteText("```\n9x9 w 12/12 -\n"); err == nil {
		t.Error("a block without its end is accepted")
	}
}

// TestRewriteTranslation draws a translated page from the source page's
// diagram: the drawing alike, the page's label and caption, the package's
// own words in the page's language.
func TestRewriteTranslation(t *testing.T) {
	_, sources, err := diagram.Rewrite(figure(`moves: d2 c7 b2 a3 b6 a3xc1xe3 d2 c7xa5
position: 7x7 w 4/6 d2:W1 e3:B1w2 a5:B1w1
arrows: d2xf4
label: x
caption: x
`), diagram.English, nil)
	if err != nil {
		t.Fatal(err)
	}
	page := "<h1>Правила</h1>\n<figure>\n<!-- diagram one\nlabel: Белые бьют e3 & освобождают\ncaption: Белые бьют\n  <code>e3</code>.\n-->\n</figure>\n"
	got, specs, err := diagram.Rewrite(page, diagram.Russian, sources)
	if err != nil {
		t.Fatal(err)
	}
	if len(specs) != 1 || specs[0].Line != 3 || specs[0].Position != sources[0].Position || specs[0].Label != "Белые бьют e3 & освобождают" {
		t.Errorf("specs %+v, want the source's diagram at line 3 with the page's label", specs)
	}
	for _, want := range []string{
		`aria-label="Белые бьют e3 &amp; освобождают"`,
		`<title>e3: башня чёрных: 1 чёрная шашка сверху, 2 белые пленные внизу</title>`,
		`<title>a5: башня чёрных: 1 чёрная шашка сверху, 1 белая пленная внизу</title>`,
		`<title>d2: башня белых: 1 белая шашка</title>`,
		`<polyline class="arrow" points="384,556 `,
		"<figcaption><strong>7&times;7, ход белых; на руках: у белых 4, у чёрных 6</strong><br>\nБелые бьют <code>e3</code>.</figcaption>\n</figure>\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("translated page lacks %q:\n%s", want, got)
		}
	}
}

// TestColumnTitles checks the plural forms of the tooltips in every
// language, and the result in the caption's first line, on the blocked
// position of the rules page (RULES 6.2).
func TestColumnTitles(t *testing.T) {
	page := figure(`moves: f4 b6 d4 f6 c3 a5 d6 c7 f2 c7xe5xg3xe1 b2 f4 d2 f2 a3 g1 b2-c1 f4-g5 a3-b2 g5-f4 d4-e5 f6xd4 c3xe5xg3 e1xc3xa1 g3xe1 a1-b2 c1xa3 b6-a7 d4-e3 a5-b6 e1-f2 b6-a5 b2-a1 a5-b4 a3xc5 a7-b6 c5xa7
position: 7x7 b 0/0 a1:W5 g1:B2 f2:W1b3 e3:W1 a7:W1b3
label: x
caption: x
`)
	for _, tc := range []struct {
		name string
		lang *diagram.Lang
		want []string
	}{
		{"en", diagram.English, []string{
			"a1: White's column, 5 white men on top</title>",
			"g1: Black's column, 2 black men on top</title>",
			"f2: White's column, 1 white man on top of 3 black prisoners</title>",
			"e3: White's column, 1 white man on top</title>",
			"7&times;7, Black to move; in hand: White 0, Black 0; game over: 1/2-1/2 (no legal move)</strong>",
		}},
		{"pt", diagram.Portuguese, []string{
			"a1: coluna das Brancas: 5 damas brancas</title>",
			"g1: coluna das Pretas: 2 damas pretas</title>",
			"f2: coluna das Brancas: 1 dama branca sobre 3 prisioneiras pretas</title>",
			"7&times;7, turno das Pretas; na mão: Brancas 0, Pretas 0; fim do jogo: 1/2-1/2 (nenhum lance válido)</strong>",
		}},
		{"ru", diagram.Russian, []string{
			"a1: башня белых: 5 белых шашек</title>",
			"g1: башня чёрных: 2 чёрные шашки</title>",
			"f2: башня белых: 1 белая шашка сверху, 3 чёрные пленные внизу</title>",
			"e3: башня белых: 1 белая шашка</title>",
			"7&times;7, ход чёрных; на руках: у белых 0, у чёрных 0; партия окончена: 1/2-1/2 (нет возможных ходов)</strong>",
		}},
		{"lfn", diagram.Elefen, []string{
			"a1: colona de Blanca: 5 pesos blanca</title>",
			"g1: colona de Negra: 2 pesos negra</title>",
			"f2: colona de Blanca: 1 peso blanca sur 3 prisonidas negra</title>",
			"7&times;7, turno de Negra; en mano: Blanca 0, Negra 0; la jua ia fini: 1/2-1/2 (nun move legal)</strong>",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := diagram.Rewrite(page, tc.lang, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.want {
				if !strings.Contains(got, want) {
					t.Errorf("page lacks %q", want)
				}
			}
		})
	}
}

// TestRewriteTranslationRefuses lists translated diagrams that do not
// match the source page, and pages that draw a diagram twice.
func TestRewriteTranslationRefuses(t *testing.T) {
	sources := []diagram.Spec{{Name: "one", Position: "7x7 w 8/8 -"}}
	for _, tc := range []struct {
		name, page, want string
	}{
		{"unknown name", "<figure>\n<!-- diagram two\nlabel: x\ncaption: x\n-->\n</figure>\n",
			`line 2: no diagram "two" in the source page`},
		{"own moves", figure("moves: c3\nlabel: x\ncaption: x\n"),
			"line 3: moves: a translation takes its diagram from the source page"},
		{"missing caption", figure("label: x\n"), "line 3: missing caption:"},
		{"no name", "<figure>\n<!-- diagram\nlabel: x\ncaption: x\n-->\n</figure>\n",
			`line 2: "" is not a diagram's name`},
		{"drawn twice", figure("label: x\ncaption: x\n") + figure("label: y\ncaption: y\n"),
			`line 12: the diagram "one" is drawn at line 3 already`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := diagram.Rewrite(tc.page, diagram.Portuguese, sources)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one with %q", err, tc.want)
			}
		})
	}
}
