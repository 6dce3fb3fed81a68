//go:build !linux

package search

// allocBuckets returns n zeroed buckets (see tt_linux.go for what Linux
// gets).
func allocBuckets(n uint64) []bucket { return make([]bucket, n) }
