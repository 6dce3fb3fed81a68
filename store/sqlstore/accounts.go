package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"

	"emergo/account"
)

// The DB keeps the site's accounts too.
var _ account.Store = (*DB)(nil)

// isUnique reports whether err is a violated UNIQUE or PRIMARY KEY
// constraint, on either database.
func isUnique(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "23505" // unique_violation
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		const constraintPrimaryKey, constraintUnique = 1555, 2067
		return se.Code() == constraintUnique || se.Code() == constraintPrimaryKey
	}
	return false
}

// CreateUser implements account.Store.
func (s *DB) CreateUser(ctx context.Context, u *account.User) error {
	q := s.rebind(`INSERT INTO users (name, name_key, password, created_ms, lang) VALUES (?, ?, ?, ?, ?) RETURNING id`)
	return s.write(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, q, u.Name, u.Key, u.Password, ms(u.Created), u.Lang).Scan(&u.ID)
		if isUnique(err) {
			return account.ErrNameTaken
		}
		if err != nil {
			return fmt.Errorf("sqlstore: create user %q: %w", u.Key, err)
		}
		return nil
	})
}

const userColumns = `u.id, u.name, u.name_key, u.password, u.created_ms, u.lang, u.theme, u.board, u.sound, u.bot`

func scanUser(row interface{ Scan(...any) error }, extra ...any) (*account.User, error) {
	u := &account.User{}
	var created int64
	var bot int
	if err := row.Scan(append([]any{&u.ID, &u.Name, &u.Key, &u.Password, &created, &u.Lang, &u.Prefs.Theme, &u.Prefs.Board, &u.Prefs.Sound, &bot}, extra...)...); err != nil {
		return nil, err
	}
	u.Created, u.Bot = fromMS(created), bot == 1
	return u, nil
}

func (s *DB) user(ctx context.Context, where string, arg any) (*account.User, error) {
	u, err := scanUser(s.db.QueryRowContext(ctx, s.rebind(`SELECT `+userColumns+` FROM users u WHERE `+where), arg))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, account.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlstore: user %v: %w", arg, err)
	}
	return u, nil
}

// UserByKey implements account.Store.
func (s *DB) UserByKey(ctx context.Context, key string) (*account.User, error) {
	return s.user(ctx, `u.name_key = ?`, key)
}

// UserByID implements account.Store.
func (s *DB) UserByID(ctx context.Context, id int64) (*account.User, error) {
	return s.user(ctx, `u.id = ?`, id)
}

// Profile implements account.Store. It reads no password.
func (s *DB) Profile(ctx context.Context, key string) (*account.Profile, error) {
	p := &account.Profile{}
	var created int64
	var bot int
	err := s.db.QueryRowContext(ctx, s.rebind(`SELECT id, name, created_ms, bot FROM users WHERE name_key = ?`), key).Scan(&p.ID, &p.Name, &created, &bot)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, account.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlstore: profile %q: %w", key, err)
	}
	p.Created, p.Bot = fromMS(created), bot == 1
	return p, nil
}

// CreateSession implements account.Store.
func (s *DB) CreateSession(ctx context.Context, sess *account.Session) error {
	q := s.rebind(`INSERT INTO sessions (token_hash, user_id, created_ms, expires_ms) VALUES (?, ?, ?, ?)`)
	return s.exec(ctx, "create session", q, sess.Hash, sess.UserID, ms(sess.Created), ms(sess.Expires))
}

// Session implements account.Store.
func (s *DB) Session(ctx context.Context, hash string) (*account.Session, *account.User, error) {
	sess := &account.Session{Hash: hash}
	var created, expires int64
	u, err := scanUser(s.db.QueryRowContext(ctx, s.rebind(`SELECT `+userColumns+`, s.created_ms, s.expires_ms
		FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?`), hash), &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, account.ErrNotFound
	}
	if err != nil {
		return nil, nil, fmt.Errorf("sqlstore: session: %w", err)
	}
	sess.UserID, sess.Created, sess.Expires = u.ID, fromMS(created), fromMS(expires)
	return sess, u, nil
}

// DeleteSession implements account.Store.
func (s *DB) DeleteSession(ctx context.Context, hash string) error {
	return s.exec(ctx, "delete session", s.rebind(`DELETE FROM sessions WHERE token_hash = ?`), hash)
}

// DeleteSessions implements account.Store.
func (s *DB) DeleteSessions(ctx context.Context, userID int64) error {
	return s.exec(ctx, "delete sessions", s.rebind(`DELETE FROM sessions WHERE user_id = ?`), userID)
}

// SetLang implements account.Store.
func (s *DB) SetLang(ctx context.Context, id int64, lang string) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.rebind(`UPDATE users SET lang = ? WHERE id = ?`), lang, id)
		if err != nil {
			return fmt.Errorf("sqlstore: set the language of user %d: %w", id, err)
		}
		if n, err := res.RowsAffected(); err == nil && n == 0 {
			return account.ErrNotFound
		}
		return nil
	})
}

// SetPrefs implements account.Store: a preference given as "" keeps its
// value (NULLIF makes it NULL, and COALESCE keeps the column).
func (s *DB) SetPrefs(ctx context.Context, id int64, p account.Prefs) error {
	q := s.rebind(`UPDATE users SET theme = COALESCE(NULLIF(?, ''), theme), board = COALESCE(NULLIF(?, ''), board),
		sound = COALESCE(NULLIF(?, ''), sound) WHERE id = ?`)
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, q, p.Theme, p.Board, p.Sound, id)
		if err != nil {
			return fmt.Errorf("sqlstore: set the preferences of user %d: %w", id, err)
		}
		if n, err := res.RowsAffected(); err == nil && n == 0 {
			return account.ErrNotFound
		}
		return nil
	})
}

// exec runs one statement as a write.
func (s *DB) exec(ctx context.Context, what, q string, args ...any) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("sqlstore: %s: %w", what, err)
		}
		return nil
	})
}
