package record_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"emergo/game"
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
		checkAPSchema(t, b)
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
		checkAPSchema(t, b)
		back, err := record.ReadAPJSON(b)
		if err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		if back.Start != rec.Start || !reflect.DeepEqual(back.Moves, rec.Moves) || back.Result != rec.Result {
			t.Fatalf("game %d: %s", i, diff(back, rec))
		}
		for _, k := range []string{"White", "Black", "Site", "Event", "Round"} {
			want := rec.Tag(k)
			if want == "" {
				want = "?" // an empty name is unknown
			}
			if back.Tag(k) != want {
				t.Errorf("game %d: tag %s %q, want %q", i, k, back.Tag(k), want)
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
			"record: alice-bob: the result 1-0 contradicts the board: 1/2-1/2 (no legal move); a lenient read keeps the record as played"},
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
		checkAPSchema(t, b)
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

// apGame is a legal 9x9 game from the empty board, used by the tests of
// the server's endings: 40 moves, the last 8 of which repeat a position
// for the third time.
var apGame = strings.Fields(`a9 i9 a3 g3 a1 e1 i5 f6 c9 i7 b2 c7 b8 e9 b8xd6 h8 c3 e3 c1 f2
	i1 g7 c7 a5 a7 a5-b6 a7xc5 h8-g9 c9-b8 g7-f8 d6-e5 f6xd4xb6xd8
	b8-c9 d8-e7 c9-b8 e7-d8 b8-c9 d8-e7 c9-b8 e7-d8`)

// apRecordJSON returns an Abstract Play record of alice and bob with the
// given players' results (JSON numbers, or "" for none) and rounds.
func apRecordJSON(white, black, rounds string) []byte {
	result := func(r string) string {
		if r == "" {
			return ""
		}
		return `, "result": ` + r
	}
	return []byte(`{"header": {"game": {"name": "Emergo", "variants": []}, "site": {"name": "Abstract Play"},
		"date-start": "2026-02-01T09:00:00Z", "date-end": "2026-02-02T09:00:00Z", "date-generated": "2026-02-02T09:00:00Z",
		"players": [{"name": "alice"` + result(white) + `}, {"name": "bob"` + result(black) + `}]},
		"moves": ` + rounds + `}`)
}

// apRounds writes the first n moves of apGame as rounds, then the extra
// entries (JSON values) in the seats that follow.
func apRounds(n int, extra ...string) string {
	var entries []string
	for _, m := range apGame[:n] {
		entries = append(entries, `"`+m+`"`)
	}
	entries = append(entries, extra...)
	var rounds []string
	for i := 0; i < len(entries); i += 2 {
		rounds = append(rounds, "["+strings.Join(entries[i:min(i+2, len(entries))], ", ")+"]")
	}
	return "[" + strings.Join(rounds, ", ") + "]"
}

// TestReadAPJSONEndings reads the endings off the board: "resign",
// "timeout" and "draw", alone in their round or after the other player's
// move, with and without the players' results.
func TestReadAPJSONEndings(t *testing.T) {
	for _, c := range []struct {
		name         string
		white, black string // the players' results
		rounds       string
		moves        int
		result       rules.Result
		termination  game.Termination
	}{
		{"White resigns", "0", "1", apRounds(10, `"resign"`), 10, rules.BlackWins, game.Resignation},
		{"Black resigns", "1", "0", apRounds(11, `"resign"`), 11, rules.WhiteWins, game.Resignation},
		{"Black times out", "1", "0", apRounds(31, `"timeout"`), 31, rules.WhiteWins, game.TimeForfeit},
		{"White times out", "0", "1", apRounds(30, `"timeout"`), 30, rules.BlackWins, game.TimeForfeit},
		{"agreement", "1", "1", apRounds(30, `"draw"`), 30, rules.Draw, game.Agreement},
		{"agreement after White's move", "0", "0", apRounds(31, `"draw"`), 31, rules.Draw, game.Agreement},
		{"an object entry", "0", "1", apRounds(10, `{"move": "resign", "result": [{"type": "resigned", "player": 1}]}`), 10, rules.BlackWins, game.Resignation},
		{"nulls after the ending", "1", "0", apRounds(11, `"resign"`, "null"), 11, rules.WhiteWins, game.Resignation},
		// The server lets a player resign on the opponent's turn and writes
		// the entry in the seat of the player to move: the results decide.
		{"resigns on the opponent's turn", "1", "0", apRounds(10, `"resign"`), 10, rules.WhiteWins, game.Resignation},
		// Without results, the player whose entry it is resigned.
		{"no results, White's entry", "", "", apRounds(10, `"resign"`), 10, rules.BlackWins, game.Resignation},
		{"no results, Black's entry", "", "", apRounds(31, `"timeout"`), 31, rules.WhiteWins, game.TimeForfeit},
		{"no results, draw", "", "", apRounds(4, `"draw"`), 4, rules.Draw, game.Agreement},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec, err := record.ReadAPJSON(apRecordJSON(c.white, c.black, c.rounds))
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Moves) != c.moves || rec.Result != c.result || rec.Tag("Termination") != c.termination.String() {
				t.Errorf("%d moves, %s, %q; want %d moves, %s, %q", len(rec.Moves), rec.Result, rec.Tag("Termination"), c.moves, c.result, c.termination)
			}
		})
	}
}

func TestReadAPJSONEndingErrors(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
	}{
		{"move after resign", string(apRecordJSON("0", "1", apRounds(0, `"resign"`, `"d6"`))),
			`record: alice-bob: move 1... "d6": an entry after "resign", which ends the game`},
		{"resign with equal results", string(apRecordJSON("1", "1", apRounds(2, `"resign"`))),
			`record: alice-bob: the record ends with "resign", but the players' results are equal (a draw)`},
		{"draw with a winner", string(apRecordJSON("1", "0", apRounds(2, `"draw"`))),
			`record: alice-bob: the record ends with "draw" (agreement), but the players' results give 1-0`},
		{"unfinished with an ending", strings.Replace(string(apRecordJSON("0", "0", apRounds(2, `"timeout"`))), `"site"`, `"unfinished": true, "site"`, 1),
			`record: alice-bob: the record is marked unfinished but ends with "timeout"`},
		{"ending after the board's end", string(apRecordJSON("1", "1", `[["d6", "c1"], ["b4", "b2"], ["f4", "g9"], ["i1", "f8"], ["c9", "a1"], ["f6", "a7"], ["i9", "g1"], ["c5", "i7"], ["i5", "a3"], ["e1", "i3"], ["a5", "e9"], ["a9", "draw"]]`)),
			`record: alice-bob: move 12... "draw": the game is over (1/2-1/2, no legal move); a lenient read keeps the record as played`},
		{"ending in White's first entry, Black to move", strings.Replace(string(apRecordJSON("0", "1", `[["resign"]]`)), `"site"`, `"startingPosition": "9x9 b 0/2 a1:W9 g7:W1 h8:B10w2", "site"`, 1),
			`record: alice-bob: move 1 "resign": Black is to move in the starting position, so White's first entry must be null`},
		{"other entry", string(apRecordJSON("0", "0", apRounds(2, `"abandoned"`))), `record: alice-bob: move 2 "abandoned": the server ended this game as abandoned, which has no result here (RULES 6.4: resignation, time forfeit, agreement or adjudication)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := record.ReadAPJSON([]byte(c.in))
			if err == nil || err.Error() != c.want && !(strings.HasSuffix(c.want, ": ") && strings.HasPrefix(err.Error(), c.want)) {
				t.Errorf("error\n%v\nwant\n%s", err, c.want)
			}
		})
	}
}

// endedRecord returns the first n moves of apGame between alice and bob,
// ended off the board with the result and Termination given.
func endedRecord(t *testing.T, n int, res rules.Result, term game.Termination) record.Record {
	rec := record.FromGame(play(t, rules.NewPosition(rules.Geometry9), strings.Join(apGame[:n], " ")))
	rec.SetTag("White", "alice")
	rec.SetTag("Black", "bob")
	rec.SetTag("StartTime", "2026-02-01T09:00:00Z")
	rec.SetTag("EndTime", "2026-02-02T09:00:00Z")
	rec.SetEnding(game.Ending{Result: res, Termination: term})
	return rec
}

// TestWriteAPJSONEndings writes the endings off the board as the server
// does, in the seat of the player to move, and only where they fit.
func TestWriteAPJSONEndings(t *testing.T) {
	for _, c := range []struct {
		name     string
		rec      record.Record
		lastLine string // the last round written
	}{
		{"White resigns", endedRecord(t, 10, rules.BlackWins, game.Resignation), `["resign"]`},
		{"Black resigns", endedRecord(t, 11, rules.WhiteWins, game.Resignation), `["b2", "resign"]`},
		{"Black resigns on White's turn", endedRecord(t, 10, rules.WhiteWins, game.Resignation), `["resign"]`},
		{"White's time runs out", endedRecord(t, 30, rules.BlackWins, game.TimeForfeit), `["timeout"]`},
		{"Black's time runs out", endedRecord(t, 31, rules.WhiteWins, game.TimeForfeit), `["d6-e5", "timeout"]`},
		{"agreement", endedRecord(t, 31, rules.Draw, game.Agreement), `["d6-e5", "draw"]`},
		{"adjudication has no entry", endedRecord(t, 31, rules.WhiteWins, game.Adjudication), `["d6-e5"]`},
		{"resignation with a draw does not fit", endedRecord(t, 31, rules.Draw, game.Resignation), `["d6-e5"]`},
		{"agreement with a winner does not fit", endedRecord(t, 31, rules.WhiteWins, game.Agreement), `["d6-e5"]`},
		{"no ending in a game not over", endedRecord(t, 31, rules.Ongoing, game.Resignation), `["d6-e5"]`},
		{"no ending after the board's end", endedRecord(t, 40, rules.Draw, game.Agreement), `["c9-b8", "e7-d8"]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := record.WriteAPJSON(c.rec)
			if err != nil {
				t.Fatal(err)
			}
			checkAPSchema(t, b)
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			if got := strings.TrimSpace(lines[len(lines)-3]); got != c.lastLine {
				t.Errorf("last round %s, want %s\n%s", got, c.lastLine, b)
			}
			back, err := record.ReadAPJSON(b)
			if err != nil {
				t.Fatalf("%v\n%s", err, b)
			}
			if back.Start != c.rec.Start || !reflect.DeepEqual(back.Moves, c.rec.Moves) || back.Result != c.rec.Result {
				t.Errorf("does not come back: %s", diff(back, c.rec))
			}
			if strings.Contains(c.lastLine, `"`+map[string]string{game.Resignation.String(): "resign", game.TimeForfeit.String(): "timeout", game.Agreement.String(): "draw"}[c.rec.Tag("Termination")]+`"`) &&
				back.Tag("Termination") != c.rec.Tag("Termination") {
				t.Errorf("Termination %q, want %q", back.Tag("Termination"), c.rec.Tag("Termination"))
			}
		})
	}
}

// TestAPJSONPlayerNames: the schema wants the players to differ, so equal
// and unknown names are written with their seats and read back without.
func TestAPJSONPlayerNames(t *testing.T) {
	for _, c := range []struct {
		name                       string
		white, black               string // the tags
		writtenWhite, writtenBlack string
		readWhite, readBlack       string
	}{
		{"different", "alice", "bob", "alice", "bob", "alice", "bob"},
		{"both unknown", "?", "?", "? (White)", "? (Black)", "?", "?"},
		{"empty is unknown", "", "?", "? (White)", "? (Black)", "?", "?"},
		{"one unknown", "alice", "?", "alice", "?", "alice", "?"},
		{"equal", "alice", "alice", "alice (White)", "alice (Black)", "alice", "alice"},
		{"seats already in distinct names", "x (White)", "x (Black)", "x (White)", "x (Black)", "x", "x"},
	} {
		t.Run(c.name, func(t *testing.T) {
			// A draw: the results are equal, so only the names can differ.
			rec := endedRecord(t, 4, rules.Draw, game.Agreement)
			rec.SetTag("White", c.white)
			rec.SetTag("Black", c.black)
			b, err := record.WriteAPJSON(rec)
			if err != nil {
				t.Fatal(err)
			}
			checkAPSchema(t, b)
			var ap struct {
				Header struct{ Players []struct{ Name string } }
			}
			if err := json.Unmarshal(b, &ap); err != nil {
				t.Fatal(err)
			}
			if p := ap.Header.Players; p[0].Name != c.writtenWhite || p[1].Name != c.writtenBlack {
				t.Errorf("written %q and %q, want %q and %q", p[0].Name, p[1].Name, c.writtenWhite, c.writtenBlack)
			}
			back, err := record.ReadAPJSON(b)
			if err != nil {
				t.Fatal(err)
			}
			if back.Tag("White") != c.readWhite || back.Tag("Black") != c.readBlack {
				t.Errorf("read back %q and %q, want %q and %q", back.Tag("White"), back.Tag("Black"), c.readWhite, c.readBlack)
			}
		})
	}
}

// TestAPJSONDates: the schema requires all three dates. What the record
// does not know is written as something the reader takes back as unknown.
func TestAPJSONDates(t *testing.T) {
	for _, c := range []struct {
		name       string
		tags       [][2]string
		start, end string   // written
		readTags   []string // Date, StartTime and EndTime read back ("" for none)
	}{
		{"start and end", [][2]string{{"StartTime", "2026-01-02T10:00:00+01:00"}, {"EndTime", "2026-01-03T11:00:00.5Z"}},
			"2026-01-02T10:00:00+01:00", "2026-01-03T11:00:00.5Z", []string{"2026.01.02", "2026-01-02T10:00:00+01:00", "2026-01-03T11:00:00.5Z"}},
		{"start only", [][2]string{{"StartTime", "2026-01-02T10:00:00Z"}},
			"2026-01-02T10:00:00Z", "2026-01-02T10:00:00Z", []string{"2026.01.02", "2026-01-02T10:00:00Z", ""}},
		{"day only", [][2]string{{"Date", "2026.01.02"}},
			"2026-01-02T00:00:00Z", "2026-01-02T00:00:00Z", []string{"2026.01.02", "", ""}},
		{"a start at midnight", [][2]string{{"StartTime", "2026-01-02T00:00:00Z"}},
			"2026-01-02T00:00:00.000Z", "2026-01-02T00:00:00.000Z", []string{"2026.01.02", "2026-01-02T00:00:00.000Z", ""}},
		{"Abstract Play's midnight", [][2]string{{"StartTime", "2026-01-02T00:00:00.000Z"}},
			"2026-01-02T00:00:00.000Z", "2026-01-02T00:00:00.000Z", []string{"2026.01.02", "2026-01-02T00:00:00.000Z", ""}},
		{"part of the day", [][2]string{{"Date", "1986.??.??"}},
			"1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z", []string{"????.??.??", "", ""}},
		{"nothing", nil,
			"1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z", []string{"????.??.??", "", ""}},
		{"end only", [][2]string{{"EndTime", "2026-01-03T11:00:00Z"}},
			"1970-01-01T00:00:00Z", "2026-01-03T11:00:00Z", []string{"????.??.??", "", "2026-01-03T11:00:00Z"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := endedRecord(t, 4, rules.Draw, game.Agreement)
			var tags []record.Tag
			for _, tg := range rec.Tags {
				if tg.Key != "StartTime" && tg.Key != "EndTime" {
					tags = append(tags, tg)
				}
			}
			rec.Tags = tags
			for _, kv := range c.tags {
				rec.SetTag(kv[0], kv[1])
			}
			b, err := record.WriteAPJSON(rec)
			if err != nil {
				t.Fatal(err)
			}
			checkAPSchema(t, b)
			var ap struct {
				Header struct {
					Start     string `json:"date-start"`
					End       string `json:"date-end"`
					Generated string `json:"date-generated"`
				}
			}
			if err := json.Unmarshal(b, &ap); err != nil {
				t.Fatal(err)
			}
			if h := ap.Header; h.Start != c.start || h.End != c.end || h.Generated != c.end {
				t.Errorf("dates %s, %s, %s; want %s, %s, %[5]s", h.Start, h.End, h.Generated, c.start, c.end)
			}
			back, err := record.ReadAPJSON(b)
			if err != nil {
				t.Fatal(err)
			}
			got := []string{back.Tag("Date"), back.Tag("StartTime"), back.Tag("EndTime")}
			if !reflect.DeepEqual(got, c.readTags) {
				t.Errorf("read back %q, want %q", got, c.readTags)
			}
		})
	}
}

func TestWriteAPJSONBadDate(t *testing.T) {
	rec := endedRecord(t, 4, rules.Draw, game.Agreement)
	rec.SetTag("EndTime", "2026-01-02T10:00:00,5Z")
	_, err := record.WriteAPJSON(rec)
	const want = `record: alice-bob: "2026-01-02T10:00:00,5Z" is not an RFC 3339 date-time`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// TestAPJSONUnfinished: a game not over is written with what the schema
// requires, and read back as not over.
func TestAPJSONUnfinished(t *testing.T) {
	rec := endedRecord(t, 5, rules.Ongoing, game.Unterminated)
	b, err := record.WriteAPJSON(rec)
	if err != nil {
		t.Fatal(err)
	}
	checkAPSchema(t, b)
	for _, want := range []string{`"unrated": true`, `"unfinished": true`, `"result": 0`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("no %s in\n%s", want, b)
		}
	}
	back, err := record.ReadAPJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	if back.Start != rec.Start || !reflect.DeepEqual(back.Moves, rec.Moves) || back.Result != rules.Ongoing || back.Tag("Termination") != game.Unterminated.String() {
		t.Errorf("does not come back: %s", diff(back, rec))
	}
}

func TestAPJSONWarnings(t *testing.T) {
	r7 := knownGames(t)[2]
	undated := endedRecord(t, 4, rules.WhiteWins, game.Resignation)
	undated.Tags = slices.DeleteFunc(undated.Tags, func(tg record.Tag) bool { return tg.Key == "StartTime" })
	for _, c := range []struct {
		name string
		rec  record.Record
		want []error
	}{
		{"9x9, finished, dated", endedRecord(t, 4, rules.WhiteWins, game.Resignation), nil},
		{"7x7", r7, []error{record.ErrAPNo7x7, record.ErrAPNoDate}},
		{"unfinished", endedRecord(t, 4, rules.Ongoing, game.Unterminated), []error{record.ErrAPUnfinished}},
		{"no start", undated, []error{record.ErrAPNoDate}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := record.APJSONWarnings(c.rec); !reflect.DeepEqual(got, c.want) {
				t.Errorf("warnings %v, want %v", got, c.want)
			}
			// The record is written all the same and reads back.
			b, err := record.WriteAPJSON(c.rec)
			if err != nil {
				t.Fatal(err)
			}
			checkAPSchema(t, b)
			back, err := record.ReadAPJSON(b)
			if err != nil {
				t.Fatal(err)
			}
			if back.Start != c.rec.Start || !reflect.DeepEqual(back.Moves, c.rec.Moves) || back.Result != c.rec.Result {
				t.Errorf("does not come back: %s", diff(back, c.rec))
			}
		})
	}
}
