package server_test

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"emergo/notify"
	"emergo/server"
	"emergo/store/sqlstore"
)

// notificationsView is the answer of GET /api/notifications.
type notificationsView struct {
	Notifications []struct {
		ID      int64   `json:"id"`
		Type    string  `json:"type"`
		Game    *string `json:"game"`
		From    *string `json:"from"`
		Created string  `json:"created"`
		Read    bool    `json:"read"`
	} `json:"notifications"`
	Unread int `json:"unread"`
}

// notes reads c's notifications.
func (c *client) notes(t *testing.T) notificationsView {
	t.Helper()
	var v notificationsView
	c.getJSON(t, "/api/notifications", &v)
	return v
}

// summary writes the notifications as "type game from" lines, the unread
// marked with a star.
func (v notificationsView) summary() []string {
	var out []string
	for _, n := range v.Notifications {
		s := n.Type
		for _, p := range []*string{n.Game, n.From} {
			if p != nil {
				s += " " + *p
			} else {
				s += " -"
			}
		}
		if !n.Read {
			s += " *"
		}
		out = append(out, s)
	}
	return out
}

func equal(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") }

// corrChallenge has bob accept a correspondence challenge of alice's to
// him (she plays White, 7x7, 3 days a move) and returns the game.
func corrChallenge(t *testing.T, alice, bob *client) string {
	t.Helper()
	return acceptedGame(t, alice, bob, map[string]any{"size": 7, "days": 3, "color": "white", "to": "bob"})
}

// TestNotifications: through the API, a direct challenge notifies the
// one challenged; each move of a correspondence game notifies the
// opponent, one unread yourTurn a game however many moves; its end
// notifies both; reading marks them, by ids or all; a live game notifies
// nothing.
func TestNotifications(t *testing.T) {
	e, _ := lobbyEnv(t, nil)
	alice, bob := signUp(t, e, "alice"), signUp(t, e, "bob")
	game := corrChallenge(t, alice, bob)
	if got, want := bob.notes(t).summary(), []string{"challenge - alice *"}; !equal(got, want) {
		t.Errorf("bob's notifications after alice's challenge: %q, want %q", got, want)
	}
	for i, mv := range []string{"a1", "g7", "c1", "e7", "a3"} {
		cl := []*client{alice, bob}[i%2]
		if code, st := cl.move(game, mv, i); code != http.StatusOK {
			t.Fatalf("move %s: %d %+v", mv, code, st)
		}
	}
	if got, want := alice.notes(t).summary(), []string{"yourTurn " + game + " bob *"}; !equal(got, want) {
		t.Errorf("alice's after bob's two moves: %q, want %q", got, want)
	}
	bv := bob.notes(t)
	if got, want := bv.summary(), []string{"yourTurn " + game + " alice *", "challenge - alice *"}; !equal(got, want) || bv.Unread != 2 {
		t.Errorf("bob's after alice's three moves: %q (%d unread), want %q", got, bv.Unread, want)
	}
	// Read by id: the next move is a new notification.
	code, _, body := bob.do("POST", "/api/notifications/read", map[string]any{"ids": []int64{bv.Notifications[0].ID}})
	if code != http.StatusOK {
		t.Fatalf("read: %d %s", code, body)
	}
	if code, st := bob.move(game, "g5", 5); code != http.StatusOK {
		t.Fatalf("move: %d %+v", code, st)
	}
	if code, st := alice.move(game, "c3", 6); code != http.StatusOK {
		t.Fatalf("move: %d %+v", code, st)
	}
	want := []string{"yourTurn " + game + " alice *", "yourTurn " + game + " alice", "challenge - alice *"}
	if got := bob.notes(t).summary(); !equal(got, want) {
		t.Errorf("bob's after a read turn and a new move: %q, want %q", got, want)
	}
	if code, st, _ := bob.do("POST", "/api/games/"+game+"/resign", nil); code != http.StatusOK || !st.Over {
		t.Fatalf("resign: %d %+v", code, st)
	}
	if got := alice.notes(t).summary(); len(got) != 2 || got[0] != "gameOver "+game+" bob *" {
		t.Errorf("alice's after bob resigned: %q, want the game over first", got)
	}
	if got := bob.notes(t).summary(); len(got) != 4 || got[0] != "gameOver "+game+" alice *" {
		t.Errorf("bob's after he resigned: %q, want the game over first", got)
	}
	code, _, body = bob.do("POST", "/api/notifications/read", map[string]any{"all": true})
	var after notificationsView
	json.Unmarshal([]byte(body), &after)
	if code != http.StatusOK || after.Unread != 0 || len(after.Notifications) != 4 {
		t.Errorf("read all: %d %s", code, body)
	}
	// A live game between them tells nothing.
	playToResignation(t, bob, alice, ratedGame(t, alice, bob), alice)
	if got := bob.notes(t); got.Unread != 0 {
		t.Errorf("bob has %d unread after a live game: %q", got.Unread, got.summary())
	}
}

// TestNotificationsRefused: the requests the notifications refuse.
func TestNotificationsRefused(t *testing.T) {
	e, _ := lobbyEnv(t, nil)
	alice := signUp(t, e, "alice")
	guest := e.client()
	ids := make([]int64, notify.Kept+1)
	tests := []struct {
		name         string
		c            *client
		method, path string
		body         any
		code         int
		want         string
	}{
		{"a guest's list", guest, "GET", "/api/notifications", nil, http.StatusUnauthorized, "notify.log_in"},
		{"a guest's follow", guest, "POST", "/api/users/alice/follow", map[string]any{}, http.StatusUnauthorized, "notify.log_in"},
		{"a guest's subscription", guest, "POST", "/api/push/subscribe", map[string]any{}, http.StatusUnauthorized, "notify.log_in"},
		{"neither ids nor all", alice, "POST", "/api/notifications/read", map[string]any{}, http.StatusBadRequest, "request.invalid"},
		{"both ids and all", alice, "POST", "/api/notifications/read", map[string]any{"ids": []int{1}, "all": true}, http.StatusBadRequest, "request.invalid"},
		{"too many ids", alice, "POST", "/api/notifications/read", map[string]any{"ids": ids}, http.StatusBadRequest, "request.invalid"},
		{"oneself", alice, "POST", "/api/users/alice/follow", map[string]any{}, http.StatusBadRequest, "follow.self"},
		{"nobody", alice, "POST", "/api/users/nobody/follow", map[string]any{}, http.StatusNotFound, "player.not_found"},
		{"an http endpoint", alice, "POST", "/api/push/subscribe", subscription("http://push.example/1", nil), http.StatusBadRequest, "push.invalid_subscription"},
		{"a loopback endpoint", alice, "POST", "/api/push/subscribe", subscription("https://127.0.0.1/1", nil), http.StatusBadRequest, "push.invalid_subscription"},
		{"a private endpoint", alice, "POST", "/api/push/subscribe", subscription("https://10.1.2.3/1", nil), http.StatusBadRequest, "push.invalid_subscription"},
		{"no keys", alice, "POST", "/api/push/subscribe", map[string]any{"endpoint": "https://push.example/1"}, http.StatusBadRequest, "push.invalid_subscription"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, body := tc.c.do(tc.method, tc.path, tc.body)
			var got struct{ Code string }
			json.Unmarshal([]byte(body), &got)
			if code != tc.code || got.Code != tc.want {
				t.Errorf("%d %s, want %d %s", code, body, tc.code, tc.want)
			}
		})
	}
	if code, _, body := alice.do("POST", "/api/push/subscribe", subscription("https://push.example/1", nil)); code != http.StatusCreated {
		t.Errorf("a good subscription: %d %s", code, body)
	}
}

// TestNotificationsBounded: an account keeps its latest notify.Kept
// notifications; the list and the marks go no further.
func TestNotificationsBounded(t *testing.T) {
	st, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	e, _ := lobbyEnv(t, st)
	alice, bob := signUp(t, e, "alice"), signUp(t, e, "bob")
	var ids [2]int64
	for i, name := range []string{"alice", "bob"} {
		var p struct{ Name string }
		alice.getJSON(t, "/api/users/"+name, &p)
		u, err := st.UserByKey(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = u.ID
	}
	for i := range notify.Kept + 20 {
		n := notify.Notification{User: ids[0], Type: notify.GameOver, Game: fmt.Sprintf("g%03d", i), From: ids[1], Created: time.UnixMilli(int64(1000 + i))}
		if _, err := st.AddNotification(context.Background(), &n, notify.Kept); err != nil {
			t.Fatal(err)
		}
	}
	v := alice.notes(t)
	if len(v.Notifications) != notify.Kept || v.Unread != notify.Kept || *v.Notifications[0].Game != fmt.Sprintf("g%03d", notify.Kept+19) ||
		*v.Notifications[notify.Kept-1].Game != "g020" {
		t.Errorf("%d notifications, %d unread, from %s to %s; want the latest %d", len(v.Notifications), v.Unread,
			*v.Notifications[0].Game, *v.Notifications[len(v.Notifications)-1].Game, notify.Kept)
	}
	if bob.notes(t).Unread != 0 {
		t.Error("bob has alice's notifications")
	}
}

// TestFollow: a follow is told to the followed player once, shows on
// both profiles, lists his games going on, and ends with an unfollow.
func TestFollow(t *testing.T) {
	e, _ := lobbyEnv(t, nil)
	alice, bob, carol := signUp(t, e, "alice"), signUp(t, e, "bob"), signUp(t, e, "carol")
	for range 2 {
		if code, _, body := alice.do("POST", "/api/users/Bob/follow", map[string]any{}); code != http.StatusOK || !strings.Contains(body, `"following":true`) {
			t.Fatalf("follow: %d %s", code, body)
		}
	}
	if got, want := bob.notes(t).summary(), []string{"follower - alice *"}; !equal(got, want) {
		t.Errorf("bob's notifications after alice followed him twice: %q, want %q", got, want)
	}
	type profile struct {
		Followers int   `json:"followers"`
		Following int   `json:"following"`
		YouFollow *bool `json:"youFollow"`
		Self      bool  `json:"self"`
	}
	var p profile
	alice.getJSON(t, "/api/users/bob", &p)
	if p.Followers != 1 || p.Following != 0 || p.YouFollow == nil || !*p.YouFollow || p.Self {
		t.Errorf("bob's profile as alice sees it: %+v", p)
	}
	p = profile{}
	alice.getJSON(t, "/api/users/alice", &p)
	if p.Followers != 0 || p.Following != 1 || p.YouFollow != nil || !p.Self {
		t.Errorf("alice's own profile: %+v", p)
	}
	var lists struct {
		Followers []struct{ Name string } `json:"followers"`
		Following []struct{ Name string } `json:"following"`
	}
	e.client().getJSON(t, "/api/users/bob/followers", &lists)
	e.client().getJSON(t, "/api/users/alice/following", &lists)
	if len(lists.Followers) != 1 || lists.Followers[0].Name != "alice" || len(lists.Following) != 1 || lists.Following[0].Name != "bob" {
		t.Errorf("the lists: %+v", lists)
	}
	// Bob's games going on, and not carol's, are alice's to watch.
	game := corrChallenge(t, carol, bob)
	var games struct {
		Games []struct {
			ID    string `json:"id"`
			White string `json:"white"`
			Black string `json:"black"`
			Days  int    `json:"days"`
		} `json:"games"`
	}
	alice.getJSON(t, "/api/following/games", &games)
	if len(games.Games) != 1 || games.Games[0].ID != game || games.Games[0].White != "carol" || games.Games[0].Days != 3 {
		t.Errorf("alice's followed games: %+v, want %s", games, game)
	}
	if code, _, body := alice.do("POST", "/api/users/bob/unfollow", map[string]any{}); code != http.StatusOK || !strings.Contains(body, `"following":false`) {
		t.Fatalf("unfollow: %d %s", code, body)
	}
	games.Games = nil
	alice.getJSON(t, "/api/following/games", &games)
	if len(games.Games) != 0 {
		t.Errorf("alice still sees %+v after the unfollow", games)
	}
	p = profile{}
	alice.getJSON(t, "/api/users/bob", &p)
	if p.Followers != 0 || p.YouFollow == nil || *p.YouFollow {
		t.Errorf("bob's profile after the unfollow: %+v", p)
	}
}

// pushKeys are a browser's keys for Web Push: its ECDH key pair and
// authentication secret.
type pushKeys struct {
	priv *ecdh.PrivateKey
	auth []byte
}

func newPushKeys(t *testing.T) *pushKeys {
	t.Helper()
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	rand.Read(auth)
	return &pushKeys{priv, auth}
}

// subscription is the body of a browser's subscription to endpoint, with
// k's keys (fresh ones for nil).
func subscription(endpoint string, k *pushKeys) map[string]any {
	if k == nil {
		priv, _ := ecdh.P256().GenerateKey(rand.Reader)
		k = &pushKeys{priv, make([]byte, 16)}
	}
	enc := base64.RawURLEncoding.EncodeToString
	return map[string]any{"endpoint": endpoint, "expirationTime": nil,
		"keys": map[string]any{"p256dh": enc(k.priv.PublicKey().Bytes()), "auth": enc(k.auth)}}
}

func hmacSHA256(key []byte, parts ...[]byte) []byte {
	m := hmac.New(sha256.New, key)
	for _, p := range parts {
		m.Write(p)
	}
	return m.Sum(nil)
}

// decrypt opens a push message's body, encrypted for k as RFC 8291 and
// RFC 8188 (aes128gcm) say: the header (salt, record size, the
// server's public key), the keys derived by HKDF, one record whose
// padding ends with the delimiter 2.
func (k *pushKeys) decrypt(body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("no header")
	}
	salt, idlen := body[:16], int(body[20])
	if binary.BigEndian.Uint32(body[16:20]) < 18 || len(body) < 21+idlen {
		return nil, errors.New("a bad header")
	}
	asPub, err := ecdh.P256().NewPublicKey(body[21 : 21+idlen])
	if err != nil {
		return nil, fmt.Errorf("the key id is not the server's public key: %w", err)
	}
	secret, err := k.priv.ECDH(asPub)
	if err != nil {
		return nil, err
	}
	uaPub := k.priv.PublicKey().Bytes()
	prkKey := hmacSHA256(k.auth, secret)
	ikm := hmacSHA256(prkKey, []byte("WebPush: info\x00"), uaPub, asPub.Bytes(), []byte{1})
	prk := hmacSHA256(salt, ikm)
	cek := hmacSHA256(prk, []byte("Content-Encoding: aes128gcm\x00\x01"))[:16]
	nonce := hmacSHA256(prk, []byte("Content-Encoding: nonce\x00\x01"))[:12]
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, body[21+idlen:], nil)
	if err != nil {
		return nil, err
	}
	plain = bytes.TrimRight(plain, "\x00")
	if len(plain) == 0 || plain[len(plain)-1] != 2 {
		return nil, errors.New("no last record's delimiter")
	}
	return plain[:len(plain)-1], nil
}

// received is a request that reached the test's push service.
type received struct {
	header http.Header
	body   []byte
}

// pushService is the test's push service (RFC 8030): it takes every
// message, and hands it to the test.
func pushService(t *testing.T) (*httptest.Server, <-chan received) {
	t.Helper()
	got := make(chan received, 16)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- received{r.Header.Clone(), body}
		w.WriteHeader(http.StatusCreated)
	}))
	t.Cleanup(ts.Close)
	return ts, got
}

// checkVAPID checks the request's VAPID authorization (RFC 8292): the
// server's public key, and a JWT for the push service's origin signed
// with its private key.
func checkVAPID(t *testing.T, h http.Header, origin, serverKey string) {
	t.Helper()
	auth := h.Get("Authorization")
	token, key, ok := strings.Cut(strings.TrimPrefix(auth, "vapid t="), ", k=")
	if !ok || key != serverKey {
		t.Fatalf("Authorization %q: want vapid t=..., k=%s", auth, serverKey)
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("the JWT %q has not three parts", token)
	}
	var claims struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
		Sub string `json:"sub"`
	}
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	if err := json.Unmarshal(payload, &claims); err != nil || claims.Aud != origin || claims.Exp < time.Now().Unix() || claims.Sub == "" {
		t.Errorf("the JWT's claims %s (%v): want aud %s, a later exp, a sub", payload, err, origin)
	}
	pub, _ := base64.RawURLEncoding.DecodeString(serverKey)
	pk, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), pub)
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if err != nil || len(sig) != 64 || !ecdsa.Verify(pk, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		t.Error("the JWT's signature is not the server's key's")
	}
}

// nextPush waits for the next message of the push service, opens it
// for k and returns what it says.
func nextPush(t *testing.T, got <-chan received, k *pushKeys, origin, serverKey string) notify.Message {
	t.Helper()
	var r received
	select {
	case r = <-got:
	case <-time.After(patience):
		t.Fatal("no push message came")
	}
	if r.header.Get("Content-Encoding") != "aes128gcm" || r.header.Get("TTL") == "" {
		t.Errorf("Content-Encoding %q, TTL %q: want aes128gcm and a TTL", r.header.Get("Content-Encoding"), r.header.Get("TTL"))
	}
	checkVAPID(t, r.header, origin, serverKey)
	plain, err := k.decrypt(r.body)
	if err != nil {
		t.Fatalf("the push message does not decrypt: %v", err)
	}
	var m notify.Message
	if err := json.Unmarshal(plain, &m); err != nil {
		t.Fatalf("the push message %q: %v", plain, err)
	}
	return m
}

// pushEnv is a server with accounts whose pushes may go to the test's
// local push service.
func pushEnv(t *testing.T) *env {
	t.Helper()
	st, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	return accountEnv(t, server.Config{Store: st, Push: notify.PushConfig{Local: true}})
}

// TestPushOnCorrespondenceMove: a correspondence move of alice's reaches
// bob's subscribed browser through its push service, encrypted for it
// and signed with the site's VAPID key: the push says whose turn against
// whom and opens the game; once unsubscribed, nothing is pushed.
func TestPushOnCorrespondenceMove(t *testing.T) {
	e := pushEnv(t)
	ps, got := pushService(t)
	alice, bob := signUp(t, e, "alice"), signUp(t, e, "bob")
	var key struct{ Key string }
	bob.getJSON(t, "/api/push/key", &key)
	k := newPushKeys(t)
	if code, _, body := bob.do("POST", "/api/push/subscribe", subscription(ps.URL+"/sub/bob", k)); code != http.StatusCreated {
		t.Fatalf("subscribe: %d %s", code, body)
	}
	game := corrChallenge(t, alice, bob)
	if m := nextPush(t, got, k, ps.URL, key.Key); m.Type != notify.Challenge || m.From != "alice" || m.URL != "/lobby" {
		t.Errorf("the challenge's push: %+v", m)
	}
	if code, st := alice.move(game, "a1", 0); code != http.StatusOK {
		t.Fatalf("move: %d %+v", code, st)
	}
	// Bob chose no language: the browser's own is the service worker's.
	want := notify.Message{Type: notify.YourTurn, Game: game, From: "alice", URL: "/g/" + game}
	if m := nextPush(t, got, k, ps.URL, key.Key); m != want {
		t.Errorf("the move's push: %+v, want %+v", m, want)
	}
	if code, _, body := bob.do("POST", "/api/push/unsubscribe", map[string]any{"endpoint": ps.URL + "/sub/bob"}); code != http.StatusOK {
		t.Fatalf("unsubscribe: %d %s", code, body)
	}
	if code, st := bob.move(game, "g7", 1); code != http.StatusOK {
		t.Fatalf("move: %d %+v", code, st)
	}
	if code, st := alice.move(game, "c1", 2); code != http.StatusOK {
		t.Fatalf("move: %d %+v", code, st)
	}
	// Nothing more reaches the push service: the notification is stored
	// all the same.
	if n := bob.notes(t); n.Unread != 2 {
		t.Errorf("bob has %d unread, want the challenge and the turn", n.Unread)
	}
	select {
	case r := <-got:
		t.Errorf("a push after the unsubscription: %v", r.header)
	default:
	}
}

// notifiedOnce: a correspondence game between players on two servers
// tells each move once, to the player to move, whichever server took it;
// its end by the deadline, which both servers' sweeps race to make, is
// told once to each player.
func notifiedOnce(t *testing.T, c *cluster) {
	alice, bob := signUp(t, c.a, "alice"), signUp(t, c.b, "bob")
	game := corrChallenge(t, alice, bob)
	for i, mv := range []string{"a1", "g7", "c1"} {
		cl := []*client{alice, bob.on(c.a), alice.on(c.b)}[i]
		if code, st := cl.move(game, mv, i); code != http.StatusOK {
			t.Fatalf("move %s: %d %+v", mv, code, st)
		}
	}
	if got, want := alice.notes(t).summary(), []string{"yourTurn " + game + " bob *"}; !equal(got, want) {
		t.Errorf("alice's notifications: %q, want %q", got, want)
	}
	if got, want := bob.notes(t).summary(), []string{"yourTurn " + game + " alice *", "challenge - alice *"}; !equal(got, want) {
		t.Errorf("bob's notifications: %q, want %q", got, want)
	}
	c.advance(4 * 24 * time.Hour)
	waitFor(t, alice, game, func(st state) bool { return st.Over })
	waitFor(t, bob, game, func(st state) bool { return st.Over })
	for _, p := range []struct {
		c    *client
		name string
	}{{alice, "alice"}, {bob, "bob"}} {
		over := 0
		for _, n := range p.c.notes(t).Notifications {
			if n.Type == notify.GameOver {
				over++
			}
		}
		if over != 1 {
			t.Errorf("%s has %d gameOver notifications, want 1: %q", p.name, over, p.c.notes(t).summary())
		}
	}
}
