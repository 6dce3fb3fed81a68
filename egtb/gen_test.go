package egtb

import (
	"bytes"
	"compress/gzip"
	"flag"
	"os"
	"testing"

	"emergo/rules"
)

var update = flag.Bool("update", false, "rewrite the embedded tables from Generate")

// The embedded tables are Generate's, byte for byte; -update rewrites
// them.
func TestEmbeddedTables(t *testing.T) {
	for _, tc := range []struct {
		name string
		geo  *rules.Geometry
		file string
	}{{"9x9", rules.Geometry9, "two9.bin.gz"}, {"7x7", rules.Geometry7, "two7.bin.gz"}} {
		t.Run(tc.name, func(t *testing.T) {
			tab, st, err := Generate(tc.geo)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %+v", tc.name, st)
			if *update {
				var b bytes.Buffer
				w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
				w.Write(tab.Bytes())
				w.Close()
				if err := os.WriteFile(tc.file, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !bytes.Equal(For(tc.geo).Bytes(), tab.Bytes()) {
				t.Errorf("the embedded %s table differs from Generate's: go test ./egtb -run EmbeddedTables -update", tc.name)
			}
		})
	}
}
