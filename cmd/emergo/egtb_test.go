package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// egtb gen writes the same bytes every time; egtb probe reads a position's
// value and each move's.
func TestEgtbCommand(t *testing.T) {
	dir := t.TempDir()
	var tables [2][]byte
	for i := range tables {
		out := filepath.Join(dir, "two7.bin")
		stdout, _, err := emergo(t, "", "egtb", "gen", "-size", "7", "-out", out)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(stdout, "7x7: 38400 positions: 19104 won, 19296 lost, 0 drawn") {
			t.Errorf("gen said:\n%s", stdout)
		}
		tables[i], _ = os.ReadFile(out)
	}
	if len(tables[0]) != 40000 || !bytes.Equal(tables[0], tables[1]) {
		t.Errorf("two runs wrote %d and %d bytes, equal %v; want 40000, the same", len(tables[0]), len(tables[1]), bytes.Equal(tables[0], tables[1]))
	}
	stdout, _, err := emergo(t, "", "egtb", "probe", "7x7 b 0/0 c3:W5b2 e5:B6w3")
	if err != nil {
		t.Fatal(err)
	}
	if want := "Black to move: won in 25\ne5-f6: won in 33\ne5-d6: won in 33\ne5-f4: won in 33\ne5-d4: won in 25\n"; stdout != want {
		t.Errorf("probe said:\n%s\nwant:\n%s", stdout, want)
	}
	for _, args := range [][]string{{"egtb"}, {"egtb", "gen", "-size", "8"}, {"egtb", "probe"}} {
		if _, _, err := emergo(t, "", args...); err == nil || exitCode(err) != 2 {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	if _, _, err := emergo(t, "", "egtb", "probe", "7x7 w 8/8 -"); err == nil || !strings.Contains(err.Error(), "not a position of the tables") {
		t.Errorf("probe of the start: %v", err)
	}
}
