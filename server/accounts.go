package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"emergo/account"
	"emergo/round"
)

// sessionCookie holds a logged-in browser's session token. The seat
// cookie (cookieName) stays beside it: a guest's seats are its browser's.
const sessionCookie = "emergo_session"

// viewer is who asks: the hash of the browser's seat token, and the
// account logged in (0 for a guest); and the browser's seat cookie
// itself, from which its invitations are made (invite.go).
type viewer struct {
	token  string
	user   int64
	cookie string
}

// player is the viewer as the round knows him.
func (v viewer) player() round.Player { return round.Player{Token: v.token, User: v.user} }

// viewer is who makes the request.
func (r *request) viewer() viewer {
	var id int64
	if r.user != nil {
		id = r.user.ID
	}
	return viewer{token: r.token, user: id, cookie: r.cookie}
}

// seat is the seat the viewer of r takes: under its username if logged
// in, else under name as a guest (account.GuestName: cleaned, or
// "Anonymous"; refused if too long, or if it would pass for the engine,
// someone in charge or an account). It gives the browser its seat token
// if it has none.
func (s *Server) seat(r *request, name string) (round.Seat, error) {
	if r.user != nil {
		return round.Seat{Name: r.user.Name, User: r.user.ID, Bot: r.user.Bot, Token: r.identify(true)}, nil
	}
	var err error
	if s.accounts != nil {
		name, err = s.accounts.GuestName(r.Context(), name)
	} else {
		name, err = account.GuestName(name)
	}
	var bad *account.NameError
	switch {
	case errors.As(err, &bad):
		return round.Seat{}, err
	case err != nil:
		s.metrics.storeErrors.Add(1)
		s.log.Error("guest name", "err", err)
		return round.Seat{}, errAccountStorage
	}
	return round.Seat{Name: name, Token: r.identify(true)}, nil
}

type userKey struct{}

// userOf is the account logged in for a request's context, or nil.
func userOf(ctx context.Context) *account.User {
	u, _ := ctx.Value(userKey{}).(*account.User)
	return u
}

// userID is the ID of the account logged in for ctx, 0 for a guest.
func userID(ctx context.Context) int64 {
	if u := userOf(ctx); u != nil {
		return u.ID
	}
	return 0
}

// authenticate puts the account of an API request's session cookie into
// its context (userOf). A cookie of no session (ended, expired) is
// cleared.
func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie(sessionCookie)
		if s.accounts == nil || err != nil || c.Value == "" || !strings.HasPrefix(r.URL.Path, "/api/") {
			next.ServeHTTP(w, r)
			return
		}
		u, err := s.accounts.User(r.Context(), c.Value)
		switch {
		case err == nil:
			r = r.WithContext(context.WithValue(r.Context(), userKey{}, u))
		case errors.Is(err, account.ErrNotFound):
			s.setSession(w, r, "")
		default:
			s.metrics.storeErrors.Add(1)
			s.log.Error("session", "err", err)
			writeError(w, errAccountStorage)
			return
		}
		next.ServeHTTP(w, r)
	})
}

var (
	errAccountStorage = failure(http.StatusServiceUnavailable, codeAccountsDown, "the accounts cannot be reached just now; please try again")
	errNoAccounts     = failure(http.StatusNotImplemented, codeNoAccounts, "this server keeps no accounts")
)

// secure reports whether the request came over TLS: to this server, or
// to the proxy in front of it when the server is configured to trust one.
// It decides for every cookie the site sets (the session, the seats'
// emergo_id, the language) whether it is Secure.
func (s *Server) secure(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	if len(s.cfg.TrustedProxies) == 0 {
		return false // the header is a client's
	}
	proto := r.Header.Get("X-Forwarded-Proto")
	if i := strings.LastIndexByte(proto, ','); i >= 0 {
		proto = proto[i+1:]
	}
	return strings.EqualFold(strings.TrimSpace(proto), "https")
}

// setSession sets the session cookie to token, or clears it if token is
// "". It is HttpOnly (no script reads it), SameSite=Lax (no other site's
// form or script sends it) and Secure whenever the site is served over
// TLS.
func (s *Server) setSession(w http.ResponseWriter, r *http.Request, token string) {
	c := &http.Cookie{
		Name: sessionCookie, Value: token, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: s.secure(r),
		MaxAge: int(s.accounts.SessionLife().Seconds()),
	}
	if token == "" {
		c.MaxAge = -1
	}
	http.SetCookie(w, c)
}

// userJSON is an account as the API shows it to its owner: its name,
// the language it chose for the site ("" for none yet) and its
// preferences (prefs.go).
type userJSON struct {
	Name  string    `json:"name"`
	Lang  string    `json:"lang"`
	Prefs prefsJSON `json:"prefs"`
	// Bot says that the account is a bot's.
	Bot bool `json:"bot"`
}

// me is the viewer's account as the API shows it, or nil.
func me(u *account.User) *userJSON {
	if u == nil {
		return nil
	}
	return &userJSON{Name: u.Name, Lang: u.Lang, Prefs: toPrefsJSON(u.Prefs), Bot: u.Bot}
}

type credentials struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

func (s *Server) handleSignup(r *request) (int, any, error) { return s.logIn(r, true) }

func (s *Server) handleLogin(r *request) (int, any, error) { return s.logIn(r, false) }

// logIn signs up or logs in with the request's credentials, and rotates
// the session: the browser gets a new token, and the session it had, if
// any, ends.
func (s *Server) logIn(r *request, signup bool) (int, any, error) {
	if s.accounts == nil {
		return 0, nil, errNoAccounts
	}
	var req credentials
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	how, status := s.accounts.LogIn, http.StatusOK
	if signup {
		how, status = s.accounts.SignUp, http.StatusCreated
	}
	u, token, err := how(r.Context(), req.Username, req.Password, clientAddr(r.Request))
	if err != nil {
		return 0, nil, s.accountError(r, err)
	}
	if old, err := r.Cookie(sessionCookie); err == nil && old.Value != "" {
		if err := s.accounts.LogOut(r.Context(), old.Value); err != nil {
			s.log.Error("end the session before a login", "err", err)
		}
	}
	s.setSession(r.w, r.Request, token)
	if knownLang(u.Lang) {
		// The browser speaks the account's language from now on, after a
		// logout too, until it is switched.
		s.setLangCookie(r, u.Lang)
	}
	s.log.Info("logged in", "user", u.Name, "signup", signup)
	return status, me(u), nil
}

// accountError gives an error of the accounts its status and message.
func (s *Server) accountError(r *request, err error) error {
	var (
		name     *account.NameError
		password *account.PasswordError
		wait     *account.ThrottledError
	)
	switch {
	case errors.As(err, &name):
		return nameError(name)
	case errors.As(err, &password):
		return passwordError(password)
	case errors.Is(err, account.ErrNameTaken):
		return failure(http.StatusConflict, codeNameTaken, "that username is taken; choose another")
	case errors.Is(err, account.ErrBadToken):
		return failure(http.StatusUnauthorized, codeBadToken, "this API token is not valid: it was revoked, or mistyped")
	case errors.Is(err, account.ErrWrongPassword):
		return failure(http.StatusUnauthorized, codeWrongPassword, "wrong username or password")
	case errors.Is(err, account.ErrHashBusy):
		r.w.Header().Set("Retry-After", "1")
		return failure(http.StatusTooManyRequests, codeHashBusy, "a login or signup of yours is being checked: wait for its answer")
	case errors.Is(err, account.ErrHashQueueFull):
		r.w.Header().Set("Retry-After", "1")
		return failure(http.StatusServiceUnavailable, codeHashQueueFull, "too many logins are being checked just now; try again in a moment")
	case errors.As(err, &wait):
		secs := int(wait.RetryAfter.Seconds())
		r.w.Header().Set("Retry-After", strconv.Itoa(secs))
		code, n := codeThrottledSeconds, secs // as waitText says it
		switch {
		case secs >= 120:
			code, n = codeThrottledMinutes, (secs+59)/60
		case secs >= 60:
			code, n = codeThrottledMinutes, 1
		}
		return &apiError{http.StatusTooManyRequests, code,
			fmt.Sprintf("too many %s attempts: wait %s and try again", wait.What, waitText(secs)),
			map[string]any{"n": n, "what": wait.What}}
	}
	s.metrics.storeErrors.Add(1)
	s.log.Error("accounts", "err", err)
	return errAccountStorage
}

// waitText says a wait in seconds as a person would.
func waitText(secs int) string {
	switch {
	case secs == 1:
		return "a second"
	case secs < 60:
		return fmt.Sprintf("%d seconds", secs)
	case secs < 120:
		return "a minute"
	}
	return fmt.Sprintf("%d minutes", (secs+59)/60)
}

func (s *Server) handleLogout(r *request) (int, any, error) {
	if s.accounts == nil {
		return 0, nil, errNoAccounts
	}
	if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		if err := s.accounts.LogOut(r.Context(), c.Value); err != nil {
			return 0, nil, s.accountError(r, err)
		}
	}
	s.setSession(r.w, r.Request, "")
	return http.StatusOK, nil, nil
}
