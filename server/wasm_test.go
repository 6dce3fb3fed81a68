package server_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"testing"

	"emergo/server"
)

// TestEngineServed: /engine.wasm is the committed engine, compressed for
// a client that takes gzip and whole for one that does not, as
// application/wasm, and revalidated by its tag.
func TestEngineServed(t *testing.T) {
	e := newEnv(t, server.Config{})
	gz, err := os.ReadFile("web/engine.wasm.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	get := func(header http.Header) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest("GET", e.ts.URL+"/engine.wasm", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header = header
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, body
	}
	tests := []struct {
		name     string
		encoding string
		want     []byte
		gzip     bool
	}{
		{"a browser", "gzip, deflate, br, zstd", gz, true},
		{"any coding", "*", gz, true},
		{"no gzip", "br", raw, false},
		{"gzip refused", "gzip;q=0, br", raw, false},
		{"nothing said", "", raw, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.encoding != "" {
				h.Set("Accept-Encoding", tc.encoding)
			}
			resp, body := get(h)
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/wasm" || !bytes.Equal(body, tc.want) {
				t.Fatalf("%d %q, %d bytes; want 200 application/wasm, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(body), len(tc.want))
			}
			if got := resp.Header.Get("Content-Encoding") == "gzip"; got != tc.gzip || resp.Header.Get("Vary") != "Accept-Encoding" {
				t.Errorf("Content-Encoding %q, Vary %q", resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"))
			}
			tag := resp.Header.Get("ETag")
			if tag == "" {
				t.Fatal("no ETag")
			}
			h.Set("If-None-Match", tag)
			if again, body := get(h); again.StatusCode != http.StatusNotModified || len(body) != 0 {
				t.Errorf("again with its tag: %d, %d bytes; want 304", again.StatusCode, len(body))
			}
		})
	}
}
