package server

import (
	"emergo/view"
)

// handlePosition plays moves from a start position by the rules and says
// where they lead: the board, the legal moves, the outcome (view.Game). It
// is the rules for the analysis board of a browser without WebAssembly,
// which otherwise asks its own engine (view.State) and gets the same
// answer, or the same refusal: position.invalid, or the code of the
// first move that cannot be played with its place as params.index.
func (s *Server) handlePosition(r *request) (int, any, error) {
	var req view.Request
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	if len(req.Moves) > maxPositionMoves {
		return 0, nil, invalid("at most %d moves", maxPositionMoves)
	}
	g, err := req.Play()
	if err != nil {
		return 0, nil, err
	}
	return 200, view.GameOf(g), nil
}

// maxPositionMoves bounds the moves of one /api/position request: far
// more than any game holds.
const maxPositionMoves = 2000
