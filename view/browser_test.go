package view

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// call runs a function of the browser's rules on a request and decodes its
// answer into ok or its refusal.
func call(t *testing.T, f func(string) string, request any, ok any) *Refusal {
	t.Helper()
	req, err := json.Marshal(request)
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		OK    json.RawMessage `json:"ok"`
		Error *Refusal        `json:"error"`
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
		req  Request
		want Game
	}{
		{"the start of 7x7", Request{Size: 7}, Game{
			Position: Position{Board: Board{Position: "7x7 w 8/8 -", Size: 7, Turn: "white", Hands: map[string]int{"white": 8, "black": 8}, Board: []Square{}},
				Legal: []string{"a1", "a3", "a5", "a7", "b2", "b4", "b6", "c1", "c3", "c5", "c7", "d2", "d6", "e1", "e3", "e5", "e7", "f2", "f4", "f6", "g1", "g3", "g5", "g7"}},
			Shadow: 1, Result: "*", Moves: []string{}, Start: "7x7 w 8/8 -",
		}},
		{"a capture that wins", Request{Position: d1, Moves: []string{"D4XB6xd8xf6xd4xb6"}}, Game{
			Position: Position{Board: Board{Position: "9x9 b 0/0 c5:W2 b6:W3b5", Size: 9, Turn: "black", Hands: map[string]int{"white": 0, "black": 0},
				Board: []Square{{"c5", "white", 2, 0}, {"b6", "white", 3, 5}}},
				Legal: []string{}, LastMove: "d4xb6xd8xf6xd4xb6"},
			Over: true, Result: "1-0", Reason: "all men taken prisoner",
			Moves: []string{"d4xb6xd8xf6xd4xb6"}, Start: d1,
		}},
		{"threefold repetition", Request{Position: d13, Moves: append(append([]string{}, cycle...), cycle...)}, Game{
			Position: Position{Board: Board{Position: d13, Size: 9, Turn: "white", Hands: map[string]int{"white": 0, "black": 0},
				Board: []Square{{"a1", "white", 1, 11}, {"i9", "black", 1, 11}}},
				Legal: []string{}, LastMove: "h8-i9"},
			Over: true, Result: "1/2-1/2", Reason: "threefold repetition",
			Moves: append(append([]string{}, cycle...), cycle...), Start: d13,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got Game
			if p := call(t, State, tc.req, &got); p != nil {
				t.Fatalf("problem %+v", p)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("state (-want +got):\n%s", d)
			}
		})
	}
}

func TestStateProblems(t *testing.T) {
	tests := []struct {
		name string
		req  Request
		want Refusal
	}{
		{"a position that is not one", Request{Position: "9x9 w 12/12 c6:W3"}, Refusal{
			Code: "position.invalid", Params: map[string]any{"detail": `"9x9 w 12/12 c6:W3": column "c6:W3": c6 is not a playable square`},
		}},
		{"a board of another size", Request{Size: 8}, Refusal{
			Code: "position.invalid", Params: map[string]any{"detail": "the board is 9x9 or 7x7"},
		}},
		{"the first move on the centre", Request{Size: 7, Moves: []string{"d4"}}, Refusal{
			Code:   "move.centre_first",
			Params: map[string]any{"move": "d4", "rule": "4.3", "side": "white", "square": "d4", "index": 0.0},
		}},
		{"a capture missed", Request{Size: 7, Moves: []string{"d6", "c7", "f6", "a1"}}, Refusal{
			Code:   "move.must_capture",
			Params: map[string]any{"move": "a1", "rule": "3.5", "side": "black", "example": "c7xe5xg7", "index": 3.0},
		}},
		{"a text that is no move", Request{Size: 7, Moves: []string{"c3", "c3-d4-e5"}}, Refusal{
			Code: "move.step_form", Params: map[string]any{"move": "c3-d4-e5", "index": 1.0},
		}},
		{"a move after the end", Request{Position: d1, Moves: []string{"d4xb6xd8xf6xd4xb6", "c5-d6"}}, Refusal{
			Code: "game.over", Params: map[string]any{"result": "1-0", "reason": "all men taken prisoner", "index": 1.0},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := call(t, State, tc.req, nil)
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
			var got *Refusal
			if p := call(t, Why, tc.req, &got); p != nil {
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
		req     Board
		want    string
		problem string
	}{
		{"D1", Board{Size: 9, Turn: "white", Hands: map[string]int{}, Board: []Square{
			{"e7", "black", 1, 0}, {"d4", "white", 3, 0}, {"c5", "black", 2, 2}, {"c7", "black", 1, 0}, {"e5", "black", 1, 0},
		}}, d1, ""},
		{"the start", Board{Size: 7, Turn: "black", Hands: map[string]int{"white": 8, "black": 8}}, "7x7 b 8/8 -", ""},
		{"too many men", Board{Size: 7, Turn: "white", Hands: map[string]int{"white": 8}, Board: []Square{{"d4", "white", 1, 0}}},
			"", "White has 1 man on the board and 8 in hand; 8 at most"},
		{"a light square", Board{Size: 7, Turn: "white", Board: []Square{{"d5", "white", 1, 0}}}, "", "d5 is not a playable square"},
		{"a column without a top", Board{Size: 7, Turn: "white", Board: []Square{{"d4", "white", 0, 2}}},
			"", "d4: a column needs at least one man of its owner on top"},
		{"no side", Board{Size: 9}, "", `the side to move is "white" or "black"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got string
			p := call(t, PositionText, tc.req, &got)
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
	for name, f := range map[string]func(string) string{"State": State, "Why": Why, "PositionText": PositionText} {
		var a Answer
		if err := json.Unmarshal([]byte(f("{")), &a); err != nil || a.Error == nil || a.Error.Code != "request.malformed" {
			t.Errorf("%s(\"{\") = %+v, %v; want request.malformed", name, a, err)
		}
	}
}
