//go:build !(js && wasm)

package main

import (
	"flag"
	"fmt"
	"os"
)

// Natively the command writes the artefact of the site: the engine built
// for the browser, compressed, with Go's wasm_exec.js and the version of
// Go that built it.
func main() {
	out := flag.String("out", "server/web", "the folder of the site's files")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run ./wasm [-out DIR]\n\n"+
			"builds the engine for the browser (GOOS=js GOARCH=wasm) into DIR/%s, with DIR/%s and DIR/%s\n", wasmFile, execFile, versionFile)
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := writeArtefact(*out, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "wasm:", err)
		os.Exit(1)
	}
}
