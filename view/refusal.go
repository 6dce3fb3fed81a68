package view

import (
	"errors"
	"fmt"

	"emergo/notation"
	"emergo/rules"
)

// The codes of the refusals that are not a move's: the server's API codes
// and the keys of the pages' catalogues (error.CODE), the same whether
// the server or the browser refuses. A move that cannot be played has the
// code of notation.MoveProblem (move.*).
const (
	CodeMalformed    = "request.malformed"    // a request that is not the JSON it should be
	CodeInvalid      = "request.invalid"      // a value the rules do not take, such as a level of the engine
	CodePosition     = "position.invalid"     // params.detail: the position's part at fault and why
	CodeOver         = "game.over"            // params.result, params.reason; params.index for a move of a list
	CodeAnalysisOver = "analysis.game_over"   // a search asked of a game that is over
	CodeInterrupted  = "analysis.interrupted" // a search that could not finish
	CodeInternal     = "server.internal"      // a broken invariant, never a request's fault
)

// Codes are the codes above, for the tests that check every one has its
// message in every catalogue.
var Codes = []string{CodeMalformed, CodeInvalid, CodePosition, CodeOver, CodeAnalysisOver, CodeInterrupted, CodeInternal}

// Refusal is why the rules cannot answer a request: a code of the pages'
// catalogues, the parameters its message needs, and the message in
// English for users of the API. For a move of a list, params.index is its
// place in the list, from 0. The server answers it as an error of its API
// (400), the browser's engine as its answer's error.
type Refusal struct {
	Code    string         `json:"code"`
	Params  map[string]any `json:"params"`
	Message string         `json:"message"`
}

func (r *Refusal) Error() string { return r.Message }

// Refuse is a refusal without parameters.
func Refuse(code, format string, args ...any) *Refusal {
	return &Refusal{Code: code, Params: map[string]any{}, Message: fmt.Sprintf(format, args...)}
}

// badSize is the detail of a board that is neither 9x9 nor 7x7.
const badSize = "the board is 9x9 or 7x7"

func positionInvalid(detail string) *Refusal {
	return &Refusal{Code: CodePosition, Params: map[string]any{"detail": detail}, Message: "position: " + detail}
}

// PositionRefusal is the refusal of a position text that cannot be read
// (err from notation.ParsePosition): position.invalid, with the part at
// fault and why as its detail.
func PositionRefusal(err error) *Refusal {
	var pe *notation.PositionError
	if !errors.As(err, &pe) {
		return positionInvalid(err.Error())
	}
	p := notation.PositionProblem(pe)
	return &Refusal{Code: p.Code, Params: p.Params, Message: pe.Error()}
}

// MoveRefusal is the refusal of a move that cannot be played: the code
// and parameters of notation.MoveProblem.
func MoveRefusal(e *notation.MoveError) *Refusal {
	p := notation.MoveProblem(e)
	out := &Refusal{Code: p.Code, Params: p.Params, Message: "illegal move " + e.Error()}
	if e.Text == "" {
		out.Message = "illegal move: " + e.Err.Error()
	}
	return out
}

// OverRefusal is the refusal of a move after the end of a game:
// game.over, with the result and the reason of the end.
func OverRefusal(o rules.Outcome) *Refusal {
	return &Refusal{Code: CodeOver, Params: map[string]any{"result": o.Result.String(), "reason": o.Reason.String()},
		Message: (&rules.GameOverError{Outcome: o}).Error()}
}

// movesRefusal is the refusal of the move of a list that PlayMoves could
// not play: its own refusal, with its place in the list as params.index.
func movesRefusal(e *notation.MovesError) *Refusal {
	var (
		me   *notation.MoveError
		over *rules.GameOverError
		out  *Refusal
	)
	switch {
	case errors.As(e.Err, &over):
		out = OverRefusal(over.Outcome)
	case errors.As(e.Err, &me):
		out = MoveRefusal(me)
	default:
		out = MoveRefusal(&notation.MoveError{Text: e.Text, Err: e.Err})
	}
	out.Params["index"] = e.Index
	out.Message = e.Error()
	return out
}
