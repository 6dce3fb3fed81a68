package storetest

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"emergo/throttle"
)

// Throttles runs the suite of a throttle.Store. open returns an empty
// store; another returns a second store on the same data as s (another
// server on the same database), whose limiters share s's buckets.
func Throttles(t *testing.T, open func(t *testing.T) throttle.Store, another func(t *testing.T, s throttle.Store) throttle.Store) {
	ctx := context.Background()
	t0 := ms(1_000_000)
	limit := throttle.Limit{Burst: 3, Every: 10 * time.Second}
	// step is an attempt of a case: by which limiter (0 or 1: two
	// stores on the same data), on which key, when; and what it does or
	// what it must answer.
	type step struct {
		by   int
		do   string // "take", "give" or "forget"
		key  string
		at   time.Duration // after t0
		wait time.Duration // of a take
	}
	take := func(by int, key string, at, wait time.Duration) step { return step{by, "take", key, at, wait} }
	for _, c := range []struct {
		name  string
		steps []step
	}{
		{"a burst, then one each Every", []step{
			take(0, "a", 0, 0), take(0, "a", 0, 0), take(0, "a", 0, 0),
			take(0, "a", 0, 10*time.Second),
			take(0, "a", 4*time.Second, 6*time.Second),
			take(0, "a", 10*time.Second, 0),
			take(0, "a", 10*time.Second, 10*time.Second),
			take(0, "a", 45*time.Second, 0), take(0, "a", 45*time.Second, 0), take(0, "a", 45*time.Second, 0),
			take(0, "a", 45*time.Second, 10*time.Second),
		}},
		{"keys apart", []step{
			take(0, "a", 0, 0), take(0, "a", 0, 0), take(0, "a", 0, 0),
			take(0, "b", 0, 0),
			take(0, "a", 0, 10*time.Second),
		}},
		{"a refused attempt is not counted", []step{
			take(0, "a", 0, 0), take(0, "a", 0, 0), take(0, "a", 0, 0),
			take(0, "a", 0, 10*time.Second), take(0, "a", 0, 10*time.Second), take(0, "a", 0, 10*time.Second),
			take(0, "a", 10*time.Second, 0),
		}},
		{"give takes one back", []step{
			take(0, "a", 0, 0), take(0, "a", 0, 0), take(0, "a", 0, 0),
			{0, "give", "a", 0, 0},
			take(0, "a", 0, 0),
			take(0, "a", 0, 10*time.Second),
		}},
		{"forget empties", []step{
			take(0, "a", 0, 0), take(0, "a", 0, 0), take(0, "a", 0, 0),
			{0, "forget", "a", 0, 0},
			take(0, "a", 0, 0), take(0, "a", 0, 0), take(0, "a", 0, 0),
			take(0, "a", 0, 10*time.Second),
		}},
		{"give and forget of nothing", []step{
			{0, "give", "a", 0, 0}, {0, "forget", "a", 0, 0},
			take(0, "a", 0, 0), take(0, "a", 0, 0), take(0, "a", 0, 0),
			take(0, "a", 0, 10*time.Second),
		}},
		{"the limit holds across stores", []step{
			take(0, "a", 0, 0), take(1, "a", 0, 0), take(0, "a", 0, 0),
			take(1, "a", 0, 10*time.Second),
			take(0, "a", 0, 10*time.Second),
			take(1, "a", 10*time.Second, 0),
			take(0, "a", 10*time.Second, 10*time.Second),
		}},
		{"give and forget across stores", []step{
			take(0, "a", 0, 0), take(0, "a", 0, 0), take(0, "a", 0, 0),
			{1, "give", "a", 0, 0},
			take(0, "a", 0, 0),
			{1, "forget", "a", 0, 0},
			take(0, "a", 0, 0), take(0, "a", 0, 0), take(0, "a", 0, 0),
			take(1, "a", 0, 10*time.Second),
		}},
		{"a clock behind counts from the bucket", []step{
			take(0, "a", 20*time.Second, 0), take(0, "a", 20*time.Second, 0), take(0, "a", 20*time.Second, 0),
			take(1, "a", 15*time.Second, 15*time.Second),
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := open(t)
			lims := []throttle.Limiter{s.Limiter("test", limit), another(t, s).Limiter("test", limit)}
			for i, st := range c.steps {
				l := lims[st.by]
				switch st.do {
				case "take":
					wait, err := l.Take(ctx, st.key, t0.Add(st.at))
					if err != nil {
						t.Fatal(err)
					}
					if wait != st.wait {
						t.Errorf("step %d: a take of %s at %s through store %d: wait %s, want %s", i, st.key, st.at, st.by, wait, st.wait)
					}
				case "give":
					if err := l.Give(ctx, st.key); err != nil {
						t.Fatal(err)
					}
				case "forget":
					if err := l.Forget(ctx, st.key); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
	t.Run("NamesApart", func(t *testing.T) {
		s := open(t)
		a, b := s.Limiter("a", throttle.Limit{Burst: 1, Every: time.Minute}), s.Limiter("b", throttle.Limit{Burst: 1, Every: time.Minute})
		for _, l := range []throttle.Limiter{a, b} {
			if wait, err := l.Take(ctx, "k", t0); err != nil || wait != 0 {
				t.Fatalf("first take: %s %v", wait, err)
			}
		}
		if wait, _ := a.Take(ctx, "k", t0); wait != time.Minute {
			t.Errorf("second take of a: wait %s, want 1m", wait)
		}
	})
	t.Run("NoLimit", func(t *testing.T) {
		l := open(t).Limiter("free", throttle.Limit{Burst: 1})
		for i := range 5 {
			if wait, err := l.Take(ctx, "k", t0); err != nil || wait != 0 {
				t.Fatalf("take %d: %s %v", i, wait, err)
			}
		}
	})
	t.Run("PruneKeepsWhatCounts", func(t *testing.T) {
		s := open(t)
		l := s.Limiter("test", limit)
		for range 3 {
			l.Take(ctx, "full", t0)
		}
		l.Take(ctx, "drained", t0)
		if err := s.PruneThrottles(ctx, t0.Add(25*time.Second)); err != nil {
			t.Fatal(err)
		}
		// Full until t0+30s: at t0+25s half an attempt is still counted.
		for i, want := range []time.Duration{0, 0, 5 * time.Second} {
			if wait, _ := l.Take(ctx, "full", t0.Add(25*time.Second)); wait != want {
				t.Errorf("after the prune, take %d: wait %s, want %s (the bucket kept)", i, wait, want)
			}
		}
		for range 3 {
			if wait, _ := l.Take(ctx, "drained", t0.Add(25*time.Second)); wait != 0 {
				t.Errorf("a drained bucket's take: wait %s, want 0", wait)
			}
		}
	})
	// Attempts at once, half through each store, let exactly Burst go
	// ahead.
	t.Run("AtOnce", func(t *testing.T) {
		s := open(t)
		l := throttle.Limit{Burst: 5, Every: time.Hour}
		lims := []throttle.Limiter{s.Limiter("race", l), another(t, s).Limiter("race", l)}
		var wg sync.WaitGroup
		var ahead atomic.Int64
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				wait, err := lims[i%2].Take(ctx, "k", t0)
				if err != nil {
					t.Error(err)
				}
				if wait == 0 {
					ahead.Add(1)
				}
			}()
		}
		wg.Wait()
		if n := ahead.Load(); n != int64(l.Burst) {
			t.Errorf("%d attempts went ahead, want %d", n, l.Burst)
		}
	})
}
