package record

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"emergo/game"
	"emergo/notation"
	"emergo/rules"
)

// The PGN-style text format (docs/records.md): per game, tag pairs
// `[Key "value"]`, then the movetext: numbered moves, `{comments}` and a
// result token. This file holds the reader (Decoder, ReadPGN) and the
// writer (Encoder, WritePGN).

// maxLine is the longest line of movetext the writer makes, as PGN's
// export format asks (79 columns, so a line with its newline fits 80).
const maxLine = 79

// ReadPGN reads every game of r. On error it returns the games read before
// the bad one, and the error.
func ReadPGN(r io.Reader) ([]Record, error) { return decodeAll(NewDecoder(r), 0) }

// decodeAll reads every game of d, or the first max if max is above 0,
// and stops at the first error.
func decodeAll(d *Decoder, max int) ([]Record, error) {
	var recs []Record
	for max <= 0 || len(recs) < max {
		var rec Record
		err := d.Decode(&rec)
		if err == io.EOF {
			return recs, nil
		}
		if err != nil {
			return recs, err
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// Decoder reads games one at a time from a stream, so a large file needs
// no more memory than its largest game.
type Decoder struct {
	lex      lexer
	games    int // games started so far
	lenient  bool
	maxPlies int
}

// NewDecoder returns a decoder that reads from r, strictly. The text may
// start with a byte-order mark, and be UTF-16 if it does.
func NewDecoder(r io.Reader) *Decoder { return ReadOptions{}.NewDecoder(r) }

// NewDecoder returns a decoder that reads from r with the options o.
func (o ReadOptions) NewDecoder(r io.Reader) *Decoder {
	br, err := textReader(r)
	return &Decoder{lex: lexer{r: br, line: 1, bol: true, err: err}, lenient: o.Lenient, maxPlies: o.MaxPlies}
}

// Decode reads the next game into rec. It returns io.EOF when no game is
// left. After an error in a game (a *Error) the decoder has read to the
// end of that game, so Decode may be called again for the next one (an
// unterminated comment, though, runs to the end of the input). An error
// of the underlying reader is returned as it is, and again on every later
// call.
func (d *Decoder) Decode(rec *Record) error {
	st := gameReader{d: d}
	for {
		tok, err := d.lex.next()
		if err != nil {
			var se *syntaxError
			if !errors.As(err, &se) {
				return err
			}
			st.start()
			st.fail(&Error{Line: se.line, Err: errors.New(se.msg)})
			continue
		}
		switch tok.kind {
		case tokEOF:
			if !st.started {
				return io.EOF
			}
			st.fail(&Error{Line: tok.line, Err: errors.New("missing result at the end of the input (1-0, 0-1, 1/2-1/2 or *)")})
			return st.finish(rec)
		case tokTag:
			if st.inMovetext {
				// A tag after movetext opens the next game: this one lacks
				// its result. Leave the tag for the next call.
				d.lex.push(tok)
				st.fail(&Error{Line: tok.line, Err: errors.New("missing result before the next game's tags (1-0, 0-1, 1/2-1/2 or *)")})
				return st.finish(rec)
			}
			st.start()
			st.pending = nil // comments before tags lie between games
			st.tag(tok)
		case tokComment:
			if !st.inMovetext {
				if tok.text != "" {
					st.pending = append(st.pending, tok.text)
				}
			} else {
				st.comment(tok.text)
			}
		case tokNumber:
			st.begin(tok)
			st.number(tok)
		case tokMove:
			st.begin(tok)
			st.move(tok)
		case tokResult:
			st.begin(tok)
			st.result(tok)
			return st.finish(rec)
		}
	}
}

// gameReader is the state of one game being read. After its first error
// it only looks for the end of the game.
type gameReader struct {
	d          *Decoder
	started    bool
	inMovetext bool
	err        *Error

	tags      []Tag
	seen      map[string]bool
	resultTag string
	size      string
	setUp     string
	position  string
	pending   []string // comments before the movetext

	line     *line
	comment0 string
	comments []string
	// notes are the comments of the movetext since the last move (or
	// before the first), joined when the next move comes or the game
	// ends: joining each as it comes would copy the comment so far for
	// every note, quadratic in a file of many.
	notes      []string
	pendingNum string // a move number waiting for its move, such as "3..."
	res        rules.Result
	// tooLong is the error of a game over the decoder's maxPlies, which
	// counts the moves after the limit without playing them.
	tooLong *TooLongError
}

// start counts the game when its first token is read.
func (st *gameReader) start() {
	if !st.started {
		st.started = true
		st.d.games++
	}
}

// fail keeps the first error of the game.
func (st *gameReader) fail(e *Error) {
	if st.err == nil {
		st.err = e
	}
}

// failMove records a bad move at move number n.
func (st *gameReader) failMove(n string, err error) { st.fail(&Error{Move: n, Err: err}) }

func (st *gameReader) tag(tok token) {
	if st.err != nil {
		return
	}
	fail := func(format string, args ...any) {
		st.fail(&Error{Line: tok.line, Err: fmt.Errorf(format, args...)})
	}
	if st.seen == nil {
		st.seen = map[string]bool{}
	}
	if st.seen[tok.key] {
		fail("duplicate tag %s", tok.key)
		return
	}
	st.seen[tok.key] = true
	switch tok.key {
	case "Result":
		if _, err := game.ParseResult(tok.text); err != nil {
			fail("unknown result %q in the Result tag (1-0, 0-1, 1/2-1/2 or *)", tok.text)
		}
		st.resultTag = tok.text
	case "Size":
		if tok.text != "9" && tok.text != "7" {
			fail("tag Size %q: the board size is 9 or 7", tok.text)
		}
		st.size = tok.text
	case "SetUp":
		if tok.text != "0" && tok.text != "1" {
			fail("tag SetUp %q: it is 0 or 1", tok.text)
		}
		st.setUp = tok.text
	case "Position":
		st.position = tok.text
	case RulesEnd:
		// The reader makes this tag itself.
	default:
		st.tags = append(st.tags, Tag{tok.key, tok.text})
	}
}

// begin starts the movetext at its first token: it sets up the start
// position from the tags.
func (st *gameReader) begin(tok token) {
	st.start()
	if st.inMovetext {
		return
	}
	st.inMovetext = true
	st.comment0 = strings.Join(st.pending, " ")
	st.pending = nil
	if st.err != nil {
		return
	}
	fail := func(format string, args ...any) {
		st.fail(&Error{Line: tok.line, Err: fmt.Errorf(format, args...)})
	}
	g := rules.Geometry9
	if st.size == "7" {
		g = rules.Geometry7
	}
	start := rules.NewPosition(g)
	switch {
	case st.setUp == "1" && !st.seen["Position"]:
		fail("tag SetUp 1 needs a Position tag")
		return
	case st.setUp == "0" && st.seen["Position"]:
		fail("tag Position goes with SetUp 1, not 0")
		return
	case st.seen["Position"]:
		p, err := notation.ParsePosition(st.position)
		if err != nil {
			fail("%v", positionError("tag Position", err))
			return
		}
		if st.size != "" && p.Geometry() != g {
			fail("tag Position is for %dx%d but Size is %s", p.Geometry().N, p.Geometry().N, st.size)
			return
		}
		start = p
	}
	st.line = newLine(start, st.d.lenient)
	st.line.max = st.d.maxPlies
}

func (st *gameReader) number(tok token) {
	if st.err != nil {
		return
	}
	if st.pendingNum != "" {
		st.fail(&Error{Line: tok.line, Err: fmt.Errorf("move number %s without a move", st.pendingNum)})
		return
	}
	want := st.line.number()
	// A move number is "N." before White's move and "N..." before
	// Black's; any other is a sign of a lost or doubled move.
	got := strconv.Itoa(tok.num) + strings.Repeat(".", tok.dots)
	if tok.dots == 1 && got == want+"." || tok.dots == 3 && got == want {
		st.pendingNum = got
		return
	}
	if !strings.HasSuffix(want, "...") {
		want += "."
	}
	st.fail(&Error{Line: tok.line, Err: fmt.Errorf("move number %s where %s was expected", got, want)})
}

func (st *gameReader) move(tok token) {
	if st.tooLong != nil {
		st.tooLong.Plies++
	}
	if st.err != nil {
		return
	}
	st.pendingNum = ""
	st.attachNotes()
	n := st.line.number()
	if err := st.line.play(tok.text); err != nil {
		if errors.As(err, &st.tooLong) {
			st.fail(&Error{Err: err})
			return
		}
		st.failMove(n, err)
		return
	}
	st.comments = append(st.comments, "")
}

// comment notes a comment of the movetext, for the move before it, or for
// the game when no move has been played yet (attachNotes).
func (st *gameReader) comment(text string) {
	if st.err != nil || text == "" {
		return
	}
	st.notes = append(st.notes, text)
}

// attachNotes attaches the comments noted since the last move to it, or
// to the game before the first move.
func (st *gameReader) attachNotes() {
	if len(st.notes) == 0 {
		return
	}
	at := &st.comment0
	if n := len(st.comments); n > 0 {
		at = &st.comments[n-1]
	}
	if *at != "" {
		st.notes = slices.Insert(st.notes, 0, *at)
	}
	*at = strings.Join(st.notes, " ")
	st.notes = st.notes[:0]
}

func (st *gameReader) result(tok token) {
	if st.err != nil {
		return
	}
	fail := func(format string, args ...any) {
		st.fail(&Error{Line: tok.line, Err: fmt.Errorf(format, args...)})
	}
	if st.pendingNum != "" {
		fail("move number %s without a move", st.pendingNum)
		return
	}
	st.res, _ = game.ParseResult(tok.text) // a result token
	if st.resultTag != "" && st.resultTag != tok.text {
		fail("the Result tag says %s but the movetext ends with %s", st.resultTag, tok.text)
		return
	}
	end, err := st.line.finish(st.res)
	if err != nil {
		st.fail(&Error{Err: err})
		return
	}
	if end != "" {
		st.tags = append(st.tags, Tag{RulesEnd, end})
	}
}

// finish completes the game: on success it fills rec, else it returns the
// first error with the game's index and names.
func (st *gameReader) finish(rec *Record) error {
	tags := normalizeTags(st.tags)
	if st.err != nil {
		st.err.Game = st.d.games
		st.err.setNames(tags)
		return st.err
	}
	st.attachNotes()
	r := Record{
		Tags:    tags,
		Start:   st.line.gm.Start(),
		Moves:   st.line.moves(),
		Comment: st.comment0,
		Result:  st.res,
	}
	for _, c := range st.comments {
		if c != "" {
			r.Comments = st.comments
			break
		}
	}
	*rec = r
	return nil
}

// The lexer turns the input into tokens. PGN's own lexical rules apply: a
// line that starts with % is skipped, ; starts a comment to the end of the
// line, and a move number may touch its move ("1.d6").

type tokKind uint8

const (
	tokEOF tokKind = iota
	tokTag
	tokComment
	tokNumber
	tokMove
	tokResult
)

type token struct {
	kind tokKind
	line int
	key  string // the tag name
	text string // the tag value, comment text, move text or result
	num  int    // a move number and its dots
	dots int
}

// syntaxError is an error of the lexer. It is turned into an *Error by
// the decoder, which knows the game.
type syntaxError struct {
	line int
	msg  string
}

func (e *syntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

type lexer struct {
	r     *bufio.Reader
	line  int  // the line of the next byte, from 1
	bol   bool // the next byte begins a line
	err   error
	queue []token
}

// push puts tok back, to be returned by the next call to next.
func (l *lexer) push(tok token) { l.queue = append(l.queue, tok) }

// peek returns the next byte without consuming it; false at the end of the
// input or after a read error, which is kept in l.err.
func (l *lexer) peek() (byte, bool) {
	if l.err != nil {
		return 0, false
	}
	b, err := l.r.Peek(1)
	if err != nil {
		if err != io.EOF {
			l.err = err
		}
		return 0, false
	}
	return b[0], true
}

// get consumes the next byte.
func (l *lexer) get() (byte, bool) {
	c, ok := l.peek()
	if ok {
		l.r.Discard(1)
		l.bol = c == '\n'
		if l.bol {
			l.line++
		}
	}
	return c, ok
}

// restOfLine consumes the input to the end of the line, the newline
// included, and returns it without the newline.
func (l *lexer) restOfLine() string {
	var b []byte
	for {
		c, ok := l.get()
		if !ok || c == '\n' {
			return strings.TrimSuffix(string(b), "\r")
		}
		b = append(b, c)
	}
}

func isSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}

// isDelim reports the bytes that end a word without being part of it.
func isDelim(c byte) bool { return isSpace(c) || strings.IndexByte("[]{}();", c) >= 0 }

func (l *lexer) next() (token, error) {
	if n := len(l.queue); n > 0 {
		tok := l.queue[n-1]
		l.queue = l.queue[:n-1]
		return tok, nil
	}
	for {
		c, ok := l.peek()
		if !ok {
			return token{kind: tokEOF, line: l.line}, l.err
		}
		line := l.line
		switch {
		case c == '%' && l.bol:
			l.restOfLine()
			continue
		case isSpace(c):
			l.get()
			continue
		case c == '[':
			l.get()
			return l.tag(line)
		case c == '{':
			l.get()
			return l.braceComment(line)
		case c == ';':
			l.get()
			return token{kind: tokComment, line: line, text: normalizeComment(l.restOfLine())}, nil
		case c == '(':
			l.get()
			return token{}, &syntaxError{line, "variations in parentheses are not supported"}
		case isDelim(c):
			l.get()
			return token{}, &syntaxError{line, fmt.Sprintf("unexpected %q", c)}
		}
		var w []byte
		for {
			c, ok := l.peek()
			if !ok || isDelim(c) {
				break
			}
			l.get()
			w = append(w, c)
		}
		return l.word(string(w), line)
	}
}

// word classifies a word of movetext: a result, a move number (perhaps
// with its move attached) or a move.
func (l *lexer) word(w string, line int) (token, error) {
	if _, err := game.ParseResult(w); err == nil {
		return token{kind: tokResult, line: line, text: w}, nil
	}
	if w[0] == '$' {
		return token{}, &syntaxError{line, fmt.Sprintf("annotation glyph %q: annotation glyphs are not supported", w)}
	}
	if !isDigit(w[0]) {
		return token{kind: tokMove, line: line, text: w}, nil
	}
	i := 0
	for i < len(w) && isDigit(w[i]) {
		i++
	}
	j := i
	for j < len(w) && w[j] == '.' {
		j++
	}
	if j == i || i > 6 || w[0] == '0' {
		return token{}, &syntaxError{line, fmt.Sprintf("%q is not a move, a move number or a result", w)}
	}
	num, _ := strconv.Atoi(w[:i])
	tok := token{kind: tokNumber, line: line, num: num, dots: j - i}
	if j < len(w) {
		rest, err := l.word(w[j:], line)
		if err != nil {
			return token{}, err
		}
		l.push(rest)
	}
	return tok, nil
}

// tag reads a tag pair after its '['. On error it skips the rest of the
// line, so reading goes on with the next line.
func (l *lexer) tag(line int) (token, error) {
	bad := func(msg string) (token, error) {
		if !l.bol {
			l.restOfLine()
		}
		return token{}, &syntaxError{line, msg}
	}
	l.blanks()
	var key []byte
	for {
		c, ok := l.peek()
		if !ok || !(isLetter(c) || isDigit(c) || c == '_') {
			break
		}
		l.get()
		key = append(key, c)
	}
	if !validKey(string(key)) {
		return bad(`bad tag: a tag is [Name "value"], its name letters, digits and _, starting with a letter`)
	}
	k := string(key)
	l.blanks()
	if c, ok := l.get(); !ok || c != '"' {
		return bad(fmt.Sprintf(`bad tag %s: its value goes in double quotes, as in [%s "value"]`, k, k))
	}
	var v []byte
	for {
		c, ok := l.get()
		switch {
		case !ok || c == '\n':
			return bad(fmt.Sprintf("bad tag %s: the value has no closing quote on its line", k))
		case c == '"':
		case c == '\\':
			c, ok = l.get()
			if !ok || c != '"' && c != '\\' {
				return bad(fmt.Sprintf(`bad tag %s: only \" and \\ may follow a backslash`, k))
			}
			v = append(v, c)
			continue
		case c < 0x20 || c == 0x7f:
			return bad(fmt.Sprintf("bad tag %s: control character %q in the value", k, c))
		default:
			v = append(v, c)
			continue
		}
		break
	}
	l.blanks()
	if c, ok := l.get(); !ok || c != ']' {
		return bad(fmt.Sprintf("bad tag %s: missing ] after the value", k))
	}
	return token{kind: tokTag, line: line, key: k, text: string(v)}, nil
}

// blanks skips spaces and tabs within a line.
func (l *lexer) blanks() {
	for {
		c, ok := l.peek()
		if !ok || c != ' ' && c != '\t' {
			return
		}
		l.get()
	}
}

// braceComment reads a comment after its '{'.
func (l *lexer) braceComment(line int) (token, error) {
	var b []byte
	for {
		c, ok := l.get()
		if !ok {
			if l.err != nil {
				return token{}, l.err
			}
			return token{}, &syntaxError{line, "unterminated comment: { without }"}
		}
		if c == '}' {
			return token{kind: tokComment, line: line, text: normalizeComment(string(b))}, nil
		}
		b = append(b, c)
	}
}

// normalizeComment joins the words of a comment with single spaces: the
// writer breaks lines between words, so only the words are kept.
func normalizeComment(s string) string { return strings.Join(strings.Fields(s), " ") }

// WritePGN writes recs to w in the PGN-style format, each game followed by
// an empty line. The output depends on nothing but recs.
func WritePGN(w io.Writer, recs ...Record) error {
	e := NewEncoder(w)
	for i := range recs {
		if err := e.Encode(&recs[i]); err != nil {
			return err
		}
	}
	return nil
}

// Encoder writes games one at a time to a stream.
type Encoder struct {
	w     io.Writer
	games int
}

// NewEncoder returns an encoder that writes to w.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{w: w} }

// Encode writes rec. It first replays the record (Record.Game), so it
// never writes a game that cannot be read back, and fails for tags or
// comments the format cannot hold.
func (e *Encoder) Encode(rec *Record) error {
	e.games++
	b, err := appendPGN(nil, rec)
	if err != nil {
		var re *Error
		if !errors.As(err, &re) {
			re = &Error{Err: err}
			re.setNames(rec.Tags)
		}
		re.Game = e.games
		return re
	}
	_, err = e.w.Write(b)
	return err
}

func appendPGN(b []byte, rec *Record) ([]byte, error) {
	if _, err := rec.Game(); err != nil {
		return nil, err
	}
	g := rec.Start.Geometry()
	seen := map[string]bool{}
	for _, t := range rec.Tags {
		if err := checkTag(t.Key, t.Value); err != nil {
			return nil, err
		}
		if derived(t.Key) {
			return nil, fmt.Errorf("tag %s in Tags: it follows from the fields of Record", t.Key)
		}
		if seen[t.Key] {
			return nil, fmt.Errorf("duplicate tag %s", t.Key)
		}
		seen[t.Key] = true
	}
	for i, c := range append([]string{rec.Comment}, rec.Comments...) {
		if strings.Contains(c, "}") {
			where := "before the first move"
			if i > 0 {
				where = "after move " + notation.MoveNumber(rec.Start.Side(), i-1)
			}
			return nil, fmt.Errorf("the comment %s contains }, which would end it", where)
		}
	}

	for _, k := range roster {
		b = appendTag(b, k, rec.Tag(k))
	}
	b = appendTag(b, "Size", rec.Tag("Size"))
	if !isStart(&rec.Start) {
		b = appendTag(b, "SetUp", "1")
		b = appendTag(b, "Position", rec.Tag("Position"))
	}
	for _, t := range rec.Tags {
		if rosterIndex(t.Key) < 0 {
			b = appendTag(b, t.Key, t.Value)
		}
	}
	b = append(b, '\n')

	var lw lineWriter
	afterComment := false
	writeComment := func(c string) {
		words := strings.Fields(c)
		if len(words) == 0 {
			return
		}
		words[0] = "{" + words[0]
		words[len(words)-1] += "}"
		for _, w := range words {
			lw.add(w)
		}
		afterComment = true
	}
	writeComment(rec.Comment)
	side := rec.Start.Side()
	var buf []byte
	for i, m := range rec.Moves {
		// A move number stays on the line of its move.
		buf = buf[:0]
		n := notation.MoveNumber(side, i)
		switch {
		case !strings.HasSuffix(n, "..."):
			buf = append(append(buf, n...), ". "...)
		case i == 0 || afterComment:
			buf = append(append(buf, n...), ' ')
		}
		afterComment = false
		buf = m.AppendText(buf, g)
		lw.add(string(buf))
		if i < len(rec.Comments) {
			writeComment(rec.Comments[i])
		}
	}
	lw.add(rec.Result.String())
	b = append(b, lw.buf.Bytes()...)
	return append(b, "\n\n"...), nil
}

// appendTag appends one tag pair line, escaping the value.
func appendTag(b []byte, key, value string) []byte {
	b = append(b, '[')
	b = append(b, key...)
	b = append(b, ' ', '"')
	for i := 0; i < len(value); i++ {
		if c := value[i]; c == '"' || c == '\\' {
			b = append(b, '\\')
		}
		b = append(b, value[i])
	}
	return append(b, '"', ']', '\n')
}

// lineWriter joins tokens with spaces, starting a new line where the next
// token would pass maxLine. A token longer than a line gets a line of its
// own.
type lineWriter struct {
	buf bytes.Buffer
	col int
}

func (lw *lineWriter) add(tok string) {
	switch {
	case lw.col == 0:
	case lw.col+1+len(tok) > maxLine:
		lw.buf.WriteByte('\n')
		lw.col = 0
	default:
		lw.buf.WriteByte(' ')
		lw.col++
	}
	lw.buf.WriteString(tok)
	lw.col += len(tok)
}
