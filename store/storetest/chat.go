package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"emergo/account"
	"emergo/chat"
	"emergo/store"
)

// ChatStore is a store of games and accounts that keeps their chat and
// its moderation too: a line belongs to a game, a block and a report to
// accounts.
type ChatStore interface {
	store.Store
	account.Store
	chat.Store
}

// Chat runs the suite of a chat.Store. open returns an empty store.
func Chat(t *testing.T, open func(t *testing.T) ChatStore) {
	ctx := context.Background()
	// setup returns a store with the game g1 and the accounts ann, bob
	// and cid.
	setup := func(t *testing.T) (ChatStore, [3]int64) {
		t.Helper()
		s := open(t)
		if err := s.Create(ctx, sample("g1")); err != nil {
			t.Fatal(err)
		}
		var ids [3]int64
		for i, name := range []string{"ann", "bob", "cid"} {
			u := &account.User{Name: name, Key: name, Password: "x", Created: ms(1000)}
			if err := s.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			ids[i] = u.ID
		}
		return s, ids
	}
	t.Run("LinesKeptAndTrimmed", func(t *testing.T) {
		s, u := setup(t)
		var want []chat.Line
		for i := range 7 {
			l := chat.Line{Game: "g1", Room: chat.Players, User: u[i%2], Name: []string{"ann", "bob"}[i%2],
				Text: fmt.Sprintf("line %d", i), Time: ms(int64(2000 + i)), Muted: i == 3}
			if i%3 == 2 {
				l.Room = chat.Spectators
			}
			if err := s.AddLine(ctx, &l, 5); err != nil {
				t.Fatal(err)
			}
			if l.ID == 0 || (len(want) > 0 && l.ID <= want[len(want)-1].ID) {
				t.Fatalf("line %d got the ID %d after %v", i, l.ID, want)
			}
			want = append(want, l)
		}
		got, err := s.Lines(ctx, "g1", 10)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want[2:], got); diff != "" {
			t.Errorf("the lines kept, the latest 5 (-want +got):\n%s", diff)
		}
		got, _ = s.Lines(ctx, "g1", 2)
		if diff := cmp.Diff(want[5:], got); diff != "" {
			t.Errorf("the latest 2 lines (-want +got):\n%s", diff)
		}
		one, err := s.Line(ctx, want[4].ID)
		if err != nil || !cmp.Equal(*one, want[4]) {
			t.Errorf("Line(%d) = %+v, %v; want %+v", want[4].ID, one, err, want[4])
		}
		if _, err := s.Line(ctx, want[0].ID); !errors.Is(err, chat.ErrNotFound) {
			t.Errorf("Line of a line trimmed: %v, want ErrNotFound", err)
		}
		if got, err := s.Lines(ctx, "nope", 10); err != nil || len(got) != 0 {
			t.Errorf("Lines of a game without chat: %v, %v", got, err)
		}
	})
	t.Run("Blocks", func(t *testing.T) {
		s, u := setup(t)
		for _, whom := range []int64{u[1], u[2], u[1]} {
			if err := s.Block(ctx, u[0], whom, ms(3000), 2); err != nil {
				t.Fatalf("Block(%d): %v", whom, err)
			}
		}
		got, err := s.Blocked(ctx, u[0])
		if err != nil || !cmp.Equal(got, []int64{u[1], u[2]}) {
			t.Errorf("Blocked = %v, %v; want %v", got, err, []int64{u[1], u[2]})
		}
		if got, _ := s.Blocked(ctx, u[1]); len(got) != 0 {
			t.Errorf("a block is one way: bob blocks %v", got)
		}
		// At the bound a new block is refused, an old one repeated not.
		var many *chat.TooManyBlocksError
		if err := s.Block(ctx, u[1], u[0], ms(3000), 0); !errors.As(err, &many) || many.Max != 0 {
			t.Errorf("a block beyond the bound: %v, want TooManyBlocksError", err)
		}
		if err := s.Unblock(ctx, u[0], u[1]); err != nil {
			t.Fatal(err)
		}
		if err := s.Unblock(ctx, u[0], u[1]); err != nil {
			t.Errorf("unblocking twice: %v", err)
		}
		if got, _ := s.Blocked(ctx, u[0]); !cmp.Equal(got, []int64{u[2]}) {
			t.Errorf("Blocked after the unblock = %v, want %v", got, []int64{u[2]})
		}
	})
	t.Run("Reports", func(t *testing.T) {
		s, u := setup(t)
		r1 := chat.Report{By: u[0], About: u[1], Game: "g1", Reason: "rude", Time: ms(4000)}
		r2 := chat.Report{By: u[2], About: u[1], Reason: "spam", Time: ms(5000)}
		for _, r := range []*chat.Report{&r1, &r2} {
			if err := s.AddReport(ctx, r, 2); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.AddReport(ctx, &chat.Report{By: u[0], About: u[2], Reason: "x", Time: ms(6000)}, 2); !errors.Is(err, chat.ErrReportsFull) {
			t.Errorf("a report beyond the bound: %v, want ErrReportsFull", err)
		}
		r1.ByName, r1.AboutName, r2.ByName, r2.AboutName = "ann", "bob", "cid", "bob"
		got, err := s.Reports(ctx, 10)
		if diff := cmp.Diff([]chat.Report{r2, r1}, got); err != nil || diff != "" {
			t.Errorf("Reports, the latest first (-want +got), %v:\n%s", err, diff)
		}
		if got, _ := s.Reports(ctx, 1); len(got) != 1 || got[0].ID != r2.ID {
			t.Errorf("Reports(1) = %+v, want the latest", got)
		}
	})
	t.Run("Standing", func(t *testing.T) {
		s, u := setup(t)
		check := func(user int64, want chat.Standing) {
			t.Helper()
			if got, err := s.Standing(ctx, user); err != nil || got != want {
				t.Errorf("Standing(%d) = %+v, %v; want %+v", user, got, err, want)
			}
		}
		check(u[0], chat.Standing{})
		steps := []error{
			s.SetModerator(ctx, u[0], true),
			s.SetMuted(ctx, u[1], true),
			s.SetMuted(ctx, u[0], true),
			s.SetMuted(ctx, u[0], false),
		}
		if err := errors.Join(steps...); err != nil {
			t.Fatal(err)
		}
		check(u[0], chat.Standing{Moderator: true})
		check(u[1], chat.Standing{Muted: true})
		if err := s.SetModerator(ctx, u[0], false); err != nil {
			t.Fatal(err)
		}
		check(u[0], chat.Standing{})
		check(u[2], chat.Standing{})
	})
}
