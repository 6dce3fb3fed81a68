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
	created_ms, expires_ms, updated_ms, allow_bots, from_bot, to_bot`

// CreateChallenge implements lobby.Store: the challenger's pending
// challenges and all are counted in the transaction of the insert. On
// SQLite that transaction holds the database's one write lock from its
// start; on PostgreSQL, whose transactions would each count before the
// other's insert, every CreateChallenge of the schema takes one advisory
// lock first (for as long as its transaction), so that the count is
// exact between servers too. Posting a challenge is rare enough to wait
// for another.
func (s *DB) CreateChallenge(ctx context.Context, c *lobby.Challenge, limits lobby.Limits) error {
	insert := s.rebind(`INSERT INTO challenges (` + challengeColumns + `) VALUES (?` + strings.Repeat(", ?", 21) + `)`)
	who, party := partyIs("from", c.From)
	count := s.rebind(`SELECT
		(SELECT COUNT(*) FROM challenges WHERE ` + who + ` AND ` + isPending + ` AND expires_ms > ?),
		(SELECT COUNT(*) FROM challenges WHERE ` + isPending + ` AND expires_ms > ?)`)
	return s.serialized(ctx, challengesLock, func(tx *sql.Tx) error {
		var mine, total int
		if err := tx.QueryRowContext(ctx, count, party, ms(c.Created), ms(c.Created)).Scan(&mine, &total); err != nil {
			return fmt.Errorf("sqlstore: create challenge: count: %w", err)
		}
		if err := limits.Admit(c.From, mine, total); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, insert, c.ID, c.From.User, c.From.Token, c.From.Name, c.To.User, c.To.Token, c.To.Name,
			c.Size, dms(c.Control.Time), dms(c.Control.Increment), c.Control.Days, b2i(c.Rated), int(c.Color), c.Rematch,
			string(c.Status), c.Game, ms(c.Created), ms(c.Expires), ms(c.Updated), b2i(c.AllowBots),
			b2i(c.From.Bot), b2i(c.To.Bot))
		if err != nil {
			return fmt.Errorf("sqlstore: create challenge: %w", err)
		}
		return nil
	})
}

// isPending selects the challenges not answered (expired or not).
const isPending = `status = '` + string(lobby.Pending) + `'`

// partyIs is the condition that a challenge's side ("from" or "to") is
// p, as lobby.Party.Is has it (an account, else a guest's browser), and
// its argument. A guest's condition on from_user or to_user is written
// +x = 0, which SQLite takes as no use for an index, lest it read every
// guest's challenges by the accounts' index instead of the browser's
// (migration 015).
func partyIs(side string, p lobby.Party) (string, any) {
	if p.User != 0 {
		return side + `_user = ?`, p.User
	}
	return side + `_token = ? AND +` + side + `_user = 0`, p.Token
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

// OpenChallenges implements lobby.Store: turn numbers each challenger's
// challenges, the oldest first, and the limit is taken in its order.
func (s *DB) OpenChallenges(ctx context.Context, now time.Time, limit int) ([]lobby.Challenge, error) {
	return s.challengesQuery(ctx, `SELECT `+challengeColumns+` FROM (
		SELECT `+challengeColumns+`, ROW_NUMBER() OVER (PARTITION BY `+challenger+` ORDER BY created_ms, id) AS turn
		FROM challenges WHERE to_user = 0 AND to_token = '' AND `+isPending+` AND expires_ms > ?
		ORDER BY turn, created_ms, id LIMIT ?
	) o ORDER BY created_ms, id`, ms(now), limit)
}

// challenger is the expression of a challenge's challenger, as
// lobby.Party.Is tells them apart: the account, else the guest's browser.
const challenger = `from_user, CASE WHEN from_user = 0 THEN from_token ELSE '' END`

// ChallengesOf implements lobby.Store. Each side is read in one range of
// its index (migration 015): a challenge pending at now or answered after
// since expires after since, as it was answered before it expired. When
// there are more than limit, soon is the order they are kept in: the
// pending, the oldest first, then the answered, the latest first.
func (s *DB) ChallengesOf(ctx context.Context, p lobby.Party, now, since time.Time, limit int) ([]lobby.Challenge, error) {
	if p.User == 0 && p.Token == "" {
		return nil, nil
	}
	const (
		answered = `CASE WHEN ` + isPending + ` THEN 0 ELSE 1 END`
		soon     = answered + `, CASE WHEN ` + isPending + ` THEN created_ms ELSE -updated_ms END, id`
		shown    = `status IN ('pending', 'accepted', 'declined', 'cancelled') AND expires_ms > ?
			AND ((` + isPending + ` AND expires_ms > ?) OR (NOT ` + isPending + ` AND updated_ms > ?))`
	)
	mine, me := partyIs("from", p)
	toMe, _ := partyIs("to", p)
	return s.challengesQuery(ctx, `SELECT `+challengeColumns+` FROM (
		SELECT `+challengeColumns+` FROM (
			SELECT `+challengeColumns+` FROM challenges WHERE `+mine+` AND `+shown+`
			ORDER BY `+soon+` LIMIT ?
		) m
		UNION ALL
		SELECT `+challengeColumns+` FROM (
			SELECT `+challengeColumns+`, `+answered+` AS answered,
				ROW_NUMBER() OVER (PARTITION BY `+challenger+`, `+answered+` ORDER BY `+soon+`) AS turn
			FROM challenges WHERE `+toMe+` AND `+shown+`
			ORDER BY answered, turn, `+soon+` LIMIT ?
		) t
	) u ORDER BY created_ms, id`, me, ms(since), ms(now), ms(since), limit, me, ms(since), ms(now), ms(since), limit)
}

// challenges returns the challenges that the condition where selects.
func (s *DB) challenges(ctx context.Context, where string, args ...any) ([]lobby.Challenge, error) {
	return s.challengesQuery(ctx, `SELECT `+challengeColumns+` FROM challenges WHERE `+where, args...)
}

// challengesQuery returns the challenges that q selects, whose columns are
// challengeColumns.
func (s *DB) challengesQuery(ctx context.Context, q string, args ...any) ([]lobby.Challenge, error) {
	rows, err := s.query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: challenges: %w", err)
	}
	defer rows.Close()
	var out []lobby.Challenge
	for rows.Next() {
		var c lobby.Challenge
		var initial, inc, created, expires, updated int64
		var rated, color, bots, fromBot, toBot int
		var status string
		if err := rows.Scan(&c.ID, &c.From.User, &c.From.Token, &c.From.Name, &c.To.User, &c.To.Token, &c.To.Name,
			&c.Size, &initial, &inc, &c.Control.Days, &rated, &color, &c.Rematch, &status, &c.Game,
			&created, &expires, &updated, &bots, &fromBot, &toBot); err != nil {
			return nil, fmt.Errorf("sqlstore: challenges: %w", err)
		}
		c.Control.Time, c.Control.Increment = time.Duration(initial)*time.Millisecond, time.Duration(inc)*time.Millisecond
		c.Rated, c.Color, c.Status, c.AllowBots = rated == 1, lobby.Color(color), lobby.Status(status), bots == 1
		c.From.Bot, c.To.Bot = fromBot == 1, toBot == 1
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
