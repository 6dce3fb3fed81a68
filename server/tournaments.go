package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"time"

	"emergo/account"
	"emergo/chat"
	"emergo/ratings"
	"emergo/record"
	"emergo/tournament"
	"emergo/tournament/trf"
)

// TournamentLimits bound the tournaments: those an account has created
// and not finished (Open), those it creates in a day (Day), and the
// site's not finished (Site).
type TournamentLimits struct {
	Open, Day, Site int
}

// DefaultTournamentLimits are the limits of a Config that sets none.
var DefaultTournamentLimits = TournamentLimits{Open: 3, Day: 10, Site: 500}

func (l TournamentLimits) withDefaults() TournamentLimits {
	d := DefaultTournamentLimits
	if l.Open <= 0 {
		l.Open = d.Open
	}
	if l.Day <= 0 {
		l.Day = d.Day
	}
	if l.Site <= 0 {
		l.Site = d.Site
	}
	return l
}

// finishedListed is how many finished tournaments the list shows.
const finishedListed = 50

var (
	errNoTournaments   = failure(http.StatusNotImplemented, codeNoTournaments, "this server has no tournaments")
	errTournamentLogIn = failure(http.StatusUnauthorized, codeTournamentLogIn, "log in to create or join a tournament")
	errTournamentsFull = failure(http.StatusServiceUnavailable, codeTournamentsFull, "the site has as many tournaments as it takes, try again later")
)

// tournamentRoutes registers the tournaments' API and pages.
func (s *Server) tournamentRoutes(mux *http.ServeMux) {
	mux.HandleFunc("POST /api/tournaments", s.api(scoped(account.ScopeChallengeWrite, s.handleCreateTournament)))
	mux.HandleFunc("GET /api/tournaments", s.api(s.handleTournaments))
	mux.HandleFunc("GET /api/tournaments/{id}", s.api(s.handleTournament))
	mux.HandleFunc("POST /api/tournaments/{id}/{action}", s.api(scoped(account.ScopeChallengeWrite, s.handleTournamentAction)))
	mux.HandleFunc("POST /api/tournaments/{id}/chat", s.api(s.handleTournamentChat))
	mux.HandleFunc("GET /api/tournaments/{id}/stream", s.handleTournamentStream)
	mux.HandleFunc("GET /api/tournaments/{id}/trf", s.handleTournamentTRF)
	mux.HandleFunc("GET /api/tournaments/{id}/pgn", s.handleTournamentPGN)
	mux.HandleFunc("GET /tournaments", s.page("tournaments.html"))
	mux.HandleFunc("GET /t/{id}", s.page("tournament.html"))
}

// tournamentError gives an error of the tournaments its status, code and
// message; any other is the store's.
func tournamentError(err error) error {
	var pr *tournament.Problem
	var ae *apiError
	switch {
	case errors.As(err, &ae):
		return err
	case errors.As(err, &pr):
		return invalid("%s", pr.Reason)
	case errors.Is(err, tournament.ErrNotFound):
		return failure(http.StatusNotFound, codeNoTournament, "no such tournament")
	case errors.Is(err, tournament.ErrConflict):
		return failure(http.StatusConflict, codeTournamentChanged, "the tournament changed meanwhile: look again")
	}
	for _, e := range entryRefusals {
		if errors.Is(err, e.err) {
			return failure(e.status, e.code, strings.TrimPrefix(e.err.Error(), "tournament: "))
		}
	}
	return err
}

// entryRefusals are the codes of the reasons a player may not enter.
var entryRefusals = []struct {
	err    error
	status int
	code   string
}{
	{tournament.ErrOver, http.StatusConflict, codeTournamentOver},
	{tournament.ErrStarted, http.StatusConflict, codeTournamentStarted},
	{tournament.ErrSwissLate, http.StatusConflict, codeTournamentOver},
	{tournament.ErrFull, http.StatusConflict, codeTournamentFull},
	{tournament.ErrRatingLow, http.StatusForbidden, codeTournamentRatingLow},
	{tournament.ErrRatingHigh, http.StatusForbidden, codeTournamentRatingHigh},
	{tournament.ErrFewGames, http.StatusForbidden, codeTournamentFewGames},
	{tournament.ErrNotInvited, http.StatusForbidden, codeTournamentNotInvited},
	{tournament.ErrBadPassword, http.StatusForbidden, codeTournamentPassword},
}

// refusalCode is the code of a reason a player may not enter.
func refusalCode(err error) string {
	for _, e := range entryRefusals {
		if errors.Is(err, e.err) {
			return e.code
		}
	}
	return codeInternal
}

// tournamentRequest is the body of POST /api/tournaments.
type tournamentRequest struct {
	Name       string     `json:"name"`
	System     string     `json:"system"`
	Size       int        `json:"size"`
	Clock      *clockSpec `json:"clock"`
	Days       int        `json:"days"`
	Rated      bool       `json:"rated"`
	Start      *time.Time `json:"start"`
	Minutes    int        `json:"minutes"`
	Rounds     int        `json:"rounds"`
	Double     bool       `json:"double"`
	Conditions *struct {
		MinRating     int      `json:"minRating"`
		MaxRating     int      `json:"maxRating"`
		MinRatedGames int      `json:"minRatedGames"`
		Invited       []string `json:"invited"`
		Password      string   `json:"password"`
	} `json:"conditions"`
}

// clockSpec is a clock in seconds, as the API writes it.
type clockSpec struct {
	Initial   float64 `json:"initial"`
	Increment float64 `json:"increment"`
}

func hashPassword(p string) string {
	if p == "" {
		return ""
	}
	h := sha256.Sum256([]byte(p))
	return hex.EncodeToString(h[:])
}

// handleCreateTournament is POST /api/tournaments: an account creates a
// tournament, within its bounds and the site's.
func (s *Server) handleCreateTournament(r *request) (int, any, error) {
	if s.tours == nil {
		return 0, nil, errNoTournaments
	}
	if r.user == nil {
		return 0, nil, errTournamentLogIn
	}
	var req tournamentRequest
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	now := s.now()
	t := &tournament.Tournament{
		ID: newID(), Name: req.Name, System: tournament.System(req.System), Size: req.Size, Days: req.Days, Rated: req.Rated,
		Minutes: req.Minutes, Rounds: req.Rounds, Double: req.Double,
		Creator: r.user.ID, CreatorName: r.user.Name, Status: tournament.Created, Created: now,
	}
	if req.Clock != nil {
		t.Initial = time.Duration(req.Clock.Initial * float64(time.Second))
		t.Increment = time.Duration(req.Clock.Increment * float64(time.Second))
	}
	if req.Start != nil {
		t.Start = req.Start.UTC().Truncate(time.Millisecond)
	}
	if t.System != tournament.Swiss {
		t.Rounds = 0
	}
	if c := req.Conditions; c != nil {
		t.Conditions = tournament.Conditions{MinRating: c.MinRating, MaxRating: c.MaxRating, MinRatedGames: c.MinRatedGames,
			Invited: c.Invited, Password: hashPassword(c.Password)}
	}
	if err := t.Check(now); err != nil {
		return 0, nil, tournamentError(err)
	}
	lim := s.cfg.Tournaments
	err := s.tours.CreateTournament(r.Context(), t, func(c tournament.Counts) error {
		switch {
		case c.Open >= lim.Open:
			return &apiError{http.StatusTooManyRequests, codeTooManyTournaments,
				fmt.Sprintf("you have %d tournaments not finished, as many as you may", lim.Open), map[string]any{"n": lim.Open}}
		case c.Day >= lim.Day:
			return &apiError{http.StatusTooManyRequests, codeTournamentsTooFast,
				fmt.Sprintf("you have created %d tournaments in a day, as many as you may", lim.Day), map[string]any{"n": lim.Day}}
		case c.Site >= lim.Site:
			return errTournamentsFull
		}
		return nil
	})
	if err != nil {
		return 0, nil, tournamentError(err)
	}
	s.log.Info("tournament created", "id", t.ID, "system", string(t.System), "creator", r.user.ID)
	v, err := s.tournamentView(r.Context(), t.ID, r.user)
	return http.StatusCreated, v, err
}

// summaryJSON is a tournament in the list.
type summaryJSON struct {
	ID      string     `json:"id"`
	Name    string     `json:"name"`
	System  string     `json:"system"`
	Size    int        `json:"size"`
	Clock   *clockSpec `json:"clock"`
	Days    int        `json:"days"`
	Rated   bool       `json:"rated"`
	Status  string     `json:"status"`
	Start   *time.Time `json:"start"`
	Players int        `json:"players"`
	Round   int        `json:"round"`
	Rounds  int        `json:"rounds"`
	Creator string     `json:"creator"`
}

// tournamentJSON is a tournament as its page shows it: the summary's
// fields, but "rounds" is the rounds paired and "roundCount" their
// number to come.
type tournamentJSON struct {
	ID         string         `json:"id"`
	Name       string         `json:"name"`
	System     string         `json:"system"`
	Size       int            `json:"size"`
	Clock      *clockSpec     `json:"clock"`
	Days       int            `json:"days"`
	Rated      bool           `json:"rated"`
	Status     string         `json:"status"`
	Start      *time.Time     `json:"start"`
	Players    int            `json:"players"`
	Round      int            `json:"round"`
	RoundCount int            `json:"roundCount"`
	Creator    string         `json:"creator"`
	Minutes    int            `json:"minutes"`
	Double     bool           `json:"double"` // a round robin played twice
	Ends       *time.Time     `json:"ends"`
	Conditions conditionsJSON `json:"conditions"`
	Standings  []standingJSON `json:"standings"`
	Rounds     []roundJSON    `json:"rounds"`
	Me         *tournamentMe  `json:"me"`
	// Chat is the latest lines of its chat that the viewer sees, the
	// oldest first; empty when the store keeps no chat.
	Chat    []lineJSON `json:"chat"`
	Version int64      `json:"version"`
}

type conditionsJSON struct {
	MinRating     int      `json:"minRating"`
	MaxRating     int      `json:"maxRating"`
	MinRatedGames int      `json:"minRatedGames"`
	Invited       []string `json:"invited"`
	Password      bool     `json:"password"`
}

type standingJSON struct {
	Rank      int           `json:"rank"`
	Name      string        `json:"name"`
	Bot       bool          `json:"bot"`
	Rating    int           `json:"rating"`
	Score     float64       `json:"score"`
	Games     int           `json:"games"`
	Tiebreaks tiebreaksJSON `json:"tiebreaks"`
	Streak    bool          `json:"streak"`
	Withdrawn bool          `json:"withdrawn"`
	Sheet     []string      `json:"sheet"`
}

type tiebreaksJSON struct {
	Buchholz        float64 `json:"buchholz"`
	BuchholzCut1    float64 `json:"buchholzCut1"`
	SonnebornBerger float64 `json:"sonnebornBerger"`
	Wins            int     `json:"wins"`
}

type roundJSON struct {
	Number   int           `json:"number"`
	Pairings []pairingJSON `json:"pairings"`
}

type pairingJSON struct {
	Board  int     `json:"board"`
	White  string  `json:"white"`
	Black  *string `json:"black"`
	Game   *string `json:"game"`
	Result string  `json:"result"`
	Bye    bool    `json:"bye"`
}

// tournamentMe is the viewer's place in a tournament.
type tournamentMe struct {
	Joined    bool    `json:"joined"`
	Withdrawn bool    `json:"withdrawn"`
	Game      *string `json:"game"`
	CanJoin   bool    `json:"canJoin"`
	Why       *string `json:"why"`
}

// clockOf is t's clock as the API writes it, nil for correspondence.
func clockOf(t *tournament.Tournament) *clockSpec {
	if t.Initial == 0 {
		return nil
	}
	return &clockSpec{Initial: t.Initial.Seconds(), Increment: t.Increment.Seconds()}
}

func timeOrNull(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// roundCount is the number of rounds t will have: a round robin's
// table's before it starts, as it stands.
func roundCount(t *tournament.Tournament, players int) int {
	if t.System == tournament.RoundRobin && t.Status == tournament.Created {
		if players < 3 {
			return 0
		}
		return tournament.TableRounds(players, t.Double)
	}
	return t.Rounds
}

// roundShown is the round the API says was paired: an arena's batches
// are not rounds.
func roundShown(t *tournament.Tournament) int {
	if t.System == tournament.Arena {
		return 0
	}
	return t.Round
}

func summaryOf(t *tournament.Tournament, players int) summaryJSON {
	return summaryJSON{
		ID: t.ID, Name: t.Name, System: string(t.System), Size: t.Size, Clock: clockOf(t), Days: t.Days, Rated: t.Rated,
		Status: string(t.Status), Start: timeOrNull(t.Start), Players: players, Round: roundShown(t), Rounds: roundCount(t, players),
		Creator: t.CreatorName,
	}
}

// handleTournaments is GET /api/tournaments: the tournaments to come,
// those running, and the latest finished.
func (s *Server) handleTournaments(r *request) (int, any, error) {
	if s.tours == nil {
		return 0, nil, errNoTournaments
	}
	list, err := s.tours.Tournaments(r.Context(), finishedListed)
	if err != nil {
		return 0, nil, err
	}
	out := struct {
		Upcoming []summaryJSON `json:"upcoming"`
		Running  []summaryJSON `json:"running"`
		Finished []summaryJSON `json:"finished"`
	}{[]summaryJSON{}, []summaryJSON{}, []summaryJSON{}}
	for _, t := range list {
		sm := summaryOf(t, t.Players)
		switch t.Status {
		case tournament.Created:
			out.Upcoming = append(out.Upcoming, sm)
		case tournament.Running, tournament.Paused:
			out.Running = append(out.Running, sm)
		default:
			out.Finished = append(out.Finished, sm)
		}
	}
	return http.StatusOK, out, nil
}

// handleTournament is GET /api/tournaments/{id}.
func (s *Server) handleTournament(r *request) (int, any, error) {
	if s.tours == nil {
		return 0, nil, errNoTournaments
	}
	v, err := s.tournamentView(r.Context(), r.PathValue("id"), r.user)
	return http.StatusOK, v, err
}

// tournamentView reads tournament id as viewer u sees it (nil for a
// guest).
func (s *Server) tournamentView(ctx context.Context, id string, u *account.User) (*tournamentJSON, error) {
	t, err := s.tours.Tournament(ctx, id)
	if err != nil {
		return nil, tournamentError(err)
	}
	entries, err := s.tours.Entries(ctx, id)
	if err != nil {
		return nil, err
	}
	ps, err := s.tours.Pairings(ctx, id)
	if err != nil {
		return nil, err
	}
	names := map[int64]string{}
	players := 0
	for _, e := range entries {
		names[e.User] = e.Name
		if !e.Withdrawn {
			players++
		}
	}
	k := t.Conditions
	v := &tournamentJSON{
		ID: t.ID, Name: t.Name, System: string(t.System), Size: t.Size, Clock: clockOf(t), Days: t.Days, Rated: t.Rated,
		Status: string(t.Status), Start: timeOrNull(t.Start), Players: players, Round: roundShown(t), RoundCount: roundCount(t, players),
		Creator: t.CreatorName, Minutes: t.Minutes, Double: t.Double, Ends: timeOrNull(t.Ends),
		Conditions: conditionsJSON{MinRating: k.MinRating, MaxRating: k.MaxRating, MinRatedGames: k.MinRatedGames,
			Invited: append([]string{}, k.Invited...), Password: k.Password != ""},
		Standings: []standingJSON{}, Rounds: []roundJSON{}, Version: t.Version,
	}
	for _, st := range tournament.Standings(t, entries, ps) {
		sheet := st.Sheet
		if sheet == nil {
			sheet = []string{}
		}
		v.Standings = append(v.Standings, standingJSON{
			Rank: st.Rank, Name: st.Entry.Name, Bot: st.Entry.Bot, Rating: st.Entry.Rating, Score: st.Points, Games: st.Games,
			Tiebreaks: tiebreaksJSON{Buchholz: st.Scores.Buchholz, BuchholzCut1: st.Scores.BuchholzCut1,
				SonnebornBerger: st.Scores.SonnebornBerger, Wins: st.Scores.Wins},
			Streak: st.Streak, Withdrawn: st.Entry.Withdrawn, Sheet: sheet,
		})
	}
	v.Rounds = roundsOf(t, ps, names)
	var reader chat.Reader
	if u != nil {
		if v.Me, err = s.tournamentMe(ctx, t, entries, ps, u); err != nil {
			return nil, err
		}
		if reader.Blocked, err = s.blocked(ctx, u.ID); err != nil {
			return nil, err
		}
		reader.User = u.ID
	}
	if v.Chat, err = s.tournamentChat(ctx, id, reader); err != nil {
		return nil, err
	}
	return v, nil
}

// tournamentChat is the latest lines of tournament id's chat that
// reader sees.
func (s *Server) tournamentChat(ctx context.Context, id string, reader chat.Reader) ([]lineJSON, error) {
	out := []lineJSON{}
	if s.chat == nil {
		return out, nil
	}
	lines, err := s.tours.ChatLines(ctx, id, tournament.ChatShown)
	if err != nil {
		return nil, err
	}
	for i := range lines {
		if reader.Sees(&lines[i]) {
			out = append(out, lineOf(&lines[i]))
		}
	}
	return out, nil
}

// handleTournamentChat is POST /api/tournaments/{id}/chat: a line of the
// viewer's in the tournament's chat, bounded as a game's chat is; its
// viewers see it with the tournament, on every server (201, the line).
func (s *Server) handleTournamentChat(r *request) (int, any, error) {
	if s.tours == nil {
		return 0, nil, errNoTournaments
	}
	if s.chat == nil {
		return 0, nil, errNoChat
	}
	var req struct {
		Text string `json:"text"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	if r.user == nil {
		return 0, nil, chat.ErrGuest
	}
	id := r.PathValue("id")
	if _, err := s.tours.TournamentVersion(r.Context(), id); err != nil {
		return 0, nil, tournamentError(err)
	}
	text, err := chat.Clean(req.Text)
	if err != nil {
		return 0, nil, err
	}
	standing, err := s.chat.Standing(r.Context(), r.user.ID)
	if err != nil {
		return 0, nil, s.chatError("chat standing", err)
	}
	if err := s.takeChatRate(r); err != nil {
		return 0, nil, err
	}
	l := chat.Line{Game: id, Room: chat.Spectators, User: r.user.ID, Name: r.user.Name, Text: text,
		Time: s.now().UTC().Truncate(time.Millisecond), Muted: standing.Muted}
	if err := s.tours.AddChatLine(r.Context(), &l, tournament.ChatKept); err != nil {
		return 0, nil, tournamentError(err)
	}
	s.tourHub.changed(id)
	return http.StatusCreated, lineOf(&l), nil
}

// roundsOf is the pairings by round, the latest first; an arena's games
// as one round, the newest first.
func roundsOf(t *tournament.Tournament, ps []tournament.Pairing, names map[int64]string) []roundJSON {
	out := []roundJSON{}
	for i := len(ps) - 1; i >= 0; i-- {
		p := ps[i]
		number := p.Round
		if t.System == tournament.Arena {
			number = 1
		}
		if len(out) == 0 || out[len(out)-1].Number != number {
			out = append(out, roundJSON{Number: number})
		}
		pj := pairingJSON{Board: p.Board, White: names[p.White], Result: p.Result, Bye: p.IsBye()}
		if !p.IsBye() {
			b := names[p.Black]
			pj.Black = &b
		}
		if p.Game != "" {
			g := p.Game
			pj.Game = &g
		}
		last := &out[len(out)-1]
		last.Pairings = append(last.Pairings, pj)
	}
	if t.System != tournament.Arena {
		for _, rd := range out { // boards in order within a round
			for i, j := 0, len(rd.Pairings)-1; i < j; i, j = i+1, j-1 {
				rd.Pairings[i], rd.Pairings[j] = rd.Pairings[j], rd.Pairings[i]
			}
		}
	}
	return out
}

// candidate is u as a player asking to enter t: his rating and rated
// games in t's pool.
func (s *Server) candidate(ctx context.Context, t *tournament.Tournament, u *account.User) (tournament.Candidate, error) {
	c := tournament.Candidate{Name: u.Name, Rating: 1500}
	if s.rated == nil {
		return c, nil
	}
	entries, err := s.rated.Ratings(ctx, u.ID)
	if err != nil {
		return c, err
	}
	speed, _ := ratings.SpeedOf(t.Initial, t.Days)
	for _, e := range entries {
		if e.Size == t.Size && e.Speed == speed {
			c.Rating, c.RatedGames = int(math.Round(e.Rating.Rating)), e.Rating.Games
		}
	}
	return c, nil
}

// tournamentMe is u's place in t.
func (s *Server) tournamentMe(ctx context.Context, t *tournament.Tournament, entries []tournament.Entry, ps []tournament.Pairing, u *account.User) (*tournamentMe, error) {
	me := &tournamentMe{}
	for _, e := range entries {
		if e.User == u.ID {
			me.Joined, me.Withdrawn = !e.Withdrawn, e.Withdrawn
		}
	}
	for _, p := range ps {
		if p.Has(u.ID) && !p.Done() && p.Game != "" {
			g := p.Game
			me.Game = &g
		}
	}
	if me.Joined {
		return me, nil
	}
	c, err := s.candidate(ctx, t, u)
	if err != nil {
		return nil, err
	}
	c.Password = t.Conditions.Password // asked at the join
	why := t.CanEnter(c)
	if why == nil && !me.Withdrawn && len(entries) >= tournament.MaxPlayers(t.System) {
		why = tournament.ErrFull
	}
	if why != nil {
		code := refusalCode(why)
		me.Why = &code
	}
	me.CanJoin = why == nil
	return me, nil
}

// handleTournamentAction is POST /api/tournaments/{id}/{action}: a
// player's join and withdraw, and the creator's start, pause, resume
// and cancel. It answers the tournament as the viewer then sees it.
func (s *Server) handleTournamentAction(r *request) (int, any, error) {
	if s.tours == nil {
		return 0, nil, errNoTournaments
	}
	if r.user == nil {
		return 0, nil, errTournamentLogIn
	}
	id, action := r.PathValue("id"), r.PathValue("action")
	var err error
	switch action {
	case "join":
		var body struct {
			Password string `json:"password"`
		}
		if r.ContentLength != 0 {
			if err := decode(r, &body); err != nil {
				return 0, nil, err
			}
		}
		err = s.joinTournament(r.Context(), id, r.user, body.Password)
	case "withdraw":
		err = s.withdrawTournament(r.Context(), id, r.user)
	case "start", "pause", "resume", "cancel":
		err = s.runTournament(r.Context(), id, r.user, action)
	default:
		return 0, nil, failure(http.StatusNotFound, codeNoEndpoint, "no such API endpoint")
	}
	if err != nil {
		return 0, nil, tournamentError(err)
	}
	s.tourHub.changed(id)
	v, err := s.tournamentView(r.Context(), id, r.user)
	return http.StatusOK, v, err
}

func (s *Server) joinTournament(ctx context.Context, id string, u *account.User, password string) error {
	t, err := s.tours.Tournament(ctx, id)
	if err != nil {
		return err
	}
	c, err := s.candidate(ctx, t, u)
	if err != nil {
		return err
	}
	c.Password = hashPassword(password)
	if err := t.CanEnter(c); err != nil {
		return err
	}
	e := tournament.Entry{User: u.ID, Name: u.Name, Bot: u.Bot, Rating: c.Rating, Joined: s.now()}
	return s.tours.Enter(ctx, id, e, tournament.MaxPlayers(t.System))
}

func (s *Server) withdrawTournament(ctx context.Context, id string, u *account.User) error {
	t, err := s.tours.Tournament(ctx, id)
	if err != nil {
		return err
	}
	if t.Status.Over() {
		return tournament.ErrOver
	}
	entries, err := s.tours.Entries(ctx, id)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.User == u.ID && !e.Withdrawn {
			return s.tours.Withdraw(ctx, id, u.ID)
		}
	}
	return failure(http.StatusConflict, codeTournamentNotJoined, "you are not in the tournament")
}

// runTournament is the creator's action on tournament id. A tournament
// changed meanwhile (a player entering) is read again and the action
// tried again.
func (s *Server) runTournament(ctx context.Context, id string, u *account.User, action string) error {
	for try := 0; ; try++ {
		t, err := s.tours.Tournament(ctx, id)
		if err != nil {
			return err
		}
		if t.Creator != u.ID {
			return failure(http.StatusForbidden, codeTournamentNotCreator, "only the tournament's creator may "+action+" it")
		}
		from, to := map[string][]tournament.Status{
			"start":  {tournament.Created},
			"pause":  {tournament.Running},
			"resume": {tournament.Paused},
			"cancel": {tournament.Created, tournament.Running, tournament.Paused},
		}[action], map[string]tournament.Status{
			"start": tournament.Running, "pause": tournament.Paused, "resume": tournament.Running, "cancel": tournament.Cancelled,
		}[action]
		ok := false
		for _, st := range from {
			ok = ok || t.Status == st
		}
		if !ok {
			return &apiError{http.StatusConflict, codeTournamentState,
				fmt.Sprintf("a tournament %s cannot be asked to %s", t.Status, action), map[string]any{"status": string(t.Status)}}
		}
		var entries []tournament.Entry
		if action == "start" {
			if entries, err = s.tours.Entries(ctx, id); err != nil {
				return err
			}
			if tooFew(t, entries) {
				least := 2
				if t.System == tournament.RoundRobin {
					least = 3
				}
				return &apiError{http.StatusConflict, codeTournamentTooFew,
					fmt.Sprintf("a tournament starts with %d players at least", least), map[string]any{"n": least}}
			}
		}
		err = s.setStatus(ctx, t, to, s.now(), entries)
		if !errors.Is(err, tournament.ErrConflict) || try == 5 {
			return err
		}
	}
}

// handleTournamentStream is GET /api/tournaments/{id}/stream: the
// tournament at once and at each change (events "tournament").
func (s *Server) handleTournamentStream(w http.ResponseWriter, r *http.Request) {
	if s.tours == nil {
		writeError(w, errNoTournaments)
		return
	}
	id, u := r.PathValue("id"), userOf(r.Context())
	if _, err := s.tours.TournamentVersion(r.Context(), id); err != nil {
		writeError(w, tournamentError(err))
		return
	}
	done, ok := s.openStream(clientKey(r))
	if !ok {
		writeError(w, failure(http.StatusTooManyRequests, codeTooManyLive, "too many live connections from your address"))
		return
	}
	defer done()
	wake := make(chan struct{}, 1)
	defer s.watchTournament(id, wake)()
	s.stream(w, r, "tournament", wake, 0, func() (any, bool) {
		v, err := s.tournamentView(r.Context(), id, u)
		if err != nil {
			return nil, false // the next change tries again
		}
		return v, true
	})
}

// handleTournamentTRF is GET /api/tournaments/{id}/trf: a Swiss that has
// started, in FIDE's TRF-16.
func (s *Server) handleTournamentTRF(w http.ResponseWriter, r *http.Request) {
	if s.tours == nil {
		writeError(w, errNoTournaments)
		return
	}
	id := r.PathValue("id")
	t, err := s.tours.Tournament(r.Context(), id)
	if err != nil {
		writeError(w, tournamentError(err))
		return
	}
	if t.System != tournament.Swiss || t.Round == 0 {
		writeError(w, failure(http.StatusConflict, codeTournamentNoTRF, "a TRF file is a Swiss's that has started"))
		return
	}
	entries, err := s.tours.Entries(r.Context(), id)
	if err != nil {
		writeError(w, err)
		return
	}
	ps, err := s.tours.Pairings(r.Context(), id)
	if err != nil {
		writeError(w, err)
		return
	}
	var b bytes.Buffer
	if err := trfOf(t, entries, ps).Write(&b); err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="emergo-%s.trf"`, id))
	w.Write(b.Bytes())
}

// trfOf is a Swiss as a TRF-16 file: its players by start number, their
// rounds and ranks.
func trfOf(t *tournament.Tournament, entries []tournament.Entry, ps []tournament.Pairing) *trf.Tournament {
	out := &trf.Tournament{
		Header: []string{"012 " + t.Name, "022 emergo", "042 " + t.Started.UTC().Format("2006/01/02")},
		Rounds: t.Rounds, FirstColour: trf.White,
	}
	byUser := map[int64]*trf.Player{}
	players := make([]trf.Player, len(entries))
	for _, st := range tournament.Standings(t, entries, ps) {
		n := st.Number
		players[n-1] = trf.Player{ID: n, Name: st.Entry.Name, Rating: st.Entry.Rating, Points: int(st.Points * 2), Rank: st.Rank,
			Rounds: make([]trf.Round, t.Round)}
		byUser[st.Entry.User] = &players[n-1]
	}
	for _, p := range ps {
		w := byUser[p.White]
		if p.IsBye() {
			w.Rounds[p.Round-1] = trf.Round{Colour: trf.NoColour, Result: trf.PairingBye}
			continue
		}
		b := byUser[p.Black]
		wr := trf.Round{Opponent: b.ID, Colour: trf.White, Result: trf.NotPlayed}
		br := trf.Round{Opponent: w.ID, Colour: trf.Black, Result: trf.NotPlayed}
		switch p.Result {
		case tournament.WhiteWins:
			wr.Result, br.Result = trf.Win, trf.Loss
		case tournament.BlackWins:
			wr.Result, br.Result = trf.Loss, trf.Win
		case tournament.Drawn:
			wr.Result, br.Result = trf.Draw, trf.Draw
		case tournament.BlackForfeit:
			wr.Result, br.Result = trf.ForfeitWin, trf.ForfeitLoss
		case tournament.WhiteForfeit:
			wr.Result, br.Result = trf.ForfeitLoss, trf.ForfeitWin
		}
		w.Rounds[p.Round-1], b.Rounds[p.Round-1] = wr, br
	}
	for i := range players { // the rounds a player was not paired in: absent, zero
		for r := range players[i].Rounds {
			if players[i].Rounds[r] == (trf.Round{}) {
				players[i].Rounds[r] = trf.Round{Colour: trf.NoColour, Result: trf.ZeroPointBye}
			}
		}
	}
	out.Players = players
	return out
}

// handleTournamentPGN is GET /api/tournaments/{id}/pgn: every finished
// game of the tournament in one PGN file, Event its name and Round the
// round and board ("2.3"; an arena's in the order they were paired).
func (s *Server) handleTournamentPGN(w http.ResponseWriter, r *http.Request) {
	if s.tours == nil {
		writeError(w, errNoTournaments)
		return
	}
	id := r.PathValue("id")
	t, err := s.tours.Tournament(r.Context(), id)
	if err != nil {
		writeError(w, tournamentError(err))
		return
	}
	ps, err := s.tours.Pairings(r.Context(), id)
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="emergo-%s.pgn"`, id))
	w.Header().Set("Cache-Control", "no-store")
	enc := record.NewEncoder(w)
	for _, p := range ps {
		if p.Game == "" || !p.Done() {
			continue
		}
		rec, err := s.storedRecord(r, p.Game)
		if err == nil {
			rec.SetTag("Event", t.Name)
			rec.SetTag("Round", fmt.Sprintf("%d.%d", p.Round, p.Board))
			err = enc.Encode(&rec)
		}
		if err != nil {
			if r.Context().Err() != nil {
				return
			}
			s.log.Error("tournament pgn", "game", p.Game, "err", err)
		}
	}
}
