package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
)

// OpenPostgres connects to PostgreSQL with a pgx connection string (a URL
// such as postgres://user:pass@host/db or key=value pairs) and migrates
// the schema. Several servers may share one database: every write checks
// the game's version, so concurrent changes are refused, not lost.
func OpenPostgres(ctx context.Context, dsn string) (*DB, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: %w", err)
	}
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
