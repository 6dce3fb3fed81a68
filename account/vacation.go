package account

import (
	"context"
	"errors"
	"time"
)

// An account may go on vacation from its correspondence games, as on
// Abstract Play and lichess: for a few whole days, a yearly allowance of
// them, the deadlines of its turns do not run (package round postpones
// them). One vacation at a time, begun at once; one ended early gives
// back the whole days it did not reach. The store keeps each account's
// latest vacation and the days taken in its calendar year, so that every
// server reads the same and a restart forgets nothing.

// VacationAllowance is how many days of vacation an account may take in
// a calendar year (UTC).
const VacationAllowance = 28

// VacationDay is a day of vacation.
const VacationDay = 24 * time.Hour

// Vacation is an account's latest vacation and its allowance used.
type Vacation struct {
	// Start and Until are the latest vacation's bounds, zero for none
	// taken: it runs from Start, and ends before Until.
	Start, Until time.Time
	// Used is the days taken in the calendar year Year (the year of the
	// vacations' starts, UTC).
	Year, Used int
}

// On reports whether the vacation runs at now.
func (v Vacation) On(now time.Time) bool {
	return !v.Until.IsZero() && !now.Before(v.Start) && now.Before(v.Until)
}

// DaysLeft is how many days of its allowance the account may still take
// in now's year.
func (v Vacation) DaysLeft(now time.Time) int {
	if v.Year != now.UTC().Year() {
		return VacationAllowance
	}
	return max(VacationAllowance-v.Used, 0)
}

// Errors of StartVacation and EndVacation.
var (
	ErrOnVacation    = errors.New("account: already on vacation")
	ErrVacationDays  = errors.New("account: more days of vacation than are left this year")
	ErrNotOnVacation = errors.New("account: not on vacation")
)

// VacationStore keeps the accounts' vacations.
type VacationStore interface {
	// Vacation returns the vacation of the account user, the zero
	// Vacation if it never took one, or ErrNotFound.
	Vacation(ctx context.Context, user int64) (Vacation, error)
	// SwapVacation writes next as the vacation of user if it is still
	// old, and reports whether it was: of two servers changing it at
	// once, one changes it and the other reads it again. The times are
	// kept to the millisecond.
	SwapVacation(ctx context.Context, user int64, old, next Vacation) (bool, error)
}

// swaps bounds the times a change of a vacation is tried again after
// another server's change of it.
const swaps = 3

// StartVacation begins a vacation of days days for user at now. It fails
// with ErrOnVacation while one runs, and ErrVacationDays for days out of
// 1 to the days left of the year's allowance; on every error the
// vacation returned is the account's as it stands.
func StartVacation(ctx context.Context, st VacationStore, user int64, now time.Time, days int) (Vacation, error) {
	now = now.Truncate(time.Millisecond)
	return swapVacation(ctx, st, user, func(v Vacation) (Vacation, error) {
		switch {
		case v.On(now):
			return v, ErrOnVacation
		case days < 1 || days > v.DaysLeft(now):
			return v, ErrVacationDays
		}
		next := Vacation{Start: now, Until: now.Add(time.Duration(days) * VacationDay), Year: now.UTC().Year(), Used: days}
		if v.Year == next.Year {
			next.Used += v.Used
		}
		return next, nil
	})
}

// EndVacation ends user's vacation at now, and gives back to the
// allowance of its year the whole days it did not reach. It returns the
// vacation as it was, its Until the end given up, or ErrNotOnVacation.
func EndVacation(ctx context.Context, st VacationStore, user int64, now time.Time) (Vacation, error) {
	now = now.Truncate(time.Millisecond)
	var was Vacation
	_, err := swapVacation(ctx, st, user, func(v Vacation) (Vacation, error) {
		if !v.On(now) {
			return v, ErrNotOnVacation
		}
		was = v
		unused := int(v.Until.Sub(now) / VacationDay)
		return Vacation{Start: v.Start, Until: now, Year: v.Year, Used: max(v.Used-unused, 0)}, nil
	})
	return was, err
}

// swapVacation changes user's vacation by f, reading it again after
// another server's change.
func swapVacation(ctx context.Context, st VacationStore, user int64, f func(Vacation) (Vacation, error)) (Vacation, error) {
	for range swaps {
		v, err := st.Vacation(ctx, user)
		if err != nil {
			return Vacation{}, err
		}
		next, err := f(v)
		if err != nil {
			return v, err
		}
		ok, err := st.SwapVacation(ctx, user, v, next)
		if err != nil {
			return v, err
		}
		if ok {
			return next, nil
		}
	}
	return Vacation{}, errors.New("account: the vacation changes too often")
}
