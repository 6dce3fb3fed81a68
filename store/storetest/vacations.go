package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"emergo/account"
)

// VacationStore is the store the vacations' suite needs: the accounts,
// and their vacations.
type VacationStore interface {
	account.Store
	account.VacationStore
}

// Vacations runs the suite of an account.VacationStore, with the rules
// of package account over it (StartVacation, EndVacation). open returns
// an empty store.
func Vacations(t *testing.T, open func(t *testing.T) VacationStore) {
	ctx := context.Background()
	newUser := func(t *testing.T, s VacationStore, name string) int64 {
		t.Helper()
		u := &account.User{Name: name, Key: account.Key(name), Password: "x", Created: ms(1000)}
		if err := s.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		return u.ID
	}
	now := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	day := account.VacationDay
	t.Run("SwapAndRead", func(t *testing.T) {
		s := open(t)
		id := newUser(t, s, "alice")
		v, err := s.Vacation(ctx, id)
		if err != nil || v != (account.Vacation{}) {
			t.Fatalf("a new account's vacation: %+v, %v; want none", v, err)
		}
		next := account.Vacation{Start: now, Until: now.Add(3 * day), Year: 2026, Used: 3}
		if ok, err := s.SwapVacation(ctx, id, account.Vacation{}, next); !ok || err != nil {
			t.Fatalf("swap from none: %v, %v", ok, err)
		}
		got, err := s.Vacation(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(next, got); diff != "" {
			t.Errorf("vacation read back (-want +got):\n%s", diff)
		}
		// A swap from a vacation that is no longer the account's changes
		// nothing.
		if ok, err := s.SwapVacation(ctx, id, account.Vacation{}, account.Vacation{Year: 2026, Used: 1}); ok || err != nil {
			t.Errorf("swap from a stale vacation: %v, %v; want false", ok, err)
		}
		if got, _ := s.Vacation(ctx, id); got != next {
			t.Errorf("after a stale swap: %+v, want %+v", got, next)
		}
		if _, err := s.Vacation(ctx, id+100); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("vacation of nobody: %v, want ErrNotFound", err)
		}
	})
	t.Run("Allowance", func(t *testing.T) {
		s := open(t)
		id := newUser(t, s, "bob")
		v, err := account.StartVacation(ctx, s, id, now, 20)
		if err != nil || !v.On(now) || !v.Until.Equal(now.Add(20*day)) || v.DaysLeft(now) != account.VacationAllowance-20 {
			t.Fatalf("start 20 days: %+v, %v", v, err)
		}
		if _, err := account.StartVacation(ctx, s, id, now.Add(day), 1); !errors.Is(err, account.ErrOnVacation) {
			t.Errorf("a second vacation while one runs: %v, want ErrOnVacation", err)
		}
		// Ended after two days and a half: the 17 whole days not reached
		// are given back.
		end := now.Add(2*day + 12*time.Hour)
		was, err := account.EndVacation(ctx, s, id, end)
		if err != nil || !was.Until.Equal(now.Add(20*day)) {
			t.Fatalf("end: %+v, %v", was, err)
		}
		v, _ = s.Vacation(ctx, id)
		if v.On(end) || v.DaysLeft(end) != account.VacationAllowance-3 {
			t.Errorf("after the end: %+v, %d days left; want %d", v, v.DaysLeft(end), account.VacationAllowance-3)
		}
		if _, err := account.EndVacation(ctx, s, id, end); !errors.Is(err, account.ErrNotOnVacation) {
			t.Errorf("end again: %v, want ErrNotOnVacation", err)
		}
		for _, days := range []int{0, -1, account.VacationAllowance - 2} {
			v, err := account.StartVacation(ctx, s, id, end, days)
			if !errors.Is(err, account.ErrVacationDays) || v.DaysLeft(end) != account.VacationAllowance-3 {
				t.Errorf("start %d days: %v (%d left), want ErrVacationDays", days, err, v.DaysLeft(end))
			}
		}
		if _, err := account.StartVacation(ctx, s, id, end, account.VacationAllowance-3); err != nil {
			t.Fatalf("the rest of the allowance: %v", err)
		}
		// A new year gives the whole allowance again.
		next := time.Date(2027, 1, 20, 0, 0, 0, 0, time.UTC)
		v, err = account.StartVacation(ctx, s, id, next, account.VacationAllowance)
		if err != nil || v.Year != 2027 || v.Used != account.VacationAllowance {
			t.Errorf("a vacation of the next year: %+v, %v", v, err)
		}
	})
	t.Run("Racing", func(t *testing.T) {
		// Of starts racing on one account, one begins a vacation: the
		// others find it running.
		s := open(t)
		id := newUser(t, s, "carol")
		const racers = 8
		var wg sync.WaitGroup
		errs := make(chan error, racers)
		for range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := account.StartVacation(ctx, s, id, now, 5)
				errs <- err
			}()
		}
		wg.Wait()
		close(errs)
		started := 0
		for err := range errs {
			switch {
			case err == nil:
				started++
			case !errors.Is(err, account.ErrOnVacation):
				t.Errorf("a racing start: %v", err)
			}
		}
		v, _ := s.Vacation(ctx, id)
		if started != 1 || v.Used != 5 {
			t.Errorf("%d starts of racers, %d days used; want 1 and 5", started, v.Used)
		}
	})
}
