package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"emergo/book"
	"emergo/explorer"
)

// The DB keeps the explorer's index too.
var _ explorer.Store = (*DB)(nil)

// IndexGame implements explorer.Store: the mark and the entries in one
// transaction, the entries only if this transaction made the mark.
func (s *DB) IndexGame(ctx context.Context, id, result string, entries []explorer.Entry) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO explorer_games (game_id, positions) VALUES (?, ?)
			ON CONFLICT (game_id) DO NOTHING`), id, len(entries))
		if err != nil {
			return fmt.Errorf("sqlstore: index game %s: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		q := s.rebind(`INSERT INTO explorer_moves (game_id, ply, pos_key, move, result) VALUES (?, ?, ?, ?, ?)`)
		for _, e := range entries {
			if _, err := tx.ExecContext(ctx, q, id, e.Ply, int64(e.Key), e.Move, result); err != nil {
				return fmt.Errorf("sqlstore: index game %s ply %d: %w", id, e.Ply, err)
			}
		}
		return nil
	})
}

// Unindexed implements explorer.Store.
func (s *DB) Unindexed(ctx context.Context, limit int) ([]string, error) {
	return s.ids(ctx, "unindexed games", `SELECT g.id FROM games g WHERE g.result <> '*'
		AND NOT EXISTS (SELECT 1 FROM explorer_games e WHERE e.game_id = g.id) ORDER BY g.id LIMIT ?`, limit)
}

// PositionMoves implements explorer.Store.
func (s *DB) PositionMoves(ctx context.Context, key uint64) ([]book.Move, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT move, result, COUNT(*) FROM explorer_moves
		WHERE pos_key = ? GROUP BY move, result ORDER BY move`), int64(key))
	if err != nil {
		return nil, fmt.Errorf("sqlstore: explorer moves: %w", err)
	}
	defer rows.Close()
	var out []book.Move
	for rows.Next() {
		var move, result string
		var n int
		if err := rows.Scan(&move, &result, &n); err != nil {
			return nil, fmt.Errorf("sqlstore: explorer moves: %w", err)
		}
		if len(out) == 0 || out[len(out)-1].Text != move {
			out = append(out, book.Move{Text: move})
		}
		m := &out[len(out)-1]
		switch result {
		case "1-0":
			m.White += n
		case "0-1":
			m.Black += n
		default:
			m.Draws += n
		}
	}
	return out, rows.Err()
}
