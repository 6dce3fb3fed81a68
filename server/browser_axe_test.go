package server_test

// The accessibility check: axe-core's rules of WCAG 2.0 and 2.1, levels A
// and AA, on every page of the site, with no violation allowed. axe-core
// is not part of the repository: .ci/run installs it from the npm
// registry and names its axe.min.js in EMERGO_AXE; without it the test
// skips, saying so.

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// axeTags are the rule sets checked: WCAG 2.0 and 2.1, A and AA.
const axeTags = `['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']`

// An axePage is a page the check opens: path may hold {game} (a game
// against the engine in the middle, the reader White and to move), {over}
// (a finished game) and {user} (the reader's account). lang is the page's
// language, English when empty; phone sizes the window as a phone's
// (390x844) instead of a wide one (1280x960). ready, when set, is a
// JavaScript expression that is true once the page has drawn what it
// shows, beside the translation and the loading lists that every page
// waits for (pageReadyJS).
type axePage struct {
	name  string
	path  string
	lang  string
	phone bool
	ready string
}

// notificationsReadyJS is true once the notifications page has listed
// them and set up its push switch.
const notificationsReadyJS = `document.querySelector('[data-testid="notification"], [data-testid="notifications-none"]') !== null &&
	!document.querySelector('[data-testid="push-toggle"]').hidden`

// axePages are the pages checked. A new page of the site adds its row.
var axePages = []axePage{
	{name: "home", path: "/"},
	{name: "home on a phone", path: "/", phone: true},
	{name: "game", path: "/g/{game}", ready: gameReadyJS + " && " + chatReadyJS},
	{name: "game on a phone", path: "/g/{game}", phone: true, ready: gameReadyJS + " && " + chatReadyJS},
	{name: "game over", path: "/g/{over}"},
	{name: "lobby", path: "/lobby"},
	{name: "lobby on a phone", path: "/lobby", phone: true},
	{name: "my games", path: "/my"},
	{name: "profile", path: "/@/{user}"},
	{name: "profile on a phone", path: "/@/{user}", phone: true},
	{name: "notifications", path: "/notifications", ready: notificationsReadyJS},
	{name: "notifications on a phone", path: "/notifications", phone: true, ready: notificationsReadyJS},
	{name: "following", path: "/following"},
	{name: "tv", path: "/tv?size=7", ready: tvGameReadyJS},
	{name: "tv with no game, on a phone", path: "/tv", phone: true, ready: tvNoneReadyJS},
	{name: "tournaments", path: "/tournaments"},
	{name: "tournaments on a phone", path: "/tournaments", phone: true},
	{name: "tournament", path: "/t/{tournament}", ready: tournamentReadyJS},
	{name: "tournament on a phone", path: "/t/{tournament}", phone: true, ready: tournamentReadyJS},
	{name: "rules", path: "/rules"},
	{name: "rules in Portuguese", path: "/rules", lang: "pt"},
	{name: "rules in Russian", path: "/rules", lang: "ru"},
	{name: "rules in Elefen", path: "/rules", lang: "lfn"},
	{name: "rules on a phone", path: "/rules", phone: true},
	{name: "analysis board", path: "/analysis", ready: analysisReadyJS},
	{name: "analysis board on a phone", path: "/analysis", phone: true, ready: analysisReadyJS},
	{name: "analysis board annotating a game", path: "/analysis?game={over}", ready: analysisReadyJS},
	{name: "analysis board with tall columns", path: "/analysis#pos=9x9+w+0%2F0+a1%3AW7b7+d4%3AW3+c5%3AB2w2+e5%3AB1+c7%3AB1+e7%3AB1", ready: analysisReadyJS},
	{name: "lessons", path: "/learn", ready: lessonsReadyJS},
	{name: "a lesson", path: "/learn#turn", ready: boardReadyJS},
	{name: "a lesson on a phone", path: "/learn#feeding", phone: true, ready: boardReadyJS},
	{name: "puzzles", path: "/puzzles", ready: boardReadyJS},
	{name: "a puzzle on a phone", path: "/puzzles?size=7", phone: true, ready: boardReadyJS},
	{name: "opening explorer", path: "/explorer", ready: explorerReadyJS},
	{name: "opening explorer on a phone", path: "/explorer?size=7&moves=c3", phone: true, ready: explorerReadyJS},
	{name: "no such game", path: "/g/zzzzzzzzzz"},
	{name: "no such page on a phone", path: "/no/such/page", phone: true, lang: "ru"},
}

// tournamentReadyJS is true once the tournament page shows its
// standings and a round's pairings.
const tournamentReadyJS = `Boolean(document.querySelector('[data-testid="standings-table"]') && document.querySelector('[data-testid="round"]'))`

// analysisReadyJS is true once the analysis board is set up.
const analysisReadyJS = `document.documentElement.dataset.ready === 'true'`

// explorerReadyJS is true once the explorer shows a position's tables.
const explorerReadyJS = `Boolean(document.querySelector('#explorer[data-position]:not([aria-busy])'))`

// boardReadyJS is true once the game page's board takes a move.
const boardReadyJS = `Boolean(document.querySelector('#board.interactive'))`

// gameReadyJS is true once the game page's board takes a move and shows a
// column over prisoners, whose count label is checked with the rest.
const gameReadyJS = boardReadyJS + ` && document.querySelectorAll('#board .badge .chip').length > document.querySelectorAll('#board .badge').length`

// chatReadyJS is true once the game page's chat shows a line, and its
// form to write another.
const chatReadyJS = `Boolean(document.querySelector('[data-testid="chat-line"]')) && !document.querySelector('#chat-form').hidden`

// tvGameReadyJS is true once the TV shows a game on its board;
// tvNoneReadyJS once it says that no game goes on.
const (
	tvGameReadyJS = `Boolean(document.querySelector('#tv[data-game]:not([data-game=""]) [data-testid="player-white"]')) && document.querySelectorAll('#tv-board .col').length > 0`
	tvNoneReadyJS = `!document.querySelector('#tv-none').hidden`
)

// lessonsReadyJS is true once the list of lessons is drawn.
const lessonsReadyJS = `document.querySelectorAll('[data-testid="lesson-link"]').length > 0`

// axeRunJS runs the rules on the page and answers the violations, each
// with the first elements it found, and how many rules passed.
const axeRunJS = `axe.run(document, {runOnly: {type: 'tag', values: ` + axeTags + `}}).then((r) => ({
  passed: r.passes.length,
  violations: r.violations.map((v) => ({id: v.id, impact: v.impact || '', help: v.help, count: v.nodes.length,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ': ' + (n.failureSummary || '').replace(/\s+/g, ' '))}))}))`

// axeResult is what axeRunJS answers.
type axeResult struct {
	Passed     int `json:"passed"`
	Violations []struct {
		ID     string   `json:"id"`
		Impact string   `json:"impact"`
		Help   string   `json:"help"`
		Count  int      `json:"count"`
		Nodes  []string `json:"nodes"`
	} `json:"violations"`
}

// requireAxe returns axe-core's script, or skips the test without it.
func requireAxe(t *testing.T) string {
	t.Helper()
	path := os.Getenv("EMERGO_AXE")
	if path == "" {
		t.Skip("accessibility check skipped: EMERGO_AXE does not name axe-core's axe.min.js; " +
			"npm install --prefix /opt/axe axe-core@4.14.1 and set EMERGO_AXE=/opt/axe/node_modules/axe-core/axe.min.js (.ci/run does)")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("EMERGO_AXE: %v", err)
	}
	return string(src)
}

// axeCheck runs axe-core (its script src) on b's page and reports every
// violation as an error of the test, naming the page.
func (b *browser) axeCheck(page, src string) {
	b.t.Helper()
	// Evaluated through the DevTools protocol, the script is not subject
	// to the page's Content-Security-Policy.
	if !evalJS[bool](b, `typeof axe !== 'undefined'`) {
		evalJS[bool](b, src+"\n;true")
	}
	r := evalJS[axeResult](b, axeRunJS)
	for _, v := range r.Violations {
		b.t.Errorf("%s: %s (%s) on %d elements: %s\n\t%s", page, v.ID, v.Impact, v.Count, v.Help, strings.Join(v.Nodes, "\n\t"))
	}
	b.t.Logf("%s: %d rules passed, %d broken", page, r.Passed, len(r.Violations))
}

// TestBrowserAccessibility: every page of axePages, as a reader with an
// account sees it, in the light colours and in the dark ones (the
// system's preference, style.css), breaks no rule of WCAG 2.0 or 2.1 at
// levels A and AA that axe-core checks.
func TestBrowserAccessibility(t *testing.T) {
	src := requireAxe(t)
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	b := newBrowser(t, exe, "reader")
	b.do("open the home page", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lang"]`)))
	const user = "Leitora"
	b.socialise(user)
	// Her page lists her API token, with the form that makes another.
	evalJS[map[string]any](b, fetchJS("/api/account/tokens", `{description: 'my bot'}`))
	game := b.engineGameAfter(16)
	evalJS[map[string]any](b, fetchJS("/api/games/"+game+"/chat", `{text: 'good game'}`))
	over := evalJS[map[string]any](b, fetchJS("/api/games", `{mode: 'engine', size: 7, color: 'white', level: 1}`))["id"].(string)
	evalJS[map[string]any](b, fetchJS("/api/games/"+over+"/move", `{move: 'a1', ply: 0}`))
	evalJS[map[string]any](b, fetchJS("/api/games/"+over+"/resign", `{}`))
	evalJS[map[string]any](b, fetchJS("/api/challenges", `{size: 9, clock: {initial: 300, increment: 3}, rated: true, color: 'random'}`))
	tournament := b.tournamentWith(user, "Amiga")
	paths := strings.NewReplacer("{game}", game, "{over}", over, "{user}", user, "{tournament}", tournament)

	lang := ""
	for _, dark := range []bool{false, true} {
		b.darkScheme(dark)
		for _, p := range axePages {
			if dark {
				p.name += " (dark)"
			}
			checkAxePage(b, ts.URL, paths, p, &lang, src)
		}
	}
}

// checkAxePage opens the page p as b, in its language (switching from
// *lang, the one b was in), and runs the check on it.
func checkAxePage(b *browser, url string, paths *strings.Replacer, p axePage, lang *string, src string) {
	b.t.Helper()
	want := p.lang
	if want == "" {
		want = "en"
	}
	if want != *lang {
		evalJS[map[string]any](b, fetchJS("/api/lang", `{lang: '`+want+`'}`))
		*lang = want
	}
	w, h := int64(1280), int64(960)
	if p.phone {
		w, h = 390, 844
	}
	b.do("a window for the "+p.name+" page", chromedp.EmulateViewport(w, h))
	b.do("open the "+p.name+" page", chromedp.Navigate(url+paths.Replace(p.path)))
	ready := pageReadyJS + `('` + want + `')`
	if p.ready != "" {
		ready += " && " + p.ready
	}
	poll(b, "the "+p.name+" page is drawn", func() (bool, error) { return tryJS[bool](b, ready) },
		func(ok bool) bool { return ok })
	b.axeCheck(p.name, src)
}

// socialise signs up user, and Amiga, who follows her, and whom she
// follows; Amiga accepts her correspondence challenge, moves first and
// goes on vacation: user has notifications to list, a follower, and a
// game going on of one she follows. It leaves b logged in as user.
func (b *browser) socialise(user string) {
	b.t.Helper()
	account := func(what, name string) {
		evalJS[map[string]any](b, fetchJS("/api/account/"+what, `{username: '`+name+`', password: 'a long password'}`))
	}
	logout := func() { evalJS[map[string]any](b, fetchJS("/api/account/logout", `{}`)) }
	account("signup", "Amiga")
	logout()
	account("signup", user)
	evalJS[map[string]any](b, fetchJS("/api/users/Amiga/follow", `{}`))
	c := evalJS[map[string]any](b, fetchJS("/api/challenges", `{size: 7, days: 3, color: 'black', to: 'Amiga'}`))["id"].(string)
	logout()
	account("login", "Amiga")
	evalJS[map[string]any](b, fetchJS("/api/users/"+user+"/follow", `{}`))
	game := evalJS[map[string]any](b, fetchJS("/api/challenges/"+c+"/accept", `{}`))["game"].(string)
	evalJS[map[string]any](b, fetchJS("/api/games/"+game+"/move", `{move: 'a1', ply: 0}`))
	evalJS[map[string]any](b, fetchJS("/api/account/vacation", `{days: 3}`))
	logout()
	account("login", user)
}

// tournamentWith makes a Swiss of user's that user and other (an
// account of the same password) join, and starts it; it answers the
// tournament's id once its first round is paired. It leaves b logged
// in as user.
func (b *browser) tournamentWith(user, other string) string {
	b.t.Helper()
	login := func(name string) {
		evalJS[map[string]any](b, fetchJS("/api/account/logout", `{}`))
		evalJS[map[string]any](b, fetchJS("/api/account/login", `{username: '`+name+`', password: 'a long password'}`))
	}
	id := evalJS[map[string]any](b, fetchJS("/api/tournaments", `{name: 'Winter Swiss', system: 'swiss', size: 7, clock: {initial: 300, increment: 3}, rated: true, rounds: 3}`))["id"].(string)
	evalJS[map[string]any](b, fetchJS("/api/tournaments/"+id+"/join", `{}`))
	login(other)
	evalJS[map[string]any](b, fetchJS("/api/tournaments/"+id+"/join", `{}`))
	login(user)
	evalJS[map[string]any](b, fetchJS("/api/tournaments/"+id+"/start", `{}`))
	poll(b, "the tournament's first round", func() (float64, error) {
		return tryJS[float64](b, `fetch('/api/tournaments/`+id+`').then((r) => r.json()).then((t) => t.round)`)
	}, func(r float64) bool { return r >= 1 })
	return id
}

// engineGameAfter creates a 7x7 game against the engine at level 1, the
// reader White, and plays plies of it (the reader's first legal move each
// time, the engine's replies) through the API; it returns the game's id
// once it is the reader's turn again after at least plies and with a
// column holding prisoners on the board, whose count chips the check
// must see, whatever the engine's level plays.
func (b *browser) engineGameAfter(plies int) string {
	b.t.Helper()
	id := evalJS[map[string]any](b, fetchJS("/api/games", `{mode: 'engine', size: 7, color: 'white', level: 1}`))["id"].(string)
	prisoners := regexp.MustCompile(`:[WB][0-9]+[wb][0-9]+`)
	for {
		st := b.waitState("the engine has replied", id, func(st state) bool {
			return st.Over || (st.Turn == "white" && !st.Thinking)
		})
		if st.Over {
			b.t.Fatalf("the game against the engine ended after %d plies (%s) with no column holding prisoners", len(st.Moves), st.Reason)
		}
		if len(st.Moves) >= plies && prisoners.MatchString(st.Position) {
			return id
		}
		evalJS[map[string]any](b, fetchJS("/api/games/"+id+"/move", fmt.Sprintf(`{move: '%s', ply: %d}`, st.Legal[0], len(st.Moves))))
	}
}
