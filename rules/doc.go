// Package rules is the game of Emergo as docs/rules.md specifies it, for the
// 9x9 and 7x7 boards: squares, columns, positions, move generation, making
// moves and the end of the game. It does no I/O and no search.
//
// The representation is built for speed. Squares are dense indices over
// the playable squares (see Square), so each diagonal is a shift of a
// 64-bit Bitboard; a Position is a small value with two ownership
// bitboards and per-square counts (owner's men on top, prisoners under
// them), copied rather than undone (copy-make); moves are fixed-size
// values appended to a caller-owned slice; the Zobrist hash is kept up to
// date by Play. Generation and Play allocate nothing.
//
// Game is the convenient layer on top: it keeps the history that the
// repetition rule needs and reports the Outcome with its reason.
//
// Position.Why says why a move is not legal, as an *IllegalMoveError that
// carries a reason code, the rule it rests on and its parameters, so that
// the layers above can word it in any language; its own text is English.
package rules
