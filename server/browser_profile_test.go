package server_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"emergo/rating"
)

// profileView is what a player's page shows.
type profileView struct {
	Path    string   `json:"path"`
	Search  string   `json:"search"`
	Name    string   `json:"name"`
	Counts  string   `json:"counts"`
	Message string   `json:"message"`
	Ratings []string `json:"ratings"` // each pool's row
	Pool    string   `json:"pool"`    // the chart's pool
	Chart   struct {
		Title string `json:"title"`
		Desc  string `json:"desc"`
		Dots  int    `json:"dots"`
		Rows  int    `json:"rows"` // of its table
		Empty string `json:"empty"`
	} `json:"chart"`
	Games []struct {
		ID       string `json:"id"`
		Outcome  string `json:"outcome"`
		Opponent string `json:"opponent"`
		Link     string `json:"link"` // the opponent's page, "" for none
		PGN      string `json:"pgn"`
		Change   string `json:"change"` // of the player's rating
	} `json:"games"`
	GamesMessage string `json:"gamesMessage"`
	Page         string `json:"page"`
	Prev         bool   `json:"prev"` // enabled
	Next         bool   `json:"next"`
	Download     string `json:"download"`
}

const profileJS = `(() => {
  const q = (s) => document.querySelector(s);
  const text = (s) => (q(s) ? q(s).textContent.trim() : '');
  const svg = q('svg[data-testid="rating-chart"]');
  return {
    path: location.pathname,
    search: location.search,
    name: text('[data-testid="profile-name"]'),
    counts: text('[data-testid="profile-counts"]'),
    message: text('[data-testid="profile-message"]'),
    ratings: [...document.querySelectorAll('[data-testid="profile-ratings"] tbody tr')].map((r) => r.innerText.replace(/\s+/g, ' ').trim()),
    pool: q('[data-testid="chart-pool"]') ? q('[data-testid="chart-pool"]').value : '',
    chart: {
      title: svg ? svg.querySelector('title').textContent : '',
      desc: svg ? svg.querySelector('desc').textContent : '',
      dots: svg ? svg.querySelectorAll('circle.dot').length : 0,
      rows: document.querySelectorAll('[data-testid="rating-table"] tbody tr').length,
      empty: text('[data-testid="chart-empty"]'),
    },
    games: [...document.querySelectorAll('[data-testid="player-game"]')].map((r) => ({
      id: r.dataset.game,
      outcome: r.dataset.outcome,
      opponent: r.querySelector('.players').firstChild.textContent,
      link: r.querySelector('.players a') ? r.querySelector('.players a').getAttribute('href') : '',
      pgn: r.querySelector('[data-testid="game-pgn"]') ? r.querySelector('[data-testid="game-pgn"]').getAttribute('href') : '',
      change: r.querySelector('[data-testid="rating-change"]') ? r.querySelector('[data-testid="rating-change"]').textContent.trim() : '',
    })),
    gamesMessage: text('[data-testid="games-message"]'),
    page: text('[data-testid="games-page"]'),
    prev: q('[data-testid="games-prev"]') ? !q('[data-testid="games-prev"]').disabled : false,
    next: q('[data-testid="games-next"]') ? !q('[data-testid="games-next"]').disabled : false,
    download: q('[data-testid="download-games"]') ? q('[data-testid="download-games"]').getAttribute('href') : '',
  };
})()`

func (b *browser) waitProfile(what string, ok func(profileView) bool) profileView {
	b.t.Helper()
	return poll(b, what, func() (profileView, error) { return tryJS[profileView](b, profileJS) }, ok)
}

// gameIDs are the games a page lists.
func (v profileView) gameIDs() []string {
	var out []string
	for _, g := range v.Games {
		out = append(out, g.ID)
	}
	return out
}

// TestBrowserProfile: a visitor opens Alice's page (her games and rated
// games set up through the API and the store, newProfileWorld): he sees
// her counts, her ratings with their deviations, the chart of a rating's
// history and its table, switches the chart to another board and speed,
// pages through her 49 games and back, filters them by result and
// opponent, follows an opponent to his page, and finds her name on a game
// linked to her page; nothing breaks the Content-Security-Policy.
func TestBrowserProfile(t *testing.T) {
	exe := requireChromium(t)
	w := newProfileWorld(t, sqliteStore(t))
	url := w.e.ts.URL
	dan := newBrowser(t, exe, "dan")
	recordPolicyViolations(dan)

	dan.do("open Alice's page", chromedp.Navigate(url+"/@/alice"))
	v := dan.waitProfile("the profile and the first page of games", func(v profileView) bool {
		return v.Name == "Alice" && v.Counts != "" && len(v.Ratings) == 4 && len(v.Games) == 20 && v.Chart.Dots > 0
	})
	if v.Counts != "39 games played: 16 won, 10 drawn, 13 lost. 10 going on." {
		t.Errorf("counts %q", v.Counts)
	}
	if !strings.HasPrefix(v.Ratings[0], "9×9 live ") || !strings.Contains(v.Ratings[0], "±") || !strings.HasSuffix(v.Ratings[0], "3 rated games") {
		t.Errorf("the 9x9 live rating: %q", v.Ratings[0])
	}
	if v.Ratings[1] != "9×9 correspondence 1500? ±350 0 rated games" {
		t.Errorf("the 9x9 correspondence rating, never played: %q", v.Ratings[1])
	}
	if v.Pool != "9-live" || v.Chart.Dots != 3 || v.Chart.Rows != 3 || v.Chart.Title != "Rating history, 9×9 live" ||
		!strings.Contains(v.Chart.Desc, "after 3 rated games, from 1500") {
		t.Errorf("the chart shows %q %+v: want 9x9 live's three games", v.Pool, v.Chart)
	}
	if v.Page != "Page 1" || v.Prev || !v.Next {
		t.Errorf("the pager: %q, previous %v, next %v", v.Page, v.Prev, v.Next)
	}
	dan.screenshot("profile")

	// On a phone the ratings table fits the page, in every language.
	dan.do("a phone's window", chromedp.EmulateViewport(390, 844))
	for _, lang := range []string{"pt", "ru", "lfn", "en"} {
		dan.switchLanguage(lang)
		poll(dan, "the page in "+lang, dan.langView, func(v langView) bool { return !v.Marked && v.Lang == lang })
		dan.waitProfile("the ratings in "+lang, func(v profileView) bool { return len(v.Ratings) == 4 })
		if out := evalJS[string](dan, ratingsFitJS); out != "" {
			t.Errorf("the ratings table in %s on a 390 px phone: %s", lang, out)
		}
	}
	dan.screenshot("profile-phone")
	dan.do("a wide window", chromedp.EmulateViewport(1280, 900))

	setPool := func(pool string) {
		evalJS[bool](dan, fmt.Sprintf(`(() => { const s = document.querySelector('[data-testid="chart-pool"]'); s.value = %q; s.dispatchEvent(new Event('change')); return true; })()`, pool))
	}
	setPool("7-correspondence")
	dan.waitProfile("the chart of 7x7 correspondence", func(v profileView) bool {
		return v.Chart.Dots == 1 && v.Chart.Title == "Rating history, 7×7 correspondence"
	})
	setPool("9-correspondence")
	dan.waitProfile("no chart without games", func(v profileView) bool {
		return v.Chart.Dots == 0 && v.Chart.Empty == "No rated games on 9×9 correspondence yet."
	})

	// Every page: 20, 20 and 9 games, none twice; back to the second.
	pages := [][]string{v.gameIDs()}
	for n := 2; n <= 3; n++ {
		dan.do(fmt.Sprintf("page %d", n), chromedp.Click(chromedp.CSS(`[data-testid="games-next"]`)))
		v = dan.waitProfile(fmt.Sprintf("page %d", n), func(v profileView) bool {
			return v.Page == fmt.Sprintf("Page %d", n) && len(v.Games) > 0 && !slices.Equal(v.gameIDs(), pages[len(pages)-1])
		})
		pages = append(pages, v.gameIDs())
	}
	if len(pages[1]) != 20 || len(pages[2]) != 9 || v.Next || !v.Prev {
		t.Errorf("pages of %d, %d and %d games, next %v, previous %v: want 20, 20 and 9, the last", len(pages[0]), len(pages[1]), len(pages[2]), v.Next, v.Prev)
	}
	seen := map[string]bool{}
	for _, id := range slices.Concat(pages...) {
		if seen[id] {
			t.Errorf("game %s is on two pages", id)
		}
		seen[id] = true
	}
	dan.do("back a page", chromedp.Click(chromedp.CSS(`[data-testid="games-prev"]`)))
	dan.waitProfile("page 2 again", func(v profileView) bool {
		return v.Page == "Page 2" && slices.Equal(v.gameIDs(), pages[1])
	})

	// The games Alice won against Bob.
	dan.do("filter",
		chromedp.SetValue(chromedp.CSS(`[data-testid="filter-result"]`), "won"),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="filter-opponent"]`), "BOB"),
		chromedp.Click(chromedp.CSS(`[data-testid="filter-apply"]`)),
	)
	v = dan.waitProfile("the games won against Bob", func(v profileView) bool {
		return v.Page == "Page 1" && len(v.Games) == 8
	})
	for _, g := range v.Games {
		if g.Outcome != "won" || g.Opponent != "Bob" || g.Link != "/@/Bob" || g.PGN != "/api/games/"+g.ID+"/record.pgn" {
			t.Errorf("a game won against Bob: %+v", g)
		}
	}
	if v.Next || v.Prev || v.Search != "?result=won&opponent=BOB" || v.Download != "/api/users/Alice/games.pgn?result=won&opponent=BOB" {
		t.Errorf("after filtering: next %v, previous %v, address %q, download %q", v.Next, v.Prev, v.Search, v.Download)
	}
	pgn := evalJS[string](dan, fmt.Sprintf(`fetch(%q).then((r) => r.text())`, v.Download))
	if n := strings.Count(pgn, "[Event "); n != 8 {
		t.Errorf("the filtered download has %d games, want 8", n)
	}
	dan.do("filter by nobody",
		chromedp.SetValue(chromedp.CSS(`[data-testid="filter-opponent"]`), "zed"),
		chromedp.Click(chromedp.CSS(`[data-testid="filter-apply"]`)),
	)
	dan.waitProfile("the filter's error", func(v profileView) bool {
		return v.GamesMessage == "There is no player called zed." && len(v.Games) == 0
	})
	dan.do("the 9x9 games lost", chromedp.Navigate(url+"/@/alice?size=9&result=lost"))
	dan.waitProfile("the rated game lost says what it cost", func(v profileView) bool {
		return len(v.Games) == 5 && v.Games[0].ID == "rated1" && strings.HasPrefix(v.Games[0].Change, "-") && v.Games[1].Change == ""
	})
	dan.do("filters from the address", chromedp.Navigate(url+"/@/alice?size=7&result=drawn&opponent=carol"))
	dan.waitProfile("the 7x7 games drawn against Carol", func(v profileView) bool {
		return len(v.Games) == 4 && v.Games[0].Outcome == "drawn" && v.Games[0].Link == "/@/Carol"
	})
	noPolicyViolations(dan, "player")

	dan.do("follow the opponent", chromedp.Click(chromedp.CSS(`[data-testid="player-game"] .players a`)))
	dan.waitProfile("Carol's page", func(v profileView) bool {
		return v.Path == "/@/Carol" && v.Name == "Carol" && strings.HasPrefix(v.Counts, "13 games played")
	})

	dan.do("nobody's page", chromedp.Navigate(url+"/@/nobody"))
	dan.waitProfile("no such player", func(v profileView) bool { return v.Message == "There is no player called nobody." })

	dan.do("a game of Alice's", chromedp.Navigate(url+"/g/"+w.won))
	dan.waitText("Alice's name on the game links to her page", `[data-testid="player-white"] a.name`, func(s string) bool { return s == "Alice" })
	if href := evalJS[string](dan, `document.querySelector('[data-testid="player-white"] a.name').getAttribute('href')`); href != "/@/Alice" {
		t.Errorf("Alice's name on the game links to %q", href)
	}
	noPolicyViolations(dan, "game")
}

// seesRatedGame waits until b shows the page of the player name with the
// rated 7x7 live game id newest in his list, ending with outcome for him
// and the change diff of his rating, and his 7x7 live rating r, the one
// point of its chart.
func (b *browser) seesRatedGame(name, id, outcome string, r rating.Rating, diff string) profileView {
	b.t.Helper()
	want := fmt.Sprintf("7×7 live %s ±%d 1 rated game", r, int(math.Round(r.Deviation)))
	return b.waitProfile(name+"'s page shows the rated game and the new rating", func(v profileView) bool {
		return v.Name == name && len(v.Games) > 0 && v.Games[0].ID == id && v.Games[0].Outcome == outcome &&
			v.Games[0].Change == diff && len(v.Ratings) == 4 && v.Ratings[2] == want &&
			v.Pool == "7-live" && v.Chart.Dots == 1
	})
}

// ratingsFitJS says how the ratings table runs past its card or the
// window, "" if it fits.
const ratingsFitJS = `(() => {
  const table = document.querySelector('table.ratings');
  const card = document.querySelector('#profile-ratings-box');
  const r = table.getBoundingClientRect();
  const c = card.getBoundingClientRect();
  if (r.right > c.right + 1 || r.right > window.innerWidth || card.scrollWidth > card.clientWidth + 1) {
    return 'table ' + Math.round(r.width) + ' px wide, right edge ' + Math.round(r.right) + ', card right edge ' + Math.round(c.right) + ', window ' + window.innerWidth;
  }
  return '';
})()`
