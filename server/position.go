package server

import (
	"errors"
	"strings"

	"emergo/game"
	"emergo/notation"
	"emergo/rules"
)

// gameFrom starts a rules game from a position text, or from the empty
// board of size (9 when 0) without one: the start of a position that
// /api/analyze and /api/position are asked about.
func gameFrom(position string, size int) (*rules.Game, error) {
	if strings.TrimSpace(position) != "" {
		p, err := notation.ParsePosition(position)
		if err != nil {
			return nil, invalid("%v", err)
		}
		return rules.NewGameFrom(p), nil
	}
	if size == 0 {
		size = 9
	}
	geo := rules.GeometryOf(size)
	if geo == nil {
		return nil, invalid("size must be 9 or 7")
	}
	return rules.NewGame(geo), nil
}

// playFrom plays moves from a start (gameFrom). A move that cannot be
// played is refused as a move to a game is (moveError), with its place in
// the list, from 0, as the parameter index.
func playFrom(position string, size int, moves []string) (*rules.Game, error) {
	rg, err := gameFrom(position, size)
	if err != nil {
		return nil, err
	}
	if err := notation.PlayMoves(rg, moves); err != nil {
		if errors.Is(err, rules.ErrGameOver) {
			return nil, invalid("%v", err)
		}
		e := httpError(err)
		var at *notation.MovesError
		if errors.As(err, &at) && e.params != nil {
			e.params["index"] = at.Index
		}
		return nil, e
	}
	return rg, nil
}

// reachedJSON is a position reached by moves from a start, with what a
// board needs to go on from it: the answer of /api/position. Its legal
// moves are the game's: none once it is over.
type reachedJSON struct {
	positionJSON
	Shadow int      `json:"shadow"`
	Over   bool     `json:"over"`
	Result string   `json:"result"`
	Reason string   `json:"reason"`
	Moves  []string `json:"moves"`
}

// handlePosition plays moves from a start position by the rules and says
// where they lead: the board, the legal moves, the outcome. It is the
// rules for the analysis board of a browser without WebAssembly, which
// otherwise knows them itself. A move that cannot be played is refused as
// playFrom refuses it.
func (s *Server) handlePosition(r *request) (int, any, error) {
	var req struct {
		Position string   `json:"position"`
		Size     int      `json:"size"`
		Moves    []string `json:"moves"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	if len(req.Moves) > maxPositionMoves {
		return 0, nil, invalid("at most %d moves", maxPositionMoves)
	}
	_, out, err := reached(req.Position, req.Size, req.Moves)
	if err != nil {
		return 0, nil, err
	}
	return 200, out, nil
}

// reached plays moves from a request's start (gameFrom) and says where
// they lead, as /api/position answers: the game, and its position with
// what a board needs to go on. A move that cannot be played is refused as
// playFrom refuses it.
func reached(position string, size int, moves []string) (*rules.Game, reachedJSON, error) {
	rg, err := playFrom(position, size, moves)
	if err != nil {
		return nil, reachedJSON{}, err
	}
	p := rg.Position()
	var last rules.Move
	if n := len(rg.Moves()); n > 0 {
		last = rg.Moves()[n-1]
	}
	out := reachedJSON{positionJSON: positionOf(&p, last), Moves: []string{}, Result: "*"}
	for _, m := range rg.Moves() {
		out.Moves = append(out.Moves, m.Text(p.Geometry()))
	}
	if o := rg.Outcome(); o.Over() {
		e := game.EndingOf(o)
		out.Over, out.Result, out.Reason = true, e.Result.String(), e.Termination.String()
		out.Legal = []string{}
	} else {
		out.Legal = notation.SortedMoves(p.Geometry(), rg.Legal())
		out.Shadow = p.EntrySize()
	}
	return rg, out, nil
}

// maxPositionMoves bounds the moves of one /api/position request: far
// more than any game holds.
const maxPositionMoves = 2000
