package search

import "sync/atomic"

// The transposition table: buckets of four entries (one 64-byte cache
// line), indexed by the low bits of the Zobrist key. Each entry is two
// words, the key XOR the data and the data, written and read atomically:
// threads share the table without locks, and a torn write shows up as a
// key mismatch instead of a wrong answer (the "lockless hashing" of Hyatt
// and Mann).
type table struct {
	buckets []bucket
	mask    uint64
	age     uint8
}

type bucket [4]struct{ check, data uint64 }

const (
	// bucketBytes is the size of a bucket: one cache line.
	bucketBytes = 64
	// pageBytes is the memory page newTable touches one by one.
	pageBytes = 4096
	// hugePageBytes is the size of a transparent huge page of Linux on
	// amd64 and arm64, and the alignment of the table's memory there
	// (allocBuckets).
	hugePageBytes = 2 << 20
	// ageMask keeps the 6 bits of the search counter that entries hold:
	// enough to tell this search's entries from the last few dozen's.
	ageMask = 63
	// oldPenalty is what an entry of an earlier search loses of its depth
	// when store looks for a victim: more than the depths searches reach
	// in play, so that it goes before the entries of this search.
	oldPenalty = 64
	// usageBuckets is the sample that usage counts: 250 buckets, a
	// thousand entries, so the count is the permille itself.
	usageBuckets = 250
)

// Bounds of a stored score.
const (
	boundNone  = 0
	boundUpper = 1 // the score is at most this (all moves failed low)
	boundLower = 2 // at least this (a move failed high)
	boundExact = 3
)

// entry is the unpacked data word: score (16 bits), depth (8), bound (2),
// move index in generation order (8, 255 for none), age (6).
type entry struct {
	score int32
	depth int
	bound uint8
	move  uint8
	age   uint8
}

func (e entry) pack() uint64 {
	return uint64(uint16(int16(e.score))) | uint64(uint8(int8(e.depth)))<<16 |
		uint64(e.bound)<<24 | uint64(e.move)<<32 | uint64(e.age&ageMask)<<40
}

func unpack(d uint64) entry {
	return entry{
		score: int32(int16(uint16(d))),
		depth: int(int8(uint8(d >> 16))),
		bound: uint8(d>>24) & 3,
		move:  uint8(d >> 32),
		age:   uint8(d>>40) & ageMask,
	}
}

func newTable(mib int) *table {
	if mib < 1 {
		mib = 1
	}
	n := uint64(mib) << 20 / bucketBytes
	// Round down to a power of two so the index is a mask.
	size := uint64(1)
	for size*2 <= n {
		size *= 2
	}
	t := &table{buckets: allocBuckets(size), mask: size - 1}
	// Touch every page now: otherwise the first search pays the page
	// faults of the whole table, node by node, in its first milliseconds.
	for i := 0; i < len(t.buckets); i += pageBytes / bucketBytes {
		t.buckets[i][0].data = 0
	}
	return t
}

func (t *table) clear() {
	clear(t.buckets)
	t.age = 0
}

func (t *table) probe(key uint64) (entry, bool) {
	b := &t.buckets[key&t.mask]
	for i := range b {
		d := atomic.LoadUint64(&b[i].data)
		if atomic.LoadUint64(&b[i].check)^d == key && d != 0 {
			return unpack(d), true
		}
	}
	return entry{}, false
}

// store keeps the entry of the same key if there is one, else replaces the
// least valuable: shallowest, older searches first.
func (t *table) store(key uint64, e entry) {
	e.age = t.age
	b := &t.buckets[key&t.mask]
	victim, worst := 0, 1<<30
	for i := range b {
		d := atomic.LoadUint64(&b[i].data)
		if d == 0 || atomic.LoadUint64(&b[i].check)^d == key {
			if d != 0 {
				old := unpack(d)
				// Keep a deeper result of this search for the same key,
				// unless the new one is exact.
				if old.age == e.age && old.depth > e.depth && e.bound != boundExact {
					return
				}
				if e.move == noMove {
					e.move = old.move
				}
			}
			victim = i
			break
		}
		o := unpack(d)
		v := o.depth
		if o.age != e.age {
			v -= oldPenalty
		}
		if v < worst {
			victim, worst = i, v
		}
	}
	d := e.pack()
	atomic.StoreUint64(&b[victim].data, d)
	atomic.StoreUint64(&b[victim].check, key^d)
}

// usage returns the permille of entries written in the current search, for
// the hashfull of info lines.
func (t *table) usage() int {
	n := 0
	limit := min(len(t.buckets), usageBuckets)
	for i := 0; i < limit; i++ {
		for j := range t.buckets[i] {
			d := atomic.LoadUint64(&t.buckets[i][j].data)
			if d != 0 && unpack(d).age == t.age {
				n++
			}
		}
	}
	return n * 1000 / (limit * 4)
}
