package book

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"testing"

	"emergo/notation"
	"emergo/rules"
)

var rebuild = flag.Bool("rebuild", false, "build the embedded books again from the commands in their headers and compare them byte for byte (about half an hour)")

// small is a build that takes a moment.
var small = Config{Size: 7, Games: 8, Plies: 6, Random: 1, Nodes: 300, Margin: 30, Depth: 3, Seed: 5}

func build(t *testing.T, cfg Config) []byte {
	t.Helper()
	b, err := Build(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestBuildIsReproducible(t *testing.T) {
	first := build(t, small)
	if again := build(t, small); !bytes.Equal(first, again) {
		t.Fatalf("two builds of %s differ", small)
	}
	other := small
	other.Seed++
	if bytes.Equal(first, build(t, other)) {
		t.Errorf("the builds of seeds %d and %d are the same", small.Seed, other.Seed)
	}
	b, err := Read(bytes.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	if b.Config != small {
		t.Errorf("read back the config %s, want %s", b.Config, small)
	}
	// Written again, the book read is the same bytes.
	var buf bytes.Buffer
	if err := Write(&buf, b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, buf.Bytes()) {
		t.Error("the book read and written again differs")
	}
	checkLines(t, b)
}

// checkLines walks b from the start along every move it has: each move
// and best move is legal in its position, the start has every game, and
// no position has more games than the move that leads to it (a game
// counts once for a position). It returns the positions reached.
func checkLines(t *testing.T, b *Book) int {
	t.Helper()
	start := rules.NewPosition(rules.GeometryOf(b.Config.Size))
	root, ok := b.Lookup(&start)
	if !ok {
		t.Fatal("the start is not in the book")
	}
	if root.Games() != b.Config.Games {
		t.Errorf("the start has %d games, want %d", root.Games(), b.Config.Games)
	}
	seen := map[uint64]bool{}
	var walk func(p rules.Position, e *Entry, depth int)
	walk = func(p rules.Position, e *Entry, depth int) {
		seen[Key(&p)] = true
		pos := notation.FormatPosition(&p)
		if _, err := notation.ParseMove(&p, e.Best); err != nil {
			t.Errorf("%s: best move: %v", pos, err)
		}
		for i, m := range e.Moves {
			mv, err := notation.ParseMove(&p, m.Text)
			if err != nil {
				t.Errorf("%s: %v", pos, err)
				continue
			}
			if i > 0 && e.Moves[i-1].Games() < m.Games() {
				t.Errorf("%s: %s (%d games) after %s (%d)", pos, m.Text, m.Games(), e.Moves[i-1].Text, e.Moves[i-1].Games())
			}
			next := p.After(mv)
			child, ok := b.Lookup(&next)
			if !ok || seen[Key(&next)] {
				continue
			}
			// Another order of moves may reach a position too: only the
			// moves of the start are sure to be the only way to theirs.
			if child.Games() > m.Games() && depth == 0 {
				t.Errorf("%s: %s has %d games, the position after it %d", pos, m.Text, m.Games(), child.Games())
			}
			walk(next, child, depth+1)
		}
	}
	walk(start, root, 0)
	return len(seen)
}

func TestEmbedded(t *testing.T) {
	for _, size := range []int{9, 7} {
		b := Embedded(size)
		if b == nil || b.Config.Size != size {
			t.Fatalf("Embedded(%d) = %v", size, b)
		}
		reached := checkLines(t, b)
		// The others are reached only by moves their parents' entries do
		// not keep (96-97% are reached in the embedded books).
		if reached < b.Len()*9/10 {
			t.Errorf("%dx%d: %d of %d positions reached from the start", size, size, reached, b.Len())
		}
		t.Logf("%dx%d: %s, %d positions, %d reached from the start", size, size, b.Config, b.Len(), reached)
	}
	if Embedded(8) != nil {
		t.Error("Embedded(8) is a book")
	}
}

// TestRebuild builds the embedded books again (with -rebuild): the books
// are reproducible from their commands.
func TestRebuild(t *testing.T) {
	if !*rebuild {
		t.Skip("builds the embedded books again with -rebuild (about half an hour)")
	}
	for _, size := range []int{7, 9} {
		want, err := data.ReadFile(fmt.Sprintf("data/book%d.gz", size))
		if err != nil {
			t.Fatal(err)
		}
		if got := build(t, Embedded(size).Config); !bytes.Equal(got, want) {
			t.Errorf("%dx%d: the build of %s differs from the embedded book", size, size, Embedded(size).Config)
		}
	}
}

func TestReadErrors(t *testing.T) {
	good := build(t, small)
	zr, err := gzip.NewReader(bytes.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	var plain bytes.Buffer
	plain.ReadFrom(zr)
	gz := func(s string) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		return b.Bytes()
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"not gzip", []byte("emergo-book 1"), "book: gzip: invalid header"},
		{"no header", gz("hello"), "book: not a book (no header line)"},
		{"bad size", gz("emergo-book 1 -size 8 -games 1\n\x00"), "book: header: size 8 is not 9 or 7"},
		{"unknown flag", gz("emergo-book 1 -size 9 -colour 1\n\x00"), "book: header: unknown -colour"},
		{"not a number", gz("emergo-book 1 -size nine\n\x00"), `book: header: -size "nine" is not a number`},
		{"cut short", gz(plain.String()[:plain.Len()-3]), "book: the book ends in the middle of an entry"},
		{"more after", gz(plain.String() + "x"), "book: 1 bytes after the last entry"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(c.data))
			if err == nil || err.Error() != c.want {
				t.Errorf("Read = %v, want %q", err, c.want)
			}
		})
	}
}

// startKey is the key of the 9x9 start, "9x9 w 12/12 -".
const startKey uint64 = 0xa80ea92de0bb8fd2

func TestKey(t *testing.T) {
	g := rules.GeometryOf(9)
	start := rules.NewPosition(g)
	p, err := notation.ParsePosition("9x9 b 11/12 c3:W1")
	if err != nil {
		t.Fatal(err)
	}
	mv, err := notation.ParseMove(&start, "c3")
	if err != nil {
		t.Fatal(err)
	}
	after := start.After(mv)
	if Key(&p) != Key(&after) {
		t.Error("one position read and played has two keys")
	}
	// The side to move is part of the key.
	w, err := notation.ParsePosition("9x9 w 11/12 c3:W1")
	if err != nil {
		t.Fatal(err)
	}
	if Key(&w) == Key(&p) {
		t.Error("the key does not change with the side to move")
	}
	// The books and the site's index keep keys: a new Key would make
	// them all stale.
	if got := Key(&start); got != startKey {
		t.Errorf("the key of the start is %#x, want %#x", got, startKey)
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"size", Config{Size: 8, Games: 1}, "book: size 8: want 9 or 7"},
		{"games", Config{Size: 9}, "book: 0 games: at least one"},
		{"random beyond the plies", Config{Size: 9, Games: 1, Plies: 2, Random: 3}, "book: 3 random plies: want 0 to the book's 2 plies"},
		{"depth", Config{Size: 9, Games: 1, Depth: 30}, "book: depth 30: want 1 to 20"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.cfg.Defaults().Validate()
			if err == nil || err.Error() != c.want {
				t.Errorf("Validate = %v, want %q", err, c.want)
			}
		})
	}
}
