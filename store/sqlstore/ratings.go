package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"emergo/rating"
	"emergo/ratings"
	"emergo/store"
)

// The DB keeps the ratings too.
var _ ratings.Store = (*DB)(nil)

// Ratings implements ratings.Store.
func (s *DB) Ratings(ctx context.Context, user int64) ([]ratings.Entry, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT size, speed, rating, deviation, volatility, games, last_ms
		FROM ratings WHERE user_id = ? ORDER BY size DESC, speed DESC`), user)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: ratings of %d: %w", user, err)
	}
	defer rows.Close()
	var out []ratings.Entry
	for rows.Next() {
		var e ratings.Entry
		var last int64
		if err := rows.Scan(&e.Size, &e.Speed, &e.Rating.Rating, &e.Rating.Deviation, &e.Rating.Volatility, &e.Rating.Games, &last); err != nil {
			return nil, fmt.Errorf("sqlstore: ratings of %d: %w", user, err)
		}
		e.Rating.Last = fromMS(last)
		out = append(out, e)
	}
	return out, rows.Err()
}

const changeColumns = `user_id, size, speed, game_id, at_ms, rating_before, rating_after, deviation`

// History implements ratings.Store.
func (s *DB) History(ctx context.Context, user int64, pool ratings.Pool) ([]ratings.Change, error) {
	return s.changes(ctx, `user_id = ? AND size = ? AND speed = ? ORDER BY at_ms, game_id`, user, pool.Size, pool.Speed)
}

// Changes implements ratings.Store.
func (s *DB) Changes(ctx context.Context, id string) ([]ratings.Change, error) {
	rows, err := s.changes(ctx, `game_id = ?`, id)
	if err != nil || len(rows) != 2 {
		return rows, err
	}
	// White's first: the game's seats say which is whose.
	var white int64
	if err := s.db.QueryRowContext(ctx, s.rebind(`SELECT white_user FROM games WHERE id = ?`), id).Scan(&white); err != nil {
		return nil, fmt.Errorf("sqlstore: rating changes of %s: %w", id, err)
	}
	if rows[0].User != white {
		rows[0], rows[1] = rows[1], rows[0]
	}
	return rows, nil
}

// changes returns the history rows that the condition where selects.
func (s *DB) changes(ctx context.Context, where string, args ...any) ([]ratings.Change, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT `+changeColumns+` FROM rating_history WHERE `+where), args...)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: rating history: %w", err)
	}
	defer rows.Close()
	var out []ratings.Change
	for rows.Next() {
		var c ratings.Change
		var at int64
		if err := rows.Scan(&c.User, &c.Size, &c.Speed, &c.Game, &at, &c.Before, &c.After, &c.Deviation); err != nil {
			return nil, fmt.Errorf("sqlstore: rating history: %w", err)
		}
		c.At = fromMS(at)
		out = append(out, c)
	}
	return out, rows.Err()
}

// Finish implements ratings.Store. The two ratings are read and written
// in the order of the accounts' IDs, locked on PostgreSQL (FOR UPDATE),
// so that two games ending at once on two servers wait for each other
// instead of one losing the other's change; SQLite has one writer at a
// time.
func (s *DB) Finish(ctx context.Context, g *store.Game, keep int, rated ratings.Game) ([2]ratings.Change, error) {
	var out [2]ratings.Change
	err := s.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, s.rebind(`SELECT COUNT(*) FROM rating_history WHERE game_id = ?`), rated.ID).Scan(&n); err != nil {
			return fmt.Errorf("sqlstore: rate %s: %w", rated.ID, err)
		}
		if n > 0 {
			return ratings.ErrRated
		}
		if err := s.update(ctx, tx, g, keep); err != nil {
			return err
		}
		order := []int{0, 1}
		if rated.Users[1] < rated.Users[0] {
			order = []int{1, 0}
		}
		var before [2]rating.Rating
		for _, c := range order {
			r, err := s.lockRating(ctx, tx, rated.Users[c], rated.Pool)
			if err != nil {
				return fmt.Errorf("sqlstore: rate %s: %w", rated.ID, err)
			}
			before[c] = r
		}
		var after [2]rating.Rating
		after[0], after[1] = rated.Update(before[0], before[1])
		for _, c := range order {
			out[c] = ratings.Change{
				User: rated.Users[c], Pool: rated.Pool, Game: rated.ID, At: rated.End,
				Before: before[c].Rating, After: after[c].Rating, Deviation: after[c].Deviation,
			}
			if err := s.putRating(ctx, tx, rated.Users[c], rated.Pool, after[c], out[c]); err != nil {
				return fmt.Errorf("sqlstore: rate %s: %w", rated.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return [2]ratings.Change{}, err
	}
	g.Version++
	return out, nil
}

// lockRating returns the account's rating in pool as stored, creating
// the row of a new player's rating if it has none (and on PostgreSQL
// locking it until the transaction ends).
func (s *DB) lockRating(ctx context.Context, tx *sql.Tx, user int64, pool ratings.Pool) (rating.Rating, error) {
	d := rating.Default()
	if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO ratings (user_id, size, speed, rating, deviation, volatility, games, last_ms)
		VALUES (?, ?, ?, ?, ?, ?, 0, 0) ON CONFLICT DO NOTHING`), user, pool.Size, pool.Speed, d.Rating, d.Deviation, d.Volatility); err != nil {
		return rating.Rating{}, err
	}
	q := `SELECT rating, deviation, volatility, games, last_ms FROM ratings WHERE user_id = ? AND size = ? AND speed = ?`
	if s.postgres {
		q += ` FOR UPDATE`
	}
	var r rating.Rating
	var last int64
	if err := tx.QueryRowContext(ctx, s.rebind(q), user, pool.Size, pool.Speed).Scan(&r.Rating, &r.Deviation, &r.Volatility, &r.Games, &last); err != nil {
		return rating.Rating{}, err
	}
	r.Last = fromMS(last)
	return r, nil
}

// putRating stores the account's new rating in pool and the change that
// made it.
func (s *DB) putRating(ctx context.Context, tx *sql.Tx, user int64, pool ratings.Pool, r rating.Rating, c ratings.Change) error {
	if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE ratings SET rating = ?, deviation = ?, volatility = ?, games = ?, last_ms = ?
		WHERE user_id = ? AND size = ? AND speed = ?`), r.Rating, r.Deviation, r.Volatility, r.Games, ms(r.Last), user, pool.Size, pool.Speed); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO rating_history (`+changeColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
		c.User, c.Size, c.Speed, c.Game, ms(c.At), c.Before, c.After, c.Deviation)
	return err
}
