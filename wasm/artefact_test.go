//go:build !(js && wasm)

package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// site is the folder the artefact is committed in.
var site = filepath.Join("..", "server", "web")

// sameGo skips the test unless the Go in use is the one that built the
// committed artefact: another version builds other bytes.
func sameGo(t *testing.T) {
	t.Helper()
	recorded, err := os.ReadFile(filepath.Join(site, versionFile))
	if err != nil {
		t.Fatal(err)
	}
	version, err := goEnv("GOVERSION")
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimSpace(string(recorded)); version != want {
		t.Skipf("the artefact was built by %s, this is %s: its bytes cannot be compared", want, version)
	}
}

// TestArtefactUpToDate: the committed engine is the one the sources build.
func TestArtefactUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the engine for the browser; skipped under -short")
	}
	sameGo(t)
	f, err := os.Open(filepath.Join(site, wasmFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	built, err := buildWasm()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, built) {
		t.Errorf("server/web/%s (%d bytes) is not what the sources build (%d bytes): run go generate ./server", wasmFile, len(committed), len(built))
	}
}

// TestWasmExecUpToDate: the committed wasm_exec.js is the one of the Go
// that built the engine.
func TestWasmExecUpToDate(t *testing.T) {
	sameGo(t)
	committed, err := os.ReadFile(filepath.Join(site, execFile))
	if err != nil {
		t.Fatal(err)
	}
	want, err := wasmExec()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, want) {
		t.Errorf("server/web/%s differs from the one of this Go: run go generate ./server", execFile)
	}
}
