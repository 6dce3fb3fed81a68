package diagram

import (
	"fmt"

	"emergo/rules"
)

// Lang is the language of a rules page: the words of what the package
// writes itself, the first line of every caption (board, side to move, men
// in hand, result) and the tooltip of every column. The labels and the
// rest of the captions are the page's own, written in the page.
type Lang struct {
	Code    string        // the page's lang attribute: en, pt, ru, lfn
	toMove  [2]string     // by side: "White to move"
	inHand  string        // "in hand: White %d, Black %d"
	over    string        // "game over: %s (%s)", result and reason
	reasons [4]string     // by rules.Reason, NotOver unused
	column  [2]string     // by owner: "%s: White's column", the square first
	alone   string        // ", %s on top": the owner's men, no prisoners
	atop    string        // ", %s on top of %s": the men, the prisoners
	men     [2][]string   // by colour, by plural form: "white man", "white men"
	held    [2][]string   // prisoners by colour, by plural form
	plural  func(int) int // the plural form of a count, an index of men and held
}

// The plural rules of CLDR for whole numbers. English and Elefen say
// "1 man", "2 men"; Portuguese counts 0 with 1; Russian has three forms:
// 1, 21 шашка; 2, 22 шашки; 5, 11, 12 шашек.
func oneOther(n int) int {
	if n == 1 {
		return 0
	}
	return 1
}

func portuguesePlural(n int) int {
	if n == 0 || n == 1 {
		return 0
	}
	return 1
}

func russianPlural(n int) int {
	switch d, h := n%10, n%100; {
	case d == 1 && h != 11:
		return 0
	case d >= 2 && d <= 4 && (h < 12 || h > 14):
		return 1
	}
	return 2
}

// The languages of the rules pages. Their terms are those the site uses
// everywhere (see server/web/README.md).
var (
	English = &Lang{
		Code:    "en",
		toMove:  [2]string{"White to move", "Black to move"},
		inHand:  "in hand: White %d, Black %d",
		over:    "game over: %s (%s)",
		reasons: [4]string{rules.NoMen: "all men taken prisoner", rules.NoMove: "no legal move", rules.Repetition: "threefold repetition"},
		column:  [2]string{"%s: White's column", "%s: Black's column"},
		alone:   ", %s on top",
		atop:    ", %s on top of %s",
		men:     [2][]string{{"white man", "white men"}, {"black man", "black men"}},
		held:    [2][]string{{"white prisoner", "white prisoners"}, {"black prisoner", "black prisoners"}},
		plural:  oneOther,
	}
	Portuguese = &Lang{
		Code:    "pt",
		toMove:  [2]string{"turno das Brancas", "turno das Pretas"},
		inHand:  "na mão: Brancas %d, Pretas %d",
		over:    "fim do jogo: %s (%s)",
		reasons: [4]string{rules.NoMen: "todas as damas prisioneiras", rules.NoMove: "nenhum lance válido", rules.Repetition: "repetição tripla"},
		column:  [2]string{"%s: coluna das Brancas", "%s: coluna das Pretas"},
		alone:   ": %s",
		atop:    ": %s sobre %s",
		men:     [2][]string{{"dama branca", "damas brancas"}, {"dama preta", "damas pretas"}},
		held:    [2][]string{{"prisioneira branca", "prisioneiras brancas"}, {"prisioneira preta", "prisioneiras pretas"}},
		plural:  portuguesePlural,
	}
	Russian = &Lang{
		Code:    "ru",
		toMove:  [2]string{"ход белых", "ход чёрных"},
		inHand:  "на руках: у белых %d, у чёрных %d",
		over:    "партия окончена: %s (%s)",
		reasons: [4]string{rules.NoMen: "все шашки в плену", rules.NoMove: "нет возможных ходов", rules.Repetition: "троекратное повторение"},
		column:  [2]string{"%s: башня белых", "%s: башня чёрных"},
		alone:   ": %s",
		atop:    ": %s сверху, %s внизу",
		men:     [2][]string{{"белая шашка", "белые шашки", "белых шашек"}, {"чёрная шашка", "чёрные шашки", "чёрных шашек"}},
		held:    [2][]string{{"белая пленная", "белые пленные", "белых пленных"}, {"чёрная пленная", "чёрные пленные", "чёрных пленных"}},
		plural:  russianPlural,
	}
	Elefen = &Lang{
		Code:    "lfn",
		toMove:  [2]string{"turno de Blanca", "turno de Negra"},
		inHand:  "en mano: Blanca %d, Negra %d",
		over:    "la jua ia fini: %s (%s)",
		reasons: [4]string{rules.NoMen: "tota pesos es prisonidas", rules.NoMove: "nun move legal", rules.Repetition: "la mesma situa tre veses"},
		column:  [2]string{"%s: colona de Blanca", "%s: colona de Negra"},
		alone:   ": %s",
		atop:    ": %s sur %s",
		men:     [2][]string{{"peso blanca", "pesos blanca"}, {"peso negra", "pesos negra"}},
		held:    [2][]string{{"prisonida blanca", "prisonidas blanca"}, {"prisonida negra", "prisonidas negra"}},
		plural:  oneOther,
	}
)

// Langs are the languages of the rules pages, English first.
var Langs = []*Lang{English, Portuguese, Russian, Elefen}

// count writes n with the form of forms its plural rule picks.
func (l *Lang) count(n int, forms []string) string {
	return fmt.Sprintf("%d %s", n, forms[l.plural(n)])
}

// columnTitle is the tooltip of the column c on the square named sq.
func (l *Lang) columnTitle(sq string, c rules.Column) string {
	s := fmt.Sprintf(l.column[c.Owner], sq)
	men := l.count(c.Top, l.men[c.Owner])
	if c.Prisoners == 0 {
		return s + fmt.Sprintf(l.alone, men)
	}
	return s + fmt.Sprintf(l.atop, men, l.count(c.Prisoners, l.held[c.Owner.Other()]))
}

// state says what a diagram of the current position of gm cannot show: the
// board, the side to move, the men in hand and, at the end, the result.
// times goes between the sides of the board.
func (l *Lang) state(gm *rules.Game, times string) string {
	p := gm.Position()
	n := p.Geometry().N
	s := fmt.Sprintf("%d%s%d, %s; ", n, times, n, l.toMove[p.Side()]) + fmt.Sprintf(l.inHand, p.Hand(rules.White), p.Hand(rules.Black))
	if o := gm.Outcome(); o.Over() {
		s += "; " + fmt.Sprintf(l.over, o.Result, l.reasons[o.Reason])
	}
	return s
}
