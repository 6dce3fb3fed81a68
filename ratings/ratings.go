// Package ratings keeps the site's ratings: each account's Glicko-2
// rating (package rating) in each pool of rated games, a board size and a
// speed, with a history row per rated game, and the rating of a rated
// game when it ends. Its storage is the small Store interface below,
// implemented by store/sqlstore; which games are rated is the server's
// to decide, how a result changes the ratings rating's.
package ratings

import (
	"context"
	"errors"
	"fmt"
	"time"

	"emergo/rating"
	"emergo/store"
)

// Speed is how fast a pool's games are played.
type Speed string

const (
	// Live games run a clock (minutes and an increment).
	Live Speed = "live"
	// Correspondence games give days per move.
	Correspondence Speed = "correspondence"
)

// Sizes and Speeds list the pools' board sizes and speeds in the order
// pages show them.
var (
	Sizes  = []int{9, 7}
	Speeds = []Speed{Live, Correspondence}
)

// SpeedOf returns the speed of a game with a clock of initial time, or
// days per move: ok is false for a game with neither, which cannot be
// rated.
func SpeedOf(initial time.Duration, days int) (s Speed, ok bool) {
	switch {
	case days > 0:
		return Correspondence, true
	case initial > 0:
		return Live, true
	}
	return "", false
}

// ParseSpeed reads a Speed's word.
func ParseSpeed(text string) (Speed, error) {
	for _, s := range Speeds {
		if string(s) == text {
			return s, nil
		}
	}
	return "", fmt.Errorf("ratings: unknown speed %q (want live or correspondence)", text)
}

// Pool is the games whose results make one rating: those of a board size
// at a speed.
type Pool struct {
	Size  int
	Speed Speed
}

func (p Pool) String() string { return fmt.Sprintf("%dx%d %s", p.Size, p.Size, p.Speed) }

// Entry is an account's rating in a pool, as stored: rating.Rating.At
// brings its deviation to a later time.
type Entry struct {
	Pool
	Rating rating.Rating
}

// Change is a row of an account's history: what one rated game did to
// its rating.
type Change struct {
	User int64
	Pool
	Game          string
	At            time.Time // the end of the game
	Before, After float64   // the rating before and after the game
	Deviation     float64   // the deviation after the game
}

// Diff is the change of the rating, After - Before.
func (c Change) Diff() float64 { return c.After - c.Before }

// Game is a rated game at its end, as its rating needs it.
type Game struct {
	ID    string
	Pool  Pool
	Users [2]int64 // the accounts of White and Black
	// Score is White's: 1 a win, 0.5 a draw, 0 a loss.
	Score float64
	End   time.Time
}

// Update returns the ratings of White and Black after g, from their
// ratings before it as stored (rating.Update: one game is one rating
// period).
func (g Game) Update(white, black rating.Rating) (rating.Rating, rating.Rating) {
	return rating.Update(white, black, g.Score, g.End)
}

// check reports what makes g unfit to be rated.
func (g Game) check() error {
	switch {
	case g.Users[0] == 0 || g.Users[1] == 0:
		return fmt.Errorf("ratings: game %s: a rated game needs an account on both seats", g.ID)
	case g.Users[0] == g.Users[1]:
		return fmt.Errorf("ratings: game %s: an account cannot play itself in a rated game", g.ID)
	case g.Score != 0 && g.Score != 0.5 && g.Score != 1:
		return fmt.Errorf("ratings: game %s: score %v is not 0, 0.5 or 1", g.ID, g.Score)
	case g.End.IsZero():
		return fmt.Errorf("ratings: game %s: no end time", g.ID)
	}
	return nil
}

// ErrRated is the error of Finish for a game that was rated already.
var ErrRated = errors.New("ratings: the game was rated already")

// Store keeps ratings and their history.
type Store interface {
	// Ratings returns the account's ratings in the pools it has played
	// rated games in, the larger board first, then live before
	// correspondence. A pool not listed is rating.Default().
	Ratings(ctx context.Context, user int64) ([]Entry, error)
	// History returns the changes of the account's rating in a pool, the
	// oldest first.
	History(ctx context.Context, user int64, pool Pool) ([]Change, error)
	// Changes returns what the rated game id did to its players' ratings:
	// White's change and Black's, or none if it was not rated.
	Changes(ctx context.Context, id string) ([]Change, error)
	// Finish writes g, a rated game that this write ends, as
	// store.Store's Update does (store.ErrConflict if its stored version
	// is not g.Version), and rates it in the same transaction: it reads
	// both accounts' ratings in rated.Pool (rating.Default() for none),
	// calls rated.Update once, stores the new ratings and a Change for
	// each player, and returns White's and Black's. A game is rated once:
	// if rated.ID has changes already, Finish writes nothing and returns
	// ErrRated.
	Finish(ctx context.Context, g *store.Game, keep int, rated Game) ([2]Change, error)
}

// Finish writes the last state g of the rated game rated, and rates it,
// in one transaction of st (Store.Finish), after checking that rated can
// be rated. Its End is taken to the millisecond, as the stores keep
// times, so that the ratings computed are those that the stored ones
// give again.
func Finish(ctx context.Context, st Store, g *store.Game, keep int, rated Game) ([2]Change, error) {
	rated.End = time.UnixMilli(rated.End.UnixMilli()).UTC()
	if err := rated.check(); err != nil {
		return [2]Change{}, err
	}
	if g.ID != rated.ID {
		return [2]Change{}, fmt.Errorf("ratings: game %s written as the rating of %s", g.ID, rated.ID)
	}
	return st.Finish(ctx, g, keep, rated)
}

// Of returns the rating of pool among entries, rating.Default() if it
// has none.
func Of(entries []Entry, pool Pool) rating.Rating {
	for _, e := range entries {
		if e.Pool == pool {
			return e.Rating
		}
	}
	return rating.Default()
}
