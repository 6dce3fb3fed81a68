package sqlstore

import (
	"context"
	"fmt"
	"strings"

	"emergo/store"
)

// notAborted leaves out the games called off before they began: without
// a result, but ended.
const notAborted = `(result <> '*' OR reason = '')`

// PlayerGames implements store.Store. Each colour's games are one range of
// its index (migration 005), read in the list's order up to the limit;
// the page is the first of the two merged.
func (s *DB) PlayerGames(ctx context.Context, q store.PlayerQuery) ([]store.Summary, error) {
	if q.User == 0 || q.Limit <= 0 {
		return nil, nil
	}
	var args []any
	side := func(me, them, win, loss string) string {
		conds := []string{me + ` = ?`, notAborted}
		args = append(args, q.User)
		if me == "black_user" {
			// A game against oneself is listed once, as White's.
			conds = append(conds, `white_user <> ?`)
			args = append(args, q.User)
		}
		switch q.Outcome {
		case store.Won:
			conds = append(conds, `result = '`+win+`'`)
		case store.Lost:
			conds = append(conds, `result = '`+loss+`'`)
		case store.Drawn:
			conds = append(conds, `result = '1/2-1/2'`)
		case store.Playing:
			conds = append(conds, `result = '*'`)
		case store.Finished:
			conds = append(conds, `result <> '*'`)
		}
		if q.Opponent != 0 {
			conds = append(conds, them+` = ?`)
			args = append(args, q.Opponent)
		}
		if q.Size != 0 {
			conds = append(conds, `size = ?`)
			args = append(args, q.Size)
		}
		if !q.Before.IsZero() {
			conds = append(conds, `(created_ms, id) < (?, ?)`)
			args = append(args, ms(q.Before.Created), q.Before.ID)
		}
		args = append(args, q.Limit)
		return `SELECT * FROM games WHERE ` + strings.Join(conds, " AND ") + ` ORDER BY created_ms DESC, id DESC LIMIT ?`
	}
	white := side("white_user", "black_user", "1-0", "0-1")
	black := side("black_user", "white_user", "0-1", "1-0")
	return s.summariesFrom(ctx, "player games", `(SELECT * FROM (`+white+`) w UNION ALL SELECT * FROM (`+black+`) b) g
		ORDER BY g.created_ms DESC, g.id DESC LIMIT ?`, append(args, q.Limit)...)
}

// CountGames implements store.Store.
func (s *DB) CountGames(ctx context.Context, user int64) (store.GameCounts, error) {
	var c store.GameCounts
	rows, err := s.db.QueryContext(ctx, s.rebind(`
		SELECT 0, result, COUNT(*) FROM games WHERE white_user = ? AND `+notAborted+` GROUP BY result
		UNION ALL
		SELECT 1, result, COUNT(*) FROM games WHERE black_user = ? AND white_user <> ? AND `+notAborted+` GROUP BY result`),
		user, user, user)
	if err != nil {
		return c, fmt.Errorf("sqlstore: count games of %d: %w", user, err)
	}
	defer rows.Close()
	for rows.Next() {
		var color, n int
		var result string
		if err := rows.Scan(&color, &result, &n); err != nil {
			return c, fmt.Errorf("sqlstore: count games of %d: %w", user, err)
		}
		switch {
		case result == "*":
			c.Ongoing += n
		case result == "1/2-1/2":
			c.Drawn += n
		case (result == "1-0") == (color == 0):
			c.Won += n
		default:
			c.Lost += n
		}
	}
	return c, rows.Err()
}
