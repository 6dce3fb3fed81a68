// Package throttle limits attempts by key (an account, an address): each
// key has a leaky bucket that holds Burst attempts and drains one each
// Every. The buckets are kept in this process's memory (Memory) or in a
// store that several processes share (store/sqlstore), so that a limit
// holds across every instance of a site. The rule is the generic cell
// rate algorithm: a bucket is the time until which it is full, its
// theoretical arrival time, one number that a database updates in one
// statement. The account package throttles logins and signups with it,
// the server the analysis.
package throttle

import (
	"context"
	"time"
)

// Limit is a leaky bucket: Burst attempts at once, then one each Every. A
// Burst below 1 is 1; an Every of 0 or less is no limit.
type Limit struct {
	Burst int
	Every time.Duration
}

// Limiter counts the attempts of keys under one Limit, on times given by
// the caller.
type Limiter interface {
	// Take counts an attempt for key at now: 0 if it may go ahead, else
	// how long until it may (and then it is not counted).
	Take(ctx context.Context, key string, now time.Time) (time.Duration, error)
	// Give takes back an attempt counted for key.
	Give(ctx context.Context, key string) error
	// Forget clears key's attempts.
	Forget(ctx context.Context, key string) error
}

// Store makes Limiters. The Limiters of one name share their buckets
// (in a database, across processes); each name has one Limit.
type Store interface {
	Limiter(name string, l Limit) Limiter
	// PruneThrottles forgets the buckets drained by now, which count
	// nothing.
	PruneThrottles(ctx context.Context, now time.Time) error
}

// Take is the rule of every Limiter: an attempt at now on a bucket full
// until full. It returns the bucket after the attempt, and 0 if it may go
// ahead, or the bucket unchanged and how long until an attempt may.
func (l Limit) Take(full, now time.Time) (time.Time, time.Duration) {
	if l.Every <= 0 {
		return full, 0
	}
	after := later(full, now).Add(l.Every)
	if wait := after.Sub(now) - time.Duration(max(l.Burst, 1))*l.Every; wait > 0 {
		return full, wait
	}
	return after, 0
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
