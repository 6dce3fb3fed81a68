//go:build !linux

package search

// allocBuckets returns n zeroed buckets from the heap (see tt_linux.go
// for what Linux gets).
func allocBuckets(_ *table, n uint64) []bucket { return make([]bucket, n) }
