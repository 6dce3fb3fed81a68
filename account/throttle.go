package account

import (
	"net/netip"
	"sync"
	"time"
)

// Limit is a leaky bucket: Burst attempts at once, then one each Every.
type Limit struct {
	Burst int
	Every time.Duration
}

// Limits are the throttles of the attempts that guess or that cost: per
// account and per address for logging in (failures count, a success is
// given back), per address for signing up.
type Limits struct {
	LoginAccount, LoginAddress, SignupAddress Limit
}

// DefaultLimits: five failed logins to an account, then one a minute; an
// address may fail twenty times, then once every fifteen seconds; and sign
// up ten accounts, then one every six minutes (ten an hour).
var DefaultLimits = Limits{
	LoginAccount:  Limit{Burst: 5, Every: time.Minute},
	LoginAddress:  Limit{Burst: 20, Every: 15 * time.Second},
	SignupAddress: Limit{Burst: 10, Every: 6 * time.Minute},
}

// throttle holds the buckets of one limit by key, on times given by the
// caller.
type throttle struct {
	limit   Limit
	mu      sync.Mutex
	buckets map[string]*bucket
}

// bucket is the attempts counted, as of at; they drain one each Every.
type bucket struct {
	level float64
	at    time.Time
}

// maxBuckets bounds the memory of a throttle: past it the drained buckets
// are forgotten.
const maxBuckets = 10000

func newThrottle(l Limit) *throttle {
	return &throttle{limit: l, buckets: map[string]*bucket{}}
}

func (t *throttle) drained(b *bucket, now time.Time) float64 {
	if t.limit.Every <= 0 {
		return 0
	}
	if d := now.Sub(b.at); d > 0 {
		b.level = max(0, b.level-float64(d)/float64(t.limit.Every))
		b.at = now
	}
	return b.level
}

// take counts an attempt for key at now: 0 if it may go ahead, else how
// long until it may (and then it is not counted).
func (t *throttle) take(key string, now time.Time) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buckets[key]
	if b == nil {
		if len(t.buckets) >= maxBuckets {
			for k, o := range t.buckets {
				if t.drained(o, now) == 0 {
					delete(t.buckets, k)
				}
			}
		}
		b = &bucket{at: now}
		t.buckets[key] = b
	}
	level := t.drained(b, now)
	if over := level + 1 - float64(t.limit.Burst); over > 0 {
		return max(time.Second, time.Duration(over*float64(t.limit.Every)).Round(time.Second))
	}
	b.level++
	return 0
}

// give takes back an attempt counted for key.
func (t *throttle) give(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if b := t.buckets[key]; b != nil {
		b.level = max(0, b.level-1)
	}
}

// forget clears key's attempts.
func (t *throttle) forget(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.buckets, key)
}

// addressKey is the part of a client address that throttles count: the
// address, or its /64 network for IPv6, which one subscriber usually has
// whole.
func addressKey(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	a = a.Unmap()
	if a.Is6() {
		if p, err := a.Prefix(64); err == nil {
			return p.String()
		}
	}
	return a.String()
}
