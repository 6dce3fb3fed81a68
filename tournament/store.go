package tournament

import (
	"context"
	"errors"
	"time"

	"emergo/chat"
	"emergo/store"
)

// Errors of every Store.
var (
	ErrNotFound = errors.New("tournament: no such tournament")
	// ErrConflict means that the tournament changed since it was read
	// (its version, or the round to pair): another request or server
	// won the race, and the caller reads it again.
	ErrConflict = errors.New("tournament: the tournament changed meanwhile")
)

// Counts are the tournaments a creation is bounded by: the creator's not
// over, the creator's created in the last day, and the site's not over.
type Counts struct {
	Open, Day, Site int
}

// Ended is a pairing whose game has ended and whose result is not yet
// written: the game's result ("*" for an aborted game) and its plies;
// or, from Unstarted, a live game that goes on and whose players have
// not both moved.
type Ended struct {
	Tournament   string
	Round, Board int
	Game         string
	White, Black int64
	Result       string
	Plies        int
}

// Store keeps the tournaments, their entries and their pairings. Every
// change of a tournament raises its Version.
type Store interface {
	// CreateTournament stores t, Version 1, if admit allows it: admit is
	// given the counts of t.Creator and of the site at t.Created, and
	// returns nil or the error returned without storing anything. The
	// count and the write are one step, whichever servers race.
	CreateTournament(ctx context.Context, t *Tournament, admit func(Counts) error) error
	// Tournament returns a tournament, or ErrNotFound.
	Tournament(ctx context.Context, id string) (*Tournament, error)
	// TournamentVersion returns a tournament's version, or ErrNotFound.
	TournamentVersion(ctx context.Context, id string) (int64, error)
	// Tournaments returns the tournaments not over, by their start, and
	// the latest finished ones (finished at most), the latest first.
	Tournaments(ctx context.Context, finished int) ([]*Tournament, error)
	// UpdateTournament writes t's status, rounds, start and end times
	// if its stored version is still t.Version, and raises t.Version;
	// else ErrConflict.
	UpdateTournament(ctx context.Context, t *Tournament) error
	// Enter writes e into tournament id, or takes a withdrawn e back, if
	// it has fewer than max entries; else ErrFull.
	Enter(ctx context.Context, id string, e Entry, max int) error
	// Withdraw marks user withdrawn from tournament id; before it
	// starts, his entry is deleted instead, so that he has no start
	// number and no place in a round robin's table.
	Withdraw(ctx context.Context, id string, user int64) error
	// Entries returns a tournament's entries in the order they came.
	Entries(ctx context.Context, id string) ([]Entry, error)
	// Pairings returns a tournament's pairings by round and board.
	Pairings(ctx context.Context, id string) ([]Pairing, error)
	// Pair writes round's pairings of tournament id and their new games
	// in one transaction, if the tournament's last round paired is still
	// round-1; else ErrConflict and nothing is written. A round is so
	// paired once, whichever servers race.
	Pair(ctx context.Context, id string, round int, ps []Pairing, games []*store.Game) error
	// Record writes the result of a pairing still without one; a pairing
	// with its result already is left as it is.
	Record(ctx context.Context, id string, round, board int, result string) error
	// Ended returns the pairings without a result whose game has ended,
	// of the tournaments not over.
	Ended(ctx context.Context) ([]Ended, error)
	// Unstarted returns the pairings without a result whose game has a
	// clock, goes on, was created before before, and has fewer than two
	// plies: a player has not come.
	Unstarted(ctx context.Context, before time.Time) ([]Ended, error)
	// AddChatLine stores l, a line of tournament l.Game's chat, giving it
	// its ID, deletes the oldest lines beyond the keep latest, and raises
	// the tournament's version, in one transaction.
	AddChatLine(ctx context.Context, l *chat.Line, keep int) error
	// ChatLines returns the latest n lines of a tournament's chat, the
	// oldest first.
	ChatLines(ctx context.Context, id string, n int) ([]chat.Line, error)
}

// The bounds of a tournament's chat: the lines kept, and those shown.
const (
	ChatKept  = 500
	ChatShown = 50
)

// Day is the span of the bound on the tournaments an account creates.
const Day = 24 * time.Hour
