// Package game is a game as it is played: the board of package rules,
// each player's clock (Fischer, a time per move, or days per move for
// correspondence games), the ending, on the board or off it (RULES 6), and
// the offers the players make each other (a draw, a take-back). It is the
// layer between the rules and the programs that run games (the server,
// matches, play in the terminal): they ask the game what may happen and
// it answers with typed errors, and its Terminations are the one
// vocabulary of endings that records and stores keep.
//
// A game never reads the time itself: the clock reads Options.Now, so a
// test can move time at will and a server can replay what happened.
package game

import (
	"errors"
	"fmt"
	"time"

	"emergo/rules"
)

// The errors of a game. An action on a game that is over fails with an
// *OverError, which matches ErrOver.
var (
	ErrOver        = errors.New("game: the game is over")
	ErrNotYourTurn = errors.New("game: it is not your turn")
	// ErrTimeOut is the error of a move made after the mover's flag fell.
	// The move is not played; Flag ends the game.
	ErrTimeOut = errors.New("game: the time has run out")
	// ErrNothingToTakeBack is the error of taking back a move of a player
	// who has made none.
	ErrNothingToTakeBack = errors.New("game: there is no move to take back")
	// ErrTooLate is the error of aborting a game in which both players
	// have moved.
	ErrTooLate = errors.New("game: both players have moved, so the game can no longer be aborted")
)

// OverError is the error of an action on a game that is over: how it
// ended.
type OverError struct{ Ending Ending }

func (e *OverError) Error() string { return "game: the game is over: " + e.Ending.String() }

// Is makes an OverError match ErrOver.
func (e *OverError) Is(target error) bool { return target == ErrOver }

// Options are the settings of a game.
type Options struct {
	// Now reads the time, for the clock and the times of the moves. It
	// is needed with a clock; without it every move is at the zero time.
	Now func() time.Time
	// Control is each colour's time control, White's first. The zero
	// Control is no clock.
	Control [2]Control
	// Grace is how far a player may overrun his time before he loses
	// on time; a clock that ran over by less stands at zero. With no
	// grace a player whose time is zero has lost.
	Grace time.Duration
	// ClockStart says from when a player's clock runs.
	ClockStart ClockStart
	// DrawOffer says how long a draw offer stands.
	DrawOffer OfferLife
}

// check panics for options a program must not give.
func (o *Options) check() {
	if o.Now == nil && (!o.Control[0].None() || !o.Control[1].None()) {
		panic("game: a clock needs Options.Now")
	}
}

// Stamp is when a move was played and each side's time after it.
type Stamp struct {
	At   time.Time
	Left [2]time.Duration // White, Black
}

// Game is a game as played. Create it with New or Restore. It is not
// safe for concurrent use.
type Game struct {
	opts  Options
	board *rules.Game
	// The moves' stamps: the first lead moves all have leadStamp, kept
	// once, and stamps holds those of the others. A game made from a
	// record (New on a board, or Restore without distinct times, as a
	// site restores an uploaded record) has every move at one time, and
	// would otherwise hold 40 bytes a ply for it.
	lead      int
	leadStamp Stamp
	stamps    []Stamp
	ending    Ending
	clock     clock
	drawOffer Offer
	request   Offer // a take-back request
}

// New starts a game on board, which it takes over: the game plays on it,
// and the moves it holds already count as played at the time of New. The
// clock does not run until Start. New (like Restore) panics if a clock is
// set without Options.Now, a mistake of the program.
func New(board *rules.Game, opts Options) *Game {
	opts.check()
	g := &Game{opts: opts, board: board}
	now := g.now()
	g.clock = newClock(opts.Control, opts.Grace, opts.ClockStart, now)
	g.lead, g.leadStamp = board.Len(), Stamp{At: now, Left: g.clock.left}
	g.ending = EndingOf(board.Outcome())
	return g
}

func (g *Game) now() time.Time {
	if g.opts.Now == nil {
		return time.Time{}
	}
	return g.opts.Now()
}

// Rules returns the board of the game, for reading: its positions,
// moves and legal moves. Changing it bypasses the game; play through
// the game instead.
func (g *Game) Rules() *rules.Game { return g.board }

// Side returns the colour to move.
func (g *Game) Side() rules.Color {
	p := g.board.Position()
	return p.Side()
}

// Len returns the number of moves played.
func (g *Game) Len() int { return g.board.Len() }

// Stamps returns when each move was played and the clocks after it, one
// per move. The slice may be shared: do not modify it.
func (g *Game) Stamps() []Stamp {
	if g.lead == 0 {
		return g.stamps
	}
	out := make([]Stamp, g.lead, g.lead+len(g.stamps))
	for i := range out {
		out[i] = g.leadStamp
	}
	return append(out, g.stamps...)
}

// Ending returns how the game ended; the zero Ending while it goes on.
func (g *Game) Ending() Ending { return g.ending }

// Over reports whether the game has ended, on the board or off it.
func (g *Game) Over() bool { return g.ending.Over() }

// overError returns the error of acting on the game, if it is over.
func (g *Game) overError() error {
	if g.ending.Over() {
		return &OverError{g.ending}
	}
	return nil
}

// Play plays m for by, who must be the player to move. It fails with an
// *OverError once the game is over, ErrNotYourTurn, ErrTimeOut if by's
// flag has fallen (the move is not played: Flag ends the game), or the
// rules' error for an illegal move. A move charges the mover's clock,
// adds his increment and starts the opponent's, withdraws the offers the
// move answers, and ends the game if the board decides it.
func (g *Game) Play(by rules.Color, m rules.Move) error {
	if err := g.overError(); err != nil {
		return err
	}
	if by != g.Side() {
		return ErrNotYourTurn
	}
	now := g.now()
	runs := g.runs(by)
	if runs && g.clock.out(g.clock.reading(by, true, now)) {
		return ErrTimeOut
	}
	if err := g.board.Play(m); err != nil {
		return err
	}
	g.clock.moved(by, runs, now)
	g.stamps = append(g.stamps, Stamp{At: now, Left: g.clock.left})
	g.withdraw(by)
	if o := g.board.Outcome(); o.Over() {
		g.ending = EndingOf(o)
	}
	return nil
}

// moved reports whether c has made a move in this game.
func (g *Game) moved(c rules.Color) bool {
	start := g.board.Start()
	if start.Side() == c {
		return g.board.Len() >= 1
	}
	return g.board.Len() >= 2
}

// runs reports whether c's clock runs now (or would, were it c's turn):
// the clock is on, the game goes on, c has a time control, and c has made
// his first move if the clock starts only after it (which a
// correspondence control does not wait for).
func (g *Game) runs(c rules.Color) bool {
	ctl := g.clock.control[c]
	return g.clock.on && !g.ending.Over() && !ctl.None() &&
		(g.clock.policy == ClockAtStart || ctl.Correspondence() || g.moved(c))
}

// Control returns c's time control.
func (g *Game) Control(c rules.Color) Control { return g.clock.control[c] }

// Left returns c's time now, which is negative once he has overrun it.
func (g *Game) Left(c rules.Color) time.Duration {
	return g.clock.reading(c, c == g.Side() && g.runs(c), g.now())
}

// Running returns the colour whose clock runs, if one does.
func (g *Game) Running() (rules.Color, bool) {
	side := g.Side()
	return side, g.runs(side)
}

// TurnStart returns when the current turn began: the last move, the
// start of the clock, or a take-back.
func (g *Game) TurnStart() time.Time { return g.clock.since }

// Deadline returns when the flag of the player to move falls, if his
// clock runs: from then on Flag ends the game.
func (g *Game) Deadline() (time.Time, bool) {
	side, ok := g.Running()
	if !ok {
		return time.Time{}, false
	}
	return g.clock.since.Add(g.clock.left[side] + g.clock.grace), true
}

// Postpone moves the start of the running turn by d, later for a
// positive d and back for a negative one: the deadline of the player to
// move moves with it, and his time is as it was. It is the pause of a
// correspondence player's vacation, which the site gives and takes back
// (package round); a game whose clock does not run has no turn to
// postpone.
func (g *Game) Postpone(d time.Duration) {
	if _, ok := g.Running(); ok {
		g.clock.since = g.clock.since.Add(d)
	}
}

// Start starts the clock, or resumes it after Pause: the turn of the
// player to move begins now. The clock of a game that has begun without
// both players (an invitation) starts when both are there.
func (g *Game) Start() {
	if g.clock.on {
		return
	}
	g.clock.on = true
	g.clock.since = g.now()
}

// Pause stops the clock, charging the player to move for his time so
// far, until Start.
func (g *Game) Pause() {
	if !g.clock.on {
		return
	}
	side := g.Side()
	g.clock.charge(side, g.runs(side), g.now())
	g.clock.on = false
}

// Flag ends the game on time if the flag of the player to move has
// fallen, and reports whether it did. His clock then shows zero.
func (g *Game) Flag() bool {
	side, ok := g.Running()
	if !ok || !g.clock.out(g.Left(side)) {
		return false
	}
	g.end(Loss(side, TimeForfeit))
	g.clock.left[side] = 0
	return true
}

// end ends the game with e and stops the clock, the player to move
// charged up to now.
func (g *Game) end(e Ending) {
	side := g.Side()
	g.clock.charge(side, g.runs(side), g.now())
	g.ending = e
	g.drawOffer, g.request = Offer{}, Offer{}
}

// End ends the game off the board (RULES 6.4) with e: a resignation, an
// agreed draw, a loss on time, an adjudication, an abort, a program's
// illegal move or crash in a match, or a game abandoned by a player who
// stopped playing (a server's verdict, as lichess gives it). It fails if the game is over, for an
// ending the board decides or a game that goes on, for a result that does
// not fit the termination, and with ErrTooLate for an abort after both
// players have moved. Resign, Flag, Abort and the offers end games in the
// common ways.
func (g *Game) End(e Ending) error {
	if err := g.overError(); err != nil {
		return err
	}
	if err := e.check(); err != nil {
		return err
	}
	switch {
	case !e.Over() || e.Termination.OnBoard():
		return fmt.Errorf("game: %s is not an ending off the board", e.Termination)
	case e.Termination == Aborted && !g.CanAbort():
		return ErrTooLate
	}
	g.end(e)
	return nil
}

// Resign ends the game with a loss for by, whose turn it need not be.
func (g *Game) Resign(by rules.Color) error { return g.End(Loss(by, Resignation)) }

// CanAbort reports whether the game may still be called off: it goes
// on, and one player at least has not moved yet.
func (g *Game) CanAbort() bool { return !g.ending.Over() && g.board.Len() < 2 }

// Abort calls the game off without a result, before both players have
// moved; after that it fails with ErrTooLate.
func (g *Game) Abort() error { return g.End(Ending{Termination: Aborted}) }

// Undo takes back the last move whatever the state of the game, for one
// person at one keyboard: an ending is withdrawn, and the game goes on
// from the position before the move. It reports false at the start.
func (g *Game) Undo() bool {
	if g.board.Len() == 0 {
		return false
	}
	g.takeBack(1)
	return true
}

// takeBack takes back the last n moves: the player to move is charged up
// to now, every clock keeps its time, and the turn of the player to move
// then begins now. Any ending and offer is withdrawn.
func (g *Game) takeBack(n int) {
	side := g.Side()
	g.clock.charge(side, g.runs(side), g.now())
	for range n {
		g.board.Undo()
	}
	if n := g.board.Len(); n < g.lead {
		g.lead, g.stamps = n, g.stamps[:0]
	} else {
		g.stamps = g.stamps[:n-g.lead]
	}
	g.ending = EndingOf(g.board.Outcome())
	g.drawOffer, g.request = Offer{}, Offer{}
}

// Clone returns an independent copy of the game, to prepare a change that
// may be dropped.
func (g *Game) Clone() *Game {
	c := *g
	c.board = g.board.Clone()
	c.stamps = append([]Stamp(nil), g.stamps...)
	return &c
}
