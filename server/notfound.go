package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"html"
	"io/fs"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"emergo/round"
)

// The site's 404 page (web/notfound.html) is written in the reader's
// language by the server itself, not only by its script: an address
// that leads nowhere should say so at once, and to a reader without
// JavaScript too.

// notFoundKinds are the kinds of address the 404 page speaks of, each a
// paragraph of the page (data-notfound="kind"); the others are dropped.
var notFoundKinds = []string{"page", "game"}

// i18nText finds an element's text that a catalogue key gives: the
// element's opening tag with its data-i18n key, then its text.
var i18nText = regexp.MustCompile(`(data-i18n="([^"]+)"[^>]*>)([^<]*)<`)

var (
	cataloguesOnce sync.Once
	catalogues     map[string]map[string]any
)

// catalogue is the embedded catalogue of lang (web/i18n/{lang}.json),
// read once.
func catalogue(lang string) map[string]any {
	cataloguesOnce.Do(func() {
		catalogues = map[string]map[string]any{}
		for _, l := range languages {
			data, err := fs.ReadFile(webRoot, "i18n/"+l.code+".json")
			if err != nil {
				panic("server: no catalogue for " + l.code) // the catalogues are part of the build
			}
			m := map[string]any{}
			if err := json.Unmarshal(data, &m); err != nil {
				panic("server: catalogue " + l.code + ": " + err.Error())
			}
			catalogues[l.code] = m
		}
	})
	return catalogues[lang]
}

// translate writes the texts of page's data-i18n elements in lang, where
// the catalogue has a plain text for the key; the rest stays as it is.
func translate(page []byte, lang string) []byte {
	msgs := catalogue(lang)
	return i18nText.ReplaceAllFunc(page, func(m []byte) []byte {
		sub := i18nText.FindSubmatch(m)
		text, ok := msgs[string(sub[2])].(string)
		if !ok {
			return m
		}
		out := append([]byte{}, sub[1]...)
		out = append(out, html.EscapeString(text)...)
		return append(out, '<')
	})
}

// notFound answers 404 with the site's page for an address of the given
// kind ("page" or "game") that leads nowhere, in the reader's language.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request, kind string) {
	lang, p := s.look(r)
	body, err := fs.ReadFile(webRoot, "notfound.html")
	if err != nil {
		panic("server: no notfound.html") // the embedded pages are part of the build
	}
	var b bytes.Buffer
	for line := range bytes.Lines(body) {
		if notFoundOther(line, kind) {
			continue
		}
		b.Write(line)
	}
	page := translate(b.Bytes(), lang)
	page = htmlLang.ReplaceAll(page, []byte(`<html lang="`+lang+`"`+prefAttrs(p)))
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Language", lang)
	h.Set("Cache-Control", "no-store")
	h.Add("Vary", "Cookie, Accept-Language")
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		w.Write(page)
	}
}

// notFoundOther reports whether line is the paragraph of a kind of
// address other than kind.
func notFoundOther(line []byte, kind string) bool {
	for _, k := range notFoundKinds {
		if k != kind && bytes.Contains(line, []byte(`data-notfound="`+k+`"`)) {
			return true
		}
	}
	return false
}

// gamePage serves the game page, or the 404 page when there is no such
// game: a mistyped link should not open a board that waits for a game
// forever. The look loads the game the page is about to ask for anyway;
// a failure other than "no such game" leaves the page to show it.
func (s *Server) gamePage(w http.ResponseWriter, r *http.Request) {
	if s.rounds != nil {
		if _, err := s.rounds.Look(r.Context(), r.PathValue("id")); errors.Is(err, round.ErrNoSuchGame) {
			s.notFound(w, r, "game")
			return
		}
	}
	lang, p := s.look(r)
	s.writePage(w, r, "index.html", lang, p)
}

// staticFiles serves the files of web/, and the 404 page for a path
// that names none of them (a folder is no file to serve).
func (s *Server) staticFiles() http.Handler {
	files := http.FileServerFS(webRoot)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/"), "/")
		if fi, err := fs.Stat(webRoot, name); !fs.ValidPath(name) || err != nil || fi.IsDir() {
			s.notFound(w, r, "page")
			return
		}
		files.ServeHTTP(w, r)
	})
}
