package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"emergo/rating"
	"emergo/ratings"
	"emergo/store"
)

// RatedStore is a store of games that keeps their players' ratings too:
// ratings.Store's Finish writes a game of the store.Store.
type RatedStore interface {
	store.Store
	ratings.Store
}

// Ratings runs the suite of a ratings.Store. open returns an empty store.
func Ratings(t *testing.T, open func(t *testing.T) RatedStore) {
	ctx := context.Background()
	const alice, bob, carol = 7, 8, 9
	live9 := ratings.Pool{Size: 9, Speed: ratings.Live}
	corr7 := ratings.Pool{Size: 7, Speed: ratings.Correspondence}
	// rated stores a rated game of white and black, and returns it with
	// its rating at its end (ms) with white's score.
	rated := func(t *testing.T, s RatedStore, id string, pool ratings.Pool, white, black int64, score float64, end int64) (*store.Game, ratings.Game) {
		t.Helper()
		g := sample(id)
		g.Size, g.Rated = pool.Size, true
		g.Seats[0].UserID, g.Seats[1].UserID = white, black
		if pool.Speed == ratings.Correspondence {
			g.Initial, g.Increment, g.Days = 0, 0, 3
		}
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		g.Result, g.Reason, g.Updated = "1-0", "resignation", ms(end)
		return g, ratings.Game{ID: id, Pool: pool, Users: [2]int64{white, black}, Score: score, End: ms(end)}
	}
	finish := func(t *testing.T, s RatedStore, g *store.Game, r ratings.Game) [2]ratings.Change {
		t.Helper()
		ch, err := ratings.Finish(ctx, s, g, len(g.Moves), r)
		if err != nil {
			t.Fatalf("Finish %s: %v", g.ID, err)
		}
		return ch
	}
	ratingsOf := func(t *testing.T, s RatedStore, user int64) []ratings.Entry {
		t.Helper()
		got, err := s.Ratings(ctx, user)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	history := func(t *testing.T, s RatedStore, user int64, pool ratings.Pool) []ratings.Change {
		t.Helper()
		got, err := s.History(ctx, user, pool)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	t.Run("NoneBeforeTheFirstGame", func(t *testing.T) {
		s := open(t)
		if got := ratingsOf(t, s, alice); len(got) != 0 {
			t.Errorf("Ratings of a new account: %+v, want none", got)
		}
		if got := history(t, s, alice, live9); len(got) != 0 {
			t.Errorf("History of a new account: %+v, want none", got)
		}
		if err := s.Create(ctx, sample("casual")); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Changes(ctx, "casual"); err != nil || len(got) != 0 {
			t.Errorf("Changes of a casual game: %+v, %v; want none", got, err)
		}
		// The lists say which games are rated.
		rated(t, s, "rated", live9, alice, bob, 1, 10000)
		list, err := s.Recent(ctx, 10, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		for _, sm := range list {
			if sm.Rated != (sm.ID == "rated") {
				t.Errorf("Recent: %s is rated: %v", sm.ID, sm.Rated)
			}
		}
	})
	t.Run("FinishWritesAndRatesOnce", func(t *testing.T) {
		s := open(t)
		g, r := rated(t, s, "r1", live9, alice, bob, 1, 10000)
		ch := finish(t, s, g, r)
		wa, wb := rating.Update(rating.Default(), rating.Default(), 1, ms(10000))
		want := [2]ratings.Change{
			{User: alice, Pool: live9, Game: "r1", At: ms(10000), Before: 1500, After: wa.Rating, Deviation: wa.Deviation},
			{User: bob, Pool: live9, Game: "r1", At: ms(10000), Before: 1500, After: wb.Rating, Deviation: wb.Deviation},
		}
		if diff := cmp.Diff(want, ch); diff != "" {
			t.Errorf("Finish's changes (-want +got):\n%s", diff)
		}
		if g.Version != 2 {
			t.Errorf("version %d after Finish, want 2", g.Version)
		}
		got, err := s.Get(ctx, "r1")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(g, got); diff != "" {
			t.Errorf("the game Finish wrote (-want +got):\n%s", diff)
		}
		for _, p := range []struct {
			user int64
			want rating.Rating
		}{{alice, wa}, {bob, wb}} {
			if diff := cmp.Diff([]ratings.Entry{{Pool: live9, Rating: p.want}}, ratingsOf(t, s, p.user)); diff != "" {
				t.Errorf("Ratings(%d) (-want +got):\n%s", p.user, diff)
			}
		}
		if diff := cmp.Diff(want[:1], history(t, s, alice, live9)); diff != "" {
			t.Errorf("History of White (-want +got):\n%s", diff)
		}
		if got, err := s.Changes(ctx, "r1"); err != nil || !cmp.Equal(want[:], got) {
			t.Errorf("Changes = %+v, %v; want %+v", got, err, want)
		}
		// Again: nothing is written, nothing rated twice.
		g.Result = "0-1"
		if _, err := ratings.Finish(ctx, s, g, len(g.Moves), r); !errors.Is(err, ratings.ErrRated) {
			t.Errorf("Finish of a rated game: %v, want ErrRated", err)
		}
		if got, _ := s.Get(ctx, "r1"); got.Version != 2 || got.Result != "1-0" {
			t.Errorf("the second Finish wrote the game: version %d, result %s", got.Version, got.Result)
		}
		if got := ratingsOf(t, s, alice); len(got) != 1 || got[0].Rating != wa {
			t.Errorf("after the second Finish White's ratings are %+v", got)
		}
	})
	t.Run("StaleVersionWritesNothing", func(t *testing.T) {
		s := open(t)
		g, r := rated(t, s, "r2", live9, alice, bob, 0.5, 10000)
		g.Version = 7
		if _, err := ratings.Finish(ctx, s, g, len(g.Moves), r); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("Finish of an old version: %v, want ErrConflict", err)
		}
		if got, _ := s.Get(ctx, "r2"); got.Version != 1 || got.Result != "*" {
			t.Errorf("the refused Finish wrote the game: version %d, result %s", got.Version, got.Result)
		}
		if got := ratingsOf(t, s, alice); len(got) != 0 {
			t.Errorf("the refused Finish rated: %+v", got)
		}
		if got, _ := s.Changes(ctx, "r2"); len(got) != 0 {
			t.Errorf("the refused Finish left history: %+v", got)
		}
		// The game can still be finished, at its version.
		g.Version = 1
		finish(t, s, g, r)
	})
	t.Run("PoolsAndHistory", func(t *testing.T) {
		s := open(t)
		// Alice beats Bob at 9x9 live, loses to Carol at 7x7 by
		// correspondence, then draws Bob with Black at 9x9 live. The
		// ratings follow rating.Update game after game, each pool apart.
		want := map[int64]map[ratings.Pool]rating.Rating{alice: {}, bob: {}, carol: {}}
		games := []struct {
			id           string
			pool         ratings.Pool
			white, black int64
			score        float64
			end          int64
		}{
			{"p1", live9, alice, bob, 1, 10000},
			{"p2", corr7, carol, alice, 1, 20000},
			{"p3", live9, bob, alice, 0.5, 30000 + 86400000},
		}
		for _, gm := range games {
			g, r := rated(t, s, gm.id, gm.pool, gm.white, gm.black, gm.score, gm.end)
			w, b := want[gm.white][gm.pool], want[gm.black][gm.pool]
			if w == (rating.Rating{}) {
				w = rating.Default()
			}
			if b == (rating.Rating{}) {
				b = rating.Default()
			}
			ch := finish(t, s, g, r)
			want[gm.white][gm.pool], want[gm.black][gm.pool] = rating.Update(w, b, gm.score, ms(gm.end))
			if ch[0].Before != w.Rating || ch[0].After != want[gm.white][gm.pool].Rating || ch[1].User != gm.black {
				t.Errorf("%s: changes %+v, want White %v to %v", gm.id, ch, w.Rating, want[gm.white][gm.pool].Rating)
			}
		}
		wantAlice := []ratings.Entry{{Pool: live9, Rating: want[alice][live9]}, {Pool: corr7, Rating: want[alice][corr7]}}
		if diff := cmp.Diff(wantAlice, ratingsOf(t, s, alice)); diff != "" {
			t.Errorf("Alice's ratings, the larger board first (-want +got):\n%s", diff)
		}
		if got := ratingsOf(t, s, alice); got[0].Rating.Games != 2 || got[1].Rating.Games != 1 {
			t.Errorf("Alice's games: %d and %d, want 2 and 1", got[0].Rating.Games, got[1].Rating.Games)
		}
		h := history(t, s, alice, live9)
		if len(h) != 2 || h[0].Game != "p1" || h[1].Game != "p3" || h[1].Before != h[0].After || h[1].After != want[alice][live9].Rating ||
			h[1].Deviation != want[alice][live9].Deviation || !h[1].At.Equal(ms(30000+86400000)) {
			t.Errorf("Alice's 9x9 live history: %+v", h)
		}
		if h := history(t, s, alice, corr7); len(h) != 1 || h[0].Game != "p2" || h[0].Diff() >= 0 {
			t.Errorf("Alice's 7x7 correspondence history: %+v", h)
		}
		if h := history(t, s, carol, live9); len(h) != 0 {
			t.Errorf("Carol's 9x9 live history: %+v, want none", h)
		}
		got, err := s.Changes(ctx, "p3")
		if err != nil || len(got) != 2 || got[0].User != bob || got[1].User != alice {
			t.Errorf("Changes of p3: %+v, %v; want White's (Bob's) first", got, err)
		}
	})
	t.Run("RacingGamesOfOnePlayerLoseNoChange", func(t *testing.T) {
		s := open(t)
		const n = 6
		games := make([]*store.Game, n)
		rs := make([]ratings.Game, n)
		for i := range n {
			// Alice plays everyone's games: White in some, Black in others.
			white, black := int64(alice), int64(100+i)
			if i%2 == 1 {
				white, black = black, white
			}
			games[i], rs[i] = rated(t, s, fmt.Sprintf("race%d", i), live9, white, black, 1, int64(10000+i))
		}
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() {
				_, errs[i] = ratings.Finish(ctx, s, games[i], len(games[i].Moves), rs[i])
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("game %d: %v", i, err)
			}
		}
		// Each game started from the rating the one before left: the
		// history is one chain from 1500 to the rating stored.
		final := ratingsOf(t, s, alice)
		if len(final) != 1 || final[0].Rating.Games != n {
			t.Fatalf("Alice's ratings after %d games: %+v", n, final)
		}
		h := history(t, s, alice, live9)
		at := rating.DefaultRating
		for range n {
			next := -1.0
			for _, c := range h {
				if c.Before == at {
					next = c.After
				}
			}
			if next < 0 {
				t.Fatalf("no game of Alice's started at %v: a change was lost", at)
			}
			at = next
		}
		if at != final[0].Rating.Rating {
			t.Errorf("the chain of Alice's games ends at %v, her rating is %v", at, final[0].Rating.Rating)
		}
	})
}
