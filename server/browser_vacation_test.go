package server_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// apiJS is a script that sends method path with the JSON body (none for
// "") from the page, and answers the JSON of the reply.
func apiJS(method, path, body string) string {
	if body == "" {
		return `fetch('` + path + `', {method: '` + method + `'}).then((r) => r.json())`
	}
	return `fetch('` + path + `', {method: '` + method + `', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(` + body + `)}).then((r) => r.json())`
}

// TestBrowserVacation: on his own page a correspondence player goes on
// vacation with the form, for days of his allowance; his opponent's game
// page says until when he is away; he ends it early with the form.
func TestBrowserVacation(t *testing.T) {
	exe := requireChromium(t)
	ts := browserServer(t, time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC))
	ann, bob := newBrowser(t, exe, "ann"), newBrowser(t, exe, "bob")
	for _, b := range []*browser{ann, bob} {
		b.do("open the site", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="signup"]`)))
		if me := evalJS[map[string]any](b, apiJS("POST", "/api/account/signup", `{username: '`+b.name+`', password: 'a good password'}`)); me["name"] != b.name {
			t.Fatalf("%s signs up: %v", b.name, me)
		}
	}
	ch := evalJS[map[string]any](ann, apiJS("POST", "/api/challenges", `{size: 7, days: 3, color: 'white', to: 'bob'}`))
	id, _ := ch["id"].(string)
	game, _ := evalJS[map[string]any](bob, apiJS("POST", "/api/challenges/"+id+"/accept", ""))["game"].(string)
	if game == "" {
		t.Fatalf("no game from the challenge %v", ch)
	}

	bob.do("open his page", chromedp.Navigate(ts.URL+"/@/bob"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="vacation-form"]`)))
	bob.waitText("the days left", `[data-testid="vacation-left"]`, func(s string) bool { return s == "28 days of vacation left this year." })
	evalJS[bool](bob, `document.querySelector('[data-testid="vacation-days"]').value = '', true`)
	bob.do("go on vacation for five days",
		chromedp.SendKeys(chromedp.CSS(`[data-testid="vacation-days"]`), "5"),
		chromedp.Click(chromedp.CSS(`[data-testid="vacation-start"]`)))
	bob.waitText("the page says until when", `[data-testid="vacation-status"]`, func(s string) bool { return s == "You are on vacation until June 6, 2026." })
	bob.waitText("and the days left", `[data-testid="vacation-left"]`, func(s string) bool { return s == "23 days of vacation left this year." })
	bob.screenshot("vacation-form")

	ann.do("open the game", chromedp.Navigate(ts.URL+"/g/"+game))
	ann.waitText("the game says that bob is away", `[data-testid="vacation-note"]`, func(s string) bool {
		return s == "bob is on vacation until June 6, 2026: the deadline is paused."
	})
	ann.do("open bob's page", chromedp.Navigate(ts.URL+"/@/bob"))
	ann.waitText("his page says it", `[data-testid="profile-vacation"]`, func(s string) bool { return s == "On vacation until June 6, 2026." })
	if v := evalJS[bool](ann, `!document.querySelector('#profile-vacation-box').hidden`); v {
		t.Error("another's page shows the vacation's form")
	}

	bob.do("end the vacation", chromedp.Click(chromedp.CSS(`[data-testid="vacation-end"]`)))
	bob.waitText("the page says it is over", `[data-testid="vacation-status"]`, func(s string) bool { return s == "You are not on vacation." })
	// The site's clock stands still: no day of the vacation was begun,
	// and all five are given back.
	bob.waitText("the unused days are given back", `[data-testid="vacation-left"]`, func(s string) bool { return s == "28 days of vacation left this year." })
	if v := evalJS[map[string]any](bob, apiJS("GET", "/api/account/me", "")); v["vacation"] != nil || v["vacationDaysLeft"] != float64(28) {
		t.Errorf("bob's account after the end: %v", v)
	}
}
