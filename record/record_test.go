package record_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"emergo/game"
	"emergo/notation"
	"emergo/record"
	"emergo/rules"
)

// The games of RULE_CASES.md used throughout the tests, in our movetext.
const (
	// s1 ends in a draw: Black has no legal entry (RULES 4.6, 6.2).
	s1 = `1. d6 c1 2. b4 b2 3. f4 g9 4. i1 f8 5. c9 a1 6. f6 a7 7. i9 g1 8. c5 i7
9. i5 a3 10. e1 i3 11. a5 e9 12. a9`
	// s2 ends with Black's last man taken prisoner (RULES 6.1).
	s2 = `1.g1 d2 2.f2 e7 3.a9 f4 4.c9 f8 5.d8 b6 6.d8xf6 h8 7.a3 i9 8.c1 h6
9.c1xe3xg5xi7xg9xe7 h6 10.i7 d4 11.i7xg5 e9 12.c5 i5 13.c5xe3 b6-c7
14.a1 c7-d8 15.e3-f4 i5-h6 16.g5xi7 e9-f8 17.e7xg9 d8-e9 18.f6-g7 i9-h8
19.g7xi9 e9-f8 20.g9xe7`
)

// play returns the game of the moves in text, which must all be legal.
func play(t testing.TB, start rules.Position, text string) *rules.Game {
	t.Helper()
	var moves []string
	for _, w := range strings.Fields(text) {
		if i := strings.LastIndexByte(w, '.'); i >= 0 {
			w = w[i+1:]
		}
		if w != "" {
			moves = append(moves, w)
		}
	}
	gm := rules.NewGameFrom(start)
	if err := notation.PlayMoves(gm, moves); err != nil {
		t.Fatal(err)
	}
	return gm
}

func mustPosition(t testing.TB, text string) rules.Position {
	t.Helper()
	p, err := notation.ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// diff explains how two records differ, or returns "".
func diff(a, b record.Record) string {
	if reflect.DeepEqual(a, b) {
		return ""
	}
	var out []string
	if !reflect.DeepEqual(a.Tags, b.Tags) {
		out = append(out, fmt.Sprintf("tags %q != %q", a.Tags, b.Tags))
	}
	if a.Start != b.Start {
		out = append(out, fmt.Sprintf("start %s != %s", notation.FormatPosition(&a.Start), notation.FormatPosition(&b.Start)))
	}
	if !reflect.DeepEqual(a.Moves, b.Moves) {
		out = append(out, fmt.Sprintf("moves differ (%d and %d)", len(a.Moves), len(b.Moves)))
	}
	if a.Comment != b.Comment || !reflect.DeepEqual(a.Comments, b.Comments) {
		out = append(out, fmt.Sprintf("comments %q %q != %q %q", a.Comment, a.Comments, b.Comment, b.Comments))
	}
	if a.Result != b.Result {
		out = append(out, fmt.Sprintf("result %s != %s", a.Result, b.Result))
	}
	if len(out) == 0 {
		return "records differ"
	}
	return strings.Join(out, "; ")
}

func TestFromGame(t *testing.T) {
	gm := play(t, rules.NewPosition(rules.Geometry9), s2)
	rec := record.FromGame(gm)
	if rec.Result != rules.WhiteWins || len(rec.Moves) != 39 {
		t.Fatalf("result %s, %d moves", rec.Result, len(rec.Moves))
	}
	want := []record.Tag{
		{"Event", "?"}, {"Site", "?"}, {"Date", "????.??.??"}, {"Round", "?"},
		{"White", "?"}, {"Black", "?"}, {"Termination", "all men taken prisoner"},
	}
	if !reflect.DeepEqual(rec.Tags, want) {
		t.Errorf("tags %q, want %q", rec.Tags, want)
	}
	back, err := rec.Game()
	if err != nil {
		t.Fatal(err)
	}
	if back.Position() != gm.Position() || back.Outcome() != gm.Outcome() {
		t.Errorf("replayed game ends in %s, want %s", back.Outcome(), gm.Outcome())
	}

	ongoing := record.FromGame(play(t, rules.NewPosition(rules.Geometry7), "1. a1 g7"))
	if got := ongoing.Tag("Termination"); got != game.Unterminated.String() {
		t.Errorf("Termination of an ongoing game = %q", got)
	}
	if got := ongoing.Tag("Size"); got != "7" {
		t.Errorf("Size = %q, want 7", got)
	}
}

// Of records a game as played with its ending, and Played reads it back
// as one: the ending the record names where the board leaves the game
// open, the board's where it decides.
func TestPlayed(t *testing.T) {
	now := time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC)
	opts := game.Options{Now: func() time.Time { return now }}
	open := func(result rules.Result, term string) record.Record {
		rec := record.FromGame(play(t, rules.NewPosition(rules.Geometry9), "1. d6 c1"))
		rec.Result = result
		rec.SetTag("Termination", term)
		return rec
	}
	won := record.FromGame(play(t, rules.NewPosition(rules.Geometry9), s2))
	aborted := record.FromGame(play(t, rules.NewPosition(rules.Geometry9), "1. d6"))
	aborted.SetTag("Termination", "aborted")
	tests := []struct {
		name string
		rec  record.Record
		want game.Ending
	}{
		{"resignation", open(rules.BlackWins, "resignation"), game.Loss(rules.White, game.Resignation)},
		{"agreement", open(rules.Draw, "agreement"), game.Ending{Result: rules.Draw, Termination: game.Agreement}},
		{"goes on", open(rules.Ongoing, "unterminated"), game.Ending{}},
		{"aborted", aborted, game.Ending{Termination: game.Aborted}},
		{"aborted too late", open(rules.Ongoing, "aborted"), game.Ending{}},
		{"another program's word", open(rules.WhiteWins, "normal"), game.Outside(rules.WhiteWins)},
		{"a drawn resignation", open(rules.Draw, "resignation"), game.Outside(rules.Draw)},
		{"the board's, claimed", open(rules.Draw, "threefold repetition"), game.Outside(rules.Draw)},
		{"the board's", won, game.Ending{Result: rules.WhiteWins, Termination: game.NoMen}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, err := tc.rec.Played(opts)
			if err != nil {
				t.Fatal(err)
			}
			if g.Ending() != tc.want || g.Len() != len(tc.rec.Moves) || g.Stamps()[0].At != now {
				t.Errorf("ending %v after %d moves, want %v after %d", g.Ending(), g.Len(), tc.want, len(tc.rec.Moves))
			}
			back := record.Of(g)
			if back.Result != tc.want.Result || back.Tag("Termination") != tc.want.Termination.String() || len(back.Moves) != g.Len() {
				t.Errorf("recorded as %s, %q", back.Result, back.Tag("Termination"))
			}
		})
	}
	bad := open(rules.Ongoing, "")
	bad.Moves = append(bad.Moves, bad.Moves[0])
	if _, err := bad.Played(opts); err == nil {
		t.Error("a record with an illegal move is played")
	}
}

func TestGameChecksResult(t *testing.T) {
	rec := record.FromGame(play(t, rules.NewPosition(rules.Geometry9), s1))
	if rec.Result != rules.Draw {
		t.Fatalf("S1 ends %s, want a draw", rec.Result)
	}
	rec.Result = rules.WhiteWins
	_, err := rec.Game()
	const want = "record: the result 1-0 contradicts the board: 1/2-1/2 (no legal move); a lenient read keeps the record as played"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}

	// A resignation: a decisive result the board has not reached.
	rec = record.FromGame(play(t, rules.NewPosition(rules.Geometry9), "1. d6 c1"))
	rec.Result = rules.BlackWins
	if _, err := rec.Game(); err != nil {
		t.Errorf("resignation: %v", err)
	}
}

func TestGameIllegalMove(t *testing.T) {
	rec := record.FromGame(play(t, rules.NewPosition(rules.Geometry9), "1. d6 c1"))
	rec.SetTag("White", "alice")
	rec.SetTag("Black", "bob")
	rec.Moves = append(rec.Moves, rec.Moves[0]) // d6 again: occupied
	_, err := rec.Game()
	const want = `record: alice-bob: move 2 "d6": d6 is occupied`
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
	var me *notation.MoveError
	if !errors.As(err, &me) || me.Text != "d6" {
		t.Errorf("error %v does not wrap the *notation.MoveError", err)
	}
	var ie *rules.IllegalMoveError
	if !errors.As(err, &ie) || ie.Reason != rules.Occupied || ie.Rule != "4.1" {
		t.Errorf("error %v does not wrap the rules' reason, occupied (RULES 4.1)", err)
	}
}

func TestTags(t *testing.T) {
	var rec record.Record
	rec.Start = rules.NewPosition(rules.Geometry9)
	for _, kv := range [][2]string{{"Termination", "resignation"}, {"Black", "bob"}, {"Event", "Cup"}, {"White", "alice"}} {
		if err := rec.SetTag(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	want := []record.Tag{{"Event", "Cup"}, {"White", "alice"}, {"Black", "bob"}, {"Termination", "resignation"}}
	if !reflect.DeepEqual(rec.Tags, want) {
		t.Errorf("tags %q, want %q", rec.Tags, want)
	}
	if err := rec.SetTag("Result", "0-1"); err != nil || rec.Result != rules.BlackWins {
		t.Errorf("SetTag Result: %v, result %s", err, rec.Result)
	}
	for _, kv := range [][2]string{{"Result", "2-0"}, {"Size", "7"}, {"Position", "9x9 w 12/12 -"}, {"9x", "v"}, {"Key", "a\nb"}, {"", "v"}} {
		if err := rec.SetTag(kv[0], kv[1]); err == nil {
			t.Errorf("SetTag(%q, %q) succeeded", kv[0], kv[1])
		}
	}
	for key, want := range map[string]string{"Site": "?", "Date": "????.??.??", "Result": "0-1", "Size": "9", "SetUp": "", "Position": "", "Annotator": ""} {
		if got := rec.Tag(key); got != want {
			t.Errorf("Tag(%q) = %q, want %q", key, got, want)
		}
	}
	rec.Start = mustPosition(t, "7x7 b 0/0 a1:W8 g7:B8")
	if rec.Tag("SetUp") != "1" || rec.Tag("Position") != "7x7 b 0/0 a1:W8 g7:B8" || rec.Tag("Size") != "7" {
		t.Errorf("set-up tags %q %q %q", rec.Tag("SetUp"), rec.Tag("Position"), rec.Tag("Size"))
	}
}

// randomRecord plays a random game: from the start or, one time in four,
// from a position reached by random play. Its tags and comments exercise
// the escapes of the text format.
func randomRecord(t testing.TB, rng *rand.Rand) record.Record {
	g := rules.Geometry9
	if rng.IntN(2) == 0 {
		g = rules.Geometry7
	}
	randomPlay := func(gm *rules.Game, n int) {
		for i := 0; i < n && !gm.Outcome().Over(); i++ {
			legal := gm.Legal()
			if err := gm.Play(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	start := rules.NewPosition(g)
	if rng.IntN(4) == 0 {
		gm := rules.NewGame(g)
		randomPlay(gm, 1+rng.IntN(60))
		start = gm.Position()
	}
	gm := rules.NewGameFrom(start)
	randomPlay(gm, rng.IntN(200))
	rec := record.FromGame(gm)

	names := []string{"alice", `Bo "the Column" B.`, `back\slash`, "Ørjan", "", "?"}
	rec.SetTag("White", names[rng.IntN(len(names))])
	rec.SetTag("Black", names[rng.IntN(len(names))])
	if rng.IntN(2) == 0 {
		rec.SetTag("Date", fmt.Sprintf("20%02d.%02d.%02d", rng.IntN(30), 1+rng.IntN(12), 1+rng.IntN(28)))
		rec.SetTag("Annotator", "someone [who] writes {braces}")
	}
	if !gm.Outcome().Over() && rng.IntN(2) == 0 {
		rec.Result = rules.Result(1 + rng.IntN(3))
		rec.SetTag("Termination", game.Resignation.String())
	}
	words := []string{"a", "long", "comment", "{", "%not-an-escape", ";", "(", "[Tag", `"q"`, "1-0", "*", "12...", "émergo"}
	comment := func() string {
		if rng.IntN(3) != 0 {
			return ""
		}
		w := make([]string, 1+rng.IntN(20))
		for i := range w {
			w[i] = words[rng.IntN(len(words))]
		}
		return strings.Join(w, " ")
	}
	rec.Comment = comment()
	cs := make([]string, len(rec.Moves))
	for i := range cs {
		cs[i] = comment()
		if cs[i] != "" {
			rec.Comments = cs
		}
	}
	return rec
}
