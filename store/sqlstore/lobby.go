package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"emergo/lobby"
	"emergo/store"
)

// The DB keeps the lobby's challenges too.
var _ lobby.Store = (*DB)(nil)

const challengeColumns = `id, from_user, from_token, from_name, to_user, to_token, to_name,
	size, initial_ms, increment_ms, days, rated, color, rematch, status, game_id,
	created_ms, expires_ms, updated_ms`

// CreateChallenge implements lobby.Store.
func (s *DB) CreateChallenge(ctx context.Context, c *lobby.Challenge) error {
	q := s.rebind(`INSERT INTO challenges (` + challengeColumns + `) VALUES (?` + strings.Repeat(", ?", 18) + `)`)
	return s.exec(ctx, "create challenge", q, c.ID, c.From.User, c.From.Token, c.From.Name, c.To.User, c.To.Token, c.To.Name,
		c.Size, dms(c.Control.Time), dms(c.Control.Increment), c.Control.Days, b2i(c.Rated), int(c.Color), c.Rematch,
		string(c.Status), c.Game, ms(c.Created), ms(c.Expires), ms(c.Updated))
}

// Challenge implements lobby.Store.
func (s *DB) Challenge(ctx context.Context, id string) (*lobby.Challenge, error) {
	return s.oneChallenge(ctx, `id = ?`, id)
}

// RematchOf implements lobby.Store.
func (s *DB) RematchOf(ctx context.Context, id string) (*lobby.Challenge, error) {
	return s.oneChallenge(ctx, `rematch = ? ORDER BY created_ms DESC, id DESC LIMIT 1`, id)
}

func (s *DB) oneChallenge(ctx context.Context, where string, arg any) (*lobby.Challenge, error) {
	cs, err := s.challenges(ctx, where, arg)
	if err != nil {
		return nil, err
	}
	if len(cs) == 0 {
		return nil, lobby.ErrNotFound
	}
	return &cs[0], nil
}

// Challenges implements lobby.Store.
func (s *DB) Challenges(ctx context.Context, now, since time.Time, limit int) ([]lobby.Challenge, error) {
	return s.challenges(ctx, `(status = ? AND expires_ms > ?) OR (status <> ? AND updated_ms > ?)
		ORDER BY created_ms, id LIMIT ?`, string(lobby.Pending), ms(now), string(lobby.Pending), ms(since), limit)
}

// challenges returns the challenges that the condition where selects.
func (s *DB) challenges(ctx context.Context, where string, args ...any) ([]lobby.Challenge, error) {
	rows, err := s.query(ctx, `SELECT `+challengeColumns+` FROM challenges WHERE `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: challenges: %w", err)
	}
	defer rows.Close()
	var out []lobby.Challenge
	for rows.Next() {
		var c lobby.Challenge
		var initial, inc, created, expires, updated int64
		var rated, color int
		var status string
		if err := rows.Scan(&c.ID, &c.From.User, &c.From.Token, &c.From.Name, &c.To.User, &c.To.Token, &c.To.Name,
			&c.Size, &initial, &inc, &c.Control.Days, &rated, &color, &c.Rematch, &status, &c.Game,
			&created, &expires, &updated); err != nil {
			return nil, fmt.Errorf("sqlstore: challenges: %w", err)
		}
		c.Control.Time, c.Control.Increment = time.Duration(initial)*time.Millisecond, time.Duration(inc)*time.Millisecond
		c.Rated, c.Color, c.Status = rated == 1, lobby.Color(color), lobby.Status(status)
		c.Created, c.Expires, c.Updated = fromMS(created), fromMS(expires), fromMS(updated)
		out = append(out, c)
	}
	return out, rows.Err()
}

// Accept implements lobby.Store.
func (s *DB) Accept(ctx context.Context, id string, now time.Time, g *store.Game) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		if err := s.decide(ctx, tx, id, lobby.Accepted, g.ID, now); err != nil {
			return err
		}
		return s.create(ctx, tx, g)
	})
	if err != nil {
		return err
	}
	g.Version = 1
	return nil
}

// Answer implements lobby.Store.
func (s *DB) Answer(ctx context.Context, id string, status lobby.Status, now time.Time) error {
	return s.write(ctx, func(tx *sql.Tx) error { return s.decide(ctx, tx, id, status, "", now) })
}

// decide gives the challenge id status and game at now in tx, if it is
// pending at now: ErrGone if not, ErrNotFound if there is none.
func (s *DB) decide(ctx context.Context, tx *sql.Tx, id string, status lobby.Status, game string, now time.Time) error {
	res, err := tx.ExecContext(ctx, s.rebind(`UPDATE challenges SET status = ?, game_id = ?, updated_ms = ?
		WHERE id = ? AND status = ? AND expires_ms > ?`), string(status), game, ms(now), id, string(lobby.Pending), ms(now))
	if err != nil {
		return fmt.Errorf("sqlstore: challenge %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("sqlstore: challenge %s: %w", id, err)
	} else if n == 1 {
		return nil
	}
	var n int
	if err := tx.QueryRowContext(ctx, s.rebind(`SELECT COUNT(*) FROM challenges WHERE id = ?`), id).Scan(&n); err != nil {
		return fmt.Errorf("sqlstore: challenge %s: %w", id, err)
	}
	if n == 0 {
		return lobby.ErrNotFound
	}
	return lobby.ErrGone
}

// Prune implements lobby.Store.
func (s *DB) Prune(ctx context.Context, before time.Time) error {
	return s.exec(ctx, "prune challenges", s.rebind(`DELETE FROM challenges WHERE (status = ? AND expires_ms < ?) OR (status <> ? AND updated_ms < ?)`),
		string(lobby.Pending), ms(before), string(lobby.Pending), ms(before))
}
