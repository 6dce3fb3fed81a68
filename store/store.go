// Package store is the durable storage of games for the server: the data
// it keeps and the small interface the server consumes. The sqlstore
// package implements it on SQLite (the embedded default) and PostgreSQL.
package store

import (
	"context"
	"errors"
	"time"
)

// Errors of every Store.
var (
	ErrNotFound = errors.New("store: no such game")
	// ErrConflict means the game changed since it was read: another
	// request won the race. The caller reloads and decides again.
	ErrConflict = errors.New("store: the game changed meanwhile")
)

// Seat is one player's place in a game.
type Seat struct {
	Name string
	// Token is the hash of the secret that claims the seat (empty while
	// the seat is open, and for the engine).
	Token  string
	Engine bool
	// UserID is the account holding the seat (account.User.ID), 0 for a
	// guest or the engine. A seat with an account is that account's
	// wherever it logs in; a guest's seat is its token's.
	UserID int64
	// Bot says that the account is a bot's (account.User.Bot).
	Bot bool
}

// Move is one accepted move with the clocks after it.
type Move struct {
	Text     string
	At       time.Time
	TimeLeft [2]time.Duration // White, Black after the move
}

// Game is everything stored about a game. The board itself is derived by
// replaying Moves from Start with the rules.
type Game struct {
	ID      string
	Size    int
	Start   string // position text
	Created time.Time
	Updated time.Time
	Mode    string // "engine", "friend" or "analysis"
	Level   int    // the engine's level in engine games
	Seats   [2]Seat
	Moves   []Move
	Result  string // "*", "1-0", "0-1", "1/2-1/2"
	// Reason is how it ended, empty while it goes on. A game may end
	// without a result: an aborted game has Result "*" and Reason
	// "aborted".
	Reason    string
	DrawOffer int // -1 none, else the colour offering
	TakeBack  int // -1 none, else the colour asking
	// Clock: Initial 0 means no clock. TimeLeft is each side's time at the
	// start of the current turn, which began at TurnStart.
	Initial, Increment time.Duration
	TimeLeft           [2]time.Duration
	TurnStart          time.Time
	// Days is the days per move of a correspondence game, 0 for none
	// (then Initial and Increment are the clock).
	Days int
	// Deadline is when the player to move loses on time, if his time
	// runs (zero if not): Due finds the games by it.
	Deadline time.Time
	// Rated says that the game counts for its players' ratings (package
	// ratings keeps them).
	Rated bool
	// Invite is the hash of the invitation's secret that alone takes the
	// open seat of a friend game (the SHA-256 in hex, as Seat.Token);
	// empty when anyone with the link may take it, or no seat is open.
	Invite string
	// Client is the client key (throttle.ClientKey: the address, or its
	// /64) of the person who created an engine game or a friend game's
	// invitation, kept while the game goes on: the bounds on a guest's
	// engine games and invitations count by it (CreateEngineGame,
	// CreateInvitation).
	Client string
	// PersonTurn is when the person's turn began in an engine game
	// without a clock that goes on, while it is his turn (zero
	// otherwise): IdleEngineGames finds the games by it.
	PersonTurn time.Time
	// Version counts the writes of the game; Update succeeds only on the
	// version it was read at.
	Version int64
}

// Summary is a game in a list.
type Summary struct {
	ID      string
	Size    int
	Start   string // position text: with Plies, whose turn it is
	Mode    string
	Level   int
	Created time.Time
	// Initial and Increment are the clock, Days the days per move, as in
	// Game.
	Initial, Increment time.Duration
	Names              [2]string
	// Tokens and Users hold the seats, as in Seat.
	Tokens [2]string
	Users  [2]int64
	// Bots say which seats are bot accounts'.
	Bots     [2]bool
	Plies    int
	Result   string
	Reason   string
	Days     int
	Deadline time.Time
	Rated    bool
	Updated  time.Time
}

// Cursor is the place of the game in a list of a player's games.
func (s *Summary) Cursor() Cursor { return Cursor{Created: s.Created, ID: s.ID} }

// Ongoing reports whether the game goes on: without a result and without
// a Reason (an aborted game has neither result nor a game to go on with).
func (s *Summary) Ongoing() bool { return s.Result == "*" && s.Reason == "" }

// Outcome selects a player's games by how they went for him.
type Outcome uint8

// The outcomes of PlayerQuery.
const (
	AnyOutcome Outcome = iota // every game (but the aborted ones)
	Won
	Lost
	Drawn
	Playing  // going on
	Finished // won, lost or drawn
)

// Cursor is a place in a list of a player's games, which runs from the
// newest game to the oldest by the time they were created, then by ID
// (descending): a game's place never changes, so a list read a page at a
// time neither repeats nor skips a game while others are played.
type Cursor struct {
	Created time.Time
	ID      string
}

// IsZero reports whether c is no place: the start of the list.
func (c Cursor) IsZero() bool { return c.ID == "" && c.Created.IsZero() }

// PlayerQuery selects a page of an account's games.
type PlayerQuery struct {
	User    int64
	Outcome Outcome
	// Opponent is the account holding the other seat; 0 for anyone (a
	// guest and the engine included).
	Opponent int64
	Size     int // 0 for both sizes
	// Before is where the page starts: the games after it in the list;
	// the zero Cursor starts at the newest.
	Before Cursor
	Limit  int
}

// GameCounts are an account's games by how they went for it. Aborted
// games are not counted: they were called off before they began.
type GameCounts struct {
	Won, Drawn, Lost, Ongoing int
}

// Played is the number of finished games.
func (c GameCounts) Played() int { return c.Won + c.Drawn + c.Lost }

// Store keeps games durably: a write has reached the disk (or the
// database's log) when the call returns.
type Store interface {
	// Create stores a new game, Version 1.
	Create(ctx context.Context, g *Game) error
	// Get returns a game with its moves.
	Get(ctx context.Context, id string) (*Game, error)
	// Update writes g's fields, and replaces its moves from ply keep on
	// (moves before keep are unchanged), if the stored version is still
	// g.Version; it then increments g.Version. Otherwise ErrConflict.
	Update(ctx context.Context, g *Game, keep int) error
	// Ongoing returns the IDs of the live games (those without Days)
	// that go on (without a result and without a Reason), for the work
	// a restarted server must resume (engine moves, clocks): not the
	// uploaded records (mode "analysis"), in which nobody moves.
	// Correspondence games, which may be many and wait for days, are
	// found by Due instead.
	Ongoing(ctx context.Context) ([]string, error)
	// CreateEngineGame stores g, a new game against the engine, as Create
	// does, if admit allows it: admit is given the engine games that go
	// on of g's person and of the site, and returns nil, or the error
	// that CreateEngineGame then returns without storing anything. The
	// count and the creation are one step, whichever servers of the
	// store race: two creations are counted one after the other.
	CreateEngineGame(ctx context.Context, g *Game, admit func(EngineCount) error) error
	// IdleEngineGames returns the IDs of the engine games that go on and
	// wait on their person: those created by unstarted in which both
	// players have not moved (fewer than two moves), and those whose
	// PersonTurn is set and not after idle; the oldest first, at most
	// limit.
	IdleEngineGames(ctx context.Context, unstarted, idle time.Time, limit int) ([]string, error)
	// CreateInvitation stores g, a new friend game with a seat open (an
	// invitation), as Create does, if admit allows it: admit is given the
	// invitations that wait (friend games that go on with a seat open) of
	// g's creator, the person in the seat taken, and of the site, and
	// returns nil, or the error that CreateInvitation then returns
	// without storing anything. The count and the creation are one step,
	// as CreateEngineGame's.
	CreateInvitation(ctx context.Context, g *Game, admit func(InvitationCount) error) error
	// ExpiredInvitations returns the IDs of the invitations that wait,
	// created by live for a game without Days and by correspondence for
	// one with Days; the oldest first, at most limit.
	ExpiredInvitations(ctx context.Context, live, correspondence time.Time, limit int) ([]string, error)
	// Due returns the IDs of the games that go on whose Deadline
	// is set and not after by, the soonest first, at most limit.
	Due(ctx context.Context, by time.Time, limit int) ([]string, error)
	// Recent lists the most recently updated games played on the site:
	// not uploaded records (mode "analysis"), not games with a seat
	// still open, whose invitation is their players' business, and not
	// games going on with no deadline (no clock running, no days per
	// move) that nobody has played since idle: an untimed game its
	// players left would read "playing" forever.
	Recent(ctx context.Context, limit int, idle time.Time) ([]Summary, error)
	// Seated lists the games in which token or the account user holds a
	// seat (the empty token and user 0 hold none): those going on first
	// (Summary.Ongoing: an aborted game is among the others), then the
	// others, each group the most recently updated first; at most limit.
	Seated(ctx context.Context, token string, user int64, limit int) ([]Summary, error)
	// PlayerGames lists the games of the account q.User that q selects:
	// at most q.Limit, in the order of Cursor, from after q.Before.
	// Aborted games are left out, as from GameCounts.
	PlayerGames(ctx context.Context, q PlayerQuery) ([]Summary, error)
	// CountGames counts the games of the account user by how they went.
	CountGames(ctx context.Context, user int64) (GameCounts, error)
	// Versions returns the stored version of each game of ids that
	// exists (an unknown ID is left out): a server that holds games in
	// memory checks with it that its copies are current.
	Versions(ctx context.Context, ids []string) (map[string]int64, error)
	Close() error
}

// EngineCount counts the engine games that go on (mode "engine", without
// a result and without a Reason) of one person, by each name a bound on
// them takes, and of the site.
type EngineCount struct {
	// Account counts the games of the person's account (none for a
	// guest); Token the guest games of the person's browser (the seat's
	// Token, with no account); Client the guest games created from the
	// game's Client key.
	Account, Token, Client int
	// Total counts the engine games that go on, of everyone.
	Total int
}

// InvitationCount counts the invitations that wait (friend games that go
// on with a seat open) of one person, by each name a bound on them takes,
// and of the site, as EngineCount counts the engine games.
type InvitationCount struct {
	// Account counts the invitations of the person's account (none for a
	// guest); Token the guest invitations of the person's browser; Client
	// the guest invitations created from the game's Client key.
	Account, Token, Client int
	// Total counts the invitations that wait, of everyone.
	Total int
}

// Change is a committed change of what the servers sharing one store
// hold in memory: a game, the lobby's challenges. The server that makes
// it publishes it on a feed after the write, and every other server on
// the store reads the game (or the lobby) again and wakes its viewers.
type Change struct {
	// Origin is the server that made the change, which ignores its own.
	Origin string
	// Game is the game that changed, "" for none, and Version its
	// version after the change; Version is 0 when what changed is beside
	// the game itself: the rematch offered after it.
	Game    string
	Version int64
	// Deleted says that the store deleted the game Game (an upload
	// expired or made room): a process holding it forgets it.
	Deleted bool
	// Lobby says that the lobby's challenges changed.
	Lobby bool
	// Work says that engine work was queued (package enginework): the
	// idle workers of the other processes look for it at once.
	Work bool
	// State, if not nil, is the game as the change left it (Version),
	// but that its Moves hold only the moves from ply Keep on: a process
	// holding the game at Version-1 applies the change to its copy
	// without reading the game back; one missing a version reads it
	// back. A feed may leave State out (a payload too long): the game is
	// read back.
	State *Game
	Keep  int
	// Chat, if not 0, is a chat line just written in the game ChatGame
	// (package chat): a server with viewers of that game reads the line
	// and brings it to them. The line is not carried, so that a payload
	// stays short whatever the line.
	Chat     int64
	ChatGame string
	// Blocks, if not 0, is an account whose blocks (package chat) just
	// changed: a server that holds them reads them again, so that a
	// block takes effect on the streams open on every server.
	Blocks int64
	// Spectators, with SpectatorsGame, is how many spectators the game
	// SpectatorsGame has on the server Origin now (0 when the last
	// left): each server adds the others' counts to its own, so that a
	// game's page counts them all.
	Spectators     int
	SpectatorsGame string
}
