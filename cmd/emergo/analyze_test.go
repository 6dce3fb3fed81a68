package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"emergo/notation"
	"emergo/record"
	"emergo/rules"
)

// blunderGame is a 7x7 game of a four-ply search but for Black's 11th
// move, g1-f2 (move 22 of the game), its worst move: it gives White a free
// capture of several men.
const (
	blunderGame = "c1 e1 a3 a5 e5 g3 g5 a1 a7 g1 d4 e7 c7 f2 c3 g7 c1-d2 f2-e3 d2xf4 e1-d2 " +
		"c3xe1 g1-f2 c7-d6 e7xc5xe3 f4xd2 f2xd4xf6 g5xe7"
	blunderPly = 21
)

// writeBlunderRecord writes the game as a record file, PGN-style or, for a
// name ending in .json, Abstract Play JSON.
func writeBlunderRecord(t *testing.T, file string) record.Record {
	t.Helper()
	gm := rules.NewGame(rules.Geometry7)
	if err := notation.PlayMoves(gm, strings.Fields(blunderGame)); err != nil {
		t.Fatal(err)
	}
	rec := record.FromGame(gm)
	for k, v := range map[string]string{"White": "alice", "Black": "bob", "Event": "test"} {
		if err := rec.SetTag(k, v); err != nil {
			t.Fatal(err)
		}
	}
	var data []byte
	if strings.HasSuffix(file, ".json") {
		var err error
		if data, err = record.WriteAPJSON(rec); err != nil {
			t.Fatal(err)
		}
	} else {
		var buf bytes.Buffer
		if err := record.WritePGN(&buf, rec); err != nil {
			t.Fatal(err)
		}
		data = buf.Bytes()
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestAnalyze(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "game.pgn")
	out := filepath.Join(dir, "annotated.pgn")
	chart := filepath.Join(dir, "game.svg")
	orig := writeBlunderRecord(t, in)

	var stdout, stderr bytes.Buffer
	if err := runAnalyze([]string{"-depth", "4", "-out", out, "-svg", chart, in}, nil, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	wantInOrder(t, stdout.String(), "game 1 (alice-bob): 27 moves, *", "White", "Black", "average loss")
	if !strings.Contains(stdout.String(), "mistake") {
		t.Errorf("no mistake in the summary:\n%s", stdout.String())
	}

	// The annotated record reads back: the same game, a comment per move.
	rec := readOneRecord(t, out)
	if !equalGames(orig, rec) || rec.Tag("White") != "alice" {
		t.Fatalf("the annotated record is another game:\n%+v", rec)
	}
	if got := rec.Tag("Annotator"); got != "emergo analyze, depth 4" {
		t.Errorf("Annotator %q", got)
	}
	if len(rec.Comments) != len(rec.Moves) {
		t.Fatalf("%d comments for %d moves", len(rec.Comments), len(rec.Moves))
	}
	marked := 0
	for i, c := range rec.Comments {
		if !strings.HasPrefix(strings.TrimLeft(c, "? "), "eval ") || !strings.Contains(c, "best") {
			t.Errorf("comment %d: %q", i, c)
		}
		if strings.HasPrefix(c, "?") {
			marked++
		}
	}
	if c := rec.Comments[blunderPly]; !strings.HasPrefix(c, "?") || !strings.Contains(c, "best g7-f6") {
		t.Errorf("the blunder g1-f2 is not marked: %q", c)
	}

	// The chart: well-formed, one point per move, one dot per mark.
	data, err := os.ReadFile(chart)
	if err != nil {
		t.Fatal(err)
	}
	points, dots := 0, 0
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the chart is not well-formed XML: %v", err)
		}
		if el, ok := tok.(xml.StartElement); ok {
			switch el.Name.Local {
			case "polyline":
				for _, a := range el.Attr {
					if a.Name.Local == "points" {
						points = len(strings.Fields(a.Value))
					}
				}
			case "circle":
				dots++
			}
		}
	}
	if points != len(rec.Moves) || dots != marked {
		t.Errorf("the chart has %d points and %d dots, want %d and %d", points, dots, len(rec.Moves), marked)
	}

	// Analysing the annotated record again replaces the comments.
	stdout.Reset()
	if err := runAnalyze([]string{"-depth", "4", out}, nil, &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	recs, err := record.ReadPGN(&stdout)
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d games, %v", len(recs), err)
	}
	for i, c := range recs[0].Comments {
		if c != rec.Comments[i] {
			t.Errorf("comment %d after a second analysis: %q, want %q", i, c, rec.Comments[i])
		}
	}
}

func TestAnalyzeJSON(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "game.json")
	writeBlunderRecord(t, in)
	var stdout, stderr bytes.Buffer
	if err := runAnalyze([]string{"-depth", "2", "-threshold", "150", in}, nil, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	wantInOrder(t, stderr.String(), "game 1 (alice-bob): 27 moves")
	recs, err := record.ReadPGN(&stdout)
	if err != nil || len(recs) != 1 || len(recs[0].Comments) != 27 {
		t.Fatalf("%v: %+v", err, recs)
	}
	if got := recs[0].Comments[blunderPly]; !strings.HasPrefix(got, "?") {
		t.Errorf("the blunder: %q", got)
	}
}

func TestAnalyzeSeveralGames(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "games.pgn")
	rec := writeBlunderRecord(t, in)
	short := rules.NewGame(rules.Geometry7)
	if err := notation.PlayMoves(short, []string{"c1", "e1"}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := record.WritePGN(&buf, rec, record.FromGame(short)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	chart := filepath.Join(dir, "eval.svg")
	var stdout, stderr bytes.Buffer
	if err := runAnalyze([]string{"-movetime", "5ms", "-svg", chart, in}, nil, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	wantInOrder(t, stderr.String(), "game 1 (alice-bob): 27 moves", "game 2 (?-?): 2 moves")
	for _, f := range []string{chart, filepath.Join(dir, "eval-2.svg")} {
		if _, err := os.Stat(f); err != nil {
			t.Error(err)
		}
	}
	recs, err := record.ReadPGN(&stdout)
	if err != nil || len(recs) != 2 || len(recs[1].Comments) != 2 {
		t.Fatalf("%v: %+v", err, recs)
	}
	if !strings.Contains(recs[0].Tag("Annotator"), "5ms per position") {
		t.Errorf("Annotator %q", recs[0].Tag("Annotator"))
	}
}

func TestAnalyzeErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.pgn")
	if err := os.WriteFile(bad, []byte("1. e5 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		args  []string
		usage bool
		want  string
	}{
		{"no file", nil, true, "one record file"},
		{"depth and time", []string{"-depth", "3", "-movetime", "1s", bad}, true, "not both"},
		{"threshold", []string{"-threshold", "0", bad}, true, "positive"},
		{"illegal move", []string{bad}, false, "centre"},
		{"missing", []string{filepath.Join(dir, "none.pgn")}, false, "no such file"},
	} {
		err := runAnalyze(c.args, nil, io.Discard, io.Discard)
		var u usageError
		if err == nil || errors.As(err, &u) != c.usage || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want a usage error %v containing %q", c.name, err, c.usage, c.want)
		}
	}
}
