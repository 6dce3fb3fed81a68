package record_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"emergo/notation"
	"emergo/record"
	"emergo/rules"
)

// A full PGN-style game whose every tag Abstract Play JSON can hold, and
// one with a tag and comments it cannot.
const (
	convertFull = `[Event "Winter Open"]
[Site "Abstract Play"]
[Date "2026.01.02"]
[Round "3"]
[White "alice"]
[Black "EmergoBot"]
[Result "0-1"]
[Size "9"]
[Termination "resignation"]
[StartTime "2026-01-02T10:00:00Z"]
[EndTime "2026-01-05T18:30:00.250Z"]
[GameID "4f1c2a90"]
[WhiteUserID "u-1234"]
[BlackUserID "u-9876"]
[WhiteType "human"]
[BlackType "program"]

1. d6 c1 2. b4 b2 0-1
`
	convertDay = `[Event "Club night"]
[Date "2026.03.04"]
[White "carol"]
[Black "dave"]
[Annotator "erin"]

{Both enter.} 1. d6 c1 {Far apart.} 2. b4 *
`
)

// TestConvertRoundTrip: PGN -> AP JSON -> PGN keeps every tag that AP
// JSON can hold and invents none (no StartTime for a game that has only a
// day), and what it cannot hold is named. AP JSON -> PGN -> AP JSON gives
// the same JSON back.
func TestConvertRoundTrip(t *testing.T) {
	for _, c := range []struct {
		name string
		pgn  string
		lost []string // the tags and comments the JSON has no place for
	}{
		{"every tag", convertFull, nil},
		{"a day, a tag and comments", convertDay, []string{"Annotator", "comments"}},
		{"known games", string(readTestdata(t, "known.pgn")), []string{"Date", "comments"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, err := record.ReadAll([]byte(c.pgn))
			if err != nil {
				t.Fatal(err)
			}
			js, warnings, err := record.ReadOptions{}.Convert([]byte(c.pgn), record.APJSON)
			if err != nil {
				t.Fatal(err)
			}
			var lost []string
			for _, w := range warnings {
				var le *record.LossError
				if errors.As(w, &le) {
					for _, tg := range le.Tags {
						lost = append(lost, tg.Key)
					}
					if le.Comments {
						lost = append(lost, "comments")
					}
				}
			}
			if !sameSet(lost, c.lost) {
				t.Errorf("lost %q, want %q (warnings %v)", lost, c.lost, warnings)
			}
			pgn, warnings, err := record.ReadOptions{}.Convert(js, record.PGN)
			if err != nil || len(warnings) > 0 {
				t.Fatalf("JSON -> PGN: %v, warnings %v", err, warnings)
			}
			back, err := record.ReadAll(pgn)
			if err != nil || len(back) != len(src) {
				t.Fatalf("read back %d games, %v; want %d", len(back), err, len(src))
			}
			for i := range src {
				for _, tg := range src[i].Tags {
					if got := back[i].Tag(tg.Key); got != tg.Value && !contains(c.lost, tg.Key) {
						t.Errorf("game %d: tag %s %q, want %q", i+1, tg.Key, got, tg.Value)
					}
				}
				for _, tg := range back[i].Tags {
					if _, ok := tagOf(src[i], tg.Key); !ok && tg.Key != "Termination" {
						t.Errorf("game %d: tag %s %q invented\n%s", i+1, tg.Key, tg.Value, pgn)
					}
				}
				if !reflect.DeepEqual(back[i].Moves, src[i].Moves) || back[i].Result != src[i].Result || back[i].Start != src[i].Start {
					t.Errorf("game %d: the game changed", i+1)
				}
			}
			again, _, err := record.ReadOptions{}.Convert(pgn, record.APJSON)
			if err != nil {
				t.Fatal(err)
			}
			if string(again) != string(js) {
				t.Errorf("AP JSON -> PGN -> AP JSON changed the JSON:\n%s\nwant\n%s", again, js)
			}
		})
	}
}

// TestConvertAPJSON: Abstract Play's records, one or an array, convert to
// PGN and back to the same games with every tag.
func TestConvertAPJSON(t *testing.T) {
	for _, name := range []string{"s1.apjson", "ap-array.json"} {
		t.Run(name, func(t *testing.T) {
			data := readTestdata(t, name)
			src, err := record.ReadAll(data)
			if err != nil {
				t.Fatal(err)
			}
			pgn, _, err := record.ReadOptions{}.Convert(data, record.PGN)
			if err != nil {
				t.Fatal(err)
			}
			js, warnings, err := record.ReadOptions{}.Convert(pgn, record.APJSON)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range warnings {
				var le *record.LossError
				if errors.As(w, &le) {
					t.Errorf("a record of Abstract Play loses %v", w)
				}
			}
			back, err := record.ReadAll(js)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, src) {
				t.Errorf("AP JSON -> PGN -> AP JSON changed the games:\n%+v\nwant\n%+v", back, src)
			}
		})
	}
}

// TestReadMindSports: a move list in MindSports notation, numbered or
// not, reads as the game it is, on 9x9 or 7x7; a text of moves that is a
// PGN-style game stays one.
func TestReadMindSports(t *testing.T) {
	games, err := record.ReadAll(readTestdata(t, "known.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	nine := games[0] // White wins on the board
	seven := sevenGame(t)
	list := func(rec record.Record, numbered bool, sep, result string) string {
		var b strings.Builder
		g := rec.Start.Geometry()
		for i, m := range rec.Moves {
			if i > 0 {
				b.WriteString(sep)
			}
			if numbered && i%2 == 0 {
				fmt.Fprintf(&b, "%d. ", i/2+1)
			}
			b.WriteString(notation.MindSportsMove(g, m))
		}
		if result != "" {
			b.WriteString(" " + result)
		}
		return b.String()
	}
	for _, c := range []struct {
		name string
		text string
		want record.Record
	}{
		{"numbered", list(nine, true, " ", ""), nine},
		{"unnumbered, commas", list(nine, false, ", ", ""), nine},
		{"7x7", list(seven, true, " ", ""), seven},
	} {
		t.Run(c.name, func(t *testing.T) {
			recs, err := record.ReadAll([]byte(c.text))
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 1 {
				t.Fatalf("%d games", len(recs))
			}
			got := recs[0]
			if !reflect.DeepEqual(got.Moves, c.want.Moves) || got.Start != c.want.Start || got.Result != c.want.Result {
				t.Errorf("read %d plies on %dx%d, %s; want %d plies on %dx%d, %s",
					len(got.Moves), got.Start.Geometry().N, got.Start.Geometry().N, got.Result,
					len(c.want.Moves), c.want.Start.Geometry().N, c.want.Start.Geometry().N, c.want.Result)
			}
		})
	}
	// Captures with "x" and a trailing "x", as MindSports allows, and a
	// result, which only ReadMindSports takes: with one, ReadAll reads
	// the PGN-style text.
	rec, err := record.ReadOptions{}.ReadMindSports([]byte(strings.ReplaceAll(list(nine, true, " ", ""), "-", "x") + "x 1-0"))
	if err != nil || !reflect.DeepEqual(rec.Moves, nine.Moves) || rec.Result != rules.WhiteWins {
		t.Errorf("captures with x, and a result: %v", err)
	}
	// The bound on plies holds for lists as for the other formats.
	var tooLong *record.TooLongError
	if _, err := (record.ReadOptions{MaxPlies: 10}).ReadAll([]byte(list(nine, true, " ", ""))); !errors.As(err, &tooLong) || tooLong.Plies != len(nine.Moves) || tooLong.Max != 10 {
		t.Errorf("a list over MaxPlies: %v", err)
	}
	if _, err := record.ReadAll([]byte("1. e6 *")); err == nil || !strings.Contains(err.Error(), "e6 is not a playable square") {
		t.Errorf("moves with a result: %v, want the PGN-style text's error", err)
	}
	// An illegal move names itself in both notations.
	_, err = record.ReadAll([]byte("1. e4 e4"))
	if err == nil || !strings.Contains(err.Error(), `move 1... MindSports "e4" is "d4": d4 is occupied`) {
		t.Errorf("illegal move: %v", err)
	}
}

// sevenGame returns a short 7x7 game: a few entries.
func sevenGame(t *testing.T) record.Record {
	t.Helper()
	gm := rules.NewGame(rules.Geometry7)
	for _, text := range []string{"a1", "g7", "c1", "e7"} {
		p := gm.Position()
		m, err := notation.ParseMove(&p, text)
		if err != nil {
			t.Fatal(err)
		}
		if err := gm.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return record.FromGame(gm)
}

func sameSet(a, b []string) bool {
	for _, x := range a {
		if !contains(b, x) {
			return false
		}
	}
	for _, x := range b {
		if !contains(a, x) {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func tagOf(rec record.Record, key string) (string, bool) {
	for _, tg := range rec.Tags {
		if tg.Key == key {
			return tg.Value, true
		}
	}
	return "", false
}
