package server

import (
	"fmt"
	"net/http"
	"strings"
	"sync"

	"emergo/lessons"
	"emergo/view"
)

// The course as GET /api/lessons gives it (docs/api.md): every text is a
// key of the catalogues, which the page says in its language.
type (
	lessonJSON struct {
		ID        string         `json:"id"`
		Rules     []string       `json:"rules"`
		Title     string         `json:"title"`
		Text      string         `json:"text"`
		Exercises []exerciseJSON `json:"exercises"`
	}
	exerciseJSON struct {
		Ask  string        `json:"ask"`
		Done string        `json:"done"`
		View view.Position `json:"view"`
		// Accept are the right moves: every legal move when the
		// exercise names none.
		Accept []string    `json:"accept"`
		Wrong  []wrongJSON `json:"wrong"`
	}
	wrongJSON struct {
		Move  string `json:"move"`
		Legal bool   `json:"legal"`
		Rule  string `json:"rule"`
		Note  string `json:"note"`
	}
)

// courseJSON is the lessons as the API gives them, made once: they never
// change while the program runs.
var courseJSON = sync.OnceValue(func() []lessonJSON {
	out := []lessonJSON{}
	for _, l := range lessons.All() {
		lj := lessonJSON{ID: l.ID, Rules: l.Rules, Title: l.TitleKey(), Text: l.TextKey()}
		for i, ex := range l.Exercises {
			p, last, err := ex.Setup()
			if err != nil {
				panic(fmt.Sprintf("server: lesson %s, exercise %d: %v", l.ID, i+1, err)) // the lessons' tests set up every one
			}
			ej := exerciseJSON{Ask: l.AskKey(i), Done: l.DoneKey(i), View: view.PositionOf(&p, last), Accept: ex.Accept, Wrong: []wrongJSON{}}
			if len(ej.Accept) == 0 {
				ej.Accept = ej.View.Legal
			}
			for _, w := range ex.Wrong {
				ej.Wrong = append(ej.Wrong, wrongJSON{Move: w.Move, Legal: w.Reason == 0, Rule: w.Rule, Note: l.NoteKey(i, w)})
			}
			lj.Exercises = append(lj.Exercises, ej)
		}
		out = append(out, lj)
	}
	return out
})

// handleLessons is GET /api/lessons: the course of the /learn page.
func (s *Server) handleLessons(r *request) (int, any, error) {
	return http.StatusOK, map[string]any{"lessons": courseJSON()}, nil
}

// whyJSON answers whether a move is legal in a position: the position
// after it if it is, else why not, as an error of the API says it (code,
// params with the rule, and the English message).
type whyJSON struct {
	Legal  bool           `json:"legal"`
	Move   string         `json:"move"`
	After  *view.Position `json:"after,omitempty"`
	Error  string         `json:"error,omitempty"`
	Code   string         `json:"code,omitempty"`
	Params map[string]any `json:"params,omitempty"`
}

// handleWhy is POST /api/position/why {"position": TEXT, "move": TEXT}:
// any move, legal or not, in any position, answered with the position
// after it or the rule it breaks (game.over when the position ends the
// game), as the browser's rules answer it (view.Why). The lessons ask it
// of every attempt.
func (s *Server) handleWhy(r *request) (int, any, error) {
	var req struct {
		Position string `json:"position"`
		Move     string `json:"move"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	if strings.TrimSpace(req.Position) == "" {
		return 0, nil, &apiError{http.StatusBadRequest, codePosition, "position: no position given", map[string]any{"detail": "no position given"}}
	}
	g, err := view.Request{Position: req.Position}.Play()
	if err != nil {
		return 0, nil, err
	}
	m, no := view.Try(g, req.Move)
	if no != nil {
		return http.StatusOK, whyJSON{Move: req.Move, Error: no.Message, Code: no.Code, Params: no.Params}, nil
	}
	p := g.Position()
	after := p.After(m)
	v := view.PositionOf(&after, m)
	return http.StatusOK, whyJSON{Legal: true, Move: m.Text(p.Geometry()), After: &v}, nil
}
