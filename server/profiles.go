package server

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"emergo/account"
	"emergo/ratings"
	"emergo/record"
	"emergo/round"
	"emergo/rules"
	"emergo/store"
)

// The players' pages: a profile (GET /api/users/{name}), the games of a
// player a page at a time, and all of them as one PGN file. The page
// itself, /@/{name}, is the UI's (profile.js).

// Pages of a player's games: pageSize unless the request asks for another
// number up to maxPageSize; the PGN file reads the store exportBatch
// games at a time.
const (
	pageSize    = 20
	maxPageSize = 100
	exportBatch = 100
)

var errReadStorage = failure(http.StatusServiceUnavailable, codeReadStorage, "the games cannot be read just now; please try again")

// noPlayer is the answer for a username no account has.
func noPlayer(name string) error {
	return &apiError{http.StatusNotFound, codeNoPlayer, fmt.Sprintf("no player is called %q", name), map[string]any{"name": name}}
}

// profile returns the account named name (in any case), or the error
// to answer with.
func (s *Server) profile(r *http.Request, name string) (*account.Profile, error) {
	if s.accounts == nil {
		return nil, errNoAccounts
	}
	p, err := s.accounts.Profile(r.Context(), name)
	if errors.Is(err, account.ErrNotFound) {
		return nil, noPlayer(name)
	}
	if err != nil {
		s.metrics.storeErrors.Add(1)
		s.log.Error("profile", "err", err)
		return nil, errAccountStorage
	}
	return p, nil
}

// countsJSON are a player's games by how they went.
type countsJSON struct {
	Played  int `json:"played"` // won, drawn and lost
	Won     int `json:"won"`
	Drawn   int `json:"drawn"`
	Lost    int `json:"lost"`
	Ongoing int `json:"ongoing"`
}

type profileJSON struct {
	Name string `json:"name"`
	// Bot says that the account is a bot's: a program plays it.
	Bot     bool         `json:"bot"`
	Created string       `json:"created"`
	Games   countsJSON   `json:"games"`
	Ratings []ratingJSON `json:"ratings"`
	// Vacation is the end of the player's vacation under way, null for
	// none.
	Vacation *string `json:"vacation"`
	followCounts
}

// ratingJSON is a player's rating in a pool, as it stands now: its
// deviation grown by the time since his last rated game of the pool.
type ratingJSON struct {
	Size        int           `json:"size"`
	Speed       ratings.Speed `json:"speed"`
	Rating      int           `json:"rating"`
	Deviation   int           `json:"deviation"`
	Provisional bool          `json:"provisional"`
	Games       int           `json:"games"` // rated games played in the pool
}

// pools are the rating pools of a query: those of its size and speed,
// each of both when not given (all of them for none), in the order pages
// show them.
func pools(v url.Values) ([]ratings.Pool, error) {
	sizes, speeds := ratings.Sizes, ratings.Speeds
	switch size := v.Get("size"); size {
	case "":
	case "9", "7":
		n, _ := strconv.Atoi(size)
		sizes = []int{n}
	default:
		return nil, invalid("size must be 9 or 7")
	}
	if text := v.Get("speed"); text != "" {
		sp, err := ratings.ParseSpeed(text)
		if err != nil {
			return nil, invalid(`speed must be "live" or "correspondence"`)
		}
		speeds = []ratings.Speed{sp}
	}
	var out []ratings.Pool
	for _, size := range sizes {
		for _, sp := range speeds {
			out = append(out, ratings.Pool{Size: size, Speed: sp})
		}
	}
	return out, nil
}

func (s *Server) handleProfile(r *request) (int, any, error) {
	p, err := s.profile(r.Request, r.PathValue("name"))
	if err != nil {
		return 0, nil, err
	}
	c, err := s.st.CountGames(r.Context(), p.ID)
	if err != nil {
		s.log.Error("count games", "user", p.ID, "err", err)
		return 0, nil, errReadStorage
	}
	var entries []ratings.Entry
	// Without a ratings store (s.rated), every player has the rating of
	// a newcomer.
	if s.rated != nil {
		if entries, err = s.rated.Ratings(r.Context(), p.ID); err != nil {
			s.log.Error("ratings", "user", p.ID, "err", err)
			return 0, nil, errReadStorage
		}
	}
	out := profileJSON{
		Name: p.Name, Bot: p.Bot, Created: p.Created.UTC().Format(time.RFC3339),
		Games:        countsJSON{Played: c.Played(), Won: c.Won, Drawn: c.Drawn, Lost: c.Lost, Ongoing: c.Ongoing},
		Ratings:      []ratingJSON{},
		followCounts: s.followCountsOf(r, p.ID),
		Vacation:     s.profileVacation(r.Context(), p.ID),
	}
	all, _ := pools(nil)
	now := s.now()
	for _, pool := range all {
		rt := ratings.Of(entries, pool).At(now)
		out.Ratings = append(out.Ratings, ratingJSON{
			Size: pool.Size, Speed: pool.Speed, Rating: int(math.Round(rt.Rating)), Deviation: int(math.Round(rt.Deviation)),
			Provisional: rt.Provisional(), Games: rt.Games,
		})
	}
	return http.StatusOK, out, nil
}

// historyJSON is the history of a player's rating in a pool: a point
// for each rated game, the oldest first.
type historyJSON struct {
	Size   int           `json:"size"`
	Speed  ratings.Speed `json:"speed"`
	Points []pointJSON   `json:"points"`
}

// pointJSON is a player's rating after a rated game.
type pointJSON struct {
	Game      string  `json:"game"`
	At        string  `json:"at"`
	Rating    float64 `json:"rating"`
	Deviation float64 `json:"deviation"`
	Diff      float64 `json:"diff"` // the game's change of the rating
}

// handleRatingHistory answers the history of a player's ratings in the
// pools of the request's size and speed (each of both when not given).
func (s *Server) handleRatingHistory(r *request) (int, any, error) {
	p, err := s.profile(r.Request, r.PathValue("name"))
	if err != nil {
		return 0, nil, err
	}
	ps, err := pools(r.URL.Query())
	if err != nil {
		return 0, nil, err
	}
	out := []historyJSON{}
	for _, pool := range ps {
		h := historyJSON{Size: pool.Size, Speed: pool.Speed, Points: []pointJSON{}}
		var changes []ratings.Change
		if s.rated != nil {
			if changes, err = s.rated.History(r.Context(), p.ID, pool); err != nil {
				s.log.Error("rating history", "user", p.ID, "err", err)
				return 0, nil, errReadStorage
			}
		}
		for _, c := range changes {
			h.Points = append(h.Points, pointJSON{
				Game: c.Game, At: c.At.UTC().Format(time.RFC3339),
				Rating: round1(c.After), Deviation: round1(c.Deviation), Diff: round1(c.Diff()),
			})
		}
		out = append(out, h)
	}
	return http.StatusOK, map[string]any{"history": out}, nil
}

// round1 rounds x to a tenth, as much as a chart can show.
func round1(x float64) float64 { return math.Round(x*10) / 10 }

// outcomes are the words of the result filter.
var outcomes = map[string]store.Outcome{
	"": store.AnyOutcome, "won": store.Won, "lost": store.Lost, "drawn": store.Drawn, "ongoing": store.Playing,
}

// playerQuery reads the filters and the page of a request for the games
// of the player p: result, opponent, size, before, limit.
func (s *Server) playerQuery(r *http.Request, p *account.Profile) (store.PlayerQuery, error) {
	v := r.URL.Query()
	q := store.PlayerQuery{User: p.ID, Limit: pageSize}
	var ok bool
	if q.Outcome, ok = outcomes[v.Get("result")]; !ok {
		return q, invalid(`result must be "won", "lost", "drawn" or "ongoing"`)
	}
	switch size := v.Get("size"); size {
	case "":
	case "9", "7":
		q.Size, _ = strconv.Atoi(size)
	default:
		return q, invalid("size must be 9 or 7")
	}
	if name := strings.TrimSpace(v.Get("opponent")); name != "" {
		opp, err := s.profile(r, name)
		if err != nil {
			return q, err
		}
		q.Opponent = opp.ID
	}
	if limit := v.Get("limit"); limit != "" {
		n, err := strconv.Atoi(limit)
		if err != nil || n < 1 || n > maxPageSize {
			return q, invalid("limit must be from 1 to %d", maxPageSize)
		}
		q.Limit = n
	}
	if before := v.Get("before"); before != "" {
		c, err := parseCursor(before)
		if err != nil {
			return q, invalid("before must be the cursor of a page of this list (next)")
		}
		q.Before = c
	}
	return q, nil
}

// formatCursor writes a place in a player's games for the API: the
// game's creation time in Unix milliseconds and its ID. Clients take it
// as it is.
func formatCursor(c store.Cursor) string {
	return strconv.FormatInt(c.Created.UnixMilli(), 10) + "-" + c.ID
}

func parseCursor(text string) (store.Cursor, error) {
	at, id, ok := strings.Cut(text, "-")
	ms, err := strconv.ParseInt(at, 10, 64)
	if !ok || err != nil || id == "" {
		return store.Cursor{}, fmt.Errorf("not a cursor: %q", text)
	}
	return store.Cursor{Created: time.UnixMilli(ms).UTC(), ID: id}, nil
}

// opponentJSON is the other player of a game in a player's list.
type opponentJSON struct {
	Name    string `json:"name"`
	Account bool   `json:"account"` // he has an account, and a profile
	Engine  bool   `json:"engine"`
	Bot     bool   `json:"bot"` // his account is a bot's
	// Rating is his rating when a rated game began, null for a casual
	// game.
	Rating *int `json:"rating"`
}

// playerGameJSON is a game in a player's list, as that player played it.
type playerGameJSON struct {
	ID       string       `json:"id"`
	Size     int          `json:"size"`
	Mode     string       `json:"mode"`
	Level    int          `json:"level"`
	Color    string       `json:"color"`
	Opponent opponentJSON `json:"opponent"`
	// Outcome is "won", "lost", "drawn" or "ongoing".
	Outcome     string `json:"outcome"`
	Result      string `json:"result"`
	Reason      string `json:"reason"`
	Plies       int    `json:"plies"`
	InitialMS   int64  `json:"initial_ms"`
	IncrementMS int64  `json:"increment_ms"`
	Days        int    `json:"days"`
	Rated       bool   `json:"rated"`
	// Rating is what a rated game did to the player's rating, null until
	// it is rated (at its end) and for a casual game.
	Rating  *changeJSON `json:"rating"`
	Created string      `json:"created"`
	Updated string      `json:"updated"`
}

// changeJSON is a player's rating before and after a rated game.
type changeJSON struct {
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	Diff   float64 `json:"diff"`
}

// playerGame is g as the list of the account user shows it.
func playerGame(g store.Summary, user int64) playerGameJSON {
	me := rules.White
	if g.Users[rules.White] != user {
		me = rules.Black
	}
	opp := me.Other()
	item := playerGameJSON{
		ID: g.ID, Size: g.Size, Mode: g.Mode, Level: g.Level, Color: colorNames[me],
		Opponent: opponentJSON{Name: g.Names[opp], Account: g.Users[opp] != 0, Engine: g.Mode == round.Engine.String(), Bot: g.Bots[opp]},
		Result:   g.Result, Reason: g.Reason, Plies: g.Plies,
		InitialMS: g.Initial.Milliseconds(), IncrementMS: g.Increment.Milliseconds(), Days: g.Days, Rated: g.Rated,
		Created: g.Created.UTC().Format(time.RFC3339), Updated: g.Updated.UTC().Format(time.RFC3339),
	}
	switch g.Result {
	case "*":
		item.Outcome = "ongoing"
	case "1/2-1/2":
		item.Outcome = "drawn"
	case [2]string{"1-0", "0-1"}[me]:
		item.Outcome = "won"
	default:
		item.Outcome = "lost"
	}
	return item
}

// handlePlayerGames answers a page of a player's games, the newest first,
// and the cursor of the next page (null after the last).
func (s *Server) handlePlayerGames(r *request) (int, any, error) {
	p, err := s.profile(r.Request, r.PathValue("name"))
	if err != nil {
		return 0, nil, err
	}
	q, err := s.playerQuery(r.Request, p)
	if err != nil {
		return 0, nil, err
	}
	limit := q.Limit
	q.Limit++ // one more says whether a next page has any
	games, err := s.st.PlayerGames(r.Context(), q)
	if err != nil {
		s.log.Error("player games", "user", p.ID, "err", err)
		return 0, nil, errReadStorage
	}
	var next any
	if len(games) > limit {
		games = games[:limit]
		next = formatCursor(games[limit-1].Cursor())
	}
	out := []playerGameJSON{}
	for _, g := range games {
		item := playerGame(g, p.ID)
		if g.Rated && s.rated != nil {
			changes, err := s.rated.Changes(r.Context(), g.ID)
			if err != nil {
				s.log.Error("rating changes", "game", g.ID, "err", err)
				return 0, nil, errReadStorage
			}
			for _, c := range changes {
				if c.User == p.ID {
					item.Rating = &changeJSON{Before: round1(c.Before), After: round1(c.After), Diff: round1(c.Diff())}
				} else {
					before := int(math.Round(c.Before))
					item.Opponent.Rating = &before
				}
			}
		}
		out = append(out, item)
	}
	return http.StatusOK, map[string]any{"games": out, "next": next}, nil
}

// handlePlayerPGN streams the finished games of a player, those the
// filters select, as one PGN file, the newest first. A game whose record
// cannot be made is left out (and logged), not the rest.
func (s *Server) handlePlayerPGN(w http.ResponseWriter, r *http.Request) {
	p, err := s.profile(r, r.PathValue("name"))
	if err != nil {
		writeError(w, err)
		return
	}
	q, err := s.playerQuery(r, p)
	switch {
	case err != nil:
		writeError(w, err)
		return
	case r.URL.Query().Has("before") || r.URL.Query().Has("limit"):
		writeError(w, invalid("the PGN file has every game the filters select: no before or limit"))
		return
	case q.Outcome == store.Playing:
		writeError(w, invalid("only finished games are downloaded: result is won, lost or drawn, or none for all"))
		return
	case q.Outcome == store.AnyOutcome:
		q.Outcome = store.Finished
	}
	q.Limit = exportBatch
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="emergo-%s.pgn"`, p.Name))
	w.Header().Set("Cache-Control", "no-store")
	enc := record.NewEncoder(w)
	flusher, _ := w.(http.Flusher)
	for {
		games, err := s.st.PlayerGames(r.Context(), q)
		if err != nil {
			// The answer has begun: it ends short, and the log says why.
			s.log.Error("player pgn", "user", p.ID, "err", err)
			return
		}
		for _, sm := range games {
			rec, err := s.storedRecord(r, sm.ID)
			if err == nil {
				err = enc.Encode(&rec)
			}
			if err != nil {
				if r.Context().Err() != nil {
					return
				}
				s.log.Error("player pgn", "game", sm.ID, "err", err)
			}
		}
		if flusher != nil {
			flusher.Flush()
		}
		if len(games) < q.Limit {
			return
		}
		q.Before = games[len(games)-1].Cursor()
	}
}

// storedRecord is the record of the stored game id.
func (s *Server) storedRecord(r *http.Request, id string) (record.Record, error) {
	g, err := s.st.Get(r.Context(), id)
	if err != nil {
		return record.Record{}, err
	}
	rd, err := s.rounds.Of(g)
	if err != nil {
		return record.Record{}, err
	}
	return recordOf(rd), nil
}
