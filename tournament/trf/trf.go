// Package trf reads and writes tournament files in FIDE's TRF-16 format
// (Tournament Report File, the format of FIDE's rating software and of
// the pairing programs): a line per player with his results round by
// round, the tournament's data in numbered lines, and the two lines the
// pairing programs add, XXR (the number of rounds) and XXC (the first
// player's colour in round 1).
//
// Reading is lenient where the programs differ: lines end with CR, LF or
// CRLF, and lines of codes it does not know (092, a program's own tags)
// are kept as they are but otherwise ignored. Writing puts every field in
// the column the format gives it, so that the programs read it back.
package trf

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Result codes of a round, the character in the result column.
const (
	Win            = '1' // a game won
	Loss           = '0' // a game lost
	Draw           = '=' // a game drawn
	ForfeitWin     = '+' // a win by forfeit (the opponent did not come)
	ForfeitLoss    = '-' // a loss by forfeit; against 0000, an absence scored zero
	UnratedWin     = 'W' // a game won, not rated
	UnratedDraw    = 'D' // a game drawn, not rated
	UnratedLoss    = 'L' // a game lost, not rated
	HalfPointBye   = 'H' // a half-point bye (asked for)
	FullPointBye   = 'F' // a full-point bye (asked for)
	PairingBye     = 'U' // the pairing-allocated bye
	ZeroPointBye   = 'Z' // a zero-point bye (asked for, or absent)
	NotPlayed      = ' ' // nothing yet
	colourNone     = '-'
	resultColumn0  = 91 // the first column of round 1's opponent, counted from 0
	resultWidth    = 10
	playerFieldEnd = 89
)

// Colour is the colour a player had in a round: 'w', 'b', or '-' for
// none (a bye, an absence).
type Colour byte

// The colours of a round's result.
const (
	White    Colour = 'w'
	Black    Colour = 'b'
	NoColour Colour = '-'
)

// Round is one round of a player's line: the opponent's start number (0
// for none), the colour and the result code.
type Round struct {
	Opponent int
	Colour   Colour
	Result   byte
}

// Played reports whether the game was played over the board: an opponent,
// a colour and a result that is not a forfeit.
func (r Round) Played() bool {
	if r.Opponent == 0 || r.Colour == NoColour {
		return false
	}
	switch r.Result {
	case Win, Loss, Draw, UnratedWin, UnratedDraw, UnratedLoss:
		return true
	}
	return false
}

// Points returns the points the round gave, in half-points: 2 for a win
// of any kind and full-point byes (the pairing-allocated bye among them),
// 1 for a draw or a half-point bye, 0 otherwise. Tournaments with other
// point values (XXS) score the rounds themselves.
func (r Round) Points() int {
	switch r.Result {
	case Win, ForfeitWin, UnratedWin, FullPointBye, PairingBye:
		return 2
	case Draw, UnratedDraw, HalfPointBye:
		return 1
	}
	return 0
}

// Player is a player's line (code 001).
type Player struct {
	ID         int    // the start number
	Sex        byte   // 'm', 'w' or ' '
	Title      string // GM, IM, WGM...: up to 3 characters
	Name       string // "Surname, Given"
	Rating     int    // 0 for none
	Federation string
	FideID     string
	Birth      string // YYYY/MM/DD or the part of it known
	Points     int    // in half-points, as written in the file
	Rank       int
	Rounds     []Round // round 1 first; a round with Result ' ' is not yet played
}

// Tournament is a TRF-16 file.
type Tournament struct {
	// Header holds the tournament's numbered lines (012 name, 022 city,
	// 042 start date, 092 type, 132 the rounds' dates and any code the
	// package does not read) in their order, written back as they came.
	Header []string
	// Rounds is the number of rounds (XXR), 0 when the file does not say.
	Rounds int
	// FirstColour is the colour of the first player in round 1 (XXC),
	// NoColour when the file does not say (FirstColourOf reads it from
	// the results).
	FirstColour Colour
	Players     []Player
}

// Read reads a TRF-16 file.
func Read(r io.Reader) (*Tournament, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("trf: %w", err)
	}
	t := &Tournament{FirstColour: NoColour}
	for n, line := range splitLines(data) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		code := line
		if len(code) > 3 {
			code = code[:3]
		}
		switch code {
		case "001":
			p, err := readPlayer(line)
			if err != nil {
				return nil, fmt.Errorf("trf: line %d: %w", n+1, err)
			}
			t.Players = append(t.Players, p)
		case "XXR":
			v, err := strconv.Atoi(strings.TrimSpace(line[3:]))
			if err != nil || v < 1 {
				return nil, fmt.Errorf("trf: line %d: XXR %q is not a number of rounds", n+1, strings.TrimSpace(line[3:]))
			}
			t.Rounds = v
		case "XXC":
			for _, w := range strings.Fields(line[3:]) {
				switch strings.ToLower(w) {
				case "white1":
					t.FirstColour = White
				case "black1":
					t.FirstColour = Black
				}
			}
		default:
			t.Header = append(t.Header, line)
		}
	}
	if err := t.check(); err != nil {
		return nil, err
	}
	return t, nil
}

// splitLines splits data at CR, LF and CRLF.
func splitLines(data []byte) []string {
	var lines []string
	for len(data) > 0 {
		i := bytes.IndexAny(data, "\r\n")
		if i < 0 {
			lines = append(lines, string(data))
			break
		}
		lines = append(lines, string(data[:i]))
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		data = data[i+1:]
	}
	return lines
}

// field returns columns from to to (counted from 1, inclusive) of line,
// trimmed; what the line does not reach is empty.
func field(line string, from, to int) string {
	if from > len(line) {
		return ""
	}
	return strings.TrimSpace(line[from-1 : min(to, len(line))])
}

func readPlayer(line string) (Player, error) {
	var p Player
	var err error
	if p.ID, err = strconv.Atoi(field(line, 5, 8)); err != nil || p.ID < 1 {
		return p, fmt.Errorf("start number %q is not a number", field(line, 5, 8))
	}
	if len(line) >= 10 {
		p.Sex = line[9]
	}
	p.Title = field(line, 11, 13)
	p.Name = field(line, 15, 47)
	if s := field(line, 49, 52); s != "" {
		if p.Rating, err = strconv.Atoi(s); err != nil {
			return p, fmt.Errorf("player %d: rating %q is not a number", p.ID, s)
		}
	}
	p.Federation = field(line, 54, 56)
	p.FideID = field(line, 58, 68)
	p.Birth = field(line, 70, 79)
	if s := field(line, 81, 84); s != "" {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return p, fmt.Errorf("player %d: points %q are not a number", p.ID, s)
		}
		p.Points = int(f*2 + 0.5)
	}
	if s := field(line, 86, 89); s != "" {
		if p.Rank, err = strconv.Atoi(s); err != nil {
			return p, fmt.Errorf("player %d: rank %q is not a number", p.ID, s)
		}
	}
	for i := 0; resultColumn0+i*resultWidth < len(line); i++ {
		at := resultColumn0 + i*resultWidth
		cell := line[at:min(at+8, len(line))]
		if strings.TrimSpace(cell) == "" {
			p.Rounds = append(p.Rounds, Round{Colour: NoColour, Result: NotPlayed})
			continue
		}
		cell += strings.Repeat(" ", 8-len(cell))
		r, err := readRound(cell)
		if err != nil {
			return p, fmt.Errorf("player %d, round %d: %w", p.ID, i+1, err)
		}
		p.Rounds = append(p.Rounds, r)
	}
	// Trailing rounds with nothing in them are not rounds of the file.
	for len(p.Rounds) > 0 && p.Rounds[len(p.Rounds)-1] == (Round{Colour: NoColour, Result: NotPlayed}) {
		p.Rounds = p.Rounds[:len(p.Rounds)-1]
	}
	return p, nil
}

// readRound reads "OOOO C R": the opponent, the colour, the result.
func readRound(cell string) (Round, error) {
	var r Round
	opp := strings.TrimSpace(cell[:4])
	if opp == "" {
		opp = "0"
	}
	v, err := strconv.Atoi(opp)
	if err != nil || v < 0 {
		return r, fmt.Errorf("opponent %q is not a start number", opp)
	}
	r.Opponent = v
	switch c := Colour(strings.ToLower(cell[5:6])[0]); c {
	case White, Black, NoColour:
		r.Colour = c
	case ' ':
		r.Colour = NoColour
	default:
		return r, fmt.Errorf("colour %q is not w, b or -", string(c))
	}
	res := cell[7]
	switch res {
	case Win, Loss, Draw, ForfeitWin, ForfeitLoss, UnratedWin, UnratedDraw, UnratedLoss,
		HalfPointBye, FullPointBye, PairingBye, ZeroPointBye, NotPlayed:
	case 'w', 'd', 'l', 'h', 'f', 'u', 'z':
		res -= 'a' - 'A'
	default:
		return r, fmt.Errorf("result %q is not a TRF result code", string(res))
	}
	r.Result = res
	if r.Opponent == 0 {
		r.Colour = NoColour
	}
	return r, nil
}

// check checks that the players' start numbers are distinct and that
// every game is told alike on both sides.
func (t *Tournament) check() error {
	byID := map[int]*Player{}
	for i := range t.Players {
		p := &t.Players[i]
		if byID[p.ID] != nil {
			return fmt.Errorf("trf: start number %d is on two lines", p.ID)
		}
		byID[p.ID] = p
	}
	for _, p := range t.Players {
		for i, r := range p.Rounds {
			if r.Opponent == 0 {
				continue
			}
			q := byID[r.Opponent]
			if q == nil {
				return fmt.Errorf("trf: player %d, round %d: opponent %d has no line", p.ID, i+1, r.Opponent)
			}
			if i >= len(q.Rounds) || q.Rounds[i].Opponent != p.ID {
				return fmt.Errorf("trf: player %d, round %d: opponent %d's line does not give this game", p.ID, i+1, r.Opponent)
			}
		}
	}
	return nil
}

// Player returns the player of start number id, or nil.
func (t *Tournament) Player(id int) *Player {
	for i := range t.Players {
		if t.Players[i].ID == id {
			return &t.Players[i]
		}
	}
	return nil
}

// Played returns the number of rounds of which the file holds a result:
// the longest player's line.
func (t *Tournament) Played() int {
	n := 0
	for _, p := range t.Players {
		n = max(n, len(p.Rounds))
	}
	return n
}

// FirstColourOf returns the first player's colour in round 1: XXC's, or,
// without it, as the pairing programs infer it: in the first round in
// which anyone had a colour, the colour of the first player (by start
// number) paired in it or before, reversed once for each player paired
// before him who had no colour in it (a bye); White when no one has
// played yet.
func (t *Tournament) FirstColourOf() Colour {
	if t.FirstColour != NoColour {
		return t.FirstColour
	}
	players := append([]Player(nil), t.Players...)
	sort.Slice(players, func(i, j int) bool { return players[i].ID < players[j].ID })
	for round := 0; round < t.Played(); round++ {
		coloured := false
		for _, p := range players {
			coloured = coloured || round < len(p.Rounds) && p.Rounds[round].Colour != NoColour
		}
		if !coloured {
			continue
		}
		reversed := false
		for _, p := range players {
			paired := false
			for _, r := range p.Rounds[:min(round+1, len(p.Rounds))] {
				paired = paired || r.Opponent > 0 || r.Result == PairingBye
			}
			if !paired {
				continue
			}
			if round < len(p.Rounds) && p.Rounds[round].Colour != NoColour {
				c := p.Rounds[round].Colour
				if reversed {
					return c.Opposite()
				}
				return c
			}
			reversed = !reversed
		}
	}
	return White
}

// Opposite returns the other colour (NoColour for NoColour).
func (c Colour) Opposite() Colour {
	switch c {
	case White:
		return Black
	case Black:
		return White
	}
	return c
}

// Truncate returns a copy of t with the results of the first rounds rounds
// only, the players' points summed again from them: the tournament as it
// stood before round rounds+1.
func (t *Tournament) Truncate(rounds int) *Tournament {
	c := *t
	c.Header = append([]string(nil), t.Header...)
	c.Players = make([]Player, len(t.Players))
	for i, p := range t.Players {
		p.Rounds = append([]Round(nil), p.Rounds[:min(rounds, len(p.Rounds))]...)
		p.Points = 0
		for _, r := range p.Rounds {
			p.Points += r.Points()
		}
		c.Players[i] = p
	}
	return &c
}

// Write writes t in TRF-16, lines ended by CR LF as FIDE's rating
// software writes them; the header lines first, then the players in the
// order of t.Players, then XXR and XXC.
func (t *Tournament) Write(w io.Writer) error {
	b := bufio.NewWriter(w)
	for _, h := range t.Header {
		b.WriteString(h)
		b.WriteString("\r\n")
	}
	for _, p := range t.Players {
		b.WriteString(playerLine(p))
		b.WriteString("\r\n")
	}
	if t.Rounds > 0 {
		fmt.Fprintf(b, "XXR %d\r\n", t.Rounds)
	}
	switch t.FirstColour {
	case White:
		b.WriteString("XXC white1\r\n")
	case Black:
		b.WriteString("XXC black1\r\n")
	}
	return b.Flush()
}

// playerLine is p's 001 line, every field in its columns.
func playerLine(p Player) string {
	sex := p.Sex
	if sex == 0 {
		sex = ' '
	}
	rating := ""
	if p.Rating > 0 {
		rating = strconv.Itoa(p.Rating)
	}
	rank := ""
	if p.Rank > 0 {
		rank = strconv.Itoa(p.Rank)
	}
	line := fmt.Sprintf("001 %4d %c%3s %-33.33s %4s %-3.3s %11.11s %-10.10s %4s %4s",
		p.ID, sex, p.Title, p.Name, rating, p.Federation, p.FideID, p.Birth, points(p.Points), rank)
	var b strings.Builder
	b.WriteString(line)
	for _, r := range p.Rounds {
		b.WriteString("  ")
		if r.Result == NotPlayed && r.Opponent == 0 {
			b.WriteString("        ")
			continue
		}
		opp := "0000"
		if r.Opponent > 0 {
			opp = fmt.Sprintf("%4d", r.Opponent)
		}
		c := r.Colour
		if c == 0 {
			c = NoColour
		}
		fmt.Fprintf(&b, "%s %c %c", opp, c, r.Result)
	}
	return strings.TrimRight(b.String(), " ")
}

// points writes half-points as the format's points: "3.5", " 4.0".
func points(half int) string {
	return fmt.Sprintf("%d.%d", half/2, half%2*5)
}
