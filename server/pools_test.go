package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// poolState is where a player in a pool stands, as his stream says.
type poolState struct {
	Status  string `json:"status"`
	Window  int    `json:"window"`
	Seeking int    `json:"seeking"`
	Game    string `json:"game"`
	Error   *struct {
		Code string `json:"code"`
	} `json:"error"`
}

// seekPool puts c in the pool id until the returned stop is called.
func (c *client) seekPool(t *testing.T, id string) (<-chan poolState, func()) {
	t.Helper()
	data, stop := namedEvents(t, c, "/api/pools/"+id+"/seek", "pool")
	out := make(chan poolState, 64)
	go func() {
		defer close(out)
		for d := range data {
			var v poolState
			json.Unmarshal(d, &v)
			out <- v
		}
	}()
	return out, stop
}

// TestQuickPairing: a player alone in a pool waits with a seek the lobby
// shows; a second player joining is paired with him at once, both told
// the same game, rated, with the pool's board and clock; a player who
// leaves the pool takes his seek with him; guests and unknown pools are
// refused.
func TestQuickPairing(t *testing.T) {
	e, _ := lobbyEnv(t, nil)
	alice, bob, carol := signUp(t, e, "alice"), signUp(t, e, "bob"), signUp(t, e, "carol")

	var pools struct {
		Pools []struct {
			ID      string
			Size    int
			Seeking int
			Days    int
			Clock   *struct{ Initial, Increment float64 }
		}
	}
	alice.getJSON(t, "/api/pools", &pools)
	if len(pools.Pools) != 3 || pools.Pools[0].ID != "7x7-3+2" || pools.Pools[0].Clock == nil ||
		pools.Pools[0].Clock.Initial != 180 || pools.Pools[2].Days != 3 {
		t.Fatalf("pools %+v", pools)
	}

	toAlice, _ := alice.seekPool(t, "7x7-3+2")
	waiting := await(t, "alice waiting", toAlice, func(s poolState) bool { return s.Status == "waiting" && s.Seeking == 1 })
	if waiting.Window < 100 {
		t.Errorf("window %d, want 100 at least", waiting.Window)
	}
	if v := carol.lobby(t); len(v.Challenges) != 1 || v.Challenges[0].From != "alice" || !v.Challenges[0].Rated || v.Challenges[0].Size != 7 {
		t.Errorf("the lobby does not show alice's seek: %+v", v)
	}

	toBob, _ := bob.seekPool(t, "7x7-3+2")
	got := await(t, "bob paired", toBob, func(s poolState) bool { return s.Status == "paired" })
	await(t, "alice paired to the same game", toAlice, func(s poolState) bool { return s.Status == "paired" && s.Game == got.Game })
	var g ratedView
	alice.getJSON(t, "/api/games/"+got.Game, &g)
	if !g.Rated || g.Clock == nil || g.Clock.InitialMS != 180000 || g.Clock.IncrementMS != 2000 ||
		g.Players["white"].Name == g.Players["black"].Name ||
		(g.Players["white"].Name != "alice" && g.Players["white"].Name != "bob") ||
		(g.Players["black"].Name != "alice" && g.Players["black"].Name != "bob") {
		t.Errorf("the game paired: %+v", g)
	}

	// Carol waits in another pool, and leaves it: her seek goes.
	toCarol, leave := carol.seekPool(t, "9x9-5+3")
	await(t, "carol waiting", toCarol, func(s poolState) bool { return s.Status == "waiting" })
	toLobby := alice.lobbyEvents(t)
	waitLobby(t, "carol's seek", toLobby, func(v lobbyView) bool { return pendingFrom(v, "carol") == 1 })
	leave()
	waitLobby(t, "carol's seek withdrawn", toLobby, func(v lobbyView) bool { return pendingFrom(v, "carol") == 0 })

	// Dave blocks Erin: both wait in one pool, and are not paired. Two
	// steps of Erin's in a row see Dave's seek (the stream counts two
	// seekers), so at least one looked at it for a pairing.
	dave, erin := signUp(t, e, "dave"), signUp(t, e, "erin")
	if code, _, body := dave.do("POST", "/api/users/erin/block", nil); code != http.StatusOK {
		t.Fatalf("block: %d %s", code, body)
	}
	toDave, _ := dave.seekPool(t, "9x9-3d")
	await(t, "dave waiting", toDave, func(s poolState) bool { return s.Status == "waiting" })
	toErin, _ := erin.seekPool(t, "9x9-3d")
	for i := range 2 {
		st := await(t, "erin waiting beside dave", toErin, func(s poolState) bool { return s.Status != "waiting" || s.Seeking == 2 })
		if st.Status != "waiting" {
			t.Fatalf("step %d: erin, blocked by dave, was paired with him: %+v", i, st)
		}
	}

	// A guest, and a pool that does not exist.
	if code, _, body := e.client().do("GET", "/api/pools/7x7-3+2/seek", nil); code != http.StatusUnauthorized || !strings.Contains(body, "lobby.log_in") {
		t.Errorf("a guest in a pool: %d %s", code, body)
	}
	if code, _, body := alice.do("GET", "/api/pools/5x5-1+0/seek", nil); code != http.StatusNotFound || !strings.Contains(body, "pool.not_found") {
		t.Errorf("no such pool: %d %s", code, body)
	}
}

// pendingFrom counts the pending challenges of name in v.
func pendingFrom(v lobbyView, name string) int {
	n := 0
	for _, c := range v.Challenges {
		if c.From == name && c.Status == "pending" {
			n++
		}
	}
	return n
}
