//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"syscall/js"
	"time"

	"emergo/view"
)

// slice is how long a search runs before it lets the worker handle its
// messages (see slicedContext): the longest a stop waits.
const slice = 20 * time.Millisecond

// main puts the functions of the page's rules and of the engine's worker
// on globalThis.emergoWasm, then waits for calls. Each takes and returns
// JSON text (the rules are package view's, as the server's API answers
// them; the search is engine.go's):
//
//	state(request) → {ok: state} | {error}
//	why(request) → {ok: problem or absent} | {error}
//	positionText(request) → {ok: text} | {error}
//	analyse(request, onInfo, onDone, pause): starts a search (the only
//	  one: a search still running is stopped first); onInfo(line) for every
//	  line as it comes, onDone(answer) at the end; pause(resume) when a
//	  slice of the search has run: the host calls resume() once it has
//	  handled its messages, and the search goes on
//	stop(): ends the search under way, whose onDone follows
func main() {
	api := js.Global().Get("Object").New()
	text := func(f func(string) string) js.Func {
		return js.FuncOf(func(_ js.Value, args []js.Value) any { return f(args[0].String()) })
	}
	api.Set("state", text(view.State))
	api.Set("why", text(view.Why))
	api.Set("positionText", text(view.PositionText))

	resumed := make(chan struct{}, 1)
	var (
		pauseJS js.Value
		resume  = js.FuncOf(func(js.Value, []js.Value) any {
			select {
			case resumed <- struct{}{}:
			default:
			}
			return nil
		})
		a = newAnalyser(func() {
			pauseJS.Invoke(resume)
			<-resumed
		}, slice)
		cancel  context.CancelFunc = func() {}
		running                    = make(chan struct{}, 1)
	)
	running <- struct{}{} // the token of the one search
	api.Set("analyse", js.FuncOf(func(_ js.Value, args []js.Value) any {
		request, onInfo, onDone, pause := args[0].String(), args[1], args[2], args[3]
		cancel()
		var ctx context.Context
		ctx, cancel = context.WithCancel(context.Background())
		// The search runs in its own goroutine, which the call does not
		// wait for: a call from JavaScript may not block.
		go func() {
			<-running
			defer func() { running <- struct{}{} }()
			pauseJS = pause
			var req analyseRequest
			if err := view.Decode(request, &req); err != nil {
				onDone.Invoke(view.Reply(nil, err))
				return
			}
			best, err := a.analyse(ctx, req, func(in infoJSON) {
				line, _ := json.Marshal(in)
				onInfo.Invoke(string(line))
			})
			onDone.Invoke(view.Reply(best, err))
		}()
		return nil
	}))
	api.Set("stop", js.FuncOf(func(js.Value, []js.Value) any {
		cancel()
		return nil
	}))
	js.Global().Set("emergoWasm", api)
	select {}
}
