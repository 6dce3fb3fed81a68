package server

import "net/http"

// contentPolicy is the Content-Security-Policy of every answer. The UI is
// ES modules and one style sheet from the site itself, with no inline
// script, no inline style and no style attribute (styles that scripts set
// through element.style are not inline styles to CSP), so nothing inline
// is allowed: an injected <script> or handler attribute does not run;
// 'wasm-unsafe-eval' lets the pages compile WebAssembly (the site's
// engine, /engine.wasm), while JavaScript from text stays forbidden. No
// other site may frame the pages (clickjacking).
const contentPolicy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self'; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// securityHeaders sets the headers a game site sends on every answer: the
// policy above, no guessing of content types, no framing (for the
// browsers that do not know frame-ancestors), and no address of a page
// sent to other sites (a game's link is its invitation).
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}
