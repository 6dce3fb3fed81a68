package server_test

import (
	"context"
	"net/http"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"emergo/server"
	"emergo/store"
	"emergo/store/sqlstore"
)

// tvView is GET /api/tv's answer.
type tvView struct {
	Channels []struct {
		Size int `json:"size"`
		Game *struct {
			ID          string `json:"id"`
			White       string `json:"white"`
			Black       string `json:"black"`
			WhiteRating *int   `json:"whiteRating"`
			BlackRating *int   `json:"blackRating"`
			WhiteGuest  bool   `json:"whiteGuest"`
			Rated       bool   `json:"rated"`
			Speed       string `json:"speed"`
		} `json:"game"`
	} `json:"channels"`
}

// ids are the games of the channels by size, "" for none.
func (v tvView) ids() map[int]string {
	out := map[int]string{}
	for _, c := range v.Channels {
		out[c.Size] = ""
		if c.Game != nil {
			out[c.Size] = c.Game.ID
		}
	}
	return out
}

func (c *client) tv(t *testing.T) tvView {
	t.Helper()
	var v tvView
	c.getJSON(t, "/api/tv", &v)
	return v
}

// tvFresh is how long a server keeps its TV's answer.
const tvFresh = 2 * time.Second

// countedTV is a SQLite store that counts the TV's queries.
type countedTV struct {
	*sqlstore.DB
	n atomic.Int64
}

func (s *countedTV) Featured(ctx context.Context, idle time.Time, def float64) ([]store.Featured, error) {
	s.n.Add(1)
	return s.DB.Featured(ctx, idle, def)
}

// TestTV: the TV's channels show the best game going on of each board
// size: of the higher ratings, not a game over, a rated game between
// accounts before a guest's; the next best once the game shown ends; and
// many viewers at once cost one query of the store.
func TestTV(t *testing.T) {
	db, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	st := &countedTV{DB: db}
	e := accountEnv(t, server.Config{Store: st})
	alice, bob, carol, dave := signUp(t, e, "alice"), signUp(t, e, "bob"), signUp(t, e, "carol"), signUp(t, e, "dave")
	nine := with(blitz, "size", 9)
	// Alice beats Bob: her 9x9 rating is above 1500, his below.
	first := acceptedGame(t, alice, bob, nine)
	playToResignation(t, bob, alice, first, bob)

	// The challenger plays Black.
	top := acceptedGame(t, alice, carol, nine)
	low := acceptedGame(t, bob, dave, nine)
	// A later game of Alice and Carol, over, is not shown.
	over := acceptedGame(t, alice, carol, with(nine, "rated", false))
	playToResignation(t, carol, alice, over, carol)
	small := acceptedGame(t, carol, dave, blitz)
	// A guests' 7x7 game on a clock, the latest played, comes after the
	// rated one.
	guest := e.client().create(t, map[string]any{"mode": "friend", "size": 7, "name": "Zed", "clock": map[string]any{"initial": 300, "increment": 3}})
	e.client().join(t, guest.ID, "Yan", *guest.Invite)

	v := e.client().tv(t)
	if got := v.ids(); len(got) != 2 || got[9] != top || got[7] != small || v.Channels[0].Size != 9 {
		t.Fatalf("channels %v, want 9x9 %s and 7x7 %s", got, top, small)
	}
	g := v.Channels[0].Game
	if g.White != "carol" || g.Black != "alice" || g.WhiteRating == nil || *g.WhiteRating != 1500 ||
		g.BlackRating == nil || *g.BlackRating <= 1500 || !g.Rated || g.Speed != "live" {
		t.Errorf("the 9x9 game: %+v", *g)
	}

	// Alice resigns: once the servers' answer is renewed, the game of
	// the lower ratings is shown.
	if code, st, _ := alice.do("POST", "/api/games/"+top+"/resign", nil); code != http.StatusOK || !st.Over {
		t.Fatalf("resign: %d %+v", code, st)
	}
	e.now.Add(int64(tvFresh))
	v = e.client().tv(t)
	if got := v.ids(); got[9] != low || got[7] != small {
		t.Fatalf("after the end of %s: channels %v, want 9x9 %s", top, got, low)
	}
	if g := v.Channels[0].Game; g.BlackRating == nil || *g.BlackRating >= 1500 {
		t.Errorf("Bob's rating: %+v", *g)
	}

	// Many viewers at once: one query of the store for each time the
	// answer is renewed.
	e.now.Add(int64(tvFresh))
	before, start := st.n.Load(), time.Now()
	var wg sync.WaitGroup
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if code, _, body := e.client().do("GET", "/api/tv", nil); code != http.StatusOK {
				t.Errorf("GET /api/tv: %d %s", code, body)
			}
		}()
	}
	wg.Wait()
	if n, most := st.n.Load()-before, 1+int64(time.Since(start)/tvFresh); n < 1 || n > most {
		t.Errorf("40 viewers made %d queries of the store, want 1 (at most %d in %v)", n, most, time.Since(start))
	}
}

// tvAcrossServers: two servers of one store show the same games on
// their TV, whichever server the games are played on, and both go on to
// the next when the game shown ends.
func tvAcrossServers(t *testing.T, c *cluster) {
	nine := map[string]any{"size": 9}
	older, _, _ := friendGame(t, c.a, nine)
	c.advance(time.Second)
	newer, alice, _ := friendGame(t, c.b, nine)
	viewers := []*client{c.a.client(), c.b.client()}
	for i, v := range viewers {
		if got := v.tv(t).ids(); got[9] != newer || got[7] != "" {
			t.Errorf("server %d: channels %v, want 9x9 %s (the latest played) and no 7x7", i, got, newer)
		}
	}
	if code, st, _ := alice.do("POST", "/api/games/"+newer+"/resign", nil); code != http.StatusOK || !st.Over {
		t.Fatalf("resign: %d %+v", code, st)
	}
	c.advance(tvFresh)
	for i, v := range viewers {
		if got := v.tv(t).ids(); got[9] != older {
			t.Errorf("server %d after the end of %s: channels %v, want 9x9 %s", i, newer, got, older)
		}
	}
}
