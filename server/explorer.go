package server

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"emergo/book"
	"emergo/explorer"
	"emergo/notation"
	"emergo/player"
	"emergo/view"
)

// maxExplorerMoves bounds the moves of an explorer request: the book and
// the index hold openings, and a longer line is no opening.
const maxExplorerMoves = 300

// explorerMoveJSON is a move of the explorer's tables: the games in which
// it was played by result, and for a book move the engine's evaluation of
// the position after it, for the side that plays it (as the position's
// own score is for the side to move).
type explorerMoveJSON struct {
	Move  string `json:"move"`
	Games int    `json:"games"`
	White int    `json:"white"`
	Draws int    `json:"draws"`
	Black int    `json:"black"`
	Score *int32 `json:"score,omitempty"`
	Mate  int    `json:"mate,omitempty"`
}

// explorerBookJSON is the book's entry of a position.
type explorerBookJSON struct {
	Games int                `json:"games"`
	Score int32              `json:"score"`
	Mate  int                `json:"mate"`
	Best  string             `json:"best"`
	Depth int                `json:"depth"`
	Moves []explorerMoveJSON `json:"moves"`
}

// explorerSiteJSON is the site's games from a position.
type explorerSiteJSON struct {
	Games int                `json:"games"`
	Moves []explorerMoveJSON `json:"moves"`
}

// explorerJSON is the explorer's answer: /api/position's for the
// position, and the book's and the site's moves from it.
type explorerJSON struct {
	view.Game
	Book *explorerBookJSON `json:"book"`
	Site *explorerSiteJSON `json:"site"`
}

// handleExplorer is the opening explorer: GET /api/explorer?size=9&moves=c3,g7
// (or position=TEXT instead of size): the position after the moves, the
// book's moves from it with the engine's evaluation, and the site's.
func (s *Server) handleExplorer(r *request) (int, any, error) {
	q := r.URL.Query()
	size := 0
	if v := q.Get("size"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n == 0 {
			return 0, nil, invalid("size must be 9 or 7")
		}
		size = n
	}
	var moves []string
	if v := q.Get("moves"); v != "" {
		moves = strings.Split(v, ",")
	}
	if len(moves) > maxExplorerMoves {
		return 0, nil, invalid("at most %d moves", maxExplorerMoves)
	}
	rg, err := view.Request{Position: q.Get("position"), Size: size, Moves: moves}.Play()
	if err != nil {
		return 0, nil, err
	}
	p := rg.Position()
	out := explorerJSON{Game: view.GameOf(rg)}
	bk := book.Embedded(p.Geometry().N)
	if e, ok := bk.Lookup(&p); ok {
		out.Book = &explorerBookJSON{Games: e.Games(), Score: e.Score, Best: e.Best, Depth: bk.Config.Depth,
			Moves: movesJSON(e.Moves, func(text string) (int32, bool) {
				m, err := notation.ParseMove(&p, text)
				if err != nil {
					return 0, false
				}
				next := p.After(m)
				child, ok := bk.Lookup(&next)
				if !ok {
					return 0, false
				}
				return -child.Score, true
			})}
		out.Book.Mate, _ = player.MateIn(e.Score)
	}
	if s.explorer != nil {
		ms, err := explorer.Moves(r.Context(), s.explorer, &p)
		if err != nil {
			s.log.Error("explorer", "position", out.Board.Position, "err", err)
			return 0, nil, errReadStorage
		}
		out.Site = &explorerSiteJSON{Moves: movesJSON(ms, nil)}
		for _, m := range ms {
			out.Site.Games += m.Games()
		}
	}
	return http.StatusOK, out, nil
}

// movesJSON is the table of ms; score, if set, gives a move's evaluation.
func movesJSON(ms []book.Move, score func(text string) (int32, bool)) []explorerMoveJSON {
	out := make([]explorerMoveJSON, len(ms))
	for i, m := range ms {
		out[i] = explorerMoveJSON{Move: m.Text, Games: m.Games(), White: m.White, Draws: m.Draws, Black: m.Black}
		if score == nil {
			continue
		}
		if v, ok := score(m.Text); ok {
			out[i].Score = &v
			out[i].Mate, _ = player.MateIn(v)
		}
	}
	return out
}

// backfillIndex indexes the games that ended without being indexed: all
// of them the first time a server starts on a store, after that those
// whose indexing a crash cut off.
func (s *Server) backfillIndex(ctx context.Context) error {
	if s.explorer == nil {
		return nil
	}
	n, err := explorer.Backfill(ctx, s.explorer, s.st, s.log)
	if n > 0 {
		s.log.Info("indexed finished games for the opening explorer", "games", n)
	}
	return err
}
