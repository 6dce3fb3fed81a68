package server_test

import (
	"strings"
	"testing"

	"emergo/server"
)

// TestNotFoundPages: a game that does not exist and a path the site has
// nothing at answer 404 with the site's own page, text/html, in the
// reader's language (its <html lang>, its words, written by the server),
// with the header and a way home; a game that exists is its page.
func TestNotFoundPages(t *testing.T) {
	e := newEnv(t, server.Config{})
	game := e.client().create(t, map[string]any{"mode": "friend"})
	for _, tc := range []struct {
		name, path, al string
		code           int
		lang, text     string
	}{
		{"a game", "/g/" + game.ID, "", 200, "en", ""},
		{"no such game", "/g/zzzzzzzzzz", "", 404, "en", "There is no game at this address"},
		{"no such game, in Russian", "/g/zzzzzzzzzz", "ru", 404, "ru", "По этому адресу нет партии"},
		{"no such page", "/no/such/page", "", 404, "en", "There is no page at this address."},
		{"no such page, in Portuguese", "/nope.html", "pt-PT", 404, "pt", "Não há nenhuma página neste endereço."},
		{"no such page, in Elefen", "/i18n/", "lfn", 404, "lfn", "No paje esiste a esta adirije."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := e.client().fetchPage(tc.path, tc.al)
			if resp.StatusCode != tc.code {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.code)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
				t.Errorf("Content-Type %q, want text/html", ct)
			}
			if !strings.Contains(body, `<html lang="`+tc.lang+`">`) || resp.Header.Get("Content-Language") != tc.lang {
				t.Errorf("not in %s: Content-Language %q, page %.80q", tc.lang, resp.Header.Get("Content-Language"), body)
			}
			if tc.code != 404 {
				if strings.Contains(body, `data-testid="notfound"`) {
					t.Errorf("the page of a game is the 404 page")
				}
				return
			}
			for _, want := range []string{tc.text, `<header class="topbar">`, `href="/" data-testid="notfound-home"`} {
				if !strings.Contains(body, want) {
					t.Errorf("the page has no %q", want)
				}
			}
			other := "notfound-game"
			if strings.HasPrefix(tc.path, "/g/") {
				other = "notfound-page"
			}
			if strings.Contains(body, other) {
				t.Errorf("the page speaks of the other kind of address too (%s)", other)
			}
		})
	}
}
