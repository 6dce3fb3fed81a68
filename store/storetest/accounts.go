package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"emergo/account"
)

// Accounts runs the suite of an account.Store. open returns an empty
// store; reopen, if not nil, closes it and opens the same data again.
func Accounts(t *testing.T, open func(t *testing.T) account.Store, reopen func(t *testing.T, s account.Store) account.Store) {
	ctx := context.Background()
	user := func(name string) *account.User {
		return &account.User{Name: name, Key: account.Key(name), Password: "$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5a2V5", Created: ms(1000)}
	}
	create := func(t *testing.T, s account.Store, names ...string) []*account.User {
		t.Helper()
		var us []*account.User
		for _, n := range names {
			u := user(n)
			if err := s.CreateUser(ctx, u); err != nil {
				t.Fatalf("create %s: %v", n, err)
			}
			us = append(us, u)
		}
		return us
	}
	t.Run("CreateAndGetUsers", func(t *testing.T) {
		s := open(t)
		us := create(t, s, "Alice", "bob")
		if us[0].ID == 0 || us[1].ID == 0 || us[0].ID == us[1].ID {
			t.Fatalf("IDs %d and %d: want two different, not 0", us[0].ID, us[1].ID)
		}
		for _, u := range us {
			got, err := s.UserByKey(ctx, u.Key)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(u, got); diff != "" {
				t.Errorf("UserByKey(%q) (-want +got):\n%s", u.Key, diff)
			}
			got, err = s.UserByID(ctx, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(u, got); diff != "" {
				t.Errorf("UserByID(%d) (-want +got):\n%s", u.ID, diff)
			}
		}
		for _, u := range us {
			got, err := s.Profile(ctx, u.Key)
			if err != nil {
				t.Fatal(err)
			}
			want := &account.Profile{ID: u.ID, Name: u.Name, Created: u.Created}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Profile(%q) (-want +got):\n%s", u.Key, diff)
			}
		}
		if _, err := s.Profile(ctx, "carol"); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("Profile of nobody: %v, want ErrNotFound", err)
		}
		if _, err := s.UserByKey(ctx, "Alice"); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("UserByKey of the name, not the key: %v, want ErrNotFound", err)
		}
		if _, err := s.UserByKey(ctx, "carol"); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("UserByKey of nobody: %v, want ErrNotFound", err)
		}
		if _, err := s.UserByID(ctx, us[1].ID+100); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("UserByID of nobody: %v, want ErrNotFound", err)
		}
	})
	t.Run("NameTakenWhateverTheCase", func(t *testing.T) {
		s := open(t)
		first := create(t, s, "Alice")[0]
		again := user("ALICE")
		if err := s.CreateUser(ctx, again); !errors.Is(err, account.ErrNameTaken) {
			t.Fatalf("CreateUser(ALICE) after Alice: %v, want ErrNameTaken", err)
		}
		got, err := s.UserByKey(ctx, "alice")
		if err != nil || got.Name != "Alice" || got.ID != first.ID {
			t.Errorf("after the refused signup alice is %+v, %v", got, err)
		}
		// The store goes on after the refusal.
		create(t, s, "bob")
	})
	t.Run("ExactlyOneRacingSignupWins", func(t *testing.T) {
		s := open(t)
		const n = 8
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { errs[i] = s.CreateUser(ctx, user([]string{"carol", "Carol", "CAROL", "cArOl"}[i%4])) })
		}
		wg.Wait()
		wins := 0
		for _, err := range errs {
			switch {
			case err == nil:
				wins++
			case !errors.Is(err, account.ErrNameTaken):
				t.Errorf("racing signup: %v", err)
			}
		}
		if wins != 1 {
			t.Errorf("%d racing signups of one name succeeded, want exactly 1", wins)
		}
	})
	t.Run("Sessions", func(t *testing.T) {
		s := open(t)
		us := create(t, s, "alice", "bob")
		sess := func(hash string, u *account.User) *account.Session {
			return &account.Session{Hash: hash, UserID: u.ID, Created: ms(2000), Expires: ms(2000).Add(30 * 24 * time.Hour)}
		}
		a1, a2, b1 := sess("a1", us[0]), sess("a2", us[0]), sess("b1", us[1])
		for _, x := range []*account.Session{a1, a2, b1} {
			if err := s.CreateSession(ctx, x); err != nil {
				t.Fatal(err)
			}
		}
		check := func(hash string, want *account.Session, wantUser *account.User) {
			t.Helper()
			got, u, err := s.Session(ctx, hash)
			if want == nil {
				if !errors.Is(err, account.ErrNotFound) {
					t.Errorf("Session(%s) = %+v, %v; want ErrNotFound", hash, got, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Session(%s): %v", hash, err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Session(%s) (-want +got):\n%s", hash, diff)
			}
			if diff := cmp.Diff(wantUser, u); diff != "" {
				t.Errorf("Session(%s)'s user (-want +got):\n%s", hash, diff)
			}
		}
		check("a1", a1, us[0])
		check("b1", b1, us[1])
		check("zz", nil, nil)
		if err := s.DeleteSession(ctx, "a1"); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteSession(ctx, "a1"); err != nil {
			t.Errorf("deleting a session twice: %v", err)
		}
		check("a1", nil, nil)
		check("a2", a2, us[0])
		if err := s.CreateSession(ctx, sess("a3", us[0])); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteSessions(ctx, us[0].ID); err != nil {
			t.Fatal(err)
		}
		check("a2", nil, nil)
		check("a3", nil, nil)
		check("b1", b1, us[1])
	})
	t.Run("Lang", func(t *testing.T) {
		s := open(t)
		us := create(t, s, "alice", "bob")
		if us[0].Lang != "" {
			t.Fatalf("a new user's language is %q, want none", us[0].Lang)
		}
		if err := s.SetLang(ctx, us[0].ID, "ru"); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateSession(ctx, &account.Session{Hash: "a", UserID: us[0].ID, Created: ms(2000), Expires: ms(9000)}); err != nil {
			t.Fatal(err)
		}
		for what, get := range map[string]func() (*account.User, error){
			"UserByKey": func() (*account.User, error) { return s.UserByKey(ctx, "alice") },
			"UserByID":  func() (*account.User, error) { return s.UserByID(ctx, us[0].ID) },
			"Session": func() (*account.User, error) {
				_, u, err := s.Session(ctx, "a")
				return u, err
			},
		} {
			if u, err := get(); err != nil || u.Lang != "ru" {
				t.Errorf("%s after SetLang(ru) = %+v, %v; want the language ru", what, u, err)
			}
		}
		if u, err := s.UserByKey(ctx, "bob"); err != nil || u.Lang != "" {
			t.Errorf("bob after alice's SetLang = %+v, %v; want no language", u, err)
		}
		if err := s.SetLang(ctx, us[0].ID, "pt"); err != nil {
			t.Fatal(err)
		}
		if u, err := s.UserByID(ctx, us[0].ID); err != nil || u.Lang != "pt" {
			t.Errorf("after a second SetLang(pt) = %+v, %v; want pt", u, err)
		}
		if err := s.SetLang(ctx, us[1].ID+100, "ru"); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("SetLang of nobody: %v, want ErrNotFound", err)
		}
	})
	t.Run("Prefs", func(t *testing.T) {
		s := open(t)
		us := create(t, s, "alice", "bob")
		if us[0].Prefs != (account.Prefs{}) {
			t.Fatalf("a new user's preferences are %+v, want none", us[0].Prefs)
		}
		if err := s.SetPrefs(ctx, us[0].ID, account.Prefs{Theme: "dark", Board: "wood"}); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateSession(ctx, &account.Session{Hash: "a", UserID: us[0].ID, Created: ms(2000), Expires: ms(9000)}); err != nil {
			t.Fatal(err)
		}
		want := account.Prefs{Theme: "dark", Board: "wood"}
		for what, get := range map[string]func() (*account.User, error){
			"UserByKey": func() (*account.User, error) { return s.UserByKey(ctx, "alice") },
			"UserByID":  func() (*account.User, error) { return s.UserByID(ctx, us[0].ID) },
			"Session": func() (*account.User, error) {
				_, u, err := s.Session(ctx, "a")
				return u, err
			},
		} {
			if u, err := get(); err != nil || u.Prefs != want {
				t.Errorf("%s after SetPrefs = %+v, %v; want %+v", what, u, err, want)
			}
		}
		// A preference given as "" keeps its value.
		if err := s.SetPrefs(ctx, us[0].ID, account.Prefs{Board: "slate", Sound: "off"}); err != nil {
			t.Fatal(err)
		}
		want = account.Prefs{Theme: "dark", Board: "slate", Sound: "off"}
		if u, err := s.UserByID(ctx, us[0].ID); err != nil || u.Prefs != want {
			t.Errorf("after a second SetPrefs = %+v, %v; want %+v", u, err, want)
		}
		if u, err := s.UserByKey(ctx, "bob"); err != nil || u.Prefs != (account.Prefs{}) {
			t.Errorf("bob after alice's SetPrefs = %+v, %v; want none", u, err)
		}
		if err := s.SetPrefs(ctx, us[1].ID+100, account.Prefs{Theme: "light"}); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("SetPrefs of nobody: %v, want ErrNotFound", err)
		}
	})
	if reopen != nil {
		t.Run("SurvivesReopen", func(t *testing.T) {
			s := open(t)
			u := create(t, s, "alice")[0]
			sess := &account.Session{Hash: "h", UserID: u.ID, Created: ms(2000), Expires: ms(9000)}
			if err := s.CreateSession(ctx, sess); err != nil {
				t.Fatal(err)
			}
			s = reopen(t, s)
			got, gu, err := s.Session(ctx, "h")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(sess, got); diff != "" {
				t.Errorf("session after reopening (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(u, gu); diff != "" {
				t.Errorf("user after reopening (-want +got):\n%s", diff)
			}
			// New IDs do not repeat old ones.
			if v := create(t, s, "bob")[0]; v.ID == u.ID {
				t.Errorf("a user created after reopening has the ID %d of another", v.ID)
			}
		})
	}
}
