package server

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"emergo/account"
	"emergo/enginework"
	"emergo/game"
	"emergo/player"
	"emergo/record"
	"emergo/round"
	"emergo/rules"
	"emergo/view"
)

// recordOf builds the record of a game on the site.
func recordOf(r *round.Round) record.Record {
	rec := record.Of(r.Game)
	rec.SetTag("Event", "Emergo game")
	rec.SetTag("Site", "emergo")
	rec.SetTag("Date", r.Created.UTC().Format("2006.01.02"))
	rec.SetTag("White", r.Seats[rules.White].Name)
	rec.SetTag("Black", r.Seats[rules.Black].Name)
	if r.Mode == round.Analysis && r.Recorded != "" {
		rec.SetTag("Termination", r.Recorded)
	}
	switch c := r.Game.Control(rules.White); {
	case c.Correspondence():
		// One move in so many seconds, as PGN writes a time per move.
		rec.SetTag("TimeControl", fmt.Sprintf("1/%d", c.Days*int(game.Day/time.Second)))
	case c.Time > 0:
		rec.SetTag("TimeControl", fmt.Sprintf("%d+%d", int(c.Time.Seconds()), int(c.Increment.Seconds())))
	}
	return rec
}

func (s *Server) serveRecord(w http.ResponseWriter, r *http.Request, ext string, write func(record.Record) ([]byte, error)) {
	v, err := s.rounds.Look(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	rec, id := recordOf(v.Round), v.Round.ID
	data, err := write(rec)
	if err != nil {
		s.log.Error("write record", "game", id, "err", err)
		writeError(w, failure(http.StatusInternalServerError, codeRecordNotWritten, "the record could not be written"))
		return
	}
	ctype := "application/json"
	if ext == "pgn" {
		ctype = "text/plain; charset=utf-8"
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="emergo-%s.%s"`, id, ext))
	w.Write(data)
}

func (s *Server) handleRecordPGN(w http.ResponseWriter, r *http.Request) {
	s.serveRecord(w, r, "pgn", func(rec record.Record) ([]byte, error) {
		var b bytes.Buffer
		err := record.WritePGN(&b, rec)
		return b.Bytes(), err
	})
}

func (s *Server) handleRecordJSON(w http.ResponseWriter, r *http.Request) {
	s.serveRecord(w, r, "json", record.WriteAPJSON)
}

// handleUpload stores the first game of an uploaded record as an analysis
// game: a board to replay and analyse, where nobody moves. The uploads are
// bounded: each client's an hour (takeUpload), each one's plies
// (maxUploadPlies), the bytes of all and how long one nobody opens is
// kept (createUpload, expireUploads).
func (s *Server) handleUpload(r *request) (int, any, error) {
	if s.uploads == nil {
		return 0, nil, errNoUploads
	}
	if err := s.takeUpload(r); err != nil {
		return 0, nil, err
	}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return 0, nil, failure(http.StatusRequestEntityTooLarge, codeRecordTooLarge, "the record is too large (1 MiB at most)")
	}
	// Any record file, by its content: PGN-style, an Abstract Play record or
	// an array of them, UTF-8 or UTF-16. Leniently: a game that went on
	// after our rules end it (Abstract Play has no repetition rule) is kept
	// up to that end, where its replay stops. The first game alone is
	// read, and no further than the limit: a longer one is only counted.
	recs, err := record.ReadOptions{Lenient: true, MaxPlies: maxUploadPlies, MaxGames: 1}.ReadAll(data)
	if err == nil && len(recs) == 0 {
		err = fmt.Errorf("no game in the record")
	}
	var long *record.TooLongError
	if errors.As(err, &long) {
		return 0, nil, &apiError{http.StatusRequestEntityTooLarge, codeRecordTooLong,
			fmt.Sprintf("the record is too long: %d plies, and the server takes at most %d", long.Plies, long.Max),
			map[string]any{"plies": long.Plies, "max": long.Max}}
	}
	if err != nil {
		return 0, nil, &apiError{http.StatusBadRequest, codeRecordUnread, "this record cannot be read: " + err.Error(), map[string]any{"detail": err.Error()}}
	}
	rec := recs[0]
	g, err := rec.Played(s.rounds.Options(game.Control{}))
	if err != nil {
		return 0, nil, &apiError{http.StatusBadRequest, codeRecordUnplayed, "this record cannot be replayed: " + err.Error(), map[string]any{"detail": err.Error()}}
	}
	// The record's words are shown and kept as names are: cleaned and
	// cut (account.ShortenName), whatever the file holds.
	rd := &round.Round{ID: newID(), Mode: round.Analysis, Created: s.now(), Game: g, Recorded: account.ShortenName(rec.Tag("Termination"))}
	if e := g.Ending(); e.Termination.OnBoard() {
		rd.Recorded = e.Termination.String()
	}
	rd.Seats = [2]round.Seat{{Name: account.ShortenName(rec.Tag("White"))}, {Name: account.ShortenName(rec.Tag("Black"))}}
	return s.createUpload(r, rd)
}

// handleAnalyze searches a position for the analysis board. Given the
// game the position comes from, it refuses while that game is played
// (round.Round.AnalysisOpen): the engine helps nobody during a game. A position
// sent without its game cannot be told from any other; docs/api.md says
// so.
func (s *Server) handleAnalyze(r *request) (int, any, error) {
	var req struct {
		Game     string   `json:"game"`
		Position string   `json:"position"`
		Size     int      `json:"size"`
		Moves    []string `json:"moves"`
		Depth    int      `json:"depth"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	if req.Game != "" {
		v, err := s.rounds.Look(r.Context(), req.Game)
		if err != nil {
			return 0, nil, err
		}
		if !v.Round.AnalysisOpen() {
			return 0, nil, round.ErrNoAnalysis
		}
	}
	if req.Depth == 0 {
		req.Depth = 8
	}
	if req.Depth < 1 || req.Depth > 12 {
		return 0, nil, invalid("depth must be from 1 to 12")
	}
	if len(req.Moves) > maxPositionMoves {
		// Replayed before the analysis is queued, so bounded as a
		// position's (the request's body alone allowed many more).
		return 0, nil, invalid("at most %d moves", maxPositionMoves)
	}
	rg, err := view.Request{Position: req.Position, Size: req.Size, Moves: req.Moves}.Play()
	if err != nil {
		return 0, nil, err
	}
	if o := rg.Outcome(); o.Over() {
		return 0, nil, failure(http.StatusBadRequest, codeAnalysisOver, "the game is over: "+o.String())
	}
	start := time.Now()
	who := &asker{addr: clientKey(r.Request)}
	if r.user != nil {
		who.user = r.user.ID
	}
	res, err := s.analyse(r.Context(), rg, req.Depth, who)
	if errors.Is(err, enginework.ErrClientBusy) || errors.Is(err, enginework.ErrQueueFull) {
		s.metrics.analysisRefused.Add(1)
		return 0, nil, err
	}
	if err != nil {
		return 0, nil, failure(http.StatusServiceUnavailable, codeAnalysisStopped, "the analysis was interrupted")
	}
	out := map[string]any{"score": res.Score, "mate": 0, "best": nil, "pv": []string{}, "depth": res.Depth, "nodes": res.Nodes, "ms": time.Since(start).Milliseconds()}
	if n, ok := player.MateIn(res.Score); ok {
		out["mate"] = n
	}
	pos := rg.Position()
	if v, ok := player.ProbeTables(&pos); ok {
		// The position is solved: the endgame tables' value for the side
		// to move and its distance to the end in plies.
		out["table"] = map[string]int{"outcome": v.Outcome, "plies": v.Plies}
	}
	if res.Move != "" {
		out["best"] = res.Move
	}
	if len(res.PV) > 0 {
		out["pv"] = res.PV
	}
	return http.StatusOK, out, nil
}
