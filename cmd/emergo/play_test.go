package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"emergo/game"
	"emergo/notation"
	"emergo/record"
	"emergo/rules"
)

// endgame is a 7x7 position near the end: one man each. After 1. a1-b2
// g7-f6 2. b2-c3 f6-e5 3. c3-d4 Black must take White's last man.
const endgame = "7x7 w 0/0 a1:W1 g7:B1"

// playScript runs the play command with args on input and returns what it
// wrote.
func playScript(t *testing.T, input string, args ...string) string {
	t.Helper()
	var out, errs bytes.Buffer
	if err := runPlay(args, strings.NewReader(input), &out, &errs); err != nil {
		t.Fatalf("play %v: %v\n%s%s", args, err, out.String(), errs.String())
	}
	return out.String()
}

// wantInOrder fails the test for every piece missing from out, in order: each
// must come after the one before.
func wantInOrder(t *testing.T, out string, pieces ...string) {
	t.Helper()
	rest := out
	for _, p := range pieces {
		i := strings.Index(rest, p)
		if i < 0 {
			t.Errorf("missing (in this order) %q", p)
			continue
		}
		rest = rest[i+len(p):]
	}
	if t.Failed() {
		t.Logf("output:\n%s", out)
	}
}

func readOneRecord(t *testing.T, file string) record.Record {
	t.Helper()
	recs, err := readRecordFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 {
		t.Fatalf("%s: %d games, want 1", file, len(recs))
	}
	return recs[0]
}

func TestPlayTwoPeople(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "game.pgn")
	input := strings.Join([]string{
		"help",
		"e5",    // no men in hand
		"a1-c3", // not a neighbour
		"c3xe6", // not a square
		"jump",  // not a command
		"moves",
		"a1-b2",
		"undo",
		"a1-b2",
		"hint",
		"g7-f6",
		"b2-c3",
		"f6-e5",
		"c3-d4",
		"e5-f4", // Black must capture
		"e5xc3",
		"moves",
		"e5",
		"save " + saved,
		"quit",
		"a1-b2", // never read
	}, "\n")
	out := playScript(t, input, "-color", "both", "-position", endgame)
	wantInOrder(t, out,
		"White to move, 1 legal move",
		"White> ", "undo ", "resign", "quit",
		`Illegal move: "e5": White has no men in hand.`,
		`Illegal move: "a1-c3": c3 is not diagonally next to a1.`,
		`Not a move: "c3xe6": e6 is not a playable square.`,
		`Unknown command "jump"`,
		"1 legal move:\n  a1-b2\n",
		"[W1]", "Black to move",
		"Took back a1-b2.", "White to move",
		"[W1]",
		"Hint: g7-f6",
		"Black must capture (RULES 3.5), for example e5xc3.",
		"[B1w1]",
		"Result: 0-1 (all men taken prisoner)",
		"Game over: Black wins (all men taken prisoner).",
		"The game is over: no moves.",
		"The game is over.",
		"Saved to "+saved,
	)
	if strings.Count(out, "Took back") != 1 || strings.Count(out, "Saved") != 1 {
		t.Errorf("a command was carried out twice, or after quit:\n%s", out)
	}

	rec := readOneRecord(t, saved)
	var moves []string
	for _, m := range rec.Moves {
		moves = append(moves, m.Text(rules.Geometry7))
	}
	if got, want := strings.Join(moves, " "), "a1-b2 g7-f6 b2-c3 f6-e5 c3-d4 e5xc3"; got != want {
		t.Errorf("saved moves %q, want %q", got, want)
	}
	if rec.Result != rules.BlackWins || rec.Tag("Termination") != "all men taken prisoner" ||
		rec.Tag("Position") != endgame || rec.Tag("White") != "human" {
		t.Errorf("saved record: result %s, tags %v, position %q", rec.Result, rec.Tags, rec.Tag("Position"))
	}

	// Load it back, from the command line and with the command, and save
	// it again: the same game.
	again := filepath.Join(dir, "again.pgn")
	out = playScript(t, "moves\nundo\nload "+saved+"\nsave "+again+"\n", "-color", "both", "-load", saved)
	wantInOrder(t, out,
		"Result: 0-1 (all men taken prisoner)",
		"The game is over: no moves.",
		"Took back e5xc3.", "Black to move, 1 legal move (must capture 1)",
		"Loaded "+saved, "Result: 0-1",
		"Saved to "+again,
	)
	back := readOneRecord(t, again)
	if !equalGames(rec, back) {
		t.Errorf("load and save changed the game:\n%+v\n%+v", rec, back)
	}
}

func equalGames(a, b record.Record) bool {
	if len(a.Moves) != len(b.Moves) || a.Start != b.Start || a.Result != b.Result ||
		a.Tag("Termination") != b.Tag("Termination") {
		return false
	}
	for i := range a.Moves {
		if a.Moves[i] != b.Moves[i] {
			return false
		}
	}
	return true
}

func TestPlayResign(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "resigned.pgn")
	out := playScript(t, "c1\nresign\ne1\nresign\nsave "+saved+"\n", "-color", "both", "-size", "7")
	wantInOrder(t, out,
		"Black to move",
		"Black resigns: White wins.",
		"The game is over. Use undo",
		"The game is over.",
		"Saved to "+saved,
	)
	rec := readOneRecord(t, saved)
	if rec.Result != rules.WhiteWins || rec.Tag("Termination") != game.Resignation.String() || len(rec.Moves) != 1 {
		t.Errorf("saved: result %s, termination %q, %d moves", rec.Result, rec.Tag("Termination"), len(rec.Moves))
	}
	out = playScript(t, "e1\nundo\ne1\n", "-color", "both", "-load", saved)
	wantInOrder(t, out,
		"Result: 1-0 (Black resigns)",
		"The game is over.",
		"Took back c1.",
		"White to move, 24 legal moves",
		"[W1]", "Last move: e1",
	)
}

// save writes the format its file's name asks for, and load reads either
// whatever the name: the content decides.
func TestPlaySaveFormats(t *testing.T) {
	dir := t.TempDir()
	asJSON, asPGN := filepath.Join(dir, "g.json"), filepath.Join(dir, "g.pgn")
	playScript(t, "a1-b2\ng7-f6\nsave "+asJSON+"\nsave "+asPGN+"\n", "-color", "both", "-position", endgame)
	for _, c := range []struct {
		file, start string
	}{
		{asJSON, "{"},
		{asPGN, "[Event"},
	} {
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(strings.TrimSpace(string(data)), c.start) {
			t.Errorf("%s starts %q, want %q", c.file, data[:min(len(data), 20)], c.start)
		}
	}
	// The same bytes under the other format's name, and under no known one.
	swapped := map[string]string{asJSON: "json-in.pgn", asPGN: "pgn-in.json"}
	for from, name := range swapped {
		data, _ := os.ReadFile(from)
		to := filepath.Join(dir, name)
		if err := os.WriteFile(to, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out := playScript(t, "load "+to+"\n", "-color", "both", "-load", to)
		wantInOrder(t, out, "Position: 7x7 w 0/0 b2:W1 f6:B1", "Loaded "+to, "Position: 7x7 w 0/0 b2:W1 f6:B1")
	}
	if rec := readOneRecord(t, asJSON); rec.Tag("White") != "human" || len(rec.Moves) != 2 {
		t.Errorf("the JSON record: %d moves, tags %v", len(rec.Moves), rec.Tags)
	}
}

// scripted is an input that writes a line only when the playSession asks for
// one, chosen by next from the output so far. bufio.Scanner reads only
// when it has no whole line, so each Read answers one prompt.
type scripted struct {
	out  *bytes.Buffer
	next func(out string) (string, bool)
}

func (s *scripted) Read(b []byte) (int, error) {
	line, ok := s.next(s.out.String())
	if !ok {
		return 0, io.EOF
	}
	return copy(b, line+"\n"), nil
}

// lastPosition returns the position of the last board in out.
func lastPosition(t *testing.T, out string) rules.Position {
	t.Helper()
	i := strings.LastIndex(out, "Position: ")
	if i < 0 {
		t.Fatalf("no position in the output:\n%s", out)
	}
	text, _, _ := strings.Cut(out[i+len("Position: "):], "\n")
	p, err := notation.ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPlayAgainstEngine(t *testing.T) {
	var out bytes.Buffer
	var before string // the position before the person's last move
	in := &scripted{out: &out, next: func(o string) (string, bool) {
		switch n := strings.Count(o, "Emergo plays "); {
		case strings.Contains(o, "Took back"):
			return "quit", true
		case n < 3:
			// The first legal move, as a person might type it.
			p := lastPosition(t, o)
			before = notation.FormatPosition(&p)
			return notation.SortedMoves(p.Geometry(), p.Legal(nil))[0], true
		default:
			return "undo", true
		}
	}}
	if err := runPlay([]string{"-size", "7", "-level", "1", "-seed", "1"}, in, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	o := out.String()
	if n := strings.Count(o, "Emergo plays "); n != 3 {
		t.Errorf("the engine played %d moves, want 3:\n%s", n, o)
	}
	p := lastPosition(t, o)
	if got := notation.FormatPosition(&p); got != before || p.Side() != rules.White {
		t.Errorf("undo went back to %q, want %q: the person's move and the engine's reply\n%s", got, before, o)
	}
	wantInOrder(t, o, "Emergo plays ", "White> ", "Emergo plays ", "White> ", "Emergo plays ", "White> ", "Took back ", " and ", "White> ")
}

func TestPlayEngineFirst(t *testing.T) {
	out := playScript(t, "", "-size", "7", "-level", "1", "-color", "black", "-seed", "2")
	wantInOrder(t, out, "White to move", "Emergo plays ", "Black to move", "Black> ")
}

func TestPlayFlags(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"colour", []string{"-color", "red"}},
		{"level", []string{"-level", "11"}},
		{"size", []string{"-size", "8"}},
		{"argument", []string{"e5"}},
		{"load and position", []string{"-load", "x.pgn", "-position", endgame}},
	} {
		err := runPlay(c.args, strings.NewReader(""), io.Discard, io.Discard)
		var u usageError
		if !errors.As(err, &u) {
			t.Errorf("%s: got %v, want a usage error", c.name, err)
		}
	}
	if err := runPlay([]string{"-load", filepath.Join(t.TempDir(), "none.pgn")}, strings.NewReader(""), io.Discard, io.Discard); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing record: got %v", err)
	}
}

// A loaded game keeps its record's tags when saved: its players, event
// and date are the game's, not the session's, which fill in only what the
// record leaves unknown.
func TestPlayLoadSaveKeepsTags(t *testing.T) {
	dir := t.TempDir()
	const known = `[Event "Winter Open"]
[Site "Abstract Play"]
[Date "2026.01.02"]
[Round "3"]
[White "alice"]
[Black "bob"]
[Result "*"]
[WhiteUserID "u-1234"]
[Annotator "carol"]

1. d6 c1 *
`
	const unknown = "[White \"alice\"]\n\n1. d6 c1 *\n"
	for _, c := range []struct {
		name, text string
		want       map[string]string // tag: value; "" for the session's own
	}{
		{"known", known, map[string]string{
			"Event": "Winter Open", "Site": "Abstract Play", "Date": "2026.01.02", "Round": "3",
			"White": "alice", "Black": "bob", "WhiteUserID": "u-1234", "Annotator": "carol",
			"Termination": "unterminated",
		}},
		{"unknown tags filled in", unknown, map[string]string{
			"Event": "emergo play", "Date": "", "White": "alice", "Black": "human",
		}},
	} {
		for _, ext := range []string{".pgn", ".json"} {
			t.Run(c.name+ext, func(t *testing.T) {
				in := filepath.Join(dir, c.name+".pgn")
				if err := os.WriteFile(in, []byte(c.text), 0o644); err != nil {
					t.Fatal(err)
				}
				out := filepath.Join(dir, c.name+"-saved"+ext)
				playScript(t, "b4\nsave "+out+"\n", "-color", "both", "-load", in)
				rec := readOneRecord(t, out)
				if len(rec.Moves) != 3 {
					t.Errorf("saved %d plies, want 3", len(rec.Moves))
				}
				for k, v := range c.want {
					got := rec.Tag(k)
					if v == "" && (got == "" || got == "????.??.??") || v != "" && got != v {
						if ext == ".json" && k == "Annotator" {
							continue // Abstract Play JSON has no place for it
						}
						t.Errorf("tag %s %q, want %q", k, got, v)
					}
				}
			})
		}
	}
}
