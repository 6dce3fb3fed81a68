package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"emergo/account"
	"emergo/game"
	"emergo/notation"
	"emergo/player"
	"emergo/round"
	"emergo/rules"
	"emergo/store"
	"emergo/view"
)

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// request is what a handler gets: the request and the viewer's identity.
type request struct {
	*http.Request
	w      http.ResponseWriter
	cookie string        // the emergo_id cookie, "" if none yet
	token  string        // its hash, the token of the browser's seats
	user   *account.User // the account logged in, nil for a guest
	// secure says that the request came over TLS (Server.secure): the
	// cookies set are Secure then.
	secure bool
}

// identify returns the viewer's seat token, creating the cookie if asked.
// The cookie is HttpOnly, SameSite=Lax and, like the session's, Secure
// whenever the site is served over TLS: a seat's secret is as good as a
// session for the seats it holds.
func (r *request) identify(create bool) string {
	if r.token != "" || !create {
		return r.token
	}
	var b [24]byte
	rand.Read(b[:])
	secret := base64.RawURLEncoding.EncodeToString(b[:])
	http.SetCookie(r.w, &http.Cookie{
		Name: cookieName, Value: secret, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: r.secure, MaxAge: 400 * 24 * 3600,
	})
	r.cookie, r.token = secret, hashToken(secret)
	return r.token
}

const cookieName = "emergo_id"

// seatCookie returns the emergo_id cookie of r and its hash, the token of
// the browser's seats, or "" and "" if it has none.
func seatCookie(r *http.Request) (cookie, token string) {
	if c, err := r.Cookie(cookieName); err == nil && c.Value != "" {
		return c.Value, hashToken(c.Value)
	}
	return "", ""
}

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
		if r.ContentLength != 0 {
			if err := s.readBody(w, r); err != nil {
				writeError(w, err)
				return
			}
		}
		req := &request{Request: r, w: w, user: userOf(r.Context()), secure: s.secure(r)}
		req.cookie, req.token = seatCookie(r)
		status, v, err := h(req)
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, status, v)
	}
}

// readBody reads the body of r whole, within Config.BodyTimeout, and
// puts it back as r.Body: a client that sends its body slowly is cut
// (408) instead of holding a handler, and the handler then never waits on
// the network. The deadline is lifted once the body is in, so that a
// handler that waits (an analysis) is not cut by it. A body beyond the
// size limit is left to the handler to refuse in its own words: its
// Body returns the *http.MaxBytesError.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) error {
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(s.cfg.BodyTimeout)) // unsupported in tests' recorders: no deadline there
	data, err := io.ReadAll(r.Body)
	rc.SetReadDeadline(time.Time{})
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(data), errReader{err}))
		return nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		w.Header().Set("Connection", "close")
		return failure(http.StatusRequestTimeout, codeSlowBody,
			fmt.Sprintf("the request's body did not arrive within %s", s.cfg.BodyTimeout))
	case err != nil:
		return failure(http.StatusBadRequest, codeMalformed, "the request's body could not be read")
	}
	r.Body = io.NopCloser(bytes.NewReader(data))
	return nil
}

// errReader returns its error.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// decode reads a JSON body into v, strictly.
func decode(r *request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return failure(http.StatusRequestEntityTooLarge, codeTooLarge, "the request is too large")
		}
		if errors.Is(err, io.EOF) {
			return failure(http.StatusBadRequest, codeMalformed, "the request has no body")
		}
		return failure(http.StatusBadRequest, codeMalformed, "malformed request: "+jsonProblem(err))
	}
	if dec.More() {
		return failure(http.StatusBadRequest, codeMalformed, "malformed request: more than one JSON value")
	}
	return nil
}

// jsonProblem says what is wrong with a request's JSON in the API's
// terms: the field and the kind of value it takes, or where the text
// stops being JSON; never the server's own types.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		where := "the request"
		if te.Field != "" {
			where = "field " + strconv.Quote(te.Field)
		}
		return fmt.Sprintf("%s takes %s, not %s", where, jsonKind(te.Type), te.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("not JSON at byte %d", se.Offset)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// jsonKind names the kind of JSON value that decodes into t.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "another value"
}

// colorNames are the words of the colours, as every answer of the API
// writes them.
var colorNames = view.ColorNames

// offerJSON is who makes an offer, or null for none.
func offerJSON(o game.Offer) any {
	if !o.Open {
		return nil
	}
	return colorNames[o.By]
}

type playerJSON struct {
	Name   string `json:"name"`
	Engine bool   `json:"engine"`
	Joined bool   `json:"joined"`
	// Account says that the seat is an account's, whose name is its
	// username: the page links it to the player's profile.
	Account bool `json:"account"`
	// Guest says that the seat is a guest's, whose name is his own
	// choice: the page marks it so, and no guest's name is the engine's
	// or an account's.
	Guest bool `json:"guest"`
	// Bot says that the seat is a bot account's: a program plays it.
	Bot bool `json:"bot"`
	// Rating is the account's in the game's pool ("1500?"), "" for none;
	// RatingDiff what the rated game did to it, once over.
	Rating     string `json:"rating,omitempty"`
	RatingDiff *int   `json:"ratingDiff,omitempty"`
}

type clockJSON struct {
	InitialMS   int64 `json:"initial_ms"`
	IncrementMS int64 `json:"increment_ms"`
	WhiteMS     int64 `json:"white_ms"`
	BlackMS     int64 `json:"black_ms"`
	Running     any   `json:"running"`
}

// correspondenceJSON is the time of a correspondence game: its days per
// move, and while a turn runs, when it ends, the time left then, and whose
// it is.
type correspondenceJSON struct {
	Days     int   `json:"days"`
	Deadline any   `json:"deadline"`
	LeftMS   int64 `json:"left_ms"`
	Running  any   `json:"running"`
}

// formatDeadline writes a deadline in RFC 3339 to the millisecond, as the
// store keeps it, so that it reads the same before and after a restart.
func formatDeadline(t time.Time) string {
	return t.UTC().Truncate(time.Millisecond).Format("2006-01-02T15:04:05.000Z07:00")
}

// stateJSON is a game as a viewer sees it: its position as every view
// draws one (package view), and the game's own fields: its moves, what
// may be played, its outcome, its players, clocks and offers.
type stateJSON struct {
	view.Board
	ID        string                `json:"id"`
	Mode      string                `json:"mode"`
	Level     int                   `json:"level"`
	Moves     []string              `json:"moves"`
	Legal     []string              `json:"legal"`
	Shadow    int                   `json:"shadow"`
	Result    string                `json:"result"`
	Reason    string                `json:"reason"`
	Over      bool                  `json:"over"`
	Abortable bool                  `json:"abortable"`
	Analysis  bool                  `json:"analysis"`
	Invite    any                   `json:"invite"`
	Invited   bool                  `json:"invited"`
	Players   map[string]playerJSON `json:"players"`
	You       any                   `json:"you"`
	DrawOffer any                   `json:"drawOffer"`
	Takeback  any                   `json:"takeback"`
	Clock     *clockJSON            `json:"clock"`
	// Correspondence is set for a game of days per move, which has no
	// Clock.
	Correspondence *correspondenceJSON `json:"correspondence"`
	Thinking       bool                `json:"thinking"`
	// Idle says, in an engine game that goes on, how long it waits on its
	// person before it is ended (EngineGameLimits), and in a friend game
	// waiting for its second player, how long before it is aborted
	// (InvitationLimits); nil in other games.
	Idle    *idleJSON    `json:"idle"`
	Rated   bool         `json:"rated"`
	Rematch *rematchJSON `json:"rematch"`
	// Vacation is until when each player on vacation is away, by colour,
	// in a correspondence game that goes on; null for none.
	Vacation map[string]string `json:"vacation"`
	Version  int64             `json:"version"`
}

// idleJSON is how long an engine game waits on its person: an abort when
// both players have not moved AbortMS after its creation, a loss as
// abandoned when the person leaves his turn AbandonMS (0 in a game on a
// clock, which the flag ends).
type idleJSON struct {
	AbortMS   int64 `json:"abort_ms"`
	AbandonMS int64 `json:"abandon_ms"`
}

// boardJSON is a game's position before one of its moves (GET
// /api/games/{id}/at/{ply}): the board as every view draws it, the ply
// and the move that led there, or null.
type boardJSON struct {
	view.Board
	Ply      int `json:"ply"`
	LastMove any `json:"lastMove"`
}

// state is the game v as the viewer sees it.
func (s *Server) state(v round.View, who viewer) stateJSON {
	r := v.Round
	g := r.Game
	p := g.Rules().Position()
	st := stateJSON{
		Board: view.BoardOf(&p), ID: r.ID, Mode: r.Mode.String(), Level: r.Level,
		Moves: []string{}, Legal: []string{},
		Result: g.Ending().Result.String(), Reason: r.Reason(),
		Over: g.Over(), Abortable: r.Mode != round.Analysis && g.CanAbort(), Analysis: r.AnalysisOpen(),
		DrawOffer: offerJSON(g.DrawOffer()), Takeback: offerJSON(g.TakeBackRequest()),
		Thinking: v.Thinking, Version: r.Version,
		Players: map[string]playerJSON{},
	}
	if c, ok := r.SeatOf(who.player()); ok {
		st.You = colorNames[c]
	}
	if secret := invitation(r, who.cookie); secret != "" {
		st.Invite = secret
	}
	st.Invited = r.Invite != "" && !g.Over()
	for _, m := range g.Rules().Moves() {
		st.Moves = append(st.Moves, m.Text(p.Geometry()))
	}
	if !g.Over() && r.Mode != round.Analysis {
		st.Legal = notation.SortedMoves(p.Geometry(), g.Rules().Legal())
		st.Shadow = p.EntrySize()
	}
	for c, seat := range r.Seats {
		st.Players[colorNames[c]] = playerJSON{Name: seat.Name, Engine: seat.Engine, Joined: seat.Joined(), Account: seat.User != 0, Guest: seat.Guest(), Bot: seat.Bot}
	}
	if clock := g.Control(rules.White); clock.Time > 0 {
		st.Clock = &clockJSON{
			InitialMS: clock.Time.Milliseconds(), IncrementMS: clock.Increment.Milliseconds(),
			WhiteMS: max(g.Left(rules.White).Milliseconds(), 0), BlackMS: max(g.Left(rules.Black).Milliseconds(), 0),
		}
		if side, running := g.Running(); running {
			st.Clock.Running = colorNames[side]
		}
	}
	if c := g.Control(rules.White); c.Correspondence() {
		st.Correspondence = &correspondenceJSON{Days: c.Days}
		if deadline, ok := g.Deadline(); ok {
			st.Correspondence.Deadline = formatDeadline(deadline)
			st.Correspondence.LeftMS = max(deadline.Sub(s.now()).Milliseconds(), 0)
			st.Correspondence.Running = colorNames[g.Side()]
		}
	}
	if r.Mode == round.Engine && !g.Over() {
		lim := s.cfg.EngineGames
		st.Idle = &idleJSON{AbortMS: lim.Unstarted.Milliseconds()}
		if g.Control(rules.White).None() {
			st.Idle.AbandonMS = lim.Idle.Milliseconds()
		}
	}
	if idle := s.invitationIdle(r); idle != nil {
		st.Idle = idle
	}
	s.rateState(v, &st)
	st.Rematch = s.rematchState(v)
	st.Vacation = s.vacationState(v)
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

// timeReq is the time control a request asks a new game to have: a
// clock, days per move (a correspondence game), or neither. Every way of
// making a game takes it the same way (docs/api.md).
type timeReq struct {
	Clock *struct {
		Initial   float64 `json:"initial"`
		Increment float64 `json:"increment"`
	} `json:"clock"`
	Days int `json:"days"`
}

// control returns the time control asked for, or the error that says
// what is wrong with it.
func (t timeReq) control() (game.Control, error) {
	switch c := t.Clock; {
	case c != nil && t.Days != 0:
		return game.Control{}, invalid("give a clock or days per move, not both")
	case t.Days != 0:
		ctl, err := game.DaysPerMove(t.Days)
		if err != nil {
			return game.Control{}, invalid("days per move must be one of %v", game.CorrespondenceDays)
		}
		return ctl, nil
	case c != nil:
		if c.Initial < 10 || c.Initial > 24*3600 || c.Increment < 0 || c.Increment > 600 {
			return game.Control{}, invalid("clock: initial time from 10 s to 24 h, increment from 0 to 600 s")
		}
		return game.Control{
			Time:      time.Duration(c.Initial * float64(time.Second)),
			Increment: time.Duration(c.Increment * float64(time.Second)),
		}, nil
	}
	return game.Control{}, nil
}

type createReq struct {
	Mode  string `json:"mode"`
	Size  int    `json:"size"`
	Level int    `json:"level"`
	Color string `json:"color"`
	Name  string `json:"name"`
	timeReq
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
		return 0, nil, invalid("size must be 9 or 7")
	}
	m, err := round.ParseMode(req.Mode)
	if err != nil || m == round.Analysis {
		return 0, nil, invalid(`mode must be "engine" or "friend"`)
	}
	if m == round.Engine {
		if req.Level == 0 {
			req.Level = 5
		}
		if req.Level < 1 || req.Level > player.MaxLevel {
			return 0, nil, invalid("level must be from 1 to %d", player.MaxLevel)
		}
	} else {
		req.Level = 0
	}
	var me rules.Color
	switch req.Color {
	case "white", "":
		me = rules.White
	case "black":
		me = rules.Black
	case "random":
		var b [1]byte
		rand.Read(b[:])
		me = rules.Color(b[0] & 1)
	default:
		return 0, nil, invalid(`color must be "white", "black" or "random"`)
	}
	control, err := req.control()
	if err != nil {
		return 0, nil, err
	}
	if control.Correspondence() && m != round.Friend {
		return 0, nil, invalid("days per move are for games between people")
	}
	rd := s.rounds.New(newID(), m, geo, control)
	rd.Level = req.Level
	if rd.Seats[me], err = s.seat(r, req.Name); err != nil {
		return 0, nil, err
	}
	switch m {
	case round.Engine:
		rd.Seats[me.Other()] = round.Seat{Name: fmt.Sprintf("Emergo level %d", req.Level), Engine: true}
		rd.Game.Start() // both players are there
		// The bound on a guest's engine games counts them by it.
		rd.Client = clientKey(r.Request)
	case round.Friend:
		rd.Invite = hashToken(inviteSecret(r.cookie, rd.ID))
		// The bound on a guest's invitations counts them by it.
		rd.Client = clientKey(r.Request)
	}
	return s.create(r, rd)
}

// create stores a new game, an engine game or an invitation within its
// bounds (createEngineGame, createInvitation), and answers with its state, starting the engine if
// it moves first.
func (s *Server) create(r *request, rd *round.Round) (int, any, error) {
	if rd.Mode == round.Engine {
		if err := s.createEngineGame(r, rd); err != nil {
			return 0, nil, err
		}
	} else if rd.WaitsForFriend() {
		if err := s.createInvitation(r, rd); err != nil {
			return 0, nil, err
		}
	} else if err := s.st.Create(r.Context(), rd.Stored(rd.Created)); err != nil {
		s.metrics.storeErrors.Add(1)
		s.log.Error("create game", "game", rd.ID, "err", err)
		return 0, nil, errStorage
	}
	v, err := s.rounds.Begin(r.Context(), rd.ID)
	if err != nil {
		return 0, nil, err
	}
	s.metrics.gamesCreated.Add(1)
	s.log.Info("game created", "game", rd.ID, "mode", rd.Mode, "size", rd.Game.Rules().Geometry().N, "level", rd.Level)
	return http.StatusCreated, s.state(v, r.viewer()), nil
}

// recentIdle is how long a game going on with no deadline (untimed, or
// its clock not started yet) stays in the recent games unplayed: longer,
// its players have left it, and "playing" would not be true.
const recentIdle = time.Hour

func (s *Server) handleList(r *request) (int, any, error) {
	games, err := s.st.Recent(r.Context(), 30, s.now().Add(-recentIdle))
	if err != nil {
		s.log.Error("list games", "err", err)
		return 0, nil, errStorage
	}
	type item struct {
		ID    string `json:"id"`
		Size  int    `json:"size"`
		Mode  string `json:"mode"`
		White string `json:"white"`
		Black string `json:"black"`
		// WhiteGuest and BlackGuest say that the seat is a guest's,
		// WhiteBot and BlackBot a bot's.
		WhiteGuest bool   `json:"whiteGuest"`
		BlackGuest bool   `json:"blackGuest"`
		WhiteBot   bool   `json:"whiteBot"`
		BlackBot   bool   `json:"blackBot"`
		Plies      int    `json:"plies"`
		Result     string `json:"result"`
		Reason     string `json:"reason"`
		Updated    string `json:"updated"`
	}
	out := []item{}
	guest := func(g store.Summary, c int) bool { return g.Tokens[c] != "" && g.Users[c] == 0 }
	for _, g := range games {
		out = append(out, item{g.ID, g.Size, g.Mode, g.Names[0], g.Names[1], guest(g, 0), guest(g, 1), g.Bots[0], g.Bots[1], g.Plies, g.Result, g.Reason, g.Updated.Format(time.RFC3339)})
	}
	return http.StatusOK, map[string]any{"games": out}, nil
}

// answered answers a request with the game v after an action, or with
// the action's error.
func (s *Server) answered(r *request, v round.View, err error) (int, any, error) {
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, s.state(v, r.viewer()), nil
}

func (s *Server) handleGet(r *request) (int, any, error) {
	v, err := s.rounds.Look(r.Context(), r.PathValue("id"))
	return s.answered(r, v, err)
}

func (s *Server) handleAt(r *request) (int, any, error) {
	v, err := s.rounds.Look(r.Context(), r.PathValue("id"))
	if err != nil {
		return 0, nil, err
	}
	board := v.Round.Game.Rules()
	text := r.PathValue("ply")
	ply, err := strconv.Atoi(text)
	if err != nil || strings.TrimLeft(text, "0123456789") != "" || ply > board.Len() {
		return 0, nil, invalid("ply must be from 0 to %d", board.Len())
	}
	p := board.PositionAt(ply)
	out := boardJSON{Board: view.BoardOf(&p), Ply: ply}
	if ply > 0 {
		out.LastMove = board.Moves()[ply-1].Text(board.Geometry())
	}
	return http.StatusOK, out, nil
}

func (s *Server) handleJoin(r *request) (int, any, error) {
	var req struct {
		Name   string `json:"name"`
		Invite string `json:"invite"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	me, err := s.seat(r, req.Name)
	if err != nil {
		return 0, nil, err
	}
	// The round compares hashes: the store keeps no secret.
	v, err := s.rounds.Join(r.Context(), r.PathValue("id"), me, hashToken(req.Invite))
	return s.answered(r, v, err)
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
		return 0, nil, failure(http.StatusBadRequest, codeMalformed, `malformed request: "ply" (the number of moves you have seen) is required`)
	}
	v, err := s.rounds.Move(r.Context(), r.PathValue("id"), r.viewer().player(), *req.Ply, req.Move)
	return s.answered(r, v, err)
}

func (s *Server) handleResign(r *request) (int, any, error) {
	v, err := s.rounds.Resign(r.Context(), r.PathValue("id"), r.viewer().player())
	return s.answered(r, v, err)
}

func (s *Server) handleAbort(r *request) (int, any, error) {
	v, err := s.rounds.Abort(r.Context(), r.PathValue("id"), r.viewer().player())
	return s.answered(r, v, err)
}

// offerAction reads an offer's action (draw or take-back): the words of
// the request are the answers' (offer or request, accept, decline).
func offerAction(r *request, words [3]string) (round.Answer, error) {
	var req struct {
		Action string `json:"action"`
	}
	if err := decode(r, &req); err != nil {
		return 0, err
	}
	a := slices.Index(words[:], req.Action)
	if a < 0 {
		return 0, invalid("action must be %q, %q or %q", words[0], words[1], words[2])
	}
	return round.Answer(a), nil
}

// handleDraw carries out a draw action. A draw offered to the engine is
// weighed by a search on the queue of engine work (engineAcceptsDraw),
// which the round waits for without holding the game.
func (s *Server) handleDraw(r *request) (int, any, error) {
	a, err := offerAction(r, [3]string{round.Propose: "offer", round.Accept: "accept", round.Decline: "decline"})
	if err != nil {
		return 0, nil, err
	}
	v, err := s.rounds.Draw(r.Context(), r.PathValue("id"), r.viewer().player(), a, s.engineAcceptsDraw)
	return s.answered(r, v, err)
}

func (s *Server) handleTakeback(r *request) (int, any, error) {
	a, err := offerAction(r, [3]string{round.Propose: "request", round.Accept: "accept", round.Decline: "decline"})
	if err != nil {
		return 0, nil, err
	}
	v, err := s.rounds.TakeBack(r.Context(), r.PathValue("id"), r.viewer().player(), a)
	return s.answered(r, v, err)
}

// drawAnswerWait bounds the wait for the engine's answer to a draw offer:
// an offer it cannot weigh in that time, the queue being long, it
// declines.
const drawAnswerWait = 30 * time.Second

// engineAcceptsDraw weighs the draw offer o: the engine takes a draw when
// a short search says it stands worse by more than a man
// (player.AcceptsDraw). The search is a job as urgent as a move.
func (s *Server) engineAcceptsDraw(ctx context.Context, o *round.DrawOffer) bool {
	ctx, cancel := context.WithTimeout(ctx, drawAnswerWait)
	defer cancel()
	j := o.Job
	res, err := s.search(ctx, &j, o.Board, player.DrawOfferDepth)
	if err != nil {
		return false
	}
	score := res.Score
	if p := o.Board.Position(); p.Side() == o.By {
		score = -score
	}
	return player.AcceptsDraw(score)
}
