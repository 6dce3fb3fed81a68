package server

import (
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"emergo/account"
	"emergo/game"
	"emergo/lobby"
	"emergo/player"
	"emergo/rating"
	"emergo/ratings"
	"emergo/rules"
)

// The lobby's list: at most lobbyLimit challenges, those answered within
// answeredShown among them (so that a challenger's page learns that his
// challenge was accepted, and where to go), read again from the store
// after every change and at least every lobbyFresh (so that expired
// challenges leave, and those of other servers on the same database
// come even if the feed lost their announcement).
const (
	lobbyLimit    = 200
	answeredShown = 10 * time.Minute
	lobbyFresh    = 30 * time.Second
)

var (
	errNoLobby   = failure(http.StatusNotImplemented, codeNoLobby, "this server has no lobby")
	errNoRematch = failure(http.StatusConflict, codeNoRematch, "a rematch is for a finished game between people")
)

// lobbyHub wakes the viewers of the lobby when a challenge changes, and
// keeps the list they are shown, read once for all of them.
type lobbyHub struct {
	mu    sync.Mutex
	subs  map[chan struct{}]struct{}
	list  []lobby.Challenge
	rates map[int64][]ratings.Entry // the challengers' ratings
	at    time.Time                 // when list was read; zero: to read again
}

// wake marks the list to be read again and tells every viewer.
func (h *lobbyHub) wake() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.at = time.Time{}
	for ch := range h.subs {
		select {
		case ch <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
}

// challenges returns the lobby's list and the challengers' ratings,
// reading them again if they changed or are older than lobbyFresh.
func (s *Server) challenges(ctx context.Context) ([]lobby.Challenge, map[int64][]ratings.Entry, error) {
	h := &s.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	now := s.now()
	if !h.at.IsZero() && now.Sub(h.at) < lobbyFresh && !now.Before(h.at) {
		return h.list, h.rates, nil
	}
	list, err := s.lobby.Challenges(ctx, now, now.Add(-answeredShown), lobbyLimit)
	if err != nil {
		return nil, nil, err
	}
	rates := map[int64][]ratings.Entry{}
	for _, c := range list {
		if _, ok := rates[c.From.User]; ok || c.From.User == 0 || s.rated == nil {
			continue
		}
		entries, err := s.rated.Ratings(ctx, c.From.User)
		if err != nil {
			return nil, nil, err
		}
		rates[c.From.User] = entries
	}
	h.list, h.rates, h.at = list, rates, now
	return list, rates, nil
}

// party is the viewer as a side of a challenge.
func (r *request) party() lobby.Party { return partyOf(r.token, r.user) }

func partyOf(token string, u *account.User) lobby.Party {
	p := lobby.Party{Token: token}
	if u != nil {
		p.User, p.Name = u.ID, u.Name
	}
	return p
}

// seatParty is the holder of a seat as a side of a challenge.
func seatParty(st seat) lobby.Party {
	return lobby.Party{User: st.user, Token: st.token, Name: st.name}
}

// lobbyJSON is the lobby as a viewer sees it.
type lobbyJSON struct {
	Me         *userJSON       `json:"me"`
	Challenges []challengeJSON `json:"challenges"`
}

// clockSecs is a clock in seconds, as requests give it.
type clockSecs struct {
	Initial   float64 `json:"initial"`
	Increment float64 `json:"increment"`
}

type challengeJSON struct {
	ID   string `json:"id"`
	From string `json:"from"`
	// Account says that From is an account's username (a guest's
	// rematch is not).
	Account bool   `json:"account"`
	Rating  string `json:"rating"` // the challenger's in the pool of the game, "1500?"
	// To is the player a direct challenge or a rematch is for, null for
	// an open one.
	To      *string    `json:"to"`
	Size    int        `json:"size"`
	Clock   *clockSecs `json:"clock"`
	Days    int        `json:"days"`
	Rated   bool       `json:"rated"`
	Color   string     `json:"color"` // the challenger's
	Status  string     `json:"status"`
	Game    *string    `json:"game"`    // once accepted
	Rematch *string    `json:"rematch"` // the game it is a rematch of
	Mine    bool       `json:"mine"`    // the viewer made it
	ForYou  bool       `json:"forYou"`  // it was made to the viewer
	Expires string     `json:"expires"`
}

// challengeOf is c as the viewer p sees it, with the challenger's
// ratings entries.
func challengeOf(c *lobby.Challenge, p lobby.Party, entries []ratings.Entry, now time.Time) challengeJSON {
	out := challengeJSON{
		ID: c.ID, From: c.From.Name, Account: c.From.User != 0, Size: c.Size, Days: c.Control.Days, Rated: c.Rated,
		Color: c.Color.String(), Status: string(c.Status), Mine: c.From.Is(p), ForYou: !c.Open() && c.To.Is(p),
		Expires: c.Expires.UTC().Format(time.RFC3339),
	}
	if speed, ok := ratings.SpeedOf(c.Control.Time, c.Control.Days); ok && c.From.User != 0 {
		out.Rating = ratings.Of(entries, ratings.Pool{Size: c.Size, Speed: speed}).At(now).String()
	}
	if c.Control.Time > 0 {
		out.Clock = &clockSecs{c.Control.Time.Seconds(), c.Control.Increment.Seconds()}
	}
	if !c.Open() {
		out.To = &c.To.Name
	}
	if c.Game != "" {
		out.Game = &c.Game
	}
	if c.Rematch != "" {
		out.Rematch = &c.Rematch
	}
	if c.Status == lobby.Pending && !c.Live(now) {
		out.Status = "expired"
	}
	return out
}

// lobbyView is the lobby as p, logged in as u (nil for a guest), sees it:
// the challenges pending that concern p (open to all, by p, to p), and
// those answered lately that p made or received.
func (s *Server) lobbyView(ctx context.Context, p lobby.Party, u *account.User) (lobbyJSON, error) {
	list, rates, err := s.challenges(ctx)
	if err != nil {
		return lobbyJSON{}, err
	}
	now := s.now()
	out := lobbyJSON{Me: me(u), Challenges: []challengeJSON{}}
	for i := range list {
		c := &list[i]
		if (c.Live(now) && c.Concerns(p)) || (c.Status != lobby.Pending && (c.From.Is(p) || c.To.Is(p))) {
			out.Challenges = append(out.Challenges, challengeOf(c, p, rates[c.From.User], now))
		}
	}
	return out, nil
}

func (s *Server) handleLobby(r *request) (int, any, error) {
	if s.lobby == nil {
		return 0, nil, errNoLobby
	}
	view, err := s.lobbyView(r.Context(), r.party(), r.user)
	if err != nil {
		return 0, nil, s.lobbyError(err)
	}
	return http.StatusOK, view, nil
}

// handleLobbyEvents streams the lobby as the viewer sees it, as
// Server-Sent Events "lobby": at once, after every change, and every
// lobbyFresh (expiries, other servers' challenges).
func (s *Server) handleLobbyEvents(w http.ResponseWriter, r *http.Request) {
	if s.lobby == nil {
		writeError(w, errNoLobby)
		return
	}
	done, ok := s.openStream(clientKey(r))
	if !ok {
		writeError(w, failure(http.StatusTooManyRequests, codeTooManyLive, "too many live connections from your address"))
		return
	}
	defer done()
	_, token := seatCookie(r)
	u := userOf(r.Context())
	p := partyOf(token, u)
	wake := make(chan struct{}, 1)
	s.hub.mu.Lock()
	s.hub.subs[wake] = struct{}{}
	s.hub.mu.Unlock()
	defer func() {
		s.hub.mu.Lock()
		delete(s.hub.subs, wake)
		s.hub.mu.Unlock()
	}()
	s.stream(w, r, "lobby", wake, lobbyFresh, func() (any, bool) {
		view, err := s.lobbyView(r.Context(), p, u)
		if err != nil {
			s.log.Error("lobby", "err", err)
			return nil, false // the next wake-up or refresh tries again
		}
		return view, true
	})
}

// lobbyError gives an error of the lobby its status and message for the
// player; any other is the store's, logged.
func (s *Server) lobbyError(err error) error {
	var le *lobby.Error
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		return err
	case errors.As(err, &le):
		return challengeError(le)
	case errors.Is(err, lobby.ErrNotFound):
		return failure(http.StatusNotFound, codeNoChallenge, "no such challenge")
	case errors.Is(err, lobby.ErrGone):
		return failure(http.StatusConflict, codeChallengeGone, "that challenge was taken, declined or withdrawn, or it expired")
	case errors.Is(err, lobby.ErrNotYours):
		return failure(http.StatusForbidden, codeNotYours, "that challenge is not yours to answer")
	case errors.Is(err, lobby.ErrAccount):
		return failure(http.StatusUnauthorized, codeLobbyLogIn, "log in to play in the lobby")
	}
	s.metrics.storeErrors.Add(1)
	s.log.Error("lobby", "err", err)
	return errStorage
}

type challengeReq struct {
	Size  int    `json:"size"`
	Rated bool   `json:"rated"`
	Color string `json:"color"`
	// To is the username a direct challenge is for, "" for an open one.
	To string `json:"to"`
	timeReq
}

// handleChallenge posts a challenge of the viewer, open or to a player.
func (s *Server) handleChallenge(r *request) (int, any, error) {
	if s.lobby == nil {
		return 0, nil, errNoLobby
	}
	var req challengeReq
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	if r.user == nil {
		return 0, nil, s.lobbyError(lobby.ErrAccount)
	}
	if req.Size == 0 {
		req.Size = 9
	}
	control, err := req.control()
	if err != nil {
		return 0, nil, err
	}
	color, err := lobby.ParseColor(req.Color)
	if err != nil {
		return 0, nil, s.lobbyError(err)
	}
	var to lobby.Party
	if name := strings.TrimSpace(req.To); name != "" {
		u, err := s.cfg.Accounts.UserByKey(r.Context(), account.Key(name))
		if errors.Is(err, account.ErrNotFound) {
			return 0, nil, noPlayer(name)
		}
		if err != nil {
			return 0, nil, s.lobbyError(err)
		}
		to = lobby.Party{User: u.ID, Name: u.Name}
	}
	r.identify(true)
	now := s.now()
	c, err := lobby.New(newID(), r.party(), to, lobby.Settings{Size: req.Size, Control: control, Rated: req.Rated, Color: color}, now)
	if err != nil {
		return 0, nil, s.lobbyError(err)
	}
	if err := s.lobby.CreateChallenge(r.Context(), c); err != nil {
		return 0, nil, s.lobbyError(err)
	}
	s.lobbyChanged("")
	s.log.Info("challenge", "id", c.ID, "from", c.From.Name, "to", c.To.Name, "rated", c.Rated)
	var entries []ratings.Entry
	if s.rated != nil {
		entries, _ = s.rated.Ratings(r.Context(), r.user.ID)
	}
	return http.StatusCreated, challengeOf(c, r.party(), entries, now), nil
}

// handleChallengeAction accepts, declines or withdraws a challenge.
func (s *Server) handleChallengeAction(r *request) (int, any, error) {
	if s.lobby == nil {
		return 0, nil, errNoLobby
	}
	action := r.PathValue("action")
	if action != "accept" && action != "decline" && action != "cancel" {
		return 0, nil, failure(http.StatusNotFound, codeNoEndpoint, "no such API endpoint")
	}
	c, err := s.lobby.Challenge(r.Context(), r.PathValue("id"))
	if err != nil {
		return 0, nil, s.lobbyError(err)
	}
	if action == "accept" {
		id, err := s.accept(r, c)
		if err != nil {
			return 0, nil, s.lobbyError(err)
		}
		return http.StatusOK, map[string]string{"game": id}, nil
	}
	status := lobby.Declined
	if action == "cancel" {
		status = lobby.Cancelled
	}
	if err := s.answer(r, c, status); err != nil {
		return 0, nil, s.lobbyError(err)
	}
	return s.handleLobby(r)
}

// accept makes the game of c for the viewer, who accepts it, and returns
// its ID: both seats taken, the challenge's settings, the colours as it
// says. The challenge is marked accepted and the game created in one
// write, so that of two players accepting at once one gets the game.
func (s *Server) accept(r *request, c *lobby.Challenge) (string, error) {
	r.identify(true)
	me, now := r.party(), s.now()
	if err := c.CanAccept(me, now); err != nil {
		return "", err
	}
	var coin [1]byte
	rand.Read(coin[:])
	seats := c.Seats(me, coin[0]&1 == 0)
	rd := &round{
		id: newID(), mode: friendGame, created: now, rated: c.Rated,
		game: game.New(rules.NewGame(rules.GeometryOf(c.Size)), s.options(c.Control)),
	}
	for i, p := range seats {
		rd.seats[i] = seat{name: p.Name, token: p.Token, user: p.User}
	}
	rd.game.Start()
	if err := s.lobby.Accept(r.Context(), c.ID, now, rd.stored(now)); err != nil {
		return "", err
	}
	s.metrics.gamesCreated.Add(1)
	s.log.Info("challenge accepted", "id", c.ID, "game", rd.id, "rated", c.Rated)
	if lv, err := s.load(r.Context(), rd.id); err == nil {
		lv.mu.Lock()
		s.afterChange(lv)
		lv.mu.Unlock()
	}
	s.lobbyChanged(c.Rematch)
	if c.Rematch != "" {
		done := *c
		done.Status, done.Game, done.Updated = lobby.Accepted, rd.id, now
		s.noteRematch(&done)
	}
	return rd.id, nil
}

// answer declines (status Declined) or withdraws (Cancelled) c for the
// viewer.
func (s *Server) answer(r *request, c *lobby.Challenge, status lobby.Status) error {
	me, now := r.party(), s.now()
	check := c.CanDecline
	if status == lobby.Cancelled {
		check = c.CanCancel
	}
	if err := check(me, now); err != nil {
		return err
	}
	if err := s.lobby.Answer(r.Context(), c.ID, status, now); err != nil {
		return err
	}
	s.lobbyChanged(c.Rematch)
	if c.Rematch != "" {
		done := *c
		done.Status, done.Updated = status, now
		s.noteRematch(&done)
	}
	return nil
}

// noteRematch shows the rematch c on the page of its game, if the game
// is in memory (else it is read with the game).
func (s *Server) noteRematch(c *lobby.Challenge) {
	s.mu.Lock()
	lv := s.games[c.Rematch]
	s.mu.Unlock()
	if lv == nil {
		return
	}
	lv.mu.Lock()
	lv.rematch = c
	lv.wake()
	lv.mu.Unlock()
}

// loadRematch reads the last rematch offered after the game r, if it is
// over. A failure is logged, and shows none.
func (s *Server) loadRematch(ctx context.Context, r *round) *lobby.Challenge {
	if s.lobby == nil || r.mode != friendGame || !r.game.Over() {
		return nil
	}
	c, err := s.lobby.RematchOf(ctx, r.id)
	if err != nil {
		if !errors.Is(err, lobby.ErrNotFound) {
			s.log.Error("rematch", "game", r.id, "err", err)
		}
		return nil
	}
	return c
}

// rematchJSON is the last rematch offered after a game.
type rematchJSON struct {
	By     string  `json:"by"`     // the colour of the player who offered it
	Status string  `json:"status"` // pending, accepted, declined, cancelled or expired
	Game   *string `json:"game"`   // the new game, once accepted
	// At is when it was offered or answered (Unix milliseconds): a page
	// takes the newer of two states of one game version by it.
	At int64 `json:"at"`
}

// rematchState is the rematch of lv's game (locked) as its state shows
// it, nil for none.
func (s *Server) rematchState(lv *live) *rematchJSON {
	c := lv.rematch
	if c == nil {
		return nil
	}
	by := rules.White
	if c.From.Is(seatParty(lv.r.seats[rules.Black])) {
		by = rules.Black
	}
	out := &rematchJSON{By: colorNames[by], Status: string(c.Status), At: c.Updated.UnixMilli()}
	if c.Status == lobby.Pending && !c.Live(s.now()) {
		out.Status = "expired"
	}
	if c.Game != "" {
		out.Game = &c.Game
	}
	return out
}

// finished is the game r as a rematch needs it: a finished game between
// people.
func finished(r *round) (lobby.Finished, error) {
	if r.mode != friendGame || !r.game.Over() || !r.seated() {
		return lobby.Finished{}, errNoRematch
	}
	f := lobby.Finished{ID: r.id, Size: r.game.Rules().Geometry().N, Control: r.game.Control(rules.White), Rated: r.rated}
	for c, st := range r.seats {
		f.Seats[c] = seatParty(st)
	}
	return f, nil
}

// handleRematch offers, accepts, declines or withdraws a rematch of a
// finished game between people, for a player of it. An offer made when
// the opponent has offered one accepts it. The answer is the game's
// state, whose rematch says where it stands (and the new game).
func (s *Server) handleRematch(r *request) (int, any, error) {
	var req struct {
		Action string `json:"action"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	if s.lobby == nil {
		return 0, nil, errNoLobby
	}
	lv, err := s.load(r.Context(), r.PathValue("id"))
	if err != nil {
		return 0, nil, err
	}
	lv.mu.Lock()
	me, seated := lv.r.seatOf(r.viewer())
	fin, ferr := finished(lv.r)
	cur := lv.rematch
	lv.mu.Unlock()
	switch {
	case !seated:
		return 0, nil, errNotPlaying
	case ferr != nil:
		return 0, nil, ferr
	}
	now := s.now()
	pending := cur != nil && cur.Live(now)
	switch req.Action {
	case "offer":
		switch {
		case pending && cur.From.Is(fin.Seats[me]):
			// Offered already.
		case pending:
			_, err = s.accept(r, cur)
		default:
			err = s.offerRematch(r.Context(), fin, me, now)
		}
	case "accept", "decline", "cancel":
		if cur == nil {
			return 0, nil, s.lobbyError(lobby.ErrNotFound)
		}
		switch req.Action {
		case "accept":
			_, err = s.accept(r, cur)
		case "decline":
			err = s.answer(r, cur, lobby.Declined)
		default:
			err = s.answer(r, cur, lobby.Cancelled)
		}
	default:
		return 0, nil, invalid(`action must be "offer", "accept", "decline" or "cancel"`)
	}
	if err != nil {
		return 0, nil, s.lobbyError(err)
	}
	return s.withGame(r, func(*live) error { return nil })
}

// offerRematch stores the rematch of fin offered by the player of colour
// by.
func (s *Server) offerRematch(ctx context.Context, fin lobby.Finished, by rules.Color, now time.Time) error {
	c, err := lobby.Rematch(newID(), fin, by, now)
	if err != nil {
		return err
	}
	if err := s.lobby.CreateChallenge(ctx, c); err != nil {
		return err
	}
	s.lobbyChanged(c.Rematch)
	s.noteRematch(c)
	return nil
}

// pruneChallenges deletes the challenges that ended a day ago or more.
func (s *Server) pruneChallenges() {
	if s.lobby == nil {
		return
	}
	if err := s.lobby.Prune(s.ctx, s.now().Add(-24*time.Hour)); err != nil && s.ctx.Err() == nil {
		s.log.Error("prune challenges", "err", err)
	}
}

// engineJSON is a level of the engine with its measured Elo (random = 0)
// and the half-width of its 95% interval, and the rating on the site's
// scale that the Elo makes.
type engineJSON struct {
	Level  int     `json:"level"`
	Elo    float64 `json:"elo"`
	Margin float64 `json:"margin"`
	Rating float64 `json:"rating"`
}

// handleEngines lists the engine's levels with their Elo (player.LevelElo,
// docs/strength.md) and their ratings (rating.EngineRating): for display,
// since games against the engine are not rated.
func (s *Server) handleEngines(r *request) (int, any, error) {
	out := []engineJSON{}
	for level := 1; level <= player.MaxLevel; level++ {
		e := player.LevelElo[level]
		out = append(out, engineJSON{level, e.Elo, e.Margin(), rating.EngineRating(e.Elo)})
	}
	return http.StatusOK, map[string]any{"levels": out}, nil
}
