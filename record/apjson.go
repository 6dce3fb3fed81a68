package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"emergo/game"
	"emergo/notation"
	"emergo/rules"
)

// The Abstract Play game record (APGameRecord, schema 1-0-0), as described
// in docs/records.md. Its Emergo moves are our notation, so moves convert
// one for one; the header maps to tags:
//
//	header.event, header.round       Event, Round
//	header.site.name, .gameid        Site, GameID
//	header.date-start                Date (its day, UTC) and StartTime,
//	                                 but no StartTime for a day only
//	                                 (midnight UTC without a fraction)
//	header.date-end                  EndTime
//	players[0], players[1]           White, Black; their userid, is_ai and
//	                                 result give WhiteUserID, WhiteType
//	                                 ("program" or "human") and Result
//	header.game.variants ["7x7"]     Size 7 (our convention)
//	header.startingPosition          SetUp and Position
//	header.unfinished                Result * (our convention)
//	a last entry "resign",           Termination resignation, time
//	"timeout" or "draw"              forfeit or agreement

// apRecord is the part of the schema this package reads and writes. The
// moves are read a round at a time (playAPMoves), so that a record holds
// no more than a round's entries at once, however many rounds it has.
type apRecord struct {
	Header apHeader        `json:"header"`
	Moves  json.RawMessage `json:"moves"`
}

type apHeader struct {
	Game          apGame     `json:"game"`
	Event         *string    `json:"event,omitempty"`
	Round         *string    `json:"round,omitempty"`
	Site          apSite     `json:"site"`
	DateStart     string     `json:"date-start"`
	DateEnd       string     `json:"date-end"`
	DateGenerated string     `json:"date-generated"`
	Unrated       bool       `json:"unrated,omitempty"`
	Unfinished    bool       `json:"unfinished,omitempty"`
	Players       []apPlayer `json:"players"`
	Position      string     `json:"startingPosition,omitempty"`
}

type apGame struct {
	Name     string   `json:"name"`
	Variants []string `json:"variants"`
}

type apSite struct {
	Name   string          `json:"name"`
	GameID json.RawMessage `json:"gameid,omitempty"` // a string or a number
}

type apPlayer struct {
	Name   string   `json:"name"`
	UserID *string  `json:"userid,omitempty"`
	IsAI   *bool    `json:"is_ai,omitempty"`
	Result *float64 `json:"result,omitempty"`
}

// variant7x7 is how a 7x7 game is marked. The server knows only 9x9
// Emergo, so the name is this package's own convention.
const variant7x7 = "7x7"

// unknownDate stands for a date the record does not know, since the
// schema requires all three dates. A date-start at this instant is read
// as unknown.
const unknownDate = "1970-01-01T00:00:00Z"

// apEndings are the last entries with which the server ends a game off
// the board, and the Termination each gives.
var apEndings = map[string]game.Termination{
	"resign":  game.Resignation,
	"timeout": game.TimeForfeit,
	"draw":    game.Agreement,
}

// The warnings of APJSONWarnings.
var (
	ErrAPNo7x7      = errors.New(`record: Abstract Play has no 7x7 Emergo: it plays this game as 9x9 (the record marks it with the variant "7x7", our own convention)`)
	ErrAPUnfinished = errors.New("record: the game is not over, and Abstract Play archives finished games only: the record is written unrated, with equal results and \"unfinished\": true")
	ErrAPNoDate     = errors.New("record: the game's start is unknown, and Abstract Play requires its dates: they are written as " + unknownDate)
)

// APJSONWarnings returns what is lost when rec is written with
// WriteAPJSON for the Abstract Play server: ErrAPNo7x7 for a 7x7 game,
// ErrAPUnfinished for a game that is not over, ErrAPNoDate for a game
// without a known start. The record is written all the same, and reads
// back with this package as it was; the warnings are for the people who
// take it to the server.
func APJSONWarnings(rec Record) []error {
	var ws []error
	if rec.Start.Geometry() == rules.Geometry7 {
		ws = append(ws, ErrAPNo7x7)
	}
	if rec.Result == rules.Ongoing {
		ws = append(ws, ErrAPUnfinished)
	}
	if apStart(&rec) == unknownDate {
		ws = append(ws, ErrAPNoDate)
	}
	return ws
}

// ReadAPJSON reads one Abstract Play game record (a JSON object),
// strictly. Like ReadPGN it replays every move, and it checks the
// players' results against the board. Header fields it does not map (see
// docs/records.md) are dropped. ReadAll reads arrays of records too.
func ReadAPJSON(data []byte) (Record, error) {
	text, err := decodeText(data)
	if err != nil {
		return Record{}, err
	}
	return ReadOptions{}.readAPJSON(text)
}

// readAPJSONArray reads an array of records: the games of a file, or
// the first o.MaxGames. The records are taken one at a time, so that only
// the games read are held.
func (o ReadOptions) readAPJSONArray(data []byte) ([]Record, error) {
	notArray := func(err error) error {
		return &Error{Err: fmt.Errorf("not an array of Abstract Play game records: %w", err)}
	}
	if !json.Valid(data) {
		var raws []json.RawMessage
		return nil, notArray(json.Unmarshal(data, &raws)) // its error says where
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // the array's [
		return nil, notArray(err)
	}
	var recs []Record
	for i := 0; dec.More() && (o.MaxGames <= 0 || i < o.MaxGames); i++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return recs, notArray(err)
		}
		rec, err := o.readAPJSON(raw)
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				e.Game = i + 1
			}
			return recs, err
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

func (o ReadOptions) readAPJSON(data []byte) (Record, error) {
	var tags []Tag
	set := func(k, v string) { tags = append(tags, Tag{k, v}) }
	fail := func(err error) (Record, error) {
		e, ok := err.(*Error)
		if !ok {
			e = &Error{Err: err}
		}
		e.setNames(tags)
		return Record{}, e
	}
	var ap apRecord
	if err := json.Unmarshal(data, &ap); err != nil {
		return fail(fmt.Errorf("not an Abstract Play game record: %w", err))
	}
	h := &ap.Header

	if len(h.Players) != 2 {
		return fail(fmt.Errorf("the record has %d players; Emergo has 2", len(h.Players)))
	}
	white, black := readAPNames(h.Players[0].Name, h.Players[1].Name)
	set("White", white)
	set("Black", black)
	if !strings.EqualFold(h.Game.Name, "Emergo") {
		return fail(fmt.Errorf("the record is of the game %q, not Emergo", h.Game.Name))
	}
	if h.Event != nil {
		set("Event", *h.Event)
	}
	if h.Round != nil {
		set("Round", *h.Round)
	}
	set("Site", h.Site.Name)
	var start time.Time
	if h.DateStart != "" {
		t, ok := parseDateTime(h.DateStart)
		if !ok {
			return fail(fmt.Errorf("date-start %q is not an RFC 3339 date-time", h.DateStart))
		}
		if !t.Equal(time.Unix(0, 0)) { // unknownDate
			set("Date", t.UTC().Format("2006.01.02"))
			if !dayOnly(h.DateStart) {
				set("StartTime", h.DateStart)
			}
		}
		start = t
	}
	if h.DateEnd != "" {
		t, ok := parseDateTime(h.DateEnd)
		if !ok {
			return fail(fmt.Errorf("date-end %q is not an RFC 3339 date-time", h.DateEnd))
		}
		// The writer gives an unknown end the start's date.
		if !t.Equal(start) {
			set("EndTime", h.DateEnd)
		}
	}
	if id := bytes.TrimSpace(h.Site.GameID); len(id) > 0 && string(id) != "null" {
		var s string
		if json.Unmarshal(id, &s) != nil {
			var n json.Number
			if json.Unmarshal(id, &n) != nil {
				return fail(fmt.Errorf("site.gameid %s is neither a string nor a number", id))
			}
			s = n.String()
		}
		set("GameID", s)
	}
	for i, p := range h.Players {
		c := rules.Color(i).String()
		if p.UserID != nil {
			set(c+"UserID", *p.UserID)
		}
		if p.IsAI != nil {
			set(c+"Type", map[bool]string{true: "program", false: "human"}[*p.IsAI])
		}
	}
	for _, t := range tags {
		if err := checkTag(t.Key, t.Value); err != nil {
			return fail(err)
		}
	}

	var res rules.Result
	switch w, b := h.Players[0].Result, h.Players[1].Result; {
	case h.Unfinished || w == nil && b == nil:
		res = rules.Ongoing
	case w == nil || b == nil:
		return fail(errors.New("only one player has a result"))
	case *w > *b:
		res = rules.WhiteWins
	case *w < *b:
		res = rules.BlackWins
	default:
		res = rules.Draw
	}

	g := rules.Geometry9
	for _, v := range h.Game.Variants {
		if v != variant7x7 {
			return fail(fmt.Errorf("unknown variant %q (only %q is known)", v, variant7x7))
		}
		g = rules.Geometry7
	}
	startPos := rules.NewPosition(g)
	if h.Position != "" {
		p, err := notation.ParsePosition(h.Position)
		if err != nil {
			return fail(positionError("startingPosition", err))
		}
		if p.Geometry() != g {
			return fail(fmt.Errorf("startingPosition is for %dx%d, the variants for %dx%d", p.Geometry().N, p.Geometry().N, g.N, g.N))
		}
		startPos = p
	}

	l := newLine(startPos, o.Lenient)
	l.max = o.MaxPlies
	last, endSeat, err := playAPMoves(l, ap.Moves)
	if err != nil {
		return fail(err)
	}
	term, offBoard := apEndings[last]
	switch {
	case !offBoard:
	case h.Unfinished:
		return fail(fmt.Errorf("the record is marked unfinished but ends with %q", last))
	case res == rules.Ongoing && term == game.Agreement:
		res = rules.Draw
	case res == rules.Ongoing:
		// Without results, the player whose entry it is resigned or ran
		// out of time. The results decide otherwise: the server lets a
		// player resign on the opponent's turn, and writes the entry in
		// the seat of the player to move.
		res = rules.WhiteWins
		if endSeat == rules.White {
			res = rules.BlackWins
		}
	case term == game.Agreement && res != rules.Draw:
		return fail(fmt.Errorf("the record ends with %q (agreement), but the players' results give %s", last, res))
	case term != game.Agreement && res == rules.Draw:
		return fail(fmt.Errorf("the record ends with %q, but the players' results are equal (a draw)", last))
	}
	end, err := l.finish(res)
	if err != nil {
		return fail(err)
	}
	switch o := l.gm.Outcome(); {
	case offBoard:
		set("Termination", term.String())
	case o.Over() && end == "":
		set("Termination", game.EndingOf(o).Termination.String())
	case res == rules.Ongoing:
		set("Termination", game.Unterminated.String())
	}
	if end != "" {
		set(RulesEnd, end)
	}
	return Record{
		Tags:   normalizeTags(tags),
		Start:  startPos,
		Moves:  l.moves(),
		Result: res,
	}, nil
}

// playAPMoves plays the rounds of a record, the JSON array moves. It
// returns the entry that ends the record, "null" or an ending off the
// board ("resign", "timeout", "draw"), or "" for none, and the seat of
// the ending. Past l's limit (a *TooLongError) it counts the entries that
// are moves without playing them.
func playAPMoves(l *line, moves json.RawMessage) (last string, endSeat rules.Color, err error) {
	start := l.gm.Start()
	side := start.Side()
	var tooLong *TooLongError
	err = eachRound(moves, func(r int, round []json.RawMessage) error {
		if len(round) > 2 {
			return fmt.Errorf("round %d has %d entries; Emergo has 2 players", r+1, len(round))
		}
		for seat := rules.White; seat <= rules.Black; seat++ {
			var raw json.RawMessage
			if int(seat) < len(round) {
				raw = bytes.TrimSpace(round[seat])
			}
			number := notation.MoveNumber(rules.White, 2*r+int(seat))
			failMove := func(err error) error { return &Error{Move: number, Err: err} }
			text, null, err := apMove(raw)
			if err != nil {
				return failMove(err)
			}
			if tooLong != nil {
				if _, ending := apEndings[text]; !null && !ending {
					tooLong.Plies++
				}
				continue
			}
			switch {
			case null && r == 0 && seat == rules.White && side == rules.Black:
				// The start position has Black to move.
				continue
			case null:
				if last == "" {
					last = "null"
				}
				continue
			case last == "null":
				return failMove(&notation.MoveError{Text: text, Err: errors.New("a move after a null entry: in Emergo the players take turns, so a missing move can only end the record")})
			case last != "":
				return failMove(&notation.MoveError{Text: text, Err: fmt.Errorf("an entry after %q, which ends the game", last)})
			case r == 0 && seat == rules.White && side == rules.Black:
				return failMove(&notation.MoveError{Text: text, Err: fmt.Errorf("%s is to move in the starting position, so %s's first entry must be null", rules.Black, rules.White)})
			}
			if text == "abandoned" {
				return failMove(&notation.MoveError{Text: text, Err: errors.New("the server ended this game as abandoned, which has no result here (RULES 6.4: resignation, time forfeit, agreement or adjudication)")})
			}
			if _, ok := apEndings[text]; ok {
				if err := l.offBoard(text); err != nil {
					return failMove(err)
				}
				last, endSeat = text, seat
				continue
			}
			if err := l.play(text); err != nil {
				if errors.As(err, &tooLong) {
					continue
				}
				return failMove(err)
			}
		}
		return nil
	})
	switch {
	case err != nil:
		return "", 0, err
	case tooLong != nil:
		return "", 0, tooLong
	}
	return last, endSeat, nil
}

// eachRound calls f with each round of the JSON array moves in turn,
// from 0, until f fails. The rounds are decoded one at a time: what the
// record holds at once is one round. A null array has no rounds, and a
// null round no entries.
func eachRound(moves json.RawMessage, f func(r int, round []json.RawMessage) error) error {
	moves = bytes.TrimSpace(moves)
	if len(moves) == 0 || string(moves) == "null" {
		return nil
	}
	notRounds := errors.New("moves is not an array of rounds (arrays of entries)")
	dec := json.NewDecoder(bytes.NewReader(moves))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return notRounds
	}
	var round []json.RawMessage
	for r := 0; dec.More(); r++ {
		round = round[:0]
		if err := dec.Decode(&round); err != nil {
			return notRounds
		}
		if err := f(r, round); err != nil {
			return err
		}
	}
	return nil
}

// apMove reads one entry of a round: a move string, null, or an object
// whose "move" field is the move.
func apMove(raw json.RawMessage) (text string, null bool, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", true, nil
	}
	if raw[0] == '{' {
		var obj struct {
			Move *string `json:"move"`
		}
		if err := json.Unmarshal(raw, &obj); err != nil || obj.Move == nil {
			return "", false, errors.New(`an object entry needs a "move" string`)
		}
		return *obj.Move, false, nil
	}
	if err := json.Unmarshal(raw, &text); err != nil {
		return "", false, fmt.Errorf("entry %s is neither a move string, null nor an object", raw)
	}
	return text, false, nil
}

// dateTimeRE is the date-time of RFC 3339 as JSON Schema's format
// "date-time" takes it. time.Parse alone also takes a comma before the
// fraction and offsets of 24 hours and more.
var dateTimeRE = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$`)

// parseDateTime parses an RFC 3339 date-time.
func parseDateTime(s string) (time.Time, bool) {
	if !dateTimeRE.MatchString(s) {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, s)
	return t, err == nil
}

// apStart returns the date-start written for rec: StartTime, else the
// Date tag's day if it is complete, else unknownDate. A StartTime that
// reads as a day only (dayOnly) is written with a fraction of a second,
// so that it is not taken for one.
func apStart(rec *Record) string {
	if s, ok := lookup(rec.Tags, "StartTime"); ok {
		if dayOnly(s) {
			return strings.TrimSuffix(s, "Z") + ".000Z"
		}
		return s
	}
	if t, err := time.Parse("2006.01.02", rec.Tag("Date")); err == nil {
		return t.Format(time.RFC3339)
	}
	return unknownDate
}

// dayOnly reports whether a date-start is the writer's form of a day
// without a time: midnight UTC, written without a fraction. The reader
// keeps its day as Date and no StartTime, which would be an invented
// time. The Abstract Play server writes its times with milliseconds
// (JavaScript's toISOString), so a start of its at midnight keeps its
// time.
func dayOnly(s string) bool {
	return len(s) == len("2006-01-02T00:00:00Z") && strings.HasSuffix(s, "T00:00:00Z")
}

// The schema wants the two players to differ, and a site shows players by
// name: equal names, an unknown one ("?" or empty) included, are written
// with their seats, "alice (White)" and "alice (Black)", and read back
// without them.
const (
	unknownName = "?"
	seatFormat  = "%s (%s)"
)

func writeAPNames(white, black string) (string, string) {
	white, black = or(white, unknownName), or(black, unknownName)
	if white != black {
		return white, black
	}
	return fmt.Sprintf(seatFormat, white, rules.White), fmt.Sprintf(seatFormat, black, rules.Black)
}

func readAPNames(white, black string) (string, string) {
	white, black = or(white, unknownName), or(black, unknownName)
	w, okw := strings.CutSuffix(white, fmt.Sprintf(seatFormat, "", rules.White))
	b, okb := strings.CutSuffix(black, fmt.Sprintf(seatFormat, "", rules.Black))
	if okw && okb && w == b {
		return w, b
	}
	return white, black
}

// WriteAPJSON writes rec as an Abstract Play game record that the schema
// accepts. Comments are not kept: the schema has no place for them. The
// schema requires what a record may not know, so the writer fills it in
// with values its reader takes back as unknown (docs/records.md): a game
// not over is marked "unfinished" and unrated, with equal results; an
// unknown end is the start, an unknown start 1970-01-01T00:00:00Z; equal
// or unknown names get their seats. APJSONWarnings says what the server
// would make of such a record.
func WriteAPJSON(rec Record) ([]byte, error) { return appendAPJSON(nil, &rec, "") }

// appendAPJSONAll appends one record as an object and any other number
// as an array.
func appendAPJSONAll(b []byte, recs []Record) ([]byte, error) {
	if len(recs) == 1 {
		return appendAPJSON(b, &recs[0], "")
	}
	b = append(b, '[')
	for i := range recs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n  "...)
		var err error
		if b, err = appendAPJSON(b, &recs[i], "  "); err != nil {
			var e *Error
			if errors.As(err, &e) {
				e.Game = i + 1
			}
			return nil, err
		}
		b = b[:len(b)-1] // the newline after the object
	}
	if len(recs) > 0 {
		b = append(b, '\n')
	}
	return append(b, "]\n"...), nil
}

// appendAPJSON appends rec as one JSON object, each line after the first
// indented by indent, and a newline.
func appendAPJSON(b []byte, rec *Record, indent string) ([]byte, error) {
	fail := func(err error) ([]byte, error) {
		e := &Error{Err: err}
		e.setNames(rec.Tags)
		return nil, e
	}
	gm, err := rec.Game()
	if err != nil {
		return nil, err
	}
	g := rec.Start.Geometry()
	h := apHeader{
		Game:    apGame{Name: "Emergo", Variants: []string{}},
		Site:    apSite{Name: rec.Tag("Site")},
		Players: make([]apPlayer, 2),
	}
	if g == rules.Geometry7 {
		h.Game.Variants = append(h.Game.Variants, variant7x7)
	}
	if !isStart(&rec.Start) {
		h.Position = notation.FormatPosition(&rec.Start)
	}
	// The schema has event and round together or not at all.
	if ev, rd := rec.Tag("Event"), rec.Tag("Round"); ev != "?" || rd != "?" {
		h.Event, h.Round = &ev, &rd
	}
	if id, ok := lookup(rec.Tags, "GameID"); ok {
		js, err := json.Marshal(id)
		if err != nil {
			return fail(err)
		}
		h.Site.GameID = js
	}
	start := apStart(rec)
	end, ok := lookup(rec.Tags, "EndTime")
	if !ok {
		end = start
	}
	for _, d := range []string{start, end} {
		if _, ok := parseDateTime(d); !ok {
			return fail(fmt.Errorf("%q is not an RFC 3339 date-time", d))
		}
	}
	// The record's own date of generation would make the output differ
	// from run to run; the end of the game stands in for it.
	h.DateStart, h.DateEnd, h.DateGenerated = start, end, end

	names := [2]string{}
	names[0], names[1] = writeAPNames(rec.Tag("White"), rec.Tag("Black"))
	for i := range h.Players {
		c := rules.Color(i).String()
		p := &h.Players[i]
		p.Name = names[i]
		if id, ok := lookup(rec.Tags, c+"UserID"); ok {
			p.UserID = &id
		}
		switch rec.Tag(c + "Type") {
		case "program":
			p.IsAI = ptr(true)
		case "human":
			p.IsAI = ptr(false)
		}
	}
	results := map[rules.Result][2]float64{
		rules.WhiteWins: {1, 0},
		rules.BlackWins: {0, 1},
		rules.Draw:      {1, 1},
		rules.Ongoing:   {0, 0},
	}[rec.Result]
	h.Players[0].Result, h.Players[1].Result = &results[0], &results[1]
	if rec.Result == rules.Ongoing {
		h.Unfinished, h.Unrated = true, true
	}

	var buf bytes.Buffer
	buf.WriteString("{\n" + indent + "  \"header\": ")
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(indent+"  ", "  ")
	if err := enc.Encode(h); err != nil {
		return fail(err)
	}
	buf.Truncate(buf.Len() - 1) // Encode ends with a newline
	buf.WriteString(",\n" + indent + "  \"moves\": [")
	// One round per line: White's move, then Black's.
	entries := make([]string, 0, len(rec.Moves)+2)
	if rec.Start.Side() == rules.Black {
		entries = append(entries, "null")
	}
	for _, m := range rec.Moves {
		entries = append(entries, `"`+m.Text(g)+`"`)
	}
	if e := apEnding(rec, gm); e != "" {
		entries = append(entries, `"`+e+`"`)
	}
	for i := 0; i < len(entries); i += 2 {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString("\n" + indent + "    [" + strings.Join(entries[i:min(i+2, len(entries))], ", ") + "]")
	}
	if len(entries) > 0 {
		buf.WriteString("\n" + indent + "  ")
	}
	buf.WriteString("]\n" + indent + "}\n")
	return append(b, buf.Bytes()...), nil
}

// apEnding returns the entry that ends rec off the board ("resign",
// "timeout" or "draw"), or "". It is written when the Termination tag
// says so, the result fits it, and the board has not ended the game
// before (a record from a lenient read may go on after our end).
func apEnding(rec *Record, gm *rules.Game) string {
	if _, lenient := lookup(rec.Tags, RulesEnd); gm.Outcome().Over() && !lenient {
		return ""
	}
	e, err := game.ParseEnding(rec.Result, rec.Tag("Termination"))
	if err != nil {
		return ""
	}
	for entry, t := range apEndings {
		if t == e.Termination {
			return entry
		}
	}
	return ""
}

// lookup returns the value of a tag and whether the record has it.
func lookup(tags []Tag, key string) (string, bool) {
	for _, t := range tags {
		if t.Key == key {
			return t.Value, true
		}
	}
	return "", false
}

func ptr[T any](v T) *T { return &v }
