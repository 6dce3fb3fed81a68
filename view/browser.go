package view

import (
	"encoding/json"
	"errors"

	"emergo/notation"
)

// The rules of the browser's engine: package wasm gives these functions
// to the pages' JavaScript (server/web/wasm.js), which calls them with
// JSON text and gets JSON text back, an Answer. They answer as the
// server's API does, with the same views and the same refusals, so a
// page may ask either.

// Answer is what every function of the browser's engine gives
// JavaScript: its value, or the refusal.
type Answer struct {
	OK    any      `json:"ok,omitempty"`
	Error *Refusal `json:"error,omitempty"`
}

// Reply is the JSON text of the answer v, or of the refusal err is (an
// error that is no Refusal is a broken invariant, answered as
// server.internal).
func Reply(v any, err error) string {
	var a Answer
	if err != nil {
		var r *Refusal
		if !errors.As(err, &r) {
			r = Refuse(CodeInternal, "%s", err.Error())
		}
		a.Error = r
	} else {
		a.OK = v
	}
	out, err := json.Marshal(a)
	if err != nil {
		panic("view: an answer does not marshal: " + err.Error())
	}
	return string(out)
}

// Decode reads a request's JSON text into v, or refuses it as
// request.malformed.
func Decode(text string, v any) error {
	if err := json.Unmarshal([]byte(text), v); err != nil {
		return Refuse(CodeMalformed, "malformed request: %v", err)
	}
	return nil
}

// State answers a Request with the Game its moves lead to, as POST
// /api/position does.
func State(request string) string {
	var req Request
	if err := Decode(request, &req); err != nil {
		return Reply(nil, err)
	}
	g, err := req.Play()
	if err != nil {
		return Reply(nil, err)
	}
	return Reply(GameOf(g), nil)
}

// WhyRequest asks whether Move may be played after a Request's moves.
type WhyRequest struct {
	Request
	Move string `json:"move"`
}

// Why answers a WhyRequest with nothing when the move is legal, else with
// the Refusal of the move as its value (its verdict, not a failure of the
// request); a game that cannot be set up is refused.
func Why(request string) string {
	var req WhyRequest
	if err := Decode(request, &req); err != nil {
		return Reply(nil, err)
	}
	g, err := req.Play()
	if err != nil {
		return Reply(nil, err)
	}
	if _, r := Try(g, req.Move); r != nil {
		return Reply(r, nil)
	}
	return Reply(nil, nil)
}

// PositionText answers a Board made by an editor (its text left out) with
// the canonical text of its position, if it is one (ParseBoard).
func PositionText(request string) string {
	var req Board
	if err := Decode(request, &req); err != nil {
		return Reply(nil, err)
	}
	p, err := ParseBoard(req)
	if err != nil {
		return Reply(nil, err)
	}
	return Reply(notation.FormatPosition(&p), nil)
}
