package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"emergo/puzzle"
	"emergo/rating"
)

// The DB keeps the puzzles' ratings too.
var _ puzzle.Store = (*DB)(nil)

const ratingColumns = `rating, deviation, volatility`

// SolverRating implements puzzle.Store.
func (s *DB) SolverRating(ctx context.Context, who puzzle.Solver) (rating.Rating, error) {
	r, err := s.solverRating(ctx, s.db, who, false)
	if errors.Is(err, sql.ErrNoRows) {
		return rating.Default(), nil
	}
	if err != nil {
		return rating.Rating{}, fmt.Errorf("sqlstore: puzzle rating of %s: %w", who, err)
	}
	return r, nil
}

// querier is what a read needs: the database or a transaction.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// solverRating reads a solver's row, locked until the transaction ends on
// PostgreSQL if lock is set.
func (s *DB) solverRating(ctx context.Context, q querier, who puzzle.Solver, lock bool) (rating.Rating, error) {
	query := `SELECT ` + ratingColumns + `, games, last_ms FROM puzzle_solvers WHERE solver = ?`
	if lock && s.postgres {
		query += ` FOR UPDATE`
	}
	var r rating.Rating
	var last int64
	err := q.QueryRowContext(ctx, s.rebind(query), who.String()).Scan(&r.Rating, &r.Deviation, &r.Volatility, &r.Games, &last)
	r.Last = fromMS(last)
	return r, err
}

// PuzzleRatings implements puzzle.Store.
func (s *DB) PuzzleRatings(ctx context.Context) (map[string]rating.Rating, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT puzzle_id, `+ratingColumns+`, plays, last_ms FROM puzzle_ratings`)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: puzzle ratings: %w", err)
	}
	defer rows.Close()
	out := map[string]rating.Rating{}
	for rows.Next() {
		var id string
		var r rating.Rating
		var last int64
		if err := rows.Scan(&id, &r.Rating, &r.Deviation, &r.Volatility, &r.Games, &last); err != nil {
			return nil, fmt.Errorf("sqlstore: puzzle ratings: %w", err)
		}
		r.Last = fromMS(last)
		out[id] = r
	}
	return out, rows.Err()
}

// Attempted implements puzzle.Store.
func (s *DB) Attempted(ctx context.Context, who puzzle.Solver) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT puzzle_id FROM puzzle_attempts WHERE solver = ? ORDER BY at_ms, puzzle_id`), who.String())
	if err != nil {
		return nil, fmt.Errorf("sqlstore: puzzles of %s: %w", who, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("sqlstore: puzzles of %s: %w", who, err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// Attempt implements puzzle.Store. The attempt's row is written first:
// of two first attempts at once, the second finds it and changes
// nothing. Then the solver's rating and the puzzle's are read in that
// order, locked on PostgreSQL, so that attempts at once on several
// servers wait for each other; SQLite has one writer at a time.
func (s *DB) Attempt(ctx context.Context, a puzzle.Attempt) (puzzle.Result, error) {
	var res puzzle.Result
	who := a.Solver.String()
	err := s.write(ctx, func(tx *sql.Tx) error {
		res = puzzle.Result{}
		ins, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO puzzle_attempts (solver, puzzle_id, at_ms, solved, rating_before, rating_after)
			VALUES (?, ?, ?, ?, 0, 0) ON CONFLICT DO NOTHING`), who, a.Puzzle, ms(a.At), boolInt(a.Solved))
		if err != nil {
			return err
		}
		n, err := ins.RowsAffected()
		if err != nil {
			return err
		}
		d := rating.Default()
		if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO puzzle_solvers (solver, `+ratingColumns+`, games, last_ms)
			VALUES (?, ?, ?, ?, 0, 0) ON CONFLICT DO NOTHING`), who, d.Rating, d.Deviation, d.Volatility); err != nil {
			return err
		}
		in := a.Initial
		if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO puzzle_ratings (puzzle_id, `+ratingColumns+`, plays, last_ms)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`), a.Puzzle, in.Rating, in.Deviation, in.Volatility, in.Games, ms(in.Last)); err != nil {
			return err
		}
		solver, err := s.solverRating(ctx, tx, a.Solver, true)
		if err != nil {
			return err
		}
		q := `SELECT ` + ratingColumns + `, plays, last_ms FROM puzzle_ratings WHERE puzzle_id = ?`
		if s.postgres {
			q += ` FOR UPDATE`
		}
		var p rating.Rating
		var last int64
		if err := tx.QueryRowContext(ctx, s.rebind(q), a.Puzzle).Scan(&p.Rating, &p.Deviation, &p.Volatility, &p.Games, &last); err != nil {
			return err
		}
		p.Last = fromMS(last)
		res.SolverBefore, res.Solver, res.Puzzle = solver.Rating, solver, p
		if n == 0 {
			return nil // tried before: rated then
		}
		res.Rated = true
		res.Solver, res.Puzzle = a.Update(solver, p)
		if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE puzzle_solvers SET rating = ?, deviation = ?, volatility = ?, games = ?, last_ms = ?
			WHERE solver = ?`), res.Solver.Rating, res.Solver.Deviation, res.Solver.Volatility, res.Solver.Games, ms(res.Solver.Last), who); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE puzzle_ratings SET rating = ?, deviation = ?, volatility = ?, plays = ?, last_ms = ?
			WHERE puzzle_id = ?`), res.Puzzle.Rating, res.Puzzle.Deviation, res.Puzzle.Volatility, res.Puzzle.Games, ms(res.Puzzle.Last), a.Puzzle); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, s.rebind(`UPDATE puzzle_attempts SET rating_before = ?, rating_after = ? WHERE solver = ? AND puzzle_id = ?`),
			res.SolverBefore, res.Solver.Rating, who, a.Puzzle)
		return err
	})
	if err != nil {
		return puzzle.Result{}, fmt.Errorf("sqlstore: attempt of %s at puzzle %s: %w", who, a.Puzzle, err)
	}
	return res, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
