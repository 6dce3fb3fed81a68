package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// The README lists the packages lowest first; the code must keep that
// order, not only the document: every package of the module imports only
// packages listed on its row or above it, and the search is reached
// through package player alone (STYLE: dependencies point one way). Tests
// may import what they need.
func TestLayers(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the layers' test needs the go command in PATH to list the packages")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := packageRows(t, readme)
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(p.ImportPath, "emergo/")
		row, ok := rowOf(rows, name)
		if !ok {
			t.Errorf("package %s is on no row of the README's table of packages", name)
			continue
		}
		for _, imp := range p.Imports {
			dep, ok := strings.CutPrefix(imp, "emergo/")
			if !ok {
				continue
			}
			if dep == "search" && name != "player" && name != "search" {
				t.Errorf("package %s imports search: the search is reached through package player", name)
			}
			if r, ok := rowOf(rows, dep); ok && r > row {
				t.Errorf("package %s (row %d of the README's table) imports %s (row %d): an arrow pointing up", name, row+1, dep, r+1)
			}
		}
	}
}

// packageRows reads the README's table of packages, lowest first: the
// package names of each row.
func packageRows(t *testing.T, readme []byte) [][]string {
	t.Helper()
	_, table, ok := bytes.Cut(readme, []byte("## Packages, lowest first"))
	if !ok {
		t.Fatal(`the README has no section "Packages, lowest first"`)
	}
	name := regexp.MustCompile("`([a-z][a-z0-9/]*)`")
	var rows [][]string
	for _, line := range strings.Split(string(table), "\n") {
		if !strings.HasPrefix(line, "| `") {
			if len(rows) > 0 && !strings.HasPrefix(line, "|") {
				break // the table's end
			}
			continue
		}
		first, _, _ := strings.Cut(line[1:], "|")
		var row []string
		for _, m := range name.FindAllStringSubmatch(first, -1) {
			row = append(row, m[1])
		}
		rows = append(rows, row)
	}
	if len(rows) < 10 {
		t.Fatalf("the README's table of packages has %d rows", len(rows))
	}
	return rows
}

// rowOf returns the row of package name: the row that lists it, or the
// one that lists the closest folder above it (server/internal/diagram is
// server's).
func rowOf(rows [][]string, name string) (int, bool) {
	best, at := "", -1
	for i, row := range rows {
		for _, p := range row {
			if (name == p || strings.HasPrefix(name, p+"/")) && len(p) > len(best) {
				best, at = p, i
			}
		}
	}
	return at, at >= 0
}
