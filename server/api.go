package server

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"emergo/notation"
	"emergo/player"
	"emergo/rules"
	"emergo/store"
)

// apiError is an error meant for the player, with its HTTP status.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

var errStorage = &apiError{http.StatusServiceUnavailable, "the game could not be saved just now; nothing was lost, please try again"}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = &apiError{http.StatusInternalServerError, "internal error"}
	}
	writeJSON(w, ae.status, map[string]string{"error": ae.msg})
}

// request is what a handler gets: the request and the viewer's identity.
type request struct {
	*http.Request
	w     http.ResponseWriter
	token string // hash of the emergo_id cookie, "" if none yet
}

// identify returns the viewer's seat token, creating the cookie if asked.
func (r *request) identify(create bool) string {
	if r.token != "" || !create {
		return r.token
	}
	var b [24]byte
	rand.Read(b[:])
	secret := base64.RawURLEncoding.EncodeToString(b[:])
	http.SetCookie(r.w, &http.Cookie{
		Name: cookieName, Value: secret, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, MaxAge: 400 * 24 * 3600,
	})
	r.token = hashToken(secret)
	return r.token
}

const cookieName = "emergo_id"

func hashToken(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}

// api adapts a handler that returns (status, value, error) to HTTP, with
// the body size limit.
func (s *Server) api(h func(*request) (int, any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		limit := int64(64 << 10)
		if r.URL.Path == "/api/records" {
			limit = 1 << 20
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		req := &request{Request: r, w: w}
		if c, err := r.Cookie(cookieName); err == nil && c.Value != "" {
			req.token = hashToken(c.Value)
		}
		status, v, err := h(req)
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, status, v)
	}
}

// decode reads a JSON body into v, strictly.
func decode(r *request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &apiError{http.StatusRequestEntityTooLarge, "the request is too large"}
		}
		if errors.Is(err, io.EOF) {
			return &apiError{http.StatusBadRequest, "the request has no body"}
		}
		return &apiError{http.StatusBadRequest, "malformed request: " + err.Error()}
	}
	if dec.More() {
		return &apiError{http.StatusBadRequest, "malformed request: more than one JSON value"}
	}
	return nil
}

var colorNames = [2]string{"white", "black"}

func colorName(c int) any {
	if c < 0 {
		return nil
	}
	return colorNames[c]
}

type squareJSON struct {
	Square    string `json:"square"`
	Owner     string `json:"owner"`
	Top       int    `json:"top"`
	Prisoners int    `json:"prisoners"`
}

type playerJSON struct {
	Name   string `json:"name"`
	Engine bool   `json:"engine"`
	Joined bool   `json:"joined"`
}

type clockJSON struct {
	InitialMS   int64 `json:"initial_ms"`
	IncrementMS int64 `json:"increment_ms"`
	WhiteMS     int64 `json:"white_ms"`
	BlackMS     int64 `json:"black_ms"`
	Running     any   `json:"running"`
}

type stateJSON struct {
	ID        string                `json:"id"`
	Size      int                   `json:"size"`
	Mode      string                `json:"mode"`
	Level     int                   `json:"level"`
	Position  string                `json:"position"`
	Turn      string                `json:"turn"`
	Hands     map[string]int        `json:"hands"`
	Board     []squareJSON          `json:"board"`
	Moves     []string              `json:"moves"`
	Legal     []string              `json:"legal"`
	Shadow    int                   `json:"shadow"`
	Result    string                `json:"result"`
	Reason    string                `json:"reason"`
	Players   map[string]playerJSON `json:"players"`
	You       any                   `json:"you"`
	DrawOffer any                   `json:"drawOffer"`
	Takeback  any                   `json:"takeback"`
	Clock     *clockJSON            `json:"clock"`
	Thinking  bool                  `json:"thinking"`
	Version   int64                 `json:"version"`
}

type boardJSON struct {
	Ply      int            `json:"ply"`
	Position string         `json:"position"`
	Turn     string         `json:"turn"`
	Hands    map[string]int `json:"hands"`
	Board    []squareJSON   `json:"board"`
	LastMove any            `json:"lastMove"`
}

func boardOf(p *rules.Position) ([]squareJSON, map[string]int) {
	g := p.Geometry()
	board := []squareJSON{}
	for sq := rules.Square(0); int(sq) < g.Squares; sq++ {
		c := p.At(sq)
		if c.Empty() {
			continue
		}
		board = append(board, squareJSON{g.Name(sq), colorNames[c.Owner], c.Top, c.Prisoners})
	}
	return board, map[string]int{"white": p.Hand(rules.White), "black": p.Hand(rules.Black)}
}

// state is the game as the viewer with token sees it. lv is locked.
func (s *Server) state(lv *live, token string) stateJSON {
	g := lv.g
	p := lv.rg.Position()
	board, hands := boardOf(&p)
	st := stateJSON{
		ID: g.ID, Size: g.Size, Mode: g.Mode, Level: g.Level,
		Position: notation.FormatPosition(&p), Turn: colorNames[p.Side()],
		Hands: hands, Board: board, Moves: []string{}, Legal: []string{},
		Result: g.Result, Reason: g.Reason, You: colorName(seatOf(g, token)),
		DrawOffer: colorName(g.DrawOffer), Takeback: colorName(g.TakeBack),
		Thinking: lv.thinking, Version: g.Version,
		Players: map[string]playerJSON{},
	}
	for _, m := range g.Moves {
		st.Moves = append(st.Moves, m.Text)
	}
	if g.Result == "*" && g.Mode != "analysis" {
		st.Legal = notation.SortedMoves(p.Geometry(), lv.rg.Legal())
		if me := p.Side(); p.Hand(me) > 0 && p.Hand(me.Other()) == 0 {
			st.Shadow = p.Hand(me)
		} else if p.Hand(me) > 0 {
			st.Shadow = 1
		}
	}
	for c := 0; c < 2; c++ {
		st.Players[colorNames[c]] = playerJSON{g.Seats[c].Name, g.Seats[c].Engine, joined(g.Seats[c])}
	}
	if g.Initial > 0 {
		left := lv.timeLeft(s.now())
		st.Clock = &clockJSON{
			InitialMS: g.Initial.Milliseconds(), IncrementMS: g.Increment.Milliseconds(),
			WhiteMS: max(left[0].Milliseconds(), 0), BlackMS: max(left[1].Milliseconds(), 0),
		}
		if clockRunning(g) {
			st.Clock.Running = colorNames[p.Side()]
		}
	}
	return st
}

// newID returns a random game ID of 10 letters and digits.
func newID() string {
	const alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	var b [10]byte
	rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b[:])
}

func cleanName(name, fallback string) string {
	name = strings.TrimSpace(name)
	if name == "" {
		return fallback
	}
	r := []rune(name)
	if len(r) > 30 {
		r = r[:30]
	}
	return strings.Map(func(c rune) rune {
		if c < ' ' {
			return -1
		}
		return c
	}, string(r))
}

type createReq struct {
	Mode  string `json:"mode"`
	Size  int    `json:"size"`
	Level int    `json:"level"`
	Color string `json:"color"`
	Name  string `json:"name"`
	Clock *struct {
		Initial   float64 `json:"initial"`
		Increment float64 `json:"increment"`
	} `json:"clock"`
}

func (s *Server) handleCreate(r *request) (int, any, error) {
	var req createReq
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	if req.Size == 0 {
		req.Size = 9
	}
	geo := rules.GeometryOf(req.Size)
	if geo == nil {
		return 0, nil, &apiError{http.StatusBadRequest, "size must be 9 or 7"}
	}
	if req.Mode != "engine" && req.Mode != "friend" {
		return 0, nil, &apiError{http.StatusBadRequest, `mode must be "engine" or "friend"`}
	}
	if req.Mode == "engine" {
		if req.Level == 0 {
			req.Level = 5
		}
		if req.Level < 1 || req.Level > player.MaxLevel {
			return 0, nil, &apiError{http.StatusBadRequest, fmt.Sprintf("level must be from 1 to %d", player.MaxLevel)}
		}
	} else {
		req.Level = 0
	}
	var me int
	switch req.Color {
	case "white", "":
		me = 0
	case "black":
		me = 1
	case "random":
		var b [1]byte
		rand.Read(b[:])
		me = int(b[0] & 1)
	default:
		return 0, nil, &apiError{http.StatusBadRequest, `color must be "white", "black" or "random"`}
	}
	now := s.now()
	start := rules.NewPosition(geo)
	g := &store.Game{
		ID: newID(), Size: req.Size, Start: notation.FormatPosition(&start),
		Created: now, Updated: now, Mode: req.Mode, Level: req.Level,
		Result: "*", DrawOffer: -1, TakeBack: -1, TurnStart: now,
	}
	if c := req.Clock; c != nil {
		if c.Initial < 10 || c.Initial > 24*3600 || c.Increment < 0 || c.Increment > 600 {
			return 0, nil, &apiError{http.StatusBadRequest, "clock: initial time from 10 s to 24 h, increment from 0 to 600 s"}
		}
		g.Initial = time.Duration(c.Initial * float64(time.Second))
		g.Increment = time.Duration(c.Increment * float64(time.Second))
		g.TimeLeft = [2]time.Duration{g.Initial, g.Initial}
	}
	g.Seats[me] = store.Seat{Name: cleanName(req.Name, "Anonymous"), Token: r.identify(true)}
	if req.Mode == "engine" {
		g.Seats[1-me] = store.Seat{Name: fmt.Sprintf("Emergo level %d", req.Level), Engine: true}
	}
	return s.create(r, g)
}

// create stores a new game and answers with its state, starting the
// engine if it moves first.
func (s *Server) create(r *request, g *store.Game) (int, any, error) {
	if err := s.st.Create(r.Context(), g); err != nil {
		s.metrics.storeErrors.Add(1)
		s.log.Error("create game", "game", g.ID, "err", err)
		return 0, nil, errStorage
	}
	lv, err := s.load(r.Context(), g.ID)
	if err != nil {
		return 0, nil, err
	}
	lv.mu.Lock()
	defer lv.mu.Unlock()
	s.afterChange(lv)
	s.metrics.gamesCreated.Add(1)
	s.log.Info("game created", "game", g.ID, "mode", g.Mode, "size", g.Size, "level", g.Level)
	return http.StatusCreated, s.state(lv, r.token), nil
}

func (s *Server) handleList(r *request) (int, any, error) {
	games, err := s.st.Recent(r.Context(), 30)
	if err != nil {
		s.log.Error("list games", "err", err)
		return 0, nil, errStorage
	}
	type item struct {
		ID      string `json:"id"`
		Size    int    `json:"size"`
		Mode    string `json:"mode"`
		White   string `json:"white"`
		Black   string `json:"black"`
		Plies   int    `json:"plies"`
		Result  string `json:"result"`
		Updated string `json:"updated"`
	}
	out := []item{}
	for _, g := range games {
		out = append(out, item{g.ID, g.Size, g.Mode, g.Names[0], g.Names[1], g.Plies, g.Result, g.Updated.Format(time.RFC3339)})
	}
	return http.StatusOK, map[string]any{"games": out}, nil
}

// withGame runs f on the locked live game of the request's {id}.
func (s *Server) withGame(r *request, f func(lv *live) error) (int, any, error) {
	lv, err := s.load(r.Context(), r.PathValue("id"))
	if err != nil {
		return 0, nil, err
	}
	lv.mu.Lock()
	defer lv.mu.Unlock()
	if err := f(lv); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, s.state(lv, r.token), nil
}

func (s *Server) handleGet(r *request) (int, any, error) {
	return s.withGame(r, func(*live) error { return nil })
}

func (s *Server) handleAt(r *request) (int, any, error) {
	lv, err := s.load(r.Context(), r.PathValue("id"))
	if err != nil {
		return 0, nil, err
	}
	lv.mu.Lock()
	defer lv.mu.Unlock()
	var ply int
	if _, err := fmt.Sscanf(r.PathValue("ply"), "%d", &ply); err != nil || ply < 0 || ply > lv.rg.Len() {
		return 0, nil, &apiError{http.StatusBadRequest, fmt.Sprintf("ply must be from 0 to %d", lv.rg.Len())}
	}
	p := lv.rg.PositionAt(ply)
	board, hands := boardOf(&p)
	out := boardJSON{Ply: ply, Position: notation.FormatPosition(&p), Turn: colorNames[p.Side()], Hands: hands, Board: board}
	if ply > 0 {
		out.LastMove = lv.g.Moves[ply-1].Text
	}
	return http.StatusOK, out, nil
}

func (s *Server) handleJoin(r *request) (int, any, error) {
	var req struct {
		Name string `json:"name"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	token := r.identify(true)
	return s.withGame(r, func(lv *live) error {
		g := lv.g
		if seatOf(g, token) >= 0 {
			return nil // already seated: joining again is harmless
		}
		if g.Result != "*" {
			return &apiError{http.StatusConflict, "the game is over"}
		}
		seat := -1
		for c := 0; c < 2; c++ {
			if !joined(g.Seats[c]) {
				seat = c
				break
			}
		}
		if seat < 0 || g.Mode != "friend" {
			return &apiError{http.StatusConflict, "both seats are taken; you can watch"}
		}
		next := clone(g)
		next.Seats[seat] = store.Seat{Name: cleanName(req.Name, "Anonymous"), Token: token}
		// The clock starts when both players are there.
		next.TurnStart = s.now()
		lv.turnStart = next.TurnStart
		return s.commit(r.Context(), lv, next, len(g.Moves))
	})
}

// mySeat checks that the viewer holds a seat in a game that goes on.
func mySeat(lv *live, token string) (int, error) {
	seat := seatOf(lv.g, token)
	if seat < 0 {
		return -1, &apiError{http.StatusForbidden, "you are not playing in this game"}
	}
	if lv.g.Result != "*" {
		return -1, &apiError{http.StatusConflict, fmt.Sprintf("the game is over (%s, %s)", lv.g.Result, lv.g.Reason)}
	}
	return seat, nil
}

func (s *Server) handleMove(r *request) (int, any, error) {
	var req struct {
		Move string `json:"move"`
		Ply  *int   `json:"ply"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	if req.Ply == nil {
		return 0, nil, &apiError{http.StatusBadRequest, `malformed request: "ply" (the number of moves you have seen) is required`}
	}
	return s.withGame(r, func(lv *live) error {
		seat, err := mySeat(lv, r.token)
		if err != nil {
			return err
		}
		if s.flagIfOut(r.Context(), lv) {
			return &apiError{http.StatusConflict, "your time ran out"}
		}
		if *req.Ply != len(lv.g.Moves) {
			return &apiError{http.StatusConflict, "the board has changed since you looked: your move was not played"}
		}
		p := lv.rg.Position()
		if int(p.Side()) != seat {
			return &apiError{http.StatusConflict, "it is not your turn"}
		}
		if !joined(lv.g.Seats[1-seat]) {
			return &apiError{http.StatusConflict, "your opponent has not joined yet: send them the invite link"}
		}
		m, err := notation.ParseMove(&p, req.Move)
		if err != nil {
			return &apiError{http.StatusBadRequest, "illegal move " + err.Error()}
		}
		return s.play(r.Context(), lv, m)
	})
}

func (s *Server) handleResign(r *request) (int, any, error) {
	return s.withGame(r, func(lv *live) error {
		seat, err := mySeat(lv, r.token)
		if err != nil {
			return err
		}
		next := clone(lv.g)
		next.Result, next.Reason = winFor(rules.Color(seat).Other()), "resignation"
		next.TimeLeft = lv.timeLeft(s.now())
		return s.commit(r.Context(), lv, next, len(next.Moves))
	})
}

// offer runs an offer's action (draw or take-back) for the viewer's seat
// on a copy of the game.
func (s *Server) offer(r *request, act func(lv *live, next *store.Game, seat int, action string) error) (int, any, error) {
	var req struct {
		Action string `json:"action"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	return s.withGame(r, func(lv *live) error {
		seat, err := mySeat(lv, r.token)
		if err != nil {
			return err
		}
		return act(lv, clone(lv.g), seat, req.Action)
	})
}

func (s *Server) handleDraw(r *request) (int, any, error) {
	return s.offer(r, func(lv *live, next *store.Game, seat int, action string) error {
		switch action {
		case "offer":
			if next.DrawOffer == 1-seat {
				return s.agreeDraw(r, lv, next)
			}
			if next.Seats[1-seat].Engine {
				if s.engineAcceptsDraw(r, lv, seat) {
					return s.agreeDraw(r, lv, next)
				}
				return &apiError{http.StatusConflict, "Emergo declines the draw"}
			}
			next.DrawOffer = seat
		case "accept":
			if next.DrawOffer != 1-seat {
				return &apiError{http.StatusConflict, "there is no draw offer to accept"}
			}
			return s.agreeDraw(r, lv, next)
		case "decline":
			if next.DrawOffer != 1-seat {
				return &apiError{http.StatusConflict, "there is no draw offer to decline"}
			}
			next.DrawOffer = -1
		default:
			return &apiError{http.StatusBadRequest, `action must be "offer", "accept" or "decline"`}
		}
		return s.commit(r.Context(), lv, next, len(next.Moves))
	})
}

func (s *Server) agreeDraw(r *request, lv *live, next *store.Game) error {
	next.Result, next.Reason, next.DrawOffer = "1/2-1/2", "agreement", -1
	next.TimeLeft = lv.timeLeft(s.now())
	return s.commit(r.Context(), lv, next, len(next.Moves))
}

// engineAcceptsDraw: the engine takes a draw when a short search says it
// stands worse by more than a man (player.AcceptsDraw).
func (s *Server) engineAcceptsDraw(r *request, lv *live, human int) bool {
	rg := lv.rg.Clone()
	res, err := s.analyse(r.Context(), rg, player.DrawOfferDepth)
	if err != nil {
		return false
	}
	score := res.Score
	if p := rg.Position(); int(p.Side()) == human {
		score = -score
	}
	return player.AcceptsDraw(score)
}

func (s *Server) handleTakeback(r *request) (int, any, error) {
	return s.offer(r, func(lv *live, next *store.Game, seat int, action string) error {
		switch action {
		case "request":
			if next.Seats[1-seat].Engine {
				return s.takeBack(r, lv, next, seat)
			}
			if plies(lv, seat) == 0 {
				return &apiError{http.StatusConflict, "you have no move to take back"}
			}
			next.TakeBack = seat
		case "accept":
			if next.TakeBack != 1-seat {
				return &apiError{http.StatusConflict, "there is no take-back request to accept"}
			}
			return s.takeBack(r, lv, next, 1-seat)
		case "decline":
			if next.TakeBack != 1-seat {
				return &apiError{http.StatusConflict, "there is no take-back request to decline"}
			}
			next.TakeBack = -1
		default:
			return &apiError{http.StatusBadRequest, `action must be "request", "accept" or "decline"`}
		}
		return s.commit(r.Context(), lv, next, len(next.Moves))
	})
}

// plies returns how many moves to take back so that it is who's turn
// again before his last move: 1 if he moved last, 2 if the opponent has
// replied, 0 if he has not moved.
func plies(lv *live, who int) int {
	n := lv.rg.Len()
	for k := 1; k <= 2 && k <= n; k++ {
		p := lv.rg.PositionAt(n - k)
		if int(p.Side()) == who {
			return k
		}
	}
	return 0
}

func (s *Server) takeBack(r *request, lv *live, next *store.Game, who int) error {
	k := plies(lv, who)
	if k == 0 {
		return &apiError{http.StatusConflict, "there is no move to take back"}
	}
	keep := len(next.Moves) - k
	next.Moves = next.Moves[:keep]
	next.TakeBack, next.DrawOffer = -1, -1
	now := s.now()
	next.TimeLeft = lv.timeLeft(now)
	next.TurnStart = now
	rg, err := replay(next)
	if err != nil {
		return err
	}
	old, oldRG, oldStart := lv.g, lv.rg, lv.turnStart
	lv.rg, lv.turnStart = rg, now
	if err := s.commit(r.Context(), lv, next, keep); err != nil {
		if lv.g == old {
			lv.rg, lv.turnStart = oldRG, oldStart
		}
		return err
	}
	return nil
}
