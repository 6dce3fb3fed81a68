package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"testing"
	"time"

	"emergo/store"
	"emergo/store/storetest"
)

// postgresStore opens a store on a schema of the test's own in
// EMERGO_TEST_POSTGRES's database, and returns that database's URL too.
func postgresStore(t *testing.T) (*DB, string) {
	dsn := os.Getenv("EMERGO_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("PostgreSQL tests skipped: set EMERGO_TEST_POSTGRES to a connection URL to run them; .ci/run does")
	}
	s, err := OpenPostgres(context.Background(), storetest.PostgresSchema(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, dsn
}

// TestPipeline checks the group commit of the games' updates on
// PostgreSQL: a batch is one transaction whose writes each get their own
// answer, and a statement that fails undoes the pipeline, after which
// every write is tried alone and gets its own error.
func TestPipeline(t *testing.T) {
	s, _ := postgresStore(t)
	ctx := context.Background()
	game := func(id string) *store.Game {
		g := &store.Game{
			ID: id, Size: 9, Start: "9x9 w 12/12 -", Created: time.UnixMilli(1000), Updated: time.UnixMilli(1000),
			Mode: "friend", Seats: [2]store.Seat{{Name: "a", Token: "t-a"}, {Name: "b", Token: "t-b"}},
			Result: "*", DrawOffer: -1, TakeBack: -1, Version: 1,
		}
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		return g
	}
	moved := func(g *store.Game, text string) pgWrite {
		next := *g
		next.Moves = append(append([]store.Move(nil), g.Moves...), store.Move{Text: text, At: time.UnixMilli(2000)})
		return postgresUpdate(&next, len(g.Moves))
	}
	stored := func(id string) (int64, int) {
		g, err := s.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return g.Version, len(g.Moves)
	}

	t.Run("OneTransaction", func(t *testing.T) {
		a, b := game("pa"), game("pb")
		ws := []pgWrite{moved(a, "d6"), moved(b, "c3"), moved(a, "e5")} // the third is stale once the first is in
		errs := make([]error, len(ws))
		if err := s.pipeline(ctx, ws, errs); err != nil {
			t.Fatalf("pipeline: %v", err)
		}
		if errs[0] != nil || errs[1] != nil || !errors.Is(errs[2], store.ErrConflict) {
			t.Errorf("answers %v, want nil, nil, a conflict", errs)
		}
		for _, id := range []string{"pa", "pb"} {
			if v, n := stored(id); v != 2 || n != 1 {
				t.Errorf("%s stored at version %d with %d moves, want 2 and 1", id, v, n)
			}
		}
	})
	t.Run("FailingStatement", func(t *testing.T) {
		a, b := game("fa"), game("fb")
		bad := pgWrite{what: "bad", query: "SELECT 1/0"}
		ws := []pgWrite{moved(a, "d6"), bad, moved(b, "c3")}
		if err := s.pipeline(ctx, ws, make([]error, len(ws))); err == nil {
			t.Fatal("a pipeline with a failing statement succeeded")
		}
		if v, n := stored("fa"); v != 1 || n != 0 {
			t.Errorf("after a failed pipeline fa is at version %d with %d moves, want 1 and 0: the pipeline was not one transaction", v, n)
		}
		errs := s.pipelineCommit(ws)
		if errs[0] != nil || errs[1] == nil || errs[2] != nil {
			t.Errorf("answers %v, want nil, an error, nil", errs)
		}
		for _, id := range []string{"fa", "fb"} {
			if v, n := stored(id); v != 2 || n != 1 {
				t.Errorf("%s stored at version %d with %d moves, want 2 and 1", id, v, n)
			}
		}
		// The connections are usable after the failed pipeline.
		for range 2 * DefaultConns {
			if err := s.Ping(ctx); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestSerializedHoldsNoConnection checks that the writes waiting for an
// advisory lock held elsewhere take one connection of the pool between
// them, so that the others still serve.
func TestSerializedHoldsNoConnection(t *testing.T) {
	s, dsn := postgresStore(t)
	s.SetConns(2)
	ctx := context.Background()
	other, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	holder, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	const key = 0x7465737473 // "tests"
	if _, err := holder.ExecContext(ctx, "SELECT pg_advisory_lock($1)", int64(key)); err != nil {
		t.Fatal(err)
	}
	const writers = 6
	done := make(chan error, writers)
	for range writers {
		go func() {
			done <- s.serialized(ctx, lockKey(key), func(tx *sql.Tx) error {
				_, err := tx.ExecContext(ctx, "SELECT 1")
				return err
			})
		}()
	}
	// Once a writer waits for the lock in the database (the key's high
	// and low halves name it in pg_locks)...
	deadline := time.Now().Add(time.Minute)
	for waiting := 0; waiting == 0; {
		if err := other.QueryRowContext(ctx, `SELECT COUNT(*) FROM pg_locks
			WHERE locktype = 'advisory' AND NOT granted AND classid = $1 AND objid = $2`,
			int64(key>>32), int64(key&0xffffffff)).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting == 0 {
			if time.Now().After(deadline) {
				t.Fatal("no writer waits for the lock after a minute")
			}
			time.Sleep(5 * time.Millisecond) // a pause between polls
		}
	}
	// ...the pool still has a connection for everything else. Without the
	// gate, the writers took both and this waited for the lock's holder.
	pctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	for range 3 {
		if _, err := s.Versions(pctx, []string{"none"}); err != nil {
			t.Fatalf("a read while writers wait for the lock: %v (in use: %d of 2)", err, s.PoolStats().InUse)
		}
	}
	if _, err := holder.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", int64(key)); err != nil {
		t.Fatal(err)
	}
	for range writers {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
