package server_test

// Browser tests of the tournaments' pages: a whole arena and a whole
// Swiss played by accounts through the API (and one resignation by a
// click), watched on /t/{id}; the create form of /tournaments.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"emergo/server"
	"emergo/store"
	"emergo/store/sqlstore"
)

// btPairing is a board of a round of a tourView.
type btPairing struct {
	White, Black, Game, Result string
	Bye                        bool
}

// btPairings are the pairings of v's round number round, or of all its
// rounds for 0, as the API lists them; a null black or game is "".
func btPairings(v tourView, round int) []btPairing {
	var out []btPairing
	for _, r := range v.Rounds {
		if round != 0 && r.Number != round {
			continue
		}
		for _, p := range r.Pairings {
			bp := btPairing{White: p.White, Result: p.Result, Bye: p.Bye}
			if p.Black != nil {
				bp.Black = *p.Black
			}
			if p.Game != nil {
				bp.Game = *p.Game
			}
			out = append(out, bp)
		}
	}
	return out
}

// btScore is name's points in v's standings, and whether he is there.
func btScore(v tourView, name string) (float64, bool) {
	for _, s := range v.Standings {
		if s.Name == name {
			return s.Score, true
		}
	}
	return 0, false
}

// btTournament signs up the players, has the first create a tournament
// of body and all of them join it, and answers its id and the players'
// clients by name.
func btTournament(t *testing.T, e *env, body map[string]any, names ...string) (string, map[string]*client) {
	t.Helper()
	ps := map[string]*client{}
	for _, n := range names {
		ps[n] = signUp(t, e, n)
	}
	id := ps[names[0]].createTour(t, body).ID
	for _, n := range names {
		ps[n].act(t, id, "join", nil)
	}
	return id, ps
}

// btFinish ends game g ({id, White, Black}) of a tournament, won by
// winner, as finish does; a game that ended otherwise on the way (its
// clock run out, or aborted) is left as it ended.
func btFinish(t *testing.T, ps map[string]*client, g [3]string, winner string) {
	t.Helper()
	if st := waitFor(t, ps[g[1]], g[0], func(state) bool { return true }); !st.Over {
		loser := ps[g[1]]
		if winner == g[1] {
			loser = ps[g[2]]
		}
		if code, _, body := loser.do("POST", "/api/games/"+g[0]+"/resign", nil); code != http.StatusOK && !waitFor(t, ps[g[1]], g[0], func(state) bool { return true }).Over {
			t.Fatalf("resign %s: %d %s", g[0], code, body)
		}
	}
}

// btArenaPoints are the points of an arena player's games in the order
// they were played (the results from his side: "W", "D", "L", and "+"
// and "-" for a forfeit, a game aborted): a win 2, a draw 1, a loss 0,
// doubled after two wins in a row until a game is not won. A forfeit won
// is 2 points and leaves the run of wins as it was; one lost ends it.
func btArenaPoints(results []string) []int {
	var out []int
	run := 0
	for _, r := range results {
		pts := map[string]int{"W": 2, "D": 1, "L": 0, "+": 2, "-": 0}[r]
		switch r {
		case "+":
		case "W":
			if run >= 2 {
				pts *= 2
			}
			run++
		default:
			if run >= 2 {
				pts *= 2
			}
			run = 0
		}
		out = append(out, pts)
	}
	return out
}

// btResultOf is a finished game's result from name's side: "W", "D",
// "L", or "+" and "-" for a forfeit won or lost.
func btResultOf(p btPairing, name string) string {
	white := p.White == name
	switch p.Result {
	case "1/2-1/2":
		return "D"
	case "+-", "-+":
		if (p.Result == "+-") == white {
			return "+"
		}
		return "-"
	case "1-0", "0-1":
		if (p.Result == "1-0") == white {
			return "W"
		}
	}
	return "L"
}

// btPage is what the tournament page shows: its standings (name to
// score, and who has the streak mark and the withdrawn mark) and its
// rounds (the number of boards and byes of each).
type btPage struct {
	Version   string            `json:"version"`
	Scores    map[string]string `json:"scores"`
	Streaks   []string          `json:"streaks"`
	Withdrawn []string          `json:"withdrawn"`
	Rounds    []struct {
		Number string `json:"number"`
		Boards int    `json:"boards"`
		Byes   int    `json:"byes"`
		Games  int    `json:"games"`
	} `json:"rounds"`
	Announce string `json:"announce"`
	Status   string `json:"status"`
}

// btPageJS reads a btPage.
const btPageJS = `(() => {
  const rows = [...document.querySelectorAll('[data-testid="standing"]')];
  return {
    version: document.documentElement.dataset.tournamentVersion || '',
    scores: Object.fromEntries(rows.map((r) => [r.dataset.name, r.dataset.score])),
    streaks: rows.filter((r) => r.querySelector('[data-testid="streak"]')).map((r) => r.dataset.name),
    withdrawn: rows.filter((r) => r.classList.contains('withdrawn')).map((r) => r.dataset.name),
    rounds: [...document.querySelectorAll('[data-testid="round"]')].map((r) => ({
      number: r.dataset.round,
      boards: r.querySelectorAll('[data-testid="pairing"]').length,
      byes: [...r.querySelectorAll('[data-testid="pairing"]')].filter((p) => !p.querySelector('[data-testid="pairing-game"]')).length,
      games: r.querySelectorAll('[data-testid="pairing-game"]').length,
    })),
    announce: document.querySelector('[data-testid="tournament-announce"]')?.textContent || '',
    status: document.querySelector('[data-testid="tournament-status"]')?.dataset.status || '',
  };
})()`

// waitTournamentPage waits until b's tournament page shows version of
// the tournament at least, and answers what it shows.
func (b *browser) waitTournamentPage(what string, version int64) btPage {
	b.t.Helper()
	return poll(b, what, func() (btPage, error) { return tryJS[btPage](b, btPageJS) }, func(p btPage) bool {
		var v int64
		fmt.Sscan(p.Version, &v)
		return v >= version
	})
}

// btLogin opens the site in b and logs in as name.
func (b *browser) btLogin(url, name string) {
	b.t.Helper()
	b.do("open the tournaments", chromedp.Navigate(url+"/tournaments"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lang"]`)))
	evalJS[map[string]any](b, fetchJS("/api/account/login", `{username: '`+name+`', password: 'a long password'}`))
}

// TestBrowserTournamentArena: an arena of four accounts. Ada, its
// creator, starts it from its page, which then goes to her first game,
// where she resigns by clicks; every other game ends by a resignation
// through the API, Bob winning all of his and Ada losing all of hers.
// Bob leaves after three, on his streak. At the end (the server's clock
// moved past it, which may abort a game just paired: a forfeit) the
// standings are each player's games counted by the arena's rule, Bob's
// third win in a row counting double, and the page shows them with
// Bob's streak.
func TestBrowserTournamentArena(t *testing.T) {
	exe := requireChromium(t)
	e := tourEnv(t, server.Config{})
	// The one with the earlier place here wins a game.
	order := []string{"Bob", "Cyd", "Dee", "Ada"}
	winner := func(g [3]string) string {
		if slices.Index(order, g[1]) < slices.Index(order, g[2]) {
			return g[1]
		}
		return g[2]
	}
	id, ps := btTournament(t, e, map[string]any{
		"name": "Quick arena", "system": "arena", "size": 7, "clock": map[string]int{"initial": 600, "increment": 5},
		"rated": true, "minutes": 30,
	}, "Ada", "Bob", "Cyd", "Dee")

	b := newBrowser(t, exe, "Ada")
	b.btLogin(e.ts.URL, "Ada")
	b.do("open the arena", chromedp.Navigate(e.ts.URL+"/t/"+id))
	poll(b, "the four players and the start button", func() (bool, error) {
		return tryJS[bool](b, `document.querySelectorAll('[data-testid="standing"]').length === 4 && !document.querySelector('[data-testid="tournament-start"]').hidden`)
	}, func(ok bool) bool { return ok })
	b.do("start the arena", chromedp.Click(chromedp.CSS(`[data-testid="tournament-start"]`)))

	// The page goes to Ada's first game as soon as it is paired.
	path := poll(b, "the page goes to Ada's game", func() (string, error) { return tryJS[string](b, `location.pathname`) },
		func(p string) bool { return strings.HasPrefix(p, "/g/") })
	first := waitTour(t, ps["Ada"], id, "Ada's game", func(v tourView) bool { return v.Me != nil && v.Me.Game != nil })
	if path != "/g/"+*first.Me.Game {
		t.Fatalf("the page went to %s, Ada's game is %s", path, *first.Me.Game)
	}
	// Ada resigns her first game by clicks, once both have moved.
	var mine [3]string
	for _, g := range first.pending() {
		if g[0] == *first.Me.Game {
			mine = g
		}
	}
	for ply, name := range mine[1:] {
		st := waitFor(t, ps[name], mine[0], func(st state) bool { return len(st.Moves) == ply })
		if code, st := ps[name].move(mine[0], st.Legal[0], ply); code != http.StatusOK {
			t.Fatalf("%s's move: %d %s", name, code, st.Error)
		}
	}
	b.do("resign", chromedp.Click(chromedp.CSS(`[data-testid="resign"]`)), chromedp.Click(chromedp.CSS(`[data-testid="resign-confirm"]`)))
	if st := waitFor(t, ps["Ada"], mine[0], func(st state) bool { return st.Over }); (st.Result == "1-0") != (mine[2] == "Ada") {
		t.Fatalf("Ada resigned %s (White %s): %s", mine[0], mine[1], st.Result)
	}

	// The games go on until Bob has played three.
	done := map[string]bool{mine[0]: true}
	for {
		v := waitTour(t, ps["Ada"], id, "the arena", func(tourView) bool { return true })
		if v.Standings[v.standing(t, "Bob")].Games >= 3 {
			break
		}
		for _, g := range v.pending() {
			if !done[g[0]] {
				done[g[0]] = true
				btFinish(t, ps, g, winner(g))
			}
		}
		waitTour(t, ps["Ada"], id, "a change", func(n tourView) bool { return n.Version > v.Version })
	}

	// Bob leaves on his streak: his game going on won, he is paired no
	// more.
	ps["Bob"].act(t, id, "withdraw", nil)
	for _, g := range waitTour(t, ps["Bob"], id, "Bob gone", func(tourView) bool { return true }).pending() {
		if (g[1] == "Bob" || g[2] == "Bob") && !done[g[0]] {
			done[g[0]] = true
			btFinish(t, ps, g, "Bob")
		}
	}
	waitTour(t, ps["Bob"], id, "Bob's games counted", func(v tourView) bool {
		for _, g := range v.pending() {
			if g[1] == "Bob" || g[2] == "Bob" {
				return false
			}
		}
		return v.Standings[v.standing(t, "Bob")].Streak
	})

	// The end: the clock past it, the games still going on ended.
	e.now.Add(int64(31 * time.Minute))
	end := waitTour(t, ps["Ada"], id, "the arena finished", func(v tourView) bool {
		for _, g := range v.pending() {
			if !done[g[0]] {
				done[g[0]] = true
				btFinish(t, ps, g, winner(g))
			}
		}
		return v.Status == "finished" && len(v.pending()) == 0
	})

	// Each player's points from his games in the order played (the
	// arena's list is the latest first).
	games := map[string][]string{}
	pairings := btPairings(end, 0)
	for i := len(pairings) - 1; i >= 0; i-- {
		p := pairings[i]
		if p.Result == "*" || p.Bye {
			continue
		}
		for _, n := range []string{p.White, p.Black} {
			games[n] = append(games[n], btResultOf(p, n))
		}
	}
	want := map[string]float64{}
	for _, n := range order {
		sum := 0
		for _, pts := range btArenaPoints(games[n]) {
			sum += pts
		}
		want[n] = float64(sum)
		if got, ok := btScore(end, n); !ok || got != want[n] {
			t.Errorf("%s: %v points (games %v), want %v", n, got, games[n], want[n])
		}
	}
	if bob := games["Bob"]; len(bob) < 3 || !slices.Equal(bob[:3], []string{"W", "W", "W"}) || want["Bob"] < 8 {
		t.Errorf("Bob's games %v, %v points: want three wins, the third doubled (2 + 2 + 4)", bob, want["Bob"])
	}
	if slices.Contains(games["Ada"], "W") || slices.Contains(games["Ada"], "D") {
		t.Errorf("Ada lost every game played, has %v", games["Ada"])
	}

	// The page shows the standings, Bob with his streak.
	b.do("open the arena again", chromedp.Navigate(e.ts.URL+"/t/"+id))
	page := b.waitTournamentPage("the final standings", end.Version)
	for _, n := range order {
		if page.Scores[n] != fmt.Sprint(want[n]) {
			t.Errorf("the page shows %s with %q points, want %v", n, page.Scores[n], want[n])
		}
	}
	var streaks []string
	for _, s := range end.Standings {
		if s.Streak {
			streaks = append(streaks, s.Name)
		}
	}
	if !slices.Contains(streaks, "Bob") || !slices.Equal(page.Streaks, streaks) {
		t.Errorf("the page marks the streaks of %v, the API of %v, want Bob's among them", page.Streaks, streaks)
	}
	if page.Status != "finished" {
		t.Errorf("the page says the arena is %q", page.Status)
	}
	b.screenshot("tournament-arena")
}

// TestBrowserTournamentSwiss: a Swiss of five accounts and three rounds.
// The player with the first round's bye withdraws during it; the other
// rounds pair the four left, and White wins every game. A guest's page,
// open all along, says when each round is paired and ends with three
// rounds (the first with its bye) and the standings of the API, the
// withdrawn player marked.
func TestBrowserTournamentSwiss(t *testing.T) {
	exe := requireChromium(t)
	e := tourEnv(t, server.Config{})
	names := []string{"Ada", "Bob", "Cyd", "Dee", "Eve"}
	id, ps := btTournament(t, e, map[string]any{
		"name": "Five and three", "system": "swiss", "size": 7, "clock": map[string]int{"initial": 600, "increment": 5},
		"rated": false, "rounds": 3,
	}, names...)
	b := newBrowser(t, exe, "guest")
	ps["Ada"].act(t, id, "start", nil)
	r1 := waitTour(t, ps["Ada"], id, "round 1 paired", func(v tourView) bool { return v.Round == 1 && len(v.Rounds) > 0 })
	b.do("open the Swiss", chromedp.Navigate(e.ts.URL+"/t/"+id))
	b.waitTournamentPage("round 1", r1.Version)

	var bye string
	for _, p := range btPairings(r1, 1) {
		if p.Bye {
			bye = p.White
		}
	}
	if bye == "" {
		t.Fatalf("round 1 of five players has no bye: %+v", r1.Rounds)
	}
	ps[bye].act(t, id, "withdraw", nil)

	for round := 1; round <= 3; round++ {
		v := waitTour(t, ps["Ada"], id, fmt.Sprintf("round %d paired", round), func(v tourView) bool { return v.Round == round })
		for _, g := range v.pending() {
			btFinish(t, ps, g, g[1])
		}
		if round < 3 {
			next := waitTour(t, ps["Ada"], id, fmt.Sprintf("round %d paired", round+1), func(v tourView) bool { return v.Round == round+1 })
			page := b.waitTournamentPage(fmt.Sprintf("round %d on the page", round+1), next.Version)
			if want := fmt.Sprintf("Round %d paired.", round+1); !strings.Contains(page.Announce, want) {
				t.Errorf("the live region says %q, want %q in it", page.Announce, want)
			}
		}
	}
	end := waitTour(t, ps["Ada"], id, "the Swiss finished", func(v tourView) bool { return v.Status == "finished" })
	page := b.waitTournamentPage("the final standings", end.Version)

	if len(page.Rounds) != 3 {
		t.Fatalf("the page shows %d rounds, want 3: %+v", len(page.Rounds), page.Rounds)
	}
	for _, r := range page.Rounds {
		want := struct{ boards, byes int }{2, 0}
		if r.Number == "1" {
			want = struct{ boards, byes int }{3, 1}
		}
		if r.Boards != want.boards || r.Byes != want.byes {
			t.Errorf("round %s on the page: %d boards, %d byes; want %d and %d", r.Number, r.Boards, r.Byes, want.boards, want.byes)
		}
	}
	// The withdrawn player is in no round after the first.
	for round := 2; round <= 3; round++ {
		for _, p := range btPairings(end, round) {
			if p.White == bye || p.Black == bye {
				t.Errorf("%s withdrew in round 1 and plays in round %d", bye, round)
			}
		}
	}
	// Each score as the pairings make it: a win or the bye a point.
	for _, n := range names {
		want := 0.0
		for _, p := range btPairings(end, 0) {
			won := p.White == n || p.Black == n
			if !p.Bye {
				r := btResultOf(p, n)
				won = won && (r == "W" || r == "+")
			}
			if won {
				want++
			}
		}
		got, ok := btScore(end, n)
		if !ok || got != want {
			t.Errorf("%s: %v points, want %v", n, got, want)
		}
		if page.Scores[n] != fmt.Sprint(want) {
			t.Errorf("the page shows %s with %q points, want %v", n, page.Scores[n], want)
		}
	}
	if !slices.Equal(page.Withdrawn, []string{bye}) {
		t.Errorf("the page marks %v withdrawn, want %s", page.Withdrawn, bye)
	}
	b.screenshot("tournament-swiss")
}

// TestBrowserTournamentCreate: the create form of /tournaments makes a
// Swiss with a password, opens its page, and the list shows it among the
// upcoming ones. Bob joins it on its page: a wrong password is refused
// in words, the right one lets him in, and he writes in its chat. Ada
// cancels it, the page asking first.
func TestBrowserTournamentCreate(t *testing.T) {
	exe := requireChromium(t)
	e := tourEnv(t, server.Config{})
	signUp(t, e, "Ada")
	signUp(t, e, "Bob")
	b := newBrowser(t, exe, "Ada")
	b.btLogin(e.ts.URL, "Ada")
	b.do("open the tournaments", chromedp.Navigate(e.ts.URL+"/tournaments"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="tf-name"]`)))
	// An arena by correspondence is refused in the page.
	b.do("an arena by correspondence",
		chromedp.SendKeys(chromedp.CSS(`[data-testid="tf-name"]`), "Winter Swiss"),
		chromedp.Click(chromedp.CSS(`[data-testid="tf-speed"]`)))
	evalJS[bool](b, `(() => { const s = document.querySelector('[data-testid="tf-speed"]'); s.value = 'correspondence'; s.dispatchEvent(new Event('change')); return true; })()`)
	b.do("submit", chromedp.Click(chromedp.CSS(`[data-testid="tf-submit"]`)))
	poll(b, "the refusal", func() (string, error) {
		return tryJS[string](b, `document.querySelector('[data-testid="tf-message"]').textContent`)
	},
		func(s string) bool { return strings.Contains(s, "arena is played with a clock") })
	evalJS[bool](b, `(() => {
  const set = (id, v) => { const s = document.querySelector('[data-testid="' + id + '"]'); s.value = v; s.dispatchEvent(new Event('change')); };
  set('tf-system', 'swiss'); set('tf-size', '7'); set('tf-rounds', '4'); set('tf-password', 'sesame');
  return !document.querySelector('[data-testid="tf-rounds"]').closest('label').hidden;
})()`)
	b.do("submit", chromedp.Click(chromedp.CSS(`[data-testid="tf-submit"]`)))
	path := poll(b, "the tournament's page", func() (string, error) { return tryJS[string](b, `location.pathname`) },
		func(p string) bool { return strings.HasPrefix(p, "/t/") })
	poll(b, "its name and format", func() (string, error) {
		return tryJS[string](b, `document.querySelector('[data-testid="tournament-name"]').textContent + ' / ' + document.querySelector('[data-testid="tournament-format"]').textContent`)
	}, func(s string) bool { return s == "Winter Swiss / Swiss, 4 rounds" })

	b.do("open the list", chromedp.Navigate(e.ts.URL+"/tournaments"))
	id := strings.TrimPrefix(path, "/t/")
	poll(b, "the list shows it", func() (string, error) {
		return tryJS[string](b, `document.querySelector('[data-testid="tournaments-upcoming"] [data-tournament="`+id+`"] [data-testid="tournament-link"]')?.textContent || ''`)
	}, func(s string) bool { return s == "Winter Swiss" })
	b.screenshot("tournaments")

	evalJS[map[string]any](b, fetchJS("/api/account/logout", `{}`))
	evalJS[map[string]any](b, fetchJS("/api/account/login", `{username: 'Bob', password: 'a long password'}`))
	b.do("open the Swiss as Bob", chromedp.Navigate(e.ts.URL+path),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="tournament-password"]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="tournament-password"]`), "open sesame"),
		chromedp.Click(chromedp.CSS(`[data-testid="tournament-join"]`)))
	poll(b, "the wrong password refused", func() (string, error) {
		return tryJS[string](b, `document.querySelector('[data-testid="tournament-message"]').textContent`)
	}, func(s string) bool { return s == "The password is wrong." })
	b.do("join with the password",
		chromedp.SetValue(chromedp.CSS(`[data-testid="tournament-password"]`), "sesame"),
		chromedp.Click(chromedp.CSS(`[data-testid="tournament-join"]`)))
	poll(b, "Bob in the standings, and free to withdraw", func() (bool, error) {
		return tryJS[bool](b, `Boolean(document.querySelector('[data-testid="standing"][data-name="Bob"]')) &&
  !document.querySelector('[data-testid="tournament-withdraw"]').hidden && document.querySelector('[data-testid="tournament-join"]').hidden &&
  document.querySelector('[data-testid="tournament-message"]').textContent === ''`)
	}, func(ok bool) bool { return ok })
	b.do("say hello", chromedp.SendKeys(chromedp.CSS(`[data-testid="chat-input"]`), "hello all\n"))
	poll(b, "the line in the chat", func() (string, error) {
		return tryJS[string](b, `document.querySelector('[data-testid="chat-line"]')?.textContent || ''`)
	}, func(s string) bool { return s == "Bob: hello all" })

	// Ada cancels it, the page asking first.
	evalJS[map[string]any](b, fetchJS("/api/account/logout", `{}`))
	evalJS[map[string]any](b, fetchJS("/api/account/login", `{username: 'Ada', password: 'a long password'}`))
	b.do("open the Swiss as Ada", chromedp.Navigate(e.ts.URL+path),
		chromedp.Click(chromedp.CSS(`[data-testid="tournament-cancel"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="tournament-cancel-keep"]`)))
	shown := `(id) => !document.querySelector('[data-testid="' + id + '"]').closest('[hidden]')`
	poll(b, "the question taken back", func() (bool, error) {
		return tryJS[bool](b, `(`+shown+`)('tournament-cancel') && !(`+shown+`)('tournament-cancel-confirm')`)
	}, func(ok bool) bool { return ok })
	b.do("cancel it", chromedp.Click(chromedp.CSS(`[data-testid="tournament-cancel"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="tournament-cancel-confirm"]`)))
	poll(b, "the tournament cancelled", func() (string, error) {
		return tryJS[string](b, `document.querySelector('[data-testid="tournament-status"]').dataset.status`)
	}, func(s string) bool { return s == "cancelled" })
}

// btBoardsJS reads the boards of round n on a tournament page, each
// "board|White|Black|game link" ("" for a bye's Black and link).
func btBoardsJS(n int) string {
	return fmt.Sprintf(`[...document.querySelectorAll('[data-testid="round"][data-round="%d"] [data-testid="pairing"]')].map((tr) => {
  const td = tr.querySelectorAll('td');
  const link = tr.querySelector('[data-testid="pairing-game"]');
  return [td[0], td[1], td[3]].map((c) => c.textContent.trim()).concat(link ? link.getAttribute('href') : '').join('|');
})`, n)
}

// btBoards are the boards of round n of v as btBoardsJS reads them.
func btBoards(v tourView, n int) []string {
	var out []string
	for _, r := range v.Rounds {
		if r.Number != n {
			continue
		}
		for _, p := range r.Pairings {
			b := fmt.Sprintf("%d|%s||", p.Board, p.White)
			if p.Black != nil && p.Game != nil {
				b = fmt.Sprintf("%d|%s|%s|/g/%s", p.Board, p.White, *p.Black, *p.Game)
			}
			out = append(out, b)
		}
	}
	return out
}

// waitBoards waits until b's tournament page shows version at least,
// with want as the boards of round n.
func (b *browser) waitBoards(what string, version int64, n int, want []string) {
	b.t.Helper()
	b.waitTournamentPage(what, version)
	poll(b, what, func() ([]string, error) { return tryJS[[]string](b, btBoardsJS(n)) },
		func(got []string) bool { return slices.Equal(got, want) })
}

// TestBrowserTournamentCorrespondenceRestart: a round robin of four
// accounts by correspondence, across two restarts of the server on one
// SQLite file. The first server pairs round 1; the second, whose
// director does not sweep in the test's time, serves Ada's page while
// round 1's games are played to their end; the third records them and
// pairs round 2, and Ada's page opened on it shows round 2, the
// standings of round 1 and her next game's link. While she looks, round
// 3 is paired and the page goes to her game; at the end her page shows
// the tournament finished with the final standings, White having won
// every game.
func TestBrowserTournamentCorrespondenceRestart(t *testing.T) {
	exe := requireChromium(t)
	file := filepath.Join(t.TempDir(), "games.db")
	names := []string{"Ada", "Bob", "Cyd", "Dee"}
	ps := map[string]*client{}
	// start is a new server on the file; stop takes it away, after the
	// browser has left it.
	start := func(sweep time.Duration) *env {
		st, err := sqlstore.OpenSQLite(context.Background(), file)
		if err != nil {
			t.Fatal(err)
		}
		e := tourEnv(t, server.Config{Store: st, TournamentSweep: sweep})
		for n, c := range ps {
			ps[n] = c.on(e)
		}
		return e
	}
	stop := func(e *env) {
		e.ts.CloseClientConnections()
		e.ts.Close()
		e.srv.Close()
	}
	e := start(0)
	id, players := btTournament(t, e, with(liveRR, "clock", nil, "days", 2), names...)
	maps.Copy(ps, players)
	ps["Ada"].act(t, id, "start", nil)
	r1 := waitTour(t, ps["Ada"], id, "round 1 paired", func(v tourView) bool { return v.Round == 1 && len(v.pending()) == 2 })
	stop(e)

	e = start(time.Hour)
	b := newBrowser(t, exe, "Ada")
	b.btLogin(e.ts.URL, "Ada")
	b.do("open the round robin", chromedp.Navigate(e.ts.URL+"/t/"+id))
	b.waitBoards("round 1 on the page", r1.Version, 1, btBoards(r1, 1))
	for _, g := range r1.pending() {
		finish(t, ps, g, true)
		waitFor(t, ps[g[1]], g[0], func(st state) bool { return st.Over })
	}
	b.do("leave the page", chromedp.Navigate("about:blank"))
	stop(e)

	e = start(0)
	r2 := waitTour(t, ps["Ada"], id, "round 2 paired", func(v tourView) bool { return v.Round == 2 && len(v.pending()) == 2 })
	b.do("open the round robin on the new server", chromedp.Navigate(e.ts.URL+"/t/"+id))
	b.waitBoards("round 2 on the page", r2.Version, 2, btBoards(r2, 2))
	b.waitBoards("round 1's results on the page", r2.Version, 1, btBoards(r2, 1))
	page := b.waitTournamentPage("the standings after round 1", r2.Version)
	for _, n := range names {
		want := 0.0
		for _, p := range btPairings(r2, 1) {
			if p.White == n {
				want = 1
			}
		}
		if got, ok := btScore(r2, n); !ok || got != want {
			t.Errorf("after round 1 %s has %v points, want %v", n, got, want)
		}
		if page.Scores[n] != fmt.Sprint(want) {
			t.Errorf("after round 1 the page shows %s with %q points, want %v", n, page.Scores[n], want)
		}
	}
	if r2.Me == nil || r2.Me.Game == nil {
		t.Fatalf("Ada has no game in round 2: %+v", r2.Me)
	}
	link := poll(b, "Ada's next game's link", func() (string, error) {
		return tryJS[string](b, `document.querySelector('[data-testid="next-game-link"]')?.getAttribute('href') || ''`)
	}, func(s string) bool { return s != "" })
	if link != "/g/"+*r2.Me.Game {
		t.Errorf("the next game's link goes to %s, Ada's game is %s", link, *r2.Me.Game)
	}
	b.screenshot("tournament-correspondence-restart")

	for _, g := range r2.pending() {
		finish(t, ps, g, true)
	}
	r3 := waitTour(t, ps["Ada"], id, "round 3 paired", func(v tourView) bool { return v.Round == 3 && v.Me != nil && v.Me.Game != nil })
	poll(b, "the page goes to Ada's game of round 3", func() (string, error) { return tryJS[string](b, `location.pathname`) },
		func(p string) bool { return p == "/g/"+*r3.Me.Game })
	for _, g := range r3.pending() {
		finish(t, ps, g, true)
	}
	end := waitTour(t, ps["Ada"], id, "the round robin finished", func(v tourView) bool { return v.Status == "finished" })
	b.do("open the round robin again", chromedp.Navigate(e.ts.URL+"/t/"+id))
	page = b.waitTournamentPage("the final standings", end.Version)
	if page.Status != "finished" || len(page.Rounds) != 3 {
		t.Errorf("at the end the page says %q with %d rounds", page.Status, len(page.Rounds))
	}
	for _, n := range names {
		want := 0.0
		for _, p := range btPairings(end, 0) {
			if p.White == n {
				want++
			}
		}
		if got, ok := btScore(end, n); !ok || got != want {
			t.Errorf("%s: %v points, want %v", n, got, want)
		}
		if page.Scores[n] != fmt.Sprint(want) {
			t.Errorf("the page shows %s with %q points, want %v", n, page.Scores[n], want)
		}
	}
}

// TestBrowserTournamentPairedOnce: two servers on one store (PostgreSQL
// with EMERGO_TEST_POSTGRES, else one SQLite file), both directing with
// a fast sweep, and a Swiss of six by correspondence whose start time
// comes while both sweep. A guest's page on each server shows round 1
// with the same three boards, each player once, and both servers answer
// the one set of pairings: one game each.
func TestBrowserTournamentPairedOnce(t *testing.T) {
	exe := requireChromium(t)
	var a, b store.Store
	if dsn := os.Getenv("EMERGO_TEST_POSTGRES"); dsn != "" {
		schema := pgSchema(t, dsn)
		a, b = openPostgres(t, schema), openPostgres(t, schema)
	} else {
		file := filepath.Join(t.TempDir(), "games.db")
		for _, st := range []*store.Store{&a, &b} {
			sq, err := sqlstore.OpenSQLite(context.Background(), file)
			if err != nil {
				t.Fatal(err)
			}
			*st = sq
		}
	}
	envs := []*env{
		tourEnv(t, server.Config{Store: a, TournamentSweep: time.Millisecond}),
		tourEnv(t, server.Config{Store: b, TournamentSweep: time.Millisecond}),
	}
	names := []string{"pl1", "pl2", "pl3", "pl4", "pl5", "pl6"}
	ps := map[string]*client{}
	for _, n := range names {
		ps[n] = signUp(t, envs[0], n)
	}
	at := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	id := ps["pl1"].createTour(t, map[string]any{"name": "Once", "system": "swiss", "size": 7, "rounds": 3, "days": 2, "start": at}).ID
	for i, n := range names {
		ps[n].on(envs[i%2]).act(t, id, "join", nil)
	}
	var pages []*browser
	for i, e := range envs {
		p := newBrowser(t, exe, fmt.Sprintf("guest %d", i+1))
		p.do("open the Swiss", chromedp.Navigate(e.ts.URL+"/t/"+id))
		poll(p, "the six players", func() (int, error) {
			return tryJS[int](p, `document.querySelectorAll('[data-testid="standing"]').length`)
		}, func(n int) bool { return n == 6 })
		pages = append(pages, p)
	}

	for _, e := range envs {
		e.now.Add(int64(time.Hour + time.Second))
	}
	var views []tourView
	for _, e := range envs {
		views = append(views, waitTour(t, ps["pl1"].on(e), id, "round 1", func(v tourView) bool { return v.Round == 1 && len(v.Rounds) == 1 }))
	}
	boards := btBoards(views[0], 1)
	if !slices.Equal(btBoards(views[1], 1), boards) {
		t.Fatalf("the servers answer two sets of pairings:\n%v\n%v", boards, btBoards(views[1], 1))
	}
	seen := map[string]int{}
	for _, p := range btPairings(views[0], 1) {
		seen[p.White]++
		seen[p.Black]++
	}
	if len(boards) != 3 || len(seen) != 6 {
		t.Fatalf("round 1 of six: %v", boards)
	}
	for n, k := range seen {
		if k != 1 {
			t.Errorf("%s plays %d times in round 1", n, k)
		}
	}
	for _, p := range pages {
		p.waitBoards("round 1 on the page", views[0].Version, 1, boards)
	}
	for i, e := range envs {
		for _, n := range names {
			var games struct{ Games []json.RawMessage }
			ps[n].on(e).getJSON(t, "/api/users/"+n+"/games", &games)
			if len(games.Games) != 1 {
				t.Errorf("server %d: %s has %d games, want 1", i+1, n, len(games.Games))
			}
		}
	}
	if v := waitTour(t, ps["pl1"].on(envs[1]), id, "the tournament", func(tourView) bool { return true }); v.Round != 1 || len(v.Rounds) != 1 {
		t.Errorf("after both sweeps: round %d, %d rounds paired", v.Round, len(v.Rounds))
	}
}
