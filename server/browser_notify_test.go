package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/serviceworker"
	"github.com/chromedp/chromedp"

	"emergo/notify"
	"emergo/server"
)

// TestBrowserPush: in Chromium, the bell counts a challenge on every
// page and the notifications page lists it and marks it read; the page
// registers the service worker at the root without asking for the
// permission, which only the button asks for; the service worker shows a
// push in words and keeps the game to open. Then, the page closed, the
// opponent's correspondence move reaches the player's push subscription
// at a local push service, encrypted and signed.
//
// Headless Chromium has no push service of its own, so the browser's
// subscription (pushManager.subscribe) never completes: the test sees the
// button reach it, and the subscription that receives the move is made through the
// API with the test's keys and the local service's endpoint, and the
// service worker's display is fed by DevTools (deliverPushMessage), not
// by a push service.
func TestBrowserPush(t *testing.T) {
	exe := requireChromium(t)
	ps, got := pushService(t)
	ts, _ := browserServerWith(t, filepath.Join(t.TempDir(), "games.db"), server.Config{Push: notify.PushConfig{Local: true}})
	e := &env{t: t, ts: ts}
	alice := signUp(t, e, "alice")
	b := newBrowser(t, exe, "bob")
	b.do("open the home page", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="lang"]`)))
	evalJS[map[string]any](b, fetchJS("/api/account/signup", `{username: 'bob', password: 'a long password'}`))
	code, c := alice.challenge(map[string]any{"size": 7, "days": 3, "color": "white", "to": "bob"})
	if code != http.StatusCreated {
		t.Fatalf("challenge: %d %+v", code, c)
	}

	const bellCount = `(document.querySelector('[data-testid="bell-count"]') || {}).textContent || ''`
	b.do("open my games", chromedp.Navigate(ts.URL+"/my"))
	poll(b, "the bell counts the challenge", func() (string, error) { return tryJS[string](b, bellCount) },
		func(s string) bool { return s == "1" })
	if label := evalJS[string](b, `document.querySelector('[data-testid="bell"]').getAttribute('aria-label')`); label != "Notifications, 1 unread" {
		t.Errorf("the bell's label: %q", label)
	}
	game := evalJS[map[string]any](b, fetchJS("/api/challenges/"+c.ID+"/accept", `{}`))["game"].(string)

	b.do("open the notifications", chromedp.Navigate(ts.URL+"/notifications"))
	poll(b, "the challenge is listed", func() (string, error) {
		return tryJS[string](b, `[...document.querySelectorAll('[data-testid="notification"]')].map((e) => e.dataset.type + ': ' + e.querySelector('a').textContent).join('\n')`)
	}, func(s string) bool { return s == "challenge: alice challenges you" })
	poll(b, "the bell has nothing unread once the list is shown", func() (string, error) {
		return tryJS[string](b, `document.querySelector('[data-testid="bell"]').dataset.unread`)
	}, func(s string) bool { return s == "0" })
	// Activated, not only active: a push delivered while the worker is
	// still activating (its clients.claim() not done, slow on a busy
	// machine) is not shown.
	poll(b, "the service worker is activated at the root", func() (string, error) {
		return tryJS[string](b, `navigator.serviceWorker.getRegistration('/').then((r) => (r && r.active ? r.active.scriptURL + ' ' + r.active.state : ''))`)
	}, func(s string) bool { return s == ts.URL+"/sw.js activated" })
	if perm := evalJS[string](b, `Notification.permission`); perm != "default" {
		t.Errorf("the permission is %q before the button: the page asked by itself", perm)
	}
	if text := evalJS[string](b, `document.querySelector('[data-testid="push-toggle"]').textContent`); text != "Turn on push notifications" {
		t.Errorf("the push button says %q", text)
	}

	b.do("grant the notifications", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: "notifications"}, Setting: cdpbrowser.PermissionSettingGranted, Origin: ts.URL})
		return err
	}))
	// The click asks the browser for a subscription, the permission
	// given: headless Chromium, without a push service, never answers, and
	// the button stays busy (the page gives up after PUSH_WAIT_MS).
	b.do("click the push button", chromedp.Click(chromedp.CSS(`[data-testid="push-toggle"]`)))
	poll(b, "the button waits for the browser's subscription", func() (string, error) {
		return tryJS[string](b, `(() => { const b = document.querySelector('[data-testid="push-toggle"]');
			return (b.disabled ? 'busy' : 'idle') + ' ' + document.querySelector('[data-testid="push-message"]').textContent; })()`)
	}, func(s string) bool { return s == "busy " })

	// The service worker shows what a push says, and keeps the page to open.
	var reg serviceworker.RegistrationID
	b.do("find the service worker's registration", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		events := cdp.Events(ctx, tg, serviceworker.WorkerRegistrationUpdated)
		if _, err := cdp.Call(ctx, tg, serviceworker.Enable, cdp.Empty{}); err != nil {
			return err
		}
		for ev, err := range events {
			if err != nil {
				return err
			}
			for _, r := range ev.Registrations {
				if r.ScopeURL == ts.URL+"/" && !r.IsDeleted {
					reg = r.RegistrationID
					return nil
				}
			}
		}
		return nil
	}))
	data, _ := json.Marshal(notify.Message{Type: notify.YourTurn, Game: game, From: "alice", Lang: "en", URL: "/g/" + game})
	deliver := func() {
		b.do("deliver a push to the service worker", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, serviceworker.DeliverPushMessage, serviceworker.DeliverPushMessageParams{
				Origin: ts.URL, RegistrationID: reg, Data: string(data)})
			return err
		}))
	}
	deliver()
	// On a busy machine Chromium now and then loses a push that DevTools
	// delivers (accepted, never dispatched to the worker, whose state is
	// "activated"): one not shown within a few seconds is delivered
	// again, with the same tag, so that it is shown once all the same.
	delivered := time.Now()
	poll(b, "the service worker shows the push", func() (string, error) {
		if time.Since(delivered) > 5*time.Second {
			deliver()
			delivered = time.Now()
		}
		return tryJS[string](b, `navigator.serviceWorker.getRegistration('/').then((r) => r.getNotifications())
			.then((ns) => ns.map((n) => n.title + ': ' + n.body + ' ' + n.data.url).join('\n'))`)
	}, func(s string) bool { return s == "Emergo: Your turn against alice /g/"+game })

	// The page closed, the opponent's move reaches the subscription.
	k := newPushKeys(t)
	sub, _ := json.Marshal(subscription(ps.URL+"/sub/bob", k))
	if r := evalJS[map[string]any](b, fetchJS("/api/push/subscribe", string(sub))); r["subscribed"] != true {
		t.Fatalf("subscribe: %v", r)
	}
	key := evalJS[map[string]any](b, `fetch('/api/push/key').then((r) => r.json())`)["key"].(string)
	b.do("close the page", chromedp.Navigate("about:blank"))
	if code, st := alice.move(game, "a1", 0); code != http.StatusOK {
		t.Fatalf("move: %d %+v", code, st)
	}
	m := nextPush(t, got, k, ps.URL, key)
	if want := (notify.Message{Type: notify.YourTurn, Game: game, From: "alice", URL: "/g/" + game}); m != want {
		t.Errorf("the push: %+v, want %+v", m, want)
	}
}
