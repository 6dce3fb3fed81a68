package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"emergo/account"
)

// The DB keeps the API tokens and the bot marks too.
var _ account.TokenStore = (*DB)(nil)

// CreateToken implements account.TokenStore: the owner's tokens are
// counted in the transaction of the insert. On PostgreSQL the owner's
// row is locked first, so that two creations at once are counted one
// after the other; SQLite's write transaction holds its one lock.
func (s *DB) CreateToken(ctx context.Context, t *account.Token, max int) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if s.postgres {
			if _, err := tx.ExecContext(ctx, `SELECT id FROM users WHERE id = $1 FOR UPDATE`, t.UserID); err != nil {
				return fmt.Errorf("sqlstore: create token: lock: %w", err)
			}
		}
		var n int
		if err := tx.QueryRowContext(ctx, s.rebind(`SELECT COUNT(*) FROM api_tokens WHERE user_id = ?`), t.UserID).Scan(&n); err != nil {
			return fmt.Errorf("sqlstore: create token: count: %w", err)
		}
		if n >= max {
			return account.ErrTooManyTokens
		}
		_, err := tx.ExecContext(ctx, s.rebind(`INSERT INTO api_tokens (id, token_hash, user_id, description, scopes, created_ms)
			VALUES (?, ?, ?, ?, ?, ?)`), t.ID, t.Hash, t.UserID, t.Description, strings.Join(t.Scopes, " "), ms(t.Created))
		if err != nil {
			return fmt.Errorf("sqlstore: create token: %w", err)
		}
		return nil
	})
}

const tokenColumns = `t.id, t.token_hash, t.user_id, t.description, t.scopes, t.created_ms`

func tokenDest(t *account.Token, scopes *string, created *int64) []any {
	return []any{&t.ID, &t.Hash, &t.UserID, &t.Description, scopes, created}
}

// Tokens implements account.TokenStore.
func (s *DB) Tokens(ctx context.Context, user int64) ([]account.Token, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind(`SELECT `+tokenColumns+` FROM api_tokens t WHERE t.user_id = ? ORDER BY t.created_ms, t.id`), user)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: tokens: %w", err)
	}
	defer rows.Close()
	out := []account.Token{}
	for rows.Next() {
		var t account.Token
		var scopes string
		var created int64
		if err := rows.Scan(tokenDest(&t, &scopes, &created)...); err != nil {
			return nil, fmt.Errorf("sqlstore: tokens: %w", err)
		}
		t.Scopes, t.Created = strings.Fields(scopes), fromMS(created)
		out = append(out, t)
	}
	return out, rows.Err()
}

// DeleteToken implements account.TokenStore.
func (s *DB) DeleteToken(ctx context.Context, user int64, id string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.rebind(`DELETE FROM api_tokens WHERE user_id = ? AND id = ?`), user, id)
		if err != nil {
			return fmt.Errorf("sqlstore: delete token: %w", err)
		}
		if n, err := res.RowsAffected(); err == nil && n == 0 {
			return account.ErrNotFound
		}
		return nil
	})
}

// TokenUser implements account.TokenStore.
func (s *DB) TokenUser(ctx context.Context, hash string) (*account.Token, *account.User, error) {
	t := &account.Token{}
	var scopes string
	var created int64
	u, err := scanUser(s.db.QueryRowContext(ctx, s.rebind(`SELECT `+userColumns+`, `+tokenColumns+`
		FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?`), hash), tokenDest(t, &scopes, &created)...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, account.ErrNotFound
	}
	if err != nil {
		return nil, nil, fmt.Errorf("sqlstore: token: %w", err)
	}
	t.Scopes, t.Created = strings.Fields(scopes), fromMS(created)
	return t, u, nil
}

// SetBot implements account.TokenStore.
func (s *DB) SetBot(ctx context.Context, id int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.rebind(`UPDATE users SET bot = 1 WHERE id = ?`), id)
		if err != nil {
			return fmt.Errorf("sqlstore: make user %d a bot: %w", id, err)
		}
		if n, err := res.RowsAffected(); err == nil && n == 0 {
			return account.ErrNotFound
		}
		return nil
	})
}
