package sqlstore_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"emergo/store/sqlstore"
)

func TestSQLite(t *testing.T) {
	paths := map[*sqlstore.DB]string{}
	open := func(t *testing.T, path string) *sqlstore.DB {
		s, err := sqlstore.OpenSQLite(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		paths[s] = path
		t.Cleanup(func() { s.Close() })
		return s
	}
	fresh := func(t *testing.T) *sqlstore.DB { return open(t, filepath.Join(t.TempDir(), "games.db")) }
	suites(t, fresh, func(t *testing.T, s *sqlstore.DB) *sqlstore.DB {
		s.Close()
		return open(t, paths[s])
	}, func(t *testing.T, s *sqlstore.DB) *sqlstore.DB { return open(t, paths[s]) })
	t.Run("MigratesTheFirstSchema", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "old.db")
		db, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		migratesFirstSchema(t, db, func() *sqlstore.DB { return open(t, path) })
	})
}
