package notify

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"sync"
	"syscall"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"

	"emergo/account"
)

// Keys are a site's VAPID keys (RFC 8292): a P-256 key pair, base64url
// without padding as webpush-go takes them, the public key uncompressed
// (65 bytes) as the browsers' applicationServerKey.
type Keys struct {
	Public  string `json:"public"`
	Private string `json:"private"`
}

// NewKeys makes a VAPID key pair.
func NewKeys() (Keys, error) {
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		return Keys{}, err
	}
	return keysOf(k), nil
}

func keysOf(k *ecdh.PrivateKey) Keys {
	enc := base64.RawURLEncoding.EncodeToString
	return Keys{Public: enc(k.PublicKey().Bytes()), Private: enc(k.Bytes())}
}

// Check reports whether k is a P-256 key pair: the private key's, and the
// public key the one it makes.
func (k Keys) Check() error {
	priv, err := base64.RawURLEncoding.DecodeString(k.Private)
	if err != nil {
		return fmt.Errorf("notify: VAPID private key: %w", err)
	}
	key, err := ecdh.P256().NewPrivateKey(priv)
	if err != nil {
		return fmt.Errorf("notify: VAPID private key: %w", err)
	}
	if keysOf(key).Public != k.Public {
		return errors.New("notify: the VAPID public key is not the private key's")
	}
	return nil
}

// LoadKeys reads the VAPID keys of file (JSON, {"public", "private"}),
// making them if the file does not exist: written once, readable by its
// owner alone (0600), and kept, since every browser's subscription holds
// the public key it was made with.
func LoadKeys(file string) (Keys, error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return makeKeyFile(file)
	}
	if err != nil {
		return Keys{}, err
	}
	var k Keys
	if err := json.Unmarshal(data, &k); err != nil {
		return Keys{}, fmt.Errorf("notify: %s: %w", file, err)
	}
	if err := k.Check(); err != nil {
		return Keys{}, fmt.Errorf("%w (%s)", err, file)
	}
	return k, nil
}

// makeKeyFile makes the keys of file, which must not exist: of two
// servers starting at once on one file, the second reads the first's.
func makeKeyFile(file string) (Keys, error) {
	k, err := NewKeys()
	if err != nil {
		return Keys{}, err
	}
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return LoadKeys(file)
	}
	if err != nil {
		return Keys{}, err
	}
	data, _ := json.Marshal(k)
	_, err = f.Write(append(data, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(file)
		return Keys{}, fmt.Errorf("notify: %s: %w", file, err)
	}
	return k, nil
}

// Message is what a push tells the browser, as JSON: the service worker
// (server/web/sw.js) writes its text in the language Lang, and opens URL
// when it is clicked.
type Message struct {
	Type string `json:"type"`
	Game string `json:"game,omitempty"`
	From string `json:"from,omitempty"`
	Lang string `json:"lang,omitempty"`
	URL  string `json:"url"`
}

// Accounts finds an account by its ID (account.Store).
type Accounts interface {
	UserByID(ctx context.Context, id int64) (*account.User, error)
}

// MessageOf is what the push of n says: its type, game and the name of
// who made it happen, in the language of the account told, and the page
// to open: the game, the lobby for a challenge, the follower's page.
func MessageOf(n Notification, lang string) Message {
	m := Message{Type: n.Type, Game: n.Game, From: n.FromName, Lang: lang, URL: "/"}
	switch {
	case n.Game != "":
		m.URL = "/g/" + url.PathEscape(n.Game)
	case n.Type == Challenge:
		m.URL = "/lobby"
	case n.Type == Follower && n.FromName != "":
		m.URL = "/@/" + url.PathEscape(n.FromName)
	}
	return m
}

// Counter is a metric that counts (expvar.Int).
type Counter interface{ Add(int64) }

type nothing struct{}

func (nothing) Add(int64) {}

// PushConfig configures a Pusher.
type PushConfig struct {
	// Store keeps the subscriptions.
	Store Store
	// Accounts, if not nil, gives the name of who made a notification
	// happen and the language of whom it tells.
	Accounts Accounts
	Keys     Keys
	// Subscriber is whom the push services may write to about the
	// site's pushes (VAPID's "sub"): an https URL or an e-mail address.
	Subscriber string
	// Queue bounds the pushes waiting to be sent (default 1000): one
	// beyond it is dropped and counted. Workers send them, default 2.
	Queue, Workers int
	// Timeout bounds one request to a push service, default 10 s.
	Timeout time.Duration
	// TTL is how long a push service keeps a message for a browser that
	// is offline, default a day.
	TTL time.Duration
	// Local lets the endpoints be http and on addresses that are not
	// public (loopback, private networks): for a test's own push
	// service. Otherwise an endpoint is https on a public address, so
	// that a subscription cannot make the server call into its own
	// network.
	Local  bool
	Logger *slog.Logger
	// Sent counts the messages a push service took, Failed those it
	// refused or that did not reach it, Dropped those the full queue
	// dropped; nil counts nothing.
	Sent, Failed, Dropped Counter
}

// Pusher sends notifications to the browsers subscribed to them. Send
// only queues: no request ever waits for a push service. Run sends.
type Pusher struct {
	cfg    PushConfig
	client *http.Client
	queue  chan push
	log    *slog.Logger
}

type push struct {
	n Notification
}

// NewPusher returns a Pusher of cfg; Run starts its workers.
func NewPusher(cfg PushConfig) *Pusher {
	if cfg.Queue <= 0 {
		cfg.Queue = 1000
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 2
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.TTL <= 0 {
		cfg.TTL = 24 * time.Hour
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	for _, c := range []*Counter{&cfg.Sent, &cfg.Failed, &cfg.Dropped} {
		if *c == nil {
			*c = nothing{}
		}
	}
	dialer := &net.Dialer{Timeout: cfg.Timeout}
	if !cfg.Local {
		// The address checked is the one dialled, after the name is
		// resolved: a name cannot lead the server into its own network.
		dialer.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || !public(ap.Addr()) {
				return fmt.Errorf("notify: %s is not a public address", address)
			}
			return nil
		}
	}
	client := &http.Client{
		Timeout:   cfg.Timeout,
		Transport: &http.Transport{DialContext: dialer.DialContext, ForceAttemptHTTP2: true, MaxIdleConnsPerHost: 4},
		// A push service answers; it does not send the server elsewhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return &Pusher{cfg: cfg, client: client, queue: make(chan push, cfg.Queue), log: cfg.Logger}
}

// PublicKey is the VAPID public key, the applicationServerKey that the
// browsers subscribe with.
func (p *Pusher) PublicKey() string { return p.cfg.Keys.Public }

// public reports whether a is an address of the Internet at large.
func public(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsGlobalUnicast() && !a.IsPrivate() && !a.IsLoopback() && !a.IsLinkLocalUnicast() &&
		!netip.MustParsePrefix("100.64.0.0/10").Contains(a) // carrier-grade NAT
}

// MaxEndpoint bounds the length of an endpoint's URL.
const MaxEndpoint = 1000

// CheckSubscription says what is wrong with sub as a browser would send
// it, if anything: an endpoint that is not an https URL (http too, and
// any address, for a Local pusher) with a public host, keys that are not
// a P-256 public key and a 16-byte secret.
func (p *Pusher) CheckSubscription(sub Subscription) error {
	u, err := url.Parse(sub.Endpoint)
	switch {
	case len(sub.Endpoint) > MaxEndpoint:
		return fmt.Errorf("the endpoint is longer than %d bytes", MaxEndpoint)
	case err != nil || u.Host == "" || u.User != nil:
		return errors.New("the endpoint is not a URL of a push service")
	case u.Scheme != "https" && !(p.cfg.Local && u.Scheme == "http"):
		return errors.New("the endpoint is not an https URL")
	}
	if a, err := netip.ParseAddr(u.Hostname()); err == nil && !p.cfg.Local && !public(a) {
		return errors.New("the endpoint is not on a public address")
	}
	key, err := base64.RawURLEncoding.DecodeString(sub.P256dh)
	if err == nil {
		_, err = ecdh.P256().NewPublicKey(key)
	}
	if err != nil {
		return errors.New("keys.p256dh is not a P-256 public key (base64url, uncompressed)")
	}
	if auth, err := base64.RawURLEncoding.DecodeString(sub.Auth); err != nil || len(auth) != 16 {
		return errors.New("keys.auth is not a 16-byte secret (base64url)")
	}
	return nil
}

// Send queues n for the browsers of its account, and reports whether it
// did: when the queue is full it is dropped, and counted. It never
// waits.
func (p *Pusher) Send(n Notification) bool {
	select {
	case p.queue <- push{n}:
		return true
	default:
		p.cfg.Dropped.Add(1)
		return false
	}
}

// Run sends the queued messages until ctx ends.
func (p *Pusher) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for range p.cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case j := <-p.queue:
					p.deliver(ctx, j)
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	wg.Wait()
}

// deliver sends j's message to each of its account's browsers. A
// subscription that its push service says is gone (404, 410) is
// forgotten.
func (p *Pusher) deliver(ctx context.Context, j push) {
	n := j.n
	subs, err := p.cfg.Store.Subscriptions(ctx, n.User)
	if err != nil || len(subs) == 0 {
		if err != nil && ctx.Err() == nil {
			p.log.Error("push subscriptions", "user", n.User, "err", err)
		}
		return
	}
	lang := ""
	if p.cfg.Accounts != nil {
		if u, err := p.cfg.Accounts.UserByID(ctx, n.User); err == nil {
			lang = u.Lang
		}
		if n.From != 0 && n.FromName == "" {
			if u, err := p.cfg.Accounts.UserByID(ctx, n.From); err == nil {
				n.FromName = u.Name
			}
		}
	}
	body, _ := json.Marshal(MessageOf(n, lang))
	for _, sub := range subs {
		status, err := p.send(ctx, body, sub, n.Game)
		switch {
		case err == nil && status < 300:
			p.cfg.Sent.Add(1)
			continue
		case status == http.StatusNotFound || status == http.StatusGone:
			if err := p.cfg.Store.RemoveSubscription(ctx, 0, sub.Endpoint); err != nil {
				p.log.Error("push: forget a subscription", "err", err)
			}
		}
		p.cfg.Failed.Add(1)
		p.log.Info("push refused", "user", n.User, "status", status, "err", err)
	}
}

// send posts body to sub's push service, encrypted for it (aes128gcm)
// and signed with the site's VAPID keys, with topic to collapse the
// messages of one game the browser has not received yet. It returns the
// service's status.
func (p *Pusher) send(ctx context.Context, body []byte, sub Subscription, topic string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, p.cfg.Timeout)
	defer cancel()
	resp, err := webpush.SendNotificationWithContext(ctx, body, &webpush.Subscription{
		Endpoint: sub.Endpoint, Keys: webpush.Keys{P256dh: sub.P256dh, Auth: sub.Auth},
	}, &webpush.Options{
		HTTPClient: p.client, Subscriber: p.cfg.Subscriber, Topic: topic, Urgency: webpush.UrgencyNormal,
		TTL: int(p.cfg.TTL / time.Second), VAPIDPublicKey: p.cfg.Keys.Public, VAPIDPrivateKey: p.cfg.Keys.Private,
	})
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	return resp.StatusCode, nil
}
