// Package queuetest is the conformance suite of an enginework.Store: the
// queue's rules (priority, leases, limits, exactly once) on the clock the
// suite gives, and workers that race and die on the real one. Each
// implementation's tests call Run with a way to open an empty store.
package queuetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"emergo/enginework"
	"emergo/player"
)

// at is the suite's clock: s seconds after its epoch.
func at(s float64) time.Time { return time.UnixMilli(1_700_000_000_000 + int64(s*1000)).UTC() }

const lease = 10 * time.Second

// start7 is the start of the 7x7 board.
const start7 = "7x7 w 8/8 -"

func move(game string, version int64, created float64) *enginework.Job {
	return &enginework.Job{Kind: enginework.Move, Game: game, Version: version, Created: at(created),
		Task: enginework.Task{Start: start7, Level: 1, Seed: 7}}
}

// moveOf is a move of client's game.
func moveOf(client, game string, created float64) *enginework.Job {
	j := move(game, 1, created)
	j.Client = client
	return j
}

func analysis(client string, account int64, created float64) *enginework.Job {
	return &enginework.Job{Kind: enginework.Analysis, Client: client, Account: account, Created: at(created),
		Task: enginework.Task{Start: start7, Depth: 3}}
}

func answer(created float64) *enginework.Job {
	return &enginework.Job{Kind: enginework.Answer, Created: at(created), Task: enginework.Task{Start: start7, Depth: 2}}
}

// Run runs the suite on the stores open returns, each empty.
func Run(t *testing.T, open func(t *testing.T) enginework.Store) {
	ctx := context.Background()
	enqueue := func(t *testing.T, s enginework.Store, lim enginework.Limits, jobs ...*enginework.Job) {
		t.Helper()
		for _, j := range jobs {
			if err := s.AddJob(ctx, j, lim); err != nil {
				t.Fatalf("enqueue %s of %s: %v", j.Kind, j.Created, err)
			}
		}
	}
	claim := func(t *testing.T, s enginework.Store, worker string, urgentOnly bool, now float64) *enginework.Job {
		t.Helper()
		j, err := s.ClaimJob(ctx, worker, urgentOnly, at(now), lease)
		if err != nil {
			t.Fatalf("claim at %v: %v", now, err)
		}
		return j
	}
	// claims claims until none is left and returns the IDs in order.
	claims := func(t *testing.T, s enginework.Store, urgentOnly bool, now float64) []int64 {
		t.Helper()
		var ids []int64
		for j := claim(t, s, "w", urgentOnly, now); j != nil; j = claim(t, s, "w", urgentOnly, now) {
			ids = append(ids, j.ID)
		}
		return ids
	}
	finish := func(t *testing.T, s enginework.Store, j *enginework.Job, state enginework.State, now float64) {
		t.Helper()
		j.State, j.Finished = state, at(now)
		if err := s.FinishJob(ctx, j); err != nil {
			t.Fatalf("finish job %d: %v", j.ID, err)
		}
	}
	get := func(t *testing.T, s enginework.Store, id int64) *enginework.Job {
		t.Helper()
		j, err := s.Job(ctx, id)
		if err != nil {
			t.Fatalf("job %d: %v", id, err)
		}
		return j
	}
	lim := enginework.DefaultLimits

	t.Run("RoundTrip", func(t *testing.T) {
		s := open(t)
		j := &enginework.Job{Kind: enginework.Move, Game: "g1", Version: 12, Created: at(1),
			Task: enginework.Task{Start: start7, Moves: []string{"a1", "g7"}, Level: 4, Seed: 1<<64 - 3,
				Clock: player.Clock{Time: [2]time.Duration{time.Minute, 59 * time.Second}, Inc: [2]time.Duration{time.Second, time.Second}}}}
		enqueue(t, s, lim, j)
		if j.ID == 0 || j.State != enginework.Queued {
			t.Fatalf("after AddJob: ID %d, state %s", j.ID, j.State)
		}
		if diff := cmp.Diff(j, get(t, s, j.ID)); diff != "" {
			t.Errorf("the job as stored (-enqueued +read):\n%s", diff)
		}
		c := claim(t, s, "w1", false, 2)
		want := *j
		want.State, want.Claims, want.Worker, want.Started, want.Expires = enginework.Running, 1, "w1", at(2), at(2).Add(lease)
		if diff := cmp.Diff(&want, c); diff != "" {
			t.Errorf("the job claimed (-want +got):\n%s", diff)
		}
		c.Result = enginework.Result{Move: "b2", Score: -37, Depth: 5, Nodes: 1234, PV: []string{"b2", "f6"}}
		finish(t, s, c, enginework.Done, 3)
		if diff := cmp.Diff(c, get(t, s, j.ID)); diff != "" {
			t.Errorf("the job done (-finished +read):\n%s", diff)
		}
		if _, err := s.Job(ctx, j.ID+100); !errors.Is(err, enginework.ErrNotFound) {
			t.Errorf("Job of an unknown ID: %v, want ErrNotFound", err)
		}
	})

	t.Run("PriorityThenAge", func(t *testing.T) {
		s := open(t)
		a1, m1, a2, ans, m2 := analysis("c1", 0, 1), move("g1", 1, 2), analysis("c2", 0, 3), answer(4), move("g2", 1, 5)
		enqueue(t, s, lim, a1, m1, a2, ans, m2)
		if got := claims(t, s, true, 10); !cmp.Equal(got, []int64{m1.ID, ans.ID, m2.ID}) {
			t.Errorf("a worker kept for the games' jobs claims %v, want the moves and the answer %v", got, []int64{m1.ID, ans.ID, m2.ID})
		}
		if got := claims(t, s, false, 10); !cmp.Equal(got, []int64{a1.ID, a2.ID}) {
			t.Errorf("then any worker claims %v, want the analyses oldest first %v", got, []int64{a1.ID, a2.ID})
		}
		s = open(t)
		a1, m1, a2, ans, m2 = analysis("c1", 0, 1), move("g1", 1, 2), analysis("c2", 0, 3), answer(4), move("g2", 1, 5)
		enqueue(t, s, lim, a1, m1, a2, ans, m2)
		if got, want := claims(t, s, false, 10), []int64{m1.ID, ans.ID, m2.ID, a1.ID, a2.ID}; !cmp.Equal(got, want) {
			t.Errorf("any worker claims %v, want %v: the games' jobs first, each kind oldest first", got, want)
		}
	})

	t.Run("ClientsTakeTurns", func(t *testing.T) {
		s := open(t)
		// Client a floods the queue with five moves; b asks for two
		// after them, and c for an answer after those.
		var a []*enginework.Job
		for i := range 5 {
			a = append(a, moveOf("a", fmt.Sprintf("a%d", i), float64(i)))
		}
		b1, b2 := moveOf("b", "b1", 10), moveOf("b", "b2", 11)
		c1 := answer(12)
		c1.Client = "c"
		enqueue(t, s, lim, append(a, b1, b2, c1)...)
		if j := claim(t, s, "w1", true, 20); j == nil || j.ID != a[0].ID {
			t.Fatalf("the first claim: %+v, want a's oldest, the oldest of the first turns", j)
		}
		// While a's first runs, its second waits for the others' first:
		// each client's first turn before anyone's second, and so on.
		got := claims(t, s, true, 20)
		want := []int64{b1.ID, c1.ID, a[1].ID, b2.ID, a[2].ID, a[3].ID, a[4].ID}
		if !cmp.Equal(got, want) {
			t.Errorf("then claimed %v, want %v: b's and c's first turn before a's second", got, want)
		}
		// A job that ended takes no turn: a client whose jobs have all
		// ended starts again at its first.
		s = open(t)
		a0, a1, b := moveOf("a", "a0", 0), moveOf("a", "a1", 1), moveOf("b", "b", 2)
		enqueue(t, s, lim, a0)
		finish(t, s, claim(t, s, "w", true, 3), enginework.Done, 4)
		enqueue(t, s, lim, a1, b)
		if got, want := claims(t, s, true, 5), []int64{a1.ID, b.ID}; !cmp.Equal(got, want) {
			t.Errorf("after a's job ended: claimed %v, want %v", got, want)
		}
	})

	t.Run("LeaseExpires", func(t *testing.T) {
		s := open(t)
		j := move("g1", 1, 0)
		enqueue(t, s, lim, j)
		c1 := claim(t, s, "w1", true, 1)
		if c1 == nil || c1.ID != j.ID {
			t.Fatalf("claim: %+v", c1)
		}
		if c := claim(t, s, "w2", true, 5); c != nil {
			t.Fatalf("claimed while the lease holds: %+v", c)
		}
		if err := s.RenewJob(ctx, c1, at(5).Add(lease)); err != nil {
			t.Fatal(err)
		}
		if c := claim(t, s, "w2", true, 12); c != nil {
			t.Fatalf("claimed while the renewed lease holds: %+v", c)
		}
		c2 := claim(t, s, "w2", true, 15.001)
		if c2 == nil || c2.ID != j.ID || c2.Claims != 2 || c2.Worker != "w2" || !c2.Started.Equal(at(15.001)) {
			t.Fatalf("claim after the lease expired: %+v, want job %d, claim 2, by w2", c2, j.ID)
		}
		if err := s.RenewJob(ctx, c1, at(16).Add(lease)); !errors.Is(err, enginework.ErrLost) {
			t.Errorf("renewal of the lost claim: %v, want ErrLost", err)
		}
		c1.State, c1.Finished, c1.Result = enginework.Done, at(16), enginework.Result{Move: "a1"}
		if err := s.FinishJob(ctx, c1); !errors.Is(err, enginework.ErrLost) {
			t.Errorf("finish of the lost claim: %v, want ErrLost", err)
		}
		c2.Result = enginework.Result{Move: "g7"}
		finish(t, s, c2, enginework.Done, 17)
		if got := get(t, s, j.ID); got.State != enginework.Done || got.Result.Move != "g7" {
			t.Errorf("the job after both claims: %s %+v, want done with the second claim's result", got.State, got.Result)
		}
	})

	t.Run("AbandonedJobFails", func(t *testing.T) {
		s := open(t)
		j := move("g1", 1, 0)
		enqueue(t, s, lim, j)
		now := 1.0
		for i := 1; i <= enginework.MaxClaims; i++ {
			c := claim(t, s, fmt.Sprintf("w%d", i), true, now)
			if c == nil || c.Claims != i {
				t.Fatalf("claim %d: %+v", i, c)
			}
			now += lease.Seconds() + 1 // the worker dies
		}
		if c := claim(t, s, "w", true, now); c != nil {
			t.Fatalf("claimed after %d workers died on it: %+v", enginework.MaxClaims, c)
		}
		if got := get(t, s, j.ID); got.State != enginework.Failed || got.Error == "" {
			t.Errorf("the job abandoned %d times: %s %q, want failed with a reason", enginework.MaxClaims, got.State, got.Error)
		}
	})

	t.Run("GivenBack", func(t *testing.T) {
		s := open(t)
		j := move("g1", 1, 0)
		enqueue(t, s, lim, j)
		for i := 1; i <= enginework.MaxClaims; i++ {
			c := claim(t, s, "w", true, float64(i))
			if c == nil {
				t.Fatalf("claim %d of a job given back: none", i)
			}
			c.Error = "the store is down"
			finish(t, s, c, enginework.Queued, float64(i)+0.5)
		}
		if got := get(t, s, j.ID); got.State != enginework.Failed || got.Error != "the store is down" {
			t.Errorf("given back %d times: %s %q, want failed with the last error", enginework.MaxClaims, got.State, got.Error)
		}
	})

	t.Run("OneMovePerGameVersion", func(t *testing.T) {
		s := open(t)
		first, again, next := move("g1", 1, 0), move("g1", 1, 1), move("g1", 2, 2)
		enqueue(t, s, lim, first, again)
		if again.ID != first.ID {
			t.Errorf("the same move asked twice: jobs %d and %d, want one", first.ID, again.ID)
		}
		c := claim(t, s, "w", true, 3)
		finish(t, s, c, enginework.Done, 4)
		later := move("g1", 1, 5)
		enqueue(t, s, lim, next, later)
		if next.ID == first.ID || later.ID == first.ID || later.ID == next.ID {
			t.Errorf("jobs %d, %d, %d: a move of another version, or asked again once the first ended, is a job of its own", first.ID, next.ID, later.ID)
		}
	})

	t.Run("Limits", func(t *testing.T) {
		cases := []struct {
			name    string
			lim     enginework.Limits
			pending []*enginework.Job
			ask     *enginework.Job
			want    error
		}{
			{"within the client's", enginework.Limits{PerClient: 3, Queue: 10},
				[]*enginework.Job{analysis("a", 0, 1), analysis("a", 0, 2)}, analysis("a", 0, 3), nil},
			{"beyond the address's", enginework.Limits{PerClient: 3, Queue: 10},
				[]*enginework.Job{analysis("a", 0, 1), analysis("a", 0, 2), analysis("a", 0, 3)}, analysis("a", 0, 4), enginework.ErrClientBusy},
			{"beyond the account's, from another address", enginework.Limits{PerClient: 2, Queue: 10},
				[]*enginework.Job{analysis("a", 7, 1), analysis("b", 7, 2)}, analysis("c", 7, 3), enginework.ErrClientBusy},
			{"guests of other addresses", enginework.Limits{PerClient: 2, Queue: 10},
				[]*enginework.Job{analysis("a", 0, 1), analysis("b", 0, 2)}, analysis("c", 0, 3), nil},
			{"beyond the queue's", enginework.Limits{PerClient: 3, Queue: 3},
				[]*enginework.Job{analysis("a", 0, 1), analysis("b", 0, 2), analysis("c", 0, 3)}, analysis("d", 0, 4), enginework.ErrQueueFull},
			{"moves are not analysis", enginework.Limits{PerClient: 1, Queue: 1},
				[]*enginework.Job{analysis("a", 0, 1)}, move("g1", 1, 2), nil},
			{"answers are not analysis", enginework.Limits{PerClient: 1, Queue: 1},
				[]*enginework.Job{analysis("a", 0, 1)}, answer(2), nil},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				s := open(t)
				enqueue(t, s, enginework.Limits{PerClient: 100, Queue: 100}, c.pending...)
				if err := s.AddJob(ctx, c.ask, c.lim); !errors.Is(err, c.want) || (c.want == nil && err != nil) {
					t.Errorf("AddJob: %v, want %v", err, c.want)
				}
			})
		}
		t.Run("ended analyses do not count", func(t *testing.T) {
			s := open(t)
			one := enginework.Limits{PerClient: 1, Queue: 10}
			enqueue(t, s, one, analysis("a", 0, 1))
			finish(t, s, claim(t, s, "w", false, 2), enginework.Done, 3)
			enqueue(t, s, one, analysis("a", 0, 4))
		})
	})

	t.Run("OneAnalysisRunningPerClient", func(t *testing.T) {
		s := open(t)
		a1, a2, b1, c1 := analysis("a", 0, 1), analysis("a", 0, 2), analysis("b", 7, 3), analysis("c", 7, 4)
		enqueue(t, s, lim, a1, a2, b1, c1)
		got := claims(t, s, false, 5)
		if want := []int64{a1.ID, b1.ID}; !cmp.Equal(got, want) {
			t.Fatalf("claimed %v, want %v: one analysis at a time of an address and of an account", got, want)
		}
		finish(t, s, get(t, s, a1.ID), enginework.Done, 6)
		if got := claims(t, s, false, 7); !cmp.Equal(got, []int64{a2.ID}) {
			t.Errorf("after the first ended: %v, want %v", got, []int64{a2.ID})
		}
		// A running analysis whose lease expired holds its client no
		// more: the oldest of the account's is claimed again.
		finish(t, s, get(t, s, a2.ID), enginework.Done, 8)
		if got := claims(t, s, false, 5+lease.Seconds()+1); !cmp.Equal(got, []int64{b1.ID}) {
			t.Errorf("after the account's lease expired: %v, want %v", got, []int64{b1.ID})
		}
	})

	t.Run("Cancel", func(t *testing.T) {
		s := open(t)
		queued, running := analysis("a", 0, 1), move("g1", 1, 2)
		enqueue(t, s, lim, queued, running)
		c := claim(t, s, "w", true, 3)
		for _, id := range []int64{queued.ID, running.ID} {
			if err := s.CancelJob(ctx, id, at(4)); err != nil {
				t.Fatal(err)
			}
			if got := get(t, s, id); got.State != enginework.Dropped || !got.Finished.Equal(at(4)) {
				t.Errorf("job %d cancelled: %s at %v, want dropped at %v", id, got.State, got.Finished, at(4))
			}
		}
		if got := claims(t, s, false, 5); len(got) != 0 {
			t.Errorf("claimed %v after every job was cancelled", got)
		}
		if err := s.RenewJob(ctx, c, at(5).Add(lease)); !errors.Is(err, enginework.ErrLost) {
			t.Errorf("renewal of a cancelled job: %v, want ErrLost", err)
		}
		if err := s.CancelJob(ctx, running.ID, at(6)); err != nil {
			t.Errorf("cancelling again: %v", err)
		}
		if got := get(t, s, running.ID); !got.Finished.Equal(at(4)) {
			t.Errorf("cancelling again moved its end to %v", got.Finished)
		}
	})

	t.Run("CancelGame", func(t *testing.T) {
		s := open(t)
		queued, running, other, search := move("g1", 2, 2), answer(1), move("g2", 1, 3), analysis("a", 0, 4)
		running.Game = "g1"
		enqueue(t, s, lim, running, queued, other, search)
		if c := claim(t, s, "w", true, 5); c == nil || c.ID != running.ID {
			t.Fatalf("claim: %+v, want the answer", c)
		}
		ids, err := s.CancelGame(ctx, "g1", at(6))
		if err != nil {
			t.Fatal(err)
		}
		if want := []int64{running.ID, queued.ID}; !cmp.Equal(ids, want) {
			t.Errorf("CancelGame dropped %v, want the game's jobs %v", ids, want)
		}
		for _, id := range ids {
			if got := get(t, s, id); got.State != enginework.Dropped || !got.Finished.Equal(at(6)) {
				t.Errorf("job %d of the game: %s at %v, want dropped at %v", id, got.State, got.Finished, at(6))
			}
		}
		if ids, err := s.CancelGame(ctx, "", at(7)); err != nil || len(ids) != 0 {
			t.Errorf("CancelGame of no game: %v, %v; want nothing dropped", ids, err)
		}
		for _, id := range []int64{other.ID, search.ID} {
			if got := get(t, s, id); got.State != enginework.Queued {
				t.Errorf("job %d of no game or another: %s, want queued", id, got.State)
			}
		}
	})

	t.Run("Prune", func(t *testing.T) {
		s := open(t)
		old, recent, waiting := move("g1", 1, 1), move("g2", 1, 2), move("g3", 1, 3)
		enqueue(t, s, lim, old, recent, waiting)
		finish(t, s, claim(t, s, "w", true, 4), enginework.Done, 5)
		finish(t, s, claim(t, s, "w", true, 6), enginework.Done, 7)
		if err := s.PruneJobs(ctx, at(6)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Job(ctx, old.ID); !errors.Is(err, enginework.ErrNotFound) {
			t.Errorf("a job ended before the cutoff: %v, want it gone", err)
		}
		get(t, s, recent.ID)
		get(t, s, waiting.ID)
	})

	t.Run("RacingClaimsOneWins", func(t *testing.T) {
		s := open(t)
		j := move("g1", 1, 0)
		enqueue(t, s, lim, j)
		const n = 8
		var wg sync.WaitGroup
		var won atomic.Int32
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				c, err := s.ClaimJob(ctx, fmt.Sprintf("w%d", i), i%2 == 0, at(1), lease)
				if err != nil {
					t.Error(err)
				}
				if c != nil {
					won.Add(1)
				}
			}(i)
		}
		wg.Wait()
		if won.Load() != 1 {
			t.Errorf("%d of %d racing workers claimed the one job, want 1", won.Load(), n)
		}
	})

	t.Run("RacingAnalysesWithinLimits", func(t *testing.T) {
		s := open(t)
		const n = 8
		var wg sync.WaitGroup
		var admitted atomic.Int32
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				err := s.AddJob(ctx, analysis("a", 0, float64(i)), enginework.Limits{PerClient: 3, Queue: 10})
				switch {
				case err == nil:
					admitted.Add(1)
				case !errors.Is(err, enginework.ErrClientBusy):
					t.Error(err)
				}
			}(i)
		}
		wg.Wait()
		if admitted.Load() != 3 {
			t.Errorf("%d of %d racing analyses of one client admitted, want its limit, 3", admitted.Load(), n)
		}
	})

	t.Run("Workers", func(t *testing.T) { workers(t, open) })
}
