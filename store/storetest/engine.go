package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"emergo/store"
)

// engineGame is a 7x7 game against the engine created at created (ms):
// its person White, the account user or else a guest of token, created
// from the client key client, with the moves given (at a second each).
func engineGame(id string, user int64, token, client string, created int64, moves ...string) *store.Game {
	g := &store.Game{
		ID: id, Size: 7, Start: "7x7 w 8/8 -", Created: ms(created), Updated: ms(created),
		Mode: "engine", Level: 3, Client: client,
		Seats:  [2]store.Seat{{Name: "alice", Token: token, UserID: user}, {Name: "Emergo level 3", Engine: true}},
		Result: "*", DrawOffer: -1, TakeBack: -1, TurnStart: ms(created), Version: 1,
	}
	for i, m := range moves {
		g.Moves = append(g.Moves, store.Move{Text: m, At: ms(created + int64(i+1)*1000)})
		g.TurnStart = ms(created + int64(i+1)*1000)
	}
	if len(moves)%2 == 0 {
		g.PersonTurn = g.TurnStart // White's turn: the person's
	}
	return g
}

var errTooMany = errors.New("refused by admit")

// refusedWith has create store g with an admit function that refuses
// it, and checks that create returns admit's error, that admit was given
// the count want, and that nothing was stored.
func refusedWith[C any](t *testing.T, s store.Store, what string, g *store.Game, want C, create func(context.Context, *store.Game, func(C) error) error) {
	t.Helper()
	ctx := context.Background()
	var got C
	if err := create(ctx, g, func(n C) error { got = n; return errTooMany }); !errors.Is(err, errTooMany) {
		t.Errorf("%s: refused by admit: %v, want admit's error", what, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: the count (-want +got):\n%s", what, diff)
	}
	if _, err := s.Get(ctx, g.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("%s: a game refused was stored: %v", what, err)
	}
}

// admittedInTurn has create store n games at once, named by game, with an
// admit function that refuses a game past bound by the count of one name
// (of), and checks that bound of them are stored.
func admittedInTurn[C any](t *testing.T, create func(context.Context, *store.Game, func(C) error) error, game func(i int) *store.Game, of func(C) int) {
	t.Helper()
	const n, bound = 8, 3
	var wg sync.WaitGroup
	var admitted atomic.Int32
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := create(context.Background(), game(i), func(c C) error {
				if of(c) >= bound {
					return errTooMany
				}
				return nil
			})
			switch {
			case err == nil:
				admitted.Add(1)
			case !errors.Is(err, errTooMany):
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if admitted.Load() != bound {
		t.Errorf("%d of %d racing creations of one client admitted, want its bound, %d", admitted.Load(), n, bound)
	}
}

// testEngineGames checks CreateEngineGame's counts, that a refusal
// stores nothing and that racing creations are counted one after the
// other, and the games IdleEngineGames finds.
func testEngineGames(t *testing.T, open func(t *testing.T) store.Store) {
	ctx := context.Background()
	t.Run("Counts", func(t *testing.T) {
		s := open(t)
		create := func(g *store.Game) {
			t.Helper()
			if err := s.Create(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		create(engineGame("g1", 0, "t1", "c1", 1000))
		create(engineGame("g2", 0, "t1", "c2", 1000)) // the browser at another address
		create(engineGame("g3", 0, "t2", "c1", 1000)) // another browser at the address
		create(engineGame("g4", 7, "t1", "c1", 1000)) // an account in the browser
		create(engineGame("g5", 0, "t9", "c9", 1000)) // someone else
		won, aborted := engineGame("won", 0, "t1", "c1", 1000), engineGame("aborted", 0, "t1", "c1", 1000)
		won.Result, won.Reason, aborted.Reason = "1-0", "resignation", "aborted"
		create(won)
		create(aborted)
		friend := engineGame("friend", 0, "t1", "c1", 1000)
		friend.Mode, friend.Seats[1] = "friend", store.Seat{Name: "bob", Token: "t3"}
		create(friend)
		for _, c := range []struct {
			name string
			g    *store.Game
			want store.EngineCount
		}{
			{"a guest", engineGame("new", 0, "t1", "c1", 2000), store.EngineCount{Token: 2, Client: 2, Total: 5}},
			{"the account", engineGame("new", 7, "t1", "c3", 2000), store.EngineCount{Account: 1, Token: 2, Total: 5}},
			{"another account", engineGame("new", 8, "t8", "c8", 2000), store.EngineCount{Total: 5}},
		} {
			refusedWith(t, s, c.name, c.g, c.want, s.CreateEngineGame)
		}
		g := engineGame("new", 0, "t1", "c1", 2000, "a1")
		if err := s.CreateEngineGame(ctx, g, func(store.EngineCount) error { return nil }); err != nil {
			t.Fatal(err)
		}
		got, err := s.Get(ctx, "new")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(g, got); diff != "" {
			t.Errorf("the game admitted as stored (-want +got):\n%s", diff)
		}
	})
	t.Run("RacingCreationsCountedInTurn", func(t *testing.T) {
		s := open(t)
		// One browser, at several addresses.
		admittedInTurn(t, s.CreateEngineGame, func(i int) *store.Game {
			return engineGame(fmt.Sprintf("g%d", i), 0, "t1", fmt.Sprintf("c%d", i), 1000)
		}, func(c store.EngineCount) int { return c.Token })
	})
	t.Run("Idle", func(t *testing.T) {
		s := open(t)
		ended := engineGame("ended", 0, "t", "c", 1000)
		ended.Reason = "aborted"
		friend := engineGame("friend", 0, "t", "c", 1000)
		friend.Mode, friend.Seats[1] = "friend", store.Seat{Name: "bob", Token: "t2"}
		engineToMove := engineGame("engine", 0, "t", "c", 1000, "a1", "g7", "b2")
		clocked := engineGame("clocked", 0, "t", "c", 1000, "a1", "g7")
		clocked.Initial, clocked.PersonTurn = time.Minute, time.Time{}
		for _, g := range []*store.Game{
			engineGame("unmoved", 0, "t", "c", 1000),
			engineGame("one", 0, "t", "c", 1500, "a1"),
			engineGame("idle", 0, "t", "c", 1000, "a1", "g7"),                // the person's turn since 3000
			engineGame("playing", 0, "t", "c", 1000, "a1", "g7", "b2", "f6"), // since 5000
			engineGame("young", 7, "t", "c", 4500),                           // created after the cutoff
			engineToMove, clocked, ended, friend,
		} {
			if err := s.Create(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			name            string
			unstarted, idle int64
			limit           int
			want            []string
		}{
			{"both", 4000, 4000, 10, []string{"idle", "unmoved", "one"}},
			{"at the cutoffs", 1500, 3000, 10, []string{"idle", "unmoved", "one"}},
			{"a limit", 4000, 4000, 2, []string{"idle", "unmoved"}},
			{"unstarted only", 4000, 2000, 10, []string{"unmoved", "one"}},
			// The person's turn of an unmoved game began at its creation.
			{"idle only", 500, 3000, 10, []string{"idle", "unmoved"}},
			{"idle later", 500, 5000, 10, []string{"idle", "playing", "unmoved", "young"}},
			{"none", 500, 500, 10, nil},
		} {
			got, err := s.IdleEngineGames(ctx, ms(c.unstarted), ms(c.idle), c.limit)
			if err != nil {
				t.Fatal(err)
			}
			if !cmp.Equal(c.want, got) {
				t.Errorf("%s: IdleEngineGames %v, want %v", c.name, got, c.want)
			}
		}
	})
}
