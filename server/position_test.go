package server_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"emergo/server"
)

// TestPosition asks /api/position where moves lead from a start, as the
// analysis board does without WebAssembly: the position and what may be
// played from it, the outcome, and a refused move with its code and place.
func TestPosition(t *testing.T) {
	e := newEnv(t, server.Config{})
	a := e.client()
	type answer struct {
		Position string         `json:"position"`
		Size     int            `json:"size"`
		Turn     string         `json:"turn"`
		Hands    map[string]int `json:"hands"`
		Legal    []string       `json:"legal"`
		Shadow   int            `json:"shadow"`
		Over     bool           `json:"over"`
		Result   string         `json:"result"`
		Reason   string         `json:"reason"`
		Moves    []string       `json:"moves"`
		Code     string         `json:"code"`
		Params   map[string]any `json:"params"`
	}
	tests := []struct {
		name   string
		req    map[string]any
		status int
		check  func(t *testing.T, got answer)
	}{
		{"the 7x7 start", map[string]any{"size": 7}, 200, func(t *testing.T, got answer) {
			// Every dark square but the centre (RULES 4.3).
			if got.Position != "7x7 w 8/8 -" || len(got.Legal) != 24 || slices.Contains(got.Legal, "d4") || got.Over {
				t.Errorf("got %+v", got)
			}
		}},
		{"a move from the 9x9 start", map[string]any{"moves": []string{"C3"}}, 200, func(t *testing.T, got answer) {
			if got.Position != "9x9 b 11/12 c3:W1" || got.Turn != "black" || got.Hands["white"] != 11 ||
				!slices.Equal(got.Moves, []string{"c3"}) || got.Result != "*" {
				t.Errorf("got %+v", got)
			}
		}},
		{"the shadow piece", map[string]any{"position": "9x9 b 0/2 a1:W9 e5:W1 h8:B10w2"}, 200, func(t *testing.T, got answer) {
			if got.Shadow != 2 {
				t.Errorf("shadow %d, want 2", got.Shadow)
			}
		}},
		{"a capture that ends the game", map[string]any{"position": "9x9 w 0/0 d4:W3 c5:B2w2 e5:B1 c7:B1 e7:B1", "moves": []string{"d4xb6xd8xf6xd4xb6"}}, 200, func(t *testing.T, got answer) {
			if !got.Over || got.Result != "1-0" || got.Reason != "all men taken prisoner" || len(got.Legal) != 0 {
				t.Errorf("got %+v", got)
			}
		}},
		{"an illegal first move", map[string]any{"moves": []string{"e5"}}, 400, func(t *testing.T, got answer) {
			if got.Code != "move.centre_first" || got.Params["index"] != 0.0 || got.Params["move"] != "e5" {
				t.Errorf("got %+v", got)
			}
		}},
		{"an illegal second move", map[string]any{"size": 7, "moves": []string{"c3", "c3"}}, 400, func(t *testing.T, got answer) {
			if got.Code != "move.occupied" || got.Params["index"] != 1.0 {
				t.Errorf("got %+v", got)
			}
		}},
		{"a move after the end", map[string]any{"position": "9x9 b 0/0 a1:W1", "moves": []string{"a1-b2"}}, 400, func(t *testing.T, got answer) {
			if got.Code != "game.over" || got.Params["index"] != 0.0 || got.Params["result"] != "1-0" {
				t.Errorf("got %+v", got)
			}
		}},
		{"too many men", map[string]any{"position": "7x7 w 9/8 -"}, 400, func(t *testing.T, got answer) {
			if got.Code != "position.invalid" || got.Params["detail"] == nil {
				t.Errorf("got %+v", got)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, body := a.do("POST", "/api/position", tc.req)
			if code != tc.status {
				t.Fatalf("status %d, want %d: %s", code, tc.status, body)
			}
			var got answer
			if err := json.Unmarshal([]byte(body), &got); err != nil {
				t.Fatal(err)
			}
			tc.check(t, got)
		})
	}
	if code, _, _ := a.do("GET", "/analysis", nil); code != http.StatusOK {
		t.Errorf("GET /analysis: %d", code)
	}
}
