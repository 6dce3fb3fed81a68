package sqlstore

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestMigrationSteps(t *testing.T) {
	file := &fstest.MapFile{Data: []byte("SELECT 1;")}
	for _, tt := range []struct {
		name  string
		files []string
		want  string // the names in order, or the error's text
	}{
		{"in version order", []string{"002_b.sql", "001_a.sql", "010_c.sql", "9_d.sql"}, "001_a.sql 002_b.sql 9_d.sql 010_c.sql"},
		{"one version twice", []string{"001_a.sql", "002_b.sql", "002_c.sql"}, "sqlstore: migrations 002_b.sql and 002_c.sql have one version, 2"},
		{"no version", []string{"001_a.sql", "accounts.sql"}, "sqlstore: migration accounts.sql: no version number"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for _, f := range tt.files {
				fsys["migrations/"+f] = file
			}
			steps, err := migrationSteps(fsys)
			got := ""
			if err != nil {
				got = err.Error()
			}
			var names []string
			for _, m := range steps {
				names = append(names, strings.TrimPrefix(m.name, "migrations/"))
			}
			if err == nil {
				got = strings.Join(names, " ")
			}
			if got != tt.want {
				t.Errorf("migrationSteps = %q, want %q", got, tt.want)
			}
		})
	}
	// The embedded migrations are in order, one a version.
	if _, err := migrationSteps(migrations); err != nil {
		t.Error(err)
	}
}
