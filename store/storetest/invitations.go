package storetest

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"emergo/store"
)

// invitation is a 7x7 friend game created at created (ms) whose Black
// seat is open: its creator White, the account user or else a guest of
// token, created from the client key client.
func invitation(id string, user int64, token, client string, created int64) *store.Game {
	return &store.Game{
		ID: id, Size: 7, Start: "7x7 w 8/8 -", Created: ms(created), Updated: ms(created),
		Mode: "friend", Client: client, Invite: "hash-" + id,
		Seats:  [2]store.Seat{{Name: "alice", Token: token, UserID: user}, {}},
		Result: "*", DrawOffer: -1, TakeBack: -1, TurnStart: ms(created), Version: 1,
	}
}

// testInvitations checks CreateInvitation's counts: of the friend games
// with a seat open that go on alone, a refusal storing nothing, racing
// creations counted one after the other; and the invitations that
// ExpiredInvitations finds.
func testInvitations(t *testing.T, open func(t *testing.T) store.Store) {
	ctx := context.Background()
	t.Run("Counts", func(t *testing.T) {
		s := open(t)
		create := func(g *store.Game) {
			t.Helper()
			if err := s.Create(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		create(invitation("g1", 0, "t1", "c1", 1000))
		create(invitation("g2", 0, "t1", "c2", 1000)) // the browser at another address
		create(invitation("g3", 0, "t2", "c1", 1000)) // another browser at the address
		create(invitation("g4", 7, "t1", "c1", 1000)) // an account in the browser
		create(invitation("g5", 0, "t9", "c9", 1000)) // someone else
		black := invitation("black", 0, "t1", "c1", 1000)
		black.Seats = [2]store.Seat{{}, black.Seats[0]} // its creator Black
		create(black)
		taken := invitation("taken", 0, "t1", "c1", 1000)
		taken.Seats[1], taken.Invite = store.Seat{Name: "bob", Token: "t3"}, ""
		accountTaken := invitation("account", 0, "t1", "c1", 1000)
		accountTaken.Seats[1], accountTaken.Invite = store.Seat{Name: "bob", UserID: 8}, ""
		aborted := invitation("aborted", 0, "t1", "c1", 1000)
		aborted.Reason = "aborted"
		engine := engineGame("engine", 0, "t1", "c1", 1000)
		for _, g := range []*store.Game{taken, accountTaken, aborted, engine} {
			create(g)
		}
		for _, c := range []struct {
			name string
			g    *store.Game
			want store.InvitationCount
		}{
			{"a guest", invitation("new", 0, "t1", "c1", 2000), store.InvitationCount{Token: 3, Client: 3, Total: 6}},
			{"the account", invitation("new", 7, "t1", "c3", 2000), store.InvitationCount{Account: 1, Token: 3, Total: 6}},
			{"another account", invitation("new", 8, "t8", "c8", 2000), store.InvitationCount{Total: 6}},
		} {
			refusedWith(t, s, c.name, c.g, c.want, s.CreateInvitation)
		}
		g := invitation("new", 0, "t1", "c1", 2000)
		g.Seats = [2]store.Seat{{}, g.Seats[0]}
		var got store.InvitationCount
		if err := s.CreateInvitation(ctx, g, func(n store.InvitationCount) error { got = n; return nil }); err != nil {
			t.Fatal(err)
		}
		if want := (store.InvitationCount{Token: 3, Client: 3, Total: 6}); got != want {
			t.Errorf("the count of a creator in Black's seat: %+v, want %+v", got, want)
		}
		stored, err := s.Get(ctx, "new")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(g, stored); diff != "" {
			t.Errorf("the invitation admitted as stored (-want +got):\n%s", diff)
		}
	})
	t.Run("RacingCreationsCountedInTurn", func(t *testing.T) {
		s := open(t)
		// Several browsers, at one address.
		admittedInTurn(t, s.CreateInvitation, func(i int) *store.Game {
			return invitation(fmt.Sprintf("g%d", i), 0, fmt.Sprintf("t%d", i), "c1", 1000)
		}, func(c store.InvitationCount) int { return c.Client })
	})
	t.Run("Expired", func(t *testing.T) {
		s := open(t)
		corr := func(g *store.Game) *store.Game { g.Days = 3; return g }
		taken := invitation("taken", 0, "t", "c", 1000)
		taken.Seats[1] = store.Seat{Name: "bob", Token: "t2"}
		aborted := invitation("aborted", 0, "t", "c", 1000)
		aborted.Reason = "aborted"
		for _, g := range []*store.Game{
			invitation("old", 0, "t", "c", 1000),
			invitation("account", 7, "", "c", 1500),
			invitation("young", 0, "t", "c", 3000),
			corr(invitation("corr", 0, "t", "c", 1000)),
			corr(invitation("corr-young", 0, "t", "c", 3000)),
			taken, aborted, engineGame("engine", 0, "t", "c", 1000),
		} {
			if err := s.Create(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			name                 string
			live, correspondence int64
			limit                int
			want                 []string
		}{
			{"both", 2000, 2000, 10, []string{"corr", "old", "account"}},
			{"at the cutoffs", 1500, 1000, 10, []string{"corr", "old", "account"}},
			{"live ones", 2000, 500, 10, []string{"old", "account"}},
			{"correspondence ones", 500, 5000, 10, []string{"corr", "corr-young"}},
			{"all", 5000, 5000, 10, []string{"corr", "old", "account", "corr-young", "young"}},
			{"a limit", 5000, 5000, 2, []string{"corr", "old"}},
			{"none", 500, 500, 10, nil},
		} {
			got, err := s.ExpiredInvitations(ctx, ms(c.live), ms(c.correspondence), c.limit)
			if err != nil {
				t.Fatal(err)
			}
			if !cmp.Equal(c.want, got) {
				t.Errorf("%s: ExpiredInvitations %v, want %v", c.name, got, c.want)
			}
		}
	})
}
