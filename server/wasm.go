package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The engine for the browser: the rules, the notation and the search
// compiled to WebAssembly by the command in wasm/, gzip-compressed, with
// Go's loader of it (web/wasm_exec.js) and the version of Go that built
// both (web/engine.wasm.version). go generate builds them again; the
// tests of wasm/ fail while they are not what the sources build.
//
//go:generate go run ../wasm -out web
//go:embed web/engine.wasm.gz
var engineWasmGz []byte

// engineTag is the entity tag of the engine, which changes with it, so
// that a browser asks again with If-None-Match and gets a 304.
var engineTag = func() string {
	sum := sha256.Sum256(engineWasmGz)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}()

// engineWasm is the engine uncompressed, made the first time a client
// that takes no gzip asks for it.
var engineWasm = sync.OnceValues(func() ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(engineWasmGz))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
})

// acceptsGzip reports whether a request's Accept-Encoding takes gzip:
// names it, or *, without refusing it with a weight of 0.
func acceptsGzip(r *http.Request) bool {
	for part := range strings.SplitSeq(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.TrimSpace(coding)
		if !strings.EqualFold(coding, "gzip") && coding != "*" {
			continue
		}
		q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q=")
		if !ok {
			return true
		}
		w, err := strconv.ParseFloat(q, 64)
		return err == nil && w > 0
	}
	return false
}

// handleEngine serves /engine.wasm: compressed to a client that takes
// gzip, as every browser does, else uncompressed; revalidated by its tag
// (http.ServeContent answers If-None-Match).
func (s *Server) handleEngine(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/wasm")
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", engineTag)
	h.Set("Vary", "Accept-Encoding")
	body := engineWasmGz
	if acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
	} else {
		raw, err := engineWasm()
		if err != nil {
			writeError(w, err)
			return
		}
		body = raw
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}
