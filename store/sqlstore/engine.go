package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"emergo/store"
)

// The engine games that go on, as the queries below select them: their
// own index (games_engine_ongoing) holds them, so that counting them and
// sweeping them reads those alone. The words must be the index's own for
// SQLite to use it.
const engineOngoing = `mode = 'engine' AND result = '*' AND reason = ''`

// engineGamesLock is the advisory lock of the bound on engine games.
const engineGamesLock = 0x656d67616d65 // "emgame"

// CreateEngineGame implements store.Store.
func (s *DB) CreateEngineGame(ctx context.Context, g *store.Game, admit func(store.EngineCount) error) error {
	person := g.Seats[0]
	if person.Engine {
		person = g.Seats[1]
	}
	return s.createCounted(ctx, g, person, lockKey(engineGamesLock), engineOngoing, admit)
}

// createCounted creates g if admit allows it, given the games that where
// selects of person, who creates it, and of the site. On PostgreSQL the
// count and the insertion are made under the advisory lock of the bound
// (serialized), so that servers racing to create games count them one
// after the other; on SQLite the writes are one at a time.
func (s *DB) createCounted(ctx context.Context, g *store.Game, person store.Seat, lock advisoryLock, where string, admit func(store.EngineCount) error) error {
	err := s.serialized(ctx, lock, func(tx *sql.Tx) error {
		var n store.EngineCount
		guest := `white_user = 0 AND black_user = 0`
		err := tx.QueryRowContext(ctx, s.rebind(`SELECT COUNT(*),
			COALESCE(SUM(CASE WHEN ? <> 0 AND (white_user = ? OR black_user = ?) THEN 1 ELSE 0 END), 0),
			COALESCE(SUM(CASE WHEN ? <> '' AND `+guest+` AND (white_token = ? OR black_token = ?) THEN 1 ELSE 0 END), 0),
			COALESCE(SUM(CASE WHEN ? <> '' AND `+guest+` AND client = ? THEN 1 ELSE 0 END), 0)
			FROM games WHERE `+where),
			person.UserID, person.UserID, person.UserID, person.Token, person.Token, person.Token, g.Client, g.Client).
			Scan(&n.Total, &n.Account, &n.Token, &n.Client)
		if err != nil {
			return fmt.Errorf("sqlstore: count the games of the bound of %s: %w", g.ID, err)
		}
		if err := admit(n); err != nil {
			return err
		}
		return s.create(ctx, tx, g)
	})
	if err != nil {
		return err
	}
	g.Version = 1
	return nil
}

// IdleEngineGames implements store.Store.
func (s *DB) IdleEngineGames(ctx context.Context, unstarted, idle time.Time, limit int) ([]string, error) {
	return s.ids(ctx, "idle engine games", `SELECT id FROM games g WHERE `+engineOngoing+` AND (
		(created_ms <= ? AND NOT EXISTS (SELECT 1 FROM moves m WHERE m.game_id = g.id AND m.ply = 1))
		OR (person_turn_ms > 0 AND person_turn_ms <= ?))
		ORDER BY created_ms, id LIMIT ?`, ms(unstarted), ms(idle), limit)
}
