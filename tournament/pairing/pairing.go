// Package pairing pairs the rounds of a tournament: round robins by
// FIDE's Berger tables (Handbook C.05, Annex 1) and Swiss tournaments by
// the FIDE Dutch system (Handbook C.04.3, the rules in force from 2025),
// as a weighted maximum matching, as the FIDE-endorsed programs pair.
// It is pure: the tournament comes in as data and the pairing goes out;
// files (package trf) and storage are the callers'.
package pairing

// Pair is one game of a round: the start numbers of White and Black. A
// Black of 0 is the pairing-allocated bye of White.
type Pair struct {
	White, Black int
}
