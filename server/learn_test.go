package server_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"emergo/lessons"
	"emergo/notation"
	"emergo/server"
)

// positionView is a position as the API draws it.
type positionView struct {
	Size     int            `json:"size"`
	Position string         `json:"position"`
	Turn     string         `json:"turn"`
	Hands    map[string]int `json:"hands"`
	Board    []struct {
		Square    string `json:"square"`
		Owner     string `json:"owner"`
		Top       int    `json:"top"`
		Prisoners int    `json:"prisoners"`
	} `json:"board"`
	Legal    []string `json:"legal"`
	LastMove any      `json:"lastMove"`
}

type lessonsView struct {
	Lessons []struct {
		ID        string   `json:"id"`
		Rules     []string `json:"rules"`
		Title     string   `json:"title"`
		Text      string   `json:"text"`
		Exercises []struct {
			Ask    string       `json:"ask"`
			Done   string       `json:"done"`
			View   positionView `json:"view"`
			Accept []string     `json:"accept"`
			Wrong  []struct {
				Move  string `json:"move"`
				Legal bool   `json:"legal"`
				Rule  string `json:"rule"`
				Note  string `json:"note"`
			} `json:"wrong"`
		} `json:"exercises"`
	} `json:"lessons"`
}

type whyView struct {
	Legal  bool           `json:"legal"`
	Move   string         `json:"move"`
	After  *positionView  `json:"after"`
	Error  string         `json:"error"`
	Code   string         `json:"code"`
	Params map[string]any `json:"params"`
}

// why asks POST /api/position/why.
func (c *client) why(t *testing.T, position, move string) whyView {
	t.Helper()
	code, _, body := c.do("POST", "/api/position/why", map[string]string{"position": position, "move": move})
	if code != http.StatusOK {
		t.Fatalf("why %q in %q: %d %s", move, position, code, body)
	}
	var w whyView
	if err := json.Unmarshal([]byte(body), &w); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestLessonsAPI: GET /api/lessons gives the course of package lessons,
// each exercise's position drawn as a game's board is, with its legal
// moves; the right moves are among them (all of them where the exercise
// names none), and every wrong move's explanation is a key of the
// catalogues. The position after 1.c3 shows c3 as the last move.
func TestLessonsAPI(t *testing.T) {
	c := newEnv(t, server.Config{}).client()
	var got lessonsView
	c.getJSON(t, "/api/lessons", &got)
	en := catalogue(t, "en")
	course := lessons.All()
	if len(got.Lessons) != len(course) {
		t.Fatalf("%d lessons, want %d", len(got.Lessons), len(course))
	}
	for i, l := range got.Lessons {
		want := course[i]
		if l.ID != want.ID || !slices.Equal(l.Rules, want.Rules) || l.Title != want.TitleKey() || l.Text != want.TextKey() {
			t.Errorf("lesson %d: %s %v %s %s, want %s", i, l.ID, l.Rules, l.Title, l.Text, want.ID)
		}
		for j, ex := range l.Exercises {
			p, err := notation.ParsePosition(ex.View.Position)
			if err != nil {
				t.Fatalf("%s %d: %v", l.ID, j+1, err)
			}
			legal := notation.SortedMoves(p.Geometry(), p.Legal(nil))
			if !slices.Equal(ex.View.Legal, legal) || ex.View.Size != p.Geometry().N || len(ex.View.Board) == 0 && !p.FirstMove() {
				t.Errorf("%s %d: view %+v does not draw %q", l.ID, j+1, ex.View, ex.View.Position)
			}
			if len(want.Exercises[j].Accept) == 0 && !slices.Equal(ex.Accept, legal) {
				t.Errorf("%s %d: accepts %v, want every legal move", l.ID, j+1, ex.Accept)
			}
			for _, a := range ex.Accept {
				if !slices.Contains(legal, a) {
					t.Errorf("%s %d: accepts %s, which is not legal", l.ID, j+1, a)
				}
			}
			for _, k := range []string{ex.Ask, ex.Done} {
				if _, ok := en[k]; !ok {
					t.Errorf("%s %d: no text %s", l.ID, j+1, k)
				}
			}
			for _, w := range ex.Wrong {
				if _, ok := en[w.Note]; !ok || w.Rule == "" {
					t.Errorf("%s %d: %s: note %s, rule %q", l.ID, j+1, w.Move, w.Note, w.Rule)
				}
			}
		}
	}
	feed := got.Lessons[1].Exercises[0].View
	if feed.LastMove != "c3" || feed.Turn != "black" || feed.Hands["white"] != 7 || len(feed.Board) != 1 || feed.Board[0].Square != "c3" {
		t.Errorf("after 1.c3: %+v", feed)
	}
}

// TestWhy: POST /api/position/why answers any move in any position: a
// legal one with the position after it, an illegal one with the code, the
// rule and the parameters a refused move of a game has, and the English
// message; a move in a position that ends the game is game.over; a
// position it cannot read is a bad request, position.invalid.
func TestWhy(t *testing.T) {
	c := newEnv(t, server.Config{}).client()
	const start7 = "7x7 w 8/8 -"
	for _, tc := range []struct {
		name, position, move string
		code                 string
		params               map[string]any
	}{
		{"the centre first", start7, "d4", "move.centre_first", map[string]any{"move": "d4", "side": "white", "rule": "4.3", "square": "d4"}},
		{"feeding", "7x7 b 7/8 c3:W1", "b2", "move.feeding", map[string]any{"move": "b2", "side": "black", "rule": "4.4", "square": "b2"}},
		{"the majority", "7x7 w 0/0 c3:W1 b4:B1 d4:B1 d6:B1", "c3xa5", "move.majority",
			map[string]any{"move": "c3xa5", "side": "white", "rule": "3.6", "n": 2.0}},
		{"turning back", "7x7 w 0/0 c3:W1 d4:B2", "c3xe5xc3", "move.no_such_capture",
			map[string]any{"move": "c3xe5xc3", "side": "white", "rule": "3.1-3.4"}},
		{"a step with men in hand", "7x7 w 6/6 e3:W1 e5:W1 g1:B1 g7:B1", "e3-d4", "move.must_enter",
			map[string]any{"move": "e3-d4", "side": "white", "rule": "4.1"}},
		{"a light square", start7, "d5", "move.light_square", map[string]any{"move": "d5", "square": "d5", "n": 7.0}},
		{"no move at all", start7, "", "move.empty", map[string]any{"move": ""}},
		{"a position where the game is over", "7x7 w 0/0 d4:B3", "d4-e5", "game.over",
			map[string]any{"result": "0-1", "reason": "all men taken prisoner"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := c.why(t, tc.position, tc.move)
			if w.Legal || w.After != nil || w.Code != tc.code || w.Error == "" {
				t.Fatalf("%+v, want refused with %s and a message", w, tc.code)
			}
			if diff := cmp.Diff(tc.params, w.Params); diff != "" {
				t.Errorf("params (-want +got):\n%s", diff)
			}
		})
	}

	w := c.why(t, "7x7 w 0/0 c3:W1 d4:B1w2 e1:W1 f2:B1", "c3xe5")
	if !w.Legal || w.Code != "" || w.After == nil {
		t.Fatalf("c3xe5: %+v, want legal", w)
	}
	if a := w.After; a.Position != "7x7 b 0/0 e1:W1 f2:B1 d4:W2 e5:W1b1" || a.Turn != "black" || a.LastMove != "c3xe5" ||
		!slices.Equal(a.Legal, []string{"f2-e3", "f2-g1", "f2-g3"}) {
		t.Errorf("after c3xe5: %+v", a)
	}

	for _, tc := range []struct {
		name string
		body any
		code string
	}{
		{"no position", map[string]string{"move": "a1"}, "position.invalid"},
		{"a bad position", map[string]string{"position": "8x8 w 0/0 -", "move": "a1"}, "position.invalid"},
		{"an unknown field", map[string]string{"position": start7, "move": "a1", "ply": "1"}, "request.malformed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, body := c.do("POST", "/api/position/why", tc.body)
			if e := decodeErr(t, body); status != http.StatusBadRequest || e.Code != tc.code {
				t.Errorf("%d %s, want 400 %s", status, body, tc.code)
			}
		})
	}
}

// TestLessonAttempts: every wrong move of every exercise, asked of the
// API in the exercise's position, is refused or allowed as the lesson
// says, and every right one is allowed; the page takes its verdicts
// from these answers.
func TestLessonAttempts(t *testing.T) {
	c := newEnv(t, server.Config{}).client()
	var got lessonsView
	c.getJSON(t, "/api/lessons", &got)
	for _, l := range got.Lessons {
		for j, ex := range l.Exercises {
			for _, wr := range ex.Wrong {
				if w := c.why(t, ex.View.Position, wr.Move); w.Legal != wr.Legal || !w.Legal && w.Params["rule"] == nil {
					t.Errorf("%s %d: %s: %+v, want legal %v", l.ID, j+1, wr.Move, w, wr.Legal)
				}
			}
			if w := c.why(t, ex.View.Position, ex.Accept[0]); !w.Legal {
				t.Errorf("%s %d: right move %s refused: %+v", l.ID, j+1, ex.Accept[0], w)
			}
		}
	}
}
