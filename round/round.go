// Package round is a game as the site runs it: its seats, mode, level and
// clock, how the store keeps it, the players' actions, the engine's moves,
// the end and its rating, and the games held in memory with their
// viewers, timers and sweeps. One Keeper holds the games of a process: a
// web server's (package server calls it from its handlers) or a worker's
// (which plays the engine's moves in the games as stored). Changes made by
// one process reach the others through a feed of store.Change, which
// carries the change itself: a process holding the game at the version
// before applies it without reading the store.
package round

import (
	"crypto/subtle"
	"fmt"
	"time"

	"emergo/account"
	"emergo/game"
	"emergo/notation"
	"emergo/ratings"
	"emergo/rules"
	"emergo/store"
)

// Mode is what a game on the site is for.
type Mode uint8

const (
	Engine   Mode = iota // a person against the engine
	Friend               // two people, the second invited by a link
	Analysis             // an uploaded record to replay and analyse: nobody moves
)

// modeNames are the modes' words in the API and the store.
var modeNames = [...]string{Engine: "engine", Friend: "friend", Analysis: "analysis"}

func (m Mode) String() string { return modeNames[m] }

// ParseMode reads a mode's word in the API or the store.
func ParseMode(s string) (Mode, error) {
	for m, name := range modeNames {
		if name == s {
			return Mode(m), nil
		}
	}
	return 0, fmt.Errorf("unknown mode %q", s)
}

// Seat is one player's place in a game.
type Seat struct {
	Name string
	// Token is the hash of the secret that claims the seat: empty while
	// the seat is open, and for the engine.
	Token  string
	Engine bool
	// User is the account holding the seat, 0 for a guest: a seat with
	// an account is that account's in any browser where it logs in, and
	// no one else's (Player.Holds).
	User int64
	// Bot says that the account is a bot's: a program plays the seat.
	Bot bool
}

// Joined reports whether someone sits in the seat.
func (s Seat) Joined() bool { return s.Engine || s.Token != "" || s.User != 0 }

// Guest reports whether a guest holds the seat: a person without an
// account, under a name of his choice.
func (s Seat) Guest() bool { return s.Token != "" && s.User == 0 && !s.Engine }

// Player is who asks for an action or a view: his browser's seat token
// and his account (0 for a guest).
type Player struct {
	Token string
	User  int64
}

// Holds reports whether p holds st: a seat with an account by that
// account alone, a guest's seat by its token.
func (p Player) Holds(st Seat) bool {
	if st.User != 0 {
		return p.User == st.User
	}
	return p.Token != "" && st.Token == p.Token
}

// Round is a game on the site: the game as played, who sits where, and
// what the site keeps beside it. A change is made on a clone, stored, and
// only then made live (commit), so that a change the store refuses
// leaves nothing behind; a Round once live is never changed, and may be
// read without the lock of its game (View).
type Round struct {
	ID      string
	Mode    Mode
	Level   int // the engine's, in engine games
	Created time.Time
	Seats   [2]Seat
	// Invite is the hash of the invitation that alone takes the open
	// seat of a friend game; empty once it is taken, and for a seat
	// anyone with the link may take.
	Invite  string
	Version int64 // of the stored game this round was read as or written to
	// Recorded is how an uploaded record says its game ended, its
	// Termination as it came (another program's word, or none): an
	// analysis game shows and keeps it.
	Recorded string
	// Rated says that the game counts for its players' ratings.
	Rated bool
	// Client is the client key of the person who created an engine game,
	// which the bound on a guest's engine games counts while it goes on;
	// PersonTurn is when the person's turn began, as stored
	// (PersonTurnStart), which the idle ending reads.
	Client     string
	PersonTurn time.Time
	Game       *game.Game
}

// Clone returns a copy of r to change.
func (r *Round) Clone() *Round {
	c := *r
	c.Game = r.Game.Clone()
	return &c
}

// SeatOf returns the colour whose seat p holds.
func (r *Round) SeatOf(p Player) (rules.Color, bool) {
	for c := rules.White; c <= rules.Black; c++ {
		if p.Holds(r.Seats[c]) {
			return c, true
		}
	}
	return 0, false
}

// Seated reports whether both players are there.
func (r *Round) Seated() bool { return r.Seats[0].Joined() && r.Seats[1].Joined() }

// AnalysisOpen reports whether the engine may analyse the round's
// positions: not while it is played, whoever asks and whoever plays (as
// on lichess, against the engine too). An uploaded record is always
// open.
func (r *Round) AnalysisOpen() bool { return r.Mode == Analysis || r.Game.Over() }

// Reason is how the game ended, in the words of the store and the API:
// the Termination, or "" while the game goes on.
func (r *Round) Reason() string {
	if r.Mode == Analysis {
		return r.Recorded
	}
	if e := r.Game.Ending(); e.Over() {
		return e.Termination.String()
	}
	return ""
}

// Person is the seat of the person in an engine game.
func (r *Round) Person() Seat {
	if r.Seats[0].Engine {
		return r.Seats[1]
	}
	return r.Seats[0]
}

// PersonTurnStart is when the person's turn began in an engine game
// without a clock that goes on, while it is his turn; zero otherwise.
// The store keeps it (store.Game.PersonTurn), and the round as it was
// stored (Round.PersonTurn).
func (r *Round) PersonTurnStart() time.Time {
	g := r.Game
	side := g.Side()
	if r.Mode != Engine || g.Over() || r.Seats[side].Engine || !g.Control(side).None() {
		return time.Time{}
	}
	return g.TurnStart()
}

// Pool returns the pool of ratings a game between people counts in, by
// its board and time control, if it has one.
func (r *Round) Pool() (ratings.Pool, bool) {
	if r.Mode != Friend {
		return ratings.Pool{}, false
	}
	c := r.Game.Control(rules.White)
	speed, ok := ratings.SpeedOf(c.Time, c.Days)
	return ratings.Pool{Size: r.Game.Rules().Geometry().N, Speed: speed}, ok
}

// invited reports, in constant time, whether invite is the hash of the
// round's invitation.
func (r *Round) invited(invite string) bool {
	return r.Invite != "" && subtle.ConstantTimeCompare([]byte(invite), []byte(r.Invite)) == 1
}

// Options are the game options of the site's games, as on lichess: the
// clock now; the same time control for both players (a Fischer clock,
// days per move, or none), a clock running from its player's first move
// on, so that nobody loses time to an opponent who never turns up (days
// per move run from the first turn: game.ClockStart); and a draw offer
// that stands for the opponent's next turn even when made with one's own
// move.
func Options(now func() time.Time, c game.Control) game.Options {
	return game.Options{
		Now: now, Control: [2]game.Control{c, c},
		ClockStart: game.ClockAfterFirstMove, DrawOffer: game.UntilReply,
	}
}

// New returns a new round id of mode m on the empty board of size, with
// the time control c, created now; its seats are the caller's to fill.
func (k *Keeper) New(id string, m Mode, size *rules.Geometry, c game.Control) *Round {
	return &Round{ID: id, Mode: m, Created: k.now(), Game: game.New(rules.NewGame(size), k.Options(c))}
}

// Options are the game options of the keeper's games (Options, on its
// clock).
func (k *Keeper) Options(c game.Control) game.Options { return Options(k.now, c) }

// The store is the boundary: its strings and numbers become the round's
// types here, and back in Stored, and nowhere else.

// Of reads a stored game. In a server alone on its store (without a
// Feed), a turn of a live game that began before the server started
// begins at its start instead, so that the time the server was down is
// charged to nobody; with others, the site was up meanwhile, and every
// server must read the same clock. A correspondence game's deadline is a
// date the players know, and holds.
func (k *Keeper) Of(g *store.Game) (*Round, error) {
	m, err := ParseMode(g.Mode)
	if err != nil {
		return nil, err
	}
	start, err := notation.ParsePosition(g.Start)
	if err != nil {
		return nil, err
	}
	result, err := game.ParseResult(g.Result)
	if err != nil {
		return nil, err
	}
	st := game.State{
		Start:     start,
		Left:      g.TimeLeft,
		TurnStart: g.TurnStart,
		Ending:    game.Recorded(result, g.Reason),
		DrawOffer: offerOf(g.DrawOffer),
		TakeBack:  offerOf(g.TakeBack),
	}
	control := game.Control{Time: g.Initial, Increment: g.Increment, Days: g.Days}
	if k.cfg.Feed == nil && st.TurnStart.Before(k.cfg.Started) && !control.Correspondence() {
		st.TurnStart = k.cfg.Started
	}
	for _, mv := range g.Moves {
		st.Moves = append(st.Moves, mv.Text)
		st.Stamps = append(st.Stamps, game.Stamp{At: mv.At, Left: mv.TimeLeft})
	}
	r := &Round{ID: g.ID, Mode: m, Level: g.Level, Created: g.Created, Version: g.Version, Invite: g.Invite, Rated: g.Rated,
		Client: g.Client, PersonTurn: g.PersonTurn}
	for c, ss := range g.Seats {
		// A name stored before names were cleaned is cleaned and cut as
		// one would be now (account.ShortenName).
		r.Seats[c] = Seat{Name: account.ShortenName(ss.Name), Token: ss.Token, Engine: ss.Engine, User: ss.UserID, Bot: ss.Bot}
	}
	st.Started = r.Seated()
	if m == Analysis {
		r.Recorded = account.ShortenName(g.Reason)
	}
	if r.Game, err = game.Restore(st, k.Options(control)); err != nil {
		return nil, err
	}
	return r, nil
}

// Stored returns the round as the store keeps it, written at updated.
func (r *Round) Stored(updated time.Time) *store.Game {
	st := r.Game.State()
	clock := r.Game.Control(rules.White)
	g := &store.Game{
		ID: r.ID, Size: st.Start.Geometry().N, Start: notation.FormatPosition(&st.Start),
		Created: r.Created, Updated: updated, Mode: r.Mode.String(), Level: r.Level,
		Result: st.Ending.Result.String(), Reason: r.Reason(),
		DrawOffer: colorIndex(st.DrawOffer), TakeBack: colorIndex(st.TakeBack),
		Initial: clock.Time, Increment: clock.Increment, Days: clock.Days,
		TimeLeft: st.Left, TurnStart: st.TurnStart, Version: r.Version, Invite: r.Invite, Rated: r.Rated,
	}
	if d, ok := r.Game.Deadline(); ok {
		g.Deadline = d
	}
	if !r.Game.Over() {
		// The client key is forgotten with the game's end, since the
		// bound counts only the games that go on.
		g.Client, g.PersonTurn = r.Client, r.PersonTurnStart()
	}
	for c, s := range r.Seats {
		g.Seats[c] = store.Seat{Name: s.Name, Token: s.Token, Engine: s.Engine, UserID: s.User, Bot: s.Bot}
	}
	for i, text := range st.Moves {
		g.Moves = append(g.Moves, store.Move{Text: text, At: st.Stamps[i].At, TimeLeft: st.Stamps[i].Left})
	}
	return g
}

// offerOf reads an offer as the store keeps it: the colour making it, or
// -1 for none.
func offerOf(c int) game.Offer {
	if c < 0 {
		return game.Offer{}
	}
	return game.Offer{Open: true, By: rules.Color(c & 1)}
}

// colorIndex is the store's form of an offer: the colour making it, or
// -1 for none.
func colorIndex(o game.Offer) int {
	if !o.Open {
		return -1
	}
	return int(o.By)
}
