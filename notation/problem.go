package notation

import (
	"errors"
	"strings"

	"emergo/rules"
)

// Problem is why a move cannot be played, in a form that any language can
// word: a stable code and the parameters its message needs. The codes are
// the server's API error codes and the keys of the pages' catalogues
// (error.CODE), the same whether the server or the browser checks the move.
type Problem struct {
	Code   string
	Params map[string]any
}

// illegalCodes are the codes of the rules' reasons why a move is not
// legal (rules.IllegalReason).
var illegalCodes = map[rules.IllegalReason]string{
	rules.NotAMove:      "move.not_a_move",
	rules.NoLegalMove:   "move.no_legal_move",
	rules.MustCapture:   "move.must_capture",
	rules.NoMenInHand:   "move.no_men_in_hand",
	rules.Occupied:      "move.occupied",
	rules.CentreFirst:   "move.centre_first",
	rules.Feeding:       "move.feeding",
	rules.MustEnter:     "move.must_enter",
	rules.NotYours:      "move.not_yours",
	rules.NotAdjacent:   "move.not_adjacent",
	rules.NoCapture:     "move.no_capture",
	rules.Majority:      "move.majority",
	rules.NoSuchCapture: "move.no_such_capture",
}

// syntaxCodes and squareCodes are the codes of the ways a move text is
// not written as a move (SyntaxProblem, rules.SquareProblem).
var (
	syntaxCodes = map[SyntaxProblem]string{
		EmptyMove:   "move.empty",
		StepForm:    "move.step_form",
		CaptureForm: "move.capture_form",
		LongCapture: "move.too_long",
	}
	squareCodes = map[rules.SquareProblem]string{
		rules.NotAName:    "move.not_a_square",
		rules.OffBoard:    "move.off_board",
		rules.LightSquare: "move.light_square",
	}
)

// MoveProblem returns the problem of a move that cannot be played: the
// code of the rules' reason (or of the text's form), and its parameters:
// the move as given, the rule (its number in docs/rules.md), the side to
// move ("white" or "black"), and as the reason needs them the square, the
// count of men (n), an example of a legal capture, the squares of a step
// (from, to). A cause it does not know is "move.illegal".
func MoveProblem(e *MoveError) Problem {
	out := Problem{Code: "move.illegal", Params: map[string]any{"move": e.Text}}
	var (
		ill *rules.IllegalMoveError
		syn *SyntaxError
		sq  *rules.SquareError
	)
	switch {
	case errors.As(e, &ill):
		g := ill.Geometry()
		out.Code = or(illegalCodes[ill.Reason], out.Code)
		out.Params["side"] = strings.ToLower(ill.Side.String())
		if ill.Rule != "" {
			out.Params["rule"] = ill.Rule
		}
		if ill.Square != rules.NoSquare {
			out.Params["square"] = g.Name(ill.Square)
		}
		if ill.Count > 0 {
			out.Params["n"] = ill.Count
		}
		if !ill.Example.IsZero() {
			out.Params["example"] = ill.Example.Text(g)
		}
		if ill.Reason == rules.NotAdjacent {
			out.Params["from"], out.Params["to"] = g.Name(ill.Move.From()), g.Name(ill.Move.To())
		}
		if ill.Reason == rules.NotAMove {
			out.Params["n"] = g.N
		}
	case errors.As(e, &sq):
		out.Code = or(squareCodes[sq.Problem], out.Code)
		out.Params["square"] = sq.Name
		out.Params["n"] = sq.N
	case errors.As(e, &syn):
		out.Code = or(syntaxCodes[syn.Problem], out.Code)
	}
	return out
}

// PositionProblem returns the problem of a position text that cannot be
// read: "position.invalid", with the text's part at fault and why as its
// detail (in English, as the notation words it).
func PositionProblem(e *PositionError) Problem {
	return Problem{Code: "position.invalid", Params: map[string]any{"detail": e.Detail()}}
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
