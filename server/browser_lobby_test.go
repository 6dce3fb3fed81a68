package server_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"emergo/player"
	"emergo/rating"
	"emergo/rules"
)

// signUpOn opens the lobby and signs up there, from the header; the
// page loads again as the new account's.
func (b *browser) signUpOn(url, name string) {
	b.t.Helper()
	b.do("open the lobby and the signup dialog",
		chromedp.Navigate(url+"/lobby"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="signup"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="signup"]`)),
	)
	b.fillAccount("sign up", name, "a long password")
	b.waitText("the header shows the name", `[data-testid="account-name"]`, func(s string) bool { return s == name })
	poll(b, "the lobby's form is open to the account", func() (bool, error) {
		return tryJS[bool](b, `!document.querySelector('[data-testid="challenge-post"]').disabled && document.querySelector('[data-testid="lobby-guest"]').hidden`)
	}, func(ok bool) bool { return ok })
}

// weakMove is how the second player of the rated game plays: the engine's
// level 2, seeded, so that the game is the same at every run.
func weakMove(t *testing.T, g *rules.Game) rules.Move {
	t.Helper()
	e, err := player.NewEngine(2, player.EngineOptions{HashMiB: 1, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	m, err := e.Move(context.Background(), g, player.Clock{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// signed writes a rating change as the result box does.
func signed(d float64) string {
	n := int(math.Round(d))
	switch {
	case n > 0:
		return fmt.Sprintf("+%d", n)
	case n < 0:
		return fmt.Sprintf("-%d", -n)
	}
	return "±0"
}

// TestBrowserRatedGame: two people sign up; one posts a rated challenge
// in the lobby, the other sees it there with her rating and accepts it;
// both pages open the game (the challenger's from the lobby's live list);
// they play it by clicking until it ends on the board; and both pages show
// both players' new ratings and their changes as Glicko-2 computes them
// (rating.Update of the two new players' ratings, for the result).
func TestBrowserRatedGame(t *testing.T) {
	exe := requireChromium(t)
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	ts := browserServer(t, now)
	ann, ben := newBrowser(t, exe, "ann"), newBrowser(t, exe, "ben")
	for _, b := range []*browser{ann, ben} {
		recordPolicyViolations(b)
	}
	ann.signUpOn(ts.URL, "Ann")
	ben.signUpOn(ts.URL, "Ben")

	// Ann posts a rated 7x7 challenge with a clock of 5+3, playing White.
	ann.do("post a rated challenge",
		chromedp.SetValue(chromedp.CSS(`[data-testid="challenge-size"]`), "7"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="challenge-color"]`), "white"),
		chromedp.Click(chromedp.CSS(`[data-testid="challenge-post"]`)),
	)
	ann.waitText("her challenge waits in her lobby", `[data-testid="challenge"]`, func(s string) bool {
		return strings.Contains(s, "Waiting for an opponent") && strings.Contains(s, "Rated") && strings.Contains(s, "5+3")
	})
	ann.mark()
	noPolicyViolations(ann, "lobby")

	// Ben sees it come into his lobby, with Ann's rating, and accepts.
	row := ben.waitText("Ann's challenge comes into Ben's lobby", `[data-testid="challenge"]`, func(s string) bool {
		return strings.Contains(s, "Ann") && strings.Contains(s, "1500?") && strings.Contains(s, "7×7")
	})
	t.Logf("Ben's lobby: %q", row)
	ben.screenshot("lobby-challenge")
	ben.do("accept", chromedp.Click(chromedp.CSS(`[data-testid="challenge-accept"]`)))
	id := ben.gameID()
	annView := ann.waitView("Ann's page opens the game", func(v pageView) bool { return v.Path == "/g/"+id })
	if annView.Marked {
		t.Errorf("Ann's lobby did not open the game: %+v", annView)
	}
	st := ben.state(id)
	if st.Size != 7 || st.Mode != "friend" || st.You == nil || *st.You != "black" || st.Clock == nil {
		t.Fatalf("the accepted game, as Ben sees it: %+v", st)
	}
	// Back in her lobby, Ann's accepted challenge links to its game.
	ann.do("back to the lobby", chromedp.Navigate(ts.URL+"/lobby"))
	href := poll(ann, "the accepted challenge links to the game", func() (string, error) {
		return tryJS[string](ann, `(document.querySelector('[data-testid="challenge-game"]') || {getAttribute: () => ''}).getAttribute('href') || ''`)
	}, func(s string) bool { return s != "" })
	if href != "/g/"+id {
		t.Errorf("the accepted challenge links to %q, want /g/%s", href, id)
	}
	ann.do("to the game", chromedp.Click(chromedp.CSS(`[data-testid="challenge-game"]`)))
	ann.waitView("Ann's page is the game again", func(v pageView) bool { return v.Path == "/g/"+id && v.Status != "" })
	people := map[string]*browser{"white": ann, "black": ben}
	for _, b := range people {
		b.mark()
		for _, c := range []string{"white", "black"} {
			b.waitText(b.name+" sees "+c+"'s rating", `[data-testid="rating-`+c+`"]`, func(s string) bool { return s == "1500?" })
		}
	}

	// They play by clicking until the game ends on the board: Ann with
	// the hunting policy of the engine test, Ben the engine's level 2.
	const plyCap = 120
	geo := rules.GeometryOf(7)
	for ply := 0; ; ply++ {
		if ply == plyCap {
			t.Fatalf("no end on the board in %d plies: choose another seed for weakMove", plyCap)
		}
		turn := "white"
		if ply%2 == 1 {
			turn = "black"
		}
		mover := people[turn]
		mover.waitView(fmt.Sprintf("%s's turn at ply %d", mover.name, ply), func(v pageView) bool {
			return v.Interactive && len(v.Moves) == ply && !v.Animating
		})
		st = mover.state(id)
		g := replay(t, 7, st.Moves)
		m := personMove(t, g, true)
		if turn == "black" {
			m = weakMove(t, g)
		}
		mv := m.Text(geo)
		mover.playByClicks(st.Legal, mv)
		mover.waitView(mv+" in the mover's list", func(v pageView) bool { return len(v.Moves) == ply+1 && v.Moves[ply] == mv })
		if st = mover.state(id); st.Over {
			break
		}
	}
	t.Logf("%d plies, %s (%s)", len(st.Moves), st.Result, st.Reason)
	if st.Reason != "all men taken prisoner" && st.Reason != "no legal move" && st.Reason != "repetition" {
		t.Fatalf("the game ended by %q, not on the board", st.Reason)
	}

	// The ratings as Glicko-2 has them: two new players, one game.
	score := map[string]float64{"1-0": 1, "0-1": 0, "1/2-1/2": 0.5}[st.Result]
	white, black := rating.Update(rating.Default(), rating.Default(), score, now)
	want := map[string]rating.Rating{"white": white, "black": black}
	for c, b := range people {
		b.waitView(b.name+"'s result box", func(v pageView) bool { return v.Result != "" })
		for _, side := range []string{"white", "black"} {
			r := want[side]
			diff := b.waitText(b.name+" sees "+side+"'s change", `[data-testid="rating-diff-`+side+`"]`, func(s string) bool { return s != "" })
			if d := signed(r.Rating - rating.DefaultRating); diff != d {
				t.Errorf("%s's page shows %s's change as %q, want %q", b.name, side, diff, d)
			}
			if got, _ := b.text(`[data-testid="rating-` + side + `"]`); got != r.String() {
				t.Errorf("%s's page shows %s's rating as %q, want %q", b.name, side, got, r.String())
			}
		}
		if v := b.view(); !v.Marked {
			t.Errorf("%s (%s): the game page was reloaded", b.name, c)
		}
		noPolicyViolations(b, "game")
	}
	t.Logf("White %s (%s), Black %s (%s)", white, signed(white.Rating-1500), black, signed(black.Rating-1500))
	ann.screenshot("rated-result-ann")
	ben.screenshot("rated-result-ben")

	// The game is on both players' pages, with their new ratings: each
	// opens his own from the header, then the other's from the game's row.
	names := map[string]string{"white": "Ann", "black": "Ben"}
	outcome := map[string]map[string]string{
		"1-0": {"white": "won", "black": "lost"}, "0-1": {"white": "lost", "black": "won"},
		"1/2-1/2": {"white": "drawn", "black": "drawn"},
	}[st.Result]
	for c, b := range people {
		opp := map[string]string{"white": "black", "black": "white"}[c]
		b.do("open one's page from the header", chromedp.Click(chromedp.CSS(`[data-testid="account-name"]`)))
		v := b.seesRatedGame(names[c], id, outcome[c], want[c], signed(want[c].Rating-rating.DefaultRating))
		if g := v.Games[0]; g.Opponent != names[opp] || g.Link != "/@/"+names[opp] {
			t.Errorf("%s's page: the game's opponent is %q, linked to %q", b.name, g.Opponent, g.Link)
		}
		b.do("open the opponent's page from the game", chromedp.Click(chromedp.CSS(`[data-testid="player-game"] .players a`)))
		b.seesRatedGame(names[opp], id, outcome[opp], want[opp], signed(want[opp].Rating-rating.DefaultRating))
		noPolicyViolations(b, "player")
	}
	ann.screenshot("rated-profile")
}
