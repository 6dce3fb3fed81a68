//go:build !(js && wasm)

package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The files of the artefact, in the site's folder: the engine built for
// the browser, gzip-compressed (the server sends it as it is to browsers
// that take gzip, which all do); Go's loader of it, wasm_exec.js, which
// belongs to the version of Go that built it; and that version.
const (
	wasmFile    = "engine.wasm.gz"
	execFile    = "wasm_exec.js"
	versionFile = "engine.wasm.version"
)

// goEnv returns the value of a variable of `go env`.
func goEnv(name string) (string, error) {
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %w", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// buildWasm builds this command for the browser and returns the binary.
// The build is reproducible: the same sources and version of Go give the
// same bytes wherever the module lies (-trimpath) and whatever its
// version control says (-buildvcs=false); -s -w leave out the symbol
// table and the debugging information the browser has no use for.
func buildWasm() ([]byte, error) {
	dir, err := os.MkdirTemp("", "emergo-wasm")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "engine.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", out, "emergo/wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0", "GOFLAGS=")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("GOOS=js GOARCH=wasm go build emergo/wasm: %v\n%s", err, msg)
	}
	return os.ReadFile(out)
}

// compress is the gzip file of b: the best compression, and no name or
// time in the header, so that the same b gives the same file.
func compress(b []byte) []byte {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		panic(err) // the level is a valid one
	}
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// wasmExec returns the wasm_exec.js of the version of Go in use.
func wasmExec() ([]byte, error) {
	root, err := goEnv("GOROOT")
	if err != nil {
		return nil, err
	}
	return os.ReadFile(filepath.Join(root, "lib", "wasm", execFile))
}

// writeArtefact builds the engine for the browser and writes the
// artefact's files into dir, saying their sizes on log.
func writeArtefact(dir string, log io.Writer) error {
	version, err := goEnv("GOVERSION")
	if err != nil {
		return err
	}
	bin, err := buildWasm()
	if err != nil {
		return err
	}
	js, err := wasmExec()
	if err != nil {
		return err
	}
	gz := compress(bin)
	for _, f := range []struct {
		name string
		data []byte
	}{{wasmFile, gz}, {execFile, js}, {versionFile, []byte(version + "\n")}} {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(log, "%s: %d bytes, %d compressed (%s)\n", filepath.Join(dir, wasmFile), len(bin), len(gz), version)
	return nil
}
