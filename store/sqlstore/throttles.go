package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"emergo/throttle"
)

// The DB keeps the throttles' buckets, for every server on it.
var _ throttle.Store = (*DB)(nil)

// Limiter implements throttle.Store.
func (s *DB) Limiter(name string, l throttle.Limit) throttle.Limiter {
	return &limiter{db: s, name: name, limit: l}
}

// PruneThrottles implements throttle.Store.
func (s *DB) PruneThrottles(ctx context.Context, now time.Time) error {
	q := s.rebind(`DELETE FROM throttles WHERE full_ms <= ?`)
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, q, ms(now)); err != nil {
			return fmt.Errorf("sqlstore: prune throttles: %w", err)
		}
		return nil
	})
}

type limiter struct {
	db    *DB
	name  string
	limit throttle.Limit
}

// Take implements throttle.Limiter: throttle.Limit.Take's rule in one
// statement, which the database applies to one bucket at a time. The
// bucket is moved on only if the attempt goes ahead (the WHERE of the
// update); a refused attempt returns no row, and the wait is read after.
func (l *limiter) Take(ctx context.Context, key string, now time.Time) (time.Duration, error) {
	if l.limit.Every <= 0 {
		return 0, nil
	}
	every, at := dms(l.limit.Every), ms(now)
	ceiling := at + int64(max(l.limit.Burst, 1))*every
	take := l.db.rebind(`INSERT INTO throttles (name, subject, full_ms) VALUES (?, ?, ?)
		ON CONFLICT (name, subject) DO UPDATE
		SET full_ms = CASE WHEN throttles.full_ms > ? THEN throttles.full_ms ELSE ? END + ?
		WHERE CASE WHEN throttles.full_ms > ? THEN throttles.full_ms ELSE ? END + ? <= ?
		RETURNING full_ms`)
	read := l.db.rebind(`SELECT full_ms FROM throttles WHERE name = ? AND subject = ?`)
	var wait time.Duration
	err := l.db.write(ctx, func(tx *sql.Tx) error {
		var full int64
		err := tx.QueryRowContext(ctx, take, l.name, key, at+every, at, at, every, at, at, every, ceiling).Scan(&full)
		if err == nil {
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("sqlstore: throttle %s: %w", l.name, err)
		}
		if err := tx.QueryRowContext(ctx, read, l.name, key).Scan(&full); err != nil {
			return fmt.Errorf("sqlstore: throttle %s: %w", l.name, err)
		}
		_, wait = l.limit.Take(fromMS(full), now)
		wait = max(wait, time.Millisecond) // refused, if only just
		return nil
	})
	return wait, err
}

// Give implements throttle.Limiter.
func (l *limiter) Give(ctx context.Context, key string) error {
	return l.exec(ctx, `UPDATE throttles SET full_ms = full_ms - ? WHERE name = ? AND subject = ?`, dms(l.limit.Every), l.name, key)
}

// Forget implements throttle.Limiter.
func (l *limiter) Forget(ctx context.Context, key string) error {
	return l.exec(ctx, `DELETE FROM throttles WHERE name = ? AND subject = ?`, l.name, key)
}

func (l *limiter) exec(ctx context.Context, q string, args ...any) error {
	q = l.db.rebind(q)
	return l.db.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("sqlstore: throttle %s: %w", l.name, err)
		}
		return nil
	})
}
