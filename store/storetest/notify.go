package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"emergo/account"
	"emergo/notify"
	"emergo/store"
)

// NotifyStore is a store of games and accounts that keeps the
// notifications, push subscriptions and follows of the accounts too.
type NotifyStore interface {
	store.Store
	account.Store
	notify.Store
}

// Notify runs the suite of a notify.Store. open returns an empty store;
// another opens the data of s a second time, beside s, as a second server
// on the same database does.
func Notify(t *testing.T, open func(t *testing.T) NotifyStore, another func(t *testing.T, s NotifyStore) NotifyStore) {
	ctx := context.Background()
	users := func(t *testing.T, s NotifyStore, names ...string) []int64 {
		t.Helper()
		var ids []int64
		for _, n := range names {
			u := &account.User{Name: n, Key: account.Key(n), Password: "x", Created: ms(1000)}
			if err := s.CreateUser(ctx, u); err != nil {
				t.Fatalf("create %s: %v", n, err)
			}
			ids = append(ids, u.ID)
		}
		return ids
	}
	// addFresh adds n, which must be fresh or not as said.
	addFresh := func(t *testing.T, s NotifyStore, n notify.Notification, keep int, fresh bool) notify.Notification {
		t.Helper()
		got, err := s.AddNotification(ctx, &n, keep)
		if err != nil {
			t.Fatal(err)
		}
		if got != fresh {
			t.Errorf("AddNotification(%+v) reports fresh %v, want %v", n, got, fresh)
		}
		if n.ID == 0 {
			t.Fatal("AddNotification left the ID 0")
		}
		return n
	}
	add := func(t *testing.T, s NotifyStore, n notify.Notification, keep int) notify.Notification {
		t.Helper()
		return addFresh(t, s, n, keep, true)
	}
	list := func(t *testing.T, s NotifyStore, user int64) []notify.Notification {
		t.Helper()
		ns, err := s.Notifications(ctx, user, notify.Kept)
		if err != nil {
			t.Fatal(err)
		}
		return ns
	}
	t.Run("NotificationsNewestFirst", func(t *testing.T) {
		s := open(t)
		ids := users(t, s, "alice", "bob")
		a, b := ids[0], ids[1]
		first := add(t, s, notify.Notification{User: a, Type: notify.Challenge, From: b, Created: ms(1000)}, notify.Kept)
		second := add(t, s, notify.Notification{User: a, Type: notify.GameOver, Game: "g1", From: b, Created: ms(2000)}, notify.Kept)
		add(t, s, notify.Notification{User: b, Type: notify.Follower, From: a, Created: ms(3000)}, notify.Kept)
		first.FromName, second.FromName = "bob", "bob"
		if diff := cmp.Diff([]notify.Notification{second, first}, list(t, s, a)); diff != "" {
			t.Errorf("alice's notifications (-want +got):\n%s", diff)
		}
		if got := list(t, s, b); len(got) != 1 || got[0].Type != notify.Follower || got[0].FromName != "alice" {
			t.Errorf("bob's notifications: %+v, want alice's follow", got)
		}
	})
	t.Run("OneUnreadYourTurnAGame", func(t *testing.T) {
		s := open(t)
		ids := users(t, s, "alice", "bob")
		a, b := ids[0], ids[1]
		turn := func(game string, at int64, fresh bool) notify.Notification {
			return addFresh(t, s, notify.Notification{User: a, Type: notify.YourTurn, Game: game, From: b, Created: ms(at)}, notify.Kept, fresh)
		}
		first := turn("g1", 1000, true)
		again := turn("g1", 2000, false)
		other := turn("g2", 3000, true)
		if again.ID != first.ID || other.ID == first.ID {
			t.Errorf("IDs %d, %d (the same game's) and %d (another's): want the first two equal", first.ID, again.ID, other.ID)
		}
		got := list(t, s, a)
		if len(got) != 2 || got[1].ID != first.ID || !got[1].Created.Equal(ms(2000)) {
			t.Fatalf("notifications %+v: want g2's, then g1's of the later move", got)
		}
		// Once read, the game's next turn is a new notification.
		if err := s.MarkRead(ctx, a, []int64{first.ID}); err != nil {
			t.Fatal(err)
		}
		next := turn("g1", 4000, true)
		if next.ID == first.ID {
			t.Error("a yourTurn after the game's last was read took its place")
		}
		got = list(t, s, a)
		if len(got) != 3 || got[0].ID != next.ID || got[0].Read || !got[2].Read || got[2].ID != first.ID {
			t.Errorf("notifications %+v: want the new turn unread first, the read one last", got)
		}
	})
	t.Run("OneUnreadFollowAFollower", func(t *testing.T) {
		s := open(t)
		ids := users(t, s, "alice", "bob", "carol")
		a, b, c := ids[0], ids[1], ids[2]
		follow := func(from int64, at int64, fresh bool) notify.Notification {
			return addFresh(t, s, notify.Notification{User: a, Type: notify.Follower, From: from, Created: ms(at)}, notify.Kept, fresh)
		}
		first := follow(b, 1000, true)
		follow(c, 2000, true)
		if again := follow(b, 3000, false); again.ID != first.ID {
			t.Errorf("bob's follow again is %d, want his first, %d", again.ID, first.ID)
		}
		if got := list(t, s, a); len(got) != 2 || got[0].ID != first.ID {
			t.Errorf("notifications %+v: want bob's follow, of the later time, then carol's", got)
		}
	})
	t.Run("MarkRead", func(t *testing.T) {
		s := open(t)
		ids := users(t, s, "alice", "bob")
		a, b := ids[0], ids[1]
		var ns []notify.Notification
		for i := range 3 {
			ns = append(ns, add(t, s, notify.Notification{User: a, Type: notify.GameOver, Game: fmt.Sprint(i), From: b, Created: ms(int64(1000 * (i + 1)))}, notify.Kept))
		}
		theirs := add(t, s, notify.Notification{User: b, Type: notify.Challenge, From: a, Created: ms(1000)}, notify.Kept)
		// Another account's ID among them is left alone.
		if err := s.MarkRead(ctx, a, []int64{ns[0].ID, theirs.ID}); err != nil {
			t.Fatal(err)
		}
		read := func(ns []notify.Notification) []bool {
			var out []bool
			for _, n := range ns {
				out = append(out, n.Read)
			}
			return out
		}
		if got := read(list(t, s, a)); !cmp.Equal(got, []bool{false, false, true}) {
			t.Errorf("read flags after one was marked: %v", got)
		}
		if got := read(list(t, s, b)); !cmp.Equal(got, []bool{false}) {
			t.Errorf("bob's read flags after alice marked his ID: %v", got)
		}
		if err := s.MarkRead(ctx, a, []int64{}); err != nil {
			t.Fatal(err)
		}
		if err := s.MarkRead(ctx, a, nil); err != nil {
			t.Fatal(err)
		}
		if got := read(list(t, s, a)); !cmp.Equal(got, []bool{true, true, true}) {
			t.Errorf("read flags after all were marked: %v", got)
		}
	})
	t.Run("KeepsTheLatest", func(t *testing.T) {
		s := open(t)
		ids := users(t, s, "alice", "bob")
		a, b := ids[0], ids[1]
		const keep = 5
		for i := range 12 {
			add(t, s, notify.Notification{User: a, Type: notify.GameOver, Game: fmt.Sprintf("g%02d", i), From: b, Created: ms(int64(1000 + i))}, keep)
		}
		add(t, s, notify.Notification{User: b, Type: notify.Follower, From: a, Created: ms(1000)}, keep)
		got := list(t, s, a)
		var games []string
		for _, n := range got {
			games = append(games, n.Game)
		}
		if want := []string{"g11", "g10", "g09", "g08", "g07"}; !cmp.Equal(games, want) {
			t.Errorf("kept %v, want the latest %v", games, want)
		}
		if len(list(t, s, b)) != 1 {
			t.Error("another account's notification was dropped")
		}
	})
	t.Run("Subscriptions", func(t *testing.T) {
		s := open(t)
		ids := users(t, s, "alice", "bob")
		a, b := ids[0], ids[1]
		sub := func(user int64, endpoint string, at int64) notify.Subscription {
			return notify.Subscription{User: user, Endpoint: endpoint, P256dh: "key-" + endpoint, Auth: "auth-" + endpoint, Created: ms(at)}
		}
		for i := range 4 {
			if err := s.AddSubscription(ctx, sub(a, fmt.Sprintf("https://push.example/%d", i), int64(1000+i)), 3); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.Subscriptions(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		want := []notify.Subscription{sub(a, "https://push.example/3", 1003), sub(a, "https://push.example/2", 1002), sub(a, "https://push.example/1", 1001)}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("the latest three kept (-want +got):\n%s", diff)
		}
		// The browser logged in as Bob is Bob's now.
		if err := s.AddSubscription(ctx, sub(b, "https://push.example/3", 2000), 3); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Subscriptions(ctx, a); len(got) != 2 {
			t.Errorf("alice has %d subscriptions after bob took one of her browser's, want 2", len(got))
		}
		// Alice cannot remove Bob's; the push service's word (user 0) can.
		if err := s.RemoveSubscription(ctx, a, "https://push.example/3"); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Subscriptions(ctx, b); len(got) != 1 {
			t.Errorf("bob has %d subscriptions after alice removed his endpoint, want 1", len(got))
		}
		if err := s.RemoveSubscription(ctx, 0, "https://push.example/3"); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Subscriptions(ctx, b); len(got) != 0 {
			t.Errorf("bob has %d subscriptions after the push service's removal, want 0", len(got))
		}
		if err := s.RemoveSubscription(ctx, a, "https://push.example/2"); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Subscriptions(ctx, a); len(got) != 1 || got[0].Endpoint != "https://push.example/1" {
			t.Errorf("alice's subscriptions after removing one: %+v", got)
		}
	})
	t.Run("KeepKeys", func(t *testing.T) {
		s := open(t)
		first := notify.Keys{Public: "pub-1", Private: "priv-1"}
		for _, k := range []notify.Keys{first, {Public: "pub-2", Private: "priv-2"}} {
			got, err := s.KeepKeys(ctx, k)
			if err != nil {
				t.Fatal(err)
			}
			if got != first {
				t.Errorf("KeepKeys(%v) = %v, want the first keys kept, %v", k, got, first)
			}
		}
		if got, err := another(t, s).KeepKeys(ctx, notify.Keys{Public: "pub-3"}); err != nil || got != first {
			t.Errorf("another server's KeepKeys = %v, %v; want %v", got, err, first)
		}
	})
	t.Run("Follows", func(t *testing.T) {
		s := open(t)
		ids := users(t, s, "alice", "bob", "carol", "dave")
		a, b, c, d := ids[0], ids[1], ids[2], ids[3]
		follow := func(from, to int64, at int64, max int) (bool, error) {
			return s.Follow(ctx, from, to, ms(at), max)
		}
		for i, to := range []int64{b, c} {
			if added, err := follow(a, to, int64(1000+i), 2); err != nil || !added {
				t.Fatalf("follow: %v, %v", added, err)
			}
		}
		if added, err := follow(a, b, 3000, 2); err != nil || added {
			t.Errorf("following again: %v, %v; want not added, no error", added, err)
		}
		if _, err := follow(a, d, 3000, 2); !errors.Is(err, notify.ErrTooManyFollows) {
			t.Errorf("a follow beyond the bound: %v, want ErrTooManyFollows", err)
		}
		if _, err := follow(c, b, 4000, 2); err != nil {
			t.Fatal(err)
		}
		following, err := s.Following(ctx, a, 10)
		if err != nil {
			t.Fatal(err)
		}
		want := []notify.Person{{ID: c, Name: "carol", Since: ms(1001)}, {ID: b, Name: "bob", Since: ms(1000)}}
		if diff := cmp.Diff(want, following); diff != "" {
			t.Errorf("alice's following (-want +got):\n%s", diff)
		}
		followers, err := s.Followers(ctx, b, 10)
		if err != nil {
			t.Fatal(err)
		}
		want = []notify.Person{{ID: c, Name: "carol", Since: ms(4000)}, {ID: a, Name: "alice", Since: ms(1000)}}
		if diff := cmp.Diff(want, followers); diff != "" {
			t.Errorf("bob's followers (-want +got):\n%s", diff)
		}
		if n, m, err := s.CountFollows(ctx, b); err != nil || n != 2 || m != 0 {
			t.Errorf("bob's counts %d followers, %d following, %v; want 2, 0", n, m, err)
		}
		if yes, err := s.Follows(ctx, a, b); err != nil || !yes {
			t.Errorf("Follows(alice, bob) = %v, %v", yes, err)
		}
		if err := s.Unfollow(ctx, a, b); err != nil {
			t.Fatal(err)
		}
		if err := s.Unfollow(ctx, a, b); err != nil {
			t.Errorf("unfollowing again: %v", err)
		}
		if yes, _ := s.Follows(ctx, a, b); yes {
			t.Error("alice follows bob after unfollowing him")
		}
		if added, err := follow(a, d, 5000, 2); err != nil || !added {
			t.Errorf("a follow after an unfollow made room: %v, %v", added, err)
		}
	})
	t.Run("FollowsCountedAcrossServers", func(t *testing.T) {
		s := open(t)
		ids := users(t, s, "alice", "bob", "carol", "dave", "erin", "frank", "grace")
		stores := []NotifyStore{s, another(t, s)}
		const max = 3
		var wg sync.WaitGroup
		var mu sync.Mutex
		added := 0
		for i, to := range ids[1:] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := stores[i%2].Follow(ctx, ids[0], to, ms(1000), max)
				if err != nil && !errors.Is(err, notify.ErrTooManyFollows) {
					t.Error(err)
				}
				mu.Lock()
				defer mu.Unlock()
				if ok {
					added++
				}
			}()
		}
		wg.Wait()
		_, n, err := s.CountFollows(ctx, ids[0])
		if err != nil {
			t.Fatal(err)
		}
		if n != max || added != max {
			t.Errorf("%d follows stored, %d reported added; want %d", n, added, max)
		}
	})
	t.Run("FollowedGames", func(t *testing.T) {
		s := open(t)
		ids := users(t, s, "alice", "bob", "carol")
		a, b, c := ids[0], ids[1], ids[2]
		game := func(id string, white, black int64, result string, updated int64) {
			g := sample(id)
			g.Seats[0].UserID, g.Seats[1].UserID = white, black
			g.Result, g.Updated = result, ms(updated)
			if result != "*" {
				g.Reason = "resignation"
			}
			if err := s.Create(ctx, g); err != nil {
				t.Fatal(err)
			}
		}
		game("bob-white", b, c, "*", 5000)
		game("bob-black", c, b, "*", 6000)
		game("bob-over", b, c, "1-0", 7000)
		game("carol-only", c, 0, "*", 8000)
		if _, err := s.Follow(ctx, a, b, ms(1000), 10); err != nil {
			t.Fatal(err)
		}
		got, err := s.FollowedGames(ctx, a, 10)
		if err != nil {
			t.Fatal(err)
		}
		var gotIDs []string
		for _, g := range got {
			gotIDs = append(gotIDs, g.ID)
		}
		if want := []string{"bob-black", "bob-white"}; !cmp.Equal(gotIDs, want) {
			t.Errorf("the games of the followed: %v, want %v", gotIDs, want)
		}
	})
}
