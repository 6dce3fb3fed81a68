package search

import (
	"runtime"
	"syscall"
	"unsafe"
)

// allocBuckets returns n zeroed buckets in memory of their own, mapped
// apart from Go's heap, aligned to a huge page and marked for huge pages
// (madvise): the table is read at random, a cache line here and there
// over many megabytes, and with pages of 4 KiB nearly every look-up also
// misses the processor's page cache (TLB). Where the kernel gives no huge
// pages the memory works as any other. The mapping is returned to the
// kernel when owner is no longer reachable. Should the mapping fail, the
// buckets come from the heap.
func allocBuckets(owner *table, n uint64) []bucket {
	size := int(n) * bucketBytes
	mem, err := syscall.Mmap(-1, 0, size+hugePageBytes, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]bucket, n)
	}
	off := 0
	if r := int(uintptr(unsafe.Pointer(&mem[0])) % hugePageBytes); r != 0 {
		off = hugePageBytes - r
	}
	aligned := mem[off : off+size]
	_ = syscall.Madvise(aligned, syscall.MADV_HUGEPAGE) // advice only
	runtime.AddCleanup(owner, func(m []byte) { _ = syscall.Munmap(m) }, mem)
	return unsafe.Slice((*bucket)(unsafe.Pointer(&aligned[0])), n)
}
