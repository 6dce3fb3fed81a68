package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"emergo/notify"
	"emergo/store"
)

// The DB keeps the notifications, push subscriptions and follows too.
var _ notify.Store = (*DB)(nil)

// AddNotification implements notify.Store. A notification of a kind
// that has one unread is written over it: its unread_key (n.Unread) is
// unique (migration 020), so that of two servers adding one at once the
// second writes over the first's. The account's oldest beyond keep are
// deleted in the same transaction.
func (s *DB) AddNotification(ctx context.Context, n *notify.Notification, keep int) (bool, error) {
	var key any // NULL: no other notification takes this one's place
	if k := n.Unread(); k != "" {
		key = k
	}
	update := s.rebind(`UPDATE notifications SET from_user = ?, created_ms = ? WHERE user_id = ? AND unread_key = ? RETURNING id`)
	insert := s.rebind(`INSERT INTO notifications (user_id, kind, game_id, from_user, created_ms, is_read, unread_key)
		VALUES (?, ?, ?, ?, ?, 0, ?)
		ON CONFLICT (user_id, unread_key) DO UPDATE SET from_user = excluded.from_user, created_ms = excluded.created_ms
		RETURNING id`)
	trim := s.rebind(`DELETE FROM notifications WHERE user_id = ? AND id NOT IN
		(SELECT id FROM notifications WHERE user_id = ? ORDER BY created_ms DESC, id DESC LIMIT ?)`)
	fresh := false
	err := s.write(ctx, func(tx *sql.Tx) error {
		fresh = false
		if key != nil {
			err := tx.QueryRowContext(ctx, update, n.From, ms(n.Created), n.User, key).Scan(&n.ID)
			if err == nil {
				return nil
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("sqlstore: add notification: %w", err)
			}
		}
		if err := tx.QueryRowContext(ctx, insert, n.User, n.Type, n.Game, n.From, ms(n.Created), key).Scan(&n.ID); err != nil {
			return fmt.Errorf("sqlstore: add notification: %w", err)
		}
		fresh = true
		if _, err := tx.ExecContext(ctx, trim, n.User, n.User, keep); err != nil {
			return fmt.Errorf("sqlstore: add notification: trim: %w", err)
		}
		return nil
	})
	return fresh && err == nil, err
}

// Notifications implements notify.Store.
func (s *DB) Notifications(ctx context.Context, user int64, limit int) ([]notify.Notification, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT n.id, n.kind, n.game_id, n.from_user, COALESCE(u.name, ''), n.created_ms, n.is_read
		FROM notifications n LEFT JOIN users u ON u.id = n.from_user
		WHERE n.user_id = ? ORDER BY n.created_ms DESC, n.id DESC LIMIT ?`), user, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: notifications: %w", err)
	}
	defer rows.Close()
	var out []notify.Notification
	for rows.Next() {
		n := notify.Notification{User: user}
		var created int64
		var read int
		if err := rows.Scan(&n.ID, &n.Type, &n.Game, &n.From, &n.FromName, &created, &read); err != nil {
			return nil, fmt.Errorf("sqlstore: notifications: %w", err)
		}
		n.Created, n.Read = fromMS(created), read == 1
		out = append(out, n)
	}
	return out, rows.Err()
}

// MarkRead implements notify.Store. A notification read gives up its
// unread_key, so that the game's next yourTurn is a new one.
func (s *DB) MarkRead(ctx context.Context, user int64, ids []int64) error {
	q := `UPDATE notifications SET is_read = 1, unread_key = NULL WHERE user_id = ? AND is_read = 0`
	args := []any{user}
	if ids != nil {
		if len(ids) == 0 {
			return nil
		}
		q += ` AND id IN (?` + strings.Repeat(", ?", len(ids)-1) + `)`
		for _, id := range ids {
			args = append(args, id)
		}
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.rebind(q), args...); err != nil {
			return fmt.Errorf("sqlstore: mark read: %w", err)
		}
		return nil
	})
}

// AddSubscription implements notify.Store.
func (s *DB) AddSubscription(ctx context.Context, sub notify.Subscription, max int) error {
	upsert := s.rebind(`INSERT INTO push_subscriptions (endpoint, user_id, p256dh, auth, created_ms) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh,
		auth = excluded.auth, created_ms = excluded.created_ms`)
	trim := s.rebind(`DELETE FROM push_subscriptions WHERE user_id = ? AND endpoint NOT IN
		(SELECT endpoint FROM push_subscriptions WHERE user_id = ? ORDER BY created_ms DESC, endpoint LIMIT ?)`)
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, upsert, sub.Endpoint, sub.User, sub.P256dh, sub.Auth, ms(sub.Created)); err != nil {
			return fmt.Errorf("sqlstore: add subscription: %w", err)
		}
		if _, err := tx.ExecContext(ctx, trim, sub.User, sub.User, max); err != nil {
			return fmt.Errorf("sqlstore: add subscription: trim: %w", err)
		}
		return nil
	})
}

// RemoveSubscription implements notify.Store.
func (s *DB) RemoveSubscription(ctx context.Context, user int64, endpoint string) error {
	q, args := `DELETE FROM push_subscriptions WHERE endpoint = ?`, []any{endpoint}
	if user != 0 {
		q, args = q+` AND user_id = ?`, append(args, user)
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.rebind(q), args...); err != nil {
			return fmt.Errorf("sqlstore: remove subscription: %w", err)
		}
		return nil
	})
}

// Subscriptions implements notify.Store.
func (s *DB) Subscriptions(ctx context.Context, user int64) ([]notify.Subscription, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT endpoint, p256dh, auth, created_ms FROM push_subscriptions
		WHERE user_id = ? ORDER BY created_ms DESC, endpoint`), user)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: subscriptions: %w", err)
	}
	defer rows.Close()
	var out []notify.Subscription
	for rows.Next() {
		sub := notify.Subscription{User: user}
		var created int64
		if err := rows.Scan(&sub.Endpoint, &sub.P256dh, &sub.Auth, &created); err != nil {
			return nil, fmt.Errorf("sqlstore: subscriptions: %w", err)
		}
		sub.Created = fromMS(created)
		out = append(out, sub)
	}
	return out, rows.Err()
}

// KeepKeys implements notify.Store.
func (s *DB) KeepKeys(ctx context.Context, k notify.Keys) (notify.Keys, error) {
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO vapid_keys (id, public_key, private_key) VALUES (1, ?, ?)
			ON CONFLICT (id) DO NOTHING`), k.Public, k.Private)
		return err
	})
	if err == nil {
		err = s.db.QueryRowContext(ctx, `SELECT public_key, private_key FROM vapid_keys WHERE id = 1`).Scan(&k.Public, &k.Private)
	}
	if err != nil {
		return notify.Keys{}, fmt.Errorf("sqlstore: VAPID keys: %w", err)
	}
	return k, nil
}

// Follow implements notify.Store. The follows are counted in the
// transaction of the insert: on SQLite it holds the one write lock; on
// PostgreSQL it first locks the follower's row of users, so that two
// follows of one account at once count one after the other.
func (s *DB) Follow(ctx context.Context, follower, followed int64, at time.Time, max int) (bool, error) {
	added := false
	err := s.write(ctx, func(tx *sql.Tx) error {
		if s.postgres {
			if _, err := tx.ExecContext(ctx, `SELECT id FROM users WHERE id = $1 FOR UPDATE`, follower); err != nil {
				return fmt.Errorf("sqlstore: follow: lock: %w", err)
			}
		}
		var n int
		var already bool
		if err := tx.QueryRowContext(ctx, s.rebind(`SELECT COUNT(*),
			COALESCE(SUM(CASE WHEN followed = ? THEN 1 ELSE 0 END), 0) > 0 FROM follows WHERE follower = ?`),
			followed, follower).Scan(&n, &already); err != nil {
			return fmt.Errorf("sqlstore: follow: count: %w", err)
		}
		if already {
			return nil
		}
		if n >= max {
			return notify.ErrTooManyFollows
		}
		if _, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO follows (follower, followed, created_ms) VALUES (?, ?, ?)`),
			follower, followed, ms(at)); err != nil {
			return fmt.Errorf("sqlstore: follow: %w", err)
		}
		added = true
		return nil
	})
	return added && err == nil, err
}

// Unfollow implements notify.Store.
func (s *DB) Unfollow(ctx context.Context, follower, followed int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.rebind(`DELETE FROM follows WHERE follower = ? AND followed = ?`), follower, followed); err != nil {
			return fmt.Errorf("sqlstore: unfollow: %w", err)
		}
		return nil
	})
}

// Follows implements notify.Store.
func (s *DB) Follows(ctx context.Context, follower, followed int64) (bool, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, s.rebind(`SELECT COUNT(*) FROM follows WHERE follower = ? AND followed = ?`),
		follower, followed).Scan(&n); err != nil {
		return false, fmt.Errorf("sqlstore: follows: %w", err)
	}
	return n > 0, nil
}

// Followers implements notify.Store.
func (s *DB) Followers(ctx context.Context, user int64, limit int) ([]notify.Person, error) {
	return s.people(ctx, "followers", `SELECT u.id, u.name, f.created_ms FROM follows f JOIN users u ON u.id = f.follower
		WHERE f.followed = ? ORDER BY f.created_ms DESC, u.id LIMIT ?`, user, limit)
}

// Following implements notify.Store.
func (s *DB) Following(ctx context.Context, user int64, limit int) ([]notify.Person, error) {
	return s.people(ctx, "following", `SELECT u.id, u.name, f.created_ms FROM follows f JOIN users u ON u.id = f.followed
		WHERE f.follower = ? ORDER BY f.created_ms DESC, u.id LIMIT ?`, user, limit)
}

// people returns the accounts the query q selects: ID, name and since.
func (s *DB) people(ctx context.Context, what, q string, args ...any) ([]notify.Person, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(q), args...)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: %s: %w", what, err)
	}
	defer rows.Close()
	var out []notify.Person
	for rows.Next() {
		var p notify.Person
		var since int64
		if err := rows.Scan(&p.ID, &p.Name, &since); err != nil {
			return nil, fmt.Errorf("sqlstore: %s: %w", what, err)
		}
		p.Since = fromMS(since)
		out = append(out, p)
	}
	return out, rows.Err()
}

// CountFollows implements notify.Store.
func (s *DB) CountFollows(ctx context.Context, user int64) (followers, following int, err error) {
	err = s.db.QueryRowContext(ctx, s.rebind(`SELECT
		(SELECT COUNT(*) FROM follows WHERE followed = ?), (SELECT COUNT(*) FROM follows WHERE follower = ?)`),
		user, user).Scan(&followers, &following)
	if err != nil {
		return 0, 0, fmt.Errorf("sqlstore: count follows: %w", err)
	}
	return followers, following, nil
}

// FollowedGames implements notify.Store.
func (s *DB) FollowedGames(ctx context.Context, user int64, limit int) ([]store.Summary, error) {
	return s.summaries(ctx, "followed games", `g.result = '*' AND g.reason = '' AND g.mode <> 'analysis'
		AND (g.white_user IN (SELECT followed FROM follows WHERE follower = ?)
		OR g.black_user IN (SELECT followed FROM follows WHERE follower = ?))
		ORDER BY g.updated_ms DESC LIMIT ?`, user, user, limit)
}
