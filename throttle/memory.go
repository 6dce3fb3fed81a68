package throttle

import (
	"context"
	"sync"
	"time"
)

// Memory is a Store in this process's memory: its limits hold for one
// server alone.
type Memory struct {
	mu       sync.Mutex
	limiters map[string]*memLimiter
}

// NewMemory returns an empty Memory.
func NewMemory() *Memory {
	return &Memory{limiters: map[string]*memLimiter{}}
}

// maxBuckets bounds the memory of a limiter: past it the drained buckets
// are forgotten.
const maxBuckets = 10000

// Limiter implements Store. The limit is the first given for name.
func (m *Memory) Limiter(name string, l Limit) Limiter {
	m.mu.Lock()
	defer m.mu.Unlock()
	if ml := m.limiters[name]; ml != nil {
		return ml
	}
	ml := &memLimiter{limit: l, full: map[string]time.Time{}}
	m.limiters[name] = ml
	return ml
}

// PruneThrottles implements Store.
func (m *Memory) PruneThrottles(_ context.Context, now time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, ml := range m.limiters {
		ml.mu.Lock()
		ml.prune(now)
		ml.mu.Unlock()
	}
	return nil
}

// memLimiter holds the buckets of one limit by key: the time until which
// each is full.
type memLimiter struct {
	limit Limit
	mu    sync.Mutex
	full  map[string]time.Time
}

func (ml *memLimiter) prune(now time.Time) {
	for k, t := range ml.full {
		if !t.After(now) {
			delete(ml.full, k)
		}
	}
}

func (ml *memLimiter) Take(_ context.Context, key string, now time.Time) (time.Duration, error) {
	ml.mu.Lock()
	defer ml.mu.Unlock()
	full, ok := ml.full[key]
	if !ok && len(ml.full) >= maxBuckets {
		ml.prune(now)
	}
	full, wait := ml.limit.Take(full, now)
	if wait == 0 {
		ml.full[key] = full
	}
	return wait, nil
}

func (ml *memLimiter) Give(_ context.Context, key string) error {
	ml.mu.Lock()
	defer ml.mu.Unlock()
	if full, ok := ml.full[key]; ok {
		ml.full[key] = full.Add(-ml.limit.Every)
	}
	return nil
}

func (ml *memLimiter) Forget(_ context.Context, key string) error {
	ml.mu.Lock()
	defer ml.mu.Unlock()
	delete(ml.full, key)
	return nil
}
