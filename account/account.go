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
	// Bot says that a program plays the account (Service.BecomeBot).
	Bot bool
	// Prefs are how its owner likes the site to look and sound.
	Prefs Prefs
}

// Prefs are how an account likes the site to look and sound, each ""
// until its owner chooses (then the browser's choice or the site's
// default holds). The server checks the values; the store keeps them.
type Prefs struct {
	Theme string // the colours: "system", "light" or "dark"
	Board string // the board's theme: "green", "wood" or "slate"
	Sound string // the sounds of play: "on" or "off"
}

// Profile is what anyone may know of an account: its name and age, and
// not its password. The profile pages show it.
type Profile struct {
	ID      int64
	Name    string
	Created time.Time
	Bot     bool
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
	// SetPrefs sets the preferences of p that are not "" for the user
	// id, keeping the others, or returns ErrNotFound.
	SetPrefs(ctx context.Context, id int64, p Prefs) error
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
	// Params.Memory), default 2; a client has one of them at most.
	Hashers int
	// HashWaiting bounds the logins and signups waiting for a hasher,
	// one a client at most, default 32: past it they are refused
	// (ErrHashQueueFull) rather than kept waiting.
	HashWaiting int
	Now         func() time.Time // default time.Now
}

// Service signs people up and in, on a Store.
type Service struct {
	st     Store
	params Params
	life   time.Duration
	now    func() time.Time
	gate   *gate
	// hash and verify are HashPassword and VerifyPassword, which a test
	// of the gate holds back.
	hash   func(password string, p Params) string
	verify func(encoded, password string) (bool, error)
	// dummy is a hash checked when the username is unknown, so that a
	// login takes as long whether the account exists or not; made at the
	// first need.
	dummy func() string

	loginPair, loginAccount, loginAddress, signupAddress, signupNetwork throttle.Limiter
	// tokens keeps the API tokens, nil if the store does not.
	tokens TokenStore
}

// New returns a Service on st.
func New(st Store, cfg Config) *Service {
	if cfg.Params == (Params{}) {
		cfg.Params = DefaultParams
	}
	for _, l := range []struct{ set, def *throttle.Limit }{
		{&cfg.Limits.LoginPair, &DefaultLimits.LoginPair},
		{&cfg.Limits.LoginAccount, &DefaultLimits.LoginAccount},
		{&cfg.Limits.LoginAddress, &DefaultLimits.LoginAddress},
		{&cfg.Limits.SignupAddress, &DefaultLimits.SignupAddress},
		{&cfg.Limits.SignupNetwork, &DefaultLimits.SignupNetwork},
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
	if cfg.HashWaiting <= 0 {
		cfg.HashWaiting = 32
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Throttles == nil {
		cfg.Throttles = throttle.NewMemory()
	}
	s := &Service{
		st: st, params: cfg.Params, life: cfg.SessionLife, now: cfg.Now,
		gate: newGate(cfg.Hashers, cfg.HashWaiting),
		hash: HashPassword, verify: VerifyPassword,
		loginPair:     cfg.Throttles.Limiter("login-pair", cfg.Limits.LoginPair),
		loginAccount:  cfg.Throttles.Limiter("login-account", cfg.Limits.LoginAccount),
		loginAddress:  cfg.Throttles.Limiter("login-address", cfg.Limits.LoginAddress),
		signupAddress: cfg.Throttles.Limiter("signup-address", cfg.Limits.SignupAddress),
		signupNetwork: cfg.Throttles.Limiter("signup-network", cfg.Limits.SignupNetwork),
	}
	s.tokens, _ = st.(TokenStore)
	s.dummy = sync.OnceValue(func() string { return HashPassword("not anyone's password", cfg.Params) })
	return s
}

// SessionLife is how long a new session lasts.
func (s *Service) SessionLife() time.Duration { return s.life }

// bucket is an attempt counted on a throttle, to be given back if the
// attempt ends before it is made.
type bucket struct {
	l   throttle.Limiter
	key string
}

// take counts an attempt at now on each bucket in turn. If one refuses it,
// or fails, the ones taken before are given back and take returns the
// refusal (a *ThrottledError for what) or the failure.
func (s *Service) take(ctx context.Context, what string, now time.Time, buckets ...bucket) error {
	for i, b := range buckets {
		wait, err := b.l.Take(ctx, b.key, now)
		if err == nil && wait == 0 {
			continue
		}
		s.giveBack(ctx, buckets[:i]...)
		if err != nil {
			return err
		}
		return &ThrottledError{what, retryAfter(wait)}
	}
	return nil
}

// giveBack gives back the attempts counted on buckets. The request's
// context may be what ended the attempt: the refunds go on without it. A
// refund that fails leaves an attempt counted, which the bucket drains in
// time.
func (s *Service) giveBack(ctx context.Context, buckets ...bucket) {
	bg := context.WithoutCancel(ctx)
	for _, b := range buckets {
		b.l.Give(bg, b.key)
	}
}

// SignUp creates the account name with password for a client at addr and
// logs it in: it returns the user and the new session's token. Errors: a
// *NameError, a *PasswordError, ErrNameTaken, a *ThrottledError,
// ErrHashBusy, ErrHashQueueFull, or the store's.
//
// The checks run cheapest first: the name and the password, the
// throttles of the client's address and of its wider network, the name's
// lookup, and last the hash, behind the fair gate. Only an account made
// counts on the throttles.
func (s *Service) SignUp(ctx context.Context, name, password, addr string) (*User, string, error) {
	if err := CheckUsername(name); err != nil {
		return nil, "", err
	}
	if err := CheckPassword(password); err != nil {
		return nil, "", err
	}
	client := throttle.ClientKey(addr)
	counted := []bucket{{s.signupAddress, client}, {s.signupNetwork, throttle.NetworkKey(addr)}}
	if err := s.take(ctx, "signup", s.now(), counted...); err != nil {
		return nil, "", err
	}
	u, err := s.signUp(ctx, name, password, client)
	if err != nil {
		s.giveBack(ctx, counted...)
		return nil, "", err
	}
	token, err := s.startSession(ctx, u.ID)
	if err != nil {
		return nil, "", err
	}
	return u, token, nil
}

func (s *Service) signUp(ctx context.Context, name, password, client string) (*User, error) {
	key := Key(name)
	if _, err := s.st.UserByKey(ctx, key); err == nil {
		return nil, ErrNameTaken
	} else if !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	u := &User{Name: name, Key: key, Created: s.now()}
	if err := s.gate.do(ctx, client, func() { u.Password = s.hash(password, s.params) }); err != nil {
		return nil, err
	}
	if err := s.st.CreateUser(ctx, u); err != nil {
		return nil, err
	}
	return u, nil
}

// LogIn checks name and password for a client at addr and starts a
// session: it returns the user and the session's token. Errors:
// ErrWrongPassword, a *ThrottledError, ErrHashBusy, ErrHashQueueFull, or
// the store's.
//
// The failures are throttled per client address (however many accounts
// it tries), per client and account (so that a client failing on an
// account slows itself, not the account's owner elsewhere), and, more
// loosely, per account from every address (so that guesses spread over
// many addresses stay bounded). The checks run cheapest first: the
// client's throttle, the name's shape (a name that cannot be a username
// fails at once: that it is none is no secret), the account's throttles,
// its lookup, and last the hash, behind the fair gate. An attempt that
// ends before the password is checked is not counted, and a success is
// given back.
func (s *Service) LogIn(ctx context.Context, name, password, addr string) (*User, string, error) {
	now := s.now()
	key, client := Key(name), throttle.ClientKey(addr)
	address := bucket{s.loginAddress, client}
	if err := s.take(ctx, "login", now, address); err != nil {
		return nil, "", err
	}
	if usernameShape(name) != nil {
		return nil, "", ErrWrongPassword
	}
	pair := bucket{s.loginPair, client + " " + key}
	counted := []bucket{address, pair, {s.loginAccount, key}}
	if err := s.take(ctx, "login", now, counted[1:]...); err != nil {
		s.giveBack(ctx, address)
		return nil, "", err
	}
	u, err := s.st.UserByKey(ctx, key)
	if err != nil && !errors.Is(err, ErrNotFound) {
		s.giveBack(ctx, counted...)
		return nil, "", err
	}
	var ok bool
	var verr error
	err = s.gate.do(ctx, client, func() {
		if u == nil {
			s.verify(s.dummy(), password) // as long as a real check
			return
		}
		ok, verr = s.verify(u.Password, password)
	})
	if err != nil {
		s.giveBack(ctx, counted...)
		return nil, "", err
	}
	if verr != nil {
		return nil, "", fmt.Errorf("account: user %d: %w", u.ID, verr)
	}
	if u == nil || !ok {
		return nil, "", ErrWrongPassword
	}
	// The owner's own failures are forgotten; the account's from
	// everywhere are not, or each of his logins would free a distributed
	// guesser's attempts.
	s.loginPair.Forget(context.WithoutCancel(ctx), pair.key)
	s.giveBack(ctx, address, counted[2])
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
// case it is written in, or ErrNotFound; a name not of a username's shape
// is not looked for.
func (s *Service) Profile(ctx context.Context, name string) (*Profile, error) {
	if usernameShape(name) != nil {
		return nil, ErrNotFound
	}
	return s.st.Profile(ctx, Key(name))
}

// GuestName is the name a guest plays under, as the package's GuestName
// makes it, refused too (NameReserved) when it is an account's username,
// whatever its case: a guest cannot pass for a player with an account.
func (s *Service) GuestName(ctx context.Context, name string) (string, error) {
	c, err := GuestName(name)
	if err != nil {
		return "", err
	}
	if _, err := s.Profile(ctx, c); err == nil {
		return "", reservedName(c)
	} else if !errors.Is(err, ErrNotFound) {
		return "", err
	}
	return c, nil
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

// SetPrefs remembers the preferences of p that are not "" for the user
// id. The caller checks their values.
func (s *Service) SetPrefs(ctx context.Context, id int64, p Prefs) error {
	return s.st.SetPrefs(ctx, id, p)
}

// LogOutEverywhere ends every session of a user.
func (s *Service) LogOutEverywhere(ctx context.Context, userID int64) error {
	return s.st.DeleteSessions(ctx, userID)
}
