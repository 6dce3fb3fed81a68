package server_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"emergo/puzzle"
	"emergo/server"
)

type puzzleView struct {
	ID     string       `json:"id"`
	Size   int          `json:"size"`
	Themes []string     `json:"themes"`
	Rating int          `json:"rating"`
	Plays  int          `json:"plays"`
	Solver string       `json:"solver"`
	Start  positionView `json:"start"`
	Line   []struct {
		Move   string       `json:"move"`
		Accept []string     `json:"accept"`
		After  positionView `json:"after"`
	} `json:"line"`
	You solverView `json:"you"`
}

type solverView struct {
	Rating      int  `json:"rating"`
	Deviation   int  `json:"deviation"`
	Provisional bool `json:"provisional"`
	Games       int  `json:"games"`
}

type attemptView struct {
	Solved bool       `json:"solved"`
	Rated  bool       `json:"rated"`
	Diff   int        `json:"diff"`
	You    solverView `json:"you"`
	Rating int        `json:"rating"`
	Wrong  *struct {
		Move       string       `json:"move"`
		Best       string       `json:"best"`
		After      positionView `json:"after"`
		Refutation []string     `json:"refutation"`
		Score      int32        `json:"score"`
		Mate       int          `json:"mate"`
	} `json:"wrong"`
}

func (c *client) nextPuzzle(t *testing.T, query string) puzzleView {
	t.Helper()
	var p puzzleView
	c.getJSON(t, "/api/puzzles/next"+query, &p)
	return p
}

func (c *client) attempt(t *testing.T, id string, moves []string, giveUp bool) attemptView {
	t.Helper()
	code, _, body := c.do("POST", "/api/puzzles/"+id+"/attempt", map[string]any{"moves": moves, "giveUp": giveUp})
	if code != http.StatusOK {
		t.Fatalf("attempt at %s with %v: %d %s", id, moves, code, body)
	}
	var a attemptView
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// solution is the solver's moves of p.
func (p puzzleView) solution() []string {
	var out []string
	for i := 0; i < len(p.Line); i += 2 {
		out = append(out, p.Line[i].Move)
	}
	return out
}

// wrongMove is a legal move of p's start that is not the solution.
func (p puzzleView) wrongMove(t *testing.T) string {
	for _, m := range p.Start.Legal {
		if !slices.Contains(p.Line[0].Accept, m) {
			return m
		}
	}
	t.Fatalf("puzzle %s has no wrong move", p.ID)
	return ""
}

// TestPuzzleAPI: a new solver gets a puzzle of the set near 1500 with its
// line drawn ply by ply; solving it raises his rating and lowers the
// puzzle's, failing it the other way round with the winning move and the
// engine's refutation; a second try rates nothing, and the puzzles tried
// are not given again.
func TestPuzzleAPI(t *testing.T) {
	e := newEnv(t, server.Config{})
	c := e.client()
	p := c.nextPuzzle(t, "?size=7")
	set := puzzle.Set(7).ByID(p.ID)
	switch {
	case set == nil:
		t.Fatalf("puzzle %s is not in the 7x7 set", p.ID)
	case p.Size != 7 || p.Solver != p.Start.Turn || p.Start.Position == "" || len(p.Line) != len(set.Line):
		t.Errorf("puzzle %+v: want the set's, the solver to move", p)
	case p.You != (solverView{Rating: 1500, Deviation: 350, Provisional: true}):
		t.Errorf("a new solver: %+v", p.You)
	case p.Rating != set.Rating || p.Plays != 0:
		t.Errorf("rating %d with %d plays, want the set's %d", p.Rating, p.Plays, set.Rating)
	}
	for i, ply := range p.Line {
		if ply.After.LastMove != ply.Move || ply.Accept[0] != ply.Move {
			t.Errorf("ply %d: %+v", i+1, ply)
		}
	}

	solved := c.attempt(t, p.ID, p.solution(), false)
	if !solved.Solved || !solved.Rated || solved.Diff <= 0 || solved.Rating >= set.Rating || solved.You.Games != 1 || solved.Wrong != nil {
		t.Errorf("solving: %+v; want the solver up, the puzzle down from %d", solved, set.Rating)
	}
	again := c.attempt(t, p.ID, p.solution(), false)
	if again.Rated || again.Diff != 0 || again.You != solved.You {
		t.Errorf("solving again: %+v; want nothing rated", again)
	}
	for range 5 {
		if q := c.nextPuzzle(t, "?size=7"); q.ID == p.ID {
			t.Errorf("puzzle %s tried and given again", p.ID)
		}
	}

	// Another browser fails the same puzzle: its rating falls and the
	// puzzle's rises from where the first solver left it.
	d := e.client()
	q := d.nextPuzzle(t, "?size=7")
	wrong := q.wrongMove(t)
	failed := d.attempt(t, q.ID, []string{wrong}, false)
	switch {
	case failed.Solved || !failed.Rated || failed.Diff >= 0 || failed.You.Games != 1:
		t.Errorf("failing: %+v; want the solver down", failed)
	case failed.Wrong == nil || failed.Wrong.Move != wrong || failed.Wrong.Best != q.Line[0].Move || failed.Wrong.After.LastMove != wrong:
		t.Errorf("failing with %s: %+v; want %s told", wrong, failed.Wrong, q.Line[0].Move)
	case len(failed.Wrong.Refutation) == 0 || failed.Wrong.Score >= puzzle.DefaultCriteria[7].Win:
		t.Errorf("the refutation of %s: %v scoring %d for the solver", wrong, failed.Wrong.Refutation, failed.Wrong.Score)
	}
	if failed.Rating <= q.Rating {
		t.Errorf("the puzzle's rating went from %d to %d after a failure", q.Rating, failed.Rating)
	}

	// Giving up is failing, with no wrong move to explain.
	r := d.nextPuzzle(t, "?size=9")
	if gave := d.attempt(t, r.ID, nil, true); gave.Solved || !gave.Rated || gave.Diff >= 0 || gave.Wrong != nil {
		t.Errorf("giving up: %+v", gave)
	}
}

// TestPuzzleRatingOfAnAccount: a logged-in solver's rating is his
// account's, the same in every browser he logs in from.
func TestPuzzleRatingOfAnAccount(t *testing.T) {
	e := accountEnv(t, server.Config{})
	c := e.client()
	if code, msg, _ := c.account("signup", creds("solver", "long enough")); code != http.StatusCreated {
		t.Fatalf("signup: %d %s", code, msg)
	}
	p := c.nextPuzzle(t, "")
	a := c.attempt(t, p.ID, p.solution(), false)
	other := e.withSession(c.session())
	if got := other.nextPuzzle(t, "").You; got != a.You || got.Games != 1 {
		t.Errorf("the account in another browser: %+v, want %+v", got, a.You)
	}
	if got := e.client().nextPuzzle(t, "").You; got.Games != 0 {
		t.Errorf("a browser without the account: %+v, want a new solver", got)
	}
}

func TestPuzzleFilters(t *testing.T) {
	c := newEnv(t, server.Config{}).client()
	for _, size := range []string{"9", "7"} {
		for _, theme := range puzzle.Themes {
			p := c.nextPuzzle(t, "?size="+size+"&theme="+string(theme))
			if !slices.Contains(p.Themes, string(theme)) || p.Size != int(size[0]-'0') {
				t.Errorf("size %s, theme %s: puzzle %s of size %d, themes %v", size, theme, p.ID, p.Size, p.Themes)
			}
		}
	}
}

func TestPuzzleAPIRefuses(t *testing.T) {
	c := newEnv(t, server.Config{}).client()
	p := c.nextPuzzle(t, "?size=9")
	tests := []struct {
		name, method, path string
		body               any
		status             int
		code               string
	}{
		{"an unknown puzzle", "GET", "/api/puzzles/9-0000000000", nil, http.StatusNotFound, "puzzle.not_found"},
		{"an attempt at an unknown puzzle", "POST", "/api/puzzles/x/attempt", map[string]any{"moves": []string{}}, http.StatusNotFound, "puzzle.not_found"},
		{"a board of another size", "GET", "/api/puzzles/next?size=8", nil, http.StatusBadRequest, "request.invalid"},
		{"an unknown theme", "GET", "/api/puzzles/next?theme=fork", nil, http.StatusBadRequest, "request.invalid"},
		{"an illegal move", "POST", "/api/puzzles/" + p.ID + "/attempt", map[string]any{"moves": []string{"a1-a2"}}, http.StatusBadRequest, "move.light_square"},
		{"an attempt not finished", "POST", "/api/puzzles/" + p.ID + "/attempt", map[string]any{"moves": []string{}}, http.StatusBadRequest, "request.invalid"},
		{"moves after a wrong one", "POST", "/api/puzzles/" + p.ID + "/attempt", map[string]any{"moves": []string{p.wrongMove(t), "a1"}}, http.StatusBadRequest, "request.invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, body := c.do(tt.method, tt.path, tt.body)
			var e struct{ Code string }
			json.Unmarshal([]byte(body), &e)
			if code != tt.status || e.Code != tt.code {
				t.Errorf("%d %s, want %d with code %s", code, body, tt.status, tt.code)
			}
		})
	}
	if got := c.nextPuzzle(t, "?size=9").You; got.Games != 0 {
		t.Errorf("refused attempts were rated: %+v", got)
	}
}
