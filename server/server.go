// Package server is the web side of Emergo: a JSON API over HTTP over
// the games of package round, live updates by Server-Sent Events, the
// engine's work on the queue of package enginework (served by the
// server's workers, or by worker processes: RunWorker), and the browser
// UI embedded from web/. Every accepted move is committed to the store
// before it is acknowledged.
package server

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"emergo/account"
	"emergo/chat"
	"emergo/enginework"
	"emergo/explorer"
	"emergo/lobby"
	"emergo/notify"
	"emergo/puzzle"
	"emergo/ratings"
	"emergo/round"
	"emergo/store"
	"emergo/throttle"
	"emergo/tournament"
)

// webFS holds the browser UI: the pages, modules, styles and icon of web/,
// and not its tests (web/test) or notes.
//
//go:embed web/*.html web/*.js web/*.css web/*.svg web/i18n/*.json
var webFS embed.FS

// webRoot is web/ itself, as the site serves it.
var webRoot = func() fs.FS {
	web, err := fs.Sub(webFS, "web")
	if err != nil {
		panic(err) // the embedded tree is part of the build
	}
	return web
}()

// Config configures a Server.
type Config struct {
	Store  store.Store
	Logger *slog.Logger
	// EngineWorkers is the searches this server runs at once (engine
	// moves, analysis, the engine's answers to draw offers), one of them
	// kept for the games' (enginework.Workers); default: the number of
	// CPUs. Negative runs none: the workers of other processes sharing
	// Jobs do the engine's work.
	EngineWorkers int
	// EngineHashMiB is the table size of each search, default 8.
	EngineHashMiB int
	// Jobs is the queue of engine work; default one in memory, this
	// server's alone. Servers and `emergo worker` processes sharing a
	// PostgreSQL database share its queue (sqlstore.DB).
	Jobs enginework.Store
	// AnalysisLimits bound the analysis board's searches per client (its
	// address, and its account) and in total; default
	// enginework.DefaultLimits.
	AnalysisLimits enginework.Limits
	// ChallengeLimits bound the lobby's challenges pending at once: of one
	// account, of one guest's browser (rematches), and of all. The store
	// counts them, for every server sharing it. A bound not set is
	// lobby.DefaultLimits'.
	ChallengeLimits lobby.Limits
	// EngineGames bound the games against the engine per client and in
	// total, and end those nobody plays; each limit not set is
	// DefaultEngineGameLimits'.
	EngineGames EngineGameLimits
	// Invitations bound the friend games that wait for their second
	// player per client and in total, and abort those nobody takes; each
	// limit not set is DefaultInvitationLimits'.
	Invitations InvitationLimits
	// RateLimit is the steady requests per second allowed to one client
	// address, with bursts of RateBurst; negative disables the limit.
	RateLimit float64
	RateBurst int
	// Now is the clock, for tests; default time.Now.
	Now func() time.Time
	// EvictAfter is how long a game nobody asks for stays in memory,
	// default 10 minutes.
	EvictAfter time.Duration
	// MaxStreams bounds the event streams one client address may hold
	// open, default 32.
	MaxStreams int
	// StreamKeepAlive is how often a quiet NDJSON stream of the bot API
	// sends an empty line, so that proxies and clients keep it open and
	// a client learns that the site is there; default 7 s.
	StreamKeepAlive time.Duration
	// MaxConns bounds the connections open at once through Listener,
	// default 10,000; MaxClientConns those of one client (its address
	// key, not counted for a trusted proxy), default 64.
	MaxConns, MaxClientConns int
	// BodyTimeout is how long a request's body may take to arrive, from
	// the handler's start; a slower one is cut (408). Default 10 s.
	BodyTimeout time.Duration
	// DeadlineSweep is how often the server asks the store for the
	// correspondence games whose deadline comes within as long, to end
	// them on time; default a minute. Nearer deadlines have a timer of
	// their own; further ones wait in the store, not in memory.
	DeadlineSweep time.Duration
	// Accounts keeps the accounts and their sessions; default Store, if
	// it keeps them too. Without, the site is for guests only.
	Accounts account.Store
	// Account configures the accounts: password hashing, throttles,
	// session life. Its clock defaults to Now, its Throttles to
	// Throttles.
	Account account.Config
	// Feed joins the servers that share the store (sqlstore's Feed on
	// PostgreSQL): each announces its changes of games and of the lobby
	// on it, and takes in the others', so that a change made on any
	// reaches the viewers of all. Nil for a server alone on its store,
	// which then gives back to the players the time it was down (see
	// round.Keeper.Of).
	Feed Feed
	// FlagSweep is how often a server on a Feed asks the store for the
	// games whose running clock has run out, to end those that a server
	// gone left unended; default a second.
	FlagSweep time.Duration
	// FeedCheck is how often a server on a Feed compares the versions of
	// the games it holds with the store's, in case a change went
	// unannounced (its server stopped between its write and its
	// announcement); default 30 s.
	FeedCheck time.Duration
	// FeedWait is how long a move waits for the feed to bring the change
	// its player has seen on another server, before the game is read
	// from the store; default half a second.
	FeedWait time.Duration
	// Throttles keeps the counts of the limits that must hold across
	// every server of a site (logins, signups); default Store, if it
	// keeps them too, else memory.
	Throttles throttle.Store
	// TrustedProxies are the networks of the reverse proxies in front of
	// the server. From a TCP peer in one of them, the client's address is
	// the rightmost entry of X-Forwarded-For that is not itself a trusted
	// proxy, and a request came over TLS when the last X-Forwarded-Proto
	// says https (the session cookie is then Secure). From any other peer
	// both headers are ignored: a client cannot choose its address.
	TrustedProxies []netip.Prefix
	// BehindProxy trusts a proxy on the server's own machine: it adds the
	// loopback networks, 127.0.0.0/8 and ::1, to TrustedProxies.
	BehindProxy bool
	// Uploads keeps the uploaded records' sizes and openings; default
	// Store, if it keeps them too. Without, the site takes no uploads.
	Uploads store.Uploads
	// UploadLimit bounds the records one client (its address, and its
	// account if it is logged in) may upload, counted in Throttles;
	// default 30 an hour, 10 at once. An Every below 0 is no limit.
	UploadLimit throttle.Limit
	// UploadStorage bounds the bytes the uploaded records take in the
	// store (store.UploadSize): at the bound, the least recently opened
	// are deleted to make room for a new one. Default 1 GiB.
	UploadStorage int64
	// UploadIdle is how long an uploaded record that nobody opens is
	// kept, default 30 days; every UploadSweep (default an hour) the
	// server deletes those idle for longer.
	UploadIdle, UploadSweep time.Duration
	// ChatRate bounds the chat lines of one account, counted in
	// Throttles; default a burst of 5, then one every 2 s.
	ChatRate throttle.Limit
	// VAPID are the keys that sign the site's Web Push (RFC 8292,
	// notify.LoadKeys); when zero, the store's, made by the first server
	// that needs them and shared by every server of the store
	// (notify.Store's KeepKeys), since a browser's subscription holds
	// the public key it was made with.
	VAPID notify.Keys
	// Push configures the sending of Web Push (its queue, workers,
	// timeout, the contact the push services see); its store, keys and
	// accounts are the server's. Used if the store keeps notifications
	// (notify.Store): then the turns, ends of correspondence games,
	// challenges and follows are told to the accounts.
	Push notify.PushConfig
	// Tournaments bound the tournaments of an account and of the site;
	// each limit not set is DefaultTournamentLimits'.
	Tournaments TournamentLimits
	// TournamentSweep is how often the server directs the tournaments
	// (director.go), and reads the version of those it shows live;
	// default a second.
	TournamentSweep time.Duration
	// TournamentFirstMove is how long after the start of a live
	// tournament game its players have to make their first moves: then
	// the game is aborted, and lost by forfeit by the player who did not
	// move; default 2 minutes.
	TournamentFirstMove time.Duration
}

// Server serves the site. Create it with New, serve Handler, and Close it
// to stop its background work.
type Server struct {
	cfg     Config
	st      store.Store
	log     *slog.Logger
	now     func() time.Time
	started time.Time
	ctx     context.Context
	cancel  context.CancelFunc
	// draining ends when the server stops taking requests (Drain): the
	// event streams end then, so that the requests in flight can drain.
	draining context.Context
	drain    context.CancelFunc
	bg       sync.WaitGroup

	// rounds holds the games in memory and makes every change of them.
	rounds *round.Keeper

	// feed is cfg.Feed, nil for none; origin names this server on it.
	feed   Feed
	origin string

	// engineRate counts the engine games each client starts
	// (EngineGameLimits.Rate).
	engineRate throttle.Limiter
	// invitationRate counts the invitations each client makes
	// (InvitationLimits.Rate).
	invitationRate throttle.Limiter
	// challengeRate counts the challenges each player posts
	// (takeChallengeRate).
	challengeRate throttle.Limiter

	limMu    sync.Mutex
	limiters map[string]*clientLimit
	streams  map[string]int // open event streams by client address

	metrics metrics
	// accounts signs people up and in; nil without an account store.
	accounts *account.Service
	// work is the queue of the engine's work (think.go).
	work *enginework.Queue
	// rated keeps the ratings and lobby the challenges, if the store
	// does (nil otherwise: no rated games, no lobby); hub wakes the
	// lobby's viewers.
	rated ratings.Store
	lobby lobby.Store
	// puzzles keeps the puzzles' and solvers' ratings, nil if the store
	// does not (then nothing is rated).
	puzzles puzzle.Store
	hub     lobbyHub
	// spectators counts the spectators of each game (spectators.go).
	spectators spectatorHub
	// tvCache keeps the TV's last answer (tv.go).
	tvCache tvCache
	// explorer is the opening explorer's index of the finished games, if
	// the store keeps one (nil otherwise: the explorer has the book
	// alone).
	explorer explorer.Store
	// uploads keeps the uploaded records (nil: the site takes none),
	// uploadLimits counts them by client, and an upload's opening is
	// noted in the store at most every openedEvery (noteOpened).
	uploads      store.Uploads
	uploadLimits uploadThrottles
	openedEvery  time.Duration
	// chat keeps the games' chat and its moderation, nil if the store
	// does not (then the site has no chat); chats holds the chat's
	// viewers of each game, blocks the blocks of those with a stream
	// open, chatIn the chat's changes of the feed to take in
	// (chatHeard); chatRate, chatSiteRate and reportRate count the
	// lines of each account and of all, and the reports of each account.
	chat                               chat.Store
	chats                              chatHub
	blocks                             blockLists
	chatIn                             chan store.Change
	chatRate, chatSiteRate, reportRate throttle.Limiter
	// notes keeps the accounts' notifications, push subscriptions and
	// follows, if the store does (nil otherwise: none of them); pusher
	// sends the pushes (notify.go).
	notes  notify.Store
	pusher *notify.Pusher
	// vacations keeps the accounts' vacations, if the store does (nil
	// otherwise: none).
	vacations account.VacationStore
	// tours keeps the tournaments, if the store does (nil otherwise:
	// none); tourHub wakes their viewers, directed is the director's
	// memory (director.go).
	tours    tournament.Store
	tourHub  tourHub
	directed directed
}

type clientLimit struct {
	lim  *rate.Limiter
	seen time.Time
}

// New returns a server over cfg.Store. It resumes the work of the games in
// progress: engine moves to make and clocks to watch.
func New(ctx context.Context, cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: no store")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.EngineWorkers == 0 {
		cfg.EngineWorkers = runtime.NumCPU()
	}
	poll := time.Duration(0) // the queue's default, for a shared one
	if cfg.Jobs == nil {
		if cfg.EngineWorkers < 0 {
			return nil, errors.New("server: no engine workers and no shared queue of engine work: the engine would never move")
		}
		// This server's alone: every change of it is seen at once.
		cfg.Jobs, poll = enginework.NewMemory(), time.Second
	}
	if cfg.EngineHashMiB <= 0 {
		cfg.EngineHashMiB = 8
	}
	if cfg.RateLimit == 0 {
		cfg.RateLimit = 20
	}
	if cfg.RateBurst <= 0 {
		cfg.RateBurst = 60
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.EvictAfter <= 0 {
		cfg.EvictAfter = 10 * time.Minute
	}
	if cfg.MaxStreams <= 0 {
		cfg.MaxStreams = 32
	}
	if cfg.StreamKeepAlive <= 0 {
		cfg.StreamKeepAlive = 7 * time.Second
	}
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = 10000
	}
	if cfg.MaxClientConns <= 0 {
		cfg.MaxClientConns = 64
	}
	if cfg.BodyTimeout <= 0 {
		cfg.BodyTimeout = 10 * time.Second
	}
	if cfg.DeadlineSweep <= 0 {
		cfg.DeadlineSweep = time.Minute
	}
	if cfg.FlagSweep <= 0 {
		cfg.FlagSweep = time.Second
	}
	if cfg.FeedCheck <= 0 {
		cfg.FeedCheck = 30 * time.Second
	}
	if cfg.Accounts == nil {
		cfg.Accounts, _ = cfg.Store.(account.Store)
	}
	if cfg.BehindProxy {
		cfg.TrustedProxies = append(slices.Clip(cfg.TrustedProxies), loopback...)
	}
	cfg.ChallengeLimits = cfg.ChallengeLimits.OrDefault()
	if cfg.Account.Now == nil {
		cfg.Account.Now = cfg.Now
	}
	if cfg.Throttles == nil {
		cfg.Throttles, _ = cfg.Store.(throttle.Store)
	}
	if cfg.Throttles == nil {
		cfg.Throttles = throttle.NewMemory()
	}
	if cfg.Account.Throttles == nil {
		cfg.Account.Throttles = cfg.Throttles
	}
	cfg.EngineGames = cfg.EngineGames.withDefaults()
	cfg.Invitations = cfg.Invitations.withDefaults()
	if cfg.Uploads == nil {
		cfg.Uploads, _ = cfg.Store.(store.Uploads)
	}
	if cfg.UploadLimit == (throttle.Limit{}) {
		cfg.UploadLimit = throttle.Limit{Burst: 10, Every: 2 * time.Minute}
	}
	if cfg.UploadStorage <= 0 {
		cfg.UploadStorage = 1 << 30
	}
	if cfg.UploadIdle <= 0 {
		cfg.UploadIdle = 30 * 24 * time.Hour
	}
	if cfg.UploadSweep <= 0 {
		cfg.UploadSweep = time.Hour
	}
	cfg.Tournaments = cfg.Tournaments.withDefaults()
	if cfg.TournamentSweep <= 0 {
		cfg.TournamentSweep = time.Second
	}
	if cfg.TournamentFirstMove <= 0 {
		cfg.TournamentFirstMove = 2 * time.Minute
	}
	if cfg.ChatRate == (throttle.Limit{}) {
		cfg.ChatRate = chatRate
	}
	bctx, cancel := context.WithCancel(context.Background())
	dctx, drain := context.WithCancel(bctx)
	s := &Server{
		cfg: cfg, st: cfg.Store, log: cfg.Logger, now: cfg.Now,
		work: enginework.New(cfg.Jobs, enginework.Config{
			Limits: cfg.AnalysisLimits, Poll: poll, Now: cfg.Now, Logger: cfg.Logger,
		}),
		ctx: bctx, cancel: cancel, draining: dctx, drain: drain,
		feed:          cfg.Feed,
		origin:        newOrigin(),
		limiters:      map[string]*clientLimit{},
		streams:       map[string]int{},
		engineRate:    cfg.Throttles.Limiter("engine-games", cfg.EngineGames.Rate),
		challengeRate: cfg.Throttles.Limiter("challenges", challengeRate),
	}
	s.invitationRate = cfg.Throttles.Limiter("invitations", cfg.Invitations.Rate)
	if cfg.Accounts != nil {
		s.accounts = account.New(cfg.Accounts, cfg.Account)
	}
	s.rated, _ = cfg.Store.(ratings.Store)
	s.lobby, _ = cfg.Store.(lobby.Store)
	s.puzzles, _ = cfg.Store.(puzzle.Store)
	s.explorer, _ = cfg.Store.(explorer.Store)
	s.uploads = cfg.Uploads
	if s.tours, _ = cfg.Store.(tournament.Store); s.tours != nil && cfg.Accounts == nil {
		s.tours = nil // a tournament is between accounts
	}
	if s.chat, _ = cfg.Store.(chat.Store); s.chat != nil && cfg.Accounts == nil {
		s.chat = nil // a chat is between accounts
	}
	s.chatRate = cfg.Throttles.Limiter("chat", cfg.ChatRate)
	s.chatSiteRate = cfg.Throttles.Limiter("chat-site", chatSiteRate)
	s.reportRate = cfg.Throttles.Limiter("reports", reportRate)
	s.uploadLimits = newUploadThrottles(cfg.Throttles, cfg.UploadLimit)
	// An upload in use is noted opened well within its idle time.
	s.openedEvery = min(24*time.Hour, cfg.UploadIdle/4)
	s.hub.subs = map[chan struct{}]struct{}{}
	s.started = s.now()
	s.initMetrics()
	if err := s.startNotify(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("server: notifications: %w", err)
	}
	s.vacations, _ = cfg.Accounts.(account.VacationStore)
	var err error
	if s.rounds, err = s.newKeeper(); err != nil {
		s.Close()
		return nil, err
	}
	if s.chat != nil {
		s.chatIn = make(chan store.Change, chatInbox)
		s.bg.Add(1)
		go s.chatInboxLoop()
	}
	if s.feed != nil {
		if err := s.follow(); err != nil {
			s.Close()
			return nil, fmt.Errorf("server: change feed: %w", err)
		}
	}
	// The engine games left unplayed while the server was down end
	// before its workers would take up their engine's moves, and before
	// resume would ask for them again.
	s.rounds.ReapIdle()
	if cfg.EngineWorkers > 0 {
		s.bg.Add(1)
		go func() {
			defer s.bg.Done()
			s.work.Run(s.ctx, enginework.Workers{N: cfg.EngineWorkers, HashMiB: cfg.EngineHashMiB, Apply: s.rounds.ApplyMove})
		}()
	}
	if err := s.rounds.Resume(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.backfillIndex(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("server: the explorer's index: %w", err)
	}
	s.rounds.SweepDeadlines()
	s.rounds.Start()
	s.every(time.Hour, s.pruneChallenges)
	s.every(time.Hour, s.pruneThrottles)
	s.every(spectatorsRenew, s.renewSpectators)
	if s.uploads != nil {
		s.every(s.cfg.UploadSweep, s.expireUploads)
	}
	if s.tours != nil {
		s.every(s.cfg.TournamentSweep, s.sweepTournaments)
	}
	return s, nil
}

// every runs f every interval in the background until Close.
func (s *Server) every(interval time.Duration, f func()) {
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				f()
			case <-s.ctx.Done():
				return
			}
		}
	}()
}

// pruneThrottles forgets the drained buckets of the throttles.
func (s *Server) pruneThrottles() {
	if err := s.cfg.Throttles.PruneThrottles(s.ctx, s.now()); err != nil && s.ctx.Err() == nil {
		s.log.Error("prune throttles", "err", err)
	}
}

// openStream counts an event stream of a client, refusing more than
// cfg.MaxStreams at once; the returned function closes it.
func (s *Server) openStream(addr string) (func(), bool) {
	s.limMu.Lock()
	defer s.limMu.Unlock()
	if s.streams[addr] >= s.cfg.MaxStreams {
		return nil, false
	}
	s.streams[addr]++
	s.metrics.streams.Add(1)
	return func() {
		s.limMu.Lock()
		defer s.limMu.Unlock()
		s.metrics.streams.Add(-1)
		if s.streams[addr]--; s.streams[addr] <= 0 {
			delete(s.streams, addr)
		}
	}, true
}

// Drain ends the event streams, at once and as they open from now on,
// so that an http.Server's Shutdown, which waits for the requests in
// flight, need not wait for them (register it with RegisterOnShutdown).
// The rest goes on: the requests in flight are answered, the engine's
// work and the clocks run, until Close.
func (s *Server) Drain() { s.drain() }

// handleReady is GET /readyz: 200 when the server can serve, its store
// answering; 503 with the API's JSON error when it cannot (the store down,
// or the server stopping), so that a load balancer sends the players
// elsewhere. /healthz says only that the process answers.
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	if s.draining.Err() != nil {
		writeError(w, failure(http.StatusServiceUnavailable, codeUnavailable, "the server is stopping"))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.ping(ctx); err != nil {
		s.log.Warn("readyz: the store does not answer", "err", err)
		writeError(w, failure(http.StatusServiceUnavailable, codeUnavailable, "the server cannot reach its storage just now"))
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Write([]byte("ready\n"))
}

// pinger is a store that can say whether it answers (sqlstore's DB).
type pinger interface{ Ping(context.Context) error }

// ping checks that the store answers: by its Ping, or else by reading
// the latest game.
func (s *Server) ping(ctx context.Context) error {
	if p, ok := s.st.(pinger); ok {
		return p.Ping(ctx)
	}
	_, err := s.st.Recent(ctx, 1, time.Time{})
	return err
}

// Close stops the background work (engine searches, clock timers) and
// waits for it. It does not close the store. A server that takes
// requests is first drained (Drain, http.Server.Shutdown), so that no
// request is served by a stopped server.
func (s *Server) Close() {
	s.drain()
	s.cancel()
	s.bg.Wait()
	// After the server's own work, whose engine moves the keeper plays.
	if s.rounds != nil {
		s.rounds.Close()
	}
}

// newKeeper returns the keeper of the server's games.
func (s *Server) newKeeper() (*round.Keeper, error) {
	cfg := s.cfg
	rc := round.Config{
		Store: cfg.Store, Ratings: s.rated, Explorer: s.explorer, Lobby: s.lobby, Uploads: s.uploads,
		Work: s.work, Origin: s.origin, Logger: s.log, Now: s.now, Started: s.started,
		Metrics: round.Metrics{
			MovesAccepted: &s.metrics.movesAccepted, EngineMoves: &s.metrics.engineMoves,
			StoreErrors: &s.metrics.storeErrors, IdleGamesEnded: &s.metrics.idleGamesEnded,
			InvitationsExpired: &s.metrics.invitationsExpired,
			FeedReloads:        &s.metrics.feedReloads, FeedApplied: &s.metrics.feedApplied, FeedWaits: &s.metrics.feedWaits,
		},
		EvictAfter: cfg.EvictAfter, DeadlineSweep: cfg.DeadlineSweep, FlagSweep: cfg.FlagSweep, FeedCheck: cfg.FeedCheck, FeedWait: cfg.FeedWait,
		Unstarted: cfg.EngineGames.Unstarted, Idle: cfg.EngineGames.Idle, IdleSweep: cfg.EngineGames.Sweep,
		InvitationExpiry: cfg.Invitations.Expiry, CorrespondenceExpiry: cfg.Invitations.CorrespondenceExpiry,
		OpenedEvery: s.openedEvery,
	}
	if s.feed != nil {
		// A nil Feed in the interface would not be nil.
		rc.Feed = s.feed
	}
	if s.notes != nil {
		rc.Notifier = notifier{s}
	}
	if s.vacations != nil {
		rc.Vacations = s.vacations
	}
	return round.New(s.ctx, rc)
}

// Handler returns the site: the API, the events and the UI.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/games", s.api(scoped(account.ScopeBoardPlay, s.handleCreate)))
	mux.HandleFunc("GET /api/games", s.api(s.handleList))
	mux.HandleFunc("GET /api/games/{id}", s.api(s.handleGet))
	mux.HandleFunc("GET /api/my-games", s.api(s.handleMyGames))
	mux.HandleFunc("GET /api/games/{id}/at/{ply}", s.api(s.handleAt))
	mux.HandleFunc("POST /api/games/{id}/join", s.api(scoped(account.ScopeBoardPlay, s.handleJoin)))
	mux.HandleFunc("POST /api/games/{id}/move", s.api(scoped(account.ScopeBoardPlay, s.handleMove)))
	mux.HandleFunc("POST /api/games/{id}/resign", s.api(scoped(account.ScopeBoardPlay, s.handleResign)))
	mux.HandleFunc("POST /api/games/{id}/abort", s.api(scoped(account.ScopeBoardPlay, s.handleAbort)))
	mux.HandleFunc("POST /api/games/{id}/draw", s.api(scoped(account.ScopeBoardPlay, s.handleDraw)))
	mux.HandleFunc("POST /api/games/{id}/takeback", s.api(scoped(account.ScopeBoardPlay, s.handleTakeback)))
	mux.HandleFunc("GET /api/games/{id}/events", s.handleEvents)
	mux.HandleFunc("GET /api/games/{id}/record.pgn", s.handleRecordPGN)
	mux.HandleFunc("GET /api/games/{id}/record.json", s.handleRecordJSON)
	mux.HandleFunc("POST /api/records", s.api(s.handleUpload))
	mux.HandleFunc("POST /api/analyze", s.api(s.handleAnalyze))
	mux.HandleFunc("POST /api/position", s.api(s.handlePosition))
	mux.HandleFunc("POST /api/account/signup", s.api(s.handleSignup))
	mux.HandleFunc("POST /api/account/login", s.api(s.handleLogin))
	mux.HandleFunc("POST /api/account/logout", s.api(s.handleLogout))
	mux.HandleFunc("GET /api/account/me", s.api(s.handleMe))
	mux.HandleFunc("POST /api/account/vacation", s.api(s.handleStartVacation))
	mux.HandleFunc("DELETE /api/account/vacation", s.api(s.handleEndVacation))
	mux.HandleFunc("GET /api/account/tokens", s.api(s.handleTokens))
	mux.HandleFunc("POST /api/account/tokens", s.api(s.handleCreateToken))
	mux.HandleFunc("DELETE /api/account/tokens/{id}", s.api(s.handleRevokeToken))
	mux.HandleFunc("POST /api/bot/account/upgrade", s.api(scoped(account.ScopeBotPlay, s.handleBotUpgrade)))
	mux.HandleFunc("GET /api/stream/event", s.handleEventStream)
	mux.HandleFunc("GET /api/bot/game/stream/{id}", s.handleGameStream)
	mux.HandleFunc("POST /api/bot/game/{id}/move/{move}", s.api(s.botAction(s.botMove)))
	mux.HandleFunc("POST /api/bot/game/{id}/resign", s.api(s.botAction(s.botResign)))
	mux.HandleFunc("POST /api/bot/game/{id}/abort", s.api(s.botAction(s.botAbort)))
	mux.HandleFunc("POST /api/bot/game/{id}/draw/{answer}", s.api(s.botAction(s.botDraw)))
	mux.HandleFunc("GET /api/users/{name}", s.api(s.handleProfile))
	mux.HandleFunc("GET /api/users/{name}/games", s.api(s.handlePlayerGames))
	mux.HandleFunc("GET /api/users/{name}/games.pgn", s.handlePlayerPGN)
	mux.HandleFunc("GET /api/users/{name}/rating-history", s.api(s.handleRatingHistory))
	mux.HandleFunc("GET /api/lobby", s.api(s.handleLobby))
	mux.HandleFunc("GET /api/lobby/events", s.handleLobbyEvents)
	mux.HandleFunc("GET /api/pools", s.api(s.handlePools))
	mux.HandleFunc("GET /api/pools/{id}/seek", s.handlePoolSeek)
	mux.HandleFunc("POST /api/challenges", s.api(scoped(account.ScopeChallengeWrite, s.handleChallenge)))
	mux.HandleFunc("POST /api/challenges/{id}/{action}", s.api(scoped(account.ScopeChallengeWrite, s.handleChallengeAction)))
	mux.HandleFunc("POST /api/games/{id}/rematch", s.api(scoped(account.ScopeChallengeWrite, s.handleRematch)))
	mux.HandleFunc("GET /api/engines", s.api(s.handleEngines))
	mux.HandleFunc("POST /api/lang", s.api(s.handleLang))
	mux.HandleFunc("POST /api/prefs", s.api(s.handlePrefs))
	mux.HandleFunc("GET /api/lessons", s.api(s.handleLessons))
	mux.HandleFunc("POST /api/position/why", s.api(s.handleWhy))
	mux.HandleFunc("GET /api/puzzles/next", s.api(s.handleNextPuzzle))
	mux.HandleFunc("GET /api/puzzles/{id}", s.api(s.handlePuzzle))
	mux.HandleFunc("POST /api/puzzles/{id}/attempt", s.api(s.handlePuzzleAttempt))
	mux.HandleFunc("GET /api/explorer", s.api(s.handleExplorer))
	mux.HandleFunc("GET /api/tv", s.api(s.handleTV))
	mux.HandleFunc("POST /api/games/{id}/chat", s.api(s.handleChat))
	mux.HandleFunc("GET /api/games/{id}/chat", s.api(s.handleChatLines))
	mux.HandleFunc("POST /api/users/{name}/block", s.api(s.handleBlock(true)))
	mux.HandleFunc("POST /api/users/{name}/unblock", s.api(s.handleBlock(false)))
	mux.HandleFunc("POST /api/users/{name}/report", s.api(s.handleReport))
	mux.HandleFunc("POST /api/users/{name}/mute", s.api(s.handleMute(true)))
	mux.HandleFunc("POST /api/users/{name}/unmute", s.api(s.handleMute(false)))
	s.notifyRoutes(mux)
	s.tournamentRoutes(mux)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		// The patterns name their methods, so a path of the API asked
		// with another method comes here: it is told the ones it takes.
		var allowed []string
		for _, m := range []string{http.MethodGet, http.MethodPost} {
			other := r.Clone(r.Context())
			other.Method = m
			if _, pattern := mux.Handler(other); pattern != "/api/" && pattern != "" {
				allowed = append(allowed, m)
			}
		}
		if len(allowed) > 0 {
			w.Header().Set("Allow", strings.Join(allowed, ", "))
			writeError(w, failure(http.StatusMethodNotAllowed, codeBadMethod,
				fmt.Sprintf("%s %s is not an endpoint: use %s", r.Method, r.URL.Path, strings.Join(allowed, " or "))))
			return
		}
		writeError(w, failure(http.StatusNotFound, codeNoEndpoint, "no such API endpoint"))
	})

	mux.HandleFunc("GET /{$}", s.page("index.html"))
	mux.HandleFunc("GET /g/{id}", s.gamePage)
	mux.HandleFunc("GET /my", s.page("index.html"))
	mux.HandleFunc("GET /@/{name}", s.page("index.html"))
	mux.HandleFunc("GET /lobby", s.page("index.html"))
	mux.HandleFunc("GET /tv", s.page("index.html"))
	mux.HandleFunc("GET /rules", s.rulesPage)
	mux.HandleFunc("GET /engine.wasm", s.handleEngine)
	mux.HandleFunc("GET /analysis", s.page("analysis.html"))
	mux.HandleFunc("GET /learn", s.page("learn.html"))
	mux.HandleFunc("GET /puzzles", s.page("puzzles.html"))
	mux.HandleFunc("GET /explorer", s.page("explorer.html"))
	mux.HandleFunc("GET /debug/vars", s.handleVars)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok\n")) })
	mux.HandleFunc("GET /readyz", s.handleReady)
	mux.Handle("/", s.staticFiles())

	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, failure(http.StatusForbidden, codeCrossOrigin,
			"cross-origin request refused: the site's pages send their requests from the site itself"))
	}))
	var h http.Handler = mux
	h = s.withBearer(h, cop.Handler(s.authenticate(h)))
	h = s.limit(h)
	h = s.logRequests(h)
	h = recoverPanics(s.log, h)
	h = securityHeaders(h)
	if len(s.cfg.TrustedProxies) > 0 {
		h = fromProxies(s.cfg.TrustedProxies, h)
	}
	return h
}

// limit applies the per-client rate limit to the API.
func (s *Server) limit(next http.Handler) http.Handler {
	if s.cfg.RateLimit < 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/api/") || strings.HasSuffix(r.URL.Path, "/events") {
			next.ServeHTTP(w, r)
			return
		}
		if !s.allow(clientKey(r)) {
			w.Header().Set("Retry-After", "1")
			writeError(w, failure(http.StatusTooManyRequests, codeTooMany, "too many requests: slow down a little"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) allow(addr string) bool {
	s.limMu.Lock()
	defer s.limMu.Unlock()
	now := s.now()
	c := s.limiters[addr]
	if c == nil {
		if len(s.limiters) > 10000 {
			// Forget the clients that have been quiet for a minute.
			for a, l := range s.limiters {
				if now.Sub(l.seen) > time.Minute {
					delete(s.limiters, a)
				}
			}
		}
		c = &clientLimit{lim: rate.NewLimiter(rate.Limit(s.cfg.RateLimit), s.cfg.RateBurst)}
		s.limiters[addr] = c
	}
	c.seen = now
	return c.lim.Allow()
}

// clientKey is the key of the request's client in every per-client
// bound of the site (throttle.ClientKey): its address, or its /64 for
// IPv6.
func clientKey(r *http.Request) string { return throttle.ClientKey(clientAddr(r)) }

// clientAddr is the request's client address, as the logs say it.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// statusWriter notes the answer's status, and its error code if it is
// an error of the API (writeError), for the log and the metrics.
type statusWriter struct {
	http.ResponseWriter
	status int
	code   string
}

// noteCode tells the statusWriter under w, if any, the error code that
// answered the request.
func noteCode(w http.ResponseWriter, code string) {
	for {
		switch t := w.(type) {
		case *statusWriter:
			t.code = code
			return
		case interface{ Unwrap() http.ResponseWriter }:
			w = t.Unwrap()
		default:
			return
		}
	}
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: 200}
		next.ServeHTTP(sw, r)
		s.metrics.count(sw.status, sw.code, r.Context().Err() != nil)
		level := slog.LevelDebug
		if sw.status >= 500 && !busy[sw.code] && r.Context().Err() == nil {
			// A total bound reached (busy) is the site doing its job, and
			// a client gone before its answer its own doing: neither is an
			// error of the server; a refusal is counted (refused_busy).
			level = slog.LevelError
		} else if strings.HasPrefix(r.URL.Path, "/api/") && r.Method != http.MethodGet {
			level = slog.LevelInfo
		}
		attrs := []any{"method", r.Method, "path", r.URL.Path, "status", sw.status}
		if sw.code != "" {
			attrs = append(attrs, "code", sw.code)
		}
		attrs = append(attrs, "ms", time.Since(start).Milliseconds(), "client", clientAddr(r))
		s.log.Log(r.Context(), level, "request", attrs...)
	})
}

// recoverPanics turns a panic in a handler into a plain 500, logging the
// details instead of showing them.
func recoverPanics(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				log.Error("panic", "path", r.URL.Path, "value", v)
				writeError(w, failure(http.StatusInternalServerError, codeInternal, "internal error"))
			}
		}()
		next.ServeHTTP(w, r)
	})
}
