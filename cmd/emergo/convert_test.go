package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"emergo/record"
)

// convert writes the format OUT's name or -to asks for, keeps the games,
// and names on standard error what the output has no place for.
func TestConvertCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "known.pgn")
	if err := os.WriteFile(in, replayTestdata(t, "known.pgn"), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := readRecordFile(in)
	if err != nil {
		t.Fatal(err)
	}
	convert := func(args ...string) (string, string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if err := runConvert(args, strings.NewReader(""), &stdout, &stderr); err != nil {
			t.Fatalf("convert %v: %v\n%s", args, err, stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	asJSON := filepath.Join(dir, "known.json")
	_, warned := convert(in, asJSON)
	for _, want := range []string{
		`game 1: Abstract Play JSON has no place for Date "1986.??.??" and the comments: left out`,
		"game 2: the game is not over",
	} {
		if !strings.Contains(warned, want) {
			t.Errorf("warnings\n%s\nwant %q", warned, want)
		}
	}
	asText := filepath.Join(dir, "known.txt")
	convert("-to", "json", in, asText)
	for _, file := range []string{asJSON, asText} {
		data, _ := os.ReadFile(file)
		if !strings.HasPrefix(string(data), "[\n  {") {
			t.Errorf("%s is not an array of Abstract Play records: %.20q", file, data)
		}
	}
	back := filepath.Join(dir, "back.json")
	convert("-to", "pgn", asJSON, back)
	recs, err := readRecordFile(back)
	if err != nil || len(recs) != len(src) {
		t.Fatalf("%s: %d games, %v; want %d", back, len(recs), err, len(src))
	}
	for i := range recs {
		if !equalGames(recs[i], src[i]) || recs[i].Tag("White") != src[i].Tag("White") {
			t.Errorf("game %d changed", i+1)
		}
	}
	if data, _ := os.ReadFile(back); !strings.HasPrefix(string(data), "[Event") {
		t.Errorf("-to pgn wrote %.20q", data)
	}
	// PGN to PGN is the writer's text of the games.
	out, warned := convert(in, "-")
	var want bytes.Buffer
	if err := record.WritePGN(&want, src...); err != nil {
		t.Fatal(err)
	}
	if out != want.String() || warned != "" {
		t.Errorf("PGN to PGN on standard output:\n%s\nwarnings %q", out, warned)
	}
}

func TestConvertUsage(t *testing.T) {
	for _, args := range [][]string{
		{"in.pgn"},
		{"-to", "sgf", "in.pgn", "out.sgf"},
	} {
		err := runConvert(args, nil, &bytes.Buffer{}, &bytes.Buffer{})
		if _, ok := err.(usageError); !ok {
			t.Errorf("convert %q: %v, want a usage error", args, err)
		}
	}
}
