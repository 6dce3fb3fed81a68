package server

import (
	"encoding/json"
	"net/http"
	"time"
)

// handleEvents streams the game's state to a viewer as Server-Sent
// Events: once at once, then after every change. Changes are signalled,
// not queued, so a slow viewer gets the latest state rather than a
// backlog.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	done, ok := s.openStream(clientAddr(r))
	if !ok {
		writeError(w, failure(http.StatusTooManyRequests, codeTooManyLive, "too many live connections from your address"))
		return
	}
	defer done()
	lv, err := s.load(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	who := viewer{user: userID(r.Context())}
	who.cookie, who.token = seatCookie(r)
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)

	wake := make(chan struct{}, 1)
	lv.mu.Lock()
	lv.subs[wake] = struct{}{}
	lv.mu.Unlock()
	defer func() {
		lv.mu.Lock()
		delete(lv.subs, wake)
		lv.mu.Unlock()
	}()
	send := func() bool {
		lv.mu.Lock()
		st := s.state(lv, who)
		lv.mu.Unlock()
		data, _ := json.Marshal(st)
		if _, err := w.Write([]byte("event: state\ndata: " + string(data) + "\n\n")); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send() {
		return
	}
	ping := time.NewTicker(15 * time.Second)
	defer ping.Stop()
	for {
		select {
		case <-wake:
			if !send() {
				return
			}
		case <-ping.C:
			if _, err := w.Write([]byte(": ping\n\n")); err != nil || rc.Flush() != nil {
				return
			}
		case <-r.Context().Done():
			return
		case <-s.ctx.Done():
			return
		}
	}
}
