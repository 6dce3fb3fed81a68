package storetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"emergo/store"
)

// UploadStore keeps games and uploads, as a site's store does.
type UploadStore interface {
	store.Store
	store.Uploads
}

// upload returns an uploaded record's game, created at ms(created): an
// analysis game without seats, clock or result.
func upload(id string, created int64) *store.Game {
	g := sample(id)
	g.Mode, g.Seats, g.Invite = "analysis", [2]store.Seat{{Name: "Ada"}, {Name: "Bob"}}, ""
	g.Created, g.Updated, g.TurnStart = ms(created), ms(created), ms(created)
	g.Initial, g.Increment, g.TimeLeft = 0, 0, [2]time.Duration{}
	for i := range g.Moves {
		g.Moves[i].At, g.Moves[i].TimeLeft = ms(created), [2]time.Duration{}
	}
	return g
}

// Uploads runs the suite of a store.Uploads. open returns an empty store.
func Uploads(t *testing.T, open func(t *testing.T) UploadStore) {
	ctx := context.Background()
	create := func(t *testing.T, s UploadStore, g *store.Game, digest string, size, limit int64) (string, []string) {
		t.Helper()
		id, deleted, err := s.CreateUpload(ctx, g, store.Upload{Digest: digest, Size: size}, limit)
		if err != nil {
			t.Fatalf("CreateUpload %s: %v", g.ID, err)
		}
		return id, deleted
	}
	stored := func(t *testing.T, s UploadStore, id string) bool {
		t.Helper()
		_, err := s.Get(ctx, id)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			t.Fatal(err)
		}
		return err == nil
	}
	total := func(t *testing.T, s UploadStore) int64 {
		t.Helper()
		n, err := s.UploadBytes(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	t.Run("StoredOnce", func(t *testing.T) {
		s := open(t)
		g := upload("u1", 1000)
		if id, deleted := create(t, s, g, "d1", 1000, 0); id != "u1" || len(deleted) != 0 || g.Version != 1 {
			t.Errorf("upload: %q, deleted %v, version %d", id, deleted, g.Version)
		}
		got, err := s.Get(ctx, "u1")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(g, got); diff != "" {
			t.Errorf("Get differs from what was uploaded (-want +got):\n%s", diff)
		}
		if at, err := s.UploadOpened(ctx, "u1"); err != nil || !at.Equal(ms(1000)) {
			t.Errorf("opened %v, %v; want at its creation", at, err)
		}
		// The same record again: the first upload's game, nothing stored.
		if id, _ := create(t, s, upload("u2", 2000), "d1", 1000, 0); id != "u1" || stored(t, s, "u2") {
			t.Errorf("the same record again: %q, its own game stored %v", id, stored(t, s, "u2"))
		}
		if n := total(t, s); n != 1000 {
			t.Errorf("%d bytes of uploads, want 1000", n)
		}
		if _, err := s.UploadOpened(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("UploadOpened of a game that is no upload: %v, want ErrNotFound", err)
		}
	})
	t.Run("LeastRecentlyOpenedMakeRoom", func(t *testing.T) {
		s := open(t)
		for i, id := range []string{"a", "b", "c"} {
			create(t, s, upload(id, int64(1000*(i+1))), "d-"+id, 1000, 3000)
		}
		// a is opened again; opening b earlier than it was changes nothing.
		if err := s.OpenUpload(ctx, "a", ms(5000)); err != nil {
			t.Fatal(err)
		}
		if err := s.OpenUpload(ctx, "b", ms(500)); err != nil {
			t.Fatal(err)
		}
		if err := s.OpenUpload(ctx, "no upload", ms(5000)); err != nil {
			t.Errorf("OpenUpload of a game that is no upload: %v", err)
		}
		_, deleted := create(t, s, upload("d", 6000), "d-d", 1500, 3000)
		slices.Sort(deleted)
		if !slices.Equal(deleted, []string{"b", "c"}) {
			t.Errorf("deleted %v, want b and c, the least recently opened", deleted)
		}
		for id, want := range map[string]bool{"a": true, "b": false, "c": false, "d": true} {
			if stored(t, s, id) != want {
				t.Errorf("%s stored: %v, want %v", id, !want, want)
			}
		}
		if n := total(t, s); n != 2500 {
			t.Errorf("%d bytes of uploads, want 2500", n)
		}
		// A deleted record may be uploaded again.
		if id, _ := create(t, s, upload("b2", 7000), "d-b", 1000, 0); id != "b2" {
			t.Errorf("a deleted record uploaded again: %q", id)
		}
		// The upload itself is never deleted, even alone over the limit.
		_, deleted = create(t, s, upload("e", 8000), "d-e", 5000, 3000)
		if len(deleted) != 3 || !stored(t, s, "e") {
			t.Errorf("an upload over the limit alone: deleted %v, stored %v", deleted, stored(t, s, "e"))
		}
	})
	t.Run("Expire", func(t *testing.T) {
		s := open(t)
		if err := s.Create(ctx, sample("played")); err != nil {
			t.Fatal(err)
		}
		for i, id := range []string{"x", "y", "z"} {
			create(t, s, upload(id, int64(1000*(i+1))), "d-"+id, 1000, 0)
		}
		if err := s.OpenUpload(ctx, "x", ms(4000)); err != nil {
			t.Fatal(err)
		}
		ids, err := s.ExpireUploads(ctx, ms(3500), 1)
		if err != nil || !slices.Equal(ids, []string{"y"}) {
			t.Errorf("expired %v, %v; want y, the least recently opened, alone", ids, err)
		}
		ids, err = s.ExpireUploads(ctx, ms(3500), 10)
		if err != nil || !slices.Equal(ids, []string{"z"}) {
			t.Errorf("expired %v, %v; want z", ids, err)
		}
		if ids, err := s.ExpireUploads(ctx, ms(3500), 10); err != nil || len(ids) != 0 {
			t.Errorf("expired %v, %v; want none left", ids, err)
		}
		for id, want := range map[string]bool{"played": true, "x": true, "y": false, "z": false} {
			if stored(t, s, id) != want {
				t.Errorf("%s stored: %v, want %v", id, !want, want)
			}
		}
		if _, err := s.UploadOpened(ctx, "y"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("UploadOpened of an expired upload: %v, want ErrNotFound", err)
		}
		if n := total(t, s); n != 1000 {
			t.Errorf("%d bytes of uploads, want 1000", n)
		}
	})
}
