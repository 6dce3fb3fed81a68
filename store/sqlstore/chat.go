package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"emergo/chat"
)

// The DB keeps the games' chat and its moderation too.
var _ chat.Store = (*DB)(nil)

// AddLine implements chat.Store. The lines beyond the keep latest of the
// game are found by the game's index, from the newest: the write deletes
// at most the one or two that the new line pushes out.
func (s *DB) AddLine(ctx context.Context, l *chat.Line, keep int) error {
	add := s.rebind(`INSERT INTO chat_lines (game_id, room, user_id, name, text, muted, at_ms)
		VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`)
	trim := s.rebind(`DELETE FROM chat_lines WHERE game_id = ? AND id <= (
		SELECT id FROM chat_lines WHERE game_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`)
	return s.write(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, add, l.Game, string(l.Room), l.User, l.Name, l.Text, b2i(l.Muted), ms(l.Time)).Scan(&l.ID); err != nil {
			return fmt.Errorf("sqlstore: add a chat line: %w", err)
		}
		if _, err := tx.ExecContext(ctx, trim, l.Game, l.Game, keep); err != nil {
			return fmt.Errorf("sqlstore: trim the chat: %w", err)
		}
		return nil
	})
}

const lineColumns = `id, game_id, room, user_id, name, text, muted, at_ms`

func scanLine(row interface{ Scan(...any) error }) (chat.Line, error) {
	var (
		l     chat.Line
		room  string
		muted int
		at    int64
	)
	err := row.Scan(&l.ID, &l.Game, &room, &l.User, &l.Name, &l.Text, &muted, &at)
	l.Room, l.Muted, l.Time = chat.Room(room), muted != 0, fromMS(at)
	return l, err
}

// Line implements chat.Store.
func (s *DB) Line(ctx context.Context, id int64) (*chat.Line, error) {
	row := s.db.QueryRowContext(ctx, s.rebind(`SELECT `+lineColumns+` FROM chat_lines WHERE id = ?`), id)
	l, err := scanLine(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, chat.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlstore: chat line %d: %w", id, err)
	}
	return &l, nil
}

// Lines implements chat.Store.
func (s *DB) Lines(ctx context.Context, game string, n int) ([]chat.Line, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT `+lineColumns+` FROM chat_lines
		WHERE game_id = ? ORDER BY id DESC LIMIT ?`), game, n)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: chat of %s: %w", game, err)
	}
	defer rows.Close()
	var lines []chat.Line
	for rows.Next() {
		l, err := scanLine(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlstore: chat of %s: %w", game, err)
		}
		lines = append(lines, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlstore: chat of %s: %w", game, err)
	}
	slices.Reverse(lines)
	return lines, nil
}

// Block implements chat.Store: the count and the insertion are one
// statement.
func (s *DB) Block(ctx context.Context, by, whom int64, now time.Time, max int) error {
	q := s.rebind(`INSERT INTO chat_blocks (user_id, blocked_id, created_ms)
		SELECT CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT) WHERE (SELECT COUNT(*) FROM chat_blocks WHERE user_id = ?) < ?
		ON CONFLICT (user_id, blocked_id) DO NOTHING`)
	known := s.rebind(`SELECT COUNT(*) FROM chat_blocks WHERE user_id = ? AND blocked_id = ?`)
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, q, by, whom, ms(now), by, max)
		if err != nil {
			return fmt.Errorf("sqlstore: block: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil || n > 0 {
			return err
		}
		var had int
		if err := tx.QueryRowContext(ctx, known, by, whom).Scan(&had); err != nil {
			return fmt.Errorf("sqlstore: block: %w", err)
		}
		if had == 0 {
			return &chat.TooManyBlocksError{Max: max}
		}
		return nil
	})
}

// Unblock implements chat.Store.
func (s *DB) Unblock(ctx context.Context, by, whom int64) error {
	return s.exec(ctx, "unblock", s.rebind(`DELETE FROM chat_blocks WHERE user_id = ? AND blocked_id = ?`), by, whom)
}

// Blocked implements chat.Store.
func (s *DB) Blocked(ctx context.Context, by int64) ([]int64, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT blocked_id FROM chat_blocks WHERE user_id = ? ORDER BY blocked_id`), by)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: blocks: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("sqlstore: blocks: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// AddReport implements chat.Store: the count and the insertion are one
// statement (on PostgreSQL, reports made at the very same time may pass
// max by a few).
func (s *DB) AddReport(ctx context.Context, r *chat.Report, max int) error {
	q := s.rebind(`INSERT INTO chat_reports (user_id, about_id, game_id, reason, created_ms)
		SELECT CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT)
		WHERE (SELECT COUNT(*) FROM chat_reports) < ? RETURNING id`)
	return s.write(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, q, r.By, r.About, r.Game, r.Reason, ms(r.Time), max).Scan(&r.ID)
		if errors.Is(err, sql.ErrNoRows) {
			return chat.ErrReportsFull
		}
		if err != nil {
			return fmt.Errorf("sqlstore: report: %w", err)
		}
		return nil
	})
}

// Reports implements chat.Store.
func (s *DB) Reports(ctx context.Context, n int) ([]chat.Report, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT r.id, r.user_id, b.name, r.about_id, a.name, r.game_id, r.reason, r.created_ms
		FROM chat_reports r JOIN users b ON b.id = r.user_id JOIN users a ON a.id = r.about_id
		ORDER BY r.id DESC LIMIT ?`), n)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: reports: %w", err)
	}
	defer rows.Close()
	var out []chat.Report
	for rows.Next() {
		var (
			r  chat.Report
			at int64
		)
		if err := rows.Scan(&r.ID, &r.By, &r.ByName, &r.About, &r.AboutName, &r.Game, &r.Reason, &at); err != nil {
			return nil, fmt.Errorf("sqlstore: reports: %w", err)
		}
		r.Time = fromMS(at)
		out = append(out, r)
	}
	return out, rows.Err()
}

// Standing implements chat.Store.
func (s *DB) Standing(ctx context.Context, user int64) (chat.Standing, error) {
	var mod, muted int
	err := s.db.QueryRowContext(ctx, s.rebind(`SELECT moderator, muted FROM chat_standing WHERE user_id = ?`), user).Scan(&mod, &muted)
	if errors.Is(err, sql.ErrNoRows) {
		return chat.Standing{}, nil
	}
	if err != nil {
		return chat.Standing{}, fmt.Errorf("sqlstore: standing: %w", err)
	}
	return chat.Standing{Moderator: mod != 0, Muted: muted != 0}, nil
}

// SetModerator implements chat.Store.
func (s *DB) SetModerator(ctx context.Context, user int64, on bool) error {
	return s.exec(ctx, "moderator", s.rebind(`INSERT INTO chat_standing (user_id, moderator) VALUES (?, ?)
		ON CONFLICT (user_id) DO UPDATE SET moderator = excluded.moderator`), user, b2i(on))
}

// SetMuted implements chat.Store.
func (s *DB) SetMuted(ctx context.Context, user int64, on bool) error {
	return s.exec(ctx, "mute", s.rebind(`INSERT INTO chat_standing (user_id, muted) VALUES (?, ?)
		ON CONFLICT (user_id) DO UPDATE SET muted = excluded.muted`), user, b2i(on))
}
