package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"emergo/account"
	"emergo/chat"
	"emergo/store"
	"emergo/tournament"
)

// TournamentStore is a store of games and accounts that keeps the
// tournaments too: a tournament's creator and players are accounts, its
// pairings' games are games.
type TournamentStore interface {
	store.Store
	account.Store
	tournament.Store
}

// Tournaments runs the suite of a tournament.Store. open returns an
// empty store; another opens the same data a second time, as another
// server does.
func Tournaments(t *testing.T, open func(t *testing.T) TournamentStore, another func(t *testing.T, s TournamentStore) TournamentStore) {
	ctx := context.Background()
	setup := func(t *testing.T) (TournamentStore, []int64) {
		t.Helper()
		s := open(t)
		var ids []int64
		for _, name := range []string{"ann", "bob", "cid", "dan"} {
			u := &account.User{Name: name, Key: name, Password: "x", Created: ms(1000)}
			if err := s.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, u.ID)
		}
		return s, ids
	}
	newTournament := func(id string, creator int64, at time.Time) *tournament.Tournament {
		return &tournament.Tournament{
			ID: id, Name: "Sunday " + id, System: tournament.Swiss, Size: 9, Initial: 3 * time.Minute, Increment: 2 * time.Second,
			Rated: true, Start: at.Add(time.Hour), Rounds: 5,
			Conditions: tournament.Conditions{MinRating: 1200, MaxRating: 1800, MinRatedGames: 3, Invited: []string{"bob", "cid"}, Password: "hash"},
			Creator:    creator, CreatorName: "ann", Status: tournament.Created, Created: at,
		}
	}
	allow := func(tournament.Counts) error { return nil }

	t.Run("CreateGetList", func(t *testing.T) {
		s, ids := setup(t)
		tr := newTournament("t1", ids[0], ms(10000))
		if err := s.CreateTournament(ctx, tr, allow); err != nil {
			t.Fatal(err)
		}
		got, err := s.Tournament(ctx, "t1")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tr, got); diff != "" || tr.Version != 1 {
			t.Errorf("Tournament differs from what was created (-want +got):\n%s", diff)
		}
		if _, err := s.Tournament(ctx, "nope"); !errors.Is(err, tournament.ErrNotFound) {
			t.Errorf("an unknown tournament: %v", err)
		}
		// The counts of the bounds: ann's open and of the day, the site's.
		var seen tournament.Counts
		refuse := errors.New("refused")
		err = s.CreateTournament(ctx, newTournament("t2", ids[0], ms(20000)), func(c tournament.Counts) error { seen = c; return refuse })
		if !errors.Is(err, refuse) || seen != (tournament.Counts{Open: 1, Day: 1, Site: 1}) {
			t.Errorf("refused creation: %v, counts %+v", err, seen)
		}
		if _, err := s.Tournament(ctx, "t2"); !errors.Is(err, tournament.ErrNotFound) {
			t.Errorf("a refused tournament is stored: %v", err)
		}
		tr.Status = tournament.Finished
		if err := s.UpdateTournament(ctx, tr); err != nil || tr.Version != 2 {
			t.Fatalf("update: %v, version %d", err, tr.Version)
		}
		stale := *tr
		stale.Version = 1
		if err := s.UpdateTournament(ctx, &stale); !errors.Is(err, tournament.ErrConflict) {
			t.Errorf("a stale update: %v, want ErrConflict", err)
		}
		next := tournament.Day + time.Minute
		err = s.CreateTournament(ctx, newTournament("t3", ids[0], ms(10000).Add(next)), func(c tournament.Counts) error { seen = c; return nil })
		if err != nil || seen != (tournament.Counts{}) {
			t.Errorf("after the first finished, a day later: %v, counts %+v", err, seen)
		}
		list, err := s.Tournaments(ctx, 50)
		if err != nil || len(list) != 2 || list[0].ID != "t3" || list[1].ID != "t1" {
			t.Errorf("list: %v %+v", err, list)
		}
		if list, _ := s.Tournaments(ctx, 0); len(list) != 1 {
			t.Errorf("list without the finished: %+v", list)
		}
	})

	t.Run("EntriesAndVersion", func(t *testing.T) {
		s, ids := setup(t)
		tr := newTournament("t1", ids[0], ms(10000))
		if err := s.CreateTournament(ctx, tr, allow); err != nil {
			t.Fatal(err)
		}
		for i, id := range ids[:3] {
			e := tournament.Entry{User: id, Name: fmt.Sprint("p", i), Bot: i == 2, Rating: 1500 + i, Joined: ms(int64(20000 + i))}
			if err := s.Enter(ctx, "t1", e, 3); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Enter(ctx, "t1", tournament.Entry{User: ids[3], Name: "dan", Joined: ms(30000)}, 3); !errors.Is(err, tournament.ErrFull) {
			t.Errorf("a fourth of three: %v, want ErrFull", err)
		}
		es, err := s.Entries(ctx, "t1")
		if err != nil || len(es) != 3 || es[0].User != ids[0] || es[0].Rating != 1500 || es[1].Withdrawn || !es[2].Bot || !es[0].Joined.Equal(ms(20000)) {
			t.Errorf("entries: %v %+v", err, es)
		}
		// Before the start, a player who withdraws leaves no entry.
		if err := s.Withdraw(ctx, "t1", ids[2]); err != nil {
			t.Fatal(err)
		}
		if es, _ := s.Entries(ctx, "t1"); len(es) != 2 {
			t.Errorf("entries after a withdrawal before the start: %+v", es)
		}
		tr, _ = s.Tournament(ctx, "t1")
		tr.Status = tournament.Running
		if err := s.UpdateTournament(ctx, tr); err != nil {
			t.Fatal(err)
		}
		if err := s.Enter(ctx, "t1", tournament.Entry{User: ids[2], Name: "p2", Bot: true, Rating: 1502, Joined: ms(20002)}, 3); err != nil {
			t.Fatal(err)
		}
		if err := s.Withdraw(ctx, "t1", ids[1]); err != nil {
			t.Fatal(err)
		}
		es, err = s.Entries(ctx, "t1")
		if err != nil || len(es) != 3 || !es[1].Withdrawn || es[2].Withdrawn {
			t.Errorf("entries after a withdrawal once started: %v %+v", err, es)
		}
		// Back again: the entry as it was, not a fourth.
		if err := s.Enter(ctx, "t1", tournament.Entry{User: ids[1], Name: "p1", Joined: ms(40000)}, 3); err != nil {
			t.Errorf("back again: %v", err)
		}
		if es, _ := s.Entries(ctx, "t1"); len(es) != 3 || es[1].Withdrawn || !es[1].Joined.Equal(ms(20001)) {
			t.Errorf("entries after coming back: %+v", es)
		}
		if got, err := s.Tournament(ctx, "t1"); err != nil || got.Players != 3 {
			t.Errorf("players: %v %+v", err, got)
		}
		if list, _ := s.Tournaments(ctx, 0); len(list) != 1 || list[0].Players != 3 {
			t.Errorf("players in the list: %+v", list)
		}
		if v, err := s.TournamentVersion(ctx, "t1"); err != nil || v != 9 {
			t.Errorf("version after 8 changes: %d %v, want 9", v, err)
		}
		if err := s.Enter(ctx, "nope", tournament.Entry{User: ids[0]}, 3); !errors.Is(err, tournament.ErrNotFound) {
			t.Errorf("entering an unknown tournament: %v", err)
		}
	})

	t.Run("PairRecordEnded", func(t *testing.T) {
		s, ids := setup(t)
		tr := newTournament("t1", ids[0], ms(10000))
		if err := s.CreateTournament(ctx, tr, allow); err != nil {
			t.Fatal(err)
		}
		g := sample("tg1")
		g.Moves = nil
		ps := []tournament.Pairing{
			{Round: 1, Board: 1, White: ids[0], Black: ids[1], Game: "tg1", Result: tournament.Pending},
			{Round: 1, Board: 2, White: ids[2], Black: 0, Result: tournament.Bye},
		}
		if err := s.Pair(ctx, "t1", 1, ps, []*store.Game{g}); err != nil || g.Version != 1 {
			t.Fatalf("pair round 1: %v", err)
		}
		if err := s.Pair(ctx, "t1", 1, ps, []*store.Game{sample("tg2")}); !errors.Is(err, tournament.ErrConflict) {
			t.Errorf("round 1 paired again: %v, want ErrConflict", err)
		}
		if _, err := s.Get(ctx, "tg2"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the game of a refused pairing is stored: %v", err)
		}
		got, err := s.Pairings(ctx, "t1")
		if err != nil || !cmp.Equal(got, ps) {
			t.Errorf("pairings: %v %+v", err, got)
		}
		if tr, _ := s.Tournament(ctx, "t1"); tr.Round != 1 {
			t.Errorf("round after pairing: %d", tr.Round)
		}
		if ended, err := s.Ended(ctx); err != nil || len(ended) != 0 {
			t.Errorf("ended before the game ends: %v %+v", err, ended)
		}
		// Created at 1 s: unstarted from then on, with fewer than two
		// plies.
		if un, err := s.Unstarted(ctx, ms(1000)); err != nil || len(un) != 0 {
			t.Errorf("unstarted at its creation: %v %+v", err, un)
		}
		g.Moves = []store.Move{{Text: "d6", At: ms(2000)}}
		if err := s.Update(ctx, g, 0); err != nil {
			t.Fatal(err)
		}
		un, err := s.Unstarted(ctx, ms(1001))
		want := []tournament.Ended{{Tournament: "t1", Round: 1, Board: 1, Game: "tg1", White: ids[0], Black: ids[1], Result: "*", Plies: 1}}
		if err != nil || !cmp.Equal(un, want) {
			t.Errorf("unstarted: %v %+v, want %+v", err, un, want)
		}
		g.Result, g.Reason = "1-0", "resignation"
		if err := s.Update(ctx, g, 1); err != nil {
			t.Fatal(err)
		}
		if un, _ := s.Unstarted(ctx, ms(1001)); len(un) != 0 {
			t.Errorf("unstarted once over: %+v", un)
		}
		ended, err := s.Ended(ctx)
		want[0].Result = "1-0"
		if err != nil || !cmp.Equal(ended, want) {
			t.Errorf("ended: %v %+v, want %+v", err, ended, want)
		}
		v, _ := s.TournamentVersion(ctx, "t1")
		for range 2 { // the second finds it recorded
			if err := s.Record(ctx, "t1", 1, 1, "1-0"); err != nil {
				t.Fatal(err)
			}
		}
		if w, _ := s.TournamentVersion(ctx, "t1"); w != v+1 {
			t.Errorf("version %d after one result recorded, want %d", w, v+1)
		}
		if ended, _ := s.Ended(ctx); len(ended) != 0 {
			t.Errorf("ended once recorded: %+v", ended)
		}
		if got, _ := s.Pairings(ctx, "t1"); got[0].Result != "1-0" {
			t.Errorf("recorded: %+v", got)
		}
	})

	t.Run("Chat", func(t *testing.T) {
		s, ids := setup(t)
		if err := s.CreateTournament(ctx, newTournament("t1", ids[0], ms(10000)), allow); err != nil {
			t.Fatal(err)
		}
		var want []chat.Line
		for i := range 4 {
			l := chat.Line{Game: "t1", User: ids[i%2], Name: fmt.Sprint("n", i), Text: fmt.Sprint("line ", i), Time: ms(int64(20000 + i)), Muted: i == 3}
			if err := s.AddChatLine(ctx, &l, 3); err != nil || l.ID == 0 {
				t.Fatalf("line %d: %v", i, err)
			}
			l.Room = chat.Spectators
			want = append(want, l)
		}
		got, err := s.ChatLines(ctx, "t1", 10)
		if err != nil || !cmp.Equal(got, want[1:]) {
			t.Errorf("the lines kept: %v\n%+v\nwant %+v", err, got, want[1:])
		}
		if got, _ := s.ChatLines(ctx, "t1", 2); !cmp.Equal(got, want[2:]) {
			t.Errorf("the latest two: %+v", got)
		}
		if v, _ := s.TournamentVersion(ctx, "t1"); v != 5 {
			t.Errorf("version after 4 lines: %d, want 5", v)
		}
		if err := s.AddChatLine(ctx, &chat.Line{Game: "nope", User: ids[0], Text: "x"}, 3); !errors.Is(err, tournament.ErrNotFound) {
			t.Errorf("a line in no tournament: %v", err)
		}
	})

	t.Run("PairedOnceAcrossStores", func(t *testing.T) {
		s, ids := setup(t)
		other := another(t, s)
		if err := s.CreateTournament(ctx, newTournament("t1", ids[0], ms(10000)), allow); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				st := []TournamentStore{s, other}[i%2]
				g := sample(fmt.Sprint("race", i))
				ps := []tournament.Pairing{{Round: 1, Board: 1, White: ids[0], Black: ids[1], Game: g.ID, Result: tournament.Pending}}
				errs[i] = st.Pair(ctx, "t1", 1, ps, []*store.Game{g})
			}()
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, tournament.ErrConflict):
				t.Errorf("a racing pairing: %v", err)
			}
		}
		ps, _ := s.Pairings(ctx, "t1")
		if won != 1 || len(ps) != 1 {
			t.Errorf("%d pairings of round 1 won, %d written, want 1 and 1", won, len(ps))
		}
		games := 0
		for i := range errs {
			if _, err := s.Get(ctx, fmt.Sprint("race", i)); err == nil {
				games++
			}
		}
		if games != 1 {
			t.Errorf("%d games stored, want 1", games)
		}
	})
}
