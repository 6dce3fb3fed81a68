package storetest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"emergo/store"
)

// Accounts of the players' games: alice is the player whose games are
// listed, bob and carol her opponents with accounts.
const alice, bob, carol = 7, 8, 9

// playerGames are the games of the PlayerGames and CountGames tests:
// alice's games of every outcome, with either colour, on both boards,
// against accounts, a guest and the engine, created two at a time (the
// ID breaks the tie); an aborted one; one she plays against herself; and
// one of others.
func playerGames() []*store.Game {
	var gs []*store.Game
	results := []struct{ result, reason string }{
		{"1-0", "resignation"}, {"0-1", "all men taken prisoner"}, {"1/2-1/2", "agreement"},
		{"*", ""}, {"*", "aborted"}, {"0-1", "time forfeit"}, {"1-0", "no legal move"},
	}
	opponents := []store.Seat{
		{Name: "bob", Token: "t-b", UserID: bob},
		{Name: "carol", Token: "t-c", UserID: carol},
		{Name: "a guest", Token: "t-g"},
		{Name: "Emergo level 3", Engine: true},
	}
	for i := range 30 {
		g := sample(fmt.Sprintf("p%02d", i))
		g.Created = ms(int64(1000 + i/2*100))
		g.Updated = ms(int64(90000 - i*10)) // not the list's order
		r := results[i%len(results)]
		g.Result, g.Reason = r.result, r.reason
		if i%3 == 0 {
			g.Size, g.Start = 7, "7x7 w 8/8 -"
		}
		me := store.Seat{Name: "alice", Token: "t-a", UserID: alice}
		opp := opponents[i%len(opponents)]
		if opp.Engine {
			g.Mode, g.Level = "engine", 3
		}
		g.Seats = [2]store.Seat{me, opp}
		if i%2 == 1 {
			g.Seats = [2]store.Seat{opp, me}
		}
		gs = append(gs, g)
	}
	self := sample("self")
	self.Created = ms(1250)
	self.Seats = [2]store.Seat{{Name: "alice", Token: "t-a", UserID: alice}, {Name: "alice", Token: "t-a2", UserID: alice}}
	self.Result, self.Reason = "1-0", "resignation"
	others := sample("others")
	others.Seats = [2]store.Seat{{Name: "bob", Token: "t-b", UserID: bob}, {Name: "carol", Token: "t-c", UserID: carol}}
	return append(gs, self, others)
}

// naivePlayerGames is PlayerGames written plainly, over every game: what
// the store must answer.
func naivePlayerGames(gs []*store.Game, q store.PlayerQuery) []string {
	var sel []*store.Game
	for _, g := range gs {
		me := slices.IndexFunc(g.Seats[:], func(s store.Seat) bool { return s.UserID == q.User })
		if me < 0 || g.Result == "*" && g.Reason != "" {
			continue
		}
		won := map[int]string{0: "1-0", 1: "0-1"}[me]
		lost := map[int]string{0: "0-1", 1: "1-0"}[me]
		ok := map[store.Outcome]bool{
			store.AnyOutcome: true,
			store.Won:        g.Result == won,
			store.Lost:       g.Result == lost,
			store.Drawn:      g.Result == "1/2-1/2",
			store.Playing:    g.Result == "*",
			store.Finished:   g.Result != "*",
		}[q.Outcome]
		if !ok || q.Opponent != 0 && g.Seats[1-me].UserID != q.Opponent || q.Size != 0 && g.Size != q.Size {
			continue
		}
		sel = append(sel, g)
	}
	slices.SortFunc(sel, func(a, b *store.Game) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	var ids []string
	for _, g := range sel {
		ids = append(ids, g.ID)
	}
	return ids
}

func testPlayerGames(t *testing.T, open func(t *testing.T) store.Store) {
	ctx := context.Background()
	s := open(t)
	gs := playerGames()
	for _, g := range gs {
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	queries := []struct {
		name string
		q    store.PlayerQuery
	}{
		{"all", store.PlayerQuery{User: alice}},
		{"won", store.PlayerQuery{User: alice, Outcome: store.Won}},
		{"lost", store.PlayerQuery{User: alice, Outcome: store.Lost}},
		{"drawn", store.PlayerQuery{User: alice, Outcome: store.Drawn}},
		{"playing", store.PlayerQuery{User: alice, Outcome: store.Playing}},
		{"finished", store.PlayerQuery{User: alice, Outcome: store.Finished}},
		{"against bob", store.PlayerQuery{User: alice, Opponent: bob}},
		{"won against carol", store.PlayerQuery{User: alice, Opponent: carol, Outcome: store.Won}},
		{"on 7x7", store.PlayerQuery{User: alice, Size: 7}},
		{"lost on 9x9 against bob", store.PlayerQuery{User: alice, Size: 9, Opponent: bob, Outcome: store.Lost}},
		{"bob's", store.PlayerQuery{User: bob}},
		{"bob's against alice", store.PlayerQuery{User: bob, Opponent: alice}},
		{"nobody's", store.PlayerQuery{User: 99}},
		{"against nobody", store.PlayerQuery{User: alice, Opponent: 99}},
	}
	for _, tc := range queries {
		want := naivePlayerGames(gs, tc.q)
		if tc.name == "all" && len(want) != 27 {
			t.Fatalf("the fixture gives alice %d games, want 27", len(want))
		}
		for _, limit := range []int{1, 4, 100} {
			// Page after page, each starting after the last game of the
			// one before, until a short page.
			var got []string
			q := tc.q
			q.Limit = limit
			for page := 0; ; page++ {
				sums, err := s.PlayerGames(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				for _, sm := range sums {
					got = append(got, sm.ID)
				}
				if len(sums) < limit || page > len(gs) {
					break
				}
				q.Before = sums[len(sums)-1].Cursor()
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s, %d a page: PlayerGames (-want +got):\n%s", tc.name, limit, diff)
			}
		}
	}
	// A summary carries what the list shows.
	sums, err := s.PlayerGames(ctx, store.PlayerQuery{User: alice, Outcome: store.Lost, Size: 7, Limit: 1})
	if err != nil || len(sums) != 1 {
		t.Fatalf("PlayerGames: %v %v", sums, err)
	}
	g := gs[27] // created last of the 7x7 games alice lost: 27 % 7 = 6, "1-0" with alice Black
	want := store.Summary{
		ID: g.ID, Size: 7, Start: g.Start, Mode: "engine", Level: 3, Created: g.Created,
		Initial: g.Initial, Increment: g.Increment,
		Names: [2]string{"Emergo level 3", "alice"}, Tokens: [2]string{"", "t-a"}, Users: [2]int64{0, alice},
		Plies: 2, Result: "1-0", Reason: "no legal move", Updated: g.Updated,
	}
	if diff := cmp.Diff(want, sums[0]); diff != "" {
		t.Errorf("a player's game (-want +got):\n%s", diff)
	}

	counts := []struct {
		user int64
		want store.GameCounts
	}{
		{alice, countsOf(gs, alice)},
		{bob, countsOf(gs, bob)},
		{99, store.GameCounts{}},
	}
	for _, tc := range counts {
		got, err := s.CountGames(ctx, tc.user)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("CountGames(%d) (-want +got):\n%s", tc.user, diff)
		}
	}
	if c, _ := s.CountGames(ctx, alice); c.Played()+c.Ongoing != 27 || c.Won == 0 || c.Drawn == 0 || c.Lost == 0 || c.Ongoing == 0 {
		t.Errorf("alice's counts %+v: want some of each, 27 in all", c)
	}
}

// countsOf counts user's games through naivePlayerGames.
func countsOf(gs []*store.Game, user int64) store.GameCounts {
	n := func(o store.Outcome) int { return len(naivePlayerGames(gs, store.PlayerQuery{User: user, Outcome: o})) }
	return store.GameCounts{Won: n(store.Won), Drawn: n(store.Drawn), Lost: n(store.Lost), Ongoing: n(store.Playing)}
}
