package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"emergo/server"
)

// namedEvents follows the Server-Sent Events of path for c, and returns
// the data of those named event, and the function that closes the
// stream (closed at the test's end too).
func namedEvents(t *testing.T, c *client, path, event string) (<-chan []byte, func()) {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", c.e.ts.URL+path, nil)
	resp, err := c.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d", path, resp.StatusCode)
	}
	out := make(chan []byte, 64)
	go func() {
		defer close(out)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		name := ""
		for sc.Scan() {
			line := sc.Text()
			if n, ok := strings.CutPrefix(line, "event: "); ok {
				name = n
			} else if data, ok := strings.CutPrefix(line, "data: "); ok && name == event {
				out <- []byte(data)
			}
		}
	}()
	t.Cleanup(stop)
	return out, stop
}

// spectatorCounts follows the game id's spectators as c sees them, and
// returns the function that closes the stream.
func spectatorCounts(t *testing.T, c *client, id string) (<-chan int, func()) {
	t.Helper()
	data, stop := namedEvents(t, c, "/api/games/"+id+"/events", "spectators")
	out := make(chan int, 64)
	go func() {
		defer close(out)
		for d := range data {
			var v struct{ N int }
			json.Unmarshal(d, &v)
			out <- v.N
		}
	}()
	return out, stop
}

// spectatorsSeen checks that the game's spectators come and go in the
// counts of a player's stream: the players themselves are not counted.
func spectatorsSeen(t *testing.T, id string, player, watcher1, watcher2 *client) {
	t.Helper()
	toPlayer, _ := spectatorCounts(t, player, id)
	await(t, "no spectator yet", toPlayer, func(n int) bool { return n == 0 })
	_, leave1 := spectatorCounts(t, watcher1, id)
	await(t, "one spectator", toPlayer, func(n int) bool { return n == 1 })
	toWatcher2, leave2 := spectatorCounts(t, watcher2, id)
	await(t, "two spectators", toPlayer, func(n int) bool { return n == 2 })
	await(t, "the second spectator counts himself too", toWatcher2, func(n int) bool { return n == 2 })
	leave1()
	await(t, "one spectator left", toPlayer, func(n int) bool { return n == 1 })
	leave2()
	await(t, "none left", toPlayer, func(n int) bool { return n == 0 })
}

// TestSpectatorCount: a game's page hears how many watch it, the
// players not counted.
func TestSpectatorCount(t *testing.T) {
	e := newEnv(t, server.Config{})
	id, alice, bob := friendGame(t, e, nil)
	toBob, _ := spectatorCounts(t, bob, id)
	spectatorsSeen(t, id, alice, e.client(), e.client())
	// Bob's stream, a player's, heard the same and counted no player.
	await(t, "bob hears none left", toBob, func(n int) bool { return n == 0 })
}

// TestSpectatorCountCluster: the spectators on two servers sharing a
// store are counted together.
func TestSpectatorCountCluster(t *testing.T) {
	for _, kind := range clusterKinds {
		t.Run(kind.name, func(t *testing.T) {
			kind.check(t)
			c := newCluster(t, kind)
			id, alice, _ := friendGame(t, c.a, nil)
			spectatorsSeen(t, id, alice, c.b.client(), c.a.client().on(c.b))
		})
	}
}
