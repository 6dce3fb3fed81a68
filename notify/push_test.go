package notify

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// subStore is a Store of one account's subscriptions; removed hears of
// each removal.
type subStore struct {
	Store
	subs    []Subscription
	removed chan string
}

func (s *subStore) Subscriptions(context.Context, int64) ([]Subscription, error) { return s.subs, nil }

func (s *subStore) RemoveSubscription(_ context.Context, user int64, endpoint string) error {
	s.removed <- endpoint
	return nil
}

type count struct{ atomic.Int64 }

func (c *count) Add(n int64) { c.Int64.Add(n) }

func testSubscription(endpoint string) Subscription {
	k, _ := ecdh.P256().GenerateKey(rand.Reader)
	enc := base64.RawURLEncoding.EncodeToString
	return Subscription{User: 1, Endpoint: endpoint, P256dh: enc(k.PublicKey().Bytes()), Auth: enc(make([]byte, 16))}
}

func testKeys(t *testing.T) Keys {
	t.Helper()
	k, err := NewKeys()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestSendNeverWaits: with its queue full, Send drops the notification
// and counts it, at once.
func TestSendNeverWaits(t *testing.T) {
	var dropped count
	p := NewPusher(PushConfig{Store: &subStore{}, Keys: testKeys(t), Queue: 2, Dropped: &dropped})
	for i, want := range []bool{true, true, false, false} {
		if got := p.Send(Notification{User: 1, Type: YourTurn, Game: "g"}); got != want {
			t.Errorf("send %d: %v, want %v", i, got, want)
		}
	}
	if dropped.Load() != 2 {
		t.Errorf("%d dropped, want 2", dropped.Load())
	}
}

// TestGoneSubscriptionForgotten: a subscription that its push service
// says is gone (410) is removed; a refusal is counted as failed.
func TestGoneSubscriptionForgotten(t *testing.T) {
	ps := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusGone)
	}))
	defer ps.Close()
	st := &subStore{subs: []Subscription{testSubscription(ps.URL + "/gone")}, removed: make(chan string, 1)}
	var failed count
	p := NewPusher(PushConfig{Store: st, Keys: testKeys(t), Local: true, Failed: &failed})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		p.Run(ctx)
		close(done)
	}()
	defer func() {
		cancel()
		<-done
	}()
	p.Send(Notification{User: 1, Type: YourTurn, Game: "g"})
	select {
	case got := <-st.removed:
		if got != ps.URL+"/gone" {
			t.Errorf("removed %q", got)
		}
	case <-time.After(time.Minute):
		t.Fatal("the gone subscription was not removed")
	}
}

// TestNotLocalRefused: a Pusher that is not Local dials no address but
// public ones, whatever the name resolves to.
func TestNotLocalRefused(t *testing.T) {
	var calls atomic.Int64
	ps := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1) }))
	defer ps.Close()
	p := NewPusher(PushConfig{Store: &subStore{}, Keys: testKeys(t)})
	status, err := p.send(context.Background(), []byte("{}"), testSubscription(ps.URL+"/x"), "")
	if err == nil || calls.Load() != 0 {
		t.Errorf("a push to %s: status %d, %v, %d calls; want refused at the dial", ps.URL, status, err, calls.Load())
	}
}

func TestCheckSubscription(t *testing.T) {
	good := testSubscription("https://push.example/abc")
	tests := []struct {
		name  string
		local bool
		sub   func(s Subscription) Subscription
		ok    bool
	}{
		{"good", false, func(s Subscription) Subscription { return s }, true},
		{"http", false, func(s Subscription) Subscription { s.Endpoint = "http://push.example/abc"; return s }, false},
		{"http, local", true, func(s Subscription) Subscription { s.Endpoint = "http://127.0.0.1:9/abc"; return s }, true},
		{"loopback", false, func(s Subscription) Subscription { s.Endpoint = "https://127.0.0.1/abc"; return s }, false},
		{"private v6", false, func(s Subscription) Subscription { s.Endpoint = "https://[fd00::1]/abc"; return s }, false},
		{"user info", false, func(s Subscription) Subscription { s.Endpoint = "https://a:b@push.example/abc"; return s }, false},
		{"not a url", false, func(s Subscription) Subscription { s.Endpoint = "push"; return s }, false},
		{"long", false, func(s Subscription) Subscription { s.Endpoint += string(make([]byte, MaxEndpoint)); return s }, false},
		{"bad key", false, func(s Subscription) Subscription { s.P256dh = "AAAA"; return s }, false},
		{"short auth", false, func(s Subscription) Subscription { s.Auth = "AAAA"; return s }, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := NewPusher(PushConfig{Store: &subStore{}, Keys: testKeys(t), Local: tc.local})
			if err := p.CheckSubscription(tc.sub(good)); (err == nil) != tc.ok {
				t.Errorf("CheckSubscription: %v, want ok %v", err, tc.ok)
			}
		})
	}
}

// TestLoadKeys: the keys are made once, readable by their owner alone,
// and read back as they were; a file of keys that do not match is
// refused.
func TestLoadKeys(t *testing.T) {
	file := filepath.Join(t.TempDir(), "vapid.json")
	made, err := LoadKeys(file)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the key file: %v, %v; want mode 0600", fi.Mode(), err)
	}
	again, err := LoadKeys(file)
	if err != nil || again != made {
		t.Errorf("read again: %v, %v; want %v", again, err, made)
	}
	other := testKeys(t)
	os.WriteFile(file, []byte(`{"public": "`+other.Public+`", "private": "`+made.Private+`"}`), 0o600)
	if _, err := LoadKeys(file); err == nil {
		t.Error("keys that do not match were taken")
	}
}
