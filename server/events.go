package server

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"emergo/chat"
)

// handleEvents streams the game's state to a viewer as Server-Sent
// Events: once at once, then after every change. Changes are signalled,
// not queued, so a slow viewer gets the latest state rather than a
// backlog.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	done, ok := s.openStream(clientKey(r))
	if !ok {
		writeError(w, failure(http.StatusTooManyRequests, codeTooManyLive, "too many live connections from your address"))
		return
	}
	defer done()
	lv, err := s.rounds.Load(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	who := viewer{user: userID(r.Context())}
	who.cookie, who.token = seatCookie(r)
	wake := make(chan struct{}, 1)
	defer lv.Subscribe(wake)()
	cs, closeChat := s.openChat(r.Context(), lv, who)
	defer closeChat()
	first := s.state(lv.View(), who)
	counts, leave := s.joinSpectators(first.ID, first.You == nil)
	defer leave()
	s.streamWith(w, r, "state", wake, 0, func() (any, bool) {
		return s.state(lv.View(), who), true
	}, cs, counts)
}

// streamPing is how often a quiet event stream sends a comment, so that
// proxies and browsers keep it open.
const streamPing = 15 * time.Second

// stream serves Server-Sent Events named event to one viewer: view's value
// at once, again whenever wake fires, and every refresh if refresh is not
// zero (a comment every streamPing otherwise). A view that is not ok is
// skipped until the next time. It returns when the viewer goes or the
// server stops.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, event string, wake <-chan struct{}, refresh time.Duration, view func() (any, bool)) {
	s.streamWith(w, r, event, wake, refresh, view, nil, nil)
}

// streamWith is stream, with a game's chat (events "chat") if cs is not
// nil: its latest lines after the first view, then each line as it
// comes, those its reader sees as he is when it is written, so that a
// block or the end of the game counts at once; and the game's
// spectators (events "spectators", {"n": 3}) each time their number
// changes, if counts is not nil.
func (s *Server) streamWith(w http.ResponseWriter, r *http.Request, event string, wake <-chan struct{}, refresh time.Duration, view func() (any, bool), cs *chatStream, counts <-chan int) {
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	write := func(text string) bool {
		_, err := w.Write([]byte(text))
		return err == nil && rc.Flush() == nil
	}
	send := func() bool {
		v, ok := view()
		if !ok {
			return true
		}
		data, _ := json.Marshal(v)
		return write("event: " + event + "\ndata: " + string(data) + "\n\n")
	}
	var lines <-chan chat.Line
	// sent are the latest lines sent at once, which the queue may bring
	// again (written meanwhile).
	sent := map[int64]bool{}
	chatLine := func(l *chat.Line) bool {
		if sent[l.ID] || !cs.reader().Sees(l) {
			return true
		}
		data, _ := json.Marshal(lineOf(l))
		return write("event: chat\ndata: " + string(data) + "\n\n")
	}
	if !send() {
		return
	}
	if cs != nil {
		lines = cs.lines
		for i := range cs.first {
			if !chatLine(&cs.first[i]) {
				return
			}
		}
		for i := range cs.first {
			sent[cs.first[i].ID] = true
		}
	}
	every := refresh
	if every == 0 {
		every = streamPing
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		ok := true
		select {
		case <-wake:
			ok = send()
		case l := <-lines:
			ok = chatLine(&l)
		case n := <-counts:
			ok = write("event: spectators\ndata: {\"n\":" + strconv.Itoa(n) + "}\n\n")
		case <-tick.C:
			if refresh != 0 {
				ok = send()
			} else {
				ok = write(": ping\n\n")
			}
		case <-r.Context().Done():
			return
		case <-s.draining.Done():
			return
		}
		if !ok {
			return
		}
	}
}
