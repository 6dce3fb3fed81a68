package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"emergo/account"
	"emergo/chat"
	"emergo/lobby"
	"emergo/notation"
	"emergo/round"
	"emergo/rules"
)

// The bot API, in the shape of lichess's so that engine authors find it
// familiar: an account's event stream (its challenges and the starts and
// ends of its games), a game's stream (the game whole, then its state
// after every change), and the actions of a bot in its games. Both
// streams are NDJSON, one JSON object a line, with an empty line every
// Config.StreamKeepAlive while nothing happens, and count on the
// client's bound of event streams (Config.MaxStreams) as the pages'
// streams do. A stream opened again starts over: the event stream with
// the games that go on and the challenges pending, the game stream with
// gameFull. It is a thin adapter: the challenges are the lobby's, every
// action goes through the round, as the pages' do.

// watchedGames bounds the games an event stream watches for their end:
// the games of the account that go on, the latest first.
const watchedGames = 100

// ndjson writes one JSON object a line to a streamed answer.
type ndjson struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func startNDJSON(w http.ResponseWriter) *ndjson {
	h := w.Header()
	h.Set("Content-Type", "application/x-ndjson")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	return &ndjson{w: w, rc: http.NewResponseController(w)}
}

func (n *ndjson) line(b []byte) bool {
	_, err := n.w.Write(append(b, '\n'))
	return err == nil && n.rc.Flush() == nil
}

// send writes v as a line, and reports whether the client is still
// there.
func (n *ndjson) send(v any) bool {
	data, _ := json.Marshal(v)
	return n.line(data)
}

// ping writes the empty line that keeps a quiet stream open.
func (n *ndjson) ping() bool { return n.line(nil) }

// openNDJSON checks that the request is an account's and counts its
// stream on the client's bound, or answers why not; done uncounts it.
func (s *Server) openNDJSON(w http.ResponseWriter, r *http.Request) (done func(), ok bool) {
	if userOf(r.Context()) == nil {
		writeError(w, errLogInFirst)
		return nil, false
	}
	done, ok = s.openStream(clientKey(r))
	if !ok {
		writeError(w, failure(http.StatusTooManyRequests, codeTooManyLive, "too many live connections from your address"))
	}
	return done, ok
}

// eventJSON is a line of the event stream.
type eventJSON struct {
	Type      string         `json:"type"`
	Challenge *challengeJSON `json:"challenge,omitempty"`
	Game      *gameEventJSON `json:"game,omitempty"`
}

// gameEventJSON is a game as the event stream announces it: when it
// starts, the account's colour and the settings; when it ends, how.
type gameEventJSON struct {
	ID       string     `json:"id"`
	Color    string     `json:"color"`
	Size     int        `json:"size"`
	Rated    bool       `json:"rated"`
	Clock    *clockSecs `json:"clock"`
	Days     int        `json:"days"`
	Opponent playerJSON `json:"opponent"`
	Result   string     `json:"result,omitempty"`
	Reason   string     `json:"reason,omitempty"`
}

// eventStream is one account's event stream: the challenges and games it
// has told of.
type eventStream struct {
	s     *Server
	out   *ndjson
	user  int64
	party lobby.Party
	keep  ownList
	// told is the status each challenge had when last told of.
	told  map[string]lobby.Status
	games map[string]*watchedGame
	wake  chan struct{} // the watched games' changes
}

type watchedGame struct {
	lv     *round.Live
	cancel func()
}

// handleEventStream is GET /api/stream/event: the viewer's challenges
// (challenge, challengeCanceled, challengeDeclined) and games
// (gameStart, gameFinish), as NDJSON.
func (s *Server) handleEventStream(w http.ResponseWriter, r *http.Request) {
	if s.lobby == nil {
		writeError(w, errNoLobby)
		return
	}
	done, ok := s.openNDJSON(w, r)
	if !ok {
		return
	}
	defer done()
	u := userOf(r.Context())
	es := &eventStream{s: s, user: u.ID, party: partyOf("", u), told: map[string]lobby.Status{},
		games: map[string]*watchedGame{}, wake: make(chan struct{}, 1)}
	defer es.close()
	lobbyWake := make(chan struct{}, 1)
	defer s.hub.subscribe(lobbyWake)()
	es.out = startNDJSON(w)
	ctx := r.Context()
	if !es.readGames(ctx) || !es.readChallenges(ctx, true) {
		return
	}
	ping := time.NewTicker(s.cfg.StreamKeepAlive)
	defer ping.Stop()
	fresh := time.NewTicker(lobbyFresh)
	defer fresh.Stop()
	for {
		ok := true
		select {
		case <-lobbyWake:
			ok = es.readChallenges(ctx, false)
		case <-es.wake:
			ok = es.checkGames()
		case <-fresh.C:
			ok = es.readGames(ctx) && es.readChallenges(ctx, false)
		case <-ping.C:
			ok = es.out.ping()
		case <-ctx.Done():
			return
		case <-s.draining.Done():
			return
		}
		if !ok {
			return
		}
	}
}

func (es *eventStream) close() {
	for _, g := range es.games {
		g.cancel()
	}
}

// readGames reads the account's games that go on and tells of those it
// has not told of yet. A failure to read is logged, and the next read
// tries again.
func (es *eventStream) readGames(ctx context.Context) bool {
	list, err := es.s.st.Seated(ctx, "", es.user, watchedGames)
	if err != nil {
		es.s.log.Error("event stream: games", "err", err)
		return true
	}
	for _, g := range list {
		if !g.Ongoing() {
			break // the ongoing come first
		}
		if !es.watch(ctx, g.ID, false) {
			return false
		}
	}
	return true
}

// watch tells of the start of the game id, if not told yet, and watches
// it for its end; a game that has ended is not told of when old says
// that it may be an old one (the stream's first read).
func (es *eventStream) watch(ctx context.Context, id string, old bool) bool {
	if _, ok := es.games[id]; ok || len(es.games) >= watchedGames {
		return true
	}
	lv, err := es.s.rounds.Load(ctx, id)
	if err != nil {
		es.s.log.Error("event stream: game", "game", id, "err", err)
		return true
	}
	cancel := lv.Subscribe(es.wake)
	v := lv.View()
	if old && v.Round.Game.Over() {
		cancel()
		return true
	}
	es.games[id] = &watchedGame{lv: lv, cancel: cancel}
	if !es.out.send(eventJSON{Type: "gameStart", Game: es.gameEvent(v)}) {
		return false
	}
	return es.checkGames()
}

// gameEvent is the game of v as the event stream tells of it.
func (es *eventStream) gameEvent(v round.View) *gameEventJSON {
	r := v.Round
	st := es.s.state(v, viewer{user: es.user})
	out := &gameEventJSON{ID: r.ID, Size: r.Game.Rules().Geometry().N, Rated: r.Rated,
		Days: r.Game.Control(rules.White).Days, Result: st.Result, Reason: st.Reason}
	if st.Clock != nil {
		out.Clock = &clockSecs{float64(st.Clock.InitialMS) / 1000, float64(st.Clock.IncrementMS) / 1000}
	}
	if c, ok := r.SeatOf(round.Player{User: es.user}); ok {
		out.Color = colorNames[c]
		out.Opponent = st.Players[colorNames[c.Other()]]
	}
	if !r.Game.Over() {
		out.Result, out.Reason = "", ""
	}
	return out
}

// checkGames tells of the end of every watched game that has ended, and
// stops watching it.
func (es *eventStream) checkGames() bool {
	for id, g := range es.games {
		v := g.lv.View()
		if !v.Round.Game.Over() {
			continue
		}
		g.cancel()
		delete(es.games, id)
		if !es.out.send(eventJSON{Type: "gameFinish", Game: es.gameEvent(v)}) {
			return false
		}
	}
	return true
}

// readChallenges reads the account's challenges and tells of each new
// one pending, and of each it told of that was declined or withdrawn;
// an accepted one starts a game. At the first read only the pending are
// told of.
func (es *eventStream) readChallenges(ctx context.Context, first bool) bool {
	now := es.s.now()
	list, err := es.s.challengesOf(ctx, es.party, now, &es.keep)
	if err != nil {
		es.s.log.Error("event stream: challenges", "err", err)
		return true
	}
	for i := range list {
		c := &list[i]
		told, known := es.told[c.ID]
		if known && told == c.Status {
			continue
		}
		es.told[c.ID] = c.Status
		var kind string
		switch {
		case c.Status == lobby.Pending && c.Live(now):
			kind = "challenge"
		case c.Status == lobby.Accepted && c.Game != "":
			if !es.watch(ctx, c.Game, first) {
				return false
			}
		case first || !known:
		case c.Status == lobby.Declined:
			kind = "challengeDeclined"
		case c.Status == lobby.Cancelled:
			kind = "challengeCanceled"
		}
		if kind == "" {
			continue
		}
		v := challengeOf(c, es.party, nil, now)
		if !es.out.send(eventJSON{Type: kind, Challenge: &v}) {
			return false
		}
	}
	return true
}

// gameFullJSON is the first line of a game stream: the game's settings,
// its players and its state.
type gameFullJSON struct {
	Type       string        `json:"type"`
	ID         string        `json:"id"`
	Size       int           `json:"size"`
	Rated      bool          `json:"rated"`
	Clock      *clockSecs    `json:"clock"`
	Days       int           `json:"days"`
	White      playerJSON    `json:"white"`
	Black      playerJSON    `json:"black"`
	InitialFen string        `json:"initialFen"`
	State      gameStateJSON `json:"state"`
}

// gameStateJSON is a game as it stands: its moves separated by spaces,
// the time left of each side and the increments in milliseconds, whether
// it goes on ("started") or how it ended, and the draw offered.
type gameStateJSON struct {
	Type   string `json:"type"`
	Moves  string `json:"moves"`
	WTime  int64  `json:"wtime"`
	BTime  int64  `json:"btime"`
	WInc   int64  `json:"winc"`
	BInc   int64  `json:"binc"`
	Status string `json:"status"`
	Result string `json:"result"`
	Reason string `json:"reason,omitempty"`
	Winner string `json:"winner,omitempty"`
	WDraw  bool   `json:"wdraw"`
	BDraw  bool   `json:"bdraw"`
}

// gameState is st as a game stream says it.
func gameState(st *stateJSON) gameStateJSON {
	out := gameStateJSON{Type: "gameState", Moves: strings.Join(st.Moves, " "), Status: "started", Result: st.Result, Reason: st.Reason}
	if c := st.Clock; c != nil {
		out.WTime, out.BTime, out.WInc, out.BInc = c.WhiteMS, c.BlackMS, c.IncrementMS, c.IncrementMS
	}
	if c := st.Correspondence; c != nil && c.Running != nil {
		if c.Running == colorNames[rules.White] {
			out.WTime = c.LeftMS
		} else {
			out.BTime = c.LeftMS
		}
	}
	if st.Over {
		out.Status = st.Reason
		switch st.Result {
		case "1-0":
			out.Winner = colorNames[rules.White]
		case "0-1":
			out.Winner = colorNames[rules.Black]
		}
	}
	out.WDraw = st.DrawOffer == colorNames[rules.White]
	out.BDraw = st.DrawOffer == colorNames[rules.Black]
	return out
}

// handleGameStream is GET /api/bot/game/stream/{id}: gameFull, then
// gameState after every change of the game, until it ends.
func (s *Server) handleGameStream(w http.ResponseWriter, r *http.Request) {
	done, ok := s.openNDJSON(w, r)
	if !ok {
		return
	}
	defer done()
	if err := s.botCheck(r.Context()); err != nil {
		writeError(w, err)
		return
	}
	lv, err := s.rounds.Load(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	wake := make(chan struct{}, 1)
	defer lv.Subscribe(wake)()
	who := viewer{user: userOf(r.Context()).ID}
	v := lv.View()
	st := s.state(v, who)
	rd := v.Round
	full := gameFullJSON{Type: "gameFull", ID: rd.ID, Size: rd.Game.Rules().Geometry().N, Rated: rd.Rated,
		Days: rd.Game.Control(rules.White).Days, White: st.Players[colorNames[rules.White]], Black: st.Players[colorNames[rules.Black]],
		InitialFen: "startpos", State: gameState(&st)}
	if start := rd.Game.Rules().Start(); start != rules.NewPosition(start.Geometry()) {
		full.InitialFen = notation.FormatPosition(&start)
	}
	if st.Clock != nil {
		full.Clock = &clockSecs{float64(st.Clock.InitialMS) / 1000, float64(st.Clock.IncrementMS) / 1000}
	}
	out := startNDJSON(w)
	if !out.send(full) || st.Over {
		return
	}
	// The chat's lines written from now on that the bot reads, as
	// chatLine: lichess's bots read them there.
	var lines <-chan chat.Line
	cs, closeChat := s.openChat(r.Context(), lv, who)
	defer closeChat()
	if cs != nil {
		lines = cs.lines
	}
	version := rd.Version
	ping := time.NewTicker(s.cfg.StreamKeepAlive)
	defer ping.Stop()
	for {
		ok := true
		select {
		case <-wake:
			v := lv.View()
			if v.Round.Version == version {
				continue
			}
			version = v.Round.Version
			st := s.state(v, who)
			if !out.send(gameState(&st)) || st.Over {
				return
			}
		case l := <-lines:
			if cs.reader().Sees(&l) {
				ok = out.send(chatLineOf(&l))
			}
		case <-ping.C:
			ok = out.ping()
		case <-r.Context().Done():
			return
		case <-s.draining.Done():
			return
		}
		if !ok {
			return
		}
	}
}

// chatLineJSON is a line of a game's chat in a bot's game stream, as
// lichess writes it: the room "player" or "spectator".
type chatLineJSON struct {
	Type     string `json:"type"`
	Room     string `json:"room"`
	Username string `json:"username"`
	Text     string `json:"text"`
}

func chatLineOf(l *chat.Line) chatLineJSON {
	room := "player"
	if l.Room == chat.Spectators {
		room = "spectator"
	}
	return chatLineJSON{Type: "chatLine", Room: room, Username: l.Name, Text: l.Text}
}

var errNotBot = failure(http.StatusForbidden, codeNotBot, "the bot API is for bot accounts: upgrade the account first (POST /api/bot/account/upgrade)")

// botCheck refuses the bot API to a request that is not a bot account's
// (403 bot.not_a_bot) or whose token lacks bot:play.
func (s *Server) botCheck(ctx context.Context) error {
	u := userOf(ctx)
	switch {
	case u == nil:
		return errLogInFirst
	case !u.Bot:
		return errNotBot
	}
	if t := tokenOf(ctx); t != nil && !t.Has(account.ScopeBotPlay) {
		return &apiError{http.StatusForbidden, codeTokenScope, "this API token lacks the scope " + account.ScopeBotPlay, map[string]any{"scope": account.ScopeBotPlay}}
	}
	return nil
}

// botAction adapts an action of a bot in its game to the API: the bot
// checked (botCheck), the round's answer, and {"ok": true}.
func (s *Server) botAction(act func(r *request, who round.Player) error) func(*request) (int, any, error) {
	return func(r *request) (int, any, error) {
		if err := s.botCheck(r.Context()); err != nil {
			return 0, nil, err
		}
		if err := act(r, round.Player{User: r.user.ID}); err != nil {
			return 0, nil, err
		}
		return http.StatusOK, map[string]bool{"ok": true}, nil
	}
}

// botMove plays the move of the path in the game as it stands: a bot
// moves only on its turn, when the game waits for it.
func (s *Server) botMove(r *request, who round.Player) error {
	id := r.PathValue("id")
	v, err := s.rounds.Look(r.Context(), id)
	if err != nil {
		return err
	}
	_, err = s.rounds.Move(r.Context(), id, who, v.Round.Game.Len(), r.PathValue("move"))
	return err
}

func (s *Server) botResign(r *request, who round.Player) error {
	_, err := s.rounds.Resign(r.Context(), r.PathValue("id"), who)
	return err
}

func (s *Server) botAbort(r *request, who round.Player) error {
	_, err := s.rounds.Abort(r.Context(), r.PathValue("id"), who)
	return err
}

// botDraw offers or accepts a draw (yes) or declines the one offered
// (no).
func (s *Server) botDraw(r *request, who round.Player) error {
	id := r.PathValue("id")
	var a round.Answer
	switch r.PathValue("answer") {
	case "yes":
		v, err := s.rounds.Look(r.Context(), id)
		if err != nil {
			return err
		}
		a = round.Propose
		if o := v.Round.Game.DrawOffer(); o.Open {
			if me, ok := v.Round.SeatOf(who); ok && o.By != me {
				a = round.Accept
			}
		}
	case "no":
		a = round.Decline
	default:
		return failure(http.StatusNotFound, codeNoEndpoint, "no such API endpoint: draw/yes or draw/no")
	}
	_, err := s.rounds.Draw(r.Context(), id, who, a, s.engineAcceptsDraw)
	return err
}
