package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
)

// DefaultConns is the number of PostgreSQL connections a store opens at
// most, and keeps open (SetConns). Without the bound, a burst of requests
// opens a connection each, a new server process for PostgreSQL, and then
// closes all but two: under load, most of a request's time went to
// connecting. It is small because PostgreSQL does best with about as many
// busy sessions as it has cores: on the 2-core test machine two instances
// with 16 each kept 32 processes fighting for the cores, and the load
// benchmark's p99 fell from 60-140 ms to 37-62 ms with 4 (docs/deploy.md,
// "A move on PostgreSQL").
const DefaultConns = 4

// SetConns sets the connections to PostgreSQL that s opens at most and
// keeps open, DefaultConns at first; it does nothing on SQLite, whose
// writes go one at a time.
func (s *DB) SetConns(n int) {
	if !s.postgres || n <= 0 {
		return
	}
	s.db.SetMaxOpenConns(n)
	s.db.SetMaxIdleConns(n)
}

// PoolStats returns the figures of s's connections: open, in use, and
// how often and how long requests waited for one.
func (s *DB) PoolStats() sql.DBStats { return s.db.Stats() }

// OpenPostgres connects to PostgreSQL with a pgx connection string (a URL
// such as postgres://user:pass@host/db or key=value pairs) and migrates
// the schema. Several servers may share one database: every write checks
// the game's version, so concurrent changes are refused, not lost.
func OpenPostgres(ctx context.Context, dsn string) (*DB, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: %w", err)
	}
	db.SetMaxOpenConns(DefaultConns)
	db.SetMaxIdleConns(DefaultConns)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlstore: connect to PostgreSQL: %w", err)
	}
	s, err := open(ctx, db, true)
	if err != nil {
		return nil, err
	}
	s.dsn = dsn
	return s, nil
}
