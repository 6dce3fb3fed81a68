package server

import (
	"fmt"
	"time"

	"emergo/account"
	"emergo/game"
	"emergo/notation"
	"emergo/rules"
	"emergo/store"
)

// mode is what a game on the site is for.
type mode uint8

const (
	engineGame   mode = iota // a person against the engine
	friendGame               // two people, the second invited by a link
	analysisGame             // an uploaded record to replay and analyse: nobody moves
)

// modeNames are the modes' words in the API and the store.
var modeNames = [...]string{engineGame: "engine", friendGame: "friend", analysisGame: "analysis"}

func (m mode) String() string { return modeNames[m] }

func parseMode(s string) (mode, error) {
	for m, name := range modeNames {
		if name == s {
			return mode(m), nil
		}
	}
	return 0, fmt.Errorf("unknown mode %q", s)
}

// seat is one player's place in a game.
type seat struct {
	name string
	// token is the hash of the secret that claims the seat: empty while
	// the seat is open, and for the engine.
	token  string
	engine bool
	// user is the account holding the seat, 0 for a guest: a seat with an
	// account is that account's in any browser where it logs in, and no
	// one else's (viewer.holds).
	user int64
}

func (s seat) joined() bool { return s.engine || s.token != "" || s.user != 0 }

// guest reports whether a guest holds the seat: a person without an
// account, under a name of his choice.
func (s seat) guest() bool { return s.token != "" && s.user == 0 && !s.engine }

// round is a game on the site: the game as played, who sits where, and
// what the site keeps beside it. A change is made on a clone, stored, and
// only then made live (commit), so that a change the store refuses
// leaves nothing behind.
type round struct {
	id      string
	mode    mode
	level   int // the engine's, in engine games
	created time.Time
	seats   [2]seat
	// invite is the hash of the invitation that alone takes the open seat
	// of a friend game (invite.go); empty once it is taken, and for a
	// seat anyone with the link may take.
	invite  string
	version int64 // of the stored game this round was read as or written to
	// recorded is how an uploaded record says its game ended, its
	// Termination as it came (another program's word, or none): an
	// analysis game shows and keeps it.
	recorded string
	// rated says that the game counts for its players' ratings.
	rated bool
	// client is the client key of the person who created an engine game
	// (clientKey), which the bound on a guest's engine games counts while
	// it goes on;
	// personTurn is when the person's turn began, as stored
	// (personTurnStart), which idleEnding reads.
	client     string
	personTurn time.Time
	game       *game.Game
}

func (r *round) clone() *round {
	c := *r
	c.game = r.game.Clone()
	return &c
}

// seatOf returns the colour whose seat the viewer holds.
func (r *round) seatOf(who viewer) (rules.Color, bool) {
	for c := rules.White; c <= rules.Black; c++ {
		if who.holds(r.seats[c]) {
			return c, true
		}
	}
	return 0, false
}

// seated reports whether both players are there.
func (r *round) seated() bool { return r.seats[0].joined() && r.seats[1].joined() }

// analysisOpen reports whether the engine may analyse the round's
// positions: not while it is played, whoever asks and whoever plays (as
// on lichess, against the engine too). An uploaded record is always
// open.
func (r *round) analysisOpen() bool { return r.mode == analysisGame || r.game.Over() }

// reason is how the game ended, in the words of the store and the API:
// the Termination, or "" while the game goes on.
func (r *round) reason() string {
	if r.mode == analysisGame {
		return r.recorded
	}
	if e := r.game.Ending(); e.Over() {
		return e.Termination.String()
	}
	return ""
}

// options are the game options of the site's games, as on lichess: the
// server's time; the same time control for both players (a Fischer clock,
// days per move, or none), a clock running from its player's first move
// on, so that nobody loses time to an opponent who never turns up (days
// per move run from the first turn: game.ClockStart); and a draw offer
// that stands for the opponent's next turn even when made with one's own
// move.
func (s *Server) options(c game.Control) game.Options {
	return game.Options{
		Now: s.now, Control: [2]game.Control{c, c},
		ClockStart: game.ClockAfterFirstMove, DrawOffer: game.UntilReply,
	}
}

// The store is the boundary: its strings and numbers become the round's
// types here, and back in stored, and nowhere else.

// roundOf reads a stored game. On a server alone on its store (without a
// Feed), a turn of a live game that began before the server started
// begins at its start instead, so that the time the server was down is
// charged to nobody; with others, the site was up meanwhile, and every
// server must read the same clock. A correspondence game's deadline is a
// date the players know, and holds.
func (s *Server) roundOf(g *store.Game) (*round, error) {
	m, err := parseMode(g.Mode)
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
	if s.feed == nil && st.TurnStart.Before(s.started) && !control.Correspondence() {
		st.TurnStart = s.started
	}
	for _, mv := range g.Moves {
		st.Moves = append(st.Moves, mv.Text)
		st.Stamps = append(st.Stamps, game.Stamp{At: mv.At, Left: mv.TimeLeft})
	}
	r := &round{id: g.ID, mode: m, level: g.Level, created: g.Created, version: g.Version, invite: g.Invite, rated: g.Rated,
		client: g.Client, personTurn: g.PersonTurn}
	for c, ss := range g.Seats {
		// A name stored before names were cleaned is cleaned and cut as
		// one would be now (account.ShortenName).
		r.seats[c] = seat{name: account.ShortenName(ss.Name), token: ss.Token, engine: ss.Engine, user: ss.UserID}
	}
	st.Started = r.seated()
	if m == analysisGame {
		r.recorded = account.ShortenName(g.Reason)
	}
	if r.game, err = game.Restore(st, s.options(control)); err != nil {
		return nil, err
	}
	return r, nil
}

// stored returns the round as the store keeps it, written at updated.
func (r *round) stored(updated time.Time) *store.Game {
	st := r.game.State()
	clock := r.game.Control(rules.White)
	g := &store.Game{
		ID: r.id, Size: st.Start.Geometry().N, Start: notation.FormatPosition(&st.Start),
		Created: r.created, Updated: updated, Mode: r.mode.String(), Level: r.level,
		Result: st.Ending.Result.String(), Reason: r.reason(),
		DrawOffer: colorIndex(st.DrawOffer), TakeBack: colorIndex(st.TakeBack),
		Initial: clock.Time, Increment: clock.Increment, Days: clock.Days,
		TimeLeft: st.Left, TurnStart: st.TurnStart, Version: r.version, Invite: r.invite, Rated: r.rated,
	}
	if d, ok := r.game.Deadline(); ok {
		g.Deadline = d
	}
	if !r.game.Over() {
		// The client key is forgotten with the game's end, since the
		// bound counts only the games that go on.
		g.Client, g.PersonTurn = r.client, r.personTurnStart()
	}
	for c, s := range r.seats {
		g.Seats[c] = store.Seat{Name: s.name, Token: s.token, Engine: s.engine, UserID: s.user}
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
