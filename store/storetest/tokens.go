package storetest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"emergo/account"
)

// TokenStore is a store of accounts with their API tokens and bot marks.
type TokenStore interface {
	account.Store
	account.TokenStore
}

// Tokens runs the suite of an account.TokenStore. open returns an empty
// store.
func Tokens(t *testing.T, open func(t *testing.T) TokenStore) {
	ctx := context.Background()
	users := func(t *testing.T, s TokenStore) (*account.User, *account.User) {
		t.Helper()
		var us [2]*account.User
		for i, name := range []string{"alice", "bob"} {
			us[i] = &account.User{Name: name, Key: name, Password: "x", Created: ms(1000)}
			if err := s.CreateUser(ctx, us[i]); err != nil {
				t.Fatal(err)
			}
		}
		return us[0], us[1]
	}
	token := func(id string, user int64) *account.Token {
		return &account.Token{ID: id, Hash: "hash-" + id, UserID: user, Description: "the " + id,
			Scopes: []string{account.ScopeBotPlay, account.ScopeBoardPlay}, Created: ms(2000)}
	}
	t.Run("CreateFindListDelete", func(t *testing.T) {
		s := open(t)
		alice, bob := users(t, s)
		a1, a2, b1 := token("a1", alice.ID), token("a2", alice.ID), token("b1", bob.ID)
		for _, tk := range []*account.Token{a1, a2, b1} {
			if err := s.CreateToken(ctx, tk, 5); err != nil {
				t.Fatal(err)
			}
		}
		got, u, err := s.TokenUser(ctx, "hash-a2")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(a2, got); diff != "" {
			t.Errorf("TokenUser (-want +got):\n%s", diff)
		}
		if u.ID != alice.ID || u.Bot {
			t.Errorf("TokenUser's user %d (bot %v): want alice's, %d, not a bot", u.ID, u.Bot, alice.ID)
		}
		list, err := s.Tokens(ctx, alice.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]account.Token{*a1, *a2}, list); diff != "" {
			t.Errorf("Tokens (-want +got):\n%s", diff)
		}
		if err := s.DeleteToken(ctx, bob.ID, "a1"); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("bob deletes alice's token: %v, want ErrNotFound", err)
		}
		if err := s.DeleteToken(ctx, alice.ID, "a1"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.TokenUser(ctx, "hash-a1"); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("a deleted token: %v, want ErrNotFound", err)
		}
		if _, _, err := s.TokenUser(ctx, "hash-b1"); err != nil {
			t.Errorf("bob's token after alice's deletion: %v", err)
		}
	})
	t.Run("Bound", func(t *testing.T) {
		s := open(t)
		alice, bob := users(t, s)
		for i := range 3 {
			if err := s.CreateToken(ctx, token(fmt.Sprint("a", i), alice.ID), 3); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.CreateToken(ctx, token("a3", alice.ID), 3); !errors.Is(err, account.ErrTooManyTokens) {
			t.Errorf("a fourth token of three at most: %v, want ErrTooManyTokens", err)
		}
		if err := s.CreateToken(ctx, token("b0", bob.ID), 3); err != nil {
			t.Errorf("another account's token: %v", err)
		}
	})
	t.Run("Bot", func(t *testing.T) {
		s := open(t)
		alice, _ := users(t, s)
		if err := s.SetBot(ctx, alice.ID); err != nil {
			t.Fatal(err)
		}
		u, err := s.UserByID(ctx, alice.ID)
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Profile(ctx, alice.Key)
		if err != nil {
			t.Fatal(err)
		}
		if !u.Bot || !p.Bot {
			t.Errorf("after SetBot: user bot %v, profile bot %v; want both", u.Bot, p.Bot)
		}
		if err := s.SetBot(ctx, 999); !errors.Is(err, account.ErrNotFound) {
			t.Errorf("SetBot of no account: %v, want ErrNotFound", err)
		}
	})
}
