package main

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// call runs a function of the JavaScript API on a request and decodes its
// answer into ok or its problem.
func call(t *testing.T, f func(string) string, request any, ok any) *problemJSON {
	t.Helper()
	req, err := json.Marshal(request)
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		OK    json.RawMessage `json:"ok"`
		Error *problemJSON    `json:"error"`
	}
	out := f(string(req))
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("answer %s: %v", out, err)
	}
	if a.Error == nil && ok != nil && a.OK != nil {
		if err := json.Unmarshal(a.OK, ok); err != nil {
			t.Fatalf("answer %s: %v", out, err)
		}
	}
	return a.Error
}

// D1 of the rule cases: White's only move is the five-man capture, which
// wins.
const d1 = "9x9 w 0/0 d4:W3 c5:B2w2 e5:B1 c7:B1 e7:B1"

// D13: the same position for the third time after eight steps.
const d13 = "9x9 w 0/0 a1:W1b11 i9:B1w11"

var cycle = []string{"a1-b2", "i9-h8", "b2-a1", "h8-i9"}

func TestState(t *testing.T) {
	tests := []struct {
		name string
		req  gameRequest
		want stateJSON
	}{
		{"the start of 7x7", gameRequest{Size: 7}, stateJSON{
			Position: "7x7 w 8/8 -", Size: 7, Turn: "white", Hands: map[string]int{"white": 8, "black": 8},
			Board: []squareJSON{}, Shadow: 1, Result: "*", Moves: []string{}, Start: "7x7 w 8/8 -",
			Legal: []string{"a1", "a3", "a5", "a7", "b2", "b4", "b6", "c1", "c3", "c5", "c7", "d2", "d6", "e1", "e3", "e5", "e7", "f2", "f4", "f6", "g1", "g3", "g5", "g7"},
		}},
		{"a capture that wins", gameRequest{Position: d1, Moves: []string{"D4XB6xd8xf6xd4xb6"}}, stateJSON{
			Position: "9x9 b 0/0 c5:W2 b6:W3b5", Size: 9, Turn: "black", Hands: map[string]int{"white": 0, "black": 0},
			Board: []squareJSON{{"c5", "white", 2, 0}, {"b6", "white", 3, 5}},
			Legal: []string{},
			Over:  true, Result: "1-0", Reason: "all men taken prisoner",
			Moves: []string{"d4xb6xd8xf6xd4xb6"}, Start: d1,
		}},
		{"threefold repetition", gameRequest{Position: d13, Moves: append(append([]string{}, cycle...), cycle...)}, stateJSON{
			Position: d13, Size: 9, Turn: "white", Hands: map[string]int{"white": 0, "black": 0},
			Board: []squareJSON{{"a1", "white", 1, 11}, {"i9", "black", 1, 11}},
			Legal: []string{},
			Over:  true, Result: "1/2-1/2", Reason: "threefold repetition",
			Moves: append(append([]string{}, cycle...), cycle...), Start: d13,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got stateJSON
			if p := call(t, state, tc.req, &got); p != nil {
				t.Fatalf("problem %+v", p)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("state (-want +got):\n%s", d)
			}
		})
	}
}

func index(i int) *int { return &i }

func TestStateProblems(t *testing.T) {
	tests := []struct {
		name string
		req  gameRequest
		want problemJSON
	}{
		{"a position that is not one", gameRequest{Position: "9x9 w 12/12 c6:W3"}, problemJSON{
			Code: "position.invalid", Params: map[string]any{"detail": `"9x9 w 12/12 c6:W3": column "c6:W3": c6 is not a playable square`},
		}},
		{"a board of another size", gameRequest{Size: 8}, problemJSON{
			Code: "position.invalid", Params: map[string]any{"detail": "the board is 9x9 or 7x7"},
		}},
		{"the first move on the centre", gameRequest{Size: 7, Moves: []string{"d4"}}, problemJSON{
			Code: "move.centre_first", Rule: "4.3", Index: index(0),
			Params: map[string]any{"move": "d4", "rule": "4.3", "side": "white", "square": "d4"},
		}},
		{"a capture missed", gameRequest{Size: 7, Moves: []string{"d6", "c7", "f6", "a1"}}, problemJSON{
			Code: "move.must_capture", Rule: "3.5", Index: index(3),
			Params: map[string]any{"move": "a1", "rule": "3.5", "side": "black", "example": "c7xe5xg7"},
		}},
		{"a text that is no move", gameRequest{Size: 7, Moves: []string{"c3", "c3-d4-e5"}}, problemJSON{
			Code: "move.step_form", Index: index(1), Params: map[string]any{"move": "c3-d4-e5"},
		}},
		{"a move after the end", gameRequest{Position: d1, Moves: []string{"d4xb6xd8xf6xd4xb6", "c5-d6"}}, problemJSON{
			Code: "game.over", Index: index(1), Params: map[string]any{"result": "1-0", "reason": "all men taken prisoner"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := call(t, state, tc.req, nil)
			if got == nil {
				t.Fatal("no problem")
			}
			if got.Message == "" {
				t.Error("no message")
			}
			got.Message = ""
			if d := cmp.Diff(&tc.want, got); d != "" {
				t.Errorf("problem (-want +got):\n%s", d)
			}
		})
	}
}

func TestWhy(t *testing.T) {
	type req struct {
		Position string `json:"position"`
		Size     int    `json:"size"`
		Move     string `json:"move"`
	}
	tests := []struct {
		name string
		req  req
		want string // the code, "" when legal
	}{
		{"legal", req{Size: 9, Move: "c3"}, ""},
		{"on the centre first", req{Size: 9, Move: "e5"}, "move.centre_first"},
		{"the minority capture", req{Position: d1, Move: "d4xf6xd8xb6xd4"}, "move.majority"},
		{"after the end", req{Position: "9x9 w 0/0 d4:B3", Move: "d4-e5"}, "game.over"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got *problemJSON
			if p := call(t, why, tc.req, &got); p != nil {
				t.Fatalf("problem %+v", p)
			}
			code := ""
			if got != nil {
				code = got.Code
			}
			if code != tc.want {
				t.Errorf("why %q = %+v, want %q", tc.req.Move, got, tc.want)
			}
		})
	}
}

func TestPositionText(t *testing.T) {
	tests := []struct {
		name    string
		req     boardRequest
		want    string
		problem string
	}{
		{"D1", boardRequest{Size: 9, Turn: "white", Hands: map[string]int{}, Board: []squareJSON{
			{"e7", "black", 1, 0}, {"d4", "white", 3, 0}, {"c5", "black", 2, 2}, {"c7", "black", 1, 0}, {"e5", "black", 1, 0},
		}}, d1, ""},
		{"the start", boardRequest{Size: 7, Turn: "black", Hands: map[string]int{"white": 8, "black": 8}}, "7x7 b 8/8 -", ""},
		{"too many men", boardRequest{Size: 7, Turn: "white", Hands: map[string]int{"white": 8}, Board: []squareJSON{{"d4", "white", 1, 0}}},
			"", "White has 1 man on the board and 8 in hand; 8 at most"},
		{"a light square", boardRequest{Size: 7, Turn: "white", Board: []squareJSON{{"d5", "white", 1, 0}}}, "", "d5 is not a playable square"},
		{"a column without a top", boardRequest{Size: 7, Turn: "white", Board: []squareJSON{{"d4", "white", 0, 2}}},
			"", "d4: a column needs at least one man of its owner on top"},
		{"no side", boardRequest{Size: 9}, "", `the side to move is "white" or "black"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got string
			p := call(t, positionText, tc.req, &got)
			switch {
			case tc.problem == "" && p != nil:
				t.Fatalf("problem %+v", p)
			case tc.problem != "" && (p == nil || p.Code != "position.invalid" || p.Params["detail"] != tc.problem):
				t.Fatalf("problem %+v, want position.invalid %q", p, tc.problem)
			case got != tc.want:
				t.Errorf("text %q, want %q", got, tc.want)
			}
		})
	}
}

func TestMalformedRequest(t *testing.T) {
	for name, f := range map[string]func(string) string{"state": state, "why": why, "positionText": positionText} {
		var a answer
		if err := json.Unmarshal([]byte(f("{")), &a); err != nil || a.Error == nil || a.Error.Code != "request.malformed" {
			t.Errorf("%s(\"{\") = %+v, %v; want request.malformed", name, a, err)
		}
	}
}
