package server

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"emergo/account"
	"emergo/lobby"
	"emergo/notify"
	"emergo/player"
	"emergo/rating"
	"emergo/ratings"
	"emergo/round"
	"emergo/rules"
	"emergo/throttle"
)

// The lobby as a viewer sees it is two lists, so that no number of
// others' challenges hides his own: the open challenges, at most
// openShown, the challengers taking turns (lobby.Store.OpenChallenges),
// read once for every viewer; and his own and those made to him, at most
// mineShown of each (ChallengesOf), read for him. A challenge answered
// stays answeredShown in its two players' lists, so that a challenger's
// page learns that his challenge was accepted, and where to go. The open
// list is read again after a change of an open challenge, and a
// viewer's own for his event stream after a change of his; both after a
// change another server announced, and at least every lobbyFresh, so
// that expired challenges leave, and those of other servers on the same
// database come even if the feed lost their announcement. Beside the
// open list the hub keeps the ratings of at most ratingsKept other
// challengers, read for viewers' own lists, until it is read again.
const (
	openShown     = 200
	mineShown     = 100
	answeredShown = 10 * time.Minute
	lobbyFresh    = 30 * time.Second
	ratingsKept   = 1000
)

var (
	errNoLobby   = failure(http.StatusNotImplemented, codeNoLobby, "this server has no lobby")
	errNoRematch = failure(http.StatusConflict, codeNoRematch, "a rematch is for a finished game between people")
)

// lobbyHub wakes the viewers of the lobby when a challenge changes, and
// keeps the open challenges, read once for all of them. No lock is held
// while the store is read: the first viewer to find the list old reads
// it, and the others wait for his list. It says too whose challenges
// changed, so that a viewer of the event stream reads his own again only
// after a change of his (ownList), not after every change of the lobby.
type lobbyHub struct {
	mu   sync.Mutex
	subs map[chan struct{}]struct{}
	// changes counts the wake-ups; openChanged is the last that may have
	// changed the open list, allChanged the last that may have changed
	// anyone's own (one another server announced: whose, it does not
	// say).
	changes, openChanged, allChanged uint64
	// touched is the last change of each player's (by partyKey), kept
	// lobbyFresh: an own list older than that is read again anyway.
	// pruned is when the older were last dropped.
	touched map[string]touch
	pruned  time.Time
	open    *openList
	// reading is closed when the read under way ends; nil for none.
	reading chan struct{}
	// rates are the challengers' ratings read since open for the
	// viewers' own lists.
	rates map[int64][]ratings.Entry
}

// openList is the open challenges read at one time, with what every
// viewer is shown of them.
type openList struct {
	list []lobby.Challenge
	// views are list as a viewer who made none of them sees it.
	views []challengeJSON
	rates map[int64][]ratings.Entry // the challengers' ratings
	at    time.Time
	// changes are the hub's when the read began.
	changes uint64
}

// touch is a player's last change.
type touch struct {
	change uint64
	at     time.Time
}

// partyKey names p as lobby.Party.Is tells players apart: by the account,
// else by the guest's browser; "" for nobody.
func partyKey(p lobby.Party) string {
	switch {
	case p.User != 0:
		return "u" + strconv.FormatInt(p.User, 10)
	case p.Token != "":
		return "t" + p.Token
	}
	return ""
}

// wake notes a change of the challenge c at now (nil: a change of any,
// and of anyone's) and tells every viewer.
func (h *lobbyHub) wake(c *lobby.Challenge, now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.changes++
	if c == nil || c.Open() {
		h.openChanged = h.changes
	}
	if c == nil {
		h.allChanged = h.changes
	} else {
		if h.touched == nil {
			h.touched = map[string]touch{}
		}
		for _, p := range [2]lobby.Party{c.From, c.To} {
			if k := partyKey(p); k != "" {
				h.touched[k] = touch{h.changes, now}
			}
		}
	}
	if now.Sub(h.pruned) >= lobbyFresh || now.Before(h.pruned) {
		for k, t := range h.touched {
			if now.Sub(t.at) >= lobbyFresh || now.Before(t.at) {
				delete(h.touched, k)
			}
		}
		h.pruned = now
	}
	for ch := range h.subs {
		select {
		case ch <- struct{}{}:
		default: // a wake-up is already pending
		}
	}
}

// subscribe has wake signalled at every change of the lobby, until the
// returned function is called.
func (h *lobbyHub) subscribe(wake chan struct{}) (cancel func()) {
	h.mu.Lock()
	h.subs[wake] = struct{}{}
	h.mu.Unlock()
	return func() {
		h.mu.Lock()
		delete(h.subs, wake)
		h.mu.Unlock()
	}
}

// openChallenges returns the open list, reading it again if it is older
// than a change known when the caller asked, or than lobbyFresh.
func (s *Server) openChallenges(ctx context.Context) (*openList, error) {
	h := &s.hub
	h.mu.Lock()
	since := h.openChanged
	for {
		now := s.now()
		if o := h.open; o != nil && o.changes >= since && now.Sub(o.at) < lobbyFresh && !now.Before(o.at) {
			h.mu.Unlock()
			return o, nil
		}
		if wait := h.reading; wait != nil {
			h.mu.Unlock()
			select {
			case <-wait:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			h.mu.Lock()
			continue
		}
		done, changes := make(chan struct{}), h.changes
		h.reading = done
		h.mu.Unlock()
		var o *openList
		var err error
		defer func() {
			// Even after a panic, so that the others read in turn.
			h.mu.Lock()
			h.reading = nil
			if o != nil {
				o.changes = changes
				h.open, h.rates = o, nil
			}
			h.mu.Unlock()
			close(done)
		}()
		o, err = s.readOpen(ctx, now)
		return o, err
	}
}

// readOpen reads the open list at now: at most openShown challenges, and
// their challengers' ratings.
func (s *Server) readOpen(ctx context.Context, now time.Time) (*openList, error) {
	list, err := s.lobby.OpenChallenges(ctx, now, openShown)
	if err != nil {
		return nil, err
	}
	o := &openList{list: list, views: make([]challengeJSON, len(list)), rates: map[int64][]ratings.Entry{}, at: now}
	for _, c := range list {
		if _, ok := o.rates[c.From.User]; ok || c.From.User == 0 || s.rated == nil {
			continue
		}
		entries, err := s.rated.Ratings(ctx, c.From.User)
		if err != nil {
			return nil, err
		}
		o.rates[c.From.User] = entries
	}
	for i := range list {
		o.views[i] = challengeOf(&list[i], lobby.Party{}, o.rates[list[i].From.User], now)
	}
	return o, nil
}

// ownList is a viewer's own challenges and those made to him, as his
// event stream last read them.
type ownList struct {
	list    []lobby.Challenge
	at      time.Time
	changes uint64 // the hub's when the read began
}

// challengesOf returns p's own challenges and those made to him at now:
// those of keep (nil for none) if no change of his came since they were
// read, nor lobbyFresh passed; else read again, and kept in keep.
func (s *Server) challengesOf(ctx context.Context, p lobby.Party, now time.Time, keep *ownList) ([]lobby.Challenge, error) {
	h := &s.hub
	h.mu.Lock()
	changes, last := h.changes, h.allChanged
	if t, ok := h.touched[partyKey(p)]; ok {
		last = max(last, t.change)
	}
	h.mu.Unlock()
	if keep != nil && keep.changes >= last && now.Sub(keep.at) < lobbyFresh && !now.Before(keep.at) {
		return keep.list, nil
	}
	list, err := s.lobby.ChallengesOf(ctx, p, now, now.Add(-answeredShown), mineShown)
	if err != nil {
		return nil, err
	}
	if keep != nil {
		*keep = ownList{list: list, at: now, changes: changes}
	}
	return list, nil
}

// ratesOf returns the ratings of the challengers of cs: those of the open
// list o, those the hub keeps, and the others read now (and kept, up to
// ratingsKept).
func (s *Server) ratesOf(ctx context.Context, o *openList, cs []lobby.Challenge) (map[int64][]ratings.Entry, error) {
	out := map[int64][]ratings.Entry{}
	if s.rated == nil {
		return out, nil
	}
	h := &s.hub
	var missing []int64
	h.mu.Lock()
	for _, c := range cs {
		u := c.From.User
		if _, ok := out[u]; ok || u == 0 {
			continue
		}
		if entries, ok := o.rates[u]; ok {
			out[u] = entries
		} else if entries, ok := h.rates[u]; ok && h.open == o {
			out[u] = entries
		} else {
			out[u] = nil
			missing = append(missing, u)
		}
	}
	h.mu.Unlock()
	for _, u := range missing {
		entries, err := s.rated.Ratings(ctx, u)
		if err != nil {
			return nil, err
		}
		out[u] = entries
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.open != o {
		return out, nil // kept with the list they were read beside
	}
	if h.rates == nil {
		h.rates = map[int64][]ratings.Entry{}
	}
	for _, u := range missing {
		if len(h.rates) >= ratingsKept {
			break
		}
		h.rates[u] = out[u]
	}
	return out, nil
}

// party is the viewer as a side of a challenge.
func (r *request) party() lobby.Party { return partyOf(r.token, r.user) }

func partyOf(token string, u *account.User) lobby.Party {
	p := lobby.Party{Token: token}
	if u != nil {
		p.User, p.Name, p.Bot = u.ID, u.Name, u.Bot
	}
	return p
}

// seatParty is the holder of a seat as a side of a challenge.
func seatParty(st round.Seat) lobby.Party {
	return lobby.Party{User: st.User, Token: st.Token, Name: st.Name, Bot: st.Bot}
}

// lobbyJSON is the lobby as a viewer sees it.
type lobbyJSON struct {
	Me         *userJSON        `json:"me"`
	Challenges []*challengeJSON `json:"challenges"`
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
	// rematch is not); Bot that it is a bot's.
	Account bool   `json:"account"`
	Bot     bool   `json:"bot"`
	Rating  string `json:"rating"` // the challenger's in the pool of the game, "1500?"
	// To is the player a direct challenge or a rematch is for, null for
	// an open one.
	To    *string    `json:"to"`
	ToBot bool       `json:"toBot"`
	Size  int        `json:"size"`
	Clock *clockSecs `json:"clock"`
	Days  int        `json:"days"`
	Rated bool       `json:"rated"`
	// AllowBots says that bot accounts may accept the open challenge.
	AllowBots bool    `json:"allowBots"`
	Color     string  `json:"color"` // the challenger's
	Status    string  `json:"status"`
	Game      *string `json:"game"`    // once accepted
	Rematch   *string `json:"rematch"` // the game it is a rematch of
	Mine      bool    `json:"mine"`    // the viewer made it
	ForYou    bool    `json:"forYou"`  // it was made to the viewer
	Expires   string  `json:"expires"`
}

// challengeOf is c as the viewer p sees it, with the challenger's
// ratings entries.
func challengeOf(c *lobby.Challenge, p lobby.Party, entries []ratings.Entry, now time.Time) challengeJSON {
	out := challengeJSON{
		ID: c.ID, From: c.From.Name, Account: c.From.User != 0, Bot: c.From.Bot, ToBot: c.To.Bot, AllowBots: c.AllowBots, Size: c.Size, Days: c.Control.Days, Rated: c.Rated,
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
// the open challenges pending, those p made and those made to p, pending
// or answered lately, the oldest first. keep is p's own list as his event
// stream last read it, nil for none.
func (s *Server) lobbyView(ctx context.Context, p lobby.Party, u *account.User, keep *ownList) (lobbyJSON, error) {
	now := s.now()
	o, err := s.openChallenges(ctx)
	if err != nil {
		return lobbyJSON{}, err
	}
	mine, err := s.challengesOf(ctx, p, now, keep)
	if err != nil {
		return lobbyJSON{}, err
	}
	rates, err := s.ratesOf(ctx, o, mine)
	if err != nil {
		return lobbyJSON{}, err
	}
	// The challenges of the accounts u blocks are not shown to him: they
	// wait, as if unanswered, until they expire (chat.go, handleBlock).
	var blocked func(int64) bool
	if u != nil {
		if blocked, err = s.blocked(ctx, u.ID); err != nil {
			return lobbyJSON{}, err
		}
	}
	if blocked != nil {
		// A copy: mine may be the stream's list kept (keep).
		shown := make([]lobby.Challenge, 0, len(mine))
		for _, c := range mine {
			if !blocked(c.From.User) {
				shown = append(shown, c)
			}
		}
		mine = shown
	}
	// Both lists come the oldest first: merged, the open ones shared
	// with the other viewers unless p made them.
	out := lobbyJSON{Me: me(u), Challenges: make([]*challengeJSON, 0, len(o.list)+len(mine))}
	seen := make(map[string]bool, len(mine))
	for i := range mine {
		seen[mine[i].ID] = true
	}
	i := 0
	for j := range o.list {
		c := &o.list[j]
		// p's own are in mine, as they are now, unless mine was cut.
		if seen[c.ID] || !c.Live(now) || (blocked != nil && blocked(c.From.User)) {
			continue
		}
		for ; i < len(mine) && !mine[i].Created.After(c.Created); i++ {
			out.Challenges = appendOwn(out.Challenges, &mine[i], p, rates, now)
		}
		v := &o.views[j]
		if c.From.Is(p) {
			own := *v
			own.Mine, v = true, &own
		}
		out.Challenges = append(out.Challenges, v)
	}
	for ; i < len(mine); i++ {
		out.Challenges = appendOwn(out.Challenges, &mine[i], p, rates, now)
	}
	return out, nil
}

// appendOwn appends to list c, one of p's own or made to p, if it is
// still shown at now: pending, or answered within answeredShown.
func appendOwn(list []*challengeJSON, c *lobby.Challenge, p lobby.Party, rates map[int64][]ratings.Entry, now time.Time) []*challengeJSON {
	if !c.Live(now) && (c.Status == lobby.Pending || !c.Updated.After(now.Add(-answeredShown))) {
		return list
	}
	v := challengeOf(c, p, rates[c.From.User], now)
	return append(list, &v)
}

func (s *Server) handleLobby(r *request) (int, any, error) {
	if s.lobby == nil {
		return 0, nil, errNoLobby
	}
	view, err := s.lobbyView(r.Context(), r.party(), r.user, nil)
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
	defer s.hub.subscribe(wake)()
	if u != nil && s.chat != nil {
		// Held while the stream lasts, so that a block hides the
		// blocked's challenges at the next wake-up, on any server.
		if _, release, err := s.blocks.hold(r.Context(), s.chat, u.ID); err == nil {
			defer release()
		}
	}
	var keep ownList
	s.stream(w, r, "lobby", wake, lobbyFresh, func() (any, bool) {
		view, err := s.lobbyView(r.Context(), p, u, &keep)
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
	var many *lobby.TooManyError
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
	case errors.Is(err, lobby.ErrForPeople):
		return failure(http.StatusForbidden, codeForPeople, "that challenge is for people: it does not allow bots")
	case errors.Is(err, lobby.ErrAccount):
		return failure(http.StatusUnauthorized, codeLobbyLogIn, "log in to play in the lobby")
	case errors.As(err, &many):
		return &apiError{status: http.StatusTooManyRequests, code: codeTooManyChallenges,
			msg: strings.TrimPrefix(many.Error(), "lobby: "), params: map[string]any{"n": many.Limit}}
	case errors.Is(err, lobby.ErrFull):
		return failure(http.StatusServiceUnavailable, codeLobbyFull, "the lobby is full, try again in a moment")
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
	// AllowBots lets bot accounts accept an open challenge.
	AllowBots bool `json:"allowBots"`
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
		to = lobby.Party{User: u.ID, Name: u.Name, Bot: u.Bot}
	}
	r.identify(true)
	now := s.now()
	c, err := lobby.New(newID(), r.party(), to, lobby.Settings{Size: req.Size, Control: control, Rated: req.Rated, Color: color, AllowBots: req.AllowBots}, now)
	if err != nil {
		return 0, nil, s.lobbyError(err)
	}
	if err := s.takeChallengeRate(r); err != nil {
		return 0, nil, err
	}
	if err := s.lobby.CreateChallenge(r.Context(), c, s.cfg.ChallengeLimits); err != nil {
		s.giveChallengeRate(r)
		return 0, nil, s.lobbyError(err)
	}
	s.lobbyChanged(c)
	s.log.Info("challenge", "id", c.ID, "from", c.From.Name, "to", c.To.Name, "rated", c.Rated)
	if to.User != 0 {
		s.tell(r.Context(), notify.Notification{User: to.User, Type: notify.Challenge, From: r.user.ID})
	}
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
	return s.acceptFor(r.Context(), r.party(), c)
}

// acceptFor is accept for the player me.
func (s *Server) acceptFor(ctx context.Context, me lobby.Party, c *lobby.Challenge) (string, error) {
	now := s.now()
	if err := c.CanAccept(me, now); err != nil {
		return "", err
	}
	var coin [1]byte
	rand.Read(coin[:])
	seats := c.Seats(me, coin[0]&1 == 0)
	rd := s.rounds.New(newID(), round.Friend, rules.GeometryOf(c.Size), c.Control)
	rd.Rated = c.Rated
	for i, p := range seats {
		rd.Seats[i] = round.Seat{Name: p.Name, Token: p.Token, User: p.User, Bot: p.Bot}
	}
	rd.Game.Start()
	if err := s.lobby.Accept(ctx, c.ID, now, rd.Stored(rd.Created)); err != nil {
		return "", err
	}
	s.metrics.gamesCreated.Add(1)
	s.log.Info("challenge accepted", "id", c.ID, "game", rd.ID, "rated", c.Rated)
	s.rounds.Begin(ctx, rd.ID) // a failure is the next request's to tell
	s.lobbyChanged(c)
	if c.Rematch != "" {
		done := *c
		done.Status, done.Game, done.Updated = lobby.Accepted, rd.ID, now
		s.rounds.NoteRematch(&done)
	}
	return rd.ID, nil
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
	s.lobbyChanged(c)
	if c.Rematch != "" {
		done := *c
		done.Status, done.Updated = status, now
		s.rounds.NoteRematch(&done)
	}
	return nil
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

// rematchState is the rematch of the game v as its state shows it, nil
// for none.
func (s *Server) rematchState(v round.View) *rematchJSON {
	c := v.Rematch
	if c == nil {
		return nil
	}
	by := rules.White
	if c.From.Is(seatParty(v.Round.Seats[rules.Black])) {
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
func finished(r *round.Round) (lobby.Finished, error) {
	if r.Mode != round.Friend || !r.Game.Over() || !r.Seated() {
		return lobby.Finished{}, errNoRematch
	}
	f := lobby.Finished{ID: r.ID, Size: r.Game.Rules().Geometry().N, Control: r.Game.Control(rules.White), Rated: r.Rated}
	for c, st := range r.Seats {
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
	v, err := s.rounds.Look(r.Context(), r.PathValue("id"))
	if err != nil {
		return 0, nil, err
	}
	me, seated := v.Round.SeatOf(r.viewer().player())
	fin, ferr := finished(v.Round)
	cur := v.Rematch
	switch {
	case !seated:
		return 0, nil, round.ErrNotPlaying
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
			if err = s.takeChallengeRate(r); err == nil {
				if err = s.offerRematch(r.Context(), fin, me, now); err != nil {
					s.giveChallengeRate(r)
				}
			}
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
	return s.handleGet(r)
}

// challengeRate bounds how often one player (an account, or a guest's
// browser) posts challenges and rematches: the cap on those pending does
// not bound a player who posts and withdraws in turn, whose answered
// challenges the store keeps a day.
var challengeRate = throttle.Limit{Burst: 20, Every: 30 * time.Second}

// challengeKey names r's player in challengeRate.
func challengeKey(r *request) string {
	if r.user != nil {
		return "account:" + strconv.FormatInt(r.user.ID, 10)
	}
	return "browser:" + r.token
}

// giveChallengeRate gives back the count of a challenge that was not
// stored (refused by a cap, or the store's failure).
func (s *Server) giveChallengeRate(r *request) {
	if err := s.challengeRate.Give(context.WithoutCancel(r.Context()), challengeKey(r)); err != nil {
		s.log.Error("challenges' rate: give back", "err", err)
	}
}

// takeChallengeRate counts a challenge posted by r's player, or refuses
// it (429 challenge.too_fast, with Retry-After).
func (s *Server) takeChallengeRate(r *request) error {
	wait, err := s.challengeRate.Take(r.Context(), challengeKey(r), s.now())
	if err != nil {
		s.metrics.storeErrors.Add(1)
		s.log.Error("challenges' rate", "err", err)
		return errStorage
	}
	if wait <= 0 {
		return nil
	}
	secs := int((wait + time.Second - 1) / time.Second)
	r.w.Header().Set("Retry-After", strconv.Itoa(secs))
	return &apiError{http.StatusTooManyRequests, codeChallengeTooFast,
		fmt.Sprintf("you are posting challenges too fast: wait %s and try again", waitText(secs)),
		map[string]any{"n": secs}}
}

// offerRematch stores the rematch of fin offered by the player of colour
// by.
func (s *Server) offerRematch(ctx context.Context, fin lobby.Finished, by rules.Color, now time.Time) error {
	c, err := lobby.Rematch(newID(), fin, by, now)
	if err != nil {
		return err
	}
	if err := s.lobby.CreateChallenge(ctx, c, s.cfg.ChallengeLimits); err != nil {
		return err
	}
	s.lobbyChanged(c)
	s.rounds.NoteRematch(c)
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
