package queuetest

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"emergo/enginework"
	"emergo/notation"
	"emergo/player"
	"emergo/rules"
)

// patience bounds a wait for what must happen, however busy the machine.
const patience = time.Minute

// games are the games of the workers' tests: each one's version and the
// moves played in it, version-checked as the server's store does, and
// the workers that played them.
type games struct {
	mu      sync.Mutex
	version map[string]int64
	moves   map[string][]string
	by      map[string][]string
	fail    int // the next applies that fail, as a store that is down
}

func newGames() *games {
	return &games{version: map[string]int64{}, moves: map[string][]string{}, by: map[string][]string{}}
}

func (g *games) apply(_ context.Context, j *enginework.Job, mv string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fail > 0 {
		g.fail--
		return errors.New("the store is down")
	}
	if g.version[j.Game] != j.Version {
		return enginework.ErrStale
	}
	g.version[j.Game]++
	g.moves[j.Game] = append(g.moves[j.Game], mv)
	g.by[j.Game] = append(g.by[j.Game], j.Worker)
	return nil
}

func (g *games) played(game string) []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.moves[game])
}

// players returns the workers that played the moves of game.
func (g *games) players(game string) []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.by[game])
}

// process is one process's queue on a store, and its workers once run.
type process struct {
	q    *enginework.Queue
	stop context.CancelFunc
	done chan struct{}
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// run starts a process of n workers named name on st, with the lease.
func run(t *testing.T, st enginework.Store, name string, n int, lease time.Duration, apply enginework.Apply) *process {
	q := enginework.New(st, enginework.Config{Lease: lease, Poll: 10 * time.Millisecond, Logger: quiet()})
	ctx, stop := context.WithCancel(context.Background())
	p := &process{q: q, stop: stop, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		q.Run(ctx, enginework.Workers{N: n, HashMiB: 1, Name: name, Apply: apply})
	}()
	t.Cleanup(p.halt)
	return p
}

// halt stops the process's workers and waits for them.
func (p *process) halt() {
	p.stop()
	<-p.done
}

// waitJob waits until the job id of st satisfies ok, and returns it.
func waitJob(t *testing.T, st enginework.Store, id int64, what string, ok func(*enginework.Job) bool) *enginework.Job {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		j, err := st.Job(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if ok(j) {
			return j
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v; the job is %s, claim %d", what, patience, j.State, j.Claims)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// killable is a store that a process reaches until it dies: the process
// is killed at its first renewal of a lease, in the middle of its first
// search (or, on a machine so busy that the search ends first, when it
// is about to play its move), and it makes no call after that.
type killable struct {
	enginework.Store
	mu   sync.Mutex
	dead bool
	kill func()
}

var errDead = errors.New("the process is dead")

func (k *killable) alive() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return !k.dead
}

func (k *killable) ClaimJob(ctx context.Context, worker string, urgentOnly bool, now time.Time, lease time.Duration) (*enginework.Job, error) {
	if !k.alive() {
		return nil, errDead
	}
	return k.Store.ClaimJob(ctx, worker, urgentOnly, now, lease)
}

func (k *killable) RenewJob(context.Context, *enginework.Job, time.Time) error {
	k.die()
	return errDead
}

func (k *killable) die() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.dead {
		k.dead = true
		k.kill()
	}
}

// apply is the dying process's Apply.
func (k *killable) apply(context.Context, *enginework.Job, string) error {
	k.die()
	return errDead
}

func (k *killable) FinishJob(context.Context, *enginework.Job) error { return errDead }

// legal reports whether mv is a legal move at the start of the 7x7 board.
func legal(mv string) bool {
	g := rules.NewGame(rules.Geometry7)
	return notation.PlayMoves(g, []string{mv}) == nil
}

// workers tests the workers of processes sharing a store of open.
func workers(t *testing.T, open func(t *testing.T) enginework.Store) {
	ctx := context.Background()
	submit := func(t *testing.T, q *enginework.Queue, j *enginework.Job) *enginework.Job {
		t.Helper()
		if err := q.Submit(ctx, j); err != nil {
			t.Fatal(err)
		}
		return j
	}
	wait := func(t *testing.T, q *enginework.Queue, id int64) *enginework.Job {
		t.Helper()
		wctx, cancel := context.WithTimeout(ctx, patience)
		defer cancel()
		j, err := q.Wait(wctx, id)
		if err != nil {
			t.Fatalf("waiting for job %d: %v", id, err)
		}
		return j
	}
	// long is a move that thinks for its whole move time: level 10.
	long := func(game string) *enginework.Job {
		j := move(game, 0, 0)
		j.Task.Level, j.Task.Clock = player.MaxLevel, player.Clock{MoveTime: 2 * time.Second}
		return j
	}

	t.Run("TwoProcessesMoveOnce", func(t *testing.T) {
		st, g := open(t), newGames()
		a := run(t, st, "a", 2, time.Minute, g.apply)
		b := run(t, st, "b", 2, time.Minute, g.apply)
		for i := range 3 {
			j := submit(t, []*process{a, b}[i%2].q, move("g1", int64(i), 0))
			if got := wait(t, b.q, j.ID); got.State != enginework.Done || got.Claims != 1 {
				t.Fatalf("move %d: %s after %d claims (%s), want done after one", i+1, got.State, got.Claims, got.Error)
			}
		}
		played := g.played("g1")
		if len(played) != 3 || !legal(played[0]) {
			t.Errorf("the moves played: %v, want three, the first legal", played)
		}
	})

	t.Run("KilledMidSearch", func(t *testing.T) {
		st, g := open(t), newGames()
		// a's lease is renewed every third of it: two renewals late in a
		// row on a busy machine would hand the job on within a's process.
		const lease = 2 * time.Second
		k := &killable{Store: st}
		a := run(t, k, "a", 2, lease, k.apply)
		killed := make(chan struct{})
		k.kill = func() { close(killed); a.stop() }
		j := submit(t, a.q, long("g1"))
		<-killed
		a.halt()
		// (A claim of a's may have lost its lease to another of a's on
		// a busy machine: the job is a's all the same.)
		if got := waitJob(t, st, j.ID, "the dead worker's claim", func(*enginework.Job) bool { return true }); got.State != enginework.Running || !strings.HasPrefix(got.Worker, "a/") {
			t.Fatalf("the job its worker died on: %s, claim %d by %s; want running on the dead process's claim", got.State, got.Claims, got.Worker)
		}
		// b's lease is long: a's claim had to run out, b's must not. On a
		// busy machine a late renewal of a short lease would let b's
		// claims take the job from one another, and a third lost claim
		// fails the job.
		b := run(t, st, "b", 2, patience, g.apply)
		if got := wait(t, b.q, j.ID); got.State == enginework.Failed || !strings.HasPrefix(got.Worker, "b/") {
			t.Errorf("the job after its lease expired: %s, claim %d by %s; want ended by b", got.State, got.Claims, got.Worker)
		}
		if by := g.players("g1"); len(by) != 1 || !strings.HasPrefix(by[0], "b/") {
			t.Errorf("moves played by %v, want one, by b", by)
		}
	})

	t.Run("StoppedWorkerGivesBack", func(t *testing.T) {
		// The worker is stopped in its search, or (on a machine so busy
		// that the search ends first) as it is about to play its move,
		// which waits for the stop.
		st := open(t)
		stopped := func(ctx context.Context, _ *enginework.Job, _ string) error {
			<-ctx.Done()
			return ctx.Err()
		}
		a := run(t, st, "a", 2, time.Minute, stopped)
		j := submit(t, a.q, long("g1"))
		waitJob(t, st, j.ID, "the claim", func(j *enginework.Job) bool { return j.State == enginework.Running })
		a.halt()
		if got := waitJob(t, st, j.ID, "the job", func(*enginework.Job) bool { return true }); got.State != enginework.Queued || got.Worker != "" {
			t.Errorf("the job of a worker stopped in its search: %s by %q, want queued again, nobody's", got.State, got.Worker)
		}
	})

	t.Run("Outcomes", func(t *testing.T) {
		cases := []struct {
			name  string
			job   *enginework.Job
			fail  int  // applies that fail first
			stale bool // the game has moved on
			want  enginework.State
			claim int
		}{
			{"a move played", move("g1", 0, 0), 0, false, enginework.Done, 1},
			{"a move for a game that changed", move("g1", 0, 0), 0, true, enginework.Dropped, 1},
			{"a move that could not be stored at first", move("g1", 0, 0), 1, false, enginework.Done, 2},
			{"a move that could never be stored", move("g1", 0, 0), enginework.MaxClaims, false, enginework.Failed, enginework.MaxClaims},
			{"a move of a level that does not exist", func() *enginework.Job { j := move("g1", 0, 0); j.Task.Level = 11; return j }(), 0, false, enginework.Failed, 1},
			{"a move in a position that does not parse", func() *enginework.Job { j := move("g1", 0, 0); j.Task.Start = "8x8"; return j }(), 0, false, enginework.Failed, 1},
			{"an analysis", analysis("a", 0, 0), 0, false, enginework.Done, 1},
			{"an answer", answer(0), 0, false, enginework.Done, 1},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				st, g := open(t), newGames()
				g.fail = c.fail
				if c.stale {
					g.version["g1"] = 1
				}
				p := run(t, st, "p", 1, time.Minute, g.apply)
				got := wait(t, p.q, submit(t, p.q, c.job).ID)
				if got.State != c.want || got.Claims != c.claim {
					t.Fatalf("%s after %d claims (%q), want %s after %d", got.State, got.Claims, got.Error, c.want, c.claim)
				}
				if (got.State == enginework.Failed) != (got.Error != "") {
					t.Errorf("state %s with error %q", got.State, got.Error)
				}
				if got.State == enginework.Done && (!legal(got.Result.Move) || (c.job.Kind != enginework.Move && got.Result.PV[0] != got.Result.Move)) {
					t.Errorf("result %+v", got.Result)
				}
				if c.job.Kind != enginework.Move && got.Result.Depth != c.job.Task.Depth {
					t.Errorf("searched to depth %d, want %d", got.Result.Depth, c.job.Task.Depth)
				}
				want := 0
				if c.job.Kind == enginework.Move && c.want == enginework.Done {
					want = 1
				}
				if n := len(g.played("g1")); n != want {
					t.Errorf("%d moves played, want %d", n, want)
				}
			})
		}
	})

	t.Run("SearchesDependOnTheirJobsAlone", func(t *testing.T) {
		// The analyses run one after the other on the one worker that
		// takes analysis, on its search: what it saw before must not
		// change what it finds.
		st := open(t)
		p := run(t, st, "p", 1, time.Minute, newGames().apply)
		var first enginework.Result
		for i := range 3 {
			j := analysis("a", 0, 0)
			j.Task.Depth = 5
			got := wait(t, p.q, submit(t, p.q, j).ID)
			if i == 0 {
				first = got.Result
				continue
			}
			if got.Result.Move != first.Move || got.Result.Score != first.Score || got.Result.Nodes != first.Nodes {
				t.Errorf("search %d: %s %d in %d nodes; the first: %s %d in %d nodes", i+1,
					got.Result.Move, got.Result.Score, got.Result.Nodes, first.Move, first.Score, first.Nodes)
			}
		}
	})

	t.Run("MovesPassTheAnalysis", func(t *testing.T) {
		// The only worker that takes analysis is on one that never ends;
		// more wait. A move is played all the same, by the worker kept for
		// the games.
		st, g := open(t), newGames()
		p := run(t, st, "p", 2, time.Minute, g.apply)
		endless := func(client string) *enginework.Job {
			j := analysis(client, 0, 0)
			j.Task.Depth, j.Task.MoveTime = 0, time.Hour
			return j
		}
		first := submit(t, p.q, endless("a"))
		waitJob(t, st, first.ID, "the first analysis runs", func(j *enginework.Job) bool { return j.State == enginework.Running })
		second := submit(t, p.q, endless("b"))
		got := wait(t, p.q, submit(t, p.q, move("g1", 0, 0)).ID)
		if got.State != enginework.Done {
			t.Fatalf("the move: %s (%s)", got.State, got.Error)
		}
		for _, id := range []int64{first.ID, second.ID} {
			j, err := st.Job(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if j.State.Ended() {
				t.Errorf("analysis %d %s before the move was played", id, j.State)
			}
			if err := p.q.Cancel(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
	})
}
