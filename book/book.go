// Package book is the engine's opening book: the moves the engine played
// from the first positions of its self-play games, with how often each
// was played and how those games ended, and the engine's evaluation of
// each position at a fixed depth. Build makes a book from self-play
// (seeded, a fixed number of nodes a move, one thread, so that a book is a
// function of its Config); Write and Read keep it as a small gzipped file;
// Embedded is the book of each board size built into the program
// (book/data, made by `emergo book build`).
//
// Positions are found by Key, a hash of their position text (side to move
// and men in hand included), which the site's index of its own games
// (package explorer) shares.
package book

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strconv"
	"strings"

	"emergo/notation"
	"emergo/rules"
)

// Key is the key of a position in a book and in the site's index: the
// 64-bit FNV-1a hash of its canonical position text (docs/notation.md).
// The text holds the columns, the men in hand and the side to move, so
// one key is one position however it was reached; it depends on the
// notation alone, not on the engine's own hashing.
func Key(p *rules.Position) uint64 {
	h := fnv.New64a()
	h.Write([]byte(notation.FormatPosition(p)))
	return h.Sum64()
}

// Move is a move played from a position: its text and how the games in
// which it was played ended.
type Move struct {
	Text string
	// White, Draws and Black count the games won by White, drawn and won
	// by Black.
	White, Draws, Black int
}

// Games is the number of games in which the move was played.
func (m Move) Games() int { return m.White + m.Draws + m.Black }

// Entry is a position of the book.
type Entry struct {
	// Score is the engine's evaluation of the position at the book's
	// Depth, in hundredths of a man for the side to move (player.Mate
	// and beyond for a forced win), and Best the move it found.
	Score int32
	Best  string
	// Moves are the moves played from it, the most played first (then in
	// the notation's byte order).
	Moves []Move
}

// Games is the number of games that went on from the position.
func (e *Entry) Games() int {
	n := 0
	for _, m := range e.Moves {
		n += m.Games()
	}
	return n
}

// Book is an opening book of one board size.
type Book struct {
	// Config is how the book was built.
	Config  Config
	entries map[uint64]*Entry
}

// Lookup returns the entry of p, if the book has it.
func (b *Book) Lookup(p *rules.Position) (*Entry, bool) {
	if b == nil || p.Geometry().N != b.Config.Size {
		return nil, false
	}
	e, ok := b.entries[Key(p)]
	return e, ok
}

// Len is the number of positions in the book.
func (b *Book) Len() int { return len(b.entries) }

// magic starts every book file, after its decompression.
const magic = "emergo-book 1"

// Write writes b: gzip, with no name and no time in its header, so that
// one book is always the same bytes. Inside, a line of text (magic and
// the Config) and then the entries by increasing key: the key (8 bytes,
// little-endian), the score, the best move and the moves, each move its
// text and its three counts; numbers as varints, texts after their
// length.
func Write(w io.Writer, b *Book) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	fmt.Fprintf(bw, "%s %s\n", magic, b.Config)
	keys := make([]uint64, 0, len(b.entries))
	for k := range b.entries {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var buf []byte
	buf = binary.AppendUvarint(buf, uint64(len(keys)))
	for _, k := range keys {
		e := b.entries[k]
		buf = binary.LittleEndian.AppendUint64(buf, k)
		buf = binary.AppendVarint(buf, int64(e.Score))
		buf = appendText(buf, e.Best)
		buf = binary.AppendUvarint(buf, uint64(len(e.Moves)))
		for _, m := range e.Moves {
			buf = appendText(buf, m.Text)
			for _, n := range []int{m.White, m.Draws, m.Black} {
				buf = binary.AppendUvarint(buf, uint64(n))
			}
		}
	}
	bw.Write(buf)
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

func appendText(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

// Read reads a book written by Write.
func Read(r io.Reader) (*Book, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("book: %w", err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("book: %w", err)
	}
	head, body, ok := bytes.Cut(data, []byte("\n"))
	if !ok || !strings.HasPrefix(string(head), magic+" ") {
		return nil, errors.New("book: not a book (no header line)")
	}
	cfg, err := parseConfig(strings.TrimPrefix(string(head), magic+" "))
	if err != nil {
		return nil, err
	}
	d := &decoder{buf: body}
	n := d.uvarint()
	b := &Book{Config: cfg, entries: make(map[uint64]*Entry, min(n, 1<<20))}
	for i := uint64(0); i < n && d.err == nil; i++ {
		k := d.uint64()
		e := &Entry{Score: int32(d.varint()), Best: d.text()}
		moves := d.uvarint()
		for j := uint64(0); j < moves && d.err == nil; j++ {
			e.Moves = append(e.Moves, Move{Text: d.text(), White: int(d.uvarint()), Draws: int(d.uvarint()), Black: int(d.uvarint())})
		}
		b.entries[k] = e
	}
	if d.err == nil && len(d.buf) > 0 {
		d.err = fmt.Errorf("%d bytes after the last entry", len(d.buf))
	}
	if d.err != nil {
		return nil, fmt.Errorf("book: %w", d.err)
	}
	return b, nil
}

// decoder reads the body of a book, keeping the first error.
type decoder struct {
	buf []byte
	err error
}

var errShort = errors.New("the book ends in the middle of an entry")

func (d *decoder) uvarint() uint64 { return number(d, binary.Uvarint) }

func (d *decoder) varint() int64 { return number(d, binary.Varint) }

// number reads a varint of d with read (binary.Uvarint or binary.Varint).
func number[T any](d *decoder, read func([]byte) (T, int)) T {
	var zero T
	if d.err != nil {
		return zero
	}
	v, n := read(d.buf)
	if n <= 0 {
		d.err = errShort
		return zero
	}
	d.buf = d.buf[n:]
	return v
}

func (d *decoder) uint64() uint64 {
	if d.err != nil || len(d.buf) < 8 {
		d.err = errShort
		return 0
	}
	v := binary.LittleEndian.Uint64(d.buf)
	d.buf = d.buf[8:]
	return v
}

func (d *decoder) text() string {
	n := d.uvarint()
	if d.err != nil {
		return ""
	}
	if uint64(len(d.buf)) < n {
		d.err = errShort
		return ""
	}
	s := string(d.buf[:n])
	d.buf = d.buf[n:]
	return s
}

// String writes c as the flags of `emergo book build` that make the
// book: "-size 9 -games 2000 -plies 16 -random 1 -nodes 4000 -margin 30
// -depth 8 -seed 1".
func (c Config) String() string {
	return fmt.Sprintf("-size %d -games %d -plies %d -random %d -nodes %d -margin %d -depth %d -seed %d",
		c.Size, c.Games, c.Plies, c.Random, c.Nodes, c.Margin, c.Depth, c.Seed)
}

// parseConfig reads what Config.String writes.
func parseConfig(s string) (Config, error) {
	var c Config
	f := strings.Fields(s)
	if len(f)%2 != 0 {
		return c, fmt.Errorf("book: header %q: want flags and their values", s)
	}
	for i := 0; i < len(f); i += 2 {
		v, err := strconv.ParseUint(f[i+1], 10, 64)
		if err != nil {
			return c, fmt.Errorf("book: header: %s %q is not a number", f[i], f[i+1])
		}
		switch f[i] {
		case "-size":
			c.Size = int(v)
		case "-games":
			c.Games = int(v)
		case "-plies":
			c.Plies = int(v)
		case "-random":
			c.Random = int(v)
		case "-nodes":
			c.Nodes = v
		case "-margin":
			c.Margin = int32(v)
		case "-depth":
			c.Depth = int(v)
		case "-seed":
			c.Seed = v
		default:
			return c, fmt.Errorf("book: header: unknown %s", f[i])
		}
	}
	if rules.GeometryOf(c.Size) == nil {
		return c, fmt.Errorf("book: header: size %d is not 9 or 7", c.Size)
	}
	return c, nil
}
