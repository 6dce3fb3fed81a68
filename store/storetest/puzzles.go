package storetest

import (
	"context"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"emergo/puzzle"
	"emergo/rating"
)

// Puzzles runs the suite of a puzzle.Store. open returns an empty store.
func Puzzles(t *testing.T, open func(t *testing.T) puzzle.Store) {
	ctx := context.Background()
	alice := puzzle.Solver{User: 7}
	browser := puzzle.Solver{Key: "b0a1"}
	initial := rating.Rating{Rating: 1200, Deviation: puzzle.InitialDeviation, Volatility: rating.DefaultVolatility}
	attempt := func(t *testing.T, s puzzle.Store, who puzzle.Solver, id string, solved bool, at int64) puzzle.Result {
		t.Helper()
		res, err := s.Attempt(ctx, puzzle.Attempt{Solver: who, Puzzle: id, Initial: initial, Solved: solved, At: ms(at)})
		if err != nil {
			t.Fatalf("Attempt of %s at %s: %v", who, id, err)
		}
		return res
	}
	solverRating := func(t *testing.T, s puzzle.Store, who puzzle.Solver) rating.Rating {
		t.Helper()
		r, err := s.SolverRating(ctx, who)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	t.Run("NothingBeforeTheFirstAttempt", func(t *testing.T) {
		s := open(t)
		if got := solverRating(t, s, alice); got != rating.Default() {
			t.Errorf("rating of a new solver %+v, want the default", got)
		}
		if done, err := s.Attempted(ctx, alice); err != nil || len(done) != 0 {
			t.Errorf("Attempted of a new solver: %v, %v", done, err)
		}
		if rs, err := s.PuzzleRatings(ctx); err != nil || len(rs) != 0 {
			t.Errorf("PuzzleRatings before any attempt: %v, %v", rs, err)
		}
	})
	tests := []struct {
		name   string
		solved bool
		// sign is that of the solver's change; the puzzle's is the other.
		sign float64
	}{
		{"SolvingRaisesTheSolverAndLowersThePuzzle", true, 1},
		{"FailingLowersTheSolverAndRaisesThePuzzle", false, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := open(t)
			res := attempt(t, s, alice, "9-a", tt.solved, 5000)
			if !res.Rated || res.SolverBefore != rating.DefaultRating {
				t.Errorf("first attempt: rated %v, before %v; want rated from %v", res.Rated, res.SolverBefore, rating.DefaultRating)
			}
			if d := res.Solver.Rating - rating.DefaultRating; d*tt.sign <= 0 {
				t.Errorf("the solver's rating moved by %+.1f", d)
			}
			if d := res.Puzzle.Rating - initial.Rating; d*tt.sign >= 0 {
				t.Errorf("the puzzle's rating moved by %+.1f", d)
			}
			if res.Solver.Games != 1 || res.Puzzle.Games != 1 {
				t.Errorf("games: solver %d, puzzle %d; want 1 each", res.Solver.Games, res.Puzzle.Games)
			}
			if got := solverRating(t, s, alice); !cmp.Equal(got, res.Solver) {
				t.Errorf("stored solver rating %+v, want %+v", got, res.Solver)
			}
			rs, err := s.PuzzleRatings(ctx)
			if err != nil || !cmp.Equal(rs, map[string]rating.Rating{"9-a": res.Puzzle}) {
				t.Errorf("PuzzleRatings %+v, %v; want 9-a's %+v", rs, err, res.Puzzle)
			}
			want, _ := puzzle.Attempt{Solved: tt.solved, At: ms(5000)}.Update(rating.Default(), initial)
			if !cmp.Equal(res.Solver, want) {
				t.Errorf("solver after %+v, want rating.Update's %+v", res.Solver, want)
			}
		})
	}
	t.Run("ASecondAttemptIsNotRated", func(t *testing.T) {
		s := open(t)
		first := attempt(t, s, alice, "9-a", false, 5000)
		again := attempt(t, s, alice, "9-a", true, 9000)
		if again.Rated || !cmp.Equal(again.Solver, first.Solver) || !cmp.Equal(again.Puzzle, first.Puzzle) {
			t.Errorf("second attempt %+v, want not rated and the ratings of the first %+v", again, first)
		}
		attempt(t, s, alice, "7-b", true, 10000)
		if done, err := s.Attempted(ctx, alice); err != nil || !cmp.Equal(done, []string{"9-a", "7-b"}) {
			t.Errorf("Attempted %v, %v; want 9-a, 7-b", done, err)
		}
	})
	t.Run("AccountsAndBrowsersApart", func(t *testing.T) {
		s := open(t)
		attempt(t, s, alice, "9-a", true, 5000)
		res := attempt(t, s, browser, "9-a", true, 6000)
		if !res.Rated || res.SolverBefore != rating.DefaultRating || res.Puzzle.Games != 2 {
			t.Errorf("the browser's first attempt %+v: want rated from the default, the puzzle's second play", res)
		}
		if done, _ := s.Attempted(ctx, puzzle.Solver{Key: "other"}); len(done) != 0 {
			t.Errorf("another browser has attempted %v", done)
		}
	})
	t.Run("OneOfRacingFirstAttemptsIsRated", func(t *testing.T) {
		s := open(t)
		const n = 8
		var wg sync.WaitGroup
		results := make([]puzzle.Result, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i] = attempt(t, s, alice, "9-a", i%2 == 0, int64(5000+i))
			}()
		}
		wg.Wait()
		rated := 0
		for _, r := range results {
			if r.Rated {
				rated++
			}
		}
		if got := solverRating(t, s, alice); rated != 1 || got.Games != 1 {
			t.Errorf("%d of %d racing attempts rated, the solver's games %d; want 1", rated, n, got.Games)
		}
	})
}
