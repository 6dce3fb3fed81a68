package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"emergo/game"
	"emergo/lobby"
	"emergo/store"
)

// LobbyStore is a store of games that keeps the lobby's challenges too:
// lobby.Store's Accept creates a game of the store.Store.
type LobbyStore interface {
	store.Store
	lobby.Store
}

// Lobby runs the suite of a lobby.Store. open returns an empty store.
func Lobby(t *testing.T, open func(t *testing.T) LobbyStore) {
	ctx := context.Background()
	alice := lobby.Party{User: 7, Token: "t-a", Name: "alice"}
	bob := lobby.Party{User: 8, Token: "t-b", Name: "bob"}
	// challenge returns a pending challenge of Alice's made at created
	// (ms), waiting 10 s.
	challenge := func(id string, created int64) *lobby.Challenge {
		return &lobby.Challenge{
			ID: id, From: alice,
			Settings: lobby.Settings{Size: 9, Control: game.Control{Time: 5 * time.Minute, Increment: 3 * time.Second}, Rated: true, Color: lobby.Black},
			Status:   lobby.Pending, Created: ms(created), Expires: ms(created + 10000), Updated: ms(created),
		}
	}
	create := func(t *testing.T, s LobbyStore, cs ...*lobby.Challenge) {
		t.Helper()
		for _, c := range cs {
			if err := s.CreateChallenge(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
	}
	get := func(t *testing.T, s LobbyStore, id string) *lobby.Challenge {
		t.Helper()
		c, err := s.Challenge(ctx, id)
		if err != nil {
			t.Fatalf("Challenge(%s): %v", id, err)
		}
		return c
	}
	t.Run("CreateAndGet", func(t *testing.T) {
		s := open(t)
		open, direct := challenge("c1", 1000), challenge("c2", 2000)
		direct.To, direct.Rematch, direct.Rated, direct.Color = bob, "g0", false, lobby.Random
		direct.Control = game.Control{Days: 3}
		// A rematch between guests: by their browsers.
		guests := challenge("c3", 3000)
		guests.From, guests.To = lobby.Party{Token: "t-x", Name: "Xavier"}, lobby.Party{Token: "t-y", Name: "Yves"}
		create(t, s, open, direct, guests)
		for _, want := range []*lobby.Challenge{open, direct, guests} {
			if diff := cmp.Diff(want, get(t, s, want.ID)); diff != "" {
				t.Errorf("Challenge(%s) (-want +got):\n%s", want.ID, diff)
			}
		}
		if _, err := s.Challenge(ctx, "nope"); !errors.Is(err, lobby.ErrNotFound) {
			t.Errorf("Challenge of nothing: %v, want ErrNotFound", err)
		}
		if err := s.CreateChallenge(ctx, challenge("c1", 5000)); err == nil {
			t.Errorf("a second challenge of one ID was stored")
		}
	})
	t.Run("Challenges", func(t *testing.T) {
		s := open(t)
		// a and b are pending, expired has expired, taken and declined
		// were answered at 6000 and 9000.
		a, b, expired, taken, declined := challenge("a", 3000), challenge("b", 1000), challenge("expired", 2000), challenge("taken", 4000), challenge("declined", 5000)
		expired.Expires = ms(7000)
		create(t, s, a, b, expired, taken, declined)
		if err := s.Accept(ctx, "taken", ms(6000), gameOf("g-taken")); err != nil {
			t.Fatal(err)
		}
		if err := s.Answer(ctx, "declined", lobby.Declined, ms(9000)); err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name       string
			now, since int64
			limit      int
			want       []string
		}{
			{"pending, and answered since", 8000, 5000, 10, []string{"b", "a", "taken", "declined"}},
			{"the answers before since left out", 8000, 6000, 10, []string{"b", "a", "declined"}},
			{"pending before expiry", 6999, 9000, 10, []string{"b", "expired", "a"}},
			{"limited, the oldest first", 8000, 0, 2, []string{"b", "a"}},
			{"after every expiry", 20000, 9000, 10, nil},
		}
		for _, tc := range tests {
			got, err := s.Challenges(ctx, ms(tc.now), ms(tc.since), tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, c := range got {
				ids = append(ids, c.ID)
			}
			if diff := cmp.Diff(tc.want, ids); diff != "" {
				t.Errorf("%s: Challenges (-want +got):\n%s", tc.name, diff)
			}
		}
	})
	t.Run("AcceptCreatesTheGameOnce", func(t *testing.T) {
		s := open(t)
		create(t, s, challenge("c", 1000))
		g := gameOf("g1")
		if err := s.Accept(ctx, "c", ms(2000), g); err != nil {
			t.Fatal(err)
		}
		if g.Version != 1 {
			t.Errorf("the accepted game's version is %d, want 1", g.Version)
		}
		if got, err := s.Get(ctx, "g1"); err != nil || !cmp.Equal(g, got) {
			t.Errorf("the game Accept made: %v, %v", cmp.Diff(g, got), err)
		}
		want := challenge("c", 1000)
		want.Status, want.Game, want.Updated = lobby.Accepted, "g1", ms(2000)
		if diff := cmp.Diff(want, get(t, s, "c")); diff != "" {
			t.Errorf("the accepted challenge (-want +got):\n%s", diff)
		}
		for _, tc := range []struct {
			name string
			id   string
			want error
		}{{"again", "c", lobby.ErrGone}, {"no challenge", "nope", lobby.ErrNotFound}} {
			if err := s.Accept(ctx, tc.id, ms(3000), gameOf("g2")); !errors.Is(err, tc.want) {
				t.Errorf("%s: Accept = %v, want %v", tc.name, err, tc.want)
			}
		}
		if _, err := s.Get(ctx, "g2"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a refused Accept made its game: %v", err)
		}
	})
	t.Run("AcceptAfterExpiryOrAnswer", func(t *testing.T) {
		s := open(t)
		create(t, s, challenge("late", 1000), challenge("declined", 1000), challenge("cancelled", 1000))
		if err := s.Accept(ctx, "late", ms(11000), gameOf("g1")); !errors.Is(err, lobby.ErrGone) {
			t.Errorf("Accept at the expiry: %v, want ErrGone", err)
		}
		for _, st := range []lobby.Status{lobby.Declined, lobby.Cancelled} {
			id := string(st)
			if err := s.Answer(ctx, id, st, ms(2000)); err != nil {
				t.Fatal(err)
			}
			if c := get(t, s, id); c.Status != st || !c.Updated.Equal(ms(2000)) {
				t.Errorf("after Answer(%s): %s at %v", st, c.Status, c.Updated)
			}
			if err := s.Answer(ctx, id, st, ms(3000)); !errors.Is(err, lobby.ErrGone) {
				t.Errorf("Answer(%s) twice: %v, want ErrGone", st, err)
			}
			if err := s.Accept(ctx, id, ms(3000), gameOf("g-"+id)); !errors.Is(err, lobby.ErrGone) {
				t.Errorf("Accept after %s: %v, want ErrGone", st, err)
			}
		}
		if err := s.Answer(ctx, "nope", lobby.Declined, ms(2000)); !errors.Is(err, lobby.ErrNotFound) {
			t.Errorf("Answer of nothing: %v, want ErrNotFound", err)
		}
	})
	t.Run("AcceptWhoseGameFailsAcceptsNothing", func(t *testing.T) {
		s := open(t)
		create(t, s, challenge("c", 1000))
		if err := s.Create(ctx, gameOf("taken")); err != nil {
			t.Fatal(err)
		}
		if err := s.Accept(ctx, "c", ms(2000), gameOf("taken")); err == nil {
			t.Fatal("Accept with a game of an ID in use succeeded")
		}
		if c := get(t, s, "c"); c.Status != lobby.Pending || c.Game != "" {
			t.Errorf("the challenge after a failed Accept: %s, game %q; want pending", c.Status, c.Game)
		}
	})
	t.Run("ExactlyOneRacingAcceptWins", func(t *testing.T) {
		s := open(t)
		create(t, s, challenge("c", 1000))
		const n = 8
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { errs[i] = s.Accept(ctx, "c", ms(2000), gameOf(fmt.Sprintf("g%d", i))) })
		}
		wg.Wait()
		wins := 0
		for i, err := range errs {
			_, gerr := s.Get(ctx, fmt.Sprintf("g%d", i))
			switch {
			case err == nil:
				wins++
				if gerr != nil || get(t, s, "c").Game != fmt.Sprintf("g%d", i) {
					t.Errorf("the winner's game g%d: %v, challenge's game %q", i, gerr, get(t, s, "c").Game)
				}
			case errors.Is(err, lobby.ErrGone):
				if gerr == nil {
					t.Errorf("a refused Accept made its game g%d", i)
				}
			default:
				t.Errorf("racing Accept: %v", err)
			}
		}
		if wins != 1 {
			t.Errorf("%d racing accepts succeeded, want exactly 1", wins)
		}
	})
	t.Run("RematchOf", func(t *testing.T) {
		s := open(t)
		first, second, other := challenge("r1", 1000), challenge("r2", 2000), challenge("r3", 3000)
		first.Rematch, second.Rematch, other.Rematch = "g", "g", "h"
		create(t, s, first, second, other)
		if c, err := s.RematchOf(ctx, "g"); err != nil || c.ID != "r2" {
			t.Errorf("RematchOf(g) = %+v, %v; want the latest, r2", c, err)
		}
		if _, err := s.RematchOf(ctx, "none"); !errors.Is(err, lobby.ErrNotFound) {
			t.Errorf("RematchOf a game without one: %v, want ErrNotFound", err)
		}
	})
	t.Run("Prune", func(t *testing.T) {
		s := open(t)
		// old expired at 11000, answered answered at 12000; new waits.
		old, answered, recent := challenge("old", 1000), challenge("answered", 1000), challenge("new", 10000)
		answered.Expires = ms(99000)
		create(t, s, old, answered, recent)
		if err := s.Answer(ctx, "answered", lobby.Cancelled, ms(12000)); err != nil {
			t.Fatal(err)
		}
		if err := s.Prune(ctx, ms(12500)); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			id   string
			kept bool
		}{{"old", false}, {"answered", false}, {"new", true}} {
			if _, err := s.Challenge(ctx, c.id); (err == nil) != c.kept {
				t.Errorf("after Prune %s: %v, want kept %v", c.id, err, c.kept)
			}
		}
	})
}

// gameOf returns a new game between Alice and Bob, as a challenge
// becomes.
func gameOf(id string) *store.Game {
	g := sample(id)
	g.Moves, g.Version, g.Rated = nil, 1, true
	g.Seats[1].UserID = 8
	return g
}
