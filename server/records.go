package server

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"emergo/notation"
	"emergo/player"
	"emergo/record"
	"emergo/rules"
	"emergo/store"
)

// recordOf builds the record of a stored game. lv is locked.
func recordOf(lv *live) record.Record {
	rec := record.FromGame(lv.rg)
	g := lv.g
	rec.SetTag("Event", "Emergo game")
	rec.SetTag("Site", "emergo")
	rec.SetTag("Date", g.Created.UTC().Format("2006.01.02"))
	rec.SetTag("White", g.Seats[0].Name)
	rec.SetTag("Black", g.Seats[1].Name)
	switch g.Result {
	case "1-0":
		rec.Result = rules.WhiteWins
	case "0-1":
		rec.Result = rules.BlackWins
	case "1/2-1/2":
		rec.Result = rules.Draw
	}
	if g.Reason != "" {
		rec.SetTag("Termination", g.Reason)
	}
	if g.Initial > 0 {
		rec.SetTag("TimeControl", fmt.Sprintf("%d+%d", int(g.Initial.Seconds()), int(g.Increment.Seconds())))
	}
	return rec
}

func (s *Server) serveRecord(w http.ResponseWriter, r *http.Request, ext string, write func(record.Record) ([]byte, error)) {
	lv, err := s.load(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	lv.mu.Lock()
	rec := recordOf(lv)
	id := lv.g.ID
	lv.mu.Unlock()
	data, err := write(rec)
	if err != nil {
		s.log.Error("write record", "game", id, "err", err)
		writeError(w, &apiError{http.StatusInternalServerError, "the record could not be written"})
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
// game: a board to replay and analyse, where nobody moves.
func (s *Server) handleUpload(r *request) (int, any, error) {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return 0, nil, &apiError{http.StatusRequestEntityTooLarge, "the record is too large (1 MiB at most)"}
	}
	// Any record file, by its content: PGN-style, an Abstract Play record or
	// an array of them, UTF-8 or UTF-16. Leniently: a game that went on
	// after our rules end it (Abstract Play has no repetition rule) is kept
	// up to that end, where its replay stops.
	recs, err := record.ReadOptions{Lenient: true}.ReadAll(data)
	if err == nil && len(recs) == 0 {
		err = fmt.Errorf("no game in the record")
	}
	if err != nil {
		return 0, nil, &apiError{http.StatusBadRequest, "this record cannot be read: " + err.Error()}
	}
	rec := recs[0]
	rg, err := rec.Game()
	if err != nil {
		return 0, nil, &apiError{http.StatusBadRequest, "this record cannot be replayed: " + err.Error()}
	}
	now := s.now()
	start := rg.Start()
	g := &store.Game{
		ID: newID(), Size: start.Geometry().N, Start: notation.FormatPosition(&start),
		Created: now, Updated: now, Mode: "analysis", Result: rec.Result.String(),
		Reason: rec.Tag("Termination"), DrawOffer: -1, TakeBack: -1, TurnStart: now,
		Seats: [2]store.Seat{{Name: rec.Tag("White")}, {Name: rec.Tag("Black")}},
	}
	if o := rg.Outcome(); o.Over() {
		g.Result, g.Reason = o.Result.String(), o.Reason.String()
	}
	for _, m := range rg.Moves() {
		g.Moves = append(g.Moves, store.Move{Text: m.Text(rg.Geometry()), At: now})
	}
	return s.create(r, g)
}

func (s *Server) handleAnalyze(r *request) (int, any, error) {
	var req struct {
		Position string   `json:"position"`
		Size     int      `json:"size"`
		Moves    []string `json:"moves"`
		Depth    int      `json:"depth"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	if req.Depth == 0 {
		req.Depth = 8
	}
	if req.Depth < 1 || req.Depth > 12 {
		return 0, nil, &apiError{http.StatusBadRequest, "depth must be from 1 to 12"}
	}
	var rg *rules.Game
	if strings.TrimSpace(req.Position) != "" {
		p, err := notation.ParsePosition(req.Position)
		if err != nil {
			return 0, nil, &apiError{http.StatusBadRequest, err.Error()}
		}
		rg = rules.NewGameFrom(p)
	} else {
		if req.Size == 0 {
			req.Size = 9
		}
		geo := rules.GeometryOf(req.Size)
		if geo == nil {
			return 0, nil, &apiError{http.StatusBadRequest, "size must be 9 or 7"}
		}
		rg = rules.NewGame(geo)
	}
	if err := notation.PlayMoves(rg, req.Moves); err != nil {
		return 0, nil, &apiError{http.StatusBadRequest, err.Error()}
	}
	if o := rg.Outcome(); o.Over() {
		return 0, nil, &apiError{http.StatusBadRequest, "the game is over: " + o.String()}
	}
	start := time.Now()
	res, err := s.analyse(r.Context(), rg, req.Depth)
	if err != nil {
		return 0, nil, &apiError{http.StatusServiceUnavailable, "the analysis was interrupted"}
	}
	out := map[string]any{"score": res.Score, "mate": 0, "best": nil, "pv": []string{}, "depth": res.Depth, "nodes": res.Nodes, "ms": time.Since(start).Milliseconds()}
	if n, ok := player.MateIn(res.Score); ok {
		out["mate"] = n
	}
	g := rg.Geometry()
	if !res.Move.IsZero() {
		out["best"] = res.Move.Text(g)
	}
	if len(res.Lines) > 0 {
		pv := []string{}
		for _, m := range res.Lines[0].PV {
			pv = append(pv, m.Text(g))
		}
		out["pv"] = pv
	}
	return http.StatusOK, out, nil
}
