package sqlstore

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"emergo/store"
	"emergo/store/storetest"
)

// TestPipeline checks the group commit of the games' updates on
// PostgreSQL: a batch is one transaction whose writes each get their own
// answer, and a statement that fails undoes the pipeline, after which
// every write is tried alone and gets its own error.
func TestPipeline(t *testing.T) {
	dsn := os.Getenv("EMERGO_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("PostgreSQL tests skipped: set EMERGO_TEST_POSTGRES to a connection URL to run them; .ci/run does")
	}
	ctx := context.Background()
	s, err := OpenPostgres(ctx, storetest.PostgresSchema(t, dsn))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

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
