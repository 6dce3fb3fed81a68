// Package storetest is the conformance suite every store.Store must pass;
// each implementation's tests call Run with a way to open a fresh store.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"emergo/store"
)

// Run runs the suite. open returns an empty store; reopen, if not nil,
// closes it and opens the same data again (a restart).
func Run(t *testing.T, open func(t *testing.T) store.Store, reopen func(t *testing.T, s store.Store) store.Store) {
	ctx := context.Background()
	t.Run("CreateGet", func(t *testing.T) {
		s := open(t)
		g := sample("g1")
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		got, err := s.Get(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(g, got); diff != "" {
			t.Errorf("Get differs from what was created (-want +got):\n%s", diff)
		}
		if _, err := s.Get(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("Get of an unknown game: %v, want ErrNotFound", err)
		}
	})
	t.Run("UpdateAppendsAndTakesBack", func(t *testing.T) {
		s := open(t)
		g := sample("g2")
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		g.Moves = append(g.Moves, store.Move{Text: "f4", At: ms(5000), TimeLeft: [2]time.Duration{time.Minute, 59 * time.Second}})
		g.DrawOffer = 1
		if err := s.Update(ctx, g, len(g.Moves)-1); err != nil {
			t.Fatal(err)
		}
		if g.Version != 2 {
			t.Errorf("version %d after one update, want 2", g.Version)
		}
		got, _ := s.Get(ctx, "g2")
		if diff := cmp.Diff(g, got); diff != "" {
			t.Errorf("after an update (-want +got):\n%s", diff)
		}
		// Take back two moves.
		g.Moves = g.Moves[:1]
		if err := s.Update(ctx, g, 1); err != nil {
			t.Fatal(err)
		}
		got, _ = s.Get(ctx, "g2")
		if len(got.Moves) != 1 || got.Moves[0].Text != "d6" {
			t.Errorf("after a take-back the moves are %v", got.Moves)
		}
	})
	t.Run("ExactlyOneRacingUpdateWins", func(t *testing.T) {
		s := open(t)
		if err := s.Create(ctx, sample("g3")); err != nil {
			t.Fatal(err)
		}
		const n = 8
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				g, err := s.Get(ctx, "g3")
				if err != nil {
					errs[i] = err
					return
				}
				g.Version = 2 - 1 // everyone read version 1
				g.Moves = append(g.Moves, store.Move{Text: fmt.Sprintf("m%d", i), At: ms(9000)})
				errs[i] = s.Update(ctx, g, len(g.Moves)-1)
			}(i)
		}
		wg.Wait()
		wins := 0
		for _, err := range errs {
			switch {
			case err == nil:
				wins++
			case !errors.Is(err, store.ErrConflict):
				t.Errorf("racing update: %v", err)
			}
		}
		if wins != 1 {
			t.Errorf("%d racing updates succeeded, want exactly 1", wins)
		}
		got, _ := s.Get(ctx, "g3")
		if len(got.Moves) != 3 || got.Version != 2 {
			t.Errorf("after the race: %d moves, version %d; want 3 and 2", len(got.Moves), got.Version)
		}
	})
	t.Run("OngoingAndRecent", func(t *testing.T) {
		s := open(t)
		a, b := sample("a"), sample("b")
		b.Result, b.Reason = "1-0", "resignation"
		b.Updated = ms(99000)
		for _, g := range []*store.Game{a, b} {
			if err := s.Create(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		ids, err := s.Ongoing(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"a"}, ids); diff != "" {
			t.Errorf("Ongoing (-want +got):\n%s", diff)
		}
		rec, err := s.Recent(ctx, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(rec) != 2 || rec[0].ID != "b" || rec[1].Plies != 2 {
			t.Errorf("Recent = %+v", rec)
		}
	})
	if reopen != nil {
		t.Run("SurvivesReopen", func(t *testing.T) {
			s := open(t)
			g := sample("g4")
			if err := s.Create(ctx, g); err != nil {
				t.Fatal(err)
			}
			s = reopen(t, s)
			got, err := s.Get(ctx, "g4")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(g, got); diff != "" {
				t.Errorf("after reopening (-want +got):\n%s", diff)
			}
		})
	}
}

func ms(v int64) time.Time { return time.UnixMilli(v).UTC() }

func sample(id string) *store.Game {
	return &store.Game{
		ID: id, Size: 9, Start: "9x9 w 12/12 -", Created: ms(1000), Updated: ms(3000),
		Mode: "friend", Level: 0,
		Seats: [2]store.Seat{{Name: "alice", Token: "t-a", UserID: 7}, {Name: "bob", Token: "t-b"}},
		Moves: []store.Move{
			{Text: "d6", At: ms(2000), TimeLeft: [2]time.Duration{time.Minute, time.Minute}},
			{Text: "c1", At: ms(3000), TimeLeft: [2]time.Duration{time.Minute, 59 * time.Second}},
		},
		Result: "*", DrawOffer: -1, TakeBack: -1,
		Initial: time.Minute, Increment: 2 * time.Second,
		TimeLeft: [2]time.Duration{time.Minute, 59 * time.Second}, TurnStart: ms(3000),
		Version: 1,
	}
}
