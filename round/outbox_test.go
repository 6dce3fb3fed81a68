package round

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"testing"

	"emergo/store"
	"emergo/store/sqlstore"
)

// heldFeed is a feed whose first announcement says so on entered (a
// buffer of one: it never waits for the test to listen) and waits until
// gate is closed, so that changes pile up in the outbox meanwhile.
type heldFeed struct {
	first   atomic.Bool
	entered chan struct{}
	gate    chan struct{}
	got     chan store.Change
}

func (f *heldFeed) Publish(_ context.Context, c store.Change) error {
	if f.first.CompareAndSwap(false, true) {
		f.entered <- struct{}{}
		<-f.gate
	}
	f.got <- c
	return nil
}

// TestOutboxKeepsTheLatestCount checks that the counts of a game's
// spectators published while the feed is busy leave as one change, the
// latest, in the place of the first, while every other change leaves as
// it came.
func TestOutboxKeepsTheLatestCount(t *testing.T) {
	ctx := context.Background()
	st, err := sqlstore.OpenSQLite(ctx, filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	feed := &heldFeed{entered: make(chan struct{}, 1), gate: make(chan struct{}), got: make(chan store.Change, 100)}
	k, err := New(ctx, Config{Store: st, Feed: feed, Origin: "a", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	k.Publish(store.Change{Game: "g0", Version: 1})
	<-feed.entered
	for n := 1; n <= 50; n++ {
		k.Publish(store.Change{Spectators: n, SpectatorsGame: "g1"})
		if n == 20 {
			k.Publish(store.Change{Game: "g1", Version: 2})
			k.Publish(store.Change{Spectators: 3, SpectatorsGame: "g2"})
		}
	}
	close(feed.gate)
	k.Close()
	close(feed.got)
	var got []string
	for c := range feed.got {
		if c.Origin != "a" {
			t.Errorf("change %+v from origin %q, want a", c, c.Origin)
		}
		if c.SpectatorsGame != "" {
			got = append(got, fmt.Sprintf("%s watched by %d", c.SpectatorsGame, c.Spectators))
		} else {
			got = append(got, fmt.Sprintf("%s v%d", c.Game, c.Version))
		}
	}
	want := []string{"g0 v1", "g1 watched by 50", "g1 v2", "g2 watched by 3"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("announced %q, want %q", got, want)
	}
}
