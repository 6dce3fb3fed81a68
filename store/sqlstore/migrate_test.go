package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"emergo/account"
	"emergo/enginework"
	"emergo/enginework/queuetest"
	"emergo/puzzle"
	"emergo/store"
	"emergo/store/sqlstore"
	"emergo/store/storetest"
	"emergo/throttle"
)

// suites runs the conformance suites on the stores of one database:
// fresh opens an empty one, reopen closes s and opens its data again,
// another opens its data a second time, beside s.
func suites(t *testing.T, fresh func(t *testing.T) *sqlstore.DB, reopen, another func(t *testing.T, s *sqlstore.DB) *sqlstore.DB) {
	t.Run("Games", func(t *testing.T) {
		storetest.Run(t,
			func(t *testing.T) store.Store { return fresh(t) },
			func(t *testing.T, s store.Store) store.Store { return reopen(t, s.(*sqlstore.DB)) })
	})
	t.Run("Accounts", func(t *testing.T) {
		storetest.Accounts(t,
			func(t *testing.T) account.Store { return fresh(t) },
			func(t *testing.T, s account.Store) account.Store { return reopen(t, s.(*sqlstore.DB)) })
	})
	t.Run("Tokens", func(t *testing.T) {
		storetest.Tokens(t, func(t *testing.T) storetest.TokenStore { return fresh(t) })
	})
	t.Run("Ratings", func(t *testing.T) {
		storetest.Ratings(t, func(t *testing.T) storetest.RatedStore { return fresh(t) })
	})
	t.Run("Lobby", func(t *testing.T) {
		storetest.Lobby(t,
			func(t *testing.T) storetest.LobbyStore { return fresh(t) },
			func(t *testing.T, s storetest.LobbyStore) storetest.LobbyStore { return another(t, s.(*sqlstore.DB)) })
	})
	t.Run("Puzzles", func(t *testing.T) {
		storetest.Puzzles(t, func(t *testing.T) puzzle.Store { return fresh(t) })
	})
	t.Run("Throttles", func(t *testing.T) {
		storetest.Throttles(t,
			func(t *testing.T) throttle.Store { return fresh(t) },
			func(t *testing.T, s throttle.Store) throttle.Store { return another(t, s.(*sqlstore.DB)) })
	})
	t.Run("Explorer", func(t *testing.T) {
		storetest.Explorer(t, func(t *testing.T) storetest.ExplorerStore { return fresh(t) })
	})
	t.Run("TV", func(t *testing.T) {
		storetest.TV(t, func(t *testing.T) storetest.TVStore { return fresh(t) })
	})
	t.Run("Uploads", func(t *testing.T) {
		storetest.Uploads(t, func(t *testing.T) storetest.UploadStore { return fresh(t) })
	})
	t.Run("Chat", func(t *testing.T) {
		storetest.Chat(t, func(t *testing.T) storetest.ChatStore { return fresh(t) })
	})
	t.Run("Notify", func(t *testing.T) {
		storetest.Notify(t,
			func(t *testing.T) storetest.NotifyStore { return fresh(t) },
			func(t *testing.T, s storetest.NotifyStore) storetest.NotifyStore { return another(t, s.(*sqlstore.DB)) })
	})
	t.Run("Vacations", func(t *testing.T) {
		storetest.Vacations(t, func(t *testing.T) storetest.VacationStore { return fresh(t) })
	})
	t.Run("Tournaments", func(t *testing.T) {
		storetest.Tournaments(t,
			func(t *testing.T) storetest.TournamentStore { return fresh(t) },
			func(t *testing.T, s storetest.TournamentStore) storetest.TournamentStore {
				return another(t, s.(*sqlstore.DB))
			})
	})
	t.Run("Jobs", func(t *testing.T) {
		queuetest.Run(t, func(t *testing.T) enginework.Store { return fresh(t) })
	})
}

// migratesFirstSchema writes a database as the first schema
// (migrations/001_games.sql) left it, with a game in it, then opens it
// with open: the game must come back as it was, its seats held by guests,
// and the accounts must work.
func migratesFirstSchema(t *testing.T, db *sql.DB, open func() *sqlstore.DB) {
	ctx := context.Background()
	text, err := os.ReadFile("migrations/001_games.sql")
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY)`}
	stmts = append(stmts, strings.Split(string(text), ";")...)
	stmts = append(stmts,
		`INSERT INTO schema_migrations (version) VALUES (1)`,
		`INSERT INTO games (id, size, start_pos, created_ms, updated_ms, mode, level,
			white_name, white_token, white_engine, black_name, black_token, black_engine,
			result, reason, draw_offer, take_back, initial_ms, increment_ms,
			white_left_ms, black_left_ms, turn_start_ms, version)
		VALUES ('old1', 9, '9x9 w 12/12 -', 1000, 3000, 'friend', 0,
			'alice', 't-a', 0, 'bob', 't-b', 0,
			'*', '', -1, -1, 60000, 2000, 60000, 59000, 3000, 4)`,
		`INSERT INTO moves (game_id, ply, text, at_ms, white_left_ms, black_left_ms) VALUES ('old1', 0, 'd6', 2000, 60000, 60000)`,
		`INSERT INTO games (id, size, start_pos, created_ms, updated_ms, mode, level,
			white_name, white_token, white_engine, black_name, black_token, black_engine,
			result, reason, draw_offer, take_back, initial_ms, increment_ms,
			white_left_ms, black_left_ms, turn_start_ms, version)
		VALUES ('old2', 7, '7x7 w 8/8 -', 1000, 1000, 'engine', 3,
			'alice', 't-a', 0, 'Emergo level 3', '', 1,
			'*', '', -1, -1, 0, 0, 0, 0, 1000, 1)`,
		`INSERT INTO games (id, size, start_pos, created_ms, updated_ms, mode, level,
			white_name, white_token, white_engine, black_name, black_token, black_engine,
			result, reason, draw_offer, take_back, initial_ms, increment_ms,
			white_left_ms, black_left_ms, turn_start_ms, version)
		VALUES ('up1', 9, '9x9 w 12/12 -', 1500, 1500, 'analysis', 0,
			'x', '', 0, 'y', '', 0, '*', '', -1, -1, 0, 0, 0, 0, 1500, 1)`,
		`INSERT INTO moves (game_id, ply, text, at_ms, white_left_ms, black_left_ms) VALUES ('up1', 0, 'd6', 1500, 0, 0)`,
		`INSERT INTO moves (game_id, ply, text, at_ms, white_left_ms, black_left_ms) VALUES ('up1', 1, 'c1', 1500, 0, 0)`)
	for _, q := range stmts {
		if strings.TrimSpace(q) == "" {
			continue
		}
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("writing the first schema: %v\n%s", err, q)
		}
	}

	s := open()
	got, err := s.Get(ctx, "old1")
	if err != nil {
		t.Fatal(err)
	}
	ms := func(v int64) time.Time { return time.UnixMilli(v).UTC() }
	want := &store.Game{
		ID: "old1", Size: 9, Start: "9x9 w 12/12 -", Created: ms(1000), Updated: ms(3000), Mode: "friend",
		Seats:  [2]store.Seat{{Name: "alice", Token: "t-a"}, {Name: "bob", Token: "t-b"}},
		Moves:  []store.Move{{Text: "d6", At: ms(2000), TimeLeft: [2]time.Duration{time.Minute, time.Minute}}},
		Result: "*", DrawOffer: -1, TakeBack: -1, Initial: time.Minute, Increment: 2 * time.Second,
		TimeLeft: [2]time.Duration{time.Minute, 59 * time.Second}, TurnStart: ms(3000), Version: 4,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("the game of the first schema (-want +got):\n%s", diff)
	}
	// It is a live game, without days per move: the server resumes it.
	if ids, err := s.Ongoing(ctx); err != nil || !cmp.Equal(ids, []string{"old2", "old1"}) {
		t.Errorf("Ongoing after the migration: %v %v, want [old2 old1]", ids, err)
	}
	// The engine game going on waits on its person from its turn's
	// start, as the sweep of idle engine games finds it.
	if ids, err := s.IdleEngineGames(ctx, ms(0), ms(1000), 10); err != nil || !cmp.Equal(ids, []string{"old2"}) {
		t.Errorf("IdleEngineGames after the migration: %v %v, want [old2]", ids, err)
	}
	// The upload stored before counts against the uploads' bound as a new
	// one would (store.UploadSize), opened when it was created.
	if n, err := s.UploadBytes(ctx); err != nil || n != 1024+2*(64+2) {
		t.Errorf("the uploads after the migration: %d bytes, %v; want %d", n, err, 1024+2*(64+2))
	}
	if at, err := s.UploadOpened(ctx, "up1"); err != nil || !at.Equal(ms(1500)) {
		t.Errorf("the upload stored before was opened %v, %v; want at its creation", at, err)
	}
	u := &account.User{Name: "Carol", Key: "carol", Password: "x", Created: ms(5000)}
	if err := s.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	got.Seats[1].UserID = u.ID
	if err := s.Update(ctx, got, len(got.Moves)); err != nil {
		t.Fatal(err)
	}
	again, err := s.Get(ctx, "old1")
	if err != nil || again.Seats[1].UserID != u.ID {
		t.Fatalf("after seating an account: %+v, %v", again, err)
	}
	// Opening again migrates nothing twice.
	s.Close()
	s = open()
	if _, err := s.UserByKey(ctx, "carol"); err != nil {
		t.Errorf("the second opening: %v", err)
	}
	if _, err := s.UserByKey(ctx, "dave"); !errors.Is(err, account.ErrNotFound) {
		t.Errorf("UserByKey(dave) = %v", err)
	}
}
