package game

import (
	"fmt"
	"time"

	"emergo/notation"
	"emergo/rules"
)

// State is a game in plain data, to keep it and to restore it: what
// State returns, Restore takes back. The moves are texts, so that a
// store may keep them as it likes.
type State struct {
	Start rules.Position
	Moves []string
	// Stamps are when each move was played with the clocks after it:
	// one per move, or none (every move then at TurnStart).
	Stamps []Stamp
	// Left is each side's time when the current turn began, at
	// TurnStart; Started whether the clock was on (started and not
	// paused).
	Left      [2]time.Duration
	TurnStart time.Time
	Started   bool
	Ending    Ending
	DrawOffer Offer
	TakeBack  Offer
}

// State returns the game in plain data.
func (g *Game) State() State {
	geo := g.board.Geometry()
	moves := make([]string, g.board.Len())
	for i, m := range g.board.Moves() {
		moves[i] = m.Text(geo)
	}
	stamps := g.Stamps()
	if g.lead == 0 { // shared
		stamps = append([]Stamp(nil), stamps...)
	}
	return State{
		Start:     g.board.Start(),
		Moves:     moves,
		Stamps:    stamps,
		Left:      g.clock.left,
		TurnStart: g.clock.since,
		Started:   g.clock.on,
		Ending:    g.ending,
		DrawOffer: g.drawOffer,
		TakeBack:  g.request,
	}
}

// Restore returns the game that s describes, with opts as the game had
// them. The moves are replayed by the rules: a move that cannot be played
// fails with a *notation.MovesError that gives its index. Where the board
// decides the game, the ending is the board's whatever s.Ending says; a
// game the board leaves open may not claim one of the board's endings.
func Restore(s State, opts Options) (*Game, error) {
	opts.check()
	if s.Start.Geometry() == nil {
		return nil, fmt.Errorf("game: no start position")
	}
	if err := s.Start.Validate(); err != nil {
		return nil, fmt.Errorf("game: start position: %w", err)
	}
	if len(s.Stamps) != 0 && len(s.Stamps) != len(s.Moves) {
		return nil, fmt.Errorf("game: %d stamps do not match %d moves", len(s.Stamps), len(s.Moves))
	}
	board := rules.NewGameFrom(s.Start)
	if err := notation.PlayMoves(board, s.Moves); err != nil {
		return nil, fmt.Errorf("game: %w", err)
	}
	if err := s.Ending.check(); err != nil {
		return nil, err
	}
	g := &Game{opts: opts, board: board, ending: s.Ending, drawOffer: s.DrawOffer, request: s.TakeBack}
	if o := board.Outcome(); o.Over() {
		g.ending = EndingOf(o)
	} else if s.Ending.Termination.OnBoard() {
		return nil, fmt.Errorf("game: the ending %s is the board's, but the board does not end the game", s.Ending)
	}
	g.clock = newClock(opts.Control, opts.Grace, opts.ClockStart, s.TurnStart)
	g.clock.left, g.clock.on = s.Left, s.Started
	if len(s.Stamps) == 0 {
		g.lead, g.leadStamp = len(s.Moves), Stamp{At: s.TurnStart, Left: s.Left}
	} else {
		// The first stamps are kept once as long as they are equal (as
		// values: the same instant in another location is another).
		for g.lead < len(s.Stamps) && s.Stamps[g.lead] == s.Stamps[0] {
			g.lead++
		}
		g.leadStamp = s.Stamps[0]
		g.stamps = append([]Stamp(nil), s.Stamps[g.lead:]...)
	}
	if g.ending.Over() {
		g.drawOffer, g.request = Offer{}, Offer{}
	}
	return g, nil
}
