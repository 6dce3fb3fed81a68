package puzzle

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"emergo/rating"
	"emergo/rules"
)

// Solver is who solves puzzles: an account, or a browser without one,
// known by the random key of its cookie. Each has one puzzle rating.
type Solver struct {
	User int64  // the account, or 0
	Key  string // the browser's key when User is 0
}

// String is the solver as the store keys it: "u:12" for an account,
// "k:" and the key for a browser.
func (s Solver) String() string {
	if s.User != 0 {
		return "u:" + strconv.FormatInt(s.User, 10)
	}
	return "k:" + s.Key
}

// Valid reports whether s names a solver.
func (s Solver) Valid() bool { return s.User > 0 || (s.User == 0 && s.Key != "") }

// InitialDeviation is the deviation of a puzzle's first stored rating:
// its initial rating is the generator's estimate (Rate), surer than a
// newcomer's 1500 but to be corrected by the first solvers.
const InitialDeviation = 250.0

// Initial returns the rating a puzzle starts with, from its Rating.
func (p *Puzzle) Initial() rating.Rating {
	return rating.Rating{Rating: float64(p.Rating), Deviation: InitialDeviation, Volatility: rating.DefaultVolatility}
}

// Attempt is a solver's try at a puzzle, which rates both as a game
// between them: solving is the solver's win, failing the puzzle's.
type Attempt struct {
	Solver Solver
	Puzzle string
	// Initial is the puzzle's rating if none is stored yet (Initial).
	Initial rating.Rating
	Solved  bool
	At      time.Time
}

// Update returns the ratings of the solver and the puzzle after a, from
// theirs before it: one game of a rating period (rating.Update).
func (a Attempt) Update(solver, puzzle rating.Rating) (rating.Rating, rating.Rating) {
	score := 0.0
	if a.Solved {
		score = 1
	}
	return rating.Update(solver, puzzle, score, a.At)
}

// Result is what an attempt did.
type Result struct {
	// Rated is false for a second attempt of a solver at a puzzle, which
	// changes no rating (as on lichess: a puzzle is rated on its first
	// try).
	Rated bool
	// SolverBefore is the solver's rating before the attempt; Solver and
	// Puzzle are the ratings after it.
	SolverBefore   float64
	Solver, Puzzle rating.Rating
}

// Store keeps the puzzles' and the solvers' ratings and the attempts.
type Store interface {
	// SolverRating returns the solver's puzzle rating, rating.Default()
	// for a solver who has not tried any.
	SolverRating(ctx context.Context, s Solver) (rating.Rating, error)
	// PuzzleRatings returns the stored ratings of the puzzles that have
	// been tried, by id; the others have their Initial rating.
	PuzzleRatings(ctx context.Context) (map[string]rating.Rating, error)
	// Attempted returns the ids of the puzzles the solver has tried.
	Attempted(ctx context.Context, s Solver) ([]string, error)
	// Attempt stores a and rates it in one transaction: it reads the
	// solver's rating and the puzzle's (a.Initial if none), calls
	// a.Update once and stores both with a row of the attempt. A
	// solver's second attempt at a puzzle changes nothing and returns
	// the ratings as they are, Rated false.
	Attempt(ctx context.Context, a Attempt) (Result, error)
}

// Filter chooses among puzzles.
type Filter struct {
	Size  int   // 9 or 7
	Theme Theme // "" for any
}

// nearest is how many of the puzzles nearest the solver's rating Next
// chooses among, at random, so that solvers of one rating get different
// puzzles.
const nearest = 8

// Next chooses a puzzle of set for a solver rated r: one he has not tried
// (done), that f allows, among the nearest in rating, the puzzles' stored
// ratings (stored) taking the place of their initial ones. It returns nil
// when he has tried every puzzle f allows.
func Next(set *Collection, f Filter, r float64, done []string, stored map[string]rating.Rating, rng *rand.Rand) *Puzzle {
	type cand struct {
		p    *Puzzle
		dist float64
	}
	var cs []cand
	for i := range set.Puzzles {
		p := &set.Puzzles[i]
		if f.Theme != "" && !p.HasTheme(f.Theme) || slices.Contains(done, p.ID) {
			continue
		}
		pr := float64(p.Rating)
		if s, ok := stored[p.ID]; ok {
			pr = s.Rating
		}
		cs = append(cs, cand{p, math.Abs(pr - r)})
	}
	if len(cs) == 0 {
		return nil
	}
	slices.SortStableFunc(cs, func(a, b cand) int {
		switch {
		case a.dist < b.dist:
			return -1
		case a.dist > b.dist:
			return 1
		}
		return 0
	})
	return cs[rng.IntN(min(nearest, len(cs)))].p
}

// ParseTheme reads a theme's name; "" is any theme.
func ParseTheme(text string) (Theme, error) {
	if text == "" || slices.Contains(Themes, Theme(text)) {
		return Theme(text), nil
	}
	return "", fmt.Errorf("puzzle: unknown theme %q", text)
}

// Judge reads the solver's moves, his alone (the replies are the line's),
// against the solution: solved when every one is accepted and they are
// all there; wrong is the index among them of the first that is not, or
// -1.
func (p *Puzzle) Judge(moves []rules.Move) (solved bool, wrong int) {
	for k, m := range moves {
		if 2*k >= len(p.Line) || !p.Line[2*k].Accepts(m) {
			return false, k
		}
	}
	return len(moves) == p.SolverMoves(), -1
}
