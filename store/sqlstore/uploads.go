package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"emergo/store"
)

// The DB keeps the uploads' sizes, digests and openings beside their
// games.
var _ store.Uploads = (*DB)(nil)

// evictBatch bounds the uploads one query of CreateUpload reads to make
// room.
const evictBatch = 100

// CreateUpload implements store.Uploads. On PostgreSQL the uploads of
// every server are made one at a time (a transaction's advisory lock), so
// that a record uploaded twice at once is stored once and the bound holds
// exactly; SQLite has one writer anyway.
func (s *DB) CreateUpload(ctx context.Context, g *store.Game, u store.Upload, limit int64) (string, []string, error) {
	var id string
	var deleted []string
	err := s.serialized(ctx, uploadsLock, func(tx *sql.Tx) error {
		id, deleted = "", nil
		err := tx.QueryRowContext(ctx, s.rebind(`SELECT game_id FROM uploads WHERE digest = ?`), u.Digest).Scan(&id)
		if err == nil {
			return nil // stored before
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlstore: upload %s: %w", g.ID, err)
		}
		if err := s.create(ctx, tx, g); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO uploads (game_id, digest, size, opened_ms) VALUES (?, ?, ?, ?)`),
			g.ID, u.Digest, u.Size, ms(g.Created)); err != nil {
			return fmt.Errorf("sqlstore: upload %s: %w", g.ID, err)
		}
		id = g.ID
		if limit <= 0 {
			return nil
		}
		deleted, err = s.makeRoom(ctx, tx, g.ID, limit)
		return err
	})
	if err != nil {
		return "", nil, err
	}
	if id == g.ID {
		g.Version = 1
	}
	return id, deleted, nil
}

// makeRoom deletes uploads but keep, the least recently opened first,
// while their sizes add up to more than limit, and returns their IDs.
func (s *DB) makeRoom(ctx context.Context, tx *sql.Tx, keep string, limit int64) ([]string, error) {
	var total int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(size), 0) FROM uploads`).Scan(&total); err != nil {
		return nil, fmt.Errorf("sqlstore: uploads' size: %w", err)
	}
	var out []string
	for total > limit {
		rows, err := tx.QueryContext(ctx, s.rebind(`SELECT game_id, size FROM uploads WHERE game_id <> ?
			ORDER BY opened_ms, game_id LIMIT ?`), keep, evictBatch)
		if err != nil {
			return nil, fmt.Errorf("sqlstore: uploads to delete: %w", err)
		}
		var ids []string
		for rows.Next() && total > limit {
			var id string
			var size int64
			if err := rows.Scan(&id, &size); err != nil {
				rows.Close()
				return nil, fmt.Errorf("sqlstore: uploads to delete: %w", err)
			}
			ids, total = append(ids, id), total-size
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("sqlstore: uploads to delete: %w", err)
		}
		if len(ids) == 0 {
			break // keep alone is over the limit
		}
		if err := s.deleteGames(ctx, tx, ids); err != nil {
			return nil, err
		}
		out = append(out, ids...)
	}
	return out, nil
}

// deleteGames deletes the games ids with what the store keeps of them:
// their moves, their upload's row, their mark in the explorer's index.
func (s *DB) deleteGames(ctx context.Context, tx *sql.Tx, ids []string) error {
	in := `(?` + strings.Repeat(", ?", len(ids)-1) + `)`
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	for _, q := range []string{
		`DELETE FROM moves WHERE game_id IN ` + in,
		`DELETE FROM uploads WHERE game_id IN ` + in,
		`DELETE FROM explorer_games WHERE game_id IN ` + in,
		`DELETE FROM games WHERE id IN ` + in,
	} {
		if _, err := tx.ExecContext(ctx, s.rebind(q), args...); err != nil {
			return fmt.Errorf("sqlstore: delete games: %w", err)
		}
	}
	return nil
}

// UploadOpened implements store.Uploads.
func (s *DB) UploadOpened(ctx context.Context, id string) (time.Time, error) {
	var opened int64
	err := s.db.QueryRowContext(ctx, s.rebind(`SELECT opened_ms FROM uploads WHERE game_id = ?`), id).Scan(&opened)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, store.ErrNotFound
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("sqlstore: upload %s: %w", id, err)
	}
	return fromMS(opened), nil
}

// OpenUpload implements store.Uploads.
func (s *DB) OpenUpload(ctx context.Context, id string, t time.Time) error {
	q := s.rebind(`UPDATE uploads SET opened_ms = ? WHERE game_id = ? AND opened_ms < ?`)
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, q, ms(t), id, ms(t)); err != nil {
			return fmt.Errorf("sqlstore: open upload %s: %w", id, err)
		}
		return nil
	})
}

// ExpireUploads implements store.Uploads.
func (s *DB) ExpireUploads(ctx context.Context, before time.Time, limit int) ([]string, error) {
	var ids []string
	err := s.write(ctx, func(tx *sql.Tx) error {
		ids = nil
		rows, err := tx.QueryContext(ctx, s.rebind(`SELECT game_id FROM uploads WHERE opened_ms < ?
			ORDER BY opened_ms, game_id LIMIT ?`), ms(before), limit)
		if err != nil {
			return fmt.Errorf("sqlstore: expired uploads: %w", err)
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return fmt.Errorf("sqlstore: expired uploads: %w", err)
			}
			ids = append(ids, id)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return fmt.Errorf("sqlstore: expired uploads: %w", err)
		}
		if len(ids) == 0 {
			return nil
		}
		return s.deleteGames(ctx, tx, ids)
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// UploadBytes implements store.Uploads.
func (s *DB) UploadBytes(ctx context.Context) (int64, error) {
	var n int64
	if err := s.db.QueryRowContext(ctx, `SELECT COALESCE(SUM(size), 0) FROM uploads`).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlstore: uploads' size: %w", err)
	}
	return n, nil
}
