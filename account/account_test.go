package account_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"emergo/account"
	"emergo/throttle"
)

// memStore is an account.Store in memory.
type memStore struct {
	mu       sync.Mutex
	users    []*account.User
	sessions map[string]account.Session
}

func newMem() *memStore { return &memStore{sessions: map[string]account.Session{}} }

func (m *memStore) CreateUser(_ context.Context, u *account.User) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, o := range m.users {
		if o.Key == u.Key {
			return account.ErrNameTaken
		}
	}
	u.ID = int64(len(m.users) + 1)
	c := *u
	m.users = append(m.users, &c)
	return nil
}

func (m *memStore) find(ok func(*account.User) bool) (*account.User, error) {
	for _, u := range m.users {
		if ok(u) {
			c := *u
			return &c, nil
		}
	}
	return nil, account.ErrNotFound
}

func (m *memStore) UserByKey(_ context.Context, key string) (*account.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.find(func(u *account.User) bool { return u.Key == key })
}

func (m *memStore) UserByID(_ context.Context, id int64) (*account.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.find(func(u *account.User) bool { return u.ID == id })
}

func (m *memStore) Profile(_ context.Context, key string) (*account.Profile, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	u, err := m.find(func(u *account.User) bool { return u.Key == key })
	if err != nil {
		return nil, err
	}
	return &account.Profile{ID: u.ID, Name: u.Name, Created: u.Created}, nil
}

func (m *memStore) CreateSession(_ context.Context, s *account.Session) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sessions[s.Hash] = *s
	return nil
}

func (m *memStore) Session(_ context.Context, hash string) (*account.Session, *account.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sessions[hash]
	if !ok {
		return nil, nil, account.ErrNotFound
	}
	u, err := m.find(func(u *account.User) bool { return u.ID == s.UserID })
	return &s, u, err
}

func (m *memStore) DeleteSession(_ context.Context, hash string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.sessions, hash)
	return nil
}

func (m *memStore) DeleteSessions(_ context.Context, user int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for h, s := range m.sessions {
		if s.UserID == user {
			delete(m.sessions, h)
		}
	}
	return nil
}

func (m *memStore) SetLang(_ context.Context, id int64, lang string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, u := range m.users {
		if u.ID == id {
			u.Lang = lang
			return nil
		}
	}
	return account.ErrNotFound
}

func (m *memStore) SetPrefs(_ context.Context, id int64, p account.Prefs) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, u := range m.users {
		if u.ID == id {
			for _, f := range [][2]*string{{&u.Prefs.Theme, &p.Theme}, {&u.Prefs.Board, &p.Board}, {&u.Prefs.Sound, &p.Sound}} {
				if *f[1] != "" {
					*f[0] = *f[1]
				}
			}
			return nil
		}
	}
	return account.ErrNotFound
}

// clock is a time that moves only when told.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newService(t *testing.T) (*account.Service, *memStore, *clock) {
	t.Helper()
	return newServiceWith(t, account.Config{})
}

// newServiceWith is a Service of cfg on a new store, with cheap hashes,
// sessions of a day and a clock that moves when told.
func newServiceWith(t *testing.T, cfg account.Config) (*account.Service, *memStore, *clock) {
	t.Helper()
	st, clk := newMem(), &clock{t: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	cfg.Params, cfg.Now, cfg.SessionLife = cheap, clk.now, 24*time.Hour
	return account.New(st, cfg), st, clk
}

var ctx = context.Background()

func TestSignUpAndSessions(t *testing.T) {
	svc, st, clk := newService(t)
	u, token, err := svc.SignUp(ctx, "Alice", "password1", "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	if u.ID == 0 || u.Name != "Alice" || u.Key != "alice" || !u.Created.Equal(clk.now()) {
		t.Errorf("signed up %+v", u)
	}
	if len(token) != 43 {
		t.Errorf("token %q: want 43 characters of base64url (32 bytes)", token)
	}
	for h := range st.sessions {
		if h == token || h != account.HashToken(token) {
			t.Errorf("the store keeps %q for token %q, want its SHA-256", h, token)
		}
	}
	if ok, err := account.VerifyPassword(st.users[0].Password, "password1"); !ok || err != nil {
		t.Errorf("the stored hash does not verify: %v %v", ok, err)
	}
	me, err := svc.User(ctx, token)
	if err != nil || me.ID != u.ID {
		t.Fatalf("User(token) = %+v, %v", me, err)
	}

	// A new login is a new session; logging out ends only that one.
	_, token2, err := svc.LogIn(ctx, "ALICE", "password1", "192.0.2.1")
	if err != nil || token2 == token {
		t.Fatalf("LogIn = %q, %v (first token %q)", token2, err, token)
	}
	if err := svc.LogOut(ctx, token2); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.User(ctx, token2); !errors.Is(err, account.ErrNotFound) {
		t.Errorf("after logout User = %v, want ErrNotFound", err)
	}
	if _, err := svc.User(ctx, token); err != nil {
		t.Errorf("the other session ended too: %v", err)
	}
	if err := svc.LogOut(ctx, "no such token"); err != nil {
		t.Errorf("logging out twice: %v", err)
	}

	// Sessions expire, and are deleted when met.
	clk.advance(24*time.Hour - time.Millisecond)
	if _, err := svc.User(ctx, token); err != nil {
		t.Errorf("a session just before it expires: %v", err)
	}
	clk.advance(time.Millisecond)
	if _, err := svc.User(ctx, token); !errors.Is(err, account.ErrNotFound) {
		t.Errorf("an expired session: %v, want ErrNotFound", err)
	}
	if len(st.sessions) != 0 {
		t.Errorf("%d sessions left after the last expired", len(st.sessions))
	}

	_, t3, _ := svc.LogIn(ctx, "alice", "password1", "192.0.2.1")
	_, t4, _ := svc.LogIn(ctx, "alice", "password1", "192.0.2.1")
	if err := svc.LogOutEverywhere(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{t3, t4} {
		if _, err := svc.User(ctx, tok); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("after logging out everywhere: %v", err)
		}
	}
}

func TestSignUpRefuses(t *testing.T) {
	svc, _, _ := newService(t)
	if _, _, err := svc.SignUp(ctx, "Alice", "password1", "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	var nameErr *account.NameError
	var pwErr *account.PasswordError
	for _, tt := range []struct {
		name, user, password string
		want                 any
	}{
		{"taken", "Alice", "password2", account.ErrNameTaken},
		{"taken in another case", "aLiCe", "password2", account.ErrNameTaken},
		{"bad name", "9lives", "password2", &nameErr},
		{"bidi in the name", "bob\u202e", "password2", &nameErr},
		{"reserved name", "Admin", "password2", &nameErr},
		{"short password", "Bob", "short", &pwErr},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := svc.SignUp(ctx, tt.user, tt.password, "192.0.2.1")
			switch want := tt.want.(type) {
			case error:
				if !errors.Is(err, want) {
					t.Errorf("SignUp = %v, want %v", err, want)
				}
			default:
				if !errors.As(err, want) {
					t.Errorf("SignUp = %v, want a %T", err, want)
				}
			}
		})
	}
}

func TestLogInWrong(t *testing.T) {
	svc, _, _ := newService(t)
	svc.SignUp(ctx, "Alice", "password1", "192.0.2.1")
	for _, tt := range []struct{ name, user, password string }{
		{"wrong password", "Alice", "password2"},
		{"unknown user", "Carol", "password1"},
		{"empty", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, err := svc.LogIn(ctx, tt.user, tt.password, "192.0.2.2"); !errors.Is(err, account.ErrWrongPassword) {
				t.Errorf("LogIn = %v, want ErrWrongPassword", err)
			}
		})
	}
}

// throttled returns the wait of a *ThrottledError, or 0.
func throttled(t *testing.T, err error) time.Duration {
	t.Helper()
	var te *account.ThrottledError
	if errors.As(err, &te) {
		return te.RetryAfter
	}
	return 0
}

// A client failing on an account slows itself on it, and not the owner
// logging in from his own address: the failures count per client and
// account.
func TestLoginThrottledPerClientAndAccount(t *testing.T) {
	svc, _, clk := newService(t)
	svc.SignUp(ctx, "Alice", "password1", "192.0.2.1")
	const attacker, owner = "203.0.113.66", "198.51.100.7"
	for i := range 5 {
		if _, _, err := svc.LogIn(ctx, "alice", "wrong-pass", attacker); !errors.Is(err, account.ErrWrongPassword) {
			t.Fatalf("failure %d: %v", i+1, err)
		}
	}
	// The attacker's sixth attempt waits a minute, even with the right
	// password...
	if _, _, err := svc.LogIn(ctx, "Alice", "password1", attacker); throttled(t, err) != time.Minute {
		t.Fatalf("the attacker's sixth attempt: %v, want a wait of 1m", err)
	}
	// ...from any address of its /64 too.
	if _, _, err := svc.LogIn(ctx, "Alice", "password1", "203.0.113.66"); throttled(t, err) != time.Minute {
		t.Fatalf("the attacker again: %v, want a wait of 1m", err)
	}
	// The owner logs in meanwhile, from his address.
	if _, _, err := svc.LogIn(ctx, "alice", "password1", owner); err != nil {
		t.Fatalf("the owner, while the attacker is throttled: %v", err)
	}
	// The attacker's other accounts are not slowed down.
	svc.SignUp(ctx, "Bob", "password1", "192.0.2.1")
	if _, _, err := svc.LogIn(ctx, "bob", "password1", attacker); err != nil {
		t.Fatalf("another account from the attacker's address: %v", err)
	}
	clk.advance(59 * time.Second)
	if _, _, err := svc.LogIn(ctx, "alice", "password1", attacker); throttled(t, err) != time.Second {
		t.Fatalf("after 59 s: %v, want a wait of 1s", err)
	}
	clk.advance(time.Second)
	if _, _, err := svc.LogIn(ctx, "alice", "wrong-pass", attacker); !errors.Is(err, account.ErrWrongPassword) {
		t.Fatalf("after a minute: %v, want one more attempt", err)
	}
	if _, _, err := svc.LogIn(ctx, "alice", "wrong-pass", attacker); throttled(t, err) != time.Minute {
		t.Fatalf("at once after it: %v, want a wait of 1m", err)
	}
	// A success clears the client's own failures on the account.
	for range 4 {
		svc.LogIn(ctx, "alice", "wrong-pass", owner)
	}
	if _, _, err := svc.LogIn(ctx, "alice", "password1", owner); err != nil {
		t.Fatalf("the owner after four failures: %v", err)
	}
	for i := range 5 {
		if _, _, err := svc.LogIn(ctx, "alice", "wrong-pass", owner); !errors.Is(err, account.ErrWrongPassword) {
			t.Fatalf("failure %d after a success: %v", i+1, err)
		}
	}
}

// The failures on an account from every address together are bounded,
// more loosely: a guess spread over many addresses stops at the bound, for
// everyone, and a success does not clear it.
func TestLoginThrottledPerAccount(t *testing.T) {
	svc, _, clk := newServiceWith(t, account.Config{Limits: account.Limits{LoginAccount: throttle.Limit{Burst: 10, Every: time.Hour}}})
	svc.SignUp(ctx, "Alice", "password1", "192.0.2.1")
	svc.SignUp(ctx, "Bob", "password1", "192.0.2.1")
	addr := func(i int) string { return fmt.Sprintf("203.0.113.%d", i+1) }
	for i := range 10 {
		if _, _, err := svc.LogIn(ctx, "alice", "wrong-pass", addr(i)); !errors.Is(err, account.ErrWrongPassword) {
			t.Fatalf("failure %d: %v", i+1, err)
		}
	}
	for _, a := range []string{addr(10), "198.51.100.7"} {
		if _, _, err := svc.LogIn(ctx, "alice", "password1", a); throttled(t, err) != time.Hour {
			t.Errorf("the eleventh attempt, from %s: %v, want a wait of 1h", a, err)
		}
	}
	if _, _, err := svc.LogIn(ctx, "bob", "password1", addr(10)); err != nil {
		t.Errorf("another account: %v", err)
	}
	clk.advance(time.Hour)
	if _, _, err := svc.LogIn(ctx, "alice", "password1", "198.51.100.7"); err != nil {
		t.Fatalf("the owner an hour later: %v", err)
	}
	// The success was given back, and no more: one failure more may
	// come, then the bound holds again.
	if _, _, err := svc.LogIn(ctx, "alice", "wrong-pass", addr(11)); !errors.Is(err, account.ErrWrongPassword) {
		t.Fatalf("a failure after the owner's success: %v", err)
	}
	if _, _, err := svc.LogIn(ctx, "alice", "wrong-pass", addr(12)); throttled(t, err) != time.Hour {
		t.Fatalf("the next: %v, want a wait of 1h", err)
	}
}

// With the default limits, one client failing on an account as fast as
// it may, for a day, never keeps the owner out: its 60 attempts an hour
// drain from the account's bucket faster than they fill it.
func TestLoginOneClientCannotLockAnAccount(t *testing.T) {
	svc, _, clk := newService(t)
	svc.SignUp(ctx, "Alice", "password1", "192.0.2.1")
	failures := 0
	for end := clk.now().Add(24 * time.Hour); clk.now().Before(end); {
		_, _, err := svc.LogIn(ctx, "alice", "wrong-pass", "203.0.113.66")
		switch wait := throttled(t, err); {
		case wait > 0:
			clk.advance(wait)
			continue
		case !errors.Is(err, account.ErrWrongPassword):
			t.Fatalf("attempt %d: %v", failures+1, err)
		}
		if failures++; failures%100 == 0 {
			if _, _, err := svc.LogIn(ctx, "alice", "password1", "198.51.100.7"); err != nil {
				t.Fatalf("the owner after %d failures of another client: %v", failures, err)
			}
		}
	}
	if failures < 24*60 {
		t.Errorf("%d failures in a day, want the pair's 5 and one a minute", failures)
	}
}

func TestLoginThrottledPerAddress(t *testing.T) {
	svc, _, clk := newService(t)
	svc.SignUp(ctx, "Alice", "password1", "192.0.2.1")
	names := func(i int) string { return string(rune('a'+i%26)) + "user" + string(rune('a'+i/26)) }
	// Twenty failures against twenty accounts from one address...
	for i := range 20 {
		if _, _, err := svc.LogIn(ctx, names(i), "wrong-pass", "2001:db8::1"); !errors.Is(err, account.ErrWrongPassword) {
			t.Fatalf("failure %d: %v", i+1, err)
		}
	}
	// ...and the address waits, for any account, from any address of its
	// IPv6 /64.
	_, _, err := svc.LogIn(ctx, "Alice", "password1", "2001:db8::ffff")
	if wait := throttled(t, err); wait != 15*time.Second {
		t.Fatalf("21st attempt: %v, want a wait of 15s", err)
	}
	// Another address is not slowed down.
	if _, _, err := svc.LogIn(ctx, "Alice", "password1", "2001:db8:0:1::1"); err != nil {
		t.Fatalf("another /64: %v", err)
	}
	clk.advance(15 * time.Second)
	if _, _, err := svc.LogIn(ctx, "Alice", "password1", "2001:db8::1"); err != nil {
		t.Fatalf("after 15 s: %v", err)
	}
	// A success was given back: one more attempt is free at once.
	if _, _, err := svc.LogIn(ctx, "zzz", "wrong-pass", "2001:db8::1"); !errors.Is(err, account.ErrWrongPassword) {
		t.Fatalf("after a success: %v", err)
	}
	if _, _, err := svc.LogIn(ctx, "zzz", "wrong-pass", "2001:db8::1"); throttled(t, err) == 0 {
		t.Fatalf("the address is not slowed down again: %v", err)
	}
}

func TestSignUpThrottledPerAddress(t *testing.T) {
	svc, _, clk := newService(t)
	for i := range 10 {
		if _, _, err := svc.SignUp(ctx, "user"+string(rune('a'+i)), "password1", "::ffff:192.0.2.1"); err != nil {
			t.Fatalf("signup %d: %v", i+1, err)
		}
	}
	_, _, err := svc.SignUp(ctx, "userk", "password1", "192.0.2.1")
	if wait := throttled(t, err); wait != 6*time.Minute {
		t.Fatalf("eleventh signup: %v, want a wait of 6m", err)
	}
	clk.advance(6 * time.Minute)
	if _, _, err := svc.SignUp(ctx, "userk", "password1", "192.0.2.1"); err != nil {
		t.Fatalf("six minutes later: %v", err)
	}
}

func TestProfile(t *testing.T) {
	svc, _, clk := newService(t)
	u, _, err := svc.SignUp(ctx, "Alice", "password1", "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	want := &account.Profile{ID: u.ID, Name: "Alice", Created: clk.now()}
	tests := []struct {
		name, lookup string
		want         *account.Profile
	}{
		{"as written", "Alice", want},
		{"in another case", "aLICE", want},
		{"nobody", "bob", nil},
		{"no username at all", "al ice", nil},
		{"empty", "", nil},
	}
	for _, tc := range tests {
		got, err := svc.Profile(ctx, tc.lookup)
		if tc.want == nil {
			if !errors.Is(err, account.ErrNotFound) {
				t.Errorf("%s: Profile(%q) = %+v, %v; want ErrNotFound", tc.name, tc.lookup, got, err)
			}
			continue
		}
		if err != nil || *got != *tc.want {
			t.Errorf("%s: Profile(%q) = %+v, %v; want %+v", tc.name, tc.lookup, got, err, tc.want)
		}
	}
}

// Signups count per client and, more loosely, per its /24 (IPv4) or /48
// (IPv6): neighbours signing up together pass, a flood spread over a
// network stops at its bound, and other networks are served meanwhile.
func TestSignUpThrottledPerNetwork(t *testing.T) {
	for _, tc := range []struct {
		name  string
		addr  func(i int) string // the i-th neighbour
		other string             // an address of another network
	}{
		{"IPv4 /24", func(i int) string { return fmt.Sprintf("192.0.2.%d", i+1) }, "192.0.3.1"},
		{"IPv6 /48", func(i int) string { return fmt.Sprintf("2001:db8:1:%x::1", i+1) }, "2001:db8:2::1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svc, _, clk := newService(t)
			n := 0
			signUp := func(addr string) error {
				n++
				_, _, err := svc.SignUp(ctx, fmt.Sprintf("user%d", n), "password1", addr)
				return err
			}
			// Four neighbours at once.
			for i := range 4 {
				if err := signUp(tc.addr(i)); err != nil {
					t.Fatalf("neighbour %d: %v", i+1, err)
				}
			}
			// A flood from the network, each address once: twenty in
			// all, then one every three minutes.
			for i := 4; i < 20; i++ {
				if err := signUp(tc.addr(i)); err != nil {
					t.Fatalf("signup %d of the network: %v", i+1, err)
				}
			}
			if err := signUp(tc.addr(20)); throttled(t, err) != 3*time.Minute {
				t.Fatalf("the 21st of the network: %v, want a wait of 3m", err)
			}
			if err := signUp(tc.other); err != nil {
				t.Fatalf("another network meanwhile: %v", err)
			}
			clk.advance(3 * time.Minute)
			if err := signUp(tc.addr(21)); err != nil {
				t.Fatalf("three minutes later: %v", err)
			}
			if err := signUp(tc.addr(22)); throttled(t, err) == 0 {
				t.Fatalf("at once after it: %v, want a wait", err)
			}
		})
	}
}

// A refused signup is not counted: names taken and hashes refused give
// their attempt back.
func TestSignUpRefusedNotCounted(t *testing.T) {
	svc, _, _ := newServiceWith(t, account.Config{Limits: account.Limits{SignupAddress: throttle.Limit{Burst: 2, Every: time.Hour}}})
	if _, _, err := svc.SignUp(ctx, "alice", "password1", "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, _, err := svc.SignUp(ctx, "Alice", "password1", "192.0.2.1"); !errors.Is(err, account.ErrNameTaken) {
			t.Fatalf("a taken name: %v", err)
		}
	}
	if _, _, err := svc.SignUp(ctx, "bob", "password1", "192.0.2.1"); err != nil {
		t.Fatalf("the second account: %v", err)
	}
	if _, _, err := svc.SignUp(ctx, "carol", "password1", "192.0.2.1"); throttled(t, err) != time.Hour {
		t.Fatalf("the third: %v, want a wait of 1h", err)
	}
}

// A guest cannot play under an account's username, whatever its case; a
// name of no username's shape is not looked for.
func TestServiceGuestName(t *testing.T) {
	svc, _, _ := newService(t)
	svc.SignUp(ctx, "Alice", "password1", "192.0.2.1")
	for _, tt := range []struct {
		in, want string
		reserved bool
	}{
		{"alice", "", true},
		{" ALICE ", "", true},
		{"Alice Smith", "Alice Smith", false},
		{"Bob", "Bob", false},
		{"Emergo level 2", "", true},
	} {
		got, err := svc.GuestName(ctx, tt.in)
		var ne *account.NameError
		if tt.reserved {
			if !errors.As(err, &ne) || ne.Problem != account.NameReserved {
				t.Errorf("GuestName(%q) = %q, %v; want NameReserved", tt.in, got, err)
			}
		} else if err != nil || got != tt.want {
			t.Errorf("GuestName(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}
