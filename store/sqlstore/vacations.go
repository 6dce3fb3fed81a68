package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"emergo/account"
)

// The DB keeps the accounts' vacations, in their rows of users.
var _ account.VacationStore = (*DB)(nil)

// Vacation implements account.VacationStore.
func (s *DB) Vacation(ctx context.Context, user int64) (account.Vacation, error) {
	var v account.Vacation
	var start, until int64
	err := s.db.QueryRowContext(ctx, s.rebind(`SELECT vacation_start_ms, vacation_until_ms, vacation_year, vacation_used
		FROM users WHERE id = ?`), user).Scan(&start, &until, &v.Year, &v.Used)
	if errors.Is(err, sql.ErrNoRows) {
		return account.Vacation{}, account.ErrNotFound
	}
	if err != nil {
		return account.Vacation{}, fmt.Errorf("sqlstore: vacation of user %d: %w", user, err)
	}
	v.Start, v.Until = fromMS(start), fromMS(until)
	return v, nil
}

// SwapVacation implements account.VacationStore: one UPDATE whose WHERE
// holds the old vacation, so that of two racing writes the second finds
// no row.
func (s *DB) SwapVacation(ctx context.Context, user int64, old, next account.Vacation) (bool, error) {
	q := s.rebind(`UPDATE users SET vacation_start_ms = ?, vacation_until_ms = ?, vacation_year = ?, vacation_used = ?
		WHERE id = ? AND vacation_start_ms = ? AND vacation_until_ms = ? AND vacation_year = ? AND vacation_used = ?`)
	var swapped bool
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, q, ms(next.Start), ms(next.Until), next.Year, next.Used,
			user, ms(old.Start), ms(old.Until), old.Year, old.Used)
		if err != nil {
			return fmt.Errorf("sqlstore: vacation of user %d: %w", user, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("sqlstore: vacation of user %d: %w", user, err)
		}
		swapped = n == 1
		return nil
	})
	return swapped, err
}
