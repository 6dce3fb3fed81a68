package server

import (
	"bytes"
	"cmp"
	"io/fs"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/text/language"

	"emergo/account"
)

// The site speaks English, Portuguese, Russian and Elefen. The server
// chooses the language of each page and says it in <html lang>; the
// browser translates the page from web/i18n/{code}.json (web/i18n.js).
// The choice is, first to last: the language the account logged in chose,
// the language this browser chose (the emergo_lang cookie), the best
// match of Accept-Language, English.

// siteLang is one of the site's languages: its code, as the site writes
// it (the catalogue's name, the cookie, <html lang>), and its tag.
type siteLang struct {
	code string
	tag  language.Tag
}

// languages are the site's languages, English first: the default.
var languages = []siteLang{
	{"en", language.English},
	{"pt", language.Portuguese},
	{"ru", language.Russian},
	{"lfn", language.Make("lfn")},
}

// defaultLang is the language when nothing else decides.
const defaultLang = "en"

// langCookie holds the language a browser chose with the switch.
const langCookie = "emergo_lang"

var langMatcher = func() language.Matcher {
	tags := make([]language.Tag, len(languages))
	for i, l := range languages {
		tags[i] = l.tag
	}
	return language.NewMatcher(tags)
}()

// knownLang reports whether code is one of the site's languages.
func knownLang(code string) bool {
	return slices.ContainsFunc(languages, func(l siteLang) bool { return l.code == code })
}

// negotiate is the site's language that best suits an Accept-Language
// header, by the matcher of golang.org/x/text (pt-BR is pt, Belarusian
// readers get Russian); English when none of them does, or the header
// says nothing.
func negotiate(header string) string {
	tags, _, err := language.ParseAcceptLanguage(header)
	if err != nil {
		tags = acceptedTags(header)
	}
	_, i, c := langMatcher.Match(tags...)
	if c == language.No {
		return defaultLang
	}
	return languages[i].code
}

// acceptedTags reads an Accept-Language header that ParseAcceptLanguage
// refuses as a whole (one unknown tag among good ones): each entry alone,
// the ones that parse kept in the order of their weights.
func acceptedTags(header string) []language.Tag {
	type weighted struct {
		tag language.Tag
		q   float32
	}
	var all []weighted
	for entry := range strings.SplitSeq(header, ",") {
		tags, q, err := language.ParseAcceptLanguage(entry)
		if err == nil && len(tags) == 1 {
			all = append(all, weighted{tags[0], q[0]})
		}
	}
	slices.SortStableFunc(all, func(a, b weighted) int { return cmp.Compare(b.q, a.q) })
	tags := make([]language.Tag, len(all))
	for i, w := range all {
		tags[i] = w.tag
	}
	return tags
}

// look is what a page's <html> says of its reader: the language and
// the preferences (prefs.go), the account's if one is logged in.
func (s *Server) look(r *http.Request) (lang string, p account.Prefs) {
	u := s.pageUser(r)
	return langOf(r, u), readerPrefs(r, u)
}

// langOf is the language of the site for r, u's account if one is
// logged in: the account's choice, the browser's, or its
// Accept-Language's (see languages).
func langOf(r *http.Request, u *account.User) string {
	if u != nil && knownLang(u.Lang) {
		return u.Lang
	}
	if c, err := r.Cookie(langCookie); err == nil && knownLang(c.Value) {
		return c.Value
	}
	return negotiate(r.Header.Get("Accept-Language"))
}

// pageUser is the account logged in for r, or nil: an API request's from
// its context (authenticate), a page's from its session cookie. A
// session that has ended, or accounts that cannot be reached, leave the
// choice to the browser.
func (s *Server) pageUser(r *http.Request) *account.User {
	if u := userOf(r.Context()); u != nil || s.accounts == nil || strings.HasPrefix(r.URL.Path, "/api/") {
		return u
	}
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return nil
	}
	u, err := s.accounts.User(r.Context(), c.Value)
	if err != nil {
		return nil
	}
	return u
}

// setLangCookie remembers a browser's language for a year and more (the
// longest browsers keep a cookie). Scripts may read it: it is no secret.
func (s *Server) setLangCookie(r *request, code string) {
	http.SetCookie(r.w, &http.Cookie{
		Name: langCookie, Value: code, Path: "/", SameSite: http.SameSiteLaxMode,
		Secure: s.secure(r.Request), MaxAge: 400 * 24 * 3600,
	})
}

// handleLang is the language switch: POST /api/lang {"lang": "ru"}. The
// browser keeps the choice (the cookie), and so does the account logged
// in, for its other browsers.
func (s *Server) handleLang(r *request) (int, any, error) {
	var req struct {
		Lang string `json:"lang"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	if !knownLang(req.Lang) {
		return 0, nil, invalid(`lang must be "en", "pt", "ru" or "lfn"`)
	}
	if r.user != nil {
		if err := s.accounts.SetLang(r.Context(), r.user.ID, req.Lang); err != nil {
			return 0, nil, s.accountError(r, err)
		}
	}
	s.setLangCookie(r, req.Lang)
	return http.StatusOK, map[string]string{"lang": req.Lang}, nil
}

// htmlLang is the lang attribute of a page's <html>.
var htmlLang = regexp.MustCompile(`<html lang="[a-z]*"`)

// page serves the page name of the embedded UI in the language of the
// request: its <html lang> says which, and the page's script translates
// it (web/i18n.js).
func (s *Server) page(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		lang, p := s.look(r)
		s.writePage(w, r, name, lang, p)
	}
}

// rulesPage serves the rules in the language of the request: rules.html
// in English, rules.{code}.html in the others, each written in its
// language with the same numbers and diagrams (server/internal/diagram).
func (s *Server) rulesPage(w http.ResponseWriter, r *http.Request) {
	lang, p := s.look(r)
	name := "rules.html"
	if lang != defaultLang {
		name = "rules." + lang + ".html"
	}
	s.writePage(w, r, name, lang, p)
}

// writePage writes the page name of web/ with lang in its <html lang>
// and the reader's preferences p in its attributes (prefAttrs), and its
// <noscript> part in lang: the page's script translates the rest, but a
// reader without JavaScript reads only what the server wrote.
func (s *Server) writePage(w http.ResponseWriter, r *http.Request, name, lang string, p account.Prefs) {
	body, err := fs.ReadFile(webRoot, name)
	if err != nil {
		s.log.Error("page", "name", name, "err", err)
		http.Error(w, "no such page", http.StatusNotFound)
		return
	}
	loc := htmlLang.FindIndex(body)
	if loc == nil {
		panic("server: page " + name + " has no <html lang>") // the embedded pages are part of the build
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Language", lang)
	h.Add("Vary", "Cookie, Accept-Language")
	var b bytes.Buffer
	b.Grow(len(body) + 64)
	b.Write(body[:loc[0]])
	b.WriteString(`<html lang="` + lang + `"` + prefAttrs(p))
	rest := body[loc[1]:]
	for {
		before, inside, ok := bytes.Cut(rest, []byte("<noscript>"))
		if !ok {
			b.Write(rest)
			break
		}
		inside, after, _ := bytes.Cut(inside, []byte("</noscript>"))
		b.Write(before)
		b.WriteString("<noscript>")
		b.Write(translate(inside, lang))
		b.WriteString("</noscript>")
		rest = after
	}
	if r.Method == http.MethodHead {
		return
	}
	w.Write(b.Bytes())
}
