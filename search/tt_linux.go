package search

import (
	"syscall"
	"unsafe"
)

// allocBuckets returns n zeroed buckets aligned to a huge page and marked
// for huge pages (madvise): the table is read at random, a cache line here
// and there over many megabytes, and with pages of 4 KiB nearly every
// look-up also misses the processor's page cache (TLB). The buckets are
// an ordinary allocation of Go's heap, a huge page larger than asked so
// that an aligned run of them fits, and go with it when the table is
// dropped (a program that makes an engine a game makes many). Where the
// kernel gives no huge pages the memory works as any other.
func allocBuckets(n uint64) []bucket {
	raw := make([]bucket, n+hugePageBytes/bucketBytes)
	off := 0
	if r := uintptr(unsafe.Pointer(&raw[0])) % hugePageBytes; r != 0 {
		off = int((hugePageBytes - r) / bucketBytes)
	}
	b := raw[off : off+int(n) : off+int(n)]
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), int(n)*bucketBytes), syscall.MADV_HUGEPAGE) // advice only
	return b
}
