package trf

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
)

// small is a tournament of four players after two rounds and a half,
// written by hand: a forfeit, a double forfeit, every kind of bye, a
// code of a program's own (092) and one nobody knows (ZZZ).
const small = `012 Small Open
092 Individual: Swiss-System (Dutch)
ZZZ something of a program's own
001    1 m GM Alpha, Ann                        2400 POR    12345678 1990/01/01  2.5    1     2 w 1     3 b =  0000 - H
001    2 w    Beta, Bob                         2300 RUS             1995        1.0    3     1 b 0  0000 - U     4 w -
001    3      Gamma, Cy                         2200                             1.5    2     4 b +     1 w =
001    4      Delta, Di                                                          0.0    4     3 w -  0000 - Z     2 b -
XXR 5
XXC black1
`

func read(t *testing.T, text string) *Tournament {
	t.Helper()
	tour, err := Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return tour
}

func TestReadSmall(t *testing.T) {
	tour := read(t, small)
	if tour.Rounds != 5 || tour.FirstColour != Black {
		t.Errorf("XXR, XXC = %d, %c, want 5, b", tour.Rounds, tour.FirstColour)
	}
	if len(tour.Players) != 4 {
		t.Fatalf("%d players, want 4", len(tour.Players))
	}
	wantHeader := []string{"012 Small Open", "092 Individual: Swiss-System (Dutch)", "ZZZ something of a program's own"}
	if !reflect.DeepEqual(tour.Header, wantHeader) {
		t.Errorf("header %q, want %q", tour.Header, wantHeader)
	}
	a := tour.Player(1)
	if a.Name != "Alpha, Ann" || a.Title != "GM" || a.Sex != 'm' || a.Rating != 2400 || a.Federation != "POR" ||
		a.FideID != "12345678" || a.Birth != "1990/01/01" || a.Points != 5 || a.Rank != 1 {
		t.Errorf("player 1 = %+v", *a)
	}
	for _, c := range []struct {
		id, round int
		want      Round
		played    bool
		points    int
	}{
		{1, 1, Round{2, White, Win}, true, 2},
		{1, 2, Round{3, Black, Draw}, true, 1},
		{1, 3, Round{0, NoColour, HalfPointBye}, false, 1},
		{2, 2, Round{0, NoColour, PairingBye}, false, 2},
		{2, 3, Round{4, White, ForfeitLoss}, false, 0},
		{4, 3, Round{2, Black, ForfeitLoss}, false, 0}, // the double forfeit
		{3, 1, Round{4, Black, ForfeitWin}, false, 2},
		{4, 2, Round{0, NoColour, ZeroPointBye}, false, 0},
	} {
		p := tour.Player(c.id)
		if c.round > len(p.Rounds) {
			t.Errorf("player %d has %d rounds, want round %d", c.id, len(p.Rounds), c.round)
			continue
		}
		r := p.Rounds[c.round-1]
		if r != c.want || r.Played() != c.played || r.Points() != c.points {
			t.Errorf("player %d round %d = %+v (played %v, %d half-points), want %+v (%v, %d)", c.id, c.round, r, r.Played(), r.Points(), c.want, c.played, c.points)
		}
	}
	if n := len(tour.Player(3).Rounds); n != 2 {
		t.Errorf("player 3 has %d rounds, want 2 (the third not yet paired)", n)
	}
}

// TestReadLineEnds reads the same file with its lines ended by LF, CRLF
// and CR alone.
func TestReadLineEnds(t *testing.T) {
	want := read(t, small)
	for _, end := range []string{"\r\n", "\r"} {
		got := read(t, strings.ReplaceAll(small, "\n", end))
		if !reflect.DeepEqual(got, want) {
			t.Errorf("lines ended by %q: %+v, want %+v", end, got, want)
		}
	}
}

// TestRoundTrip writes a file and reads it back unchanged, and reads the
// file a pairing program wrote (testdata/generated.trf, lines ended by
// CR) and writes it back to the same columns.
func TestRoundTrip(t *testing.T) {
	data, err := os.ReadFile("testdata/generated.trf")
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"small": small, "generated": string(data)} {
		tour := read(t, text)
		var b bytes.Buffer
		if err := tour.Write(&b); err != nil {
			t.Fatal(err)
		}
		again := read(t, b.String())
		if !reflect.DeepEqual(again, tour) {
			t.Errorf("%s: read back %+v, want %+v", name, again, tour)
		}
		if name != "generated" {
			continue
		}
		// Every player's line comes back as the program wrote it.
		orig := splitLines(data)
		out := splitLines(b.Bytes())
		for _, line := range orig {
			if !strings.HasPrefix(line, "001") {
				continue
			}
			if !contains(out, strings.TrimRight(line, " ")) {
				t.Errorf("line %q not written back as it was", line)
			}
		}
	}
}

func contains(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}

// TestWriteColumns checks the columns of a player's line against the
// format's.
func TestWriteColumns(t *testing.T) {
	tour := read(t, small)
	line := playerLine(*tour.Player(1))
	for _, c := range []struct {
		from, to int
		want     string
	}{
		{1, 3, "001"}, {5, 8, "   1"}, {10, 10, "m"}, {11, 13, " GM"}, {15, 24, "Alpha, Ann"},
		{49, 52, "2400"}, {54, 56, "POR"}, {58, 68, "   12345678"}, {70, 79, "1990/01/01"},
		{81, 84, " 2.5"}, {86, 89, "   1"}, {92, 99, "   2 w 1"}, {102, 109, "   3 b ="}, {112, 119, "0000 - H"},
	} {
		if got := line[c.from-1 : c.to]; got != c.want {
			t.Errorf("columns %d-%d = %q, want %q", c.from, c.to, got, c.want)
		}
	}
	var b bytes.Buffer
	if err := tour.Write(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(b.String(), "XXR 5\r\nXXC black1\r\n") {
		t.Errorf("the file ends %q, want XXR and XXC, lines ended by CR LF", b.String()[b.Len()-30:])
	}
}

func TestFirstColourOf(t *testing.T) {
	tour := read(t, small)
	if c := tour.FirstColourOf(); c != Black {
		t.Errorf("with XXC black1: %c", c)
	}
	tour.FirstColour = NoColour
	if c := tour.FirstColourOf(); c != White {
		t.Errorf("player 1 White in round 1: %c, want w", c)
	}
	// Player 1 absent in round 1, not paired: player 2's colour, as it
	// is; player 1 with the pairing-allocated bye: player 2's, reversed.
	for _, c := range []struct {
		first Round
		want  Colour
	}{
		{Round{0, NoColour, ZeroPointBye}, Black},
		{Round{0, NoColour, PairingBye}, White},
	} {
		tour = &Tournament{FirstColour: NoColour, Players: []Player{
			{ID: 3, Rounds: []Round{{2, White, Loss}}},
			{ID: 1, Rounds: []Round{c.first}},
			{ID: 2, Rounds: []Round{{3, Black, Win}}},
		}}
		if got := tour.FirstColourOf(); got != c.want {
			t.Errorf("player 1 %c in round 1, player 2 Black: %c, want %c", c.first.Result, got, c.want)
		}
	}
	if c := (&Tournament{FirstColour: NoColour}).FirstColourOf(); c != White {
		t.Errorf("nothing played: %c, want w", c)
	}
}

func TestTruncate(t *testing.T) {
	tour := read(t, small)
	before := tour.Truncate(1)
	if got := before.Player(1).Points; got != 2 || len(before.Player(1).Rounds) != 1 {
		t.Errorf("after round 1 player 1 has %d half-points in %d rounds", got, len(before.Player(1).Rounds))
	}
	if len(tour.Player(1).Rounds) != 3 {
		t.Error("Truncate changed the tournament it copies")
	}
}

func TestReadRefuses(t *testing.T) {
	for name, text := range map[string]string{
		"start number":       "001 abcd",
		"colour":             "001    1         A                                                                        2 x 1\n001    2         B                                                                        1 b 0",
		"result":             "001    1         A                                                                        2 w 7\n001    2         B                                                                        1 b 0",
		"one-sided game":     "001    1         A                                                                        2 w 1\n001    2         B",
		"unknown opponent":   "001    1         A                                                                        9 w 1",
		"start number twice": "001    1 A\n001    1 B",
		"XXR":                "XXR five",
	} {
		if _, err := Read(strings.NewReader(text)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add(small)
	if data, err := os.ReadFile("testdata/generated.trf"); err == nil {
		f.Add(string(data))
	}
	f.Fuzz(func(t *testing.T, text string) {
		tour, err := Read(strings.NewReader(text))
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := tour.Write(&b); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(&b); err != nil {
			t.Fatalf("a file read could not be read back once written: %v", err)
		}
	})
}
