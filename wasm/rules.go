// Command wasm is the engine of the site's pages: the rules, the notation
// and the search (through package player) compiled to WebAssembly
// (GOOS=js GOARCH=wasm), which server/web/wasm.js and the engine's worker
// load. JavaScript calls it with JSON text and gets JSON text back
// (main_js.go); the answers are made here, without syscall/js, so that
// they are tested natively.
//
// Built for this machine instead, the command builds itself for the
// browser and writes the site's artefact (artefact.go): `go generate
// ./server`, or `go run ./wasm -out server/web`.
package main

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"emergo/notation"
	"emergo/rules"
)

// gameRequest is a game as the pages give it: a position text (or none,
// for the start of the board of size) and the moves played since.
type gameRequest struct {
	Position string   `json:"position"`
	Size     int      `json:"size"`
	Moves    []string `json:"moves"`
}

// squareJSON is a column, as the API's state.board writes it.
type squareJSON struct {
	Square    string `json:"square"`
	Owner     string `json:"owner"`
	Top       int    `json:"top"`
	Prisoners int    `json:"prisoners"`
}

// stateJSON is the state of a game as the pages know it from the API:
// its fields are the API's (docs/api.md), the game's own aside.
type stateJSON struct {
	Position string         `json:"position"`
	Size     int            `json:"size"`
	Turn     string         `json:"turn"`
	Hands    map[string]int `json:"hands"`
	Board    []squareJSON   `json:"board"`
	Legal    []string       `json:"legal"`
	Shadow   int            `json:"shadow"`
	Over     bool           `json:"over"`
	Result   string         `json:"result"`
	Reason   string         `json:"reason"`
	Moves    []string       `json:"moves"`
	Start    string         `json:"start"` // the position the moves start from
}

// problemJSON is why a request cannot be answered: a code of the pages'
// catalogues (error.CODE) with its parameters and the English message,
// the rule a move breaks, and which move of the list (from 0) it is, or
// nil when it is the position.
type problemJSON struct {
	Code    string         `json:"code"`
	Rule    string         `json:"rule,omitempty"`
	Params  map[string]any `json:"params"`
	Message string         `json:"message"`
	Index   *int           `json:"index"`
}

func (p *problemJSON) Error() string { return p.Message }

// answer is what every function gives JavaScript: its value, or the
// problem.
type answer struct {
	OK    any          `json:"ok,omitempty"`
	Error *problemJSON `json:"error,omitempty"`
}

// reply writes the answer of a function: v, or the problem err is (an
// error that is no problem is a broken invariant here, reported as one).
func reply(v any, err error) string {
	var a answer
	if err != nil {
		var p *problemJSON
		if !errors.As(err, &p) {
			p = &problemJSON{Code: "server.internal", Params: map[string]any{}, Message: err.Error()}
		}
		a.Error = p
	} else {
		a.OK = v
	}
	out, err := json.Marshal(a)
	if err != nil {
		panic("wasm: an answer does not marshal: " + err.Error())
	}
	return string(out)
}

// decode reads a request's JSON.
func decode(text string, v any) error {
	if err := json.Unmarshal([]byte(text), v); err != nil {
		return &problemJSON{Code: "request.malformed", Params: map[string]any{}, Message: "malformed request: " + err.Error()}
	}
	return nil
}

// positionProblem is the problem of a position text that cannot be read.
func positionProblem(err error) *problemJSON {
	var pe *notation.PositionError
	if !errors.As(err, &pe) {
		pe = &notation.PositionError{Reason: err.Error()}
	}
	p := notation.PositionProblem(pe)
	return &problemJSON{Code: p.Code, Params: p.Params, Message: pe.Error()}
}

// moveProblem is the problem of move i of a list, err being why it cannot
// be played: a *notation.MoveError, or the end of the game.
func moveProblem(i int, err error) *problemJSON {
	out := &problemJSON{Message: err.Error(), Params: map[string]any{}}
	if i >= 0 {
		out.Index = &i
	}
	var (
		me   *notation.MoveError
		over *rules.GameOverError
	)
	switch {
	case errors.As(err, &me):
		p := notation.MoveProblem(me)
		out.Code, out.Params = p.Code, p.Params
		if r, ok := p.Params["rule"].(string); ok {
			out.Rule = r
		}
	case errors.As(err, &over):
		out.Code = "game.over"
		out.Params = map[string]any{"result": over.Outcome.Result.String(), "reason": over.Outcome.Reason.String()}
	default:
		out.Code = "move.illegal"
	}
	return out
}

// startOf is the position a request's moves start from.
func startOf(position string, size int) (rules.Position, error) {
	if strings.TrimSpace(position) != "" {
		p, err := notation.ParsePosition(position)
		if err != nil {
			return rules.Position{}, positionProblem(err)
		}
		return p, nil
	}
	switch size {
	case 0, 9:
		return rules.NewPosition(rules.Geometry9), nil
	case 7:
		return rules.NewPosition(rules.Geometry7), nil
	}
	return rules.Position{}, &problemJSON{Code: "position.invalid", Params: map[string]any{"detail": "the board is 9x9 or 7x7"},
		Message: "the board is 9x9 or 7x7"}
}

// gameOf plays a request's moves from its position, with the history that
// repetitions and the end of the game need.
func gameOf(req gameRequest) (*rules.Game, error) {
	p, err := startOf(req.Position, req.Size)
	if err != nil {
		return nil, err
	}
	g := rules.NewGameFrom(p)
	if err := notation.PlayMoves(g, req.Moves); err != nil {
		var me *notation.MovesError
		if errors.As(err, &me) {
			return nil, moveProblem(me.Index, me.Err)
		}
		return nil, moveProblem(-1, err)
	}
	return g, nil
}

var colorNames = [2]string{"white", "black"}

// stateOf is the state of g.
func stateOf(g *rules.Game) stateJSON {
	p := g.Position()
	geo := p.Geometry()
	start := g.Start()
	st := stateJSON{
		Position: notation.FormatPosition(&p), Size: geo.N, Turn: colorNames[p.Side()],
		Hands: map[string]int{"white": p.Hand(rules.White), "black": p.Hand(rules.Black)},
		Board: []squareJSON{}, Legal: notation.SortedMoves(geo, g.Legal()), Moves: []string{},
		Over: g.Outcome().Over(), Result: g.Outcome().Result.String(), Start: notation.FormatPosition(&start),
	}
	for sq := rules.Square(0); int(sq) < geo.Squares; sq++ {
		if c := p.At(sq); !c.Empty() {
			st.Board = append(st.Board, squareJSON{geo.Name(sq), colorNames[c.Owner], c.Top, c.Prisoners})
		}
	}
	if st.Over {
		st.Reason = g.Outcome().Reason.String()
	} else {
		st.Shadow = p.EntrySize()
	}
	for _, m := range g.Moves() {
		st.Moves = append(st.Moves, m.Text(geo))
	}
	return st
}

// state answers rules.state: the state after the request's moves.
func state(request string) string {
	var req gameRequest
	if err := decode(request, &req); err != nil {
		return reply(nil, err)
	}
	g, err := gameOf(req)
	if err != nil {
		return reply(nil, err)
	}
	return reply(stateOf(g), nil)
}

// why answers rules.why: nil when move is legal in position (a text, or
// empty for the start of size), else the problem it is.
func why(request string) string {
	var req struct {
		gameRequest
		Move string `json:"move"`
	}
	if err := decode(request, &req); err != nil {
		return reply(nil, err)
	}
	g, err := gameOf(req.gameRequest)
	if err != nil {
		return reply(nil, err)
	}
	if g.Outcome().Over() {
		return reply(moveProblem(-1, &rules.GameOverError{Outcome: g.Outcome()}), nil)
	}
	p := g.Position()
	if _, err := notation.ParseMove(&p, req.Move); err != nil {
		return reply(moveProblem(-1, err), nil)
	}
	return reply(nil, nil)
}

// boardRequest is a position as an editor makes it: the board's size,
// the side to move, the men in hand and the columns.
type boardRequest struct {
	Size  int            `json:"size"`
	Turn  string         `json:"turn"`
	Hands map[string]int `json:"hands"`
	Board []squareJSON   `json:"board"`
}

// positionText answers rules.positionText: the canonical text of the
// position a board request describes, if it is one (RULES 1.4: every man
// of each side in hand, on top or prisoner).
func positionText(request string) string {
	var req boardRequest
	if err := decode(request, &req); err != nil {
		return reply(nil, err)
	}
	p, err := positionOf(req)
	if err != nil {
		return reply(nil, err)
	}
	return reply(notation.FormatPosition(&p), nil)
}

func positionOf(req boardRequest) (rules.Position, error) {
	invalid := func(detail string) (rules.Position, error) {
		return rules.Position{}, &problemJSON{Code: "position.invalid", Params: map[string]any{"detail": detail}, Message: "position: " + detail}
	}
	var g *rules.Geometry
	switch req.Size {
	case 9:
		g = rules.Geometry9
	case 7:
		g = rules.Geometry7
	default:
		return invalid("the board is 9x9 or 7x7")
	}
	side := slices.Index(colorNames[:], req.Turn)
	if side < 0 {
		return invalid(`the side to move is "white" or "black"`)
	}
	hand := [2]int{req.Hands["white"], req.Hands["black"]}
	cols := map[rules.Square]rules.Column{}
	for _, sq := range req.Board {
		s, err := g.ParseSquare(sq.Square)
		if err != nil {
			return invalid(err.Error())
		}
		owner := slices.Index(colorNames[:], sq.Owner)
		if owner < 0 {
			return invalid(sq.Square + `: the owner is "white" or "black"`)
		}
		if _, dup := cols[s]; dup {
			return invalid(sq.Square + " is given twice")
		}
		cols[s] = rules.Column{Owner: rules.Color(owner), Top: sq.Top, Prisoners: sq.Prisoners}
	}
	p, err := rules.PositionOf(g, cols, hand, rules.Color(side))
	if err != nil {
		var pe *rules.PositionError
		if errors.As(err, &pe) {
			return invalid(pe.Detail)
		}
		return invalid(err.Error())
	}
	return p, nil
}
