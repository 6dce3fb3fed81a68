package sqlstore

import (
	"context"
	"fmt"
	"time"

	"emergo/store"
)

// featuredSQL ranks the games that go on of each size as store.TV's
// Featured orders them, in one pass over the games without a result
// (the index games_ongoing), and keeps the first of each size. A seat's
// rating is the account's in the game's pool: correspondence for a game
// with days per move, else live.
const featuredSQL = `SELECT ` + summaryColumns + `, g.white_rating, g.black_rating FROM (
	SELECT r.*, ROW_NUMBER() OVER (PARTITION BY r.size ORDER BY
		CASE WHEN r.mode = 'engine' OR r.white_user = 0 OR r.black_user = 0 THEN 1 ELSE 0 END,
		CASE WHEN r.days > 0 THEN 1 WHEN r.initial_ms > 0 THEN 0 ELSE 2 END,
		r.white_rating + r.black_rating DESC, r.updated_ms DESC, r.id) AS tv_rank
	FROM (
		SELECT games.*,
			COALESCE((SELECT w.rating FROM ratings w WHERE w.user_id = games.white_user AND games.white_user <> 0
				AND w.size = games.size AND w.speed = CASE WHEN games.days > 0 THEN 'correspondence' ELSE 'live' END), ?) AS white_rating,
			COALESCE((SELECT b.rating FROM ratings b WHERE b.user_id = games.black_user AND games.black_user <> 0
				AND b.size = games.size AND b.speed = CASE WHEN games.days > 0 THEN 'correspondence' ELSE 'live' END), ?) AS black_rating
		FROM games
		WHERE games.result = '*' AND games.reason = '' AND games.mode <> 'analysis'
			AND (games.white_token <> '' OR games.white_engine <> 0 OR games.white_user <> 0)
			AND (games.black_token <> '' OR games.black_engine <> 0 OR games.black_user <> 0)
			AND NOT (games.days = 0 AND games.initial_ms = 0 AND games.updated_ms < ?)
	) r
) g WHERE g.tv_rank = 1 ORDER BY g.size DESC`

// Featured implements store.TV.
func (s *DB) Featured(ctx context.Context, idle time.Time, def float64) ([]store.Featured, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(featuredSQL), def, def, ms(idle))
	if err != nil {
		return nil, fmt.Errorf("sqlstore: featured: %w", err)
	}
	defer rows.Close()
	var out []store.Featured
	for rows.Next() {
		var f store.Featured
		if err := scanSummary(rows, &f.Summary, &f.Ratings[0], &f.Ratings[1]); err != nil {
			return nil, fmt.Errorf("sqlstore: featured: %w", err)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}
