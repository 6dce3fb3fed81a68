package server

import (
	"cmp"
	"math"
	"net/http"
	"slices"
	"time"

	"emergo/notation"
	"emergo/round"
	"emergo/rules"
	"emergo/store"
)

// myGamesLimit bounds the list of a player's games.
const myGamesLimit = 100

// myGameJSON is one of the viewer's games in the list of /api/my-games.
type myGameJSON struct {
	ID    string `json:"id"`
	Size  int    `json:"size"`
	Mode  string `json:"mode"`
	White string `json:"white"`
	Black string `json:"black"`
	You   string `json:"you"`
	// WhiteBot and BlackBot say which seats are bot accounts'.
	WhiteBot bool `json:"whiteBot"`
	BlackBot bool `json:"blackBot"`
	// Turn is the colour to move while the game goes on, else null;
	// YourTurn says that the viewer may move now (the opponent is there).
	Turn     any     `json:"turn"`
	YourTurn bool    `json:"yourTurn"`
	Joined   bool    `json:"joined"` // the opponent has taken his seat
	Plies    int     `json:"plies"`
	Result   string  `json:"result"`
	Reason   string  `json:"reason"`
	Days     int     `json:"days"`
	Deadline *string `json:"deadline"` // when the player to move must have moved, or null
	LeftMS   *int64  `json:"left_ms"`  // the time to the deadline now, or null
	Updated  string  `json:"updated"`
}

// handleMyGames lists the games in which the viewer holds a seat: those
// where it is his turn first, the soonest deadline first, then the others
// going on, then the finished ones, the most recent first.
func (s *Server) handleMyGames(r *request) (int, any, error) {
	out := []myGameJSON{}
	who := r.viewer()
	games, err := s.st.Seated(r.Context(), who.token, who.user, myGamesLimit)
	if err != nil {
		s.log.Error("my games", "err", err)
		return 0, nil, errStorage
	}
	now := s.now()
	for _, g := range games {
		if item, ok := myGame(g, who, now); ok {
			out = append(out, item)
		}
	}
	rank := func(g myGameJSON) int {
		switch {
		case g.YourTurn:
			return 0
		case g.Turn != nil:
			return 1
		}
		return 2
	}
	// The viewer's turns: the soonest deadline first, none last.
	left := func(g myGameJSON) int64 {
		if g.LeftMS == nil {
			return math.MaxInt64
		}
		return *g.LeftMS
	}
	slices.SortStableFunc(out, func(a, b myGameJSON) int {
		if c := cmp.Compare(rank(a), rank(b)); c != 0 || rank(a) != 0 {
			return c
		}
		return cmp.Compare(left(a), left(b))
	})
	return http.StatusOK, map[string]any{"games": out}, nil
}

// myGame is the summary g as the viewer sees it in his list. It reports
// false for a game in which he holds no seat (one his browser's token
// found, but whose seat is an account's he is not logged in as), and for
// one whose start does not read: the list leaves them out.
func myGame(g store.Summary, who viewer, now time.Time) (myGameJSON, bool) {
	var seats [2]round.Seat
	for c := range seats {
		seats[c] = round.Seat{Token: g.Tokens[c], User: g.Users[c], Engine: g.Mode == round.Engine.String() && g.Tokens[c] == "" && g.Users[c] == 0}
	}
	me := rules.White
	if !who.player().Holds(seats[me]) {
		me = rules.Black
	}
	start, err := notation.ParsePosition(g.Start)
	if !who.player().Holds(seats[me]) || err != nil {
		return myGameJSON{}, false
	}
	item := myGameJSON{
		ID: g.ID, Size: g.Size, Mode: g.Mode, White: g.Names[0], Black: g.Names[1],
		WhiteBot: g.Bots[0], BlackBot: g.Bots[1],
		You: colorNames[me], Joined: seats[me.Other()].Joined(),
		Plies: g.Plies, Result: g.Result, Reason: g.Reason, Days: g.Days,
		Updated: g.Updated.Format(time.RFC3339),
	}
	if g.Ongoing() {
		turn := start.Side()
		if g.Plies%2 == 1 {
			turn = turn.Other()
		}
		item.Turn = colorNames[turn]
		item.YourTurn = turn == me && item.Joined
		if !g.Deadline.IsZero() {
			deadline := formatDeadline(g.Deadline)
			left := max(g.Deadline.Sub(now).Milliseconds(), 0)
			item.Deadline, item.LeftMS = &deadline, &left
		}
	}
	return item, true
}
