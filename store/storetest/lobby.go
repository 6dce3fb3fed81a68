package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"emergo/game"
	"emergo/lobby"
	"emergo/store"
)

// LobbyStore is a store of games that keeps the lobby's challenges too:
// lobby.Store's Accept creates a game of the store.Store.
type LobbyStore interface {
	store.Store
	lobby.Store
}

// Lobby runs the suite of a lobby.Store. open returns an empty store;
// another opens the data of s a second time, beside s, as a second server
// on the same database does.
func Lobby(t *testing.T, open func(t *testing.T) LobbyStore, another func(t *testing.T, s LobbyStore) LobbyStore) {
	ctx := context.Background()
	alice := lobby.Party{User: 7, Token: "t-a", Name: "alice"}
	bob := lobby.Party{User: 8, Token: "t-b", Name: "bob"}
	carol := lobby.Party{User: 9, Token: "t-c", Name: "carol"}
	// roomy bounds nothing the tests below make.
	roomy := lobby.Limits{Account: 100, Guest: 100, Total: 1000}
	// challenge returns a pending challenge of Alice's made at created
	// (ms), waiting 10 s.
	challenge := func(id string, created int64) *lobby.Challenge {
		return &lobby.Challenge{
			ID: id, From: alice,
			Settings: lobby.Settings{Size: 9, Control: game.Control{Time: 5 * time.Minute, Increment: 3 * time.Second}, Rated: true, Color: lobby.Black},
			Status:   lobby.Pending, Created: ms(created), Expires: ms(created + 10000), Updated: ms(created),
		}
	}
	create := func(t *testing.T, s LobbyStore, cs ...*lobby.Challenge) {
		t.Helper()
		for _, c := range cs {
			if err := s.CreateChallenge(ctx, c, roomy); err != nil {
				t.Fatal(err)
			}
		}
	}
	get := func(t *testing.T, s LobbyStore, id string) *lobby.Challenge {
		t.Helper()
		c, err := s.Challenge(ctx, id)
		if err != nil {
			t.Fatalf("Challenge(%s): %v", id, err)
		}
		return c
	}
	t.Run("CreateAndGet", func(t *testing.T) {
		s := open(t)
		open, direct := challenge("c1", 1000), challenge("c2", 2000)
		direct.To, direct.Rematch, direct.Rated, direct.Color = bob, "g0", false, lobby.Random
		direct.Control = game.Control{Days: 3}
		// An open challenge that bots may take, and one to a bot.
		open.AllowBots = true
		direct.To.Bot = true
		// A rematch between guests: by their browsers.
		guests := challenge("c3", 3000)
		guests.From, guests.To = lobby.Party{Token: "t-x", Name: "Xavier"}, lobby.Party{Token: "t-y", Name: "Yves"}
		create(t, s, open, direct, guests)
		for _, want := range []*lobby.Challenge{open, direct, guests} {
			if diff := cmp.Diff(want, get(t, s, want.ID)); diff != "" {
				t.Errorf("Challenge(%s) (-want +got):\n%s", want.ID, diff)
			}
		}
		if _, err := s.Challenge(ctx, "nope"); !errors.Is(err, lobby.ErrNotFound) {
			t.Errorf("Challenge of nothing: %v, want ErrNotFound", err)
		}
		if err := s.CreateChallenge(ctx, challenge("c1", 5000), roomy); err == nil {
			t.Errorf("a second challenge of one ID was stored")
		}
	})
	// ids are the IDs of cs.
	ids := func(cs []lobby.Challenge) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	t.Run("OpenChallenges", func(t *testing.T) {
		s := open(t)
		// Alice's a1 to a3 (a2 from another browser of hers) and Bob's
		// b1 are open and pending; expired has expired, taken and
		// withdrawn were answered, direct is for Bob.
		a1, a2, a3, b1 := challenge("a1", 1000), challenge("a2", 2000), challenge("a3", 4000), challenge("b1", 3000)
		a2.From.Token = "t-a2"
		b1.From = bob
		expired, taken, withdrawn, direct := challenge("expired", 500), challenge("taken", 1500), challenge("withdrawn", 1600), challenge("direct", 1700)
		expired.Expires = ms(5000)
		direct.To = bob
		create(t, s, a3, b1, a2, a1, expired, taken, withdrawn, direct)
		if err := s.Accept(ctx, "taken", ms(4500), gameOf("g-taken")); err != nil {
			t.Fatal(err)
		}
		if err := s.Answer(ctx, "withdrawn", lobby.Cancelled, ms(4500)); err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name  string
			now   int64
			limit int
			want  []string
		}{
			{"pending and open, the oldest first", 4800, 10, []string{"expired", "a1", "a2", "b1", "a3"}},
			{"after an expiry", 5000, 10, []string{"a1", "a2", "b1", "a3"}},
			// Alice's oldest, Bob's, then Alice's second: one account
			// whatever its browsers.
			{"shared in turns", 5000, 3, []string{"a1", "a2", "b1"}},
			{"one each", 5000, 2, []string{"a1", "b1"}},
			{"after every expiry", 20000, 10, nil},
		}
		for _, tc := range tests {
			got, err := s.OpenChallenges(ctx, ms(tc.now), tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, ids(got)); diff != "" {
				t.Errorf("%s: OpenChallenges (-want +got):\n%s", tc.name, diff)
			}
		}
		if got, _ := s.OpenChallenges(ctx, ms(5000), 1); len(got) != 1 || !cmp.Equal(got[0], *a1) {
			t.Errorf("OpenChallenges read a1 as %+v", got)
		}
	})
	t.Run("ChallengesOf", func(t *testing.T) {
		s := open(t)
		// Alice's: open (pending), toBob (pending), expired, accepted at
		// 6000, declined by Bob at 3000. Made to Alice: fromBob
		// (pending), fromCarol (withdrawn at 6000). Bob's open is not
		// hers, nor Carol's to Bob.
		mine, toBob, expired, accepted, declined := challenge("mine", 1000), challenge("toBob", 2000), challenge("expired", 1500), challenge("accepted", 1200), challenge("declined", 1300)
		toBob.To, declined.To = bob, bob
		expired.Expires = ms(4000)
		fromBob, fromCarol, bobs, carolToBob := challenge("fromBob", 2500), challenge("fromCarol", 2600), challenge("bobs", 900), challenge("carolToBob", 950)
		fromBob.From, fromBob.To = bob, alice
		fromCarol.From, fromCarol.To = carol, alice
		bobs.From = bob
		carolToBob.From, carolToBob.To = carol, bob
		// Between guests, by their browsers: Xavier's rematch to Yves,
		// and a challenge made from Alice's browser, which is her
		// account's and not the browser's.
		x, y := lobby.Party{Token: "t-x", Name: "Xavier"}, lobby.Party{Token: "t-y", Name: "Yves"}
		guests := challenge("guests", 3000)
		guests.From, guests.To = x, y
		fromHerBrowser := challenge("fromHerBrowser", 3100)
		fromHerBrowser.From.Token = "t-x"
		create(t, s, mine, toBob, expired, accepted, declined, fromBob, fromCarol, bobs, carolToBob, guests, fromHerBrowser)
		if err := s.Answer(ctx, "declined", lobby.Declined, ms(3000)); err != nil {
			t.Fatal(err)
		}
		if err := s.Accept(ctx, "accepted", ms(6000), gameOf("g-accepted")); err != nil {
			t.Fatal(err)
		}
		if err := s.Answer(ctx, "fromCarol", lobby.Cancelled, ms(6000)); err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name       string
			p          lobby.Party
			now, since int64
			limit      int
			want       []string
		}{
			{"alice, answered since 5000", alice, 7000, 5000, 10, []string{"mine", "accepted", "toBob", "fromBob", "fromCarol", "fromHerBrowser"}},
			{"alice, answered since 2000", alice, 3500, 2000, 10, []string{"mine", "accepted", "declined", "expired", "toBob", "fromBob", "fromCarol", "fromHerBrowser"}},
			// Alice's: the pending, the oldest first, then the latest
			// answered; hers and those to her apart.
			{"alice, limited", alice, 7000, 0, 3, []string{"mine", "toBob", "fromBob", "fromCarol", "fromHerBrowser"}},
			{"alice, limited more", alice, 7000, 0, 1, []string{"mine", "fromBob"}},
			{"alice by her name alone", lobby.Party{User: 7}, 7000, 5000, 10, []string{"mine", "accepted", "toBob", "fromBob", "fromCarol", "fromHerBrowser"}},
			{"bob", bob, 7000, 5000, 10, []string{"bobs", "carolToBob", "toBob", "fromBob"}},
			{"xavier", x, 7000, 5000, 10, []string{"guests"}},
			{"yves", y, 7000, 5000, 10, []string{"guests"}},
			{"alice's browser logged out", lobby.Party{Token: "t-a"}, 7000, 5000, 10, nil},
			{"nobody", lobby.Party{}, 7000, 5000, 10, nil},
			{"after every expiry", alice, 20000, 15000, 10, nil},
		}
		for _, tc := range tests {
			got, err := s.ChallengesOf(ctx, tc.p, ms(tc.now), ms(tc.since), tc.limit)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, ids(got)); diff != "" {
				t.Errorf("%s: ChallengesOf (-want +got):\n%s", tc.name, diff)
			}
		}
		if got, _ := s.ChallengesOf(ctx, bob, ms(7000), ms(5000), 10); len(got) != 4 || !cmp.Equal(got[3], *fromBob) {
			t.Errorf("ChallengesOf read fromBob as %+v", got)
		}
	})
	t.Run("ChallengesOfSharedInTurns", func(t *testing.T) {
		s := open(t)
		// Bob made six challenges to Alice, Carol one, the latest:
		// Alice sees Carol's, whatever the limit.
		var want []string
		for i := range 6 {
			c := challenge(fmt.Sprintf("b%d", i), int64(1000+i))
			c.From, c.To = bob, alice
			create(t, s, c)
			if i < 2 {
				want = append(want, c.ID)
			}
		}
		c := challenge("carol", 2000)
		c.From, c.To = carol, alice
		create(t, s, c)
		got, err := s.ChallengesOf(ctx, alice, ms(3000), ms(0), 3)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(append(want, "carol"), ids(got)); diff != "" {
			t.Errorf("ChallengesOf, limited (-want +got):\n%s", diff)
		}
	})
	t.Run("Limits", func(t *testing.T) {
		s := open(t)
		limits := lobby.Limits{Account: 2, Guest: 1, Total: 4}
		// try posts c within limits and says how it went.
		try := func(c *lobby.Challenge) error { return s.CreateChallenge(ctx, c, limits) }
		tooMany := func(t *testing.T, what string, err error, limit int) {
			t.Helper()
			var te *lobby.TooManyError
			if !errors.As(err, &te) || te.Limit != limit {
				t.Errorf("%s: %v, want a TooManyError of %d", what, err, limit)
			}
		}
		stored := func(t *testing.T, id string, want bool) {
			t.Helper()
			if _, err := s.Challenge(ctx, id); (err == nil) != want {
				t.Errorf("challenge %s stored: %v, want %v", id, err == nil, want)
			}
		}
		// Alice's two, the second from another browser: one account.
		a1, a2 := challenge("a1", 1000), challenge("a2", 1000)
		a2.From.Token = "t-a2"
		a2.To = bob
		create(t, s, a1, a2)
		tooMany(t, "alice's third", try(challenge("a3", 1000)), 2)
		stored(t, "a3", false)
		// Each way out of pending frees a place: withdrawn, declined,
		// accepted, expired (a1 at 11000).
		if err := s.Answer(ctx, "a2", lobby.Declined, ms(2000)); err != nil {
			t.Fatal(err)
		}
		if err := try(challenge("a4", 2000)); err != nil {
			t.Errorf("after a decline: %v", err)
		}
		if err := s.Accept(ctx, "a4", ms(3000), gameOf("g-a4")); err != nil {
			t.Fatal(err)
		}
		if err := try(challenge("a5", 3000)); err != nil {
			t.Errorf("after an acceptance: %v", err)
		}
		if err := s.Answer(ctx, "a5", lobby.Cancelled, ms(4000)); err != nil {
			t.Fatal(err)
		}
		if err := try(challenge("a6", 4000)); err != nil {
			t.Errorf("after a withdrawal: %v", err)
		}
		tooMany(t, "alice's third, later", try(challenge("a7", 10999)), 2)
		if err := try(challenge("a8", 11000)); err != nil {
			t.Errorf("after an expiry: %v", err)
		}
		// A guest's rematches, by the browser: one; Yves has his own.
		x, y := lobby.Party{Token: "t-x", Name: "Xavier"}, lobby.Party{Token: "t-y", Name: "Yves"}
		gx, gx2, gy := challenge("gx", 11000), challenge("gx2", 11000), challenge("gy", 11000)
		gx.From, gx.To, gx2.From, gx2.To, gy.From, gy.To = x, y, x, y, y, x
		create(t, s, gx)
		tooMany(t, "a guest's second", try(gx2), 1)
		// Four pending in all (a6, a8, gx, gy): the lobby is full for
		// Bob, until one expires.
		create(t, s, gy)
		b1 := challenge("b1", 11000)
		b1.From = bob
		if err := try(b1); !errors.Is(err, lobby.ErrFull) {
			t.Errorf("a fifth challenge: %v, want ErrFull", err)
		}
		stored(t, "b1", false)
		b1.Created, b1.Expires = ms(14000), ms(24000)
		if err := try(b1); err != nil {
			t.Errorf("after a6 expired: %v", err)
		}
	})
	t.Run("RacingPostsKeepTheLimit", func(t *testing.T) {
		s := open(t)
		s2 := another(t, s)
		limits := lobby.Limits{Account: 3, Guest: 1, Total: 1000}
		const n = 12
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			st := []LobbyStore{s, s2}[i%2]
			wg.Go(func() { errs[i] = st.CreateChallenge(ctx, challenge(fmt.Sprintf("c%d", i), 1000), limits) })
		}
		wg.Wait()
		posted := 0
		for _, err := range errs {
			var te *lobby.TooManyError
			switch {
			case err == nil:
				posted++
			case !errors.As(err, &te):
				t.Errorf("racing post: %v", err)
			}
		}
		got, err := s.ChallengesOf(ctx, alice, ms(1000), ms(1000), 100)
		if err != nil {
			t.Fatal(err)
		}
		if posted != limits.Account || len(got) != limits.Account {
			t.Errorf("%d racing posts succeeded and %d are stored, want %d", posted, len(got), limits.Account)
		}
	})
	t.Run("AcceptCreatesTheGameOnce", func(t *testing.T) {
		s := open(t)
		create(t, s, challenge("c", 1000))
		g := gameOf("g1")
		if err := s.Accept(ctx, "c", ms(2000), g); err != nil {
			t.Fatal(err)
		}
		if g.Version != 1 {
			t.Errorf("the accepted game's version is %d, want 1", g.Version)
		}
		if got, err := s.Get(ctx, "g1"); err != nil || !cmp.Equal(g, got) {
			t.Errorf("the game Accept made: %v, %v", cmp.Diff(g, got), err)
		}
		want := challenge("c", 1000)
		want.Status, want.Game, want.Updated = lobby.Accepted, "g1", ms(2000)
		if diff := cmp.Diff(want, get(t, s, "c")); diff != "" {
			t.Errorf("the accepted challenge (-want +got):\n%s", diff)
		}
		for _, tc := range []struct {
			name string
			id   string
			want error
		}{{"again", "c", lobby.ErrGone}, {"no challenge", "nope", lobby.ErrNotFound}} {
			if err := s.Accept(ctx, tc.id, ms(3000), gameOf("g2")); !errors.Is(err, tc.want) {
				t.Errorf("%s: Accept = %v, want %v", tc.name, err, tc.want)
			}
		}
		if _, err := s.Get(ctx, "g2"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a refused Accept made its game: %v", err)
		}
	})
	t.Run("AcceptAfterExpiryOrAnswer", func(t *testing.T) {
		s := open(t)
		create(t, s, challenge("late", 1000), challenge("declined", 1000), challenge("cancelled", 1000))
		if err := s.Accept(ctx, "late", ms(11000), gameOf("g1")); !errors.Is(err, lobby.ErrGone) {
			t.Errorf("Accept at the expiry: %v, want ErrGone", err)
		}
		for _, st := range []lobby.Status{lobby.Declined, lobby.Cancelled} {
			id := string(st)
			if err := s.Answer(ctx, id, st, ms(2000)); err != nil {
				t.Fatal(err)
			}
			if c := get(t, s, id); c.Status != st || !c.Updated.Equal(ms(2000)) {
				t.Errorf("after Answer(%s): %s at %v", st, c.Status, c.Updated)
			}
			if err := s.Answer(ctx, id, st, ms(3000)); !errors.Is(err, lobby.ErrGone) {
				t.Errorf("Answer(%s) twice: %v, want ErrGone", st, err)
			}
			if err := s.Accept(ctx, id, ms(3000), gameOf("g-"+id)); !errors.Is(err, lobby.ErrGone) {
				t.Errorf("Accept after %s: %v, want ErrGone", st, err)
			}
		}
		if err := s.Answer(ctx, "nope", lobby.Declined, ms(2000)); !errors.Is(err, lobby.ErrNotFound) {
			t.Errorf("Answer of nothing: %v, want ErrNotFound", err)
		}
	})
	t.Run("AcceptWhoseGameFailsAcceptsNothing", func(t *testing.T) {
		s := open(t)
		create(t, s, challenge("c", 1000))
		if err := s.Create(ctx, gameOf("taken")); err != nil {
			t.Fatal(err)
		}
		if err := s.Accept(ctx, "c", ms(2000), gameOf("taken")); err == nil {
			t.Fatal("Accept with a game of an ID in use succeeded")
		}
		if c := get(t, s, "c"); c.Status != lobby.Pending || c.Game != "" {
			t.Errorf("the challenge after a failed Accept: %s, game %q; want pending", c.Status, c.Game)
		}
	})
	t.Run("ExactlyOneRacingAcceptWins", func(t *testing.T) {
		s := open(t)
		create(t, s, challenge("c", 1000))
		const n = 8
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { errs[i] = s.Accept(ctx, "c", ms(2000), gameOf(fmt.Sprintf("g%d", i))) })
		}
		wg.Wait()
		wins := 0
		for i, err := range errs {
			_, gerr := s.Get(ctx, fmt.Sprintf("g%d", i))
			switch {
			case err == nil:
				wins++
				if gerr != nil || get(t, s, "c").Game != fmt.Sprintf("g%d", i) {
					t.Errorf("the winner's game g%d: %v, challenge's game %q", i, gerr, get(t, s, "c").Game)
				}
			case errors.Is(err, lobby.ErrGone):
				if gerr == nil {
					t.Errorf("a refused Accept made its game g%d", i)
				}
			default:
				t.Errorf("racing Accept: %v", err)
			}
		}
		if wins != 1 {
			t.Errorf("%d racing accepts succeeded, want exactly 1", wins)
		}
	})
	t.Run("RematchOf", func(t *testing.T) {
		s := open(t)
		first, second, other := challenge("r1", 1000), challenge("r2", 2000), challenge("r3", 3000)
		first.Rematch, second.Rematch, other.Rematch = "g", "g", "h"
		create(t, s, first, second, other)
		if c, err := s.RematchOf(ctx, "g"); err != nil || c.ID != "r2" {
			t.Errorf("RematchOf(g) = %+v, %v; want the latest, r2", c, err)
		}
		if _, err := s.RematchOf(ctx, "none"); !errors.Is(err, lobby.ErrNotFound) {
			t.Errorf("RematchOf a game without one: %v, want ErrNotFound", err)
		}
	})
	t.Run("Prune", func(t *testing.T) {
		s := open(t)
		// old expired at 11000, answered answered at 12000; new waits.
		old, answered, recent := challenge("old", 1000), challenge("answered", 1000), challenge("new", 10000)
		answered.Expires = ms(99000)
		create(t, s, old, answered, recent)
		if err := s.Answer(ctx, "answered", lobby.Cancelled, ms(12000)); err != nil {
			t.Fatal(err)
		}
		if err := s.Prune(ctx, ms(12500)); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			id   string
			kept bool
		}{{"old", false}, {"answered", false}, {"new", true}} {
			if _, err := s.Challenge(ctx, c.id); (err == nil) != c.kept {
				t.Errorf("after Prune %s: %v, want kept %v", c.id, err, c.kept)
			}
		}
	})
}

// gameOf returns a new game between Alice and Bob, as a challenge
// becomes.
func gameOf(id string) *store.Game {
	g := sample(id)
	g.Moves, g.Version, g.Rated = nil, 1, true
	g.Seats[1].UserID = 8
	return g
}
