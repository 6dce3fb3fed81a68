package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"emergo/account"
	"emergo/enginework"
	"emergo/game"
	"emergo/lobby"
	"emergo/store/sqlstore"
)

// BenchmarkLobbyViews measures what a change of the lobby costs the
// server: every viewer of the event stream is sent the lobby again, as
// he sees it. The lobby holds 200 open challenges of 20 accounts and 100
// direct ones, one to each viewer; an op is a change and the views of the
// 100 viewers, each built and written as JSON as the stream writes it.
//
//	go test ./server -run '^$' -bench LobbyViews -benchmem
func BenchmarkLobbyViews(b *testing.B) {
	ctx := context.Background()
	st, err := sqlstore.OpenSQLite(ctx, filepath.Join(b.TempDir(), "games.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	s, err := New(ctx, Config{Store: st, Jobs: enginework.NewMemory(), EngineWorkers: -1, RateLimit: -1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	now := s.now()
	party := func(u int64) lobby.Party { return lobby.Party{User: u, Name: fmt.Sprintf("u%d", u)} }
	settings := lobby.Settings{Size: 9, Control: game.Control{Time: 5 * time.Minute, Increment: 3 * time.Second}}
	put := func(from, to lobby.Party) {
		c, err := lobby.New(newID(), from, to, settings, now)
		if err != nil {
			b.Fatal(err)
		}
		if err := st.CreateChallenge(ctx, c, lobby.Limits{Account: 1000, Guest: 1000, Total: 100000}); err != nil {
			b.Fatal(err)
		}
	}
	const viewers = 100
	for u := range int64(20) {
		for range 10 {
			put(party(1+u), lobby.Party{})
		}
	}
	for v := range int64(viewers) {
		put(party(1+v%20), party(1000+v))
	}
	// A change is of an open challenge, or one that another server
	// announced: whose it was is not said, and every viewer reads his own
	// again.
	open, _ := lobby.New(newID(), party(1), lobby.Party{}, settings, now)
	for _, change := range []struct {
		name string
		c    *lobby.Challenge
	}{{"open", open}, {"announced", nil}} {
		b.Run(change.name, func(b *testing.B) {
			keep := make([]ownList, viewers)
			cpu, measured := cpuTime()
			b.ResetTimer()
			for range b.N {
				s.hub.wake(change.c, s.now())
				for v := range int64(viewers) {
					p := party(1000 + v)
					view, err := s.lobbyView(ctx, p, &account.User{ID: p.User, Name: p.Name}, &keep[v])
					if err != nil {
						b.Fatal(err)
					}
					if _, err := json.Marshal(view); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*viewers), "ns/view")
			// The processor time, which other work on the machine does
			// not swell as it does the time.
			if end, ok := cpuTime(); measured && ok {
				b.ReportMetric(float64((end-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
			}
		})
	}
}
