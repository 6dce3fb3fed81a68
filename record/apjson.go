package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"emergo/notation"
	"emergo/rules"
)

// The Abstract Play game record (APGameRecord, schema 1-0-0), as described
// in docs/records.md. Its Emergo moves are our notation, so moves convert
// one for one; the header maps to tags:
//
//	header.event, header.round       Event, Round
//	header.site.name, .gameid        Site, GameID
//	header.date-start                Date (its day, UTC) and StartTime
//	header.date-end                  EndTime
//	players[0], players[1]           White, Black; their userid, is_ai and
//	                                 result give WhiteUserID, WhiteType
//	                                 ("program" or "human") and Result
//	header.game.variants ["7x7"]     Size 7 (our convention)
//	header.startingPosition          SetUp and Position

// apRecord is the part of the schema this package reads and writes.
type apRecord struct {
	Header apHeader            `json:"header"`
	Moves  [][]json.RawMessage `json:"moves"`
}

type apHeader struct {
	Game          apGame     `json:"game"`
	Event         *string    `json:"event,omitempty"`
	Round         *string    `json:"round,omitempty"`
	Site          apSite     `json:"site"`
	DateStart     string     `json:"date-start,omitempty"`
	DateEnd       string     `json:"date-end,omitempty"`
	DateGenerated string     `json:"date-generated,omitempty"`
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

// ReadAPJSON reads an Abstract Play game record. Like ReadPGN it replays
// every move, and it checks the players' results against the board.
// Header fields it does not map (see docs/records.md) are dropped.
func ReadAPJSON(data []byte) (Record, error) {
	var ap apRecord
	if err := json.Unmarshal(data, &ap); err != nil {
		return Record{}, fmt.Errorf("record: not an Abstract Play game record: %w", err)
	}
	h := &ap.Header
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

	if len(h.Players) != 2 {
		return fail(fmt.Errorf("the record has %d players; Emergo has 2", len(h.Players)))
	}
	set("White", h.Players[0].Name)
	set("Black", h.Players[1].Name)
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
	if h.DateStart != "" {
		t, err := time.Parse(time.RFC3339, h.DateStart)
		if err != nil {
			return fail(fmt.Errorf("date-start %q is not an RFC 3339 date-time", h.DateStart))
		}
		set("Date", t.UTC().Format("2006.01.02"))
		set("StartTime", h.DateStart)
	}
	if h.DateEnd != "" {
		if _, err := time.Parse(time.RFC3339, h.DateEnd); err != nil {
			return fail(fmt.Errorf("date-end %q is not an RFC 3339 date-time", h.DateEnd))
		}
		set("EndTime", h.DateEnd)
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
			return fail(errors.New(strings.TrimPrefix(err.Error(), "record: ")))
		}
	}

	var res rules.Result
	switch w, b := h.Players[0].Result, h.Players[1].Result; {
	case w == nil && b == nil:
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
	start := rules.NewPosition(g)
	if h.Position != "" {
		p, err := notation.ParsePosition(h.Position)
		if err != nil {
			return fail(fmt.Errorf("startingPosition: %s", strings.TrimPrefix(err.Error(), "notation: ")))
		}
		if p.Geometry() != g {
			return fail(fmt.Errorf("startingPosition is for %dx%d, the variants for %dx%d", p.Geometry().N, p.Geometry().N, g.N, g.N))
		}
		start = p
	}

	gm := rules.NewGameFrom(start)
	side := start.Side()
	ended := false // a null was met: only nulls may follow
	for r, round := range ap.Moves {
		if len(round) > 2 {
			return fail(fmt.Errorf("round %d has %d entries; Emergo has 2 players", r+1, len(round)))
		}
		for seat := rules.White; seat <= rules.Black; seat++ {
			var raw json.RawMessage
			if int(seat) < len(round) {
				raw = bytes.TrimSpace(round[seat])
			}
			number := moveNumber(rules.White, 2*r+int(seat))
			text, null, err := apMove(raw)
			if err != nil {
				return fail(&Error{Move: number, Err: err})
			}
			switch {
			case null && r == 0 && seat == rules.White && side == rules.Black:
				// The start position has Black to move.
				continue
			case null:
				ended = true
				continue
			case ended:
				return fail(&Error{Move: number, Err: &notation.MoveError{Text: text, Reason: "a move after a null entry: in Emergo the players take turns, so a missing move can only end the record"}})
			case r == 0 && seat == rules.White && side == rules.Black:
				return fail(&Error{Move: number, Err: &notation.MoveError{Text: text, Reason: "Black is to move in the starting position, so White's first entry must be null"}})
			}
			if o := gm.Outcome(); o.Over() {
				return fail(&Error{Move: number, Err: &notation.MoveError{Text: text, Reason: "the game is already over: " + o.String()}})
			}
			p := gm.Position()
			m, err := notation.ParseMove(&p, text)
			if err != nil {
				return fail(&Error{Move: number, Err: err})
			}
			if err := gm.Play(m); err != nil {
				return fail(&Error{Move: number, Err: &notation.MoveError{Text: text, Reason: err.Error()}})
			}
		}
	}
	if err := checkResult(res, gm.Outcome()); err != nil {
		return fail(err)
	}
	if o := gm.Outcome(); o.Over() {
		set("Termination", o.Reason.String())
	} else if res == rules.Ongoing {
		set("Termination", Unterminated)
	}
	return Record{
		Tags:   normalizeTags(tags),
		Start:  start,
		Moves:  append([]rules.Move(nil), gm.Moves()...),
		Result: res,
	}, nil
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

// WriteAPJSON writes rec as an Abstract Play game record. Comments are
// not kept: the schema has no place for them. A game still going on gets
// no player results, and a record with unknown dates no date fields; the
// schema requires both, so such records are for this package's own use.
func WriteAPJSON(rec Record) ([]byte, error) {
	fail := func(err error) ([]byte, error) {
		e := &Error{Err: err}
		e.setNames(rec.Tags)
		return nil, e
	}
	if _, err := rec.Game(); err != nil {
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
		b, err := json.Marshal(id)
		if err != nil {
			return fail(err)
		}
		h.Site.GameID = b
	}
	start, ok := lookup(rec.Tags, "StartTime")
	if !ok {
		if t, err := time.Parse("2006.01.02", rec.Tag("Date")); err == nil {
			start = t.Format(time.RFC3339)
		}
	}
	end, _ := lookup(rec.Tags, "EndTime")
	for _, d := range []string{start, end} {
		if _, err := time.Parse(time.RFC3339, d); d != "" && err != nil {
			return fail(fmt.Errorf("%q is not an RFC 3339 date-time", d))
		}
	}
	h.DateStart, h.DateEnd = start, end
	// The record's own date of generation would make the output differ
	// from run to run; the end of the game stands in for it.
	h.DateGenerated = or(end, start)

	for i := range h.Players {
		c := rules.Color(i).String()
		p := &h.Players[i]
		p.Name = rec.Tag(c)
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
	switch rec.Result {
	case rules.WhiteWins:
		h.Players[0].Result, h.Players[1].Result = ptr(1.0), ptr(0.0)
	case rules.BlackWins:
		h.Players[0].Result, h.Players[1].Result = ptr(0.0), ptr(1.0)
	case rules.Draw:
		h.Players[0].Result, h.Players[1].Result = ptr(1.0), ptr(1.0)
	}

	var b bytes.Buffer
	b.WriteString("{\n  \"header\": ")
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("  ", "  ")
	if err := enc.Encode(h); err != nil {
		return fail(err)
	}
	b.Truncate(b.Len() - 1) // Encode ends with a newline
	b.WriteString(",\n  \"moves\": [")
	// One round per line: White's move, then Black's.
	entries := make([]string, 0, len(rec.Moves)+1)
	if rec.Start.Side() == rules.Black {
		entries = append(entries, "null")
	}
	for _, m := range rec.Moves {
		entries = append(entries, `"`+m.Text(g)+`"`)
	}
	for i := 0; i < len(entries); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    [" + strings.Join(entries[i:min(i+2, len(entries))], ", ") + "]")
	}
	if len(entries) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	return b.Bytes(), nil
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
