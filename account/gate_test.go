package account_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"emergo/account"
	"emergo/throttle"
)

// loose lets a client fail as often as the tests of the gate need.
var loose = account.Limits{LoginAddress: throttle.Limit{Burst: 1000, Every: time.Millisecond}}

// flood starts n logins at once from addr, each to an unknown name with
// its own wrong password ("addr-i"), and returns their errors as they end.
func flood(svc *account.Service, addr string, n int) <-chan error {
	out := make(chan error, n)
	for i := range n {
		go func() {
			_, _, err := svc.LogIn(ctx, fmt.Sprintf("nobody%d", i), fmt.Sprintf("%s-%d", addr, i), addr)
			out <- err
		}()
	}
	return out
}

// refusedAtOnce waits for n of errs, each ErrHashBusy.
func refusedAtOnce(t *testing.T, errs <-chan error, n int) {
	t.Helper()
	for i := range n {
		if err := <-errs; !errors.Is(err, account.ErrHashBusy) {
			t.Fatalf("refusal %d of %d: %v, want ErrHashBusy", i+1, n, err)
		}
	}
}

// waitFor polls cond, failing the test if it is still false after a
// generous time: a guard against a hang, not a measure.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

// releaseAll lets every check begun from now on go, until done is
// closed.
func releaseAll(started <-chan string, release chan<- struct{}, done <-chan struct{}) {
	for {
		select {
		case <-started:
			release <- struct{}{}
		case <-done:
			return
		}
	}
}

// A flood of wrong logins from one client holds one hasher at most and
// queues one more at most: the rest are refused at once, and another
// client takes the other hasher while the flood's check still runs.
func TestHashersOneAClient(t *testing.T) {
	svc, _, _ := newServiceWith(t, account.Config{Limits: loose, Hashers: 2})
	svc.SignUp(ctx, "Alice", "password1", "192.0.2.1")
	started, release := account.HoldChecks(svc)

	errs := flood(svc, "203.0.113.66", 20)
	if p := <-started; p[:len("203.0.113.66")] != "203.0.113.66" {
		t.Fatalf("the first check is %q", p)
	}
	refusedAtOnce(t, errs, 18)
	waitFor(t, "the flood's second login to wait", func() bool { return account.HashWaiting(svc) == 1 })

	owner := make(chan error, 1)
	go func() {
		_, _, err := svc.LogIn(ctx, "alice", "password1", "198.51.100.7")
		owner <- err
	}()
	// The flood's check is still held: the owner's begins beside it.
	if p := <-started; p != "password1" {
		t.Fatalf("the check begun after the owner's login is %q, want the owner's", p)
	}
	done := make(chan struct{})
	defer close(done)
	release <- struct{}{} // the two checks held
	release <- struct{}{}
	go releaseAll(started, release, done)
	if err := <-owner; err != nil {
		t.Fatalf("the owner's login: %v", err)
	}
	for range 2 {
		if err := <-errs; !errors.Is(err, account.ErrWrongPassword) {
			t.Errorf("a login of the flood that was checked: %v", err)
		}
	}
}

// With one hasher, a login waits for at most one check of each other
// client, however many logins the others send: two floods of twenty
// logins each put two checks before it, not forty.
func TestHashersRoundRobin(t *testing.T) {
	svc, _, _ := newServiceWith(t, account.Config{Limits: loose, Hashers: 1})
	svc.SignUp(ctx, "Alice", "password1", "192.0.2.1")
	started, release := account.HoldChecks(svc)

	a := flood(svc, "203.0.113.1", 20)
	<-started // the first of A's, holding the hasher
	refusedAtOnce(t, a, 18)
	waitFor(t, "A's second login to wait", func() bool { return account.HashWaiting(svc) == 1 })
	c := flood(svc, "203.0.113.3", 20)
	refusedAtOnce(t, c, 19)
	waitFor(t, "C's login to wait", func() bool { return account.HashWaiting(svc) == 2 })

	owner := make(chan error, 1)
	go func() {
		_, _, err := svc.LogIn(ctx, "alice", "password1", "198.51.100.7")
		owner <- err
	}()
	waitFor(t, "the owner's login to wait", func() bool { return account.HashWaiting(svc) == 3 })
	const others = 2 // A and C
	before := 0
	for {
		release <- struct{}{}
		if p := <-started; p == "password1" {
			break
		}
		before++
	}
	if before > others {
		t.Errorf("%d checks ran between the owner's login and its check, want at most %d (one of each other client)", before, others)
	}
	done := make(chan struct{})
	defer close(done)
	release <- struct{}{}
	go releaseAll(started, release, done)
	if err := <-owner; err != nil {
		t.Fatalf("the owner's login: %v", err)
	}
	for _, errs := range []<-chan error{a, a, c} {
		if err := <-errs; !errors.Is(err, account.ErrWrongPassword) {
			t.Errorf("a login of a flood that was checked: %v", err)
		}
	}
}

// The logins waiting for a hasher are bounded in all: past HashWaiting
// they are refused at once (ErrHashQueueFull), and one that gives up
// leaves its place.
func TestHashQueueBounded(t *testing.T) {
	svc, _, _ := newServiceWith(t, account.Config{Limits: loose, Hashers: 1, HashWaiting: 3})
	started, release := account.HoldChecks(svc)
	first := flood(svc, "203.0.113.100", 1)
	<-started
	cctx, cancel := context.WithCancel(ctx)
	gaveUp := make(chan error, 1)
	go func() {
		_, _, err := svc.LogIn(cctx, "nobody", "gives-up", "203.0.113.200")
		gaveUp <- err
	}()
	waitFor(t, "the login that gives up to wait", func() bool { return account.HashWaiting(svc) == 1 })
	waiting := []<-chan error{flood(svc, "203.0.113.1", 1), flood(svc, "203.0.113.2", 1)}
	waitFor(t, "three logins to wait", func() bool { return account.HashWaiting(svc) == 3 })
	if _, _, err := svc.LogIn(ctx, "nobody", "x-password", "203.0.113.3"); !errors.Is(err, account.ErrHashQueueFull) {
		t.Fatalf("a fourth client's login: %v, want ErrHashQueueFull", err)
	}
	cancel()
	if err := <-gaveUp; !errors.Is(err, context.Canceled) {
		t.Fatalf("the login that gave up: %v", err)
	}
	if n := account.HashWaiting(svc); n != 2 {
		t.Fatalf("%d logins wait after one gave up, want 2", n)
	}
	done := make(chan struct{})
	defer close(done)
	release <- struct{}{}
	go releaseAll(started, release, done)
	for _, errs := range append(waiting, first) {
		if err := <-errs; !errors.Is(err, account.ErrWrongPassword) {
			t.Errorf("a login that waited: %v", err)
		}
	}
}
