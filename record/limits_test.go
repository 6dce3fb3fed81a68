package record_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"runtime"
	"strings"
	"testing"

	"emergo/record"
)

// longRecord returns the game of testdata/long.pgn, 10,000 plies, and
// the same game cut to its first plies, in the PGN-style text and in AP
// JSON.
func longRecord(t *testing.T, plies int) (pgn, apjson []byte) {
	t.Helper()
	recs, err := record.ReadAll(readTestdata(t, "long.pgn"))
	if err != nil || len(recs) != 1 || len(recs[0].Moves) != 10000 {
		t.Fatalf("long.pgn: %d games, %v", len(recs), err)
	}
	rec := recs[0]
	rec.Moves = rec.Moves[:plies]
	var b bytes.Buffer
	if err := record.WritePGN(&b, rec); err != nil {
		t.Fatal(err)
	}
	j, err := record.WriteAPJSON(rec)
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), j
}

// TestReadMaxPlies: a game over the limit is refused with its length and
// the limit, in both formats; one at the limit is read.
func TestReadMaxPlies(t *testing.T) {
	long, longJSON := longRecord(t, 10000)
	limit, limitJSON := longRecord(t, 1000)
	opts := record.ReadOptions{Lenient: true, MaxPlies: 1000}
	for _, c := range []struct {
		name  string
		in    []byte
		plies int // the game's, 0 if it is read
	}{
		{"10,000 plies", long, 10000},
		{"10,000 plies in AP JSON", longJSON, 10000},
		{"10,000 plies in UTF-16", encodeUTF16(string(long), binary.LittleEndian), 10000},
		{"1,001 plies", must(longRecord(t, 1001)), 1001},
		{"1,000 plies", limit, 0},
		{"1,000 plies in AP JSON", limitJSON, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			recs, err := opts.ReadAll(c.in)
			var tl *record.TooLongError
			switch {
			case c.plies == 0 && (err != nil || len(recs) != 1 || len(recs[0].Moves) != 1000):
				t.Errorf("%d games, %v; want the game of 1,000 plies", len(recs), err)
			case c.plies > 0 && !errors.As(err, &tl):
				t.Errorf("%d games, %v; want a *TooLongError", len(recs), err)
			case c.plies > 0 && (tl.Plies != c.plies || tl.Max != 1000):
				t.Errorf("error %v: %d plies over %d, want %d over 1000", err, tl.Plies, tl.Max, c.plies)
			}
		})
	}
	// Without a limit the game is read whole.
	if recs, err := (record.ReadOptions{}).ReadAll(long); err != nil || len(recs[0].Moves) != 10000 {
		t.Errorf("without a limit: %v", err)
	}
}

func must(b, _ []byte) []byte { return b }

// TestReadMaxGames: with MaxGames the rest of a file is left unread, its
// errors too.
func TestReadMaxGames(t *testing.T) {
	opts := record.ReadOptions{MaxGames: 1}
	for _, c := range []struct{ name, in string }{
		{"PGN", "1. d6 c1 *\n\n1. d6 *\n\n1. e5 *"},
		{"AP JSON array", "[" + string(readTestdata(t, "s1.apjson")) + "," + string(apRecordJSON("1", "0", `[["e5"]]`)) + "]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			recs, err := opts.ReadAll([]byte(c.in))
			if err != nil || len(recs) != 1 {
				t.Errorf("%d games, %v; want the first alone", len(recs), err)
			}
		})
	}
}

// TestReadHostileFiles reads files of a MiB made to cost a reader much
// more than their size, as the site reads an upload: with a limit of
// plies and the first game alone. Each must cost a small multiple of its
// size. (Before the limits, the file of many games took 2 GB, and the
// comments, joined one by one, 235 GB and a minute.)
func TestReadHostileFiles(t *testing.T) {
	const mib = 1 << 20
	var tags strings.Builder
	for i := 0; tags.Len() < mib-16; i++ {
		tags.WriteString("[T" + strings.Repeat("x", i%8) + itoa(i) + " \"\"]\n")
	}
	long, _ := longRecord(t, 10000)
	for _, c := range []struct {
		name string
		in   []byte
	}{
		{"many comments after a move", []byte("1. d6 " + strings.Repeat("{a}", mib/3-4) + " *")},
		{"many comments before the moves", []byte(strings.Repeat("{a}", mib/3-2) + " *")},
		{"many tags", []byte(tags.String() + "*")},
		{"many games", []byte(strings.Repeat("*\n", mib/2))},
		{"many games in UTF-16", encodeUTF16(strings.Repeat("*\n", mib/4-1), binary.BigEndian)},
		{"many empty rounds", apRecordJSON("", "", "["+strings.Repeat("[],", mib/3-100)+"[]]")},
		{"many records in an array", []byte("[" + strings.Repeat("{},", mib/3-1) + "{}]")},
		{"a long game", bytes.Repeat(long, mib/len(long))},
	} {
		t.Run(c.name, func(t *testing.T) {
			if len(c.in) > mib {
				t.Fatalf("%d bytes, over a MiB", len(c.in))
			}
			opts := record.ReadOptions{Lenient: true, MaxPlies: 1000, MaxGames: 1}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			opts.ReadAll(c.in)
			runtime.ReadMemStats(&after)
			if n := after.TotalAlloc - before.TotalAlloc; n > 64*mib {
				t.Errorf("reading %d bytes allocated %d MiB", len(c.in), n/mib)
			}
		})
	}
}

// itoa writes i in letters, for tag names.
func itoa(i int) string {
	s := ""
	for {
		s = string(rune('a'+i%26)) + s
		if i /= 26; i == 0 {
			return s
		}
	}
}
