package engine_test

import (
	"context"
	"os"
	"strings"

	"emergo/engine"
)

// A session over a reader and a writer: the handshake, a position that
// is already decided and a few questions about it.
func ExampleRun() {
	in := strings.NewReader(`ugi
isready
position 7x7 w 0/0 d4:B8w8
query gameover
query result
go depth 4
hello
`)
	engine.Run(context.Background(), in, os.Stdout, engine.Options{HashMiB: 1})
	// Output:
	// id name Emergo
	// id author The Emergo authors
	// option name Hash type spin default 1 min 1 max 4096
	// option name Threads type spin default 1 min 1 max 64
	// option name Level type spin default 10 min 1 max 10
	// option name Size type combo default 9 var 9 var 7
	// option name MultiPV type spin default 1 min 1 max 16
	// ugiok
	// readyok
	// response true
	// response p2win
	// info string error: the game is over (0-1, all men taken prisoner)
	// bestmove none
	// info string error: unknown command "hello"
}
