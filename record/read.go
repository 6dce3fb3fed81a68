package record

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// ReadOptions are the choices of a read. The zero value reads strictly:
// every record must be a game of our rules, as with ReadAll.
type ReadOptions struct {
	// Lenient keeps a record that goes on after our rules have ended the
	// game, or that ends with a result our rules contradict, as played:
	// its moves, its ending and its result. The moves after our end must
	// still be legal in their positions. The RulesEnd tag says where and
	// how our rules end the game. Games of the Abstract Play server need
	// it, as that server has no repetition rule.
	Lenient bool
	// MaxPlies, if above 0, refuses a game of more plies (its moves, past
	// our rules' end too) with a *TooLongError. The reader stops
	// replaying at the first ply over the limit and only counts the rest,
	// so a long record costs the limit's replay, not its own.
	MaxPlies int
	// MaxGames, if above 0, ends ReadAll after that many games: the rest
	// of the file is not read, and its errors are not seen.
	MaxGames int
}

// TooLongError is the error of a game longer than ReadOptions.MaxPlies.
type TooLongError struct {
	Plies int // the game's plies
	Max   int // the most the read takes
}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("the game has %d plies, more than the %d allowed", e.Plies, e.Max)
}

// ReadAll reads every game of a record file, strictly: see
// ReadOptions.ReadAll.
func ReadAll(data []byte) ([]Record, error) { return ReadOptions{}.ReadAll(data) }

// ReadAll reads every game of a record file, whatever its format: an
// Abstract Play record (a JSON object), an array of them (as the server
// publishes them), the PGN-style text, or a MindSports move list (moves
// alone without a result token, which the PGN-style text requires: see
// ReadMindSports). The content
// decides, not the file's name (see docs/records.md). The text may be UTF-8 or, after a
// byte-order mark, UTF-16. On error it returns the games read before the
// bad one, and the error. With MaxGames it stops after that many.
func (o ReadOptions) ReadAll(data []byte) ([]Record, error) {
	text, err := decodeText(data)
	if err != nil {
		return nil, err
	}
	switch jsonKind(text) {
	case '{':
		rec, err := o.readAPJSON(text)
		if err != nil {
			return nil, err
		}
		return []Record{rec}, nil
	case '[':
		return o.readAPJSONArray(text)
	}
	recs, err := decodeAll(o.NewDecoder(bytes.NewReader(text)), o.MaxGames)
	if err == nil || len(recs) > 0 || !isMoveList(text) {
		return recs, err
	}
	// Moves alone without the result token that the PGN-style text
	// requires are a MindSports move list, and an error in them is the
	// list's.
	rec, err := o.readMindSports(text)
	if err != nil {
		return nil, err
	}
	return []Record{rec}, nil
}

// jsonKind returns '{' for a JSON object, '[' for a JSON array, or 0 for
// anything else, which is read as the PGN-style text. Both formats may
// start with either bracket: the text with a tag ([Event "x"]) or a
// comment ({text}). Valid JSON is JSON; otherwise text that starts like
// JSON is taken for broken JSON, so that its error is JSON's: an object's
// first key ({"), or a [ not followed by a letter, which every tag name
// starts with.
func jsonKind(text []byte) byte {
	const space = " \t\r\n" // JSON's white space
	t := bytes.TrimLeft(text, space)
	if len(t) == 0 || t[0] != '{' && t[0] != '[' {
		return 0
	}
	if json.Valid(t) {
		return t[0]
	}
	rest := bytes.TrimLeft(t[1:], space)
	switch {
	case t[0] == '{' && len(rest) > 0 && rest[0] == '"':
		return '{'
	case t[0] == '[' && (len(rest) == 0 || !isLetter(rest[0])):
		return '['
	}
	return 0
}

// The byte-order marks that textReader recognises.
var (
	bomUTF8    = []byte{0xef, 0xbb, 0xbf}
	bomUTF16LE = []byte{0xff, 0xfe}
	bomUTF16BE = []byte{0xfe, 0xff}
)

// decodeText returns data as UTF-8 without a byte-order mark.
func decodeText(data []byte) ([]byte, error) {
	switch {
	case bytes.HasPrefix(data, bomUTF8):
		return data[len(bomUTF8):], nil
	case bytes.HasPrefix(data, bomUTF16LE), bytes.HasPrefix(data, bomUTF16BE):
		r, err := textReader(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(r)
	}
	return data, nil
}

// textReader returns r as UTF-8 text: it drops a UTF-8 byte-order mark,
// and decodes UTF-16 that starts with its byte-order mark (LE or BE).
// Text without a mark is taken as UTF-8. A read error met while looking
// for the mark is returned.
func textReader(r io.Reader) (*bufio.Reader, error) {
	br := bufio.NewReader(r)
	head, err := br.Peek(len(bomUTF8))
	if err != nil && err != io.EOF {
		return br, err
	}
	var order binary.ByteOrder
	switch {
	case bytes.HasPrefix(head, bomUTF8):
		br.Discard(len(bomUTF8))
		return br, nil
	case bytes.HasPrefix(head, bomUTF16LE):
		order = binary.LittleEndian
	case bytes.HasPrefix(head, bomUTF16BE):
		order = binary.BigEndian
	default:
		return br, nil
	}
	br.Discard(len(bomUTF16LE))
	return bufio.NewReader(&utf16Reader{r: br, order: order}), nil
}

// errOddUTF16 is the error of UTF-16 text that ends inside a code unit.
var errOddUTF16 = errors.New("record: the UTF-16 text ends in the middle of a character (an odd number of bytes)")

// utf16Reader decodes UTF-16 into UTF-8. An unpaired surrogate becomes
// U+FFFD, as in unicode/utf16.
type utf16Reader struct {
	r     *bufio.Reader
	order binary.ByteOrder
	out   []byte // decoded text not yet read
	err   error
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) == 0 && u.err == nil {
		u.fill()
	}
	if len(u.out) == 0 {
		return 0, u.err
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	return n, nil
}

// fill decodes what the buffer of the underlying reader holds, at least
// one character, or sets u.err.
func (u *utf16Reader) fill() {
	u.out = u.out[:0]
	for len(u.out) == 0 || u.r.Buffered() >= 2 {
		unit, ok := u.unit()
		if !ok {
			return
		}
		c := rune(unit)
		if utf16.IsSurrogate(c) {
			c = utf8.RuneError
			if next, err := u.r.Peek(2); err == nil && unit < 0xdc00 {
				if pair := utf16.DecodeRune(rune(unit), rune(u.order.Uint16(next))); pair != utf8.RuneError {
					u.r.Discard(2)
					c = pair
				}
			}
		}
		u.out = utf8.AppendRune(u.out, c)
	}
}

// unit reads one code unit, or sets u.err.
func (u *utf16Reader) unit() (uint16, bool) {
	var b [2]byte
	if _, err := io.ReadFull(u.r, b[:]); err != nil {
		if err == io.ErrUnexpectedEOF {
			err = errOddUTF16
		}
		u.err = err
		return 0, false
	}
	return u.order.Uint16(b[:]), true
}

// Format is a record format, for writing.
type Format uint8

const (
	PGN    Format = iota // the PGN-style text
	APJSON               // Abstract Play JSON
)

// FormatFor returns the format a file of this name is written in: AP
// JSON for names ending in .json or .apjson, in any case, and the
// PGN-style text for any other. Reading needs no such choice: ReadAll
// goes by the content.
func FormatFor(name string) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json", ".apjson":
		return APJSON
	}
	return PGN
}

// Write writes recs to w in the format f. In AP JSON, one record is
// written as an object and any other number as an array, as the
// Abstract Play server publishes them.
func Write(w io.Writer, f Format, recs ...Record) error {
	if f == PGN {
		return WritePGN(w, recs...)
	}
	b, err := appendAPJSONAll(nil, recs)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
