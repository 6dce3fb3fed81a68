package record_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"emergo/game"
	"emergo/record"
	"emergo/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with the file testdata/name, or rewrites the file
// with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (run go test -update and review git diff):\n%s", path, got)
	}
}

// knownGames are the games of the golden file: S2 with comments from
// RULE_CASES.md, a game from a set-up position with Black to move (D6b),
// and a 7x7 game.
func knownGames(t *testing.T) []record.Record {
	rs2 := record.FromGame(play(t, rules.NewPosition(rules.Geometry9), s2))
	for _, kv := range [][2]string{
		{"Event", "Rule cases"}, {"Site", "RULE_CASES.md"}, {"Date", "1986.??.??"},
		{"Round", "S2"}, {"White", "White"}, {"Black", "Black"},
	} {
		if err := rs2.SetTag(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	rs2.Comment = "A capture in the entering phase, a 5-man capture, the mixed phase, a shadow piece of 3."
	rs2.Comments = make([]string, len(rs2.Moves))
	rs2.Comments[10] = "White must capture while still holding men."
	rs2.Comments[23] = "Black's last entry."
	rs2.Comments[24] = "White captures with 3 men still in hand."
	rs2.Comments[25] = "Black's hand is empty, so Black steps while White still holds men."
	rs2.Comments[26] = "White's shadow piece of 3."
	rs2.Comments[38] = "Black has no men in hand and no column: White wins."

	d6b := mustPosition(t, "9x9 b 0/2 a1:W9 g7:W1 h8:B10w2")
	rd6b := record.FromGame(play(t, d6b, "1... h8xf6 2. a1-b2 e5"))
	rd6b.SetTag("Event", `Set-up "D6b"`)
	rd6b.Comments = []string{"A capture comes before the shadow piece.", "", "The shadow piece of 2."}

	r7 := record.FromGame(play(t, rules.NewPosition(rules.Geometry7),
		"1. g5 c5 2. a1 c1 3. e3 e7 4. f2 b4 5. f6 g3 6. c3 b4xd2xf4 7. g5xe3 g3xe5xg7"))
	r7.SetTag("White", `back\slash`)
	r7.Result = rules.BlackWins
	r7.SetTag("Termination", game.TimeForfeit.String())
	return []record.Record{rs2, rd6b, r7}
}

func TestWritePGNGolden(t *testing.T) {
	recs := knownGames(t)
	var b bytes.Buffer
	if err := record.WritePGN(&b, recs...); err != nil {
		t.Fatal(err)
	}
	golden(t, "known.pgn", b.Bytes())
	for i, line := range strings.Split(b.String(), "\n") {
		if len(line) > 79 && !strings.HasPrefix(line, "[") {
			t.Errorf("line %d has %d columns", i+1, len(line))
		}
	}

	got, err := record.ReadPGN(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(recs) {
		t.Fatalf("read %d games, wrote %d", len(got), len(recs))
	}
	for i := range recs {
		if d := diff(got[i], recs[i]); d != "" {
			t.Errorf("game %d: %s", i+1, d)
		}
	}
}

func TestReadPGNLenient(t *testing.T) {
	// Things the writer never makes but the reader accepts: numbers touching
	// their moves, no tags, @-entries, ; and % lines, comments spread over
	// lines, CRLF line ends, stray comments between games.
	in := "% a file of two games\r\n" +
		"1.d6 c1 {a comment\r\n  over two lines} 2.@b4 b2 ; rest of line\r\n" +
		"3.f4 3...g9 *\r\n" +
		"{between games}\r\n" +
		"[White \"x\\\\y \\\"z\\\"\"]  [Black \"b\"]\r\n" +
		"[Size \"7\"][Result \"*\"]\r\n" +
		"*"
	recs, err := record.ReadPGN(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d games", len(recs))
	}
	r := recs[0]
	if len(r.Moves) != 6 || r.Comments[1] != "a comment over two lines" || r.Comments[3] != "rest of line" {
		t.Errorf("game 1: %d moves, comments %q", len(r.Moves), r.Comments)
	}
	r = recs[1]
	if r.Tag("White") != `x\y "z"` || r.Tag("Size") != "7" || len(r.Moves) != 0 || r.Comment != "" {
		t.Errorf("game 2: White %q, Size %s, %d moves, comment %q", r.Tag("White"), r.Tag("Size"), len(r.Moves), r.Comment)
	}
}

// s2Prefix is S2 up to Black's 13th move, for errors at move 14.
const s2Prefix = `1.g1 d2 2.f2 e7 3.a9 f4 4.c9 f8 5.d8 b6 6.d8xf6 h8 7.a3 i9 8.c1 h6
9.c1xe3xg5xi7xg9xe7 h6 10.i7 d4 11.i7xg5 e9 12.c5 i5 13.c5xe3 b6-c7`

func TestReadPGNErrors(t *testing.T) {
	const ok = "[White \"carol\"]\n\n1. d6 *\n\n"
	const ab = "[White \"alice\"]\n[Black \"bob\"]\n"
	for _, c := range []struct {
		name, in, want string
	}{
		{"bad tag", `[Event "x]` + "\n1. d6 *", `record: game 1: line 1: bad tag Event: the value has no closing quote on its line`},
		{"bad tag name", `[1x "y"]` + "\n*", `record: game 1: line 1: bad tag: a tag is [Name "value"], its name letters, digits and _, starting with a letter`},
		{"tag without quotes", `[Event x]` + "\n*", `record: game 1: line 1: bad tag Event: its value goes in double quotes, as in [Event "value"]`},
		{"bad escape", `[Event "a\b"]` + "\n*", `record: game 1: line 1: bad tag Event: only \" and \\ may follow a backslash`},
		{"duplicate tag", "[White \"a\"]\n[White \"b\"]\n*", `record: game 1 (a-?): line 2: duplicate tag White`},
		{"unknown result tag", "[Result \"2-0\"]\n*", `record: game 1: line 1: unknown result "2-0" in the Result tag (1-0, 0-1, 1/2-1/2 or *)`},
		{"unknown result token", "1. d6 2-0", `record: game 1: line 1: "2-0" is not a move, a move number or a result`},
		{"illegal move", ok + ab + s2Prefix + " 14. c3xe6 *", `record: game 2 (alice-bob): move 14 "c3xe6": e6 is not a playable square`},
		{"illegal Black move", ab + "1. d6 c1 2. b4 d6 *", `record: game 1 (alice-bob): move 2... "d6": d6 is occupied`},
		{"feeding", "1. d6 c7 *", `record: game 1: move 1... "c7": a man entered on c7 could be captured at once (no feeding, RULES 4.4)`},
		{"unterminated comment", ok + "1. d6 {no end *\n", `record: game 2: line 5: unterminated comment: { without }`},
		{"missing result", "1. d6 c1", `record: game 1: line 1: missing result at the end of the input (1-0, 0-1, 1/2-1/2 or *)`},
		{"missing result before tags", "1. d6 c1\n" + ok, `record: game 1: line 2: missing result before the next game's tags (1-0, 0-1, 1/2-1/2 or *)`},
		{"result against the board", ab + s1 + " 1-0", `record: game 1 (alice-bob): the result 1-0 contradicts the board: 1/2-1/2 (no legal move); a lenient read keeps the record as played`},
		{"tag against token", "[Result \"1-0\"]\n1. d6 0-1", `record: game 1: line 2: the Result tag says 1-0 but the movetext ends with 0-1`},
		{"move after the end", s1 + " i3 1/2-1/2", `record: game 1: move 12... "i3": the game is over (1/2-1/2, no legal move)`},
		{"wrong move number", "1. d6 c1 3. b4 *", `record: game 1: line 1: move number 3. where 2. was expected`},
		{"number without move", "1. d6 c1 2. *", `record: game 1: line 1: move number 2. without a move`},
		{"variation", "1. d6 (1. c3) c1 *", `record: game 1: line 1: variations in parentheses are not supported`},
		{"glyph", "1. d6 $1 c1 *", `record: game 1: line 1: annotation glyph "$1": annotation glyphs are not supported`},
		{"bad size", "[Size \"8\"]\n*", `record: game 1: line 1: tag Size "8": the board size is 9 or 7`},
		{"set-up without position", "[SetUp \"1\"]\n*", `record: game 1: line 2: tag SetUp 1 needs a Position tag`},
		{"bad position", "[SetUp \"1\"]\n[Position \"9x9 w 12/12 e5:W1\"]\n*", `record: game 1: line 3: tag Position: position "9x9 w 12/12 e5:W1": `},
		{"size against position", "[Size \"7\"]\n[SetUp \"1\"]\n[Position \"9x9 w 12/12 -\"]\n*", `record: game 1: line 4: tag Position is for 9x9 but Size is 7`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := record.ReadPGN(strings.NewReader(c.in))
			if err == nil {
				t.Fatalf("no error, want %s", c.want)
			}
			// The reasons of package notation are its own; only the start
			// of a message that ends in one is checked.
			if got := err.Error(); got != c.want && !(strings.HasSuffix(c.want, ": ") && strings.HasPrefix(got, c.want)) {
				t.Errorf("error\n%s\nwant\n%s", err, c.want)
			}
			var re *record.Error
			if !errors.As(err, &re) {
				t.Errorf("%T is not a *record.Error", err)
			}
		})
	}
}

func TestDecoderGoesOnAfterBadGame(t *testing.T) {
	in := "[White \"a\"]\n1. d6 *\n\n[White \"b\"]\n1. e5 *\n\n[White \"c\"]\n1. d6 (1. c3) c1 *\n\n[White \"d\"]\n1. c3 c1 *\n"
	d := record.NewDecoder(strings.NewReader(in))
	var got []string
	for {
		var rec record.Record
		err := d.Decode(&rec)
		if err == io.EOF {
			break
		}
		if err != nil {
			got = append(got, err.Error())
			continue
		}
		got = append(got, rec.Tag("White"))
	}
	want := []string{
		"a",
		`record: game 2 (b-?): move 1 "e5": the first move may not be on the centre e5 (RULES 4.3)`,
		"record: game 3 (c-?): line 8: variations in parentheses are not supported",
		"d",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestWritePGNErrors(t *testing.T) {
	base := record.FromGame(play(t, rules.NewPosition(rules.Geometry9), "1. d6 c1"))
	for _, c := range []struct {
		name string
		edit func(r *record.Record)
		want string
	}{
		{"comment with }", func(r *record.Record) { r.Comments = []string{"", "a } b"} }, "record: game 1: the comment after move 1... contains }, which would end it"},
		{"derived tag", func(r *record.Record) { r.Tags = append(r.Tags, record.Tag{Key: "Result", Value: "1-0"}) }, "record: game 1: tag Result in Tags: it follows from the fields of Record"},
		{"bad tag", func(r *record.Record) { r.Tags = append(r.Tags, record.Tag{Key: "A B", Value: "x"}) }, `record: game 1: bad tag name "A B": use letters, digits and _, starting with a letter`},
		{"illegal move", func(r *record.Record) { r.Moves = append(r.Moves, r.Moves[1]) }, `record: game 1: move 2 "c1": c1 is occupied`},
		{"no start", func(r *record.Record) { r.Start = rules.Position{} }, "record: game 1: no start position"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := base
			r.Tags = append([]record.Tag(nil), base.Tags...)
			c.edit(&r)
			err := record.WritePGN(io.Discard, r)
			if err == nil || err.Error() != c.want {
				t.Errorf("error %v, want %s", err, c.want)
			}
		})
	}
}

// TestRandomGamesRoundTrip writes random games of both sizes and reads
// them back: the records must come back equal, all in one file.
func TestRandomGamesRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 300
	if testing.Short() {
		n = 50
	}
	recs := make([]record.Record, n)
	for i := range recs {
		recs[i] = randomRecord(t, rng)
	}
	var b bytes.Buffer
	if err := record.WritePGN(&b, recs...); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	got, err := record.ReadPGN(&b)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("read %d games, wrote %d", len(got), n)
	}
	for i := range recs {
		if d := diff(got[i], recs[i]); d != "" {
			t.Fatalf("game %d: %s\n%s", i+1, d, text)
		}
	}
	var again bytes.Buffer
	if err := record.WritePGN(&again, got...); err != nil {
		t.Fatal(err)
	}
	if again.String() != text {
		t.Error("writing the games read back gives different text")
	}
}

// TestVectorGames writes the rules package's vector games (played by an
// independent implementation) and reads them back.
func TestVectorGames(t *testing.T) {
	files, _ := filepath.Glob("../rules/testdata/vectors/*.jsonl")
	if len(files) == 0 {
		t.Skip("no vector games")
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<24)
		var pgn bytes.Buffer
		var want []string
		for sc.Scan() {
			var v struct {
				Size   int
				Moves  []string
				Result string
			}
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
				t.Fatal(err)
			}
			pgn.WriteString("[Size \"" + map[int]string{7: "7", 9: "9"}[v.Size] + "\"]\n\n")
			for i, m := range v.Moves {
				if i%2 == 0 {
					fmt.Fprintf(&pgn, "%d. ", i/2+1)
				}
				pgn.WriteString(m + " ")
			}
			pgn.WriteString(v.Result + "\n\n")
			want = append(want, strings.Join(v.Moves, " ")+" "+v.Result)
		}
		fh.Close()
		recs, err := record.ReadPGN(&pgn)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var out bytes.Buffer
		if err := record.WritePGN(&out, recs...); err != nil {
			t.Fatal(err)
		}
		again, err := record.ReadPGN(&out)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range again {
			g := r.Start.Geometry()
			var ms []string
			for _, m := range r.Moves {
				ms = append(ms, m.Text(g))
			}
			if got := strings.Join(ms, " ") + " " + r.Result.String(); got != want[i] {
				t.Errorf("%s game %d:\n%s\nwant\n%s", f, i, got, want[i])
			}
		}
	}
}

func FuzzReadPGN(f *testing.F) {
	for _, name := range []string{"known.pgn"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("1. d6 c1 {x} 2. b4 *"))
	f.Add([]byte("{} {x} 1. d6 {} {y} {z} *"))
	f.Add([]byte("[SetUp \"1\"]\n[Position \"9x9 b 0/2 a1:W9 g7:W1 h8:B10w2\"]\n1... h8xf6 *"))
	f.Add([]byte("[Size \"7\"]\n1.a1 ; c\n% x\n1...g7 (2. c1) $2 1/2-1/2"))
	f.Add([]byte("[White \"a\\\\\\\"\"]\n{\n} 1-0 0-1 [Black \"b\"]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, _ := record.ReadPGN(bytes.NewReader(data))
		if len(recs) == 0 {
			return
		}
		var b bytes.Buffer
		if err := record.WritePGN(&b, recs...); err != nil {
			t.Fatalf("games read cannot be written: %v", err)
		}
		text := b.String()
		again, err := record.ReadPGN(&b)
		if err != nil {
			t.Fatalf("written games cannot be read: %v\n%s", err, text)
		}
		if len(again) != len(recs) {
			t.Fatalf("read %d games back, wrote %d", len(again), len(recs))
		}
		for i := range recs {
			if d := diff(again[i], recs[i]); d != "" {
				t.Fatalf("game %d: %s\n%s", i+1, d, text)
			}
		}
	})
}

// TestReadPGNComments: the comments after a move are joined in order,
// and those before the first move, before the movetext or in it, make
// the game's comment.
func TestReadPGNComments(t *testing.T) {
	recs, err := record.ReadPGN(strings.NewReader("{x} 1. {y} d6 {a} {b} ; c\n c1 {d} *"))
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d games, %v", len(recs), err)
	}
	r := recs[0]
	if r.Comment != "x y" || strings.Join(r.Comments, "|") != "a b c|d" {
		t.Errorf("comment %q, comments %q", r.Comment, r.Comments)
	}
}
