// Package account is the site's people: usernames and display names,
// passwords hashed with argon2id, sessions, and the throttling of the
// attempts to log in. Its storage is the small Store interface below,
// implemented by store/sqlstore; the server turns its answers into HTTP.
package account

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"emergo/throttle"
)

// User is an account.
type User struct {
	ID   int64
	Name string // as its owner wrote it at sign-up
	// Key is Name in lower case, unique among users.
	Key      string
	Password string // the argon2id hash in PHC format (HashPassword)
	Created  time.Time
	// Lang is the language its owner chose for the site ("en", "pt",
	// "ru", "lfn"), or "" until he chooses one.
	Lang string
}

// Profile is what anyone may know of an account: its name and age, and
// not its password. The profile pages show it.
type Profile struct {
	ID      int64
	Name    string
	Created time.Time
}

// Session is a logged-in browser. The store keeps the SHA-256 of the
// session's token, never the token: a copy of the database does not log
// anyone in.
type Session struct {
	Hash    string // hex SHA-256 of the token
	UserID  int64
	Created time.Time
	Expires time.Time
}

// Errors of every Store, and of the Service.
var (
	ErrNotFound  = errors.New("account: not found")
	ErrNameTaken = errors.New("account: that username is taken")
)

// Store keeps users and sessions.
type Store interface {
	// CreateUser stores u, setting u.ID; ErrNameTaken if a user has
	// u.Key already.
	CreateUser(ctx context.Context, u *User) error
	// UserByKey returns the user whose Key is key, or ErrNotFound.
	UserByKey(ctx context.Context, key string) (*User, error)
	// UserByID returns the user id, or ErrNotFound.
	UserByID(ctx context.Context, id int64) (*User, error)
	// Profile returns the public part of the user whose Key is key, or
	// ErrNotFound: the password hash does not leave the store.
	Profile(ctx context.Context, key string) (*Profile, error)
	// CreateSession stores a session of an existing user.
	CreateSession(ctx context.Context, s *Session) error
	// Session returns the session whose token has hash, with its user,
	// or ErrNotFound.
	Session(ctx context.Context, hash string) (*Session, *User, error)
	// DeleteSession deletes the session with hash, if there is one.
	DeleteSession(ctx context.Context, hash string) error
	// DeleteSessions deletes every session of a user.
	DeleteSessions(ctx context.Context, userID int64) error
	// SetLang sets the language of the user id, or returns ErrNotFound.
	SetLang(ctx context.Context, id int64, lang string) error
}

// ErrWrongPassword is the answer to a login whose username or password is
// wrong: it does not say which, so that it does not tell who has an
// account.
var ErrWrongPassword = errors.New("account: wrong username or password")

// ThrottledError refuses an attempt made too soon after too many.
type ThrottledError struct {
	What       string // "login" or "signup"
	RetryAfter time.Duration
}

func (e *ThrottledError) Error() string {
	return fmt.Sprintf("account: too many %s attempts; try again in %s", e.What, e.RetryAfter)
}

// Config configures a Service; the zero value of a field means its
// default.
type Config struct {
	Params Params // default DefaultParams
	Limits Limits // a zero Limit is DefaultLimits' one
	// Throttles keeps the throttles' counts, default in memory: a store
	// shared by several servers makes the limits hold across them.
	Throttles throttle.Store
	// SessionLife is how long a session lasts, default 30 days.
	SessionLife time.Duration
	// Hashers bounds the password hashes computed at once (each takes
	// Params.Memory), default 2.
	Hashers int
	Now     func() time.Time // default time.Now
}

// Service signs people up and in, on a Store.
type Service struct {
	st      Store
	params  Params
	life    time.Duration
	now     func() time.Time
	hashers chan struct{}
	// dummy is a hash checked when the username is unknown, so that a
	// login takes as long whether the account exists or not; made at the
	// first need.
	dummy func() string

	loginAccount, loginAddress, signupAddress throttle.Limiter
}

// New returns a Service on st.
func New(st Store, cfg Config) *Service {
	if cfg.Params == (Params{}) {
		cfg.Params = DefaultParams
	}
	for _, l := range []struct{ set, def *throttle.Limit }{
		{&cfg.Limits.LoginAccount, &DefaultLimits.LoginAccount},
		{&cfg.Limits.LoginAddress, &DefaultLimits.LoginAddress},
		{&cfg.Limits.SignupAddress, &DefaultLimits.SignupAddress},
	} {
		if *l.set == (throttle.Limit{}) {
			*l.set = *l.def
		}
	}
	if cfg.SessionLife <= 0 {
		cfg.SessionLife = 30 * 24 * time.Hour
	}
	if cfg.Hashers <= 0 {
		cfg.Hashers = 2
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Throttles == nil {
		cfg.Throttles = throttle.NewMemory()
	}
	return &Service{
		st: st, params: cfg.Params, life: cfg.SessionLife, now: cfg.Now,
		hashers:       make(chan struct{}, cfg.Hashers),
		dummy:         sync.OnceValue(func() string { return HashPassword("not anyone's password", cfg.Params) }),
		loginAccount:  cfg.Throttles.Limiter("login-account", cfg.Limits.LoginAccount),
		loginAddress:  cfg.Throttles.Limiter("login-address", cfg.Limits.LoginAddress),
		signupAddress: cfg.Throttles.Limiter("signup-address", cfg.Limits.SignupAddress),
	}
}

// SessionLife is how long a new session lasts.
func (s *Service) SessionLife() time.Duration { return s.life }

// hashing runs f while holding one of the hashers, or returns ctx's error.
func (s *Service) hashing(ctx context.Context, f func()) error {
	select {
	case s.hashers <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.hashers }()
	f()
	return nil
}

// SignUp creates the account name with password for a client at addr and
// logs it in: it returns the user and the new session's token. Errors: a
// *NameError, a *PasswordError, ErrNameTaken, a *ThrottledError, or the
// store's.
func (s *Service) SignUp(ctx context.Context, name, password, addr string) (*User, string, error) {
	if err := CheckUsername(name); err != nil {
		return nil, "", err
	}
	if err := CheckPassword(password); err != nil {
		return nil, "", err
	}
	key := Key(name)
	if _, err := s.st.UserByKey(ctx, key); err == nil {
		return nil, "", ErrNameTaken
	} else if !errors.Is(err, ErrNotFound) {
		return nil, "", err
	}
	if wait, err := s.signupAddress.Take(ctx, throttle.ClientKey(addr), s.now()); err != nil {
		return nil, "", err
	} else if wait > 0 {
		return nil, "", &ThrottledError{"signup", retryAfter(wait)}
	}
	u := &User{Name: name, Key: key, Created: s.now()}
	if err := s.hashing(ctx, func() { u.Password = HashPassword(password, s.params) }); err != nil {
		return nil, "", err
	}
	if err := s.st.CreateUser(ctx, u); err != nil {
		return nil, "", err
	}
	token, err := s.startSession(ctx, u.ID)
	if err != nil {
		return nil, "", err
	}
	return u, token, nil
}

// LogIn checks name and password for a client at addr and starts a
// session: it returns the user and the session's token. Errors:
// ErrWrongPassword, a *ThrottledError, or the store's.
func (s *Service) LogIn(ctx context.Context, name, password, addr string) (*User, string, error) {
	now := s.now()
	key, akey := Key(name), throttle.ClientKey(addr)
	if wait, err := s.loginAccount.Take(ctx, key, now); err != nil {
		return nil, "", err
	} else if wait > 0 {
		return nil, "", &ThrottledError{"login", retryAfter(wait)}
	}
	// An attempt that ends before the password is checked is not one,
	// and a success is given back. The request's context may be what
	// ended it: the refunds go on without it. A refund that fails leaves
	// an attempt counted, which the bucket drains in time.
	bg := context.WithoutCancel(ctx)
	if wait, err := s.loginAddress.Take(ctx, akey, now); err != nil || wait > 0 {
		s.loginAccount.Give(bg, key)
		if err != nil {
			return nil, "", err
		}
		return nil, "", &ThrottledError{"login", retryAfter(wait)}
	}
	refund := func() {
		s.loginAccount.Give(bg, key)
		s.loginAddress.Give(bg, akey)
	}
	u, err := s.st.UserByKey(ctx, key)
	if err != nil && !errors.Is(err, ErrNotFound) {
		refund()
		return nil, "", err
	}
	var ok bool
	var verr error
	err = s.hashing(ctx, func() {
		if u == nil {
			VerifyPassword(s.dummy(), password) // as long as a real check
			return
		}
		ok, verr = VerifyPassword(u.Password, password)
	})
	if err != nil {
		refund()
		return nil, "", err
	}
	if verr != nil {
		return nil, "", fmt.Errorf("account: user %d: %w", u.ID, verr)
	}
	if u == nil || !ok {
		return nil, "", ErrWrongPassword
	}
	s.loginAccount.Forget(bg, key)
	s.loginAddress.Give(bg, akey)
	token, err := s.startSession(ctx, u.ID)
	if err != nil {
		return nil, "", err
	}
	return u, token, nil
}

// startSession stores a new session of user and returns its token: 32
// random bytes in unpadded base64url.
func (s *Service) startSession(ctx context.Context, user int64) (string, error) {
	var b [32]byte
	rand.Read(b[:])
	token := base64.RawURLEncoding.EncodeToString(b[:])
	now := s.now()
	if err := s.st.CreateSession(ctx, &Session{Hash: HashToken(token), UserID: user, Created: now, Expires: now.Add(s.life)}); err != nil {
		return "", err
	}
	return token, nil
}

// HashToken is what the store keeps of a session token: its SHA-256 in
// hex.
func HashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// User returns the user logged in with token, or ErrNotFound if the token
// is no session's or its session has expired (expired sessions are
// deleted as they are met).
func (s *Service) User(ctx context.Context, token string) (*User, error) {
	if token == "" {
		return nil, ErrNotFound
	}
	hash := HashToken(token)
	sess, u, err := s.st.Session(ctx, hash)
	if err != nil {
		return nil, err
	}
	if !s.now().Before(sess.Expires) {
		if err := s.st.DeleteSession(ctx, hash); err != nil {
			return nil, err
		}
		return nil, ErrNotFound
	}
	return u, nil
}

// Profile returns the public profile of the account name, whatever the
// case it is written in, or ErrNotFound; a name no account may have is
// not looked for.
func (s *Service) Profile(ctx context.Context, name string) (*Profile, error) {
	if CheckUsername(name) != nil {
		return nil, ErrNotFound
	}
	return s.st.Profile(ctx, Key(name))
}

// LogOut ends the session of token; ending one that is not there is not an
// error.
func (s *Service) LogOut(ctx context.Context, token string) error {
	if token == "" {
		return nil
	}
	return s.st.DeleteSession(ctx, HashToken(token))
}

// SetLang remembers the language the user id chose for the site. The
// caller checks that the site has it.
func (s *Service) SetLang(ctx context.Context, id int64, lang string) error {
	return s.st.SetLang(ctx, id, lang)
}

// LogOutEverywhere ends every session of a user.
func (s *Service) LogOutEverywhere(ctx context.Context, userID int64) error {
	return s.st.DeleteSessions(ctx, userID)
}
