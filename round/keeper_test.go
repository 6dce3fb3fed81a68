package round

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"emergo/enginework"
	"emergo/game"
	"emergo/record"
	"emergo/rules"
	"emergo/store"
	"emergo/store/sqlstore"
)

// idleKeeper is a keeper on SQLite whose engine work waits on jobs, in
// the memory store it returns, that no worker takes: the tests play them
// by hand.
func idleKeeper(t *testing.T) (*Keeper, *sqlstore.DB, *enginework.Memory) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlstore.OpenSQLite(ctx, filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	jobs := enginework.NewMemory()
	k, err := New(ctx, Config{Store: st, Work: enginework.New(jobs, enginework.Config{}),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		k.Close()
		st.Close()
	})
	return k, st, jobs
}

// person is the player of the tests' engine games.
var person = Player{Token: "person"}

// engineGame creates a 7x7 game of person, white, against the engine at
// level 1, without a clock, and returns its ID.
func engineGame(t *testing.T, k *Keeper) string {
	t.Helper()
	r := k.New("g1", Engine, rules.GeometryOf(7), game.Control{})
	r.Level = 1
	r.Seats = [2]Seat{{Name: "Ada", Token: person.Token}, {Name: "Emergo level 1", Engine: true}}
	r.Game.Start()
	if err := k.st.Create(context.Background(), r.Stored(r.Created)); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Begin(context.Background(), r.ID); err != nil {
		t.Fatal(err)
	}
	return r.ID
}

// thought returns the engine's move job of game id, asked for and not
// taken, with its game in memory.
func thought(t *testing.T, k *Keeper, jobs *enginework.Memory, id string) (*Live, *enginework.Job) {
	t.Helper()
	lv, err := k.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	lv.mu.Lock()
	job := lv.job
	lv.mu.Unlock()
	j, err := jobs.Job(context.Background(), job)
	if err != nil || j.Kind != enginework.Move || j.State != enginework.Queued {
		t.Fatalf("the engine's thought: job %d %+v, %v; want a move queued", job, j, err)
	}
	return lv, j
}

// A take-back while the engine thinks drops its thought at once, and the
// viewers learn both: without it their pages would say that the engine
// thinks until they reload.
func TestTakeBackDropsTheThought(t *testing.T) {
	k, _, jobs := idleKeeper(t)
	ctx := context.Background()
	id := engineGame(t, k)
	if _, err := k.Move(ctx, id, person, 0, "a1"); err != nil {
		t.Fatal(err)
	}
	lv, j := thought(t, k, jobs, id)
	wake := make(chan struct{}, 1)
	defer lv.Subscribe(wake)()
	if _, err := k.TakeBack(ctx, id, person, Propose); err != nil {
		t.Fatal(err)
	}
	select {
	case <-wake:
	case <-time.After(time.Minute):
		t.Fatal("the take-back is not published")
	}
	v := lv.View()
	if v.Thinking || v.Round.Game.Len() != 0 {
		t.Errorf("the game published after the take-back: thinking %v, %d moves; want no thought and no moves", v.Thinking, v.Round.Game.Len())
	}
	deadline := time.Now().Add(time.Minute)
	for {
		got, err := jobs.Job(ctx, j.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.State == enginework.Dropped {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job of the thought taken back is %s, want dropped", got.State)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// An engine move is played once: by the first of the workers that found
// it, in the game held in memory (a server's workers) or as stored (a
// worker process); a second is refused by the game's version, as is a
// move for a version that has gone.
func TestEngineMovePlayedOnce(t *testing.T) {
	for _, c := range []struct {
		name  string
		apply func(*Keeper) enginework.Apply
	}{
		{"in memory", func(k *Keeper) enginework.Apply { return k.ApplyMove }},
		{"as stored", func(k *Keeper) enginework.Apply { return k.ApplyStored }},
	} {
		t.Run(c.name, func(t *testing.T) {
			k, st, jobs := idleKeeper(t)
			ctx := context.Background()
			id := engineGame(t, k)
			if _, err := k.Move(ctx, id, person, 0, "a1"); err != nil {
				t.Fatal(err)
			}
			_, j := thought(t, k, jobs, id)
			apply := c.apply(k)
			if err := apply(ctx, j, "g7"); err != nil {
				t.Fatalf("the first worker's move: %v", err)
			}
			if err := apply(ctx, j, "f6"); !errors.Is(err, enginework.ErrStale) {
				t.Errorf("the second worker's move: %v, want ErrStale", err)
			}
			old := *j
			old.Version--
			if err := apply(ctx, &old, "f6"); !errors.Is(err, enginework.ErrStale) {
				t.Errorf("a move for a version that has gone: %v, want ErrStale", err)
			}
			g, err := st.Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if len(g.Moves) != 2 || g.Moves[1].Text != "g7" || g.Version != j.Version+1 {
				t.Errorf("the stored game: moves %v, version %d; want a1 g7 at version %d", g.Moves, g.Version, j.Version+1)
			}
		})
	}
}

// maxUploadPlies is the longest record the site takes (server's bound).
const maxUploadPlies = 1000

// TestHeldUploadMemory: a record of 1,000 plies, the longest the site
// takes, costs a keeper some tens of KB while it holds its game in
// memory (for Config.EvictAfter after its last request): the game keeps
// its moves, not a position and a stamp for every ply.
func TestHeldUploadMemory(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "record", "testdata", "long.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := record.ReadAll(data)
	if err != nil {
		t.Fatal(err)
	}
	rec := recs[0]
	g := rec.Start.Geometry()
	created := time.UnixMilli(1.8e12).UTC()
	sg := &store.Game{ID: "held", Size: 9, Start: "9x9 w 12/12 -", Mode: "analysis", Result: "*", Created: created, Updated: created,
		DrawOffer: -1, TakeBack: -1, TurnStart: created, Version: 1, Seats: [2]store.Seat{{Name: "Ada"}, {Name: "Bob"}}}
	for _, m := range rec.Moves[:maxUploadPlies] {
		sg.Moves = append(sg.Moves, store.Move{Text: m.Text(g), At: created})
	}
	k := &Keeper{now: time.Now, cfg: Config{Started: time.Now()}}
	const n = 20
	held := make([]*Live, 0, n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range n {
		r, err := k.Of(sg)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, k.newLive(r))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(held)
	runtime.KeepAlive(sg)
	each := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n
	t.Logf("a held game of %d plies: %d bytes", maxUploadPlies, each)
	if each > 64<<10 {
		t.Errorf("a held game of %d plies takes %d KB, want under 64", maxUploadPlies, each>>10)
	}
}

// gatedGets is a store whose reads of a game wait until released, once
// they have said that they started.
type gatedGets struct {
	store.Store
	started chan string
	release chan struct{}
}

func (s *gatedGets) Get(ctx context.Context, id string) (*store.Game, error) {
	s.started <- id
	<-s.release
	return s.Store.Get(ctx, id)
}

// TestForgetWhileRead: a game the store deletes (Forget) while a request
// reads it is not kept in memory by that request, which answers that
// there is no such game; it was served from memory for as long as it
// stayed there.
func TestForgetWhileRead(t *testing.T) {
	ctx := context.Background()
	st, err := sqlstore.OpenSQLite(ctx, filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	gated := &gatedGets{Store: st, started: make(chan string), release: make(chan struct{})}
	k, err := New(ctx, Config{Store: gated, Work: enginework.New(enginework.NewMemory(), enginework.Config{}),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	r := k.New("g1", Analysis, rules.GeometryOf(7), game.Control{})
	r.Seats = [2]Seat{{Name: "Ada"}, {Name: "Bob"}}
	r.Game.Start()
	if err := st.Create(ctx, r.Stored(r.Created)); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := k.Look(ctx, r.ID)
		done <- err
	}()
	if id := <-gated.started; id != r.ID {
		t.Fatalf("read %s, want %s", id, r.ID)
	}
	k.Forget([]string{r.ID})
	close(gated.release)
	if err := <-done; !errors.Is(err, ErrNoSuchGame) {
		t.Errorf("the read of a game deleted meanwhile: %v, want ErrNoSuchGame", err)
	}
	if k.held(r.ID) != nil {
		t.Error("the game deleted while it was read is held in memory")
	}
	// Read again, the store's copy (not deleted here) is held as usual.
	go func() { <-gated.started }()
	if _, err := k.Look(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	if k.held(r.ID) == nil {
		t.Error("a game read after Forget is not held")
	}
}

// TestDeletedElsewhere: a game another process deleted from the store is
// forgotten when the feed says so, or, the announcement lost, by the
// periodic check of the games held.
func TestDeletedElsewhere(t *testing.T) {
	ctx := context.Background()
	k, st, _ := idleKeeper(t)
	upload := func(name string) string {
		t.Helper()
		r := k.New(name, Analysis, rules.GeometryOf(7), game.Control{})
		r.Seats = [2]Seat{{Name: name}, {Name: "Bob"}}
		r.Game.Start()
		g := r.Stored(r.Created)
		id, _, err := st.CreateUpload(ctx, g, store.Upload{Digest: name, Size: store.UploadSize(g)}, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := k.Look(ctx, id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	told, lost := upload("told"), upload("lost")
	if ids, err := st.ExpireUploads(ctx, time.Now().Add(time.Hour), 10); err != nil || len(ids) != 2 {
		t.Fatalf("expired %v, %v: want both uploads", ids, err)
	}
	k.Heard(store.Change{Game: told, Deleted: true})
	if k.held(told) != nil {
		t.Error("the game the feed says deleted is held")
	}
	if k.held(lost) == nil {
		t.Fatal("the other game is no longer held before the check")
	}
	k.refreshAll()
	if k.held(lost) != nil {
		t.Error("the check of the games held keeps a game the store no longer has")
	}
}
