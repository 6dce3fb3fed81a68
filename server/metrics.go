package server

import (
	"database/sql"
	"expvar"
	"net"
	"net/http"
)

// metrics are the server's counters, served as JSON at /debug/vars to
// clients on the loopback interface (the operator's machine), in the shape
// of the standard expvar handler. They belong to the Server rather than to
// the process's global expvar set, so that several servers (as in tests)
// keep their own.
type metrics struct {
	vars expvar.Map
	// Counters.
	gamesCreated, movesAccepted, engineMoves, storeErrors, analysisRefused expvar.Int
	// The engine games refused by their bounds, and ended for want of
	// their person.
	engineGamesRefused, idleGamesEnded expvar.Int
	// The invitations (friend games waiting for their second player)
	// refused by their bounds, and aborted as nobody took them.
	invitationsRefused, invitationsExpired expvar.Int
	// The feed's: changes announced by other servers, games read again
	// for them, changes applied to the games held without reading them
	// again, times the feed broke and listened again.
	feedChanges, feedReloads, feedApplied, feedWaits, feedBreaks expvar.Int
	// Answers: every one, those with a status of 500 or more, and those
	// refused with 429 (a limit, a throttle).
	requests, serverErrors, tooMany expvar.Int
	// refused counts the answers that a total bound refused (503 with a
	// bound's code: a full queue, a full server), which are not server
	// errors; connsRefused the connections refused by Listener.
	refused, connsRefused expvar.Int
	// Gauges.
	streams, conns expvar.Int
	// The notifications stored, and their pushes: taken by a push
	// service, refused or not delivered, dropped by the full queue.
	notifications, pushSent, pushFailed, pushDropped expvar.Int
}

// pooled is a store with a pool of connections (sqlstore's DB), whose
// figures the metrics show.
type pooled interface{ PoolStats() sql.DBStats }

func (s *Server) initMetrics() {
	m := &s.metrics
	m.vars.Init()
	m.vars.Set("games_created", &m.gamesCreated)
	m.vars.Set("moves_accepted", &m.movesAccepted)
	m.vars.Set("engine_moves", &m.engineMoves)
	m.vars.Set("store_errors", &m.storeErrors)
	m.vars.Set("feed_changes", &m.feedChanges)
	m.vars.Set("feed_reloads", &m.feedReloads)
	m.vars.Set("feed_applied", &m.feedApplied)
	m.vars.Set("feed_waits", &m.feedWaits)
	m.vars.Set("feed_breaks", &m.feedBreaks)
	m.vars.Set("analysis_refused", &m.analysisRefused)
	m.vars.Set("engine_games_refused", &m.engineGamesRefused)
	m.vars.Set("idle_games_ended", &m.idleGamesEnded)
	m.vars.Set("invitations_refused", &m.invitationsRefused)
	m.vars.Set("invitations_expired", &m.invitationsExpired)
	m.vars.Set("searching", expvar.Func(func() any { return s.work.Running() }))
	m.vars.Set("event_streams", &m.streams)
	m.vars.Set("games_in_memory", expvar.Func(func() any { return s.Cached() }))
	m.vars.Set("requests", &m.requests)
	m.vars.Set("server_errors", &m.serverErrors)
	m.vars.Set("too_many_requests", &m.tooMany)
	m.vars.Set("refused_busy", &m.refused)
	m.vars.Set("connections", &m.conns)
	m.vars.Set("connections_refused", &m.connsRefused)
	m.vars.Set("notifications", &m.notifications)
	m.vars.Set("push_sent", &m.pushSent)
	m.vars.Set("push_failed", &m.pushFailed)
	m.vars.Set("push_dropped", &m.pushDropped)
	if p, ok := s.st.(pooled); ok {
		m.vars.Set("db_conns_open", expvar.Func(func() any { return p.PoolStats().OpenConnections }))
		m.vars.Set("db_conns_in_use", expvar.Func(func() any { return p.PoolStats().InUse }))
		m.vars.Set("db_waits", expvar.Func(func() any { return p.PoolStats().WaitCount }))
		m.vars.Set("db_wait_ms", expvar.Func(func() any { return p.PoolStats().WaitDuration.Milliseconds() }))
	}
}

// count counts an answer of status.
func (m *metrics) count(status int, code string, gone bool) {
	m.requests.Add(1)
	switch {
	case status >= 500 && busy[code]:
		m.refused.Add(1)
	case gone: // the client left before its answer
	case status >= 500:
		m.serverErrors.Add(1)
	case status == http.StatusTooManyRequests:
		m.tooMany.Add(1)
	}
}

func (s *Server) handleVars(w http.ResponseWriter, r *http.Request) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		writeError(w, failure(http.StatusNotFound, codeNoEndpoint, "no such page"))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"emergo": ` + s.metrics.vars.String() + "}\n"))
}

// Cached returns how many games the server holds in memory.
func (s *Server) Cached() int {
	if s.rounds == nil {
		return 0
	}
	return s.rounds.Cached()
}
