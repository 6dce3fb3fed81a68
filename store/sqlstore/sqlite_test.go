package sqlstore_test

import (
	"context"
	"path/filepath"
	"testing"

	"emergo/store"
	"emergo/store/sqlstore"
	"emergo/store/storetest"
)

func TestSQLite(t *testing.T) {
	paths := map[store.Store]string{}
	open := func(t *testing.T, path string) store.Store {
		s, err := sqlstore.OpenSQLite(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		paths[s] = path
		t.Cleanup(func() { s.Close() })
		return s
	}
	storetest.Run(t,
		func(t *testing.T) store.Store { return open(t, filepath.Join(t.TempDir(), "games.db")) },
		func(t *testing.T, s store.Store) store.Store {
			s.Close()
			return open(t, paths[s])
		})
}
