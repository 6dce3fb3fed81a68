package storetest

import (
	"context"
	"testing"
	"time"

	"emergo/ratings"
	"emergo/store"
)

// TVStore keeps games, ratings and the TV's choice of games, as a site's
// store does.
type TVStore interface {
	RatedStore
	store.TV
}

// TV runs the suite of a store.TV. open returns an empty store.
func TV(t *testing.T, open func(t *testing.T) TVStore) {
	ctx := context.Background()
	const alice, bob, carol, dave = 7, 8, 9, 10
	const def = 1500
	s := open(t)
	// game stores a game of size that goes on between white and black
	// (accounts, 0 for a guest, -1 for the engine), of speed "clock",
	// "days" or "untimed", last played at ms(updated).
	game := func(id string, size int, white, black int64, speed string, updated int64) *store.Game {
		t.Helper()
		g := sample(id)
		g.Size, g.Invite, g.Updated, g.TurnStart = size, "", ms(updated), ms(updated)
		for i, u := range [2]int64{white, black} {
			g.Seats[i] = store.Seat{Name: "p" + id, Token: "t-" + id, UserID: max(u, 0)}
			if u < 0 {
				g.Mode, g.Level, g.Seats[i] = "engine", 3, store.Seat{Name: "Engine", Engine: true}
			}
		}
		switch speed {
		case "days":
			g.Initial, g.Increment, g.Days, g.Deadline = 0, 0, 3, ms(updated+1e6)
		case "untimed":
			g.Initial, g.Increment = 0, 0
		}
		if err := s.Create(ctx, g); err != nil {
			t.Fatalf("create %s: %v", id, err)
		}
		return g
	}
	end := func(g *store.Game) {
		t.Helper()
		g.Result, g.Reason = "1-0", "resignation"
		if err := s.Update(ctx, g, len(g.Moves)); err != nil {
			t.Fatalf("end %s: %v", g.ID, err)
		}
	}
	// Alice beat Bob in a rated 9x9 live game, Carol beat Dave in a
	// rated 9x9 correspondence game: Alice's live rating is the highest,
	// Bob's the lowest; Carol has no live rating, Dave none either.
	rate := func(id string, pool ratings.Pool, winner, loser int64) {
		t.Helper()
		speed := "clock"
		if pool.Speed == ratings.Correspondence {
			speed = "days"
		}
		g := game(id, pool.Size, winner, loser, speed, 5000)
		g.Rated, g.Result, g.Reason, g.Updated = true, "1-0", "resignation", ms(6000)
		if _, err := ratings.Finish(ctx, s, g, len(g.Moves), ratings.Game{ID: id, Pool: pool, Users: [2]int64{winner, loser}, Score: 1, End: ms(6000)}); err != nil {
			t.Fatal(err)
		}
	}
	rate("r-live", ratings.Pool{Size: 9, Speed: ratings.Live}, alice, bob)
	rate("r-corr", ratings.Pool{Size: 9, Speed: ratings.Correspondence}, carol, dave)
	ratingOf := func(user int64, speed ratings.Speed) float64 {
		t.Helper()
		rs, err := s.Ratings(ctx, user)
		if err != nil {
			t.Fatal(err)
		}
		return ratings.Of(rs, ratings.Pool{Size: 9, Speed: speed}).Rating
	}
	aliceLive, bobLive, carolCorr := ratingOf(alice, ratings.Live), ratingOf(bob, ratings.Live), ratingOf(carol, ratings.Correspondence)
	if !(aliceLive > def && bobLive < def && carolCorr > def) {
		t.Fatalf("ratings after the rated games: Alice %v, Bob %v, Carol %v", aliceLive, bobLive, carolCorr)
	}

	aliceCarol := game("alice-carol", 9, carol, alice, "clock", 7000)
	bobDave := game("bob-dave", 9, bob, dave, "clock", 9000)
	carolDave := game("carol-dave", 9, carol, dave, "days", 9000)
	engine := game("engine", 9, alice, -1, "clock", 9000)
	// A game of the same players played later but over, one with a seat
	// open, an uploaded record and an untimed game nobody plays go on
	// (or seem to) but are not shown.
	end(game("over", 9, carol, alice, "clock", 9500))
	openSeat := game("open", 9, alice, carol, "clock", 9000)
	openSeat.Seats[1] = store.Seat{}
	if err := s.Update(ctx, openSeat, len(openSeat.Moves)); err != nil {
		t.Fatal(err)
	}
	up := game("upload", 9, alice, carol, "clock", 9000)
	up.Mode = "analysis"
	if err := s.Update(ctx, up, len(up.Moves)); err != nil {
		t.Fatal(err)
	}
	untimed := game("untimed", 9, alice, carol, "untimed", 4000)
	// On the small board a correspondence game between accounts is shown
	// before a live one with a guest.
	guests := game("guests", 7, 0, alice, "clock", 9000)
	corr7 := game("corr7", 7, bob, dave, "days", 8000)

	check := func(what string, idle int64, want map[int]string) []store.Featured {
		t.Helper()
		got, err := s.Featured(ctx, ms(idle), def)
		if err != nil {
			t.Fatal(err)
		}
		ids := map[int]string{}
		for i, f := range got {
			if i > 0 && got[i-1].Size <= f.Size {
				t.Errorf("%s: size %d after %d, want the larger board first", what, f.Size, got[i-1].Size)
			}
			ids[f.Size] = f.ID
		}
		if len(ids) != len(want) || ids[9] != want[9] || ids[7] != want[7] {
			t.Errorf("%s: Featured %v, want %v", what, ids, want)
		}
		return got
	}
	got := check("the best of each size", 5000, map[int]string{9: "alice-carol", 7: "corr7"})
	if f := got[0]; f.Ratings != [2]float64{def, aliceLive} || f.Names[1] != "palice-carol" || !f.Ongoing() || f.Initial != time.Minute {
		t.Errorf("the featured game: %+v, want Carol (%v, no live rating) and Alice (%v)", f, float64(def), aliceLive)
	}
	if f := got[1]; f.Ratings != [2]float64{def, def} || f.Days != 3 {
		t.Errorf("the small board's game: %+v, want Bob and Dave with no 7x7 rating (%v)", f, float64(def))
	}
	end(aliceCarol)
	check("the live game of the lower ratings", 5000, map[int]string{9: "bob-dave", 7: "corr7"})
	end(bobDave)
	check("correspondence once no live game goes on", 5000, map[int]string{9: "carol-dave", 7: "corr7"})
	end(carolDave)
	check("untimed after correspondence, while played since idle", 3000, map[int]string{9: "untimed", 7: "corr7"})
	check("the engine only when nothing else", 5000, map[int]string{9: "engine", 7: "corr7"})
	end(corr7)
	check("a guest's game only when nothing else", 5000, map[int]string{9: "engine", 7: "guests"})
	end(engine)
	end(untimed)
	end(guests)
	check("none going on", 0, map[int]string{})
}
