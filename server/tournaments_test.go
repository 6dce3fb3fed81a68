package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"emergo/server"
	"emergo/store"
	"emergo/store/sqlstore"
	"emergo/tournament/trf"
)

// tourView is a tournament as the API answers it.
type tourView struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	System     string `json:"system"`
	Status     string `json:"status"`
	Players    int    `json:"players"`
	Round      int    `json:"round"`
	RoundCount int    `json:"roundCount"`
	Double     bool   `json:"double"`
	Creator    string `json:"creator"`
	Version    int64  `json:"version"`
	Conditions struct {
		MinRating int      `json:"minRating"`
		Invited   []string `json:"invited"`
		Password  bool     `json:"password"`
	} `json:"conditions"`
	Standings []struct {
		Rank      int      `json:"rank"`
		Name      string   `json:"name"`
		Score     float64  `json:"score"`
		Games     int      `json:"games"`
		Streak    bool     `json:"streak"`
		Withdrawn bool     `json:"withdrawn"`
		Sheet     []string `json:"sheet"`
		Tiebreaks struct {
			Buchholz        float64 `json:"buchholz"`
			SonnebornBerger float64 `json:"sonnebornBerger"`
			Wins            int     `json:"wins"`
		} `json:"tiebreaks"`
	} `json:"standings"`
	Rounds []struct {
		Number   int `json:"number"`
		Pairings []struct {
			Board  int     `json:"board"`
			White  string  `json:"white"`
			Black  *string `json:"black"`
			Game   *string `json:"game"`
			Result string  `json:"result"`
			Bye    bool    `json:"bye"`
		} `json:"pairings"`
	} `json:"rounds"`
	Me *struct {
		Joined    bool    `json:"joined"`
		Withdrawn bool    `json:"withdrawn"`
		Game      *string `json:"game"`
		CanJoin   bool    `json:"canJoin"`
		Why       *string `json:"why"`
	} `json:"me"`
	Chat []struct {
		User string `json:"user"`
		Text string `json:"text"`
	} `json:"chat"`
	Code  string `json:"code"`
	Error string `json:"error"`
}

// standing returns name's line of the standings.
func (v tourView) standing(t *testing.T, name string) int {
	t.Helper()
	for i, s := range v.Standings {
		if s.Name == name {
			return i
		}
	}
	t.Fatalf("%s is not in the standings: %+v", name, v.Standings)
	return -1
}

// pending returns the games of the pairings without a result: their
// ids, White's and Black's names.
func (v tourView) pending() [][3]string {
	var out [][3]string
	for _, r := range v.Rounds {
		for _, p := range r.Pairings {
			if p.Result == "*" && p.Game != nil {
				out = append(out, [3]string{*p.Game, p.White, *p.Black})
			}
		}
	}
	return out
}

// tourEnv is a server with accounts whose director sweeps often, on st
// (a fresh SQLite file if nil).
func tourEnv(t *testing.T, cfg server.Config) *env {
	t.Helper()
	if cfg.TournamentSweep == 0 {
		cfg.TournamentSweep = 5 * time.Millisecond
	}
	return accountEnv(t, cfg)
}

// tourDo posts (or gets, for a nil body and "GET") path and decodes the
// tournament answered.
func (c *client) tour(method, path string, body any) (int, tourView) {
	c.e.t.Helper()
	resp, data := c.send(method, path, body)
	var v tourView
	json.Unmarshal(data, &v)
	return resp.StatusCode, v
}

func (c *client) createTour(t *testing.T, body map[string]any) tourView {
	t.Helper()
	code, v := c.tour("POST", "/api/tournaments", body)
	if code != http.StatusCreated {
		t.Fatalf("create a tournament: %d %s %s", code, v.Code, v.Error)
	}
	return v
}

func (c *client) act(t *testing.T, id, action string, body any) tourView {
	t.Helper()
	code, v := c.tour("POST", "/api/tournaments/"+id+"/"+action, body)
	if code != http.StatusOK {
		t.Fatalf("%s %s: %d %s %s", action, id, code, v.Code, v.Error)
	}
	return v
}

// waitTour polls the tournament until ok accepts it (the deadline is a
// failure guard only).
func waitTour(t *testing.T, c *client, id, what string, ok func(tourView) bool) tourView {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		_, v := c.tour("GET", "/api/tournaments/"+id, nil)
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("no tournament with %s within %v: %+v", what, patience, v)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// finish ends a game of a tournament: whiteWins says whether White wins
// (Black resigns) or loses (White resigns).
func finish(t *testing.T, players map[string]*client, g [3]string, whiteWins bool) {
	t.Helper()
	loser := players[g[1]]
	if whiteWins {
		loser = players[g[2]]
	}
	if code, _, body := loser.do("POST", "/api/games/"+g[0]+"/resign", nil); code != http.StatusOK {
		t.Fatalf("resign %s: %d %s", g[0], code, body)
	}
}

var liveRR = map[string]any{"name": "Friday table", "system": "roundrobin", "size": 7, "clock": map[string]any{"initial": 180, "increment": 2}}

// TestTournamentDoubleRoundRobin checks that a round robin played twice
// says so, and counts its table's rounds twice.
func TestTournamentDoubleRoundRobin(t *testing.T) {
	e := tourEnv(t, server.Config{})
	alice := signUp(t, e, "alice")
	body := map[string]any{"double": true}
	for k, v := range liveRR {
		body[k] = v
	}
	v := alice.createTour(t, body)
	for _, n := range []string{"bob", "carol", "dave"} {
		v = signUp(t, e, n).act(t, v.ID, "join", nil)
	}
	if !v.Double || v.RoundCount != 6 {
		t.Errorf("a double round robin of 3 players: double %v, %d rounds; want true, 6", v.Double, v.RoundCount)
	}
	if w := alice.createTour(t, liveRR); w.Double {
		t.Errorf("a single round robin says double")
	}
}

// TestTournamentRoundRobin plays a round robin of 3 accounts to its end
// by resignations: three rounds, each player's bye, White winning every
// game; then exports its games.
func TestTournamentRoundRobin(t *testing.T) {
	e := tourEnv(t, server.Config{})
	players := map[string]*client{}
	for _, n := range []string{"alice", "bob", "carol"} {
		players[n] = signUp(t, e, n)
	}
	alice, guest := players["alice"], e.client()
	v := alice.createTour(t, liveRR)
	if v.Status != "created" || v.System != "roundrobin" || v.Creator != "alice" || v.Me == nil || !v.Me.CanJoin || v.Me.Joined {
		t.Fatalf("created: %+v", v)
	}
	id := v.ID
	var list struct {
		Upcoming []struct {
			ID      string `json:"id"`
			Players int    `json:"players"`
		} `json:"upcoming"`
		Running, Finished []json.RawMessage
	}
	guest.getJSON(t, "/api/tournaments", &list)
	if len(list.Upcoming) != 1 || list.Upcoming[0].ID != id || len(list.Running) != 0 {
		t.Errorf("the list: %+v", list)
	}
	if code, v := guest.tour("POST", "/api/tournaments/"+id+"/join", nil); code != http.StatusUnauthorized || v.Code != "tournament.log_in" {
		t.Errorf("a guest joins: %d %s", code, v.Code)
	}
	if _, v := guest.tour("GET", "/api/tournaments/"+id, nil); v.Me != nil {
		t.Errorf("a guest's me: %+v", v.Me)
	}
	alice.act(t, id, "join", nil)
	players["bob"].act(t, id, "join", nil)
	if code, v := alice.tour("POST", "/api/tournaments/"+id+"/start", nil); code != http.StatusConflict || v.Code != "tournament.too_few" {
		t.Errorf("a round robin of 2 started: %d %s", code, v.Code)
	}
	v = players["carol"].act(t, id, "join", nil)
	if v.Players != 3 || v.RoundCount != 3 || !v.Me.Joined {
		t.Errorf("after three joined: %+v", v)
	}
	if code, v := players["bob"].tour("POST", "/api/tournaments/"+id+"/start", nil); code != http.StatusForbidden || v.Code != "tournament.not_creator" {
		t.Errorf("started by bob: %d %s", code, v.Code)
	}
	alice.act(t, id, "start", nil)
	dave := signUp(t, e, "dave")
	if code, v := dave.tour("POST", "/api/tournaments/"+id+"/join", nil); code != http.StatusConflict || v.Code != "tournament.started" {
		t.Errorf("a late entry in a round robin: %d %s", code, v.Code)
	}
	if _, v := dave.tour("GET", "/api/tournaments/"+id, nil); v.Me == nil || v.Me.CanJoin || v.Me.Why == nil || *v.Me.Why != "tournament.started" {
		t.Errorf("dave's me once started: %+v", v.Me)
	}
	for r := 1; r <= 3; r++ {
		v = waitTour(t, alice, id, fmt.Sprintf("round %d paired", r), func(v tourView) bool { return v.Round == r })
		games := v.pending()
		if len(games) != 1 || len(v.Rounds[0].Pairings) != 2 || !(v.Rounds[0].Pairings[0].Bye || v.Rounds[0].Pairings[1].Bye) {
			t.Fatalf("round %d: %+v", r, v.Rounds)
		}
		_, me := players[games[0][1]].tour("GET", "/api/tournaments/"+id, nil)
		if me.Me.Game == nil || *me.Me.Game != games[0][0] {
			t.Errorf("round %d: White's game: %+v", r, me.Me)
		}
		// Both players are told of their game, once it has begun.
		for c, name := range games[0][1:] {
			deadline := time.Now().Add(patience)
			for {
				var notes struct {
					Notifications []struct {
						Type, Game string
						From       *string
					}
				}
				players[name].getJSON(t, "/api/notifications", &notes)
				n := notes.Notifications
				if len(n) > 0 && n[0].Type == "tournamentRound" && n[0].Game == games[0][0] {
					if n[0].From == nil || *n[0].From != games[0][2-c] {
						t.Errorf("round %d: %s's notification: %+v", r, name, n[0])
					}
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("round %d: %s is not told of his game: %+v", r, name, n)
				}
				time.Sleep(5 * time.Millisecond)
			}
		}
		finish(t, players, games[0], true)
	}
	v = waitTour(t, guest, id, "its end", func(v tourView) bool { return v.Status == "finished" })
	total := 0.0
	for _, s := range v.Standings {
		total += s.Score
		if len(s.Sheet) != 3 || strings.Count(strings.Join(s.Sheet, ""), "B") != 1 || s.Games != 2 {
			t.Errorf("%s's line: %+v", s.Name, s)
		}
	}
	if total != 3 || len(v.Rounds) != 3 || v.Rounds[0].Number != 3 {
		t.Errorf("the end: %v points, rounds %+v", total, v.Rounds)
	}
	resp, pgn := guest.send("GET", "/api/tournaments/"+id+"/pgn", nil)
	if resp.StatusCode != 200 || bytes.Count(pgn, []byte(`[Event "Friday table"]`)) != 3 ||
		!bytes.Contains(pgn, []byte(`[Round "1.`)) || !bytes.Contains(pgn, []byte(`[Round "3.`)) {
		t.Errorf("the PGN: %d\n%s", resp.StatusCode, pgn)
	}
	if code, v := guest.tour("GET", "/api/tournaments/"+id+"/trf", nil); code != http.StatusConflict || v.Code != "tournament.no_trf" {
		t.Errorf("the TRF of a round robin: %d %s", code, v.Code)
	}
	if code, v := alice.tour("POST", "/api/tournaments/"+id+"/pause", nil); code != http.StatusConflict || v.Code != "tournament.state" {
		t.Errorf("a finished tournament paused: %d %s", code, v.Code)
	}
}

// TestTournamentSwiss plays a Swiss of 5 accounts and 3 rounds: the bye
// to the last in round 1, then a player withdrawn and never paired
// again; its TRF file is read back.
func TestTournamentSwiss(t *testing.T) {
	e := tourEnv(t, server.Config{})
	names := []string{"ann", "ben", "cat", "don", "eve"}
	players := map[string]*client{}
	for _, n := range names {
		players[n] = signUp(t, e, n)
	}
	ann := players["ann"]
	id := ann.createTour(t, map[string]any{"name": "Swiss of five", "system": "swiss", "size": 9, "rounds": 3,
		"clock": map[string]any{"initial": 300, "increment": 0}, "rated": true}).ID
	for _, n := range names {
		players[n].act(t, id, "join", nil)
	}
	ann.act(t, id, "start", nil)
	withdrawn := ""
	for r := 1; r <= 3; r++ {
		v := waitTour(t, ann, id, fmt.Sprintf("round %d paired", r), func(v tourView) bool { return v.Round == r })
		games := v.pending()
		byes := 0
		for _, p := range v.Rounds[0].Pairings {
			if p.Bye {
				byes++
			}
			if p.White == withdrawn || (p.Black != nil && *p.Black == withdrawn) {
				t.Errorf("round %d: the withdrawn %s is paired: %+v", r, withdrawn, p)
			}
		}
		if want := map[bool]int{true: 1, false: 0}[r == 1]; len(games) != 2 || byes != want {
			t.Fatalf("round %d: %d games and %d byes: %+v", r, len(games), byes, v.Rounds[0])
		}
		for i, g := range games {
			finish(t, players, g, true)
			if r == 1 && i == 0 {
				// The loser of board 1 withdraws before the round ends.
				withdrawn = g[2]
				players[withdrawn].act(t, id, "withdraw", nil)
			}
		}
	}
	v := waitTour(t, ann, id, "its end", func(v tourView) bool { return v.Status == "finished" })
	w := v.Standings[v.standing(t, withdrawn)]
	if !w.Withdrawn || w.Games != 1 || strings.Join(w.Sheet, "") != "L--" {
		t.Errorf("the withdrawn player's line: %+v", w)
	}
	resp, data := ann.send("GET", "/api/tournaments/"+id+"/trf", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("TRF: %d %s", resp.StatusCode, data)
	}
	f, err := trf.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the TRF file does not read: %v\n%s", err, data)
	}
	if f.Rounds != 3 || len(f.Players) != 5 || f.NextRound() != 4 {
		t.Errorf("the TRF file: %d rounds, %d players, next %d\n%s", f.Rounds, len(f.Players), f.NextRound(), data)
	}
	byes, games := 0, 0
	for _, p := range f.Players {
		for _, r := range p.Rounds {
			if r.Result == trf.PairingBye {
				byes++
			}
			if r.Played() {
				games++
			}
		}
	}
	if byes != 1 || games != 12 {
		t.Errorf("the TRF file has %d byes and %d games' sides, want 1 and 12\n%s", byes, games, data)
	}
}

// TestTournamentArena plays an arena of 4 in which alice wins every
// game: her third win in a row counts double.
func TestTournamentArena(t *testing.T) {
	e := tourEnv(t, server.Config{})
	names := []string{"alice", "bob", "carol", "dave"}
	players := map[string]*client{}
	for _, n := range names {
		players[n] = signUp(t, e, n)
	}
	alice := players["alice"]
	id := alice.createTour(t, map[string]any{"name": "Quick arena", "system": "arena", "size": 7, "minutes": 5,
		"clock": map[string]any{"initial": 60, "increment": 1}}).ID
	for _, n := range names {
		players[n].act(t, id, "join", nil)
	}
	alice.act(t, id, "start", nil)
	// A player leaves the arena and comes back: his game goes on.
	waitTour(t, alice, id, "the first games", func(v tourView) bool { return len(v.pending()) == 2 })
	if w := players["dave"].act(t, id, "withdraw", nil); !w.Me.Withdrawn || w.Me.Joined || w.Me.Game == nil || !w.Standings[w.standing(t, "dave")].Withdrawn {
		t.Errorf("dave away: %+v", w.Me)
	}
	if w := players["dave"].act(t, id, "join", nil); !w.Me.Joined || w.Me.Withdrawn || w.Players != 4 {
		t.Errorf("dave back: %+v", w.Me)
	}
	var v tourView
	for {
		v = waitTour(t, alice, id, "games to play", func(v tourView) bool { return len(v.pending()) > 0 })
		if s := v.Standings[v.standing(t, "alice")]; s.Games >= 3 {
			break
		}
		done := map[string]bool{}
		for _, g := range v.pending() {
			finish(t, players, g, g[1] == "alice" || g[2] != "alice")
			done[g[0]] = true
		}
		waitTour(t, alice, id, "the results", func(w tourView) bool {
			for _, g := range w.pending() {
				if done[g[0]] {
					return false
				}
			}
			return true
		})
	}
	s := v.Standings[v.standing(t, "alice")]
	if s.Rank != 1 || strings.Join(s.Sheet, " ") != "2 2 4" || s.Score != 8 || !s.Streak || s.Tiebreaks.Wins != 3 {
		t.Errorf("alice after three wins: %+v", s)
	}
	// The time is up: no more games are paired, and those begun count
	// when they end; their players never moved, so the director aborts
	// them, lost by forfeit by White.
	left := map[string]bool{}
	for _, g := range v.pending() {
		left[g[0]] = true
	}
	e.now.Add(int64(10 * time.Minute))
	v = waitTour(t, alice, id, "its end", func(v tourView) bool { return v.Status == "finished" })
	forfeits := 0
	for _, p := range v.Rounds[0].Pairings {
		switch {
		case p.Game != nil && left[*p.Game] && p.Result == "-+":
			forfeits++
		case p.Result == "*" || (p.Game != nil && left[*p.Game]):
			t.Errorf("after the end: %+v", p)
		}
	}
	if forfeits != len(left) {
		t.Errorf("%d forfeits of the %d games left unplayed", forfeits, len(left))
	}
	if code, w := players["bob"].tour("POST", "/api/tournaments/"+id+"/join", nil); code != http.StatusConflict || w.Code != "tournament.over" {
		t.Errorf("joining a finished arena: %d %s", code, w.Code)
	}
}

// TestTournamentEntryConditions refuses the players whom the conditions
// keep out, each with its code, and lets in those they let in.
func TestTournamentEntryConditions(t *testing.T) {
	e := tourEnv(t, server.Config{})
	alice, bob := signUp(t, e, "alice"), signUp(t, e, "bob")
	base := map[string]any{"name": "Closed", "system": "swiss", "size": 9, "rounds": 3, "days": 3}
	for _, c := range []struct {
		conditions map[string]any
		code       string
		status     int
	}{
		{map[string]any{"minRating": 1600}, "tournament.rating_low", 403},
		{map[string]any{"maxRating": 1400}, "tournament.rating_high", 403},
		{map[string]any{"minRatedGames": 1}, "tournament.few_games", 403},
		{map[string]any{"invited": []string{"carol"}}, "tournament.not_invited", 403},
		{map[string]any{"password": "sesame"}, "tournament.password", 403},
	} {
		v := alice.createTour(t, with(base, "conditions", c.conditions))
		_, seen := bob.tour("GET", "/api/tournaments/"+v.ID, nil)
		if c.code == "tournament.password" {
			if !seen.Conditions.Password || !seen.Me.CanJoin {
				t.Errorf("a password's tournament as bob sees it: %+v %+v", seen.Conditions, seen.Me)
			}
		} else if seen.Me.CanJoin || seen.Me.Why == nil || *seen.Me.Why != c.code {
			t.Errorf("%v: bob's me %+v, want why %s", c.conditions, seen.Me, c.code)
		}
		if code, got := bob.tour("POST", "/api/tournaments/"+v.ID+"/join", map[string]any{"password": "open"}); code != c.status || got.Code != c.code {
			t.Errorf("%v: bob joins: %d %s, want %d %s", c.conditions, code, got.Code, c.status, c.code)
		}
		alice.act(t, v.ID, "cancel", nil)
	}
	v := alice.createTour(t, with(base, "conditions", map[string]any{"password": "sesame", "invited": []string{"BOB"}, "maxRating": 1500}))
	if v = bob.act(t, v.ID, "join", map[string]any{"password": "sesame"}); !v.Me.Joined {
		t.Errorf("bob with the password: %+v", v.Me)
	}
	if v = bob.act(t, v.ID, "withdraw", nil); v.Me.Joined || v.Players != 0 {
		t.Errorf("bob withdrawn before the start: %+v", v)
	}
	if code, got := bob.tour("POST", "/api/tournaments/"+v.ID+"/withdraw", nil); code != http.StatusConflict || got.Code != "tournament.not_joined" {
		t.Errorf("withdrawn twice: %d %s", code, got.Code)
	}
	if code, got := bob.tour("GET", "/api/tournaments/nope", nil); code != http.StatusNotFound || got.Code != "tournament.not_found" {
		t.Errorf("an unknown tournament: %d %s", code, got.Code)
	}
	for _, bad := range []map[string]any{
		with(base, "system", "knockout"),
		with(base, "size", 8),
		with(base, "clock", map[string]any{"initial": 60}),
		with(base, "days", 0),
		with(base, "rounds", 0),
		with(base, "name", ""),
		with(base, "system", "arena", "minutes", 30),
	} {
		if code, got := alice.tour("POST", "/api/tournaments", bad); code != http.StatusBadRequest || got.Code != "request.invalid" {
			t.Errorf("%v: %d %s, want 400 request.invalid", bad, code, got.Code)
		}
	}
}

// TestTournamentCreatorActions: the creator pauses, resumes and cancels;
// nobody else does; an action the status does not allow is refused.
func TestTournamentCreatorActions(t *testing.T) {
	e := tourEnv(t, server.Config{})
	alice, bob, carol := signUp(t, e, "alice"), signUp(t, e, "bob"), signUp(t, e, "carol")
	id := alice.createTour(t, map[string]any{"name": "Paused", "system": "swiss", "size": 7, "rounds": 2, "days": 2}).ID
	for _, c := range []*client{alice, bob, carol} {
		c.act(t, id, "join", nil)
	}
	if code, v := alice.tour("POST", "/api/tournaments/"+id+"/pause", nil); code != http.StatusConflict || v.Code != "tournament.state" {
		t.Errorf("paused before the start: %d %s", code, v.Code)
	}
	alice.act(t, id, "start", nil)
	waitTour(t, alice, id, "round 1", func(v tourView) bool { return v.Round == 1 })
	if v := alice.act(t, id, "pause", nil); v.Status != "paused" {
		t.Errorf("paused: %s", v.Status)
	}
	if code, v := bob.tour("POST", "/api/tournaments/"+id+"/resume", nil); code != http.StatusForbidden || v.Code != "tournament.not_creator" {
		t.Errorf("resumed by bob: %d %s", code, v.Code)
	}
	// A paused tournament records its games' results and pairs no round.
	v := waitTour(t, alice, id, "round 1's game", func(v tourView) bool { return len(v.pending()) == 1 })
	finish(t, map[string]*client{"alice": alice, "bob": bob, "carol": carol}, v.pending()[0], true)
	v = waitTour(t, alice, id, "round 1's result", func(v tourView) bool { return len(v.pending()) == 0 })
	if v.Round != 1 || v.Status != "paused" {
		t.Errorf("paused after round 1: %+v", v)
	}
	alice.act(t, id, "resume", nil)
	waitTour(t, alice, id, "round 2", func(v tourView) bool { return v.Round == 2 })
	if v := alice.act(t, id, "cancel", nil); v.Status != "cancelled" {
		t.Errorf("cancelled: %s", v.Status)
	}
	if code, v := alice.tour("POST", "/api/tournaments/"+id+"/start", nil); code != http.StatusConflict || v.Code != "tournament.state" {
		t.Errorf("a cancelled tournament started: %d %s", code, v.Code)
	}
}

// TestTournamentBounds: an account's tournaments not finished, its
// tournaments of a day, and the site's.
func TestTournamentBounds(t *testing.T) {
	e := tourEnv(t, server.Config{Tournaments: server.TournamentLimits{Open: 2, Day: 3, Site: 2}})
	alice, bob := signUp(t, e, "alice"), signUp(t, e, "bob")
	body := map[string]any{"name": "One more", "system": "arena", "size": 9, "minutes": 30, "clock": map[string]any{"initial": 60, "increment": 0}}
	first := alice.createTour(t, body)
	alice.createTour(t, body)
	if code, v := alice.tour("POST", "/api/tournaments", body); code != http.StatusTooManyRequests || v.Code != "tournament.too_many" {
		t.Errorf("a third open: %d %s", code, v.Code)
	}
	alice.act(t, first.ID, "cancel", nil)
	alice.createTour(t, body)
	if code, v := bob.tour("POST", "/api/tournaments", body); code != http.StatusServiceUnavailable || v.Code != "tournament.site_full" {
		t.Errorf("the site's fourth: %d %s", code, v.Code)
	}
	e.now.Add(int64(time.Hour))
	var list struct{ Upcoming []struct{ ID string } }
	alice.getJSON(t, "/api/tournaments", &list)
	alice.act(t, list.Upcoming[0].ID, "cancel", nil)
	if code, v := alice.tour("POST", "/api/tournaments", body); code != http.StatusTooManyRequests || v.Code != "tournament.too_fast" {
		t.Errorf("a fourth in a day: %d %s", code, v.Code)
	}
	e.now.Add(int64(tournamentDay))
	alice.createTour(t, body)
}

const tournamentDay = 24 * time.Hour

// TestTournamentPairedOnce runs two servers on one store, both directing
// with a fast sweep: every round of a Swiss of 6 is paired once, with 3
// games, whichever server pairs it.
func TestTournamentPairedOnce(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "games.db")
		open := func() store.Store {
			st, err := sqlstore.OpenSQLite(context.Background(), file)
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		pairedOnceTest(t, open(), open())
	})
	t.Run("PostgreSQL", func(t *testing.T) {
		schema := pgSchema(t, postgresURL(t))
		pairedOnceTest(t, openPostgres(t, schema), openPostgres(t, schema))
	})
}

func pairedOnceTest(t *testing.T, a, b store.Store) {
	ea := tourEnv(t, server.Config{Store: a, TournamentSweep: time.Millisecond})
	eb := tourEnv(t, server.Config{Store: b, TournamentSweep: time.Millisecond})
	players := map[string]*client{}
	for _, n := range []string{"pl1", "pl2", "pl3", "pl4", "pl5", "pl6"} {
		players[n] = signUp(t, ea, n)
	}
	id := players["pl1"].createTour(t, map[string]any{"name": "Twice?", "system": "swiss", "size": 7, "rounds": 3,
		"clock": map[string]any{"initial": 60, "increment": 0}}).ID
	for _, c := range players {
		c.on(eb).act(t, id, "join", nil)
	}
	players["pl1"].on(eb).act(t, id, "start", nil)
	for r := 1; r <= 3; r++ {
		v := waitTour(t, players["pl1"], id, fmt.Sprintf("round %d", r), func(v tourView) bool { return v.Round == r })
		for _, g := range v.pending() {
			finish(t, players, g, true)
		}
	}
	v := waitTour(t, players["pl1"].on(eb), id, "its end", func(v tourView) bool { return v.Status == "finished" })
	if len(v.Rounds) != 3 {
		t.Fatalf("rounds: %+v", v.Rounds)
	}
	for _, r := range v.Rounds {
		if len(r.Pairings) != 3 {
			t.Errorf("round %d has %d boards, want 3: %+v", r.Number, len(r.Pairings), r.Pairings)
		}
	}
	for n := range players {
		var games struct{ Games []json.RawMessage }
		players[n].getJSON(t, "/api/users/"+n+"/games", &games)
		if len(games.Games) != 3 {
			t.Errorf("%s has %d games, want 3", n, len(games.Games))
		}
	}
}

// TestTournamentCorrespondenceRestart plays a correspondence round robin
// of 3 across two restarts: each new server on the store records the
// results and pairs the next rounds.
func TestTournamentCorrespondenceRestart(t *testing.T) {
	file := filepath.Join(t.TempDir(), "games.db")
	start := func() *env {
		st, err := sqlstore.OpenSQLite(context.Background(), file)
		if err != nil {
			t.Fatal(err)
		}
		return tourEnv(t, server.Config{Store: st})
	}
	e := start()
	players := map[string]*client{}
	for _, n := range []string{"alice", "bob", "carol"} {
		players[n] = signUp(t, e, n)
	}
	alice := players["alice"]
	id := alice.createTour(t, with(liveRR, "clock", nil, "days", 2)).ID
	for _, c := range players {
		c.act(t, id, "join", nil)
	}
	alice.act(t, id, "start", nil)
	for r := 1; r <= 3; r++ {
		v := waitTour(t, alice, id, fmt.Sprintf("round %d", r), func(v tourView) bool { return v.Round == r && len(v.pending()) == 1 })
		g := v.pending()[0]
		var game struct {
			Correspondence *struct{} `json:"correspondence"`
		}
		alice.getJSON(t, "/api/games/"+g[0], &game)
		if game.Correspondence == nil {
			t.Errorf("round %d's game is not by correspondence", r)
		}
		if r < 3 { // the round's game ends on the next server
			e.ts.Close()
			e.srv.Close()
			e = start()
			for _, c := range players {
				c.e = e
			}
		}
		finish(t, players, g, true)
	}
	v := waitTour(t, alice, id, "its end", func(v tourView) bool { return v.Status == "finished" })
	if len(v.Rounds) != 3 || v.Standings[0].Score != 1 {
		t.Errorf("the end: %+v", v)
	}
}

// TestTournamentStartTime: a tournament starts at its start time with
// its players, and is cancelled there with too few.
func TestTournamentStartTime(t *testing.T) {
	e := tourEnv(t, server.Config{})
	alice, bob := signUp(t, e, "alice"), signUp(t, e, "bob")
	start := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	body := map[string]any{"name": "At three", "system": "swiss", "size": 9, "rounds": 2, "clock": map[string]any{"initial": 120, "increment": 1}, "start": start}
	full := alice.createTour(t, body)
	empty := alice.createTour(t, body)
	alice.act(t, full.ID, "join", nil)
	bob.act(t, full.ID, "join", nil)
	alice.act(t, empty.ID, "join", nil)
	e.now.Add(int64(time.Hour + time.Second))
	v := waitTour(t, bob, full.ID, "its start", func(v tourView) bool { return v.Status == "running" && v.Round == 1 })
	if len(v.pending()) != 1 {
		t.Errorf("round 1 at the start: %+v", v.Rounds)
	}
	waitTour(t, bob, empty.ID, "its cancellation", func(v tourView) bool { return v.Status == "cancelled" })
}

// TestTournamentStream: a viewer on one server sees the changes made on
// another, and the pages are served.
func TestTournamentStream(t *testing.T) {
	file := filepath.Join(t.TempDir(), "games.db")
	open := func() store.Store {
		st, err := sqlstore.OpenSQLite(context.Background(), file)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	ea, eb := tourEnv(t, server.Config{Store: open()}), tourEnv(t, server.Config{Store: open()})
	alice, guest := signUp(t, ea, "alice"), eb.client()
	id := alice.createTour(t, map[string]any{"name": "Watched", "system": "arena", "size": 9, "minutes": 10,
		"clock": map[string]any{"initial": 60, "increment": 0}}).ID
	stream := events[tourView](t, guest, "/api/tournaments/"+id+"/stream")
	first := await(t, "the tournament at once", stream, func(v tourView) bool { return true })
	if first.ID != id || first.Players != 0 || first.Me != nil {
		t.Errorf("the first event: %+v", first)
	}
	alice.act(t, id, "join", nil)
	await(t, "alice in it", stream, func(v tourView) bool { return v.Players == 1 && v.Version > first.Version })
	for _, path := range []string{"/tournaments", "/t/" + id} {
		resp, body := guest.send("GET", path, nil)
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), "text/html") || !bytes.Contains(body, []byte("<html")) {
			t.Errorf("%s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
	if code, v := guest.tour("GET", "/api/tournaments/nope/stream", nil); code != http.StatusNotFound || v.Code != "tournament.not_found" {
		t.Errorf("the stream of no tournament: %d %s", code, v.Code)
	}
}

// TestTournamentChat: accounts write in a tournament's chat, everyone
// reads it with the tournament, on its stream too; a guest does not
// write, and a blocked account's lines are hidden from the blocker.
func TestTournamentChat(t *testing.T) {
	e := tourEnv(t, server.Config{})
	alice, bob, guest := signUp(t, e, "alice"), signUp(t, e, "bob"), e.client()
	id := alice.createTour(t, map[string]any{"name": "Chatty", "system": "swiss", "size": 9, "rounds": 3, "days": 2}).ID
	stream := events[tourView](t, guest, "/api/tournaments/"+id+"/stream")
	await(t, "the tournament", stream, func(tourView) bool { return true })
	say := func(c *client, text string) (int, string) {
		t.Helper()
		code, v := c.tour("POST", "/api/tournaments/"+id+"/chat", map[string]any{"text": text})
		return code, v.Code
	}
	if code, _ := say(alice, "  good luck,\u202e all  "); code != http.StatusCreated {
		t.Fatalf("alice's line: %d", code)
	}
	got := await(t, "alice's line", stream, func(v tourView) bool { return len(v.Chat) == 1 })
	if l := got.Chat[0]; l.User != "alice" || l.Text != "good luck, all" {
		t.Errorf("the line on the stream: %+v", l)
	}
	for _, c := range []struct {
		who  *client
		text string
		code int
		want string
	}{
		{guest, "hello", http.StatusForbidden, "chat.log_in"},
		{bob, " ", http.StatusBadRequest, "chat.empty"},
		{bob, strings.Repeat("x", 141), http.StatusBadRequest, "chat.too_long"},
	} {
		if code, got := say(c.who, c.text); code != c.code || got != c.want {
			t.Errorf("%q: %d %s, want %d %s", c.text, code, got, c.code, c.want)
		}
	}
	if code, got := alice.tour("POST", "/api/tournaments/nope/chat", map[string]any{"text": "hi"}); code != http.StatusNotFound || got.Code != "tournament.not_found" {
		t.Errorf("a line in no tournament: %d %s", code, got.Code)
	}
	if code, _, body := alice.do("POST", "/api/users/bob/block", nil); code != http.StatusOK {
		t.Fatalf("block: %d %s", code, body)
	}
	say(bob, "hi")
	if _, v := alice.tour("GET", "/api/tournaments/"+id, nil); len(v.Chat) != 1 {
		t.Errorf("alice reads bob's line, whom she blocks: %+v", v.Chat)
	}
	if _, v := guest.tour("GET", "/api/tournaments/"+id, nil); len(v.Chat) != 2 || v.Chat[1].User != "bob" {
		t.Errorf("a guest reads: %+v", v.Chat)
	}
}
