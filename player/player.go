// Package player holds everything that can choose a move in a game: the
// engine at its levels and the baselines it is measured against (a random
// mover, a greedy one-ply mover, plain Monte-Carlo tree search). Matches,
// terminal play and the server all take a Player.
//
// It is also the one way to the search for the programs above it: it
// builds the engine's searches with their evaluation (Searcher), and
// names the search's limits, reports and scores, so that nothing else
// imports search or eval.
package player

import (
	"context"
	"time"

	"emergo/rules"
)

// Clock is the time situation of a move. A zero Clock means no time limit:
// the player uses its own default.
type Clock struct {
	// MoveTime is a fixed time for this move, if set.
	MoveTime time.Duration
	// Time and Inc are each player's time left and increment, by colour.
	Time, Inc [2]time.Duration
}

// Player chooses moves.
type Player interface {
	// Name identifies the player in records and reports.
	Name() string
	// Move returns a legal move of the current position of g, which is
	// not over. It must return promptly once ctx is done.
	Move(ctx context.Context, g *rules.Game, c Clock) (rules.Move, error)
}

// NewGamer is implemented by players that keep state between moves of a
// game (such as a transposition table) and want to drop it between games.
type NewGamer interface {
	NewGame()
}
