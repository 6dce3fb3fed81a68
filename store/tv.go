package store

import (
	"context"
	"time"
)

// Featured is a game that goes on as the site's TV shows it: its summary
// and its players' ratings in its pool.
type Featured struct {
	Summary
	// Ratings are White's and Black's ratings in the game's pool (its
	// board size, and correspondence for a game with days per move, else
	// live). A seat without an account (a guest, the engine) and an
	// account new to the pool have the default rating given to Featured.
	Ratings [2]float64
}

// TV finds the games the site's TV shows.
type TV interface {
	// Featured returns the best game that goes on of each board size
	// that has any (at most one a size, the larger board first), with
	// its players' ratings, def for a seat that has none. It chooses
	// among the games with both seats taken, not the uploaded records
	// (mode "analysis"), and not the untimed ones (no clock, no days per
	// move) nobody has played in since idle: first the games between two
	// accounts that are not against the engine, and only when none goes
	// on those against the engine or with a guest; within these, the
	// games on a clock first, then by correspondence, then untimed; then
	// the higher mean of the two ratings; then the most recently played;
	// then by ID. Every server of a store chooses alike.
	Featured(ctx context.Context, idle time.Time, def float64) ([]Featured, error)
}
