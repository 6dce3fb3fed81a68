package server

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"

	"emergo/enginework"
	"emergo/notation"
	"emergo/player"
	"emergo/puzzle"
	"emergo/rating"
	"emergo/rules"
	"emergo/view"
)

// explainDepth is the depth of the search that refutes a wrong move of a
// puzzle: a few plies show why it fails, and the answer must come quickly.
const explainDepth = 8

// A puzzle as the API gives it (docs/api.md): its start, and every ply of
// its solution with the position after it, so that the page checks the
// solver's moves and plays the replies itself.
type (
	puzzleJSON struct {
		ID     string        `json:"id"`
		Size   int           `json:"size"`
		Themes []string      `json:"themes"`
		Rating int           `json:"rating"`
		Plays  int           `json:"plays"`
		Solver string        `json:"solver"` // the solver's colour
		Start  view.Position `json:"start"`
		Line   []plyJSON     `json:"line"`
		You    solverJSON    `json:"you"`
	}
	plyJSON struct {
		Move   string        `json:"move"`
		Accept []string      `json:"accept"` // the move and the other paths to the same position
		After  view.Position `json:"after"`
	}
	solverJSON struct {
		Rating      int  `json:"rating"`
		Deviation   int  `json:"deviation"`
		Provisional bool `json:"provisional"`
		Games       int  `json:"games"`
	}
	// wrongMoveJSON explains a wrong move: the move that wins, and the
	// engine's line after the wrong one with its score for the solver
	// (the refutation; empty if the engine could not answer), and its
	// forced end in the opponent's moves, negative when the opponent
	// wins, 0 for none.
	wrongMoveJSON struct {
		Move       string        `json:"move"`
		Best       string        `json:"best"`
		After      view.Position `json:"after"`
		Refutation []string      `json:"refutation"`
		Score      int32         `json:"score"`
		Mate       int           `json:"mate"`
	}
	attemptJSON struct {
		Solved bool           `json:"solved"`
		Rated  bool           `json:"rated"`
		Diff   int            `json:"diff"`
		You    solverJSON     `json:"you"`
		Rating int            `json:"rating"` // the puzzle's, after
		Wrong  *wrongMoveJSON `json:"wrong"`
	}
)

func solverOf(r rating.Rating) solverJSON {
	return solverJSON{Rating: int(math.Round(r.Rating)), Deviation: int(math.Round(r.Deviation)),
		Provisional: r.Deviation >= rating.ProvisionalDeviation, Games: r.Games}
}

// solver returns who asks: his account, else his browser, by the key of
// the cookie that holds its seats (made if it has none yet).
func solver(r *request) puzzle.Solver {
	if r.user != nil {
		return puzzle.Solver{User: r.user.ID}
	}
	return puzzle.Solver{Key: r.identify(true)}
}

// findPuzzle returns the shipped puzzle of id.
func findPuzzle(id string) (*puzzle.Puzzle, error) {
	size, _, _ := strings.Cut(id, "-")
	n, _ := strconv.Atoi(size)
	if set := puzzle.Set(n); set != nil {
		if p := set.ByID(id); p != nil {
			return p, nil
		}
	}
	return nil, &apiError{status: http.StatusNotFound, code: codeNoPuzzle, msg: "there is no puzzle " + id, params: map[string]any{"id": id}}
}

// puzzleRatings are the solver's rating, the puzzles' stored ratings and
// the puzzles he has tried; without a store that keeps them, a new
// solver's and none.
func (s *Server) puzzleRatings(ctx context.Context, who puzzle.Solver) (rating.Rating, map[string]rating.Rating, []string, error) {
	if s.puzzles == nil {
		return rating.Default(), nil, nil, nil
	}
	r, err := s.puzzles.SolverRating(ctx, who)
	if err != nil {
		return r, nil, nil, err
	}
	stored, err := s.puzzles.PuzzleRatings(ctx)
	if err != nil {
		return r, nil, nil, err
	}
	done, err := s.puzzles.Attempted(ctx, who)
	return r, stored, done, err
}

// puzzleStoreError logs a failure of the puzzles' store, with its cause,
// and answers it as the site's other store failures are: 503, try again.
func (s *Server) puzzleStoreError(what string, err error) error {
	s.metrics.storeErrors.Add(1)
	s.log.Error("puzzles: "+what, "err", err)
	return failure(http.StatusServiceUnavailable, codeUnavailable, "the puzzles cannot be reached just now; please try again")
}

// handleNextPuzzle is GET /api/puzzles/next?size=9&theme=freeing: a
// puzzle near the solver's rating that he has not tried (any of the
// filter's once he has tried them all).
func (s *Server) handleNextPuzzle(r *request) (int, any, error) {
	q := r.URL.Query()
	f := puzzle.Filter{Size: 9}
	if v := q.Get("size"); v != "" {
		f.Size, _ = strconv.Atoi(v)
	}
	set := puzzle.Set(f.Size)
	if set == nil {
		return 0, nil, invalid("size must be 9 or 7")
	}
	var err error
	if f.Theme, err = puzzle.ParseTheme(q.Get("theme")); err != nil {
		return 0, nil, invalid("unknown theme %q", q.Get("theme"))
	}
	who := solver(r)
	mine, stored, done, err := s.puzzleRatings(r.Context(), who)
	if err != nil {
		return 0, nil, s.puzzleStoreError("read the puzzles' ratings", err)
	}
	rng := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	p := puzzle.Next(set, f, mine.Rating, done, stored, rng)
	if p == nil {
		p = puzzle.Next(set, f, mine.Rating, []string{q.Get("after")}, stored, rng)
	}
	if p == nil {
		return 0, nil, &apiError{status: http.StatusNotFound, code: codeNoPuzzle, msg: "no puzzle has that theme on that board"}
	}
	return http.StatusOK, puzzleOf(p, stored, mine), nil
}

// handlePuzzle is GET /api/puzzles/{id}: that puzzle.
func (s *Server) handlePuzzle(r *request) (int, any, error) {
	p, err := findPuzzle(r.PathValue("id"))
	if err != nil {
		return 0, nil, err
	}
	mine, stored, _, err := s.puzzleRatings(r.Context(), solver(r))
	if err != nil {
		return 0, nil, s.puzzleStoreError("read the puzzles' ratings", err)
	}
	return http.StatusOK, puzzleOf(p, stored, mine), nil
}

func puzzleOf(p *puzzle.Puzzle, stored map[string]rating.Rating, mine rating.Rating) puzzleJSON {
	g := p.Start.Geometry()
	out := puzzleJSON{ID: p.ID, Size: p.Size(), Themes: []string{}, Rating: p.Rating, Solver: colorNames[p.Solver()],
		Start: view.PositionOf(&p.Start, rules.Move{}), You: solverOf(mine)}
	if r, ok := stored[p.ID]; ok {
		out.Rating, out.Plays = int(math.Round(r.Rating)), r.Games
	}
	for _, t := range p.Themes {
		out.Themes = append(out.Themes, string(t))
	}
	pos := p.Start
	for _, pl := range p.Line {
		ply := plyJSON{Move: pl.Move.Text(g), Accept: []string{pl.Move.Text(g)}}
		for _, m := range pl.Same {
			ply.Accept = append(ply.Accept, m.Text(g))
		}
		pos.Play(pl.Move)
		ply.After = view.PositionOf(&pos, pl.Move)
		out.Line = append(out.Line, ply)
	}
	return out
}

// handlePuzzleAttempt is POST /api/puzzles/{id}/attempt {"moves": [...],
// "giveUp": false}: the solver's moves (his alone), up to his first wrong
// one, or all of them; or those he played before giving up. It rates the
// solver's first attempt at the puzzle and explains a wrong move with the
// engine's refutation.
func (s *Server) handlePuzzleAttempt(r *request) (int, any, error) {
	var req struct {
		Moves  []string `json:"moves"`
		GiveUp bool     `json:"giveUp"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	p, err := findPuzzle(r.PathValue("id"))
	if err != nil {
		return 0, nil, err
	}
	if len(req.Moves) > p.SolverMoves() {
		return 0, nil, invalid("the puzzle has %d moves of the solver, the attempt %d", p.SolverMoves(), len(req.Moves))
	}
	var moves []rules.Move
	for k, text := range req.Moves {
		if _, wrong := p.Judge(moves); wrong >= 0 {
			return 0, nil, invalid("the attempt goes on after its wrong move %d", wrong+1)
		}
		pos := p.Game(2 * k).Position()
		m, err := notation.ParseMove(&pos, text)
		if err != nil {
			return 0, nil, err
		}
		moves = append(moves, m)
	}
	solved, wrong := p.Judge(moves)
	if !solved && wrong < 0 && !req.GiveUp {
		return 0, nil, invalid("the attempt is not finished: %d of %d moves", len(moves), p.SolverMoves())
	}
	out := attemptJSON{Solved: solved}
	if wrong >= 0 {
		out.Wrong = s.explain(r, p, wrong, moves[wrong])
	}
	who := solver(r)
	res := puzzle.Result{Solver: rating.Default(), Puzzle: p.Initial()}
	if s.puzzles != nil {
		res, err = s.puzzles.Attempt(r.Context(), puzzle.Attempt{Solver: who, Puzzle: p.ID, Initial: p.Initial(), Solved: solved, At: s.now()})
		if err != nil {
			return 0, nil, s.puzzleStoreError("store an attempt", err)
		}
	}
	out.Rated, out.You, out.Rating = res.Rated, solverOf(res.Solver), int(math.Round(res.Puzzle.Rating))
	if res.Rated {
		out.Diff = int(math.Round(res.Solver.Rating)) - int(math.Round(res.SolverBefore))
	}
	return http.StatusOK, out, nil
}

// explain tells why the solver's k-th move m is wrong: the move that
// wins, and the engine's line after his (through the analysis queue, as
// the analysis board's searches; without it if the engine cannot answer).
func (s *Server) explain(r *request, p *puzzle.Puzzle, k int, m rules.Move) *wrongMoveJSON {
	g := p.Game(2 * k)
	geo := g.Geometry()
	if err := g.Play(m); err != nil {
		panic("server: a parsed move of a puzzle is not legal: " + err.Error())
	}
	after := g.Position()
	out := &wrongMoveJSON{Move: m.Text(geo), Best: p.Line[2*k].Move.Text(geo), After: view.PositionOf(&after, m), Refutation: []string{}}
	if g.Outcome().Over() {
		return out
	}
	who := &asker{addr: clientKey(r.Request)}
	if r.user != nil {
		who.user = r.user.ID
	}
	res, err := s.analyse(r.Context(), g, explainDepth, who)
	if err != nil {
		if !errors.Is(err, enginework.ErrClientBusy) && !errors.Is(err, enginework.ErrQueueFull) {
			s.log.Warn("puzzle: the refutation of a wrong move failed", "puzzle", p.ID, "err", err)
		}
		return out
	}
	// The search's score and forced end are the opponent's, who moves
	// after the wrong move.
	out.Refutation, out.Score = res.PV, -res.Score
	if n, ok := player.MateIn(res.Score); ok {
		out.Mate = -n
	}
	return out
}
