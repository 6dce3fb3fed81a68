package record_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"

	"emergo/game"
	"emergo/record"
	"emergo/rules"
)

// TestReadAllFormats: the content decides the format.
func TestReadAllFormats(t *testing.T) {
	for _, c := range []struct {
		name  string
		in    string
		games int
		want  string // the error, or ""
	}{
		{"PGN with tags", string(readTestdata(t, "known.pgn")), 3, ""},
		{"PGN that starts with a comment", "{a comment} 1. d6 c1 *", 1, ""},
		{"PGN that starts with a comment in braces and quotes", `{} {"quoted"} 1. d6 *`, 1, ""},
		{"PGN without tags", "1. d6 *", 1, ""},
		{"an Abstract Play record", string(readTestdata(t, "s1.apjson")), 1, ""},
		{"an array of records", string(readTestdata(t, "ap-array.json")), 3, ""},
		{"an array after white space", " \r\n\t" + string(readTestdata(t, "ap-array.json")), 3, ""},
		{"an empty array", "[ ]", 0, ""},
		{"an empty file", "", 0, ""},
		{"broken JSON object", `{"header": {`, 0, "record: not an Abstract Play game record: unexpected end of JSON input"},
		{"broken JSON array", `[{"header": {}}, `, 0, "record: not an array of Abstract Play game records: unexpected end of JSON input"},
		{"array of other things", `[1]`, 0, "record: game 1: not an Abstract Play game record: json: cannot unmarshal number into Go value of type record.apRecord"},
		{"bad record in an array", "[" + string(apRecordJSON("1", "0", `[["e5"]]`)) + "]", 0,
			`record: game 1 (alice-bob): move 1 "e5": the first move may not be on the centre e5 (RULES 4.3)`},
		{"bad second record", "[" + string(readTestdata(t, "s1.apjson")) + "," + string(apRecordJSON("1", "0", `[["e5"]]`)) + "]", 1,
			`record: game 2 (alice-bob): move 1 "e5": the first move may not be on the centre e5 (RULES 4.3)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			recs, err := record.ReadAll([]byte(c.in))
			if got := errText(err); got != c.want {
				t.Errorf("error\n%s\nwant\n%s", got, c.want)
			}
			if len(recs) != c.games {
				t.Errorf("%d games, want %d", len(recs), c.games)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// encodeUTF16 returns s as UTF-16 with its byte-order mark.
func encodeUTF16(s string, order binary.AppendByteOrder) []byte {
	b := order.AppendUint16(nil, 0xfeff)
	for _, u := range utf16.Encode([]rune(s)) {
		b = order.AppendUint16(b, u)
	}
	return b
}

// TestReadAllEncodings reads the same records with a UTF-8 byte-order
// mark, and in UTF-16 of both byte orders.
func TestReadAllEncodings(t *testing.T) {
	// Names beyond ASCII, one beyond the Basic Multilingual Plane (a
	// surrogate pair in UTF-16).
	pgn := strings.Replace(string(readTestdata(t, "known.pgn")), `[White "White"]`, `[White "Ørjan 𝄞"]`, 1)
	for _, file := range []struct{ name, text string }{
		{"known.pgn", pgn},
		{"s1.apjson", strings.Replace(string(readTestdata(t, "s1.apjson")), `"alice"`, `"Ørjan 𝄞"`, 1)},
		{"ap-array.json", string(readTestdata(t, "ap-array.json"))},
	} {
		want, err := record.ReadAll([]byte(file.text))
		if err != nil {
			t.Fatal(err)
		}
		for _, enc := range []struct {
			name string
			data []byte
		}{
			{"UTF-8 with BOM", append([]byte{0xef, 0xbb, 0xbf}, file.text...)},
			{"UTF-16 LE", encodeUTF16(file.text, binary.LittleEndian)},
			{"UTF-16 BE", encodeUTF16(file.text, binary.BigEndian)},
			{"CRLF UTF-16 LE", encodeUTF16(strings.ReplaceAll(file.text, "\n", "\r\n"), binary.LittleEndian)},
		} {
			t.Run(file.name+" "+enc.name, func(t *testing.T) {
				got, err := record.ReadAll(enc.data)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("read %d games, want %d equal to the UTF-8 ones", len(got), len(want))
				}
				// The other readers take the same bytes.
				if strings.HasSuffix(file.name, ".pgn") {
					got, err = record.ReadPGN(bytes.NewReader(enc.data))
				} else if file.name == "s1.apjson" {
					var rec record.Record
					rec, err = record.ReadAPJSON(enc.data)
					got = []record.Record{rec}
				}
				if err != nil || !reflect.DeepEqual(got, want) {
					t.Errorf("the format's own reader: %v", err)
				}
			})
		}
	}
}

func TestReadAllBadUTF16(t *testing.T) {
	odd := append(encodeUTF16("1. d6 *", binary.LittleEndian), 'x')
	if _, err := record.ReadAll(odd); err == nil || err.Error() != "record: the UTF-16 text ends in the middle of a character (an odd number of bytes)" {
		t.Errorf("odd length: %v", err)
	}
	if _, err := record.ReadPGN(bytes.NewReader(odd)); err == nil || !strings.Contains(err.Error(), "odd number of bytes") {
		t.Errorf("odd length, ReadPGN: %v", err)
	}
	// An unpaired surrogate is U+FFFD, as in unicode/utf16.
	b := encodeUTF16(`[White "`, binary.BigEndian)
	b = binary.BigEndian.AppendUint16(b, 0xd834)
	b = append(b, encodeUTF16("\"]\n\n1. d6 *", binary.BigEndian)[2:]...)
	recs, err := record.ReadAll(b)
	if err != nil {
		t.Fatal(err)
	}
	if got := recs[0].Tag("White"); got != "\ufffd" {
		t.Errorf("White %q, want U+FFFD", got)
	}
}

// errReader fails every read.
type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestDecoderReadError(t *testing.T) {
	d := record.NewDecoder(errReader{})
	for range 2 {
		var rec record.Record
		if err := d.Decode(&rec); err == nil || err.Error() != "disk on fire" {
			t.Errorf("error %v, want the reader's", err)
		}
	}
}

func TestFormatFor(t *testing.T) {
	for name, want := range map[string]record.Format{
		"game.pgn": record.PGN, "game.txt": record.PGN, "game": record.PGN,
		"game.json": record.APJSON, "GAME.JSON": record.APJSON, "dir.json/game.apjson": record.APJSON,
	} {
		if got := record.FormatFor(name); got != want {
			t.Errorf("FormatFor(%q) = %d, want %d", name, got, want)
		}
	}
}

// TestWrite writes records in both formats, one and several, and reads
// them back with ReadAll.
func TestWrite(t *testing.T) {
	recs := knownGames(t)
	for _, f := range []record.Format{record.PGN, record.APJSON} {
		for _, n := range []int{0, 1, 3} {
			var b bytes.Buffer
			if err := record.Write(&b, f, recs[:n]...); err != nil {
				t.Fatal(err)
			}
			if f == record.APJSON {
				if n == 1 {
					checkAPSchema(t, b.Bytes())
				} else {
					checkAPSchemaArray(t, b.Bytes(), n)
				}
			}
			back, err := record.ReadAll(b.Bytes())
			if err != nil {
				t.Fatalf("format %d, %d games: %v\n%s", f, n, err, b.Bytes())
			}
			if len(back) != n {
				t.Fatalf("format %d: %d games back, %d written", f, len(back), n)
			}
			for i := range back {
				if back[i].Start != recs[i].Start || !reflect.DeepEqual(back[i].Moves, recs[i].Moves) || back[i].Result != recs[i].Result {
					t.Errorf("format %d, game %d: %s", f, i+1, diff(back[i], recs[i]))
				}
			}
		}
	}
	bad := recs[0]
	bad.Moves, bad.Comments = append(bad.Moves[:3:3], bad.Moves[0]), nil
	err := record.Write(io.Discard, record.APJSON, recs[1], bad)
	if want := `record: game 2 (White-Black): move 2... "g1": g1 is occupied`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// checkAPSchemaArray checks an array of n records against the schema.
func checkAPSchemaArray(t testing.TB, data []byte, n int) {
	t.Helper()
	var arr []json.RawMessage
	if err := json.Unmarshal(data, &arr); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if len(arr) != n {
		t.Fatalf("%d records in the array, want %d", len(arr), n)
	}
	for _, raw := range arr {
		checkAPSchema(t, raw)
	}
}

// TestWrittenRecordsFitTheSchema writes records of every kind as AP JSON:
// each must fit Abstract Play's schema, and read back.
func TestWrittenRecordsFitTheSchema(t *testing.T) {
	known := knownGames(t)
	repetition, err := record.ReadOptions{Lenient: true}.ReadAll(readTestdata(t, "repetition.apjson"))
	if err != nil {
		t.Fatal(err)
	}
	s1Unknown := record.FromGame(play(t, rules.NewPosition(rules.Geometry9), s1))
	engine := endedRecord(t, 31, rules.BlackWins, game.Resignation)
	for _, kv := range [][2]string{{"WhiteType", "program"}, {"BlackType", "human"}, {"WhiteUserID", "u-1"}, {"BlackUserID", "u-2"}, {"GameID", "12345"}, {"Site", "emergo"}} {
		engine.SetTag(kv[0], kv[1])
	}
	eventOnly := endedRecord(t, 6, rules.WhiteWins, game.TimeForfeit)
	eventOnly.SetTag("Event", "Cup")
	equalNames := endedRecord(t, 6, rules.Draw, game.Agreement)
	equalNames.SetTag("Black", "alice")
	empty := record.FromGame(rules.NewGame(rules.Geometry9))
	for _, c := range []struct {
		name string
		rec  record.Record
	}{
		{"finished on the board", known[0]},
		{"set-up position, unfinished, names unknown", known[1]},
		{"7x7, time forfeit", known[2]},
		{"resigned", endedRecord(t, 10, rules.BlackWins, game.Resignation)},
		{"time forfeit", endedRecord(t, 31, rules.WhiteWins, game.TimeForfeit)},
		{"agreement", endedRecord(t, 31, rules.Draw, game.Agreement)},
		{"adjudication", endedRecord(t, 20, rules.WhiteWins, game.Adjudication)},
		{"unfinished", endedRecord(t, 20, rules.Ongoing, game.Unterminated)},
		{"drawn on the board, names and dates unknown", s1Unknown},
		{"engine player", engine},
		{"event without round", eventOnly},
		{"equal names, a draw", equalNames},
		{"no moves", empty},
		{"past our rules' end", repetition[0]},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := record.WriteAPJSON(c.rec)
			if err != nil {
				t.Fatal(err)
			}
			checkAPSchema(t, b)
			back, err := record.ReadOptions{Lenient: true}.ReadAll(b)
			if err != nil {
				t.Fatalf("%v\n%s", err, b)
			}
			if back[0].Start != c.rec.Start || !reflect.DeepEqual(back[0].Moves, c.rec.Moves) || back[0].Result != c.rec.Result {
				t.Errorf("does not come back: %s", diff(back[0], c.rec))
			}
		})
	}
}

// FuzzReadAll reads any bytes, strictly or leniently. Whatever it reads
// can be written in both formats: the PGN-style text reads back equal,
// and AP JSON fits the server's schema, reads back with the same game,
// and is stable from then on.
func FuzzReadAll(f *testing.F) {
	for _, name := range []string{"known.pgn", "s1.apjson", "ap-array.json", "repetition.apjson", "known.apjson"} {
		data := readTestdata(f, name)
		f.Add(data, false)
		f.Add(data, true)
	}
	f.Add(append([]byte{0xef, 0xbb, 0xbf}, "1. d6 c1 *"...), false)
	f.Add(encodeUTF16("[White \"Ørjan\"]\n\n1. d6 *", binary.LittleEndian), false)
	f.Add(encodeUTF16(`[{"header": {"game": {"name": "Emergo"}, "players": [{"name": "a"}, {"name": "a"}]}, "moves": [["resign"]]}]`, binary.BigEndian), true)
	f.Add(apRecordJSON("", "", apRounds(31, `"timeout"`)), false)
	f.Add(apRecordJSON("1", "0", `[["d6", "draw"]]`), true)
	f.Add([]byte(`{"header": {"game": {"name": "Emergo", "variants": ["7x7"]}, "unfinished": true, "date-start": "1970-01-01T00:00:00Z", "players": [{"name": "x (White)"}, {"name": "x (Black)"}]}, "moves": []}`), false)
	f.Add([]byte("{c} [ ] [White \"a\"]\n1. d6 (x) *"), true)
	f.Fuzz(func(t *testing.T, data []byte, lenient bool) {
		opts := record.ReadOptions{Lenient: lenient}
		recs, err := opts.ReadAll(data)
		if err != nil {
			var re *record.Error
			if !errors.As(err, &re) && !strings.HasPrefix(err.Error(), "record: ") {
				t.Fatalf("error without the package's prefix: %v", err)
			}
			return
		}
		for _, rec := range recs {
			if _, err := rec.Game(); err != nil {
				t.Fatalf("a record read does not replay: %v", err)
			}
		}
		var pgn bytes.Buffer
		if err := record.WritePGN(&pgn, recs...); err != nil {
			t.Fatalf("games read cannot be written: %v", err)
		}
		again, err := opts.ReadAll(pgn.Bytes())
		if err != nil {
			t.Fatalf("written games cannot be read: %v\n%s", err, pgn.Bytes())
		}
		if len(again) != len(recs) {
			t.Fatalf("%d games back, %d written", len(again), len(recs))
		}
		for i := range recs {
			if d := diff(again[i], recs[i]); d != "" {
				t.Fatalf("PGN, game %d: %s\n%s", i+1, d, pgn.Bytes())
			}
		}
		for i, rec := range recs {
			b, err := record.WriteAPJSON(rec)
			if err != nil {
				t.Fatalf("game %d cannot be written as AP JSON: %v", i+1, err)
			}
			checkAPSchema(t, b)
			back, err := opts.ReadAll(b)
			if err != nil {
				t.Fatalf("written AP JSON cannot be read: %v\n%s", err, b)
			}
			if back[0].Start != rec.Start || !reflect.DeepEqual(back[0].Moves, rec.Moves) || back[0].Result != rec.Result {
				t.Fatalf("AP JSON, game %d: %s\n%s", i+1, diff(back[0], rec), b)
			}
			b2, err := record.WriteAPJSON(back[0])
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b2, b) {
				t.Fatalf("AP JSON written again differs:\n%s\n%s", b, b2)
			}
		}
	})
}
