// Package chat is the talk in the site's games and its moderation: the
// lines written in a game's two rooms (the players' and the
// spectators'), who may write in which and who sees what, their cleaning
// and bounds; the blocks between accounts; the reports kept for the
// moderators; and the moderators' mutes. Its small Store interface is
// implemented in store/sqlstore. It imports account for the cleaning of
// text and the names of accounts, nothing of the server.
package chat

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"emergo/account"
)

// Room is one of a game's two rooms: the players' talk, which only
// they write and read, and the spectators', which everyone else reads
// and, with an account, writes. As on lichess the players do not write
// in the spectators' room while the game goes on, nor read it: what the
// spectators say (a move they see) must not help a player. Once the game
// is over the players read and write there too.
type Room string

// The rooms.
const (
	Players    Room = "players"
	Spectators Room = "spectators"
)

// ParseRoom reads a room's name; "" is the players' room.
func ParseRoom(s string) (Room, error) {
	switch Room(s) {
	case "", Players:
		return Players, nil
	case Spectators:
		return Spectators, nil
	}
	return "", fmt.Errorf("chat: no room %q: the rooms are %q and %q", s, Players, Spectators)
}

// The bounds of the chat.
const (
	// MaxText is the longest line, in characters (runes) once cleaned.
	MaxText = 140
	// KeepLines is how many lines a game keeps, both rooms together:
	// a new line beyond them deletes the oldest.
	KeepLines = 500
	// Recent is how many of a game's latest lines a page opened later
	// is sent (before those of its viewer's rooms are picked).
	Recent = 100
	// MaxBlocks is how many accounts one account may block.
	MaxBlocks = 500
	// MaxReason is the longest reason of a report, in characters.
	MaxReason = 500
	// MaxReports is how many reports the store keeps, for all accounts:
	// a report beyond them is refused (ErrReportsFull) until the
	// moderators clear some.
	MaxReports = 10000
)

// The refusals of the chat and its moderation.
var (
	ErrEmpty       = errors.New("chat: the line is empty")
	ErrGuest       = errors.New("chat: guests read the chat but do not write in it: log in to write")
	ErrNotPlayer   = errors.New("chat: only the game's two players write in the players' room")
	ErrPlaying     = errors.New("chat: the players do not write in the spectators' room while the game goes on")
	ErrSelf        = errors.New("chat: you cannot block or report yourself")
	ErrReportsFull = errors.New("chat: the moderators have too many reports to read just now, try again later")
	ErrNoReason    = errors.New("chat: a report needs a reason")
	ErrNotFound    = errors.New("chat: not found")
)

// TooLongError refuses a text longer than its bound.
type TooLongError struct {
	Max, Len int
}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("chat: a line has at most %d characters, this one %d", e.Max, e.Len)
}

// TooManyBlocksError refuses a block beyond MaxBlocks.
type TooManyBlocksError struct{ Max int }

func (e *TooManyBlocksError) Error() string {
	return fmt.Sprintf("chat: you may block at most %d accounts: unblock one first", e.Max)
}

// Clean returns text as a line keeps it: control and format characters
// (the bidirectional ones among them) dropped, white space one space,
// none at the ends (account.CleanText); refused if nothing is left or
// more than MaxText characters are.
func Clean(text string) (string, error) {
	return cleanUpTo(text, MaxText, ErrEmpty)
}

// CleanReason returns a report's reason cleaned as Clean cleans a line,
// at most MaxReason characters.
func CleanReason(text string) (string, error) {
	return cleanUpTo(text, MaxReason, ErrNoReason)
}

func cleanUpTo(text string, max int, empty error) (string, error) {
	c := account.CleanText(text)
	if c == "" {
		return "", empty
	}
	if n := utf8.RuneCountInString(c); n > max {
		return "", &TooLongError{Max: max, Len: n}
	}
	return c, nil
}

// Line is a line of a game's chat.
type Line struct {
	ID   int64
	Game string
	Room Room
	// User is the writer's account, Name its username.
	User int64
	Name string
	Text string
	Time time.Time
	// Muted says that the writer was muted when he wrote it: the line is
	// shown to him alone, as lichess does, so that he is not told.
	Muted bool
}

// Writer is who writes in a game: his account (0 for a guest), whether
// he holds one of its seats, and whether the game is over.
type Writer struct {
	User   int64
	Player bool
	Over   bool
}

// CanWrite says whether w may write in room: nil, or the refusal.
func (w Writer) CanWrite(room Room) error {
	switch {
	case w.User == 0:
		return ErrGuest
	case room == Players && !w.Player:
		return ErrNotPlayer
	case room == Spectators && w.Player && !w.Over:
		return ErrPlaying
	}
	return nil
}

// Reader is who reads a game's chat: his account (0 for a guest),
// whether he holds one of its seats, whether the game is over, and the
// accounts he blocks.
type Reader struct {
	User    int64
	Player  bool
	Over    bool
	Blocked func(user int64) bool
}

// Sees reports whether r sees l: a line of his rooms (the players' for a
// player, and the spectators' too once the game is over; the spectators'
// for the others), not of an account he blocks, and not a muted writer's
// unless it is his own.
func (r Reader) Sees(l *Line) bool {
	if l.User != r.User && (l.Muted || (r.Blocked != nil && r.Blocked(l.User))) {
		return false
	}
	if l.Room == Players {
		return r.Player
	}
	return !r.Player || r.Over
}

// Report is what an account tells the moderators about another: the
// reason, in the game where it happened ("" for none).
type Report struct {
	ID int64
	// By and About are the accounts, ByName and AboutName their
	// usernames (read back by Reports).
	By, About         int64
	ByName, AboutName string
	Game              string
	Reason            string
	Time              time.Time
}

// Standing is what the moderation says of an account.
type Standing struct {
	Moderator, Muted bool
}

// Store keeps the chat's lines, the blocks, the reports and the
// moderators' standings.
type Store interface {
	// AddLine stores l, giving it its ID, and deletes the oldest lines
	// of its game beyond the keep latest, in one transaction.
	AddLine(ctx context.Context, l *Line, keep int) error
	// Line returns the line id, or ErrNotFound.
	Line(ctx context.Context, id int64) (*Line, error)
	// Lines returns the latest n lines of the game, the oldest first.
	Lines(ctx context.Context, game string, n int) ([]Line, error)
	// Block notes that by blocks whom, at now, if by blocks fewer than
	// max accounts (a *TooManyBlocksError otherwise); blocking again
	// is no error.
	Block(ctx context.Context, by, whom int64, now time.Time, max int) error
	// Unblock ends by's block of whom, if any.
	Unblock(ctx context.Context, by, whom int64) error
	// Blocked returns the accounts that by blocks.
	Blocked(ctx context.Context, by int64) ([]int64, error)
	// AddReport stores r, giving it its ID, if the store keeps fewer
	// than max reports (ErrReportsFull otherwise).
	AddReport(ctx context.Context, r *Report, max int) error
	// Reports returns the latest n reports, the latest first, with the
	// usernames.
	Reports(ctx context.Context, n int) ([]Report, error)
	// Standing returns the standing of the account user (the zero
	// Standing for one never moderated).
	Standing(ctx context.Context, user int64) (Standing, error)
	// SetModerator gives the account user the moderator's role, or
	// takes it back; SetMuted mutes him, or ends his mute.
	SetModerator(ctx context.Context, user int64, on bool) error
	SetMuted(ctx context.Context, user int64, on bool) error
}
