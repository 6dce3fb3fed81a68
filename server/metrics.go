package server

import (
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
	gamesCreated, movesAccepted, engineMoves, storeErrors expvar.Int
	// The feed's: changes announced by other servers, games read again
	// for them, times the feed broke and listened again.
	feedChanges, feedReloads, feedBreaks expvar.Int
	// Gauges.
	searching, streams expvar.Int
}

func (s *Server) initMetrics() {
	m := &s.metrics
	m.vars.Init()
	m.vars.Set("games_created", &m.gamesCreated)
	m.vars.Set("moves_accepted", &m.movesAccepted)
	m.vars.Set("engine_moves", &m.engineMoves)
	m.vars.Set("store_errors", &m.storeErrors)
	m.vars.Set("feed_changes", &m.feedChanges)
	m.vars.Set("feed_reloads", &m.feedReloads)
	m.vars.Set("feed_breaks", &m.feedBreaks)
	m.vars.Set("searching", &m.searching)
	m.vars.Set("event_streams", &m.streams)
	m.vars.Set("games_in_memory", expvar.Func(func() any { return s.Cached() }))
}

func (s *Server) handleVars(w http.ResponseWriter, r *http.Request) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		writeError(w, &apiError{http.StatusNotFound, "no such page"})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"emergo": ` + s.metrics.vars.String() + "}\n"))
}
