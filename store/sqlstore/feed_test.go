package sqlstore_test

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"emergo/store"
	"emergo/store/sqlstore"
)

// patience bounds a wait for something that must happen.
const patience = time.Minute

// follower is a Follow of a feed, its calls as channels.
type follower struct {
	changes chan store.Change
	lost    chan error
}

func follow(t *testing.T, f *sqlstore.Feed) *follower {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	fl := &follower{changes: make(chan store.Change, 10), lost: make(chan error, 10)}
	done := make(chan error, 1)
	go func() {
		done <- f.Follow(ctx, func(c store.Change) { fl.changes <- c }, func(err error) { fl.lost <- err })
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Follow returned %v when its context ended, want nil", err)
		}
	})
	if err := fl.waitLost(t); err != nil {
		t.Fatalf("Follow's first call of lost: %v, want nil", err)
	}
	return fl
}

func (fl *follower) waitLost(t *testing.T) error {
	t.Helper()
	select {
	case err := <-fl.lost:
		return err
	case <-time.After(patience):
		t.Fatal("the feed never called lost")
		return nil
	}
}

func (fl *follower) next(t *testing.T) store.Change {
	t.Helper()
	select {
	case c := <-fl.changes:
		return c
	case <-time.After(patience):
		t.Fatal("no change came")
		return store.Change{}
	}
}

// feedTest checks the PostgreSQL feed of a and b, two stores on one
// schema, and of other, a store on another: every follower on the schema
// gets every change published on it, in order, its own too; none
// crosses to the other schema; a follower whose connection breaks
// listens again, says so, and gets the changes after.
func feedTest(t *testing.T, admin *sql.DB, a, b, other *sqlstore.DB) {
	ctx := context.Background()
	feed := func(s *sqlstore.DB) *sqlstore.Feed {
		f, err := s.Feed(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	fa, fb, fo := feed(a), feed(b), feed(other)
	if fa.Channel() != fb.Channel() || fa.Channel() == fo.Channel() {
		t.Fatalf("channels %q %q %q: want one per schema", fa.Channel(), fb.Channel(), fo.Channel())
	}
	la, lb, lo := follow(t, fa), follow(t, fb), follow(t, fo)
	sent := []store.Change{
		{Origin: "a", Game: "g1", Version: 2},
		{Origin: "b", Lobby: true, Game: "g2"},
		{Origin: "a", Game: "g1", Version: 3},
		{Origin: "a", Game: "g3", Deleted: true},
		{Origin: "b", Game: "g1", Version: 4, Keep: 2, State: &store.Game{ID: "g1", Size: 9, Mode: "friend", Version: 4,
			Updated: time.UnixMilli(7000).UTC(), TimeLeft: [2]time.Duration{time.Minute, 2 * time.Minute},
			Moves: []store.Move{{Text: "e5", At: time.UnixMilli(6000).UTC(), TimeLeft: [2]time.Duration{time.Minute, 2 * time.Minute}}}}},
	}
	for i, c := range sent {
		if err := []*sqlstore.Feed{fa, fb}[i%2].Publish(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	for name, fl := range map[string]*follower{"a": la, "b": lb} {
		for _, want := range sent {
			if got := fl.next(t); !cmp.Equal(got, want) {
				t.Errorf("follower %s got %+v, want %+v", name, got, want)
			}
		}
	}
	mark := store.Change{Origin: "o", Lobby: true}
	if err := fo.Publish(ctx, mark); err != nil {
		t.Fatal(err)
	}
	if got := lo.next(t); !cmp.Equal(got, mark) {
		t.Errorf("the other schema's follower got %+v first, want its own %+v", got, mark)
	}

	t.Run("TooLongForAPayload", func(t *testing.T) {
		// A change whose game does not fit in a notification goes
		// without it: the followers read the game back.
		long := &store.Game{ID: "g4", Version: 5}
		for range 2000 {
			long.Moves = append(long.Moves, store.Move{Text: "a1-b2"})
		}
		if err := fa.Publish(ctx, store.Change{Origin: "a", Game: "g4", Version: 5, State: long, Keep: 0}); err != nil {
			t.Fatal(err)
		}
		want := store.Change{Origin: "a", Game: "g4", Version: 5}
		for name, fl := range map[string]*follower{"a": la, "b": lb} {
			if got := fl.next(t); !cmp.Equal(got, want) {
				t.Errorf("follower %s got %+v, want %+v", name, got, want)
			}
		}
	})
	t.Run("ManyAtOnce", func(t *testing.T) {
		// Publishers racing: each one's changes
		// arrive, in its order.
		const publishers, each = 8, 25
		var wg sync.WaitGroup
		for p := range publishers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for v := range each {
					if err := fa.Publish(ctx, store.Change{Origin: "a", Game: fmt.Sprint("p", p), Version: int64(v + 1)}); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		for name, fl := range map[string]*follower{"a": la, "b": lb} {
			last := map[string]int64{}
			for range publishers * each {
				c := fl.next(t)
				if c.Version != last[c.Game]+1 {
					t.Fatalf("follower %s: %s version %d after %d", name, c.Game, c.Version, last[c.Game])
				}
				last[c.Game] = c.Version
			}
		}
	})
	t.Run("AllInOrder", func(t *testing.T) {
		// More changes than one statement sends, in their order.
		var cs []store.Change
		for v := range 150 {
			cs = append(cs, store.Change{Origin: "b", Game: "all", Version: int64(v + 1)})
		}
		if err := fb.PublishAll(ctx, cs); err != nil {
			t.Fatal(err)
		}
		for name, fl := range map[string]*follower{"a": la, "b": lb} {
			for _, want := range cs {
				if got := fl.next(t); !cmp.Equal(got, want) {
					t.Fatalf("follower %s got %+v, want %+v", name, got, want)
				}
			}
		}
	})
	t.Run("ListensAgain", func(t *testing.T) {
		listen := "LISTEN " + pgx.Identifier{fb.Channel()}.Sanitize()
		var n int
		if err := admin.QueryRow(`SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE application_name = 'emergo feed' AND query = $1`, listen).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 2 {
			t.Fatalf("%d listening connections ended, want a's and b's", n)
		}
		for name, fl := range map[string]*follower{"a": la, "b": lb} {
			if err := fl.waitLost(t); err == nil {
				t.Errorf("follower %s listens again and says nothing of why it stopped", name)
			}
		}
		after := store.Change{Origin: "b", Game: "g3", Version: 9}
		if err := fb.Publish(ctx, after); err != nil {
			t.Fatal(err)
		}
		for name, fl := range map[string]*follower{"a": la, "b": lb} {
			if got := fl.next(t); !cmp.Equal(got, after) {
				t.Errorf("follower %s after listening again got %+v, want %+v", name, got, after)
			}
		}
	})
	t.Run("OnlyPostgres", func(t *testing.T) {
		sq, err := sqlstore.OpenSQLite(ctx, t.TempDir()+"/games.db")
		if err != nil {
			t.Fatal(err)
		}
		defer sq.Close()
		if _, err := sq.Feed(ctx); err == nil {
			t.Error("a feed on SQLite")
		}
	})
}
