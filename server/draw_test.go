package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"emergo/enginework"
	"emergo/player"
	"emergo/server"
)

// postAsync posts body as JSON to the server of c at path, for a goroutine
// other than the test's, and returns the status and the body.
func (c *client) postAsync(path string, body any) (int, string, error) {
	data, _ := json.Marshal(body)
	resp, err := c.c.Post(c.e.ts.URL+path, "application/json", bytes.NewReader(data))
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out), err
}

// A draw offered to the engine waits on the queue for the engine's answer
// without holding the game: its viewers and its player are answered
// meanwhile. The answer is made if the game has not changed, and
// dropped if it has.
func TestDrawOfferHoldsNoLock(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name string
		// score is the engine's search's, for the person to move: the
		// engine accepts when it stands worse by more than a man.
		score  int32
		change bool // the person moves while the answer waits
		code   int
		want   string // the result, or the error's code
	}{
		{"accepted", 200, false, http.StatusOK, "1/2-1/2"},
		{"declined", -200, false, http.StatusConflict, "offer.draw_declined"},
		{"the game moved on", 200, true, http.StatusConflict, "game.changed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			jobs := enginework.NewMemory()
			// No worker: the engine's answer waits until the test gives
			// it.
			e := newEnv(t, server.Config{Jobs: jobs, EngineWorkers: -1})
			p := e.client()
			g := p.create(t, engineAt("white"))
			type answer struct {
				code int
				body string
				err  error
			}
			done := make(chan answer, 1)
			go func() {
				code, body, err := p.postAsync("/api/games/"+g.ID+"/draw", map[string]any{"action": "offer"})
				done <- answer{code, body, err}
			}()
			waitJobs(t, jobs, "the engine's answer asked for", func(js []enginework.Job) bool {
				return count(js, enginework.Answer, enginework.Queued) == 1
			})
			if code, st, body := e.client().do("GET", "/api/games/"+g.ID, nil); code != http.StatusOK || st.Over {
				t.Errorf("a watcher's view while the answer waits: %d %s", code, body)
			}
			if c.change {
				if code, st := p.move(g.ID, g.Legal[0], 0); code != http.StatusOK || len(st.Moves) != 1 {
					t.Fatalf("the person's move while the answer waits: %d %+v", code, st)
				}
			}
			select {
			case a := <-done:
				t.Fatalf("the offer answered before the engine: %d %s %v", a.code, a.body, a.err)
			default:
			}
			// A worker answers: the test's.
			for {
				j, err := jobs.ClaimJob(ctx, "test", true, time.Now(), time.Minute)
				if err != nil || j == nil {
					t.Fatalf("the engine's answer to claim: %+v %v", j, err)
				}
				if j.Kind != enginework.Answer {
					continue
				}
				if j.Game != g.ID {
					t.Errorf("the answer's game %q, want %q", j.Game, g.ID)
				}
				j.State, j.Finished, j.Result = enginework.Done, time.Now(), enginework.Result{Score: c.score, Depth: player.DrawOfferDepth}
				if err := jobs.FinishJob(ctx, j); err != nil {
					t.Fatal(err)
				}
				break
			}
			var a answer
			select {
			case a = <-done:
			case <-time.After(patience):
				t.Fatalf("no answer to the offer within %v of the engine's", patience)
			}
			var got struct {
				Result string
				Reason string
				Code   string
			}
			json.Unmarshal([]byte(a.body), &got)
			if a.code != c.code || (got.Result != c.want && got.Code != c.want) {
				t.Errorf("the offer: %d %s, want %d %s", a.code, a.body, c.code, c.want)
			}
			_, st, _ := p.do("GET", "/api/games/"+g.ID, nil)
			if over := c.want == "1/2-1/2"; st.Over != over || over && st.Reason != "agreement" || st.DrawOffer != nil {
				t.Errorf("the game after the answer: over %v (%s %s), draw offer %v", st.Over, st.Result, st.Reason, st.DrawOffer)
			}
		})
	}
}
