package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"emergo/account"
)

// Personal API tokens: a program sends its owner's token as
// "Authorization: Bearer TOKEN" and acts as the owner, within the token's
// scopes. A bearer request skips the cross-origin protection, which keeps
// other sites' pages from acting with a browser's cookies: no browser
// sends an Authorization header by itself, so a request carrying a valid
// token was sent by a program that holds it. The token is never logged:
// the request log has the method, the path and the client, and no token
// travels in a path.

type tokenKey struct{}

// tokenOf is the API token a request's context was authenticated with, nil
// for a browser's session or nobody.
func tokenOf(ctx context.Context) *account.Token {
	t, _ := ctx.Value(tokenKey{}).(*account.Token)
	return t
}

// bearer returns the token of an Authorization: Bearer header, and
// whether there is one.
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(token), true
}

// withBearer serves an API request that carries a bearer token as the
// token's owner, straight to next: past the cross-origin protection. A
// token that is none is refused (401, counted on the client's login
// throttle: account.Service.TokenUser). Every other request goes to
// others: the cross-origin protection, then the session cookie.
func (s *Server) withBearer(next, others http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secret, ok := bearer(r)
		if !ok || !strings.HasPrefix(r.URL.Path, "/api/") {
			others.ServeHTTP(w, r)
			return
		}
		if s.accounts == nil || !s.accounts.Tokens() {
			writeError(w, errNoAccounts)
			return
		}
		t, u, err := s.accounts.TokenUser(r.Context(), secret, clientAddr(r))
		if err != nil {
			if errors.Is(err, account.ErrBadToken) {
				w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			}
			writeError(w, s.accountError(&request{Request: r, w: w}, err))
			return
		}
		ctx := context.WithValue(context.WithValue(r.Context(), userKey{}, u), tokenKey{}, t)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// scoped refuses h to a request made with a token that lacks scope (403
// token.scope); a browser's session holds every scope.
func scoped(scope string, h func(*request) (int, any, error)) func(*request) (int, any, error) {
	return func(r *request) (int, any, error) {
		if err := lacksScope(r.Context(), scope); err != nil {
			return 0, nil, err
		}
		return h(r)
	}
}

// lacksScope is the refusal of a request made with an API token that
// lacks scope, nil for one that holds it or is made without a token.
func lacksScope(ctx context.Context, scope string) error {
	if t := tokenOf(ctx); t != nil && !t.Has(scope) {
		return &apiError{http.StatusForbidden, codeTokenScope,
			fmt.Sprintf("this API token lacks the scope %s", scope), map[string]any{"scope": scope}}
	}
	return nil
}

var (
	errLogInFirst  = failure(http.StatusUnauthorized, codeLogInFirst, "log in, or send an API token of your account")
	errSessionOnly = failure(http.StatusForbidden, codeSessionOnly, "API tokens are made and revoked from a logged-in browser, not with a token")
)

// tokenOwner is the account of a request that manages its tokens: one
// logged in with a session, not with a token, so that a token never makes
// another with more scopes.
func (s *Server) tokenOwner(r *request) (*account.User, error) {
	switch {
	case s.accounts == nil || !s.accounts.Tokens():
		return nil, errNoAccounts
	case tokenOf(r.Context()) != nil:
		return nil, errSessionOnly
	case r.user == nil:
		return nil, errLogInFirst
	}
	return r.user, nil
}

// tokenJSON is a token as its owner sees it: never its secret, but once,
// when it is made (Token).
type tokenJSON struct {
	ID          string   `json:"id"`
	Token       string   `json:"token,omitempty"`
	Description string   `json:"description"`
	Scopes      []string `json:"scopes"`
	Created     string   `json:"created"`
}

func tokenView(t *account.Token) tokenJSON {
	return tokenJSON{ID: t.ID, Description: t.Description, Scopes: t.Scopes, Created: t.Created.UTC().Format(time.RFC3339)}
}

// handleCreateToken makes a token of the viewer's account: 201 with its
// secret, shown this once.
func (s *Server) handleCreateToken(r *request) (int, any, error) {
	u, err := s.tokenOwner(r)
	if err != nil {
		return 0, nil, err
	}
	var req struct {
		Description string   `json:"description"`
		Scopes      []string `json:"scopes"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	t, secret, err := s.accounts.CreateToken(r.Context(), u.ID, req.Description, req.Scopes)
	var scope *account.ScopeError
	switch {
	case errors.As(err, &scope):
		return 0, nil, invalid("unknown scope %q: the scopes are %s", scope.Scope, strings.Join(account.Scopes, ", "))
	case errors.Is(err, account.ErrLongDescription):
		return 0, nil, invalid("a token's description has %d characters at most", account.MaxDescription)
	case errors.Is(err, account.ErrTooManyTokens):
		return 0, nil, &apiError{http.StatusConflict, codeTooManyTokens,
			fmt.Sprintf("an account has %d API tokens at most: revoke one first", account.MaxTokens), map[string]any{"n": account.MaxTokens}}
	case err != nil:
		return 0, nil, s.accountError(r, err)
	}
	s.log.Info("token created", "user", u.Name, "token", t.ID, "scopes", strings.Join(t.Scopes, " "))
	out := tokenView(t)
	out.Token = secret
	return http.StatusCreated, out, nil
}

// handleTokens lists the viewer's tokens, the oldest first.
func (s *Server) handleTokens(r *request) (int, any, error) {
	u, err := s.tokenOwner(r)
	if err != nil {
		return 0, nil, err
	}
	list, err := s.accounts.ListTokens(r.Context(), u.ID)
	if err != nil {
		return 0, nil, s.accountError(r, err)
	}
	out := make([]tokenJSON, len(list))
	for i := range list {
		out[i] = tokenView(&list[i])
	}
	return http.StatusOK, map[string]any{"tokens": out}, nil
}

// handleRevokeToken revokes a token of the viewer's: from then on it is
// refused. The answer is the tokens left.
func (s *Server) handleRevokeToken(r *request) (int, any, error) {
	u, err := s.tokenOwner(r)
	if err != nil {
		return 0, nil, err
	}
	err = s.accounts.RevokeToken(r.Context(), u.ID, r.PathValue("id"))
	if errors.Is(err, account.ErrNotFound) {
		return 0, nil, failure(http.StatusNotFound, codeNoToken, "you have no such API token")
	}
	if err != nil {
		return 0, nil, s.accountError(r, err)
	}
	s.log.Info("token revoked", "user", u.Name, "token", r.PathValue("id"))
	return s.handleTokens(r)
}

// handleBotUpgrade makes the viewer's account a bot's, for good: only an
// account that has played no game (aborted ones included) becomes one,
// so that every game of a bot is a program's.
func (s *Server) handleBotUpgrade(r *request) (int, any, error) {
	if s.accounts == nil || !s.accounts.Tokens() {
		return 0, nil, errNoAccounts
	}
	if r.user == nil {
		return 0, nil, errLogInFirst
	}
	if r.user.Bot {
		return http.StatusOK, me(r.user), nil
	}
	err := s.accounts.BecomeBot(r.Context(), r.user.ID, func(ctx context.Context) (bool, error) {
		games, err := s.st.Seated(ctx, "", r.user.ID, 1)
		return len(games) > 0, err
	})
	if errors.Is(err, account.ErrHasGames) {
		return 0, nil, failure(http.StatusConflict, codeHasGames, "only an account that has played no game becomes a bot")
	}
	if err != nil {
		return 0, nil, s.accountError(r, err)
	}
	s.log.Info("bot upgrade", "user", r.user.Name)
	u := *r.user
	u.Bot = true
	return http.StatusOK, me(&u), nil
}
