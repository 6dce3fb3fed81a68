package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// replayTestdata returns a file of the record package's test data.
func replayTestdata(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "record", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func replayUTF16LE(s string) []byte {
	b := binary.LittleEndian.AppendUint16(nil, 0xfeff)
	for _, u := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return b
}

func TestReplayRecordFormats(t *testing.T) {
	const known = "game 1: White - Black: 1-0 (all men taken prisoner), 39 plies\n" +
		"game 2: ? - ?: * (unterminated), 3 plies\n" +
		"game 3: back\\slash - ?: 0-1 (time forfeit), 14 plies\n"
	const array = "game 1: alice - bob: 0-1 (resignation), 10 plies\n" +
		"game 2: bob - carol: 1-0 (time forfeit), 31 plies\n" +
		"game 3: carol - AiAi: 1/2-1/2 (agreement), 30 plies\n"
	const ruleEnd = "game 1: alice - bob: 0-1 (resignation), 42 plies; our rules end it at move 20...: 1/2-1/2 (threefold repetition)\n"
	for _, c := range []struct {
		name    string
		file    string // the name of the file: its content decides the format
		data    []byte
		lenient bool
		want    string // the output
		err     string // the error, after the file's path
	}{
		{"PGN", "known.pgn", replayTestdata(t, "known.pgn"), false, known, ""},
		{"an AP array in a .txt file", "games.txt", replayTestdata(t, "ap-array.json"), false, array, ""},
		{"an AP record in a .pgn file", "s1.pgn", replayTestdata(t, "s1.apjson"), false,
			"game 1: alice - EmergoBot: 1/2-1/2 (no legal move), 23 plies\n", ""},
		{"PGN in a .json file, UTF-16", "known.json", replayUTF16LE(string(replayTestdata(t, "known.pgn"))), false, known, ""},
		{"UTF-8 with a byte-order mark", "games.json", append([]byte("\ufeff"), replayTestdata(t, "ap-array.json")...), false, array, ""},
		{"past our rules' end", "rep.apjson", replayTestdata(t, "repetition.apjson"), false, "",
			`record: alice-bob: move 21 "b8-c9": the game is over (1/2-1/2, threefold repetition); a lenient read keeps the record as played: emergo replay -lenient FILE`},
		{"past our rules' end, lenient", "rep.apjson", replayTestdata(t, "repetition.apjson"), true, ruleEnd, ""},
		{"lenient reads strict games alike", "games.txt", replayTestdata(t, "ap-array.json"), true, array, ""},
		{"one ply", "one.pgn", []byte("1. d6 *\n"), false, "game 1: ? - ?: * (not finished on the board), 1 ply\n", ""},
		{"no games", "empty.json", []byte("[]"), false, "", "no games"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), c.file)
			if err := os.WriteFile(path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{path}
			if c.lenient {
				args = []string{"-lenient", path}
			}
			var stdout, stderr bytes.Buffer
			err := runReplay(args, nil, &stdout, &stderr)
			want := ""
			if c.err != "" {
				want = path + ": " + strings.ReplaceAll(c.err, "FILE", path)
			}
			if err == nil && want != "" || err != nil && err.Error() != want {
				t.Errorf("error\n%v\nwant\n%s", err, want)
			}
			if stdout.String() != c.want {
				t.Errorf("output\n%s\nwant\n%s", stdout.String(), c.want)
			}
		})
	}
}
