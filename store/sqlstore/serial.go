package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"sync"
)

// An advisoryLock is the arguments of pg_advisory_xact_lock that name one
// of PostgreSQL's advisory locks: the lock of a kind of write that goes one
// at a time across every server, because it counts rows to hold a bound
// before it inserts (the games against the engine, the invitations, the
// challenges, the tournaments) or must not store one thing twice (the
// uploads).
type advisoryLock string

// lockKey is the advisory lock of one 64-bit key.
func lockKey(key int64) advisoryLock { return advisoryLock(strconv.FormatInt(key, 10)) }

const (
	challengesLock  advisoryLock = "hashtext(current_schema()), hashtext('challenges')"
	tournamentsLock advisoryLock = "hashtext(current_schema()), hashtext('tournaments')"
	uploadsLock     advisoryLock = "2014, hashtext(current_schema())"
)

// gates holds a gate for each advisory lock this process has taken.
type gates struct {
	mu sync.Mutex
	m  map[advisoryLock]chan struct{}
}

func (g *gates) of(lock advisoryLock) chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m == nil {
		g.m = map[advisoryLock]chan struct{}{}
	}
	c, ok := g.m[lock]
	if !ok {
		c = make(chan struct{}, 1)
		g.m[lock] = c
	}
	return c
}

// serialized runs fn in a write transaction that holds lock, on
// PostgreSQL, from its start. The writes of one lock wait for each other
// in this process first, at its gate, holding nothing: waiting for the
// lock itself holds a connection of the pool, and a burst of such writes
// (a thousand games made at once) took every connection of the instance
// while they queued, so that its moves waited behind them. On SQLite the
// writes are one at a time anyway.
func (s *DB) serialized(ctx context.Context, lock advisoryLock, fn func(tx *sql.Tx) error) error {
	if !s.postgres {
		return s.write(ctx, fn)
	}
	gate := s.gates.of(lock)
	select {
	case gate <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-gate }()
	return s.write(ctx, func(tx *sql.Tx) error {
		if err := lock.take(ctx, tx); err != nil {
			return err
		}
		return fn(tx)
	})
}

// take takes the lock until tx ends, waiting for it (PostgreSQL only).
func (lock advisoryLock) take(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(`+string(lock)+`)`); err != nil {
		return fmt.Errorf("sqlstore: take the lock (%s): %w", lock, err)
	}
	return nil
}
