package record_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"emergo/game"
	"emergo/notation"
	"emergo/record"
	"emergo/rules"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// The game of repetition.apjson: our rules end it at move 20... by a
// threefold repetition; the server's game goes on for two moves and
// White resigns.
const repetitionEnd = "move 20...: 1/2-1/2 (threefold repetition)"

func TestStrictReadRejectsPlayPastTheEnd(t *testing.T) {
	_, err := record.ReadAll(readTestdata(t, "repetition.apjson"))
	const want = `record: alice-bob: move 21 "b8-c9": the game is over (1/2-1/2, threefold repetition); a lenient read keeps the record as played`
	if err == nil || err.Error() != want {
		t.Fatalf("error\n%v\nwant\n%s", err, want)
	}
	if !errors.Is(err, record.ErrRulesEnd) {
		t.Error("the error does not wrap ErrRulesEnd")
	}
	var me *notation.MoveError
	if !errors.As(err, &me) || me.Text != "b8-c9" {
		t.Error("the error does not wrap the move's *notation.MoveError")
	}
	var over *rules.GameOverError
	if !errors.As(err, &over) || over.Outcome.Reason != rules.Repetition {
		t.Error("the error does not wrap the *rules.GameOverError of the repetition")
	}
}

// TestLenientRead keeps the server's game as played, notes where our
// rules end it, and carries it through both formats.
func TestLenientRead(t *testing.T) {
	lenient := record.ReadOptions{Lenient: true}
	recs, err := lenient.ReadAll(readTestdata(t, "repetition.apjson"))
	if err != nil {
		t.Fatal(err)
	}
	rec := recs[0]
	if len(rec.Moves) != 42 || rec.Result != rules.BlackWins || rec.Tag("Termination") != game.Resignation.String() || rec.Tag(record.RulesEnd) != repetitionEnd {
		t.Fatalf("%d moves, %s, Termination %q, %s %q", len(rec.Moves), rec.Result, rec.Tag("Termination"), record.RulesEnd, rec.Tag(record.RulesEnd))
	}
	gm, err := rec.Game()
	if err != nil {
		t.Fatal(err)
	}
	if gm.Len() != 40 || gm.Outcome() != (rules.Outcome{Result: rules.Draw, Reason: rules.Repetition}) {
		t.Errorf("Game: %d moves, %s; want our end: 40 moves, a draw by repetition", gm.Len(), gm.Outcome())
	}

	// PGN: the tag is written; a strict read rejects the game, a lenient
	// one gives it back.
	var pgn bytes.Buffer
	if err := record.WritePGN(&pgn, rec); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pgn.String(), `[RulesEnd "`+repetitionEnd+`"]`) {
		t.Errorf("no RulesEnd tag in\n%s", pgn.String())
	}
	if _, err := record.ReadAll(pgn.Bytes()); !errors.Is(err, record.ErrRulesEnd) {
		t.Errorf("strict read of the PGN: %v, want an ErrRulesEnd", err)
	}
	back, err := lenient.ReadAll(pgn.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if d := diff(back[0], rec); d != "" {
		t.Errorf("PGN: %s", d)
	}

	// AP JSON: the server's form again, with its ending.
	b, err := record.WriteAPJSON(rec)
	if err != nil {
		t.Fatal(err)
	}
	checkAPSchema(t, b)
	if !bytes.Contains(b, []byte(`["b8-c9", "d8-e7"],`+"\n"+`    ["resign"]`)) {
		t.Errorf("the game does not end as played:\n%s", b)
	}
	back, err = lenient.ReadAll(b)
	if err != nil {
		t.Fatal(err)
	}
	if d := diff(back[0], rec); d != "" {
		t.Errorf("AP JSON: %s", d)
	}
}

// TestLenientReadContradictedResult: the server does not end a game that
// has no legal move (RULE_CASES D9), so its result may be another.
func TestLenientReadContradictedResult(t *testing.T) {
	const ab = "[White \"alice\"]\n[Black \"bob\"]\n\n"
	in := []byte(ab + s1 + " 1-0\n")
	if _, err := record.ReadAll(in); !errors.Is(err, record.ErrRulesEnd) {
		t.Errorf("strict: %v, want an ErrRulesEnd", err)
	}
	recs, err := record.ReadOptions{Lenient: true}.ReadAll(in)
	if err != nil {
		t.Fatal(err)
	}
	rec := recs[0]
	if rec.Result != rules.WhiteWins || rec.Tag(record.RulesEnd) != "move 12: 1/2-1/2 (no legal move)" {
		t.Errorf("result %s, %s %q", rec.Result, record.RulesEnd, rec.Tag(record.RulesEnd))
	}
	if _, err := rec.Game(); err != nil {
		t.Error(err)
	}
}

// TestLenientReadKeepsRules: leniency keeps what our rules end, not what
// they forbid.
func TestLenientReadKeepsRules(t *testing.T) {
	lenient := record.ReadOptions{Lenient: true}
	for _, c := range []struct {
		name, in, want string
	}{
		{"illegal move after the end", string(apRecordJSON("0", "1", apRounds(40, `"e5"`))), `record: alice-bob: move 21 "e5": `},
		{"move after no legal move", s1 + " i3 1/2-1/2", `record: game 1: move 12... "i3": the game is over (1/2-1/2, no legal move)`},
		{"illegal move before the end", "1. d6 d6 *", `record: game 1: move 1... "d6": d6 is occupied`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := lenient.ReadAll([]byte(c.in))
			if err == nil || err.Error() != c.want && !(strings.HasSuffix(c.want, ": ") && strings.HasPrefix(err.Error(), c.want)) {
				t.Errorf("error\n%v\nwant\n%s", err, c.want)
			}
			if errors.Is(err, record.ErrRulesEnd) {
				t.Error("the error suggests a lenient read")
			}
		})
	}
}

// TestRulesEndTag: readers make the tag themselves, and Game checks it.
func TestRulesEndTag(t *testing.T) {
	// A stale tag in the input is dropped.
	recs, err := record.ReadAll([]byte("[RulesEnd \"move 1: 1-0 (all men taken prisoner)\"]\n\n1. d6 c1 *\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := recs[0].Tag(record.RulesEnd); got != "" {
		t.Errorf("RulesEnd %q kept from the input", got)
	}

	rec, err := record.ReadOptions{Lenient: true}.ReadAll(readTestdata(t, "repetition.apjson"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		edit func(r *record.Record)
		want string
	}{
		{"wrong place", func(r *record.Record) { r.SetTag(record.RulesEnd, "move 3: 1/2-1/2 (threefold repetition)") },
			`record: alice-bob: tag RulesEnd "move 3: 1/2-1/2 (threefold repetition)", but our rules end this game at ` + repetitionEnd},
		{"no early end", func(r *record.Record) { r.Moves = r.Moves[:10] },
			`record: alice-bob: tag RulesEnd "` + repetitionEnd + `", but our rules do not end this game before the record does`},
		{"no tag", func(r *record.Record) {
			r.Tags = append([]record.Tag(nil), r.Tags[:len(r.Tags)-1]...)
		}, `record: alice-bob: move 21 "b8-c9": the game is over (1/2-1/2, threefold repetition); a lenient read keeps the record as played`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rec[0]
			r.Tags = append([]record.Tag(nil), r.Tags...)
			c.edit(&r)
			if _, err := r.Game(); err == nil || err.Error() != c.want {
				t.Errorf("error\n%v\nwant\n%s", err, c.want)
			}
		})
	}
	if last := rec[0].Tags[len(rec[0].Tags)-1]; !reflect.DeepEqual(last, record.Tag{Key: record.RulesEnd, Value: repetitionEnd}) {
		t.Errorf("last tag %q, want the RulesEnd tag", last)
	}
}
