package server

import (
	"context"
	"errors"
	"net/http"
	"time"

	"emergo/notify"
)

// Notifications, Web Push and following: an account's notifications
// (GET /api/notifications, POST /api/notifications/read), the browsers
// subscribed to their push (POST /api/push/subscribe, .../unsubscribe,
// GET /api/push/key), and the players an account follows (POST
// /api/users/{name}/follow, .../unfollow, their lists, and GET
// /api/following/games). The pages are /notifications and /following.

var (
	errNoNotify = failure(http.StatusNotImplemented, codeNoNotify, "this server keeps no notifications")
	errNoPush   = failure(http.StatusNotImplemented, codeNoPush, "this server sends no push notifications")
	errLogIn    = failure(http.StatusUnauthorized, codeNotifyLogIn, "log in first: notifications and follows are an account's")
)

// notifyRoutes adds the endpoints and pages of the notifications, push
// and following to mux.
func (s *Server) notifyRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/notifications", s.api(s.handleNotifications))
	mux.HandleFunc("POST /api/notifications/read", s.api(s.handleNotificationsRead))
	mux.HandleFunc("GET /api/push/key", s.api(s.handlePushKey))
	mux.HandleFunc("POST /api/push/subscribe", s.api(s.handlePushSubscribe))
	mux.HandleFunc("POST /api/push/unsubscribe", s.api(s.handlePushUnsubscribe))
	mux.HandleFunc("POST /api/users/{name}/follow", s.api(s.handleFollow))
	mux.HandleFunc("POST /api/users/{name}/unfollow", s.api(s.handleUnfollow))
	mux.HandleFunc("GET /api/users/{name}/followers", s.api(s.handleFollowers))
	mux.HandleFunc("GET /api/users/{name}/following", s.api(s.handleFollowing))
	mux.HandleFunc("GET /api/following/games", s.api(s.handleFollowedGames))
	mux.HandleFunc("GET /notifications", s.page("index.html"))
	mux.HandleFunc("GET /following", s.page("index.html"))
	mux.HandleFunc("GET /sw.js", s.handleServiceWorker)
}

// startNotify sets up the notifications, if the store keeps them: the
// VAPID keys (the configuration's, else the store's, made on first use)
// and the Pusher, run until Close.
func (s *Server) startNotify(ctx context.Context) error {
	s.notes, _ = s.st.(notify.Store)
	if s.notes == nil {
		return nil
	}
	keys := s.cfg.VAPID
	if keys == (notify.Keys{}) {
		made, err := notify.NewKeys()
		if err != nil {
			return err
		}
		if keys, err = s.notes.KeepKeys(ctx, made); err != nil {
			return err
		}
	}
	if err := keys.Check(); err != nil {
		return err
	}
	pc := s.cfg.Push
	pc.Store, pc.Keys, pc.Logger = s.notes, keys, s.log
	if s.cfg.Accounts != nil {
		pc.Accounts = s.cfg.Accounts
	}
	if pc.Subscriber == "" {
		pc.Subscriber = "https://emergo.invalid/"
	}
	pc.Sent, pc.Failed, pc.Dropped = &s.metrics.pushSent, &s.metrics.pushFailed, &s.metrics.pushDropped
	s.pusher = notify.NewPusher(pc)
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		s.pusher.Run(s.ctx)
	}()
	return nil
}

// notifier is the round's Notifier: the server's notifications.
type notifier struct{ s *Server }

func (n notifier) YourTurn(ctx context.Context, game string, to, from int64) {
	n.s.tell(ctx, notify.Notification{User: to, Type: notify.YourTurn, Game: game, From: from})
}

func (n notifier) GameOver(ctx context.Context, game string, players [2]int64) {
	for c, user := range players {
		if user != 0 {
			n.s.tell(ctx, notify.Notification{User: user, Type: notify.GameOver, Game: game, From: players[1-c]})
		}
	}
}

// tell stores n for its account and queues its push. A notification
// that takes the place of an unread one of its kind is pushed again only
// for a turn, which is a new move each time. A failure is logged: what
// it told happened all the same.
func (s *Server) tell(ctx context.Context, n notify.Notification) {
	if s.notes == nil {
		return
	}
	n.Created = s.now()
	fresh, err := s.notes.AddNotification(context.WithoutCancel(ctx), &n, notify.Kept)
	if err != nil {
		s.metrics.storeErrors.Add(1)
		s.log.Error("notification", "user", n.User, "type", n.Type, "err", err)
		return
	}
	s.metrics.notifications.Add(1)
	if fresh || n.Type == notify.YourTurn {
		s.pusher.Send(n)
	}
}

// notes returns the account of the request, and the store of the
// notifications, or the error to answer with.
func (s *Server) notesOf(r *request) (notify.Store, int64, error) {
	if s.notes == nil {
		return nil, 0, errNoNotify
	}
	if r.user == nil {
		return nil, 0, errLogIn
	}
	return s.notes, r.user.ID, nil
}

// notificationJSON is a notification as the API gives it.
type notificationJSON struct {
	ID      int64   `json:"id"`
	Type    string  `json:"type"`
	Game    *string `json:"game"` // null for none
	From    *string `json:"from"` // the account's name, null for none
	Created string  `json:"created"`
	Read    bool    `json:"read"`
}

// notificationsJSON is the answer of GET /api/notifications, and of
// marking some read: the latest first, and how many are unread.
type notificationsJSON struct {
	Notifications []notificationJSON `json:"notifications"`
	Unread        int                `json:"unread"`
}

func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// listNotifications answers the notifications of the account user.
func (s *Server) listNotifications(ctx context.Context, st notify.Store, user int64) (int, any, error) {
	ns, err := st.Notifications(ctx, user, notify.Kept)
	if err != nil {
		s.log.Error("notifications", "user", user, "err", err)
		return 0, nil, errReadStorage
	}
	out := notificationsJSON{Notifications: []notificationJSON{}}
	for _, n := range ns {
		out.Notifications = append(out.Notifications, notificationJSON{
			ID: n.ID, Type: n.Type, Game: orNull(n.Game), From: orNull(n.FromName),
			Created: n.Created.UTC().Format(time.RFC3339), Read: n.Read,
		})
		if !n.Read {
			out.Unread++
		}
	}
	return http.StatusOK, out, nil
}

func (s *Server) handleNotifications(r *request) (int, any, error) {
	st, user, err := s.notesOf(r)
	if err != nil {
		return 0, nil, err
	}
	return s.listNotifications(r.Context(), st, user)
}

// handleNotificationsRead marks the viewer's notifications of ids read,
// or all of them.
func (s *Server) handleNotificationsRead(r *request) (int, any, error) {
	st, user, err := s.notesOf(r)
	if err != nil {
		return 0, nil, err
	}
	var req struct {
		IDs []int64 `json:"ids"`
		All bool    `json:"all"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	switch {
	case req.All == (req.IDs != nil):
		return 0, nil, invalid(`give either "ids" or "all": true`)
	case len(req.IDs) > notify.Kept:
		return 0, nil, invalid("at most %d ids at once", notify.Kept)
	}
	ids := req.IDs
	if req.All {
		ids = nil
	}
	if err := st.MarkRead(r.Context(), user, ids); err != nil {
		s.log.Error("mark read", "user", user, "err", err)
		return 0, nil, errStorage
	}
	return s.listNotifications(r.Context(), st, user)
}

// handlePushKey answers the VAPID public key that the browsers
// subscribe with.
func (s *Server) handlePushKey(r *request) (int, any, error) {
	if s.pusher == nil {
		return 0, nil, errNoPush
	}
	return http.StatusOK, map[string]string{"key": s.pusher.PublicKey()}, nil
}

// subscriptionReq is a browser's PushSubscription as its toJSON gives
// it.
type subscriptionReq struct {
	Endpoint       string `json:"endpoint"`
	ExpirationTime *int64 `json:"expirationTime"` // ignored: the push service says when it is gone
	Keys           struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
}

// handlePushSubscribe keeps the viewer's browser's subscription to Web
// Push: the latest notify.MaxSubscriptions of an account are kept.
func (s *Server) handlePushSubscribe(r *request) (int, any, error) {
	st, user, err := s.notesOf(r)
	if err != nil {
		return 0, nil, err
	}
	var req subscriptionReq
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	sub := notify.Subscription{User: user, Endpoint: req.Endpoint, P256dh: req.Keys.P256dh, Auth: req.Keys.Auth, Created: s.now()}
	if err := s.pusher.CheckSubscription(sub); err != nil {
		return 0, nil, &apiError{http.StatusBadRequest, codeBadSubscription, "the push subscription is refused: " + err.Error(),
			map[string]any{"detail": err.Error()}}
	}
	if err := st.AddSubscription(r.Context(), sub, notify.MaxSubscriptions); err != nil {
		s.log.Error("push subscribe", "user", user, "err", err)
		return 0, nil, errStorage
	}
	return http.StatusCreated, map[string]bool{"subscribed": true}, nil
}

// handlePushUnsubscribe forgets a browser's subscription of the viewer.
func (s *Server) handlePushUnsubscribe(r *request) (int, any, error) {
	st, user, err := s.notesOf(r)
	if err != nil {
		return 0, nil, err
	}
	var req struct {
		Endpoint string `json:"endpoint"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	if err := st.RemoveSubscription(r.Context(), user, req.Endpoint); err != nil {
		s.log.Error("push unsubscribe", "user", user, "err", err)
		return 0, nil, errStorage
	}
	return http.StatusOK, map[string]bool{"subscribed": false}, nil
}

// handleServiceWorker serves the service worker of the push
// notifications at the root, so that its scope is the whole site, and
// asked for again whenever the browser checks it (no-cache): a new one
// takes over at once.
func (s *Server) handleServiceWorker(w http.ResponseWriter, r *http.Request) {
	data, err := webFS.ReadFile("web/sw.js")
	if err != nil {
		writeError(w, failure(http.StatusInternalServerError, codeInternal, "internal error"))
		return
	}
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Service-Worker-Allowed", "/")
	w.Write(data)
}

// followed returns the viewer's store and account, and the account
// named in the path, or the error to answer with.
func (s *Server) followed(r *request) (notify.Store, int64, int64, error) {
	st, user, err := s.notesOf(r)
	if err != nil {
		return nil, 0, 0, err
	}
	p, err := s.profile(r.Request, r.PathValue("name"))
	if err != nil {
		return nil, 0, 0, err
	}
	return st, user, p.ID, nil
}

// handleFollow makes the viewer follow a player, who is told of it.
func (s *Server) handleFollow(r *request) (int, any, error) {
	st, user, other, err := s.followed(r)
	if err != nil {
		return 0, nil, err
	}
	if other == user {
		return 0, nil, failure(http.StatusBadRequest, codeFollowSelf, "you cannot follow yourself")
	}
	added, err := st.Follow(r.Context(), user, other, s.now(), notify.MaxFollows)
	if errors.Is(err, notify.ErrTooManyFollows) {
		return 0, nil, &apiError{http.StatusConflict, codeTooManyFollows,
			"you follow as many players as you may: unfollow one first", map[string]any{"n": notify.MaxFollows}}
	}
	if err != nil {
		s.log.Error("follow", "user", user, "err", err)
		return 0, nil, errStorage
	}
	if added {
		s.tell(r.Context(), notify.Notification{User: other, Type: notify.Follower, From: user})
	}
	return http.StatusOK, map[string]bool{"following": true}, nil
}

// handleUnfollow ends the viewer's follow of a player.
func (s *Server) handleUnfollow(r *request) (int, any, error) {
	st, user, other, err := s.followed(r)
	if err != nil {
		return 0, nil, err
	}
	if err := st.Unfollow(r.Context(), user, other); err != nil {
		s.log.Error("unfollow", "user", user, "err", err)
		return 0, nil, errStorage
	}
	return http.StatusOK, map[string]bool{"following": false}, nil
}

// personJSON is an account in a list of followers or followed players.
type personJSON struct {
	Name  string `json:"name"`
	Since string `json:"since"`
}

func (s *Server) handleFollowers(r *request) (int, any, error) {
	return s.people(r, "followers", notify.Store.Followers)
}

func (s *Server) handleFollowing(r *request) (int, any, error) {
	return s.people(r, "following", notify.Store.Following)
}

// people answers a list of the accounts related to the player of the
// path by list, under the key what: anyone may read it.
func (s *Server) people(r *request, what string, list func(notify.Store, context.Context, int64, int) ([]notify.Person, error)) (int, any, error) {
	if s.notes == nil {
		return 0, nil, errNoNotify
	}
	p, err := s.profile(r.Request, r.PathValue("name"))
	if err != nil {
		return 0, nil, err
	}
	ps, err := list(s.notes, r.Context(), p.ID, notify.MaxListed)
	if err != nil {
		s.log.Error(what, "user", p.ID, "err", err)
		return 0, nil, errReadStorage
	}
	out := []personJSON{}
	for _, p := range ps {
		out = append(out, personJSON{Name: p.Name, Since: p.Since.UTC().Format(time.RFC3339)})
	}
	return http.StatusOK, map[string]any{what: out}, nil
}

// followedGameJSON is a game going on of a followed player.
type followedGameJSON struct {
	ID    string `json:"id"`
	Size  int    `json:"size"`
	White string `json:"white"`
	Black string `json:"black"`
	// WhiteAccount and BlackAccount say which seats are accounts' (their
	// names link to their pages).
	WhiteAccount bool   `json:"whiteAccount"`
	BlackAccount bool   `json:"blackAccount"`
	Plies        int    `json:"plies"`
	Days         int    `json:"days"`
	Initial      int64  `json:"initial_ms"`
	Increment    int64  `json:"increment_ms"`
	Rated        bool   `json:"rated"`
	Updated      string `json:"updated"`
}

// handleFollowedGames lists the games going on of the players the
// viewer follows, the latest changed first.
func (s *Server) handleFollowedGames(r *request) (int, any, error) {
	st, user, err := s.notesOf(r)
	if err != nil {
		return 0, nil, err
	}
	games, err := st.FollowedGames(r.Context(), user, notify.MaxListed)
	if err != nil {
		s.log.Error("followed games", "user", user, "err", err)
		return 0, nil, errReadStorage
	}
	out := []followedGameJSON{}
	for _, g := range games {
		out = append(out, followedGameJSON{
			ID: g.ID, Size: g.Size, White: g.Names[0], Black: g.Names[1],
			WhiteAccount: g.Users[0] != 0, BlackAccount: g.Users[1] != 0,
			Plies: g.Plies, Days: g.Days, Initial: g.Initial.Milliseconds(), Increment: g.Increment.Milliseconds(),
			Rated: g.Rated, Updated: g.Updated.UTC().Format(time.RFC3339),
		})
	}
	return http.StatusOK, map[string]any{"games": out}, nil
}

// followCounts are the follows of a player's profile: how many follow
// him and whom he follows, whether the viewer follows him (null for a
// guest, or himself), and whether the viewer is he.
type followCounts struct {
	Followers int   `json:"followers"`
	Following int   `json:"following"`
	YouFollow *bool `json:"youFollow"`
	Self      bool  `json:"self"`
}

// followCountsOf returns the follows of the account id for the viewer r.
// A failure leaves them out of the profile (zero), and is logged.
func (s *Server) followCountsOf(r *request, id int64) followCounts {
	var out followCounts
	if s.notes == nil {
		return out
	}
	var err error
	if out.Followers, out.Following, err = s.notes.CountFollows(r.Context(), id); err != nil {
		s.log.Error("count follows", "user", id, "err", err)
	}
	out.Self = r.user != nil && r.user.ID == id
	if r.user != nil && !out.Self {
		yes, err := s.notes.Follows(r.Context(), r.user.ID, id)
		if err != nil {
			s.log.Error("follows", "user", r.user.ID, "err", err)
		}
		out.YouFollow = &yes
	}
	return out
}
