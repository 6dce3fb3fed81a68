// Package storetest is the conformance suite every store.Store must pass;
// each implementation's tests call Run with a way to open a fresh store.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
		g.Seats[1].UserID, g.Seats[1].Bot = 8, true // a bot's seat
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
		// Two moves again, then the last one taken back and another
		// played in its place: the ply is written over.
		g.Moves = append(g.Moves, store.Move{Text: "f4", At: ms(6000)}, store.Move{Text: "c5", At: ms(7000)})
		if err := s.Update(ctx, g, 1); err != nil {
			t.Fatal(err)
		}
		g.Moves = append(g.Moves[:2:2], store.Move{Text: "e3", At: ms(8000), TimeLeft: [2]time.Duration{time.Second, 2 * time.Second}})
		if err := s.Update(ctx, g, 2); err != nil {
			t.Fatal(err)
		}
		got, _ = s.Get(ctx, "g2")
		if diff := cmp.Diff(g, got); diff != "" {
			t.Errorf("after a move played over a taken-back one (-want +got):\n%s", diff)
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
	t.Run("Versions", func(t *testing.T) {
		s := open(t)
		a, b := sample("va"), sample("vb")
		for _, g := range []*store.Game{a, b} {
			if err := s.Create(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Update(ctx, b, len(b.Moves)); err != nil {
			t.Fatal(err)
		}
		// More IDs than one query of an implementation may take.
		ids := []string{"va", "vb", "nope"}
		for i := range 1200 {
			ids = append(ids, fmt.Sprintf("missing%d", i))
		}
		tests := []struct {
			name string
			ids  []string
			want map[string]int64
		}{
			{"none", nil, map[string]int64{}},
			{"one", []string{"vb"}, map[string]int64{"vb": 2}},
			{"unknown left out", []string{"va", "nope"}, map[string]int64{"va": 1}},
			{"many", ids, map[string]int64{"va": 1, "vb": 2}},
		}
		for _, tc := range tests {
			got, err := s.Versions(ctx, tc.ids)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s: Versions (-want +got):\n%s", tc.name, diff)
			}
		}
	})
	t.Run("OngoingAndRecent", func(t *testing.T) {
		s := open(t)
		a, b, c := sample("a"), sample("b"), sample("c")
		b.Result, b.Reason = "1-0", "resignation"
		b.Updated = ms(99000)
		// An aborted game ends without a result: it is not ongoing.
		c.Reason = "aborted"
		c.Updated = ms(2000)
		// Games waiting for a player, and uploaded records, go on but are
		// not listed; an uploaded record, in which nobody moves, has
		// nothing to resume either.
		waiting, record := sample("waiting"), sample("record")
		waiting.Seats[1] = store.Seat{}
		waiting.Moves = nil
		record.Mode = "analysis"
		record.Seats = [2]store.Seat{{Name: "x"}, {Name: "y"}}
		waiting.Updated, record.Updated = ms(4000), ms(5000)
		// a runs its clock (a deadline); left and fresh have none, no
		// clock and no days: left, not played since 2500, is left out of
		// Recent from an idle time after it, fresh is not.
		a.Deadline = ms(60000)
		left, fresh := sample("left"), sample("fresh")
		for _, g := range []*store.Game{left, fresh} {
			g.Initial, g.Increment, g.TimeLeft = 0, 0, [2]time.Duration{}
		}
		left.Updated, fresh.Updated = ms(2500), ms(3500)
		for _, g := range []*store.Game{a, b, c, waiting, record, left, fresh} {
			if err := s.Create(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		ids, err := s.Ongoing(ctx)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(ids) // in no order the interface promises
		if diff := cmp.Diff([]string{"a", "fresh", "left", "waiting"}, ids); diff != "" {
			t.Errorf("Ongoing (-want +got):\n%s", diff)
		}
		rec, err := s.Recent(ctx, 10, ms(2800))
		if err != nil {
			t.Fatal(err)
		}
		if len(rec) != 4 || rec[0].ID != "b" || rec[0].Reason != "resignation" || rec[1].ID != "fresh" ||
			rec[2].ID != "a" || rec[2].Plies != 2 ||
			rec[3].ID != "c" || rec[3].Result != "*" || rec[3].Reason != "aborted" {
			t.Errorf("Recent = %+v", rec)
		}
		all, err := s.Recent(ctx, 10, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != 5 || all[3].ID != "left" {
			t.Errorf("Recent with no idle time = %+v", all)
		}
	})
	t.Run("CorrespondenceDue", func(t *testing.T) {
		s := open(t)
		// soon and later wait for their deadlines; live runs a clock and
		// has a deadline too; open has none running; done is over, and
		// so is aborted, without a result.
		soon, later, live, open, done := corr("soon", 9000), corr("later", 20000), sample("live"), corr("open", 0), corr("done", 5000)
		aborted := corr("aborted", 6000)
		live.Deadline = ms(8000)
		done.Result, done.Reason = "0-1", "time forfeit"
		aborted.Reason = "aborted"
		for _, g := range []*store.Game{later, soon, live, open, done, aborted} {
			if err := s.Create(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.Get(ctx, "soon")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(soon, got); diff != "" {
			t.Errorf("a correspondence game read back (-want +got):\n%s", diff)
		}
		ids, err := s.Ongoing(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"live"}, ids); diff != "" {
			t.Errorf("Ongoing leaves the correspondence games to Due (-want +got):\n%s", diff)
		}
		tests := []struct {
			name  string
			by    int64
			limit int
			want  []string
		}{
			{"before every deadline", 7999, 10, nil},
			{"at a deadline", 8000, 10, []string{"live"}},
			{"soonest first", 20000, 10, []string{"live", "soon", "later"}},
			{"limited", 99000, 2, []string{"live", "soon"}},
		}
		for _, tc := range tests {
			ids, err := s.Due(ctx, ms(tc.by), tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, ids); diff != "" {
				t.Errorf("%s: Due (-want +got):\n%s", tc.name, diff)
			}
		}
		// A move moves the deadline; the end of the game clears it.
		soon.Deadline = ms(30000)
		if err := s.Update(ctx, soon, len(soon.Moves)); err != nil {
			t.Fatal(err)
		}
		later.Result, later.Reason = "1-0", "time forfeit"
		if err := s.Update(ctx, later, len(later.Moves)); err != nil {
			t.Fatal(err)
		}
		if ids, _ := s.Due(ctx, ms(25000), 10); !cmp.Equal(ids, []string{"live"}) {
			t.Errorf("Due after a move and an ending: %v, want [live]", ids)
		}
	})
	t.Run("Seated", func(t *testing.T) {
		s := open(t)
		// Alice's account (7) plays White in a, b and e, in b and a from
		// the browser t-a, in e from another (t-x); that browser t-a
		// plays Black as a guest in c; d is others'; b is over; open,
		// others' too, has an open seat; gone, Alice's, was aborted.
		a, b, c, d, e, open := corr("a", 9000), sample("b"), corr("c", 0), sample("d"), sample("e"), corr("open", 0)
		b.Result, b.Reason = "1-0", "resignation"
		gone := sample("gone") // aborted: over without a result
		gone.Reason = "aborted"
		c.Seats = [2]store.Seat{{Name: "bob", Token: "t-b"}, {Name: "alice", Token: "t-a"}}
		d.Seats = [2]store.Seat{{Name: "carol", Token: "t-c"}, {Name: "dave", Token: "t-d"}}
		e.Seats[0].Token = "t-x"
		open.Seats = [2]store.Seat{{Name: "carol", Token: "t-c"}}
		a.Updated, b.Updated, c.Updated, d.Updated, e.Updated, open.Updated, gone.Updated = ms(4000), ms(9000), ms(5000), ms(6000), ms(7000), ms(1000), ms(8000)
		for _, g := range []*store.Game{a, b, c, d, e, open, gone} {
			if err := s.Create(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		tests := []struct {
			name  string
			token string
			user  int64
			limit int
			want  []string // the games going on first, the newest first
		}{
			{"by the browser", "t-a", 0, 10, []string{"c", "a", "b", "gone"}},
			{"by the account", "", 7, 10, []string{"e", "a", "b", "gone"}},
			{"by both", "t-a", 7, 10, []string{"e", "c", "a", "b", "gone"}},
			{"limited", "t-a", 7, 2, []string{"e", "c"}},
			{"by neither: the open seats' token", "", 0, 10, nil},
		}
		for _, tc := range tests {
			got, err := s.Seated(ctx, tc.token, tc.user, tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, sm := range got {
				ids = append(ids, sm.ID)
			}
			if diff := cmp.Diff(tc.want, ids); diff != "" {
				t.Errorf("%s: Seated (-want +got):\n%s", tc.name, diff)
			}
		}
		got, err := s.Seated(ctx, "t-a", 0, 10)
		if err != nil || len(got) != 4 {
			t.Fatalf("Seated: %v %v", got, err)
		}
		want := store.Summary{
			ID: "a", Size: 9, Start: a.Start, Mode: "friend", Created: ms(1000), Names: [2]string{"alice", "bob"},
			Tokens: [2]string{"t-a", "t-b"}, Users: [2]int64{7, 0}, Plies: 2, Result: "*",
			Days: 3, Deadline: ms(9000), Updated: ms(4000),
		}
		if diff := cmp.Diff(want, got[1]); diff != "" {
			t.Errorf("Seated summary (-want +got):\n%s", diff)
		}
		if got[2].Reason != "resignation" {
			t.Errorf("the finished game's reason: %q", got[2].Reason)
		}
	})
	t.Run("PlayerGames", func(t *testing.T) { testPlayerGames(t, open) })
	t.Run("EngineGames", func(t *testing.T) { testEngineGames(t, open) })
	t.Run("Invitations", func(t *testing.T) { testInvitations(t, open) })
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

// corr returns a correspondence game of three days per move whose player
// to move must move by the deadline (ms), or without a deadline for 0.
func corr(id string, deadline int64) *store.Game {
	g := sample(id)
	g.Initial, g.Increment = 0, 0
	g.Days = 3
	g.TimeLeft = [2]time.Duration{72 * time.Hour, 72 * time.Hour}
	for i := range g.Moves {
		g.Moves[i].TimeLeft = g.TimeLeft
	}
	if deadline != 0 {
		g.Deadline = ms(deadline)
	}
	return g
}

func sample(id string) *store.Game {
	return &store.Game{
		ID: id, Size: 9, Start: "9x9 w 12/12 -", Created: ms(1000), Updated: ms(3000),
		Mode: "friend", Level: 0,
		Seats:  [2]store.Seat{{Name: "alice", Token: "t-a", UserID: 7}, {Name: "bob", Token: "t-b"}},
		Invite: "h-invite",
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
