package server

import (
	"fmt"
	"html"
	"net/http"
	"slices"
	"strings"

	"emergo/account"
)

// How the site looks and sounds is the reader's choice: the colours
// (the system's, light or dark), the board's theme and the sounds of
// play. As with the language, the account logged in decides first, then
// the browser's cookies (a guest's choices, and an account's after a
// logout), then the defaults of the style sheet and the page's script.
// The server writes the choices into <html> (data-theme, data-board,
// data-sound), so that a page is drawn in its colours from the start:
// no script may run before the style sheet applies (the
// Content-Security-Policy allows no inline one).

// A pref is one of the reader's preferences: its name (the API's field,
// the attribute data-{name}, the cookie emergo_{name}), the values it
// takes, and where an account keeps it.
type pref struct {
	name    string
	choices []string
	of      func(*account.Prefs) *string
}

// prefs are the preferences of the site.
var prefs = []pref{
	{"theme", []string{"system", "light", "dark"}, func(p *account.Prefs) *string { return &p.Theme }},
	{"board", []string{"green", "wood", "slate"}, func(p *account.Prefs) *string { return &p.Board }},
	{"sound", []string{"on", "off"}, func(p *account.Prefs) *string { return &p.Sound }},
}

// prefsJSON is the reader's preferences as the API shows them: each ""
// until chosen.
type prefsJSON struct {
	Theme string `json:"theme"`
	Board string `json:"board"`
	Sound string `json:"sound"`
}

func toPrefsJSON(p account.Prefs) prefsJSON {
	return prefsJSON{Theme: p.Theme, Board: p.Board, Sound: p.Sound}
}

// cookiePrefs are the preferences r's browser keeps in its cookies, each
// "" when it keeps none or one the site no longer has.
func cookiePrefs(r *http.Request) account.Prefs {
	var p account.Prefs
	for _, f := range prefs {
		if c, err := r.Cookie("emergo_" + f.name); err == nil && slices.Contains(f.choices, c.Value) {
			*f.of(&p) = c.Value
		}
	}
	return p
}

// readerPrefs are the preferences of the reader of r, u's account if
// one is logged in: each the account's choice, else the browser's.
func readerPrefs(r *http.Request, u *account.User) account.Prefs {
	p := cookiePrefs(r)
	if u != nil {
		for _, f := range prefs {
			if v := *f.of(&u.Prefs); slices.Contains(f.choices, v) {
				*f.of(&p) = v
			}
		}
	}
	return p
}

// setPrefCookie remembers a browser's choice for a year and more, as the
// language's cookie does. Scripts may read it: it is no secret.
func (s *Server) setPrefCookie(r *request, name, value string) {
	http.SetCookie(r.w, &http.Cookie{
		Name: "emergo_" + name, Value: value, Path: "/", SameSite: http.SameSiteLaxMode,
		Secure: s.secure(r.Request), MaxAge: 400 * 24 * 3600,
	})
}

// handlePrefs is the settings of the header: POST /api/prefs with any of
// {"theme", "board", "sound"}; the ones given are kept in this browser's
// cookies and in the account logged in, the others as they were. It
// answers the reader's preferences as they now stand.
func (s *Server) handlePrefs(r *request) (int, any, error) {
	var req prefsJSON
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	set := account.Prefs{Theme: req.Theme, Board: req.Board, Sound: req.Sound}
	for _, f := range prefs {
		if v := *f.of(&set); v != "" && !slices.Contains(f.choices, v) {
			return 0, nil, invalid("%s must be %s", f.name, quotedChoices(f.choices))
		}
	}
	if r.user != nil {
		if err := s.accounts.SetPrefs(r.Context(), r.user.ID, set); err != nil {
			return 0, nil, s.accountError(r, err)
		}
	}
	now := readerPrefs(r.Request, r.user)
	for _, f := range prefs {
		if v := *f.of(&set); v != "" {
			s.setPrefCookie(r, f.name, v)
			*f.of(&now) = v
		}
	}
	return http.StatusOK, toPrefsJSON(now), nil
}

// quotedChoices writes choices as the API's messages do: "a", "b" or "c".
func quotedChoices(choices []string) string {
	q := make([]string, len(choices))
	for i, c := range choices {
		q[i] = fmt.Sprintf("%q", c)
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// prefAttrs are the attributes of <html> that carry p: data-theme,
// data-board and data-sound, each only when chosen.
func prefAttrs(p account.Prefs) string {
	var b strings.Builder
	for _, f := range prefs {
		if v := *f.of(&p); v != "" {
			b.WriteString(` data-` + f.name + `="` + html.EscapeString(v) + `"`)
		}
	}
	return b.String()
}
