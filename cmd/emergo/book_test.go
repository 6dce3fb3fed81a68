package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// book build writes the same bytes for the same flags, and book show
// reads them back; the program's own books answer without -book.
func TestBookCommand(t *testing.T) {
	dir := t.TempDir()
	build := func(name string) []byte {
		t.Helper()
		out := filepath.Join(dir, name)
		args := []string{"book", "build", "-size", "7", "-games", "6", "-plies", "4", "-nodes", "200", "-depth", "2", "-quiet", "-out", out}
		var stdout, stderr bytes.Buffer
		if err := run(args, strings.NewReader(""), &stdout, &stderr); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, stderr.String())
		}
		if !strings.Contains(stdout.String(), "from 6 games written to "+out) {
			t.Errorf("book build says %q", stdout.String())
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	if a, b := build("a.gz"), build("b.gz"); !bytes.Equal(a, b) {
		t.Error("two builds with the same flags differ")
	}
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"the file's start", []string{"book", "show", "-book", filepath.Join(dir, "a.gz")},
			[]string{"7x7 w 8/8 -\n", "book: -size 7 -games 6 -plies 4 -random 2 -nodes 200 -margin 30 -depth 2 -seed 1", "6 games\n"}},
		{"the program's 9x9 book", []string{"book", "show"}, []string{"9x9 w 12/12 -\n", "evaluation "}},
		{"beyond the book's plies", []string{"book", "show", "-book", filepath.Join(dir, "a.gz"), "a1", "g7", "c1", "e7", "e1"}, []string{"not in the book\n"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if err := run(c.args, strings.NewReader(""), &stdout, &stderr); err != nil {
				t.Fatalf("%v: %v\n%s", c.args, err, stderr.String())
			}
			for _, w := range c.want {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("%v says:\n%s\nwant %q in it", c.args, stdout.String(), w)
				}
			}
		})
	}
	for _, args := range [][]string{
		{"book", "build", "-size", "8"},
		{"book", "build", "-plies", "2", "-random", "3"},
		{"book"},
		{"book", "show", "-size", "9", "-book", filepath.Join(dir, "a.gz")},
	} {
		var stdout, stderr bytes.Buffer
		err := run(args, strings.NewReader(""), &stdout, &stderr)
		if code := report(err, args, &stderr); code != 2 {
			t.Errorf("%v: exit %d (%v), want 2, a usage error", args, code, err)
		}
	}
}
