package account

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"emergo/throttle"
)

// The scopes of a personal API token: what a program holding it may do
// in its owner's name beside reading what the owner may read.
const (
	// ScopeBotPlay plays as a bot: the bot API (/api/bot/...), and the
	// upgrade of the account to a bot.
	ScopeBotPlay = "bot:play"
	// ScopeChallengeWrite posts, accepts, declines and withdraws
	// challenges and rematches.
	ScopeChallengeWrite = "challenge:write"
	// ScopeBoardPlay plays the owner's own games through the game
	// endpoints the pages use (move, resign, abort, draw, take-back).
	ScopeBoardPlay = "board:play"
)

// Scopes are every scope, in the order the API lists them. A token asked
// for without scopes holds all of them.
var Scopes = []string{ScopeBotPlay, ScopeChallengeWrite, ScopeBoardPlay}

// TokenPrefix begins every token's secret, so that a token pasted where
// it should not be is recognised for what it is.
const TokenPrefix = "emg_"

// MaxTokens bounds the tokens of one account, MaxDescription the length
// of a token's description in characters.
const (
	MaxTokens      = 20
	MaxDescription = 100
)

// Token is a personal API token: a secret that its owner's programs send
// as "Authorization: Bearer SECRET". The store keeps the SHA-256 of the
// secret (HashToken), never the secret, which its owner is shown once.
type Token struct {
	ID          string // public: the token's name in the API
	Hash        string // hex SHA-256 of the secret
	UserID      int64
	Description string
	Scopes      []string
	Created     time.Time
}

// Has reports whether t holds scope.
func (t *Token) Has(scope string) bool { return slices.Contains(t.Scopes, scope) }

// Errors of the tokens.
var (
	// ErrBadToken is a bearer token that is no token's: never issued,
	// revoked, or mistyped.
	ErrBadToken = errors.New("account: no such API token")
	// ErrTooManyTokens refuses a token beyond MaxTokens.
	ErrTooManyTokens = fmt.Errorf("account: an account has %d API tokens at most: revoke one first", MaxTokens)
	// ErrLongDescription refuses a description of more than
	// MaxDescription characters.
	ErrLongDescription = fmt.Errorf("account: a token's description has %d characters at most", MaxDescription)
	// ErrHasGames refuses the upgrade to a bot of an account that has
	// played: a bot's games are all a program's.
	ErrHasGames = errors.New("account: only an account that has played no game becomes a bot")
)

// ScopeError is a token asked for with a scope that is none of Scopes.
type ScopeError struct{ Scope string }

func (e *ScopeError) Error() string {
	return fmt.Sprintf("account: unknown scope %q: want some of %s", e.Scope, strings.Join(Scopes, ", "))
}

// TokenStore keeps the API tokens and the accounts' bot marks: an
// account.Store that has them implements it too.
type TokenStore interface {
	// CreateToken stores t if its owner has fewer than max tokens,
	// counted in the same transaction; otherwise ErrTooManyTokens.
	CreateToken(ctx context.Context, t *Token, max int) error
	// Tokens returns the tokens of the account user, the oldest first.
	Tokens(ctx context.Context, user int64) ([]Token, error)
	// DeleteToken deletes the token id of the account user, or returns
	// ErrNotFound (another account's token too).
	DeleteToken(ctx context.Context, user int64, id string) error
	// TokenUser returns the token whose secret has hash, with its owner,
	// or ErrNotFound.
	TokenUser(ctx context.Context, hash string) (*Token, *User, error)
	// SetBot marks the account id a bot's, for good, or returns
	// ErrNotFound.
	SetBot(ctx context.Context, id int64) error
}

// Tokens reports whether the service keeps API tokens (its store does).
func (s *Service) Tokens() bool { return s.tokens != nil }

// CreateToken makes a token of the account user with description and
// scopes (all of them if none) and returns it with its secret, which is
// not kept. The description is cleaned as a name is (CleanName). Errors:
// a *ScopeError, ErrLongDescription, ErrTooManyTokens, or the store's.
func (s *Service) CreateToken(ctx context.Context, user int64, description string, scopes []string) (*Token, string, error) {
	if len(scopes) == 0 {
		scopes = Scopes
	}
	var set []string
	for _, sc := range scopes {
		if !slices.Contains(Scopes, sc) {
			return nil, "", &ScopeError{sc}
		}
		if !slices.Contains(set, sc) {
			set = append(set, sc)
		}
	}
	desc := clean(description)
	if utf8.RuneCountInString(desc) > MaxDescription {
		return nil, "", ErrLongDescription
	}
	var b [32]byte
	rand.Read(b[:])
	secret := TokenPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	var id [9]byte
	rand.Read(id[:])
	t := &Token{
		ID: base64.RawURLEncoding.EncodeToString(id[:]), Hash: HashToken(secret), UserID: user,
		Description: desc, Scopes: set, Created: s.now(),
	}
	if err := s.tokens.CreateToken(ctx, t, MaxTokens); err != nil {
		return nil, "", err
	}
	return t, secret, nil
}

// ListTokens returns the tokens of the account user, the oldest first.
func (s *Service) ListTokens(ctx context.Context, user int64) ([]Token, error) {
	return s.tokens.Tokens(ctx, user)
}

// RevokeToken deletes the token id of the account user: from then on it
// is refused (ErrNotFound if the account has no such token).
func (s *Service) RevokeToken(ctx context.Context, user int64, id string) error {
	return s.tokens.DeleteToken(ctx, user, id)
}

// TokenUser returns the token whose secret a client at addr sent, and its
// owner. Errors: ErrBadToken, a *ThrottledError, or the store's.
//
// A wrong token counts as a wrong password does on the client's login
// throttle (Limits.LoginAddress), and a client throttled there is refused
// before its token is looked at, a right one too, so that guessing
// tokens is as slow as guessing passwords; a right token is given back.
func (s *Service) TokenUser(ctx context.Context, secret, addr string) (*Token, *User, error) {
	address := bucket{s.loginAddress, throttle.ClientKey(addr)}
	if err := s.take(ctx, "token", s.now(), address); err != nil {
		return nil, nil, err
	}
	t, u, err := s.tokens.TokenUser(ctx, HashToken(secret))
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, nil, ErrBadToken
	case err != nil:
		s.giveBack(ctx, address)
		return nil, nil, err
	}
	s.giveBack(ctx, address)
	return t, u, nil
}

// BecomeBot marks the account user a bot's, for good, if hasGames says
// it has played no game. Errors: ErrHasGames, or the store's.
func (s *Service) BecomeBot(ctx context.Context, user int64, hasGames func(context.Context) (bool, error)) error {
	played, err := hasGames(ctx)
	if err != nil {
		return err
	}
	if played {
		return ErrHasGames
	}
	return s.tokens.SetBot(ctx, user)
}
