package server_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"emergo/server"
	"emergo/view"
)

var updateViews = flag.Bool("update-views", false, "write the answers of ../view/testdata/answers.json again from the browser's rules")

// viewsFile holds the table of TestOneViewOfPositions: requests of the
// rules, each with the answer of the browser's rules as its JSON text has
// it ({"ok": ...} or {"error": {code, params, message}}). web/test/wasm.test.js
// runs the same table through the engine built for the browser.
const viewsFile = "../view/testdata/answers.json"

type viewCase struct {
	Name    string          `json:"name"`
	Request view.Request    `json:"request"`
	Want    json.RawMessage `json:"want"`
}

type whyCase struct {
	Name     string          `json:"name"`
	Position string          `json:"position"`
	Move     string          `json:"move"`
	Want     json.RawMessage `json:"want"`
}

type viewTable struct {
	State []viewCase `json:"state"`
	Why   []whyCase  `json:"why"`
}

// viewCases are the requests of the table: good positions and bad ones,
// on both boards, a bad move at each place, and moves after the end.
func viewCases() viewTable {
	const (
		d1  = "9x9 w 0/0 d4:W3 c5:B2w2 e5:B1 c7:B1 e7:B1"
		d13 = "9x9 w 0/0 a1:W1b11 i9:B1w11"
	)
	cycle := []string{"a1-b2", "i9-h8", "b2-a1", "h8-i9"}
	twice := append(append([]string{}, cycle...), cycle...)
	return viewTable{
		State: []viewCase{
			{Name: "the start of 9x9", Request: view.Request{Size: 9}},
			{Name: "the start of 7x7", Request: view.Request{Size: 7}},
			{Name: "no size: 9x9", Request: view.Request{Moves: []string{"c3", "g7"}}},
			{Name: "7x7, moves typed loosely", Request: view.Request{Size: 7, Moves: []string{" C3 ", "@e5"}}},
			{Name: "the shadow piece", Request: view.Request{Position: "9x9 b 0/2 a1:W9 e5:W1 h8:B10w2"}},
			{Name: "a capture that wins", Request: view.Request{Position: d1, Moves: []string{"D4XB6xd8xf6xd4xb6"}}},
			{Name: "threefold repetition", Request: view.Request{Position: d13, Moves: twice}},
			{Name: "a position text and its size: the text's", Request: view.Request{Position: "7x7 w 8/8 -", Size: 9, Moves: []string{"c3"}}},
			{Name: "a position that is not one", Request: view.Request{Position: "9x9 w 12/12 c6:W3"}},
			{Name: "too many men", Request: view.Request{Position: "7x7 w 9/8 -"}},
			{Name: "a board of another size", Request: view.Request{Size: 8}},
			{Name: "the first move on the centre", Request: view.Request{Size: 7, Moves: []string{"d4"}}},
			{Name: "a second move on an occupied square", Request: view.Request{Size: 7, Moves: []string{"c3", "c3"}}},
			{Name: "a capture missed", Request: view.Request{Size: 7, Moves: []string{"d6", "c7", "f6", "a1"}}},
			{Name: "a text that is no move", Request: view.Request{Size: 7, Moves: []string{"c3", "c3-d4-e5"}}},
			{Name: "a square off the board", Request: view.Request{Size: 7, Moves: []string{"h8"}}},
			{Name: "a move after a win", Request: view.Request{Position: d1, Moves: []string{"d4xb6xd8xf6xd4xb6", "c5-d6"}}},
			{Name: "a move after a repetition", Request: view.Request{Position: d13, Moves: append(append([]string{}, twice...), "a1-b2")}},
			{Name: "a move in a position that is over", Request: view.Request{Position: "9x9 b 0/0 a1:W1", Moves: []string{"a1-b2"}}},
		},
		Why: []whyCase{
			{Name: "legal", Position: "9x9 w 12/12 -", Move: "c3"},
			{Name: "the centre first", Position: "9x9 w 12/12 -", Move: "e5"},
			{Name: "the smaller capture", Position: d1, Move: "d4xf6xd8xb6xd4"},
			{Name: "feeding", Position: "7x7 b 7/8 c3:W1", Move: "b2"},
			{Name: "not a move", Position: "7x7 w 8/8 -", Move: "c3-d4-e5"},
			{Name: "a position that is over", Position: "9x9 w 0/0 d4:B3", Move: "d4-e5"},
			{Name: "a position that is not one", Position: "8x8 w 0/0 -", Move: "a1"},
		},
	}
}

// readViews reads the table, or with -update-views writes it again from
// the browser's rules (view.State, view.Why: the functions the engine's
// JavaScript calls) and reads that.
func readViews(t *testing.T) viewTable {
	t.Helper()
	if *updateViews {
		tab := viewCases()
		for i, c := range tab.State {
			req, _ := json.Marshal(c.Request)
			tab.State[i].Want = json.RawMessage(view.State(string(req)))
		}
		for i, c := range tab.Why {
			req, _ := json.Marshal(map[string]string{"position": c.Position, "move": c.Move})
			tab.Why[i].Want = json.RawMessage(view.Why(string(req)))
		}
		// A case a line, so that a change shows as the cases it changes.
		var out bytes.Buffer
		out.WriteString("{\"state\": [\n")
		for i, c := range tab.State {
			line, _ := json.Marshal(c)
			out.Write(line)
			out.WriteString(map[bool]string{true: ",\n", false: "\n"}[i < len(tab.State)-1])
		}
		out.WriteString("], \"why\": [\n")
		for i, c := range tab.Why {
			line, _ := json.Marshal(c)
			out.Write(line)
			out.WriteString(map[bool]string{true: ",\n", false: "\n"}[i < len(tab.Why)-1])
		}
		out.WriteString("]}\n")
		if err := os.WriteFile(viewsFile, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(viewsFile)
	if err != nil {
		t.Fatal(err)
	}
	var tab viewTable
	if err := json.Unmarshal(data, &tab); err != nil {
		t.Fatal(err)
	}
	if len(tab.State) == 0 || len(tab.Why) == 0 {
		t.Fatalf("%s has no cases", viewsFile)
	}
	return tab
}

// answerOf splits a browser answer's JSON text into its value and its
// refusal, both as plain JSON values.
func answerOf(t *testing.T, text []byte) (ok any, refusal map[string]any) {
	t.Helper()
	var a struct {
		OK    any            `json:"ok"`
		Error map[string]any `json:"error"`
	}
	if err := json.Unmarshal(text, &a); err != nil {
		t.Fatalf("answer %s: %v", text, err)
	}
	return a.OK, a.Error
}

// apiRefusal is an error of the API as the browser's rules write a
// refusal: {code, params, message}.
func apiRefusal(t *testing.T, body string) map[string]any {
	t.Helper()
	e := decodeErr(t, body)
	if e.Params == nil {
		e.Params = map[string]any{}
	}
	return map[string]any{"code": e.Code, "params": e.Params, "message": e.Error}
}

// TestOneViewOfPositions: the same requests asked of the server's API and
// of the browser's rules get the same answers, field for field, and the
// same refusals, code, parameters and message: /api/position, the
// explorer (its book and site aside) and /api/analyze (refusals only: an
// answer is a search) against view.State; /api/position/why against
// view.Why. The table's answers are what the browser's rules answer now
// (written again by -update-views), and web/test/wasm.test.js holds the
// engine built for the browser to them too.
func TestOneViewOfPositions(t *testing.T) {
	tab := readViews(t)
	c := newEnv(t, server.Config{}).client()
	for _, tc := range tab.State {
		t.Run(tc.Name, func(t *testing.T) {
			req, _ := json.Marshal(tc.Request)
			ok, refusal := answerOf(t, []byte(view.State(string(req))))
			wantOK, wantRefusal := answerOf(t, tc.Want)
			if d := cmp.Diff(wantOK, ok); d != "" {
				t.Errorf("view.State: answer (-table +now):\n%s", d)
			}
			if d := cmp.Diff(wantRefusal, refusal); d != "" {
				t.Errorf("view.State: refusal (-table +now):\n%s", d)
			}

			// The API's answers, each held to the table's.
			check := func(what string, status int, body string, strip ...string) {
				t.Helper()
				if wantRefusal != nil {
					if status != http.StatusBadRequest {
						t.Fatalf("%s: status %d, want 400: %s", what, status, body)
					}
					if d := cmp.Diff(wantRefusal, apiRefusal(t, body)); d != "" {
						t.Errorf("%s: refusal (-browser +server):\n%s", what, d)
					}
					return
				}
				if status != http.StatusOK {
					t.Fatalf("%s: status %d, want 200: %s", what, status, body)
				}
				var got map[string]any
				if err := json.Unmarshal([]byte(body), &got); err != nil {
					t.Fatal(err)
				}
				for _, k := range strip {
					delete(got, k)
				}
				if d := cmp.Diff(wantOK, any(got)); d != "" {
					t.Errorf("%s: answer (-browser +server):\n%s", what, d)
				}
			}
			status, _, body := c.do("POST", "/api/position", tc.Request)
			check("POST /api/position", status, body)

			q := url.Values{}
			if tc.Request.Position != "" {
				q.Set("position", tc.Request.Position)
			}
			if tc.Request.Size != 0 {
				q.Set("size", strconv.Itoa(tc.Request.Size))
			}
			if len(tc.Request.Moves) > 0 {
				q.Set("moves", strings.Join(tc.Request.Moves, ","))
			}
			status, _, body = c.do("GET", "/api/explorer?"+q.Encode(), nil)
			check("GET /api/explorer", status, body, "book", "site")

			if wantRefusal != nil {
				status, _, body = c.do("POST", "/api/analyze", tc.Request)
				check("POST /api/analyze", status, body)
			}
		})
	}
	for _, tc := range tab.Why {
		t.Run("why/"+tc.Name, func(t *testing.T) {
			req, _ := json.Marshal(map[string]string{"position": tc.Position, "move": tc.Move})
			ok, refusal := answerOf(t, []byte(view.Why(string(req))))
			wantOK, wantRefusal := answerOf(t, tc.Want)
			if d := cmp.Diff(wantOK, ok); d != "" {
				t.Errorf("view.Why: answer (-table +now):\n%s", d)
			}
			if d := cmp.Diff(wantRefusal, refusal); d != "" {
				t.Errorf("view.Why: refusal (-table +now):\n%s", d)
			}
			status, _, body := c.do("POST", "/api/position/why", map[string]string{"position": tc.Position, "move": tc.Move})
			if wantRefusal != nil {
				// The position cannot be set up: the request is refused.
				if status != http.StatusBadRequest {
					t.Fatalf("status %d, want 400: %s", status, body)
				}
				if d := cmp.Diff(wantRefusal, apiRefusal(t, body)); d != "" {
					t.Errorf("refusal (-browser +server):\n%s", d)
				}
				return
			}
			var got struct {
				Legal  bool           `json:"legal"`
				Error  string         `json:"error"`
				Code   string         `json:"code"`
				Params map[string]any `json:"params"`
			}
			if err := json.Unmarshal([]byte(body), &got); status != http.StatusOK || err != nil {
				t.Fatalf("status %d, %v: %s", status, err, body)
			}
			if wantOK == nil {
				if !got.Legal {
					t.Errorf("the browser finds the move legal, the server %s", body)
				}
				return
			}
			verdict := map[string]any{"code": got.Code, "params": any(got.Params), "message": got.Error}
			if d := cmp.Diff(wantOK, any(verdict)); got.Legal || d != "" {
				t.Errorf("verdict (-browser +server), legal %v:\n%s", got.Legal, d)
			}
		})
	}
}
