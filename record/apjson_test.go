package record_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"emergo/record"
	"emergo/rules"
)

// TestReadAPJSONExample reads a hand-written Abstract Play record of S1:
// an object entry, a trailing null, an engine player, a draw as equal
// results, and header fields the package does not map.
func TestReadAPJSONExample(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "s1.apjson"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := record.ReadAPJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	want := record.FromGame(play(t, rules.NewPosition(rules.Geometry9), s1))
	if !reflect.DeepEqual(rec.Moves, want.Moves) || rec.Result != rules.Draw || rec.Start != want.Start {
		t.Errorf("%d moves, result %s; want %d moves, a draw", len(rec.Moves), rec.Result, len(want.Moves))
	}
	wantTags := []record.Tag{
		{"Event", "Winter Open"}, {"Site", "Abstract Play"}, {"Date", "2026.01.02"}, {"Round", "3"},
		{"White", "alice"}, {"Black", "EmergoBot"},
		{"StartTime", "2026-01-02T10:00:00Z"}, {"EndTime", "2026-01-05T18:30:00.250Z"},
		{"GameID", "4f1c2a90-0d2e-4b7a-9c61-3e0c5d8b7a11"},
		{"WhiteUserID", "u-1234"}, {"BlackUserID", "u-9876"}, {"BlackType", "program"},
		{"Termination", "no legal move"},
	}
	if !reflect.DeepEqual(rec.Tags, wantTags) {
		t.Errorf("tags\n%q\nwant\n%q", rec.Tags, wantTags)
	}
}

func TestWriteAPJSONGolden(t *testing.T) {
	recs := knownGames(t)
	var all []byte
	for i := range recs {
		recs[i].SetTag("StartTime", "2026-01-02T10:00:00Z")
		b, err := record.WriteAPJSON(recs[i])
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
		back, err := record.ReadAPJSON(b)
		if err != nil {
			t.Fatalf("game %d: %v\n%s", i+1, err, b)
		}
		if back.Start != recs[i].Start || !reflect.DeepEqual(back.Moves, recs[i].Moves) || back.Result != recs[i].Result {
			t.Errorf("game %d does not come back: %s", i+1, diff(back, recs[i]))
		}
	}
	golden(t, "known.apjson", all)
}

// TestPGNToAPJSONAndBack converts random games PGN -> AP JSON -> PGN; the
// moves, the start and the result survive, and so do the roster tags.
func TestPGNToAPJSONAndBack(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 100; i++ {
		rec := randomRecord(t, rng)
		var pgn bytes.Buffer
		if err := record.WritePGN(&pgn, rec); err != nil {
			t.Fatal(err)
		}
		recs, err := record.ReadPGN(&pgn)
		if err != nil {
			t.Fatal(err)
		}
		b, err := record.WriteAPJSON(recs[0])
		if err != nil {
			t.Fatal(err)
		}
		back, err := record.ReadAPJSON(b)
		if err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		if back.Start != rec.Start || !reflect.DeepEqual(back.Moves, rec.Moves) || back.Result != rec.Result {
			t.Fatalf("game %d: %s", i, diff(back, rec))
		}
		for _, k := range []string{"White", "Black", "Site", "Event", "Round"} {
			if back.Tag(k) != rec.Tag(k) {
				t.Errorf("game %d: tag %s %q, want %q", i, k, back.Tag(k), rec.Tag(k))
			}
		}
		if err := record.WritePGN(&pgn, back); err != nil {
			t.Fatal(err)
		}
	}
}

func TestReadAPJSONErrors(t *testing.T) {
	const players = `"players": [{"name": "alice", "result": 1}, {"name": "bob", "result": 0}]`
	rec := func(header, moves string) string {
		return `{"header": {"game": {"name": "Emergo"}, "site": {"name": "x"}, ` + header + `}, "moves": ` + moves + `}`
	}
	for _, c := range []struct {
		name, in, want string
	}{
		{"not JSON", `{"header": `, "record: not an Abstract Play game record: unexpected end of JSON input"},
		{"other game", strings.Replace(rec(players, `[]`), "Emergo", "Focus", 1), `record: alice-bob: the record is of the game "Focus", not Emergo`},
		{"three players", rec(`"players": [{"name": "a"}, {"name": "b"}, {"name": "c"}]`, `[]`), "record: the record has 3 players; Emergo has 2"},
		{"variant", strings.Replace(rec(players, `[]`), `"Emergo"`, `"Emergo", "variants": ["11x11"]`, 1), `record: alice-bob: unknown variant "11x11" (only "7x7" is known)`},
		{"bad date", rec(players+`, "date-start": "yesterday"`, `[]`), `record: alice-bob: date-start "yesterday" is not an RFC 3339 date-time`},
		{"illegal move", rec(players, `[["d6", "c1"], ["b4", "d6"]]`), `record: alice-bob: move 2... "d6": d6 is occupied`},
		{"bad entry", rec(players, `[["d6", 7]]`), `record: alice-bob: move 1... entry 7 is neither a move string, null nor an object`},
		{"object without move", rec(players, `[[{"result": "x"}]]`), `record: alice-bob: move 1 an object entry needs a "move" string`},
		{"move after null", rec(players, `[["d6", null], ["b4"]]`), `record: alice-bob: move 2 "b4": a move after a null entry: in Emergo the players take turns, so a missing move can only end the record`},
		{"long round", rec(players, `[["d6", "c1", "b4"]]`), "record: alice-bob: round 1 has 3 entries; Emergo has 2 players"},
		{"one result", rec(`"players": [{"name": "alice", "result": 1}, {"name": "bob"}]`, `[]`), "record: alice-bob: only one player has a result"},
		{"result against the board", rec(players, `[["d6", "c1"], ["b4", "b2"], ["f4", "g9"], ["i1", "f8"], ["c9", "a1"], ["f6", "a7"], ["i9", "g1"], ["c5", "i7"], ["i5", "a3"], ["e1", "i3"], ["a5", "e9"], ["a9"]]`),
			"record: alice-bob: the result 1-0 contradicts the board: 1/2-1/2 (no legal move)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := record.ReadAPJSON([]byte(c.in))
			if err == nil || err.Error() != c.want {
				t.Errorf("error\n%v\nwant\n%s", err, c.want)
			}
		})
	}
}

func TestAPJSONSetUpBlackToMove(t *testing.T) {
	rec := record.FromGame(play(t, mustPosition(t, "9x9 b 0/2 a1:W9 g7:W1 h8:B10w2"), "1... h8xf6 2. a1-b2"))
	b, err := record.WriteAPJSON(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`[null, "h8xf6"]`)) || !bytes.Contains(b, []byte(`"startingPosition": "9x9 b 0/2 a1:W9 g7:W1 h8:B10w2"`)) {
		t.Errorf("unexpected record:\n%s", b)
	}
	back, err := record.ReadAPJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	if d := diff(back, rec); d != "" {
		t.Error(d)
	}
}

func FuzzReadAPJSON(f *testing.F) {
	for _, name := range []string{"s1.apjson", "known.apjson"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		// known.apjson holds several records one after the other; the
		// first is enough as a seed.
		if i := bytes.Index(data, []byte("\n}\n")); i >= 0 {
			data = data[:i+3]
		}
		f.Add(data)
	}
	f.Add([]byte(`{"header": {"game": {"name": "emergo", "variants": ["7x7"]}, "site": {"gameid": 12}, "players": [{"name": "a", "is_ai": false}, {"name": ""}], "event": "e"}, "moves": [["a1", "g7"], [], [null]]}`))
	f.Add([]byte(`{"header": {"game": {"name": "Emergo"}, "startingPosition": "9x9 b 0/2 a1:W9 g7:W1 h8:B10w2", "players": [{"name": "a", "result": 0}, {"name": "b", "result": 0}]}, "moves": [[null, "h8xf6"]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := record.ReadAPJSON(data)
		if err != nil {
			return
		}
		b, err := record.WriteAPJSON(rec)
		if err != nil {
			t.Fatalf("a record read cannot be written: %v", err)
		}
		back, err := record.ReadAPJSON(b)
		if err != nil {
			t.Fatalf("a written record cannot be read: %v\n%s", err, b)
		}
		if d := diff(back, rec); d != "" {
			t.Fatalf("%s\n%s", d, b)
		}
		// Every record read from AP JSON can also be written as text.
		if err := record.WritePGN(&bytes.Buffer{}, rec); err != nil {
			t.Fatal(err)
		}
	})
}
