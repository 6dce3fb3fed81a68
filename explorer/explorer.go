// Package explorer is the opening explorer's index of the site's own
// games: for every position of the first MaxPly plies of every finished
// game that counts (Counts), the move played from it and how the game
// ended, so that the explorer can say, for any position, which moves the
// site's players chose and how those games went. Positions are keyed as in
// the engine's opening book (book.Key), whose moves the explorer shows
// beside them.
//
// A game is indexed once, when it ends (Index), and the games that ended
// before the index existed, or whose indexing was lost to a crash, are
// indexed by Backfill, which the server runs as it starts. The small Store
// interface is implemented in store/sqlstore.
package explorer

import (
	"context"
	"fmt"
	"log/slog"

	"emergo/book"
	"emergo/notation"
	"emergo/rules"
	"emergo/store"
)

// MaxPly is how far into a game the index goes: the positions before this
// ply. The explorer is about openings, and a game is its own after a few
// dozen moves.
const MaxPly = 40

// Entry is a position of an indexed game and the move played from it.
type Entry struct {
	Key  uint64 // book.Key of the position
	Ply  int    // the moves before it
	Move string
}

// Store keeps the index.
type Store interface {
	// IndexGame records the entries of the game id, which ended with
	// result ("1-0", "0-1" or "1/2-1/2"), and marks it indexed; a game
	// indexed already is left as it was, so that two servers indexing
	// one game count it once. A game that does not count is marked with
	// no entries.
	IndexGame(ctx context.Context, id, result string, entries []Entry) error
	// Unindexed returns up to limit IDs of the stored games that have a
	// result and are not marked indexed.
	Unindexed(ctx context.Context, limit int) ([]string, error)
	// PositionMoves returns the moves played from the position key in the
	// indexed games, each with its games by result, in any order.
	PositionMoves(ctx context.Context, key uint64) ([]book.Move, error)
}

// Counts reports whether g is one of the games the explorer counts: a
// game played on the site (against the engine or between people, rated or
// not) that ended with a result, a win or a draw, whatever the reason (on
// the board, resignation, time, agreement). An aborted game (no result)
// and an uploaded record (mode "analysis", whose moves nobody played
// here) do not count.
func Counts(g *store.Game) bool {
	return (g.Mode == "engine" || g.Mode == "friend") && finished(g.Result)
}

func finished(result string) bool {
	return result == "1-0" || result == "0-1" || result == "1/2-1/2"
}

// Entries returns the positions of g's first MaxPly plies, each with the
// move played from it; a position the game reaches again is counted at
// its first visit only, so that a game counts once for a position.
func Entries(g *store.Game) ([]Entry, error) {
	var start rules.Position
	if g.Start == "" {
		geo := rules.GeometryOf(g.Size)
		if geo == nil {
			return nil, fmt.Errorf("explorer: game %s: size %d", g.ID, g.Size)
		}
		start = rules.NewPosition(geo)
	} else {
		var err error
		if start, err = notation.ParsePosition(g.Start); err != nil {
			return nil, fmt.Errorf("explorer: game %s: %w", g.ID, err)
		}
	}
	p := start
	seen := map[uint64]bool{}
	var out []Entry
	for i, m := range g.Moves[:min(len(g.Moves), MaxPly)] {
		mv, err := notation.ParseMove(&p, m.Text)
		if err != nil {
			return nil, fmt.Errorf("explorer: game %s: move %d %q: %w", g.ID, i+1, m.Text, err)
		}
		if k := book.Key(&p); !seen[k] {
			seen[k] = true
			out = append(out, Entry{Key: k, Ply: i, Move: m.Text})
		}
		p.Play(mv)
	}
	return out, nil
}

// Index adds g, a game that has just ended, to the index: its entries if
// it counts, else the mark that it was seen.
func Index(ctx context.Context, st Store, g *store.Game) error {
	entries, err := counted(g)
	if err != nil {
		return err
	}
	return st.IndexGame(ctx, g.ID, g.Result, entries)
}

// counted is the entries of g if it counts, else none.
func counted(g *store.Game) ([]Entry, error) {
	if !Counts(g) {
		return nil, nil
	}
	return Entries(g)
}

// backfillBatch is the games Backfill asks for at once.
const backfillBatch = 200

// Backfill indexes the stored games that ended without being indexed, and
// returns how many it indexed. A game that cannot be read again (its
// moves are not legal) is logged and marked indexed without entries, so
// that it is not tried at every start.
func Backfill(ctx context.Context, st Store, games store.Store, log *slog.Logger) (int, error) {
	n := 0
	for {
		ids, err := st.Unindexed(ctx, backfillBatch)
		if err != nil || len(ids) == 0 {
			return n, err
		}
		for _, id := range ids {
			g, err := games.Get(ctx, id)
			if err != nil {
				return n, err
			}
			entries, err := counted(g)
			if err != nil {
				log.Error("explorer: a game left out of the index", "game", id, "err", err)
			}
			if err := st.IndexGame(ctx, id, g.Result, entries); err != nil {
				return n, err
			}
			n++
		}
	}
}

// Moves returns the moves played from p in the indexed games, the most
// played first (then in the notation's byte order).
func Moves(ctx context.Context, st Store, p *rules.Position) ([]book.Move, error) {
	ms, err := st.PositionMoves(ctx, book.Key(p))
	if err != nil {
		return nil, err
	}
	book.SortMoves(ms)
	return ms, nil
}
