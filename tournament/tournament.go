// Package tournament is the site's tournaments: arenas, Swiss
// tournaments (the FIDE Dutch system of package pairing) and round
// robins (FIDE's Berger tables), live or by correspondence. It holds the
// rules of a tournament and nothing of HTTP or of a database: who may
// enter (Conditions), the next round's pairings of each system (Next,
// ArenaPairs), the scores (an arena's streaks) and the standings with
// their tie-breaks (package tiebreak). Its small Store interface is
// implemented in store/sqlstore; the server's director calls it.
package tournament

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// System is how a tournament pairs its players.
type System string

// The systems.
const (
	// Arena pairs a player again as soon as his game ends, until the
	// tournament's time is up.
	Arena System = "arena"
	// Swiss pairs a fixed number of rounds by the FIDE Dutch system.
	Swiss System = "swiss"
	// RoundRobin pairs everyone with everyone by the Berger tables.
	RoundRobin System = "roundrobin"
)

// Status is where a tournament is in its life.
type Status string

// The statuses.
const (
	Created   Status = "created" // taking entries, not started
	Running   Status = "running"
	Paused    Status = "paused" // its games go on; no round is paired
	Finished  Status = "finished"
	Cancelled Status = "cancelled"
)

// Over reports whether a tournament in status s is done with: finished
// or cancelled.
func (s Status) Over() bool { return s == Finished || s == Cancelled }

// Bounds of a tournament's settings and players.
const (
	MaxName       = 60
	MaxMinutes    = 24 * 60 // an arena's duration
	MaxSwissRound = 11
	MaxDays       = 14
	MaxInvited    = 64
	// maxUsername bounds an invited username (package account's are
	// shorter).
	maxUsername = 40
)

// MaxPlayers returns the most players a tournament of system sys takes:
// the Berger tables stop at 16, a Swiss of more than 64 takes seconds to
// pair, an arena pairs as they come.
func MaxPlayers(sys System) int {
	switch sys {
	case Swiss:
		return 64
	case RoundRobin:
		return 16
	}
	return 200
}

// Conditions are what a player needs to enter a tournament. A zero field
// asks for nothing.
type Conditions struct {
	// MinRating and MaxRating bound the player's rating in the
	// tournament's pool (its board size and speed).
	MinRating, MaxRating int
	// MinRatedGames is the rated games he must have finished in the pool.
	MinRatedGames int
	// Invited are the usernames that alone may enter, if any.
	Invited []string
	// Password is the SHA-256 (hex) of the password that lets a player
	// in, "" for none.
	Password string
}

// Tournament is a tournament's settings and where it is.
type Tournament struct {
	ID     string
	Name   string
	System System
	Size   int // the board: 9 or 7
	// Initial and Increment are the clock of live games; Days the days
	// per move of correspondence games (then the clock is zero).
	Initial, Increment time.Duration
	Days               int
	Rated              bool
	// Start is when the tournament starts by itself; zero when its
	// creator starts it.
	Start time.Time
	// Minutes is an arena's duration.
	Minutes int
	// Rounds is a Swiss's number of rounds, and a round robin's once it
	// has started (its table's); 0 for an arena.
	Rounds int
	// Double plays a round robin's table twice.
	Double     bool
	Conditions Conditions
	Creator    int64
	// CreatorName is the creator's username.
	CreatorName string
	Status      Status
	// Round is the last round paired; in an arena, the number of times
	// players were paired, each a batch of boards.
	Round int
	// Started is when it started, Ends when an arena ends (zero before
	// it starts, and for the other systems).
	Started, Ends time.Time
	Created       time.Time
	// Players is the number of players in it (not withdrawn) when it was
	// read from the store.
	Players int
	// Version counts the tournament's changes (its entries, pairings and
	// results too): a viewer shows the tournament anew when it changes.
	Version int64
}

// Correspondence reports whether the tournament's games are played by
// correspondence, days per move.
func (t *Tournament) Correspondence() bool { return t.Days > 0 }

// Problem is a setting a tournament cannot have.
type Problem struct{ Reason string }

func (p *Problem) Error() string { return "tournament: " + p.Reason }

func problem(format string, args ...any) error { return &Problem{fmt.Sprintf(format, args...)} }

// Check reports what is wrong with a new tournament's settings, now.
func (t *Tournament) Check(now time.Time) error {
	name := strings.TrimSpace(t.Name)
	switch {
	case name == "" || len([]rune(name)) > MaxName:
		return problem("a tournament's name has 1 to %d characters", MaxName)
	case t.System != Arena && t.System != Swiss && t.System != RoundRobin:
		return problem("the system is arena, swiss or roundrobin, not %q", t.System)
	case t.Size != 9 && t.Size != 7:
		return problem("the board size is 9 or 7, not %d", t.Size)
	case (t.Initial > 0) == (t.Days > 0):
		return problem("a tournament has a clock or days per move, not both")
	case t.Initial > 0 && (t.Initial > 3*time.Hour || t.Increment < 0 || t.Increment > time.Minute):
		return problem("the clock gives at most 3 hours and an increment of 0 to 60 seconds")
	case t.Days > MaxDays:
		return problem("days per move are 1 to %d", MaxDays)
	case t.System == Arena && (t.Minutes < 1 || t.Minutes > MaxMinutes):
		return problem("an arena lasts 1 to %d minutes", MaxMinutes)
	case t.System == Arena && t.Correspondence():
		return problem("an arena is played with a clock, not by correspondence")
	case t.System == Swiss && (t.Rounds < 1 || t.Rounds > MaxSwissRound):
		return problem("a Swiss has 1 to %d rounds", MaxSwissRound)
	case !t.Start.IsZero() && (t.Start.Before(now.Add(-time.Minute)) || t.Start.After(now.Add(30*24*time.Hour))):
		return problem("the start is within the next 30 days")
	case len(t.Conditions.Invited) > MaxInvited:
		return problem("at most %d players are invited", MaxInvited)
	case t.Conditions.MinRating < 0 || t.Conditions.MaxRating < 0 || t.Conditions.MinRatedGames < 0:
		return problem("the conditions are not negative")
	case t.Conditions.MaxRating > 0 && t.Conditions.MaxRating < t.Conditions.MinRating:
		return problem("the rating range is empty")
	}
	for _, n := range t.Conditions.Invited {
		if n == "" || len(n) > maxUsername {
			return problem("an invited player is named by his username, of 1 to %d characters", maxUsername)
		}
	}
	t.Name = name
	return nil
}

// Entry is a player in a tournament.
type Entry struct {
	User int64
	Name string
	Bot  bool
	// Rating is his rating in the tournament's pool when he entered,
	// which orders the start numbers.
	Rating    int
	Joined    time.Time
	Withdrawn bool
}

// Candidate is a player who asks to enter: his rating and rated games in
// the tournament's pool, and the password he gave (its SHA-256, hex).
type Candidate struct {
	Name       string
	Rating     int
	RatedGames int
	Password   string
}

// Why a player may not enter.
var (
	ErrStarted     = errors.New("tournament: it has started: a round robin takes no late entries")
	ErrOver        = errors.New("tournament: it is over")
	ErrFull        = errors.New("tournament: it has as many players as it takes")
	ErrRatingLow   = errors.New("tournament: your rating is below the tournament's range")
	ErrRatingHigh  = errors.New("tournament: your rating is above the tournament's range")
	ErrFewGames    = errors.New("tournament: you have not played enough rated games in the tournament's pool")
	ErrNotInvited  = errors.New("tournament: it is for invited players")
	ErrBadPassword = errors.New("tournament: the password is wrong")
	ErrSwissLate   = errors.New("tournament: it has played its last round")
)

// CanEnter reports why c may not enter t as it is, nil if he may. The
// bound on players is the store's to check (ErrFull), counted with the
// write.
func (t *Tournament) CanEnter(c Candidate) error {
	switch {
	case t.Status.Over():
		return ErrOver
	case t.System == RoundRobin && t.Status != Created:
		return ErrStarted
	case t.System == Swiss && t.Round >= t.Rounds:
		return ErrSwissLate
	}
	k := t.Conditions
	if len(k.Invited) > 0 {
		invited := false
		for _, n := range k.Invited {
			invited = invited || strings.EqualFold(n, c.Name)
		}
		if !invited {
			return ErrNotInvited
		}
	}
	switch {
	case k.Password != "" && c.Password != k.Password:
		return ErrBadPassword
	case k.MinRating > 0 && c.Rating < k.MinRating:
		return ErrRatingLow
	case k.MaxRating > 0 && c.Rating > k.MaxRating:
		return ErrRatingHigh
	case c.RatedGames < k.MinRatedGames:
		return ErrFewGames
	}
	return nil
}
