package server_test

import (
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"emergo/account"
	"emergo/rating"
	"emergo/ratings"
	"emergo/record"
	"emergo/server"
	"emergo/store"
	"emergo/store/sqlstore"
)

// profileJSON and playerGame are the parts of the profile endpoints' answers
// the tests read.
type profileJSON struct {
	Name    string `json:"name"`
	Created string `json:"created"`
	Games   struct {
		Played, Won, Drawn, Lost, Ongoing int
	} `json:"games"`
	Ratings []struct {
		Size        int    `json:"size"`
		Speed       string `json:"speed"`
		Rating      int    `json:"rating"`
		Deviation   int    `json:"deviation"`
		Provisional bool   `json:"provisional"`
		Games       int    `json:"games"`
	} `json:"ratings"`
}

type playerGame struct {
	ID       string `json:"id"`
	Size     int    `json:"size"`
	Mode     string `json:"mode"`
	Color    string `json:"color"`
	Opponent struct {
		Name    string `json:"name"`
		Account bool   `json:"account"`
		Engine  bool   `json:"engine"`
		Rating  *int   `json:"rating"`
	} `json:"opponent"`
	Rating  *struct{ Before, After, Diff float64 } `json:"rating"`
	Outcome string                                 `json:"outcome"`
	Result  string                                 `json:"result"`
	Reason  string                                 `json:"reason"`
	Plies   int                                    `json:"plies"`
	Days    int                                    `json:"days"`
	Rated   bool                                   `json:"rated"`
	Created string                                 `json:"created"`
}

type gamesPage struct {
	Games []playerGame `json:"games"`
	Next  *string      `json:"next"`
}

// profileWorld is a site where Alice has played: a few games through the
// API (a win, a draw, one going on, one against the engine, one aborted),
// and many more written to the store, on both boards, against Bob,
// Carol and guests, two at a time created at the same millisecond.
type profileWorld struct {
	e                  *env
	alice, bob, carol  *client
	ids                map[string]int64 // the accounts' IDs by name
	won, drawn, played string           // games played through the API
}

func newProfileWorld(t *testing.T, st store.Store) *profileWorld {
	ctx := context.Background()
	w := &profileWorld{e: accountEnv(t, server.Config{Store: st}), ids: map[string]int64{}}
	w.alice, w.bob, w.carol = w.e.client(), w.e.client(), w.e.client()
	for name, c := range map[string]*client{"Alice": w.alice, "Bob": w.bob, "Carol": w.carol} {
		if code, msg, _ := c.account("signup", creds(name, "password1")); code != http.StatusCreated {
			t.Fatalf("signup %s: %d %s", name, code, msg)
		}
		p, err := st.(account.Store).Profile(ctx, account.Key(name))
		if err != nil {
			t.Fatal(err)
		}
		w.ids[name] = p.ID
	}
	// Through the API: Alice (White) beats Bob, who resigns; draws with
	// Carol (Black); plays on against Bob; plays the engine; aborts.
	game := func(opp *client, color string) string {
		st := w.alice.create(t, map[string]any{"mode": "friend", "size": 7, "color": color})
		if code, _, body := opp.do("POST", "/api/games/"+st.ID+"/join", map[string]any{"invite": *st.Invite}); code != 200 {
			t.Fatalf("join: %d %s", code, body)
		}
		first, second := w.alice, opp
		if color == "black" {
			first, second = opp, w.alice
		}
		first.move(st.ID, "a1", 0)
		second.move(st.ID, "g7", 1)
		return st.ID
	}
	w.won = game(w.bob, "white")
	if code, _, body := w.bob.do("POST", "/api/games/"+w.won+"/resign", nil); code != 200 {
		t.Fatalf("resign: %d %s", code, body)
	}
	w.drawn = game(w.carol, "black")
	w.carol.do("POST", "/api/games/"+w.drawn+"/draw", map[string]any{"action": "offer"})
	if code, st, _ := w.alice.do("POST", "/api/games/"+w.drawn+"/draw", map[string]any{"action": "accept"}); code != 200 || st.Result != "1/2-1/2" {
		t.Fatalf("draw: %d %+v", code, st)
	}
	w.played = game(w.bob, "white")
	w.alice.create(t, map[string]any{"mode": "engine", "size": 9, "level": 1, "color": "black"})
	aborted := w.alice.create(t, map[string]any{"mode": "friend", "size": 9})
	if code, _, body := w.alice.do("POST", "/api/games/"+aborted.ID+"/abort", nil); code != 200 {
		t.Fatalf("abort: %d %s", code, body)
	}

	// Through the store: 41 games of a year ago, every fourth 9x9.
	results := []struct{ result, reason string }{
		{"1-0", "resignation"}, {"0-1", "resignation"}, {"1/2-1/2", "agreement"}, {"*", ""}, {"0-1", "time forfeit"},
	}
	opponents := []store.Seat{
		{Name: "Bob", Token: "t-b", UserID: w.ids["Bob"]},
		{Name: "Carol", Token: "t-c", UserID: w.ids["Carol"]},
		{Name: "a guest", Token: "t-g"},
	}
	base := time.Now().AddDate(-1, 0, 0).Truncate(time.Millisecond).UTC()
	for i := range 41 {
		r := results[i%len(results)]
		g := &store.Game{
			ID: fmt.Sprintf("stored%02d", i), Size: 7, Start: "7x7 w 8/8 -",
			Created: base.Add(time.Duration(i/2) * time.Hour), Updated: base.Add(time.Duration(i) * time.Hour),
			Mode: "friend", Result: r.result, Reason: r.reason, DrawOffer: -1, TakeBack: -1,
			Moves: []store.Move{{Text: "a1", At: base}, {Text: "g7", At: base}},
		}
		if i%4 == 0 {
			g.Size, g.Start = 9, "9x9 w 12/12 -"
			g.Moves = []store.Move{{Text: "d6", At: base}, {Text: "c1", At: base}}
		}
		me := store.Seat{Name: "Alice", Token: "t-a", UserID: w.ids["Alice"]}
		g.Seats = [2]store.Seat{me, opponents[i%len(opponents)]}
		if i%2 == 1 {
			g.Seats[0], g.Seats[1] = g.Seats[1], g.Seats[0]
		}
		if err := st.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
	}

	// Rated games against Bob, rated as they end: on 9x9 with a clock,
	// Alice wins, loses and wins; on 7x7 by correspondence, a draw.
	rated := []struct {
		size   int
		white  string
		result string
		days   int
	}{
		{9, "Alice", "1-0", 0}, {9, "Bob", "1-0", 0}, {9, "Alice", "1-0", 0}, {7, "Bob", "1/2-1/2", 3},
	}
	for i, r := range rated {
		g := &store.Game{
			ID: fmt.Sprintf("rated%d", i), Size: r.size, Start: "9x9 w 12/12 -",
			Created: base.Add(time.Duration(30+i) * time.Hour), Mode: "friend", Rated: true,
			Result: "*", DrawOffer: -1, TakeBack: -1, Initial: 5 * time.Minute, Days: r.days,
			Moves: []store.Move{{Text: "d6", At: base}, {Text: "c1", At: base}},
			Seats: [2]store.Seat{{Name: "Alice", UserID: w.ids["Alice"]}, {Name: "Bob", UserID: w.ids["Bob"]}},
		}
		if r.size == 7 {
			g.Start, g.Initial = "7x7 w 8/8 -", 0
			g.Moves = []store.Move{{Text: "a1", At: base}, {Text: "g7", At: base}}
		}
		if r.white == "Bob" {
			g.Seats[0], g.Seats[1] = g.Seats[1], g.Seats[0]
		}
		if err := st.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		g.Updated = g.Created.Add(time.Hour)
		g.Result, g.Reason = r.result, map[string]string{"1-0": "resignation", "1/2-1/2": "agreement"}[r.result]
		speed := ratings.Live
		if r.days > 0 {
			speed = ratings.Correspondence
		}
		game := ratings.Game{
			ID: g.ID, Pool: ratings.Pool{Size: r.size, Speed: speed}, Users: [2]int64{g.Seats[0].UserID, g.Seats[1].UserID},
			Score: map[string]float64{"1-0": 1, "1/2-1/2": 0.5}[r.result], End: g.Updated,
		}
		if _, err := ratings.Finish(ctx, st.(ratings.Store), g, len(g.Moves), game); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func (w *profileWorld) profile(t *testing.T, name string) profileJSON {
	var p profileJSON
	w.bob.getJSON(t, "/api/users/"+name, &p)
	return p
}

// pages reads every page of path (with a query) by its next cursors, and
// returns the games in order.
func (w *profileWorld) pages(t *testing.T, path string) []playerGame {
	t.Helper()
	u, err := url.Parse(path)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	var all []playerGame
	for range 100 {
		u.RawQuery = q.Encode()
		var page gamesPage
		w.carol.getJSON(t, u.String(), &page)
		all = append(all, page.Games...)
		if page.Next == nil {
			return all
		}
		if len(page.Games) == 0 {
			t.Fatalf("GET %s: an empty page with a next cursor", u)
		}
		q.Set("before", *page.Next)
	}
	t.Fatalf("GET %s: more than 100 pages", path)
	return nil
}

func ids(games []playerGame) []string {
	var out []string
	for _, g := range games {
		out = append(out, g.ID)
	}
	return out
}

func TestProfiles(t *testing.T) { profilesTest(t, sqliteStore(t)) }

func sqliteStore(t *testing.T) store.Store {
	st, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func profilesTest(t *testing.T, st store.Store) {
	w := newProfileWorld(t, st)

	t.Run("Profile", func(t *testing.T) {
		p := w.profile(t, "aLiCe")
		if p.Name != "Alice" {
			t.Errorf("name %q, want Alice as she wrote it", p.Name)
		}
		if c, err := time.Parse(time.RFC3339, p.Created); err != nil || w.e.time().Sub(c) > time.Minute {
			t.Errorf("created %q: want a moment ago", p.Created)
		}
		// 41 stored games: 13 won, 12 lost, 8 drawn, 8 going on; 4 rated:
		// 2 won, 1 lost, 1 drawn; through the API one won, one drawn, two
		// going on (and one aborted).
		g := p.Games
		want := [5]int{39, 16, 10, 13, 10}
		if got := [5]int{g.Played, g.Won, g.Drawn, g.Lost, g.Ongoing}; got != want {
			t.Errorf("games played, won, drawn, lost, going on: %v, want %v", got, want)
		}
		for _, name := range []string{"nobody", "a b", "x", strings.Repeat("a", 300)} {
			code, st, _ := w.bob.do("GET", "/api/users/"+url.PathEscape(name), nil)
			if code != http.StatusNotFound || st.Error != fmt.Sprintf("no player is called %q", name) {
				t.Errorf("profile of %q: %d %q, want 404 saying no player is called so", name, code, st.Error)
			}
		}
		code, _, body := w.bob.do("GET", "/api/users/alice", nil)
		if code != 200 || strings.Contains(body, "argon2") || strings.Contains(body, "password") {
			t.Errorf("the profile says more than it should: %s", body)
		}
	})

	t.Run("Filters", func(t *testing.T) {
		p := w.profile(t, "alice").Games
		all := w.pages(t, "/api/users/alice/games")
		tests := []struct {
			name, query string
			count       int // the games the filter must find
			ok          func(playerGame) bool
		}{
			{"all", "", p.Played + p.Ongoing, func(playerGame) bool { return true }},
			{"won", "result=won", p.Won, func(g playerGame) bool {
				return g.Outcome == "won" && g.Result == map[string]string{"white": "1-0", "black": "0-1"}[g.Color]
			}},
			{"lost", "result=lost", p.Lost, func(g playerGame) bool {
				return g.Outcome == "lost" && g.Result == map[string]string{"white": "0-1", "black": "1-0"}[g.Color]
			}},
			{"drawn", "result=drawn", p.Drawn, func(g playerGame) bool { return g.Outcome == "drawn" && g.Result == "1/2-1/2" }},
			{"ongoing", "result=ongoing", p.Ongoing, func(g playerGame) bool { return g.Outcome == "ongoing" && g.Result == "*" }},
			{"against Bob", "opponent=BOB", 20, func(g playerGame) bool { return g.Opponent.Name == "Bob" && g.Opponent.Account }},
			{"won against Bob", "opponent=bob&result=won", 8, func(g playerGame) bool { return g.Opponent.Name == "Bob" && g.Outcome == "won" }},
			{"9x9", "size=9", 15, func(g playerGame) bool { return g.Size == 9 }},
			{"7x7 drawn against Carol", "size=7&result=drawn&opponent=carol", 4, func(g playerGame) bool {
				return g.Size == 7 && g.Outcome == "drawn" && g.Opponent.Name == "Carol"
			}},
		}
		for _, tc := range tests {
			for _, limit := range []string{"", "7", "100"} {
				q := url.Values{}
				if tc.query != "" {
					q, _ = url.ParseQuery(tc.query)
				}
				if limit != "" {
					q.Set("limit", limit)
				}
				got := w.pages(t, "/api/users/alice/games?"+q.Encode())
				if len(got) != tc.count {
					t.Errorf("%s, limit %q: %d games, want %d", tc.name, limit, len(got), tc.count)
				}
				// In the order of the whole list, none twice.
				var want []playerGame
				for _, g := range all {
					if tc.ok(g) {
						want = append(want, g)
					}
				}
				if !slices.Equal(ids(got), ids(want)) {
					t.Errorf("%s, limit %q: the pages give\n%v\nwant\n%v", tc.name, limit, ids(got), ids(want))
				}
			}
		}
		// Newest first: the games played through the API, then the
		// stored ones, a year old.
		if len(all) < 5 || !slices.Contains(ids(all[:4]), w.won) || all[4].ID != "rated3" {
			t.Errorf("the list starts %v: want the recent games first", ids(all[:min(len(all), 6)]))
		}
		for i := 1; i < len(all); i++ {
			if all[i-1].Created < all[i].Created {
				t.Errorf("game %s, created %s, comes after %s, created %s", all[i].ID, all[i].Created, all[i-1].ID, all[i-1].Created)
			}
		}
		var won playerGame
		for _, g := range all {
			if g.ID == w.won {
				won = g
			}
		}
		if won.Color != "white" || won.Outcome != "won" || won.Reason != "resignation" || won.Plies != 2 ||
			won.Opponent.Name != "Bob" || !won.Opponent.Account || won.Size != 7 || won.Mode != "friend" {
			t.Errorf("the game Alice won: %+v", won)
		}
		for _, g := range all {
			if g.Mode == "engine" && (!g.Opponent.Engine || g.Opponent.Account || g.Color != "black") {
				t.Errorf("the engine game: %+v", g)
			}
			if g.Opponent.Name == "a guest" && g.Opponent.Account {
				t.Errorf("a guest has an account: %+v", g)
			}
		}
	})

	t.Run("Ratings", func(t *testing.T) {
		// Alice's ratings as Glicko-2 makes them, game after game, and
		// as they stand now, a year later.
		alice, bob := rating.Default(), rating.Default()
		var history []float64
		for i, score := range []float64{1, 0, 1} {
			end := w.e.time().AddDate(-1, 0, 0).Add(time.Duration(31+i) * time.Hour)
			alice, bob = rating.Update(alice, bob, score, end)
			history = append(history, alice.Rating)
		}
		now := alice.At(w.e.time())
		p := w.profile(t, "alice")
		if len(p.Ratings) != 4 {
			t.Fatalf("ratings %+v: want the four pools", p.Ratings)
		}
		type pool struct {
			Size  int
			Speed string
		}
		for i, want := range []pool{{9, "live"}, {9, "correspondence"}, {7, "live"}, {7, "correspondence"}} {
			if got := (pool{p.Ratings[i].Size, p.Ratings[i].Speed}); got != want {
				t.Errorf("rating %d is of %v, want %v", i, got, want)
			}
		}
		live := p.Ratings[0]
		if live.Rating != int(math.Round(now.Rating)) || math.Abs(float64(live.Deviation)-now.Deviation) > 1 ||
			live.Games != 3 || live.Provisional != now.Provisional() {
			t.Errorf("9x9 live %+v, want %v ±%.0f after 3 games", live, now, now.Deviation)
		}
		if r := p.Ratings[1]; r.Rating != 1500 || r.Deviation != 350 || !r.Provisional || r.Games != 0 {
			t.Errorf("9x9 correspondence, never played: %+v", r)
		}
		if r := p.Ratings[3]; r.Games != 1 || r.Rating != 1500 || !r.Provisional {
			t.Errorf("7x7 correspondence after a draw with an equal: %+v", r)
		}

		var h struct {
			History []struct {
				Size   int
				Speed  string
				Points []struct {
					Game                    string
					At                      string
					Rating, Deviation, Diff float64
				}
			}
		}
		w.carol.getJSON(t, "/api/users/ALICE/rating-history?size=9&speed=live", &h)
		if len(h.History) != 1 || h.History[0].Size != 9 || h.History[0].Speed != "live" || len(h.History[0].Points) != 3 {
			t.Fatalf("the history of 9x9 live: %+v", h)
		}
		for i, pt := range h.History[0].Points {
			if pt.Game != fmt.Sprintf("rated%d", i) || math.Abs(pt.Rating-history[i]) > 0.05 || pt.Deviation <= 0 {
				t.Errorf("point %d: %+v, want game rated%d and rating %.1f", i, pt, i, history[i])
			}
			if (pt.Diff > 0) != (i != 1) {
				t.Errorf("point %d: a change of %v after a %s", i, pt.Diff, []string{"win", "loss", "win"}[i])
			}
		}
		w.carol.getJSON(t, "/api/users/alice/rating-history", &h)
		if len(h.History) != 4 || len(h.History[1].Points) != 0 || len(h.History[3].Points) != 1 {
			t.Errorf("every pool's history: %+v", h)
		}
		for path, want := range map[string]string{
			"/api/users/alice/rating-history?speed=blitz": `speed must be "live" or "correspondence"`,
			"/api/users/alice/rating-history?size=10":     "size must be 9 or 7",
			"/api/users/zed/rating-history":               `no player is called "zed"`,
		} {
			if code, st, _ := w.carol.do("GET", path, nil); code/100 != 4 || st.Error != want {
				t.Errorf("GET %s: %d %q, want %q", path, code, st.Error, want)
			}
		}
		var page gamesPage
		w.carol.getJSON(t, "/api/users/alice/games?opponent=bob&limit=1", &page)
		if len(page.Games) != 1 || page.Games[0].ID != w.played || page.Games[0].Rated || page.Games[0].Rating != nil || page.Games[0].Opponent.Rating != nil {
			t.Errorf("the newest game against Bob: %+v, want %s, not rated", page.Games, w.played)
		}
		w.carol.getJSON(t, "/api/users/alice/games?size=9&result=lost&limit=1", &page)
		if len(page.Games) != 1 || page.Games[0].ID != "rated1" || !page.Games[0].Rated {
			t.Fatalf("the newest 9x9 game lost: %+v, want rated1, rated", page.Games)
		}
		// What it did to Alice's rating, and Bob's rating then.
		g := page.Games[0]
		if g.Rating == nil || math.Abs(g.Rating.After-history[1]) > 0.05 || math.Abs(g.Rating.Before-history[0]) > 0.05 ||
			math.Abs(g.Rating.Diff-(history[1]-history[0])) > 0.11 {
			t.Errorf("the rating of the game lost: %+v, want from %.1f to %.1f", g.Rating, history[0], history[1])
		}
		if g.Opponent.Rating == nil || *g.Opponent.Rating >= 1500 {
			t.Errorf("Bob's rating when the game began: %v, want his after a loss, under 1500", g.Opponent.Rating)
		}
	})

	t.Run("PagesStandStill", func(t *testing.T) {
		// A game begun and a move played between two pages change
		// neither: the list is in the order of creation.
		var first gamesPage
		w.carol.getJSON(t, "/api/users/alice/games?limit=3", &first)
		w.alice.create(t, map[string]any{"mode": "engine", "size": 7, "level": 1})
		var st struct{ Legal []string }
		w.alice.getJSON(t, "/api/games/"+w.played, &st)
		if code, _ := w.alice.move(w.played, st.Legal[0], 2); code != 200 {
			t.Fatalf("a move between the pages: %d", code)
		}
		rest := w.pages(t, "/api/users/alice/games?limit=3&before="+url.QueryEscape(*first.Next))
		all := w.pages(t, "/api/users/alice/games")
		if got := ids(append(first.Games, rest...)); !slices.Equal(got, ids(all[1:])) {
			t.Errorf("paged while others played:\n%v\nwant\n%v", got, ids(all[1:]))
		}
	})

	t.Run("BadRequests", func(t *testing.T) {
		tests := []struct {
			path string
			code int
			msg  string
		}{
			{"/api/users/alice/games?result=abandoned", 400, `result must be "won", "lost", "drawn" or "ongoing"`},
			{"/api/users/alice/games?size=8", 400, "size must be 9 or 7"},
			{"/api/users/alice/games?limit=0", 400, "limit must be from 1 to 100"},
			{"/api/users/alice/games?limit=101", 400, "limit must be from 1 to 100"},
			{"/api/users/alice/games?before=yesterday", 400, "before must be the cursor of a page of this list (next)"},
			{"/api/users/alice/games?opponent=zed", 404, `no player is called "zed"`},
			{"/api/users/zed/games", 404, `no player is called "zed"`},
			{"/api/users/zed/games.pgn", 404, `no player is called "zed"`},
			{"/api/users/alice/games.pgn?result=ongoing", 400, "only finished games are downloaded: result is won, lost or drawn, or none for all"},
			{"/api/users/alice/games.pgn?limit=5", 400, "the PGN file has every game the filters select: no before or limit"},
		}
		for _, tc := range tests {
			code, st, _ := w.bob.do("GET", tc.path, nil)
			if code != tc.code || st.Error != tc.msg {
				t.Errorf("GET %s: %d %q, want %d %q", tc.path, code, st.Error, tc.code, tc.msg)
			}
		}
	})

	t.Run("PGN", func(t *testing.T) {
		p := w.profile(t, "alice").Games
		tests := []struct {
			query string
			count int
			ok    func(rec record.Record) bool
		}{
			{"", p.Played, func(rec record.Record) bool { return rec.Tag("Result") != "*" }},
			{"?result=won", p.Won, func(rec record.Record) bool {
				return rec.Tag("White") == "Alice" && rec.Tag("Result") == "1-0" || rec.Tag("Black") == "Alice" && rec.Tag("Result") == "0-1"
			}},
			{"?opponent=carol&result=drawn", 4, func(rec record.Record) bool {
				return rec.Tag("Result") == "1/2-1/2" && (rec.Tag("White") == "Carol" || rec.Tag("Black") == "Carol")
			}},
			{"?size=9&result=lost", 5, func(rec record.Record) bool { return rec.Start.Geometry().N == 9 }},
		}
		for _, tc := range tests {
			resp, err := w.carol.c.Get(w.e.ts.URL + "/api/users/alice/games.pgn" + tc.query)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" ||
				resp.Header.Get("Content-Disposition") != `attachment; filename="emergo-Alice.pgn"` {
				t.Fatalf("games.pgn%s: %d %v", tc.query, resp.StatusCode, resp.Header)
			}
			recs, err := record.ReadAll(data)
			if err != nil {
				t.Fatalf("games.pgn%s reads back: %v\n%s", tc.query, err, data)
			}
			if len(recs) != tc.count {
				t.Errorf("games.pgn%s: %d games, want %d", tc.query, len(recs), tc.count)
			}
			for _, rec := range recs {
				if rec.Tag("White") != "Alice" && rec.Tag("Black") != "Alice" || !tc.ok(rec) || len(rec.Moves) < 2 {
					t.Errorf("games.pgn%s has %v %v", tc.query, rec.Tags, rec.Moves)
				}
			}
		}
	})

	t.Run("GamePageKnowsAccounts", func(t *testing.T) {
		var st struct {
			Players map[string]struct {
				Name    string `json:"name"`
				Account bool   `json:"account"`
			} `json:"players"`
		}
		w.carol.getJSON(t, "/api/games/"+w.won, &st)
		if p := st.Players["white"]; p.Name != "Alice" || !p.Account {
			t.Errorf("white %+v: want Alice's account", p)
		}
		g := w.e.client().create(t, map[string]any{"mode": "friend", "name": "guest"})
		w.carol.getJSON(t, "/api/games/"+g.ID, &st)
		if p := st.Players["white"]; p.Name != "guest" || p.Account {
			t.Errorf("white %+v: want a guest", p)
		}
	})
}
