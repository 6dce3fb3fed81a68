package sqlstore_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"emergo/store/sqlstore"
)

var schemaSeq atomic.Int64

// TestPostgres runs the conformance suite on PostgreSQL when
// EMERGO_TEST_POSTGRES holds a connection URL (.ci/run starts a throwaway
// cluster and sets it). Each store gets a schema of its own.
func TestPostgres(t *testing.T) {
	dsn := os.Getenv("EMERGO_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("PostgreSQL tests skipped: set EMERGO_TEST_POSTGRES to a connection URL (postgres://user@127.0.0.1:5432/db) to run them; .ci/run does")
	}
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	paths := map[*sqlstore.DB]string{}
	open := func(t *testing.T, schemaDSN string) *sqlstore.DB {
		s, err := sqlstore.OpenPostgres(context.Background(), schemaDSN)
		if err != nil {
			t.Fatal(err)
		}
		paths[s] = schemaDSN
		t.Cleanup(func() { s.Close() })
		return s
	}
	// schema makes a schema of the test's own and returns the URL that
	// works in it.
	schema := func(t *testing.T) string {
		schema := fmt.Sprintf("emergo_test_%d_%d", os.Getpid(), schemaSeq.Add(1))
		if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { admin.Exec("DROP SCHEMA " + schema + " CASCADE") })
		return withSearchPath(t, dsn, schema)
	}
	fresh := func(t *testing.T) *sqlstore.DB { return open(t, schema(t)) }
	suites(t, fresh, func(t *testing.T, s *sqlstore.DB) *sqlstore.DB {
		s.Close()
		return open(t, paths[s])
	}, func(t *testing.T, s *sqlstore.DB) *sqlstore.DB { return open(t, paths[s]) })
	// Servers started at once on a new schema all open it.
	t.Run("OpenedAtOnce", func(t *testing.T) {
		url := schema(t)
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := sqlstore.OpenPostgres(context.Background(), url)
				if err != nil {
					t.Error(err)
					return
				}
				s.Close()
			}()
		}
		wg.Wait()
	})
	t.Run("MigratesTheFirstSchema", func(t *testing.T) {
		url := schema(t)
		db, err := sql.Open("pgx", url)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		migratesFirstSchema(t, db, func() *sqlstore.DB { return open(t, url) })
	})
	t.Run("Feed", func(t *testing.T) {
		url, other := schema(t), schema(t)
		feedTest(t, admin, open(t, url), open(t, url), open(t, other))
	})
}

func withSearchPath(t *testing.T, dsn, schema string) string {
	if strings.Contains(dsn, "://") {
		u, err := url.Parse(dsn)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return dsn + " search_path=" + schema
}
