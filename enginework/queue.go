package enginework

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"emergo/player"
	"emergo/rules"
)

// Config configures a Queue.
type Config struct {
	// Limits bound the analysis; default DefaultLimits.
	Limits Limits
	// Lease is how long a claim holds a job without a renewal; a worker
	// renews it every third of it. Default 10 s.
	Lease time.Duration
	// Poll is how often an idle worker asks the store for a job, and a
	// waiting request for its job, when the news may come from another
	// process; the news of this process comes at once. Default 100 ms.
	Poll time.Duration
	// Now is the clock, default time.Now.
	Now    func() time.Time
	Logger *slog.Logger
}

// Queue is one process's side of the engine work on a Store, which other
// processes may share: it puts jobs on it within the limits, waits for
// their results, and runs workers (Run). The jobs and results of this
// process wake its waiters and workers at once; those of others are seen
// by polling.
type Queue struct {
	st  Store
	cfg Config

	mu      sync.Mutex
	queued  chan struct{}                // closed when a job is queued here
	ended   map[int64]chan struct{}      // closed when the job ends here
	runs    map[int64]context.CancelFunc // stop the jobs running here
	running atomic.Int64                 // jobs running on this process's workers
}

// New returns the queue of st.
func New(st Store, cfg Config) *Queue {
	if cfg.Limits == (Limits{}) {
		cfg.Limits = DefaultLimits
	}
	if cfg.Lease <= 0 {
		cfg.Lease = 10 * time.Second
	}
	if cfg.Poll <= 0 {
		cfg.Poll = 100 * time.Millisecond
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Queue{st: st, cfg: cfg, queued: make(chan struct{}), ended: map[int64]chan struct{}{}, runs: map[int64]context.CancelFunc{}}
}

// Running returns the jobs running on this process's workers.
func (q *Queue) Running() int { return int(q.running.Load()) }

// Submit queues j, now, within the queue's limits (ErrClientBusy,
// ErrQueueFull), and sets its ID.
func (q *Queue) Submit(ctx context.Context, j *Job) error {
	j.Created = q.cfg.Now()
	if err := q.st.AddJob(ctx, j, q.cfg.Limits); err != nil {
		return err
	}
	q.Wake()
	return nil
}

// Wait waits until the job id ends and returns it, or until ctx ends:
// the job goes on (Cancel drops it).
func (q *Queue) Wait(ctx context.Context, id int64) (*Job, error) {
	tick := time.NewTicker(q.cfg.Poll)
	defer tick.Stop()
	ended := q.endedChan(id)
	defer q.forget(id, ended)
	for {
		j, err := q.st.Job(ctx, id)
		switch {
		case err == nil && j.State.Ended():
			return j, nil
		case err != nil && ctx.Err() == nil:
			return nil, err
		}
		select {
		case <-ended:
			ended = nil // the store says how it ended; polls if it does not
		case <-tick.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Wake tells this process's idle workers to look for jobs at once: jobs
// queued by another process, which they would otherwise see at their
// next poll.
func (q *Queue) Wake() {
	q.mu.Lock()
	defer q.mu.Unlock()
	close(q.queued)
	q.queued = make(chan struct{})
}

// Cancel drops the job id if it has not ended. A worker of this process
// running it stops at once; one of another process when it next renews
// its lease.
func (q *Queue) Cancel(ctx context.Context, id int64) error {
	if err := q.st.CancelJob(ctx, id, q.cfg.Now()); err != nil {
		return err
	}
	q.mu.Lock()
	if stop := q.runs[id]; stop != nil {
		stop()
	}
	q.mu.Unlock()
	q.end(id)
	return nil
}

// CancelGame drops the jobs of the game that have not ended, as Cancel
// drops one: the game has ended.
func (q *Queue) CancelGame(ctx context.Context, game string) error {
	ids, err := q.st.CancelGame(ctx, game, q.cfg.Now())
	if err != nil {
		return err
	}
	q.mu.Lock()
	for _, id := range ids {
		if stop := q.runs[id]; stop != nil {
			stop()
		}
	}
	q.mu.Unlock()
	for _, id := range ids {
		q.end(id)
	}
	return nil
}

// endedChan returns the channel closed when job id ends in this process.
func (q *Queue) endedChan(id int64) chan struct{} {
	q.mu.Lock()
	defer q.mu.Unlock()
	ch := q.ended[id]
	if ch == nil {
		ch = make(chan struct{})
		q.ended[id] = ch
	}
	return ch
}

// forget drops the channel of job id, ended or not waited for any more
// (a job that ends in another process is seen by polling).
func (q *Queue) forget(id int64, ch chan struct{}) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.ended[id] == ch {
		delete(q.ended, id)
	}
}

// end wakes the waiters of job id in this process.
func (q *Queue) end(id int64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if ch := q.ended[id]; ch != nil {
		close(ch)
		delete(q.ended, id)
	}
}

// queuedChan returns the channel closed when a job is next queued here.
func (q *Queue) queuedChan() chan struct{} {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.queued
}

// Apply plays the engine's move, as text, in the game of the Move job j,
// if the game is still at j.Version: ErrStale if not, another error if
// the move could not be stored just now (the job is then tried again).
type Apply func(ctx context.Context, j *Job, move string) error

// Workers configure Run.
type Workers struct {
	// N is the searches this process runs at once. One worker is kept
	// for a game's jobs (moves, answers) and the others take any job, a
	// game's first; N = 1 runs two all the same, so that analysis has
	// one.
	N int
	// HashMiB is the table of each search, default 8.
	HashMiB int
	// Name names this process's workers in the store (default the host
	// name and process ID).
	Name  string
	Apply Apply
}

// keepEnded is how long a job is kept after it ended: long enough for
// the requests waiting on it, which poll, to read how it ended. An engine
// move is a job, so that a busy site ends thousands a minute.
const keepEnded = time.Minute

// Run runs the workers until ctx ends, and waits for them. A worker
// stopped in a search gives its job back. The jobs that ended are pruned
// (keepEnded).
func (q *Queue) Run(ctx context.Context, w Workers) {
	if w.HashMiB <= 0 {
		w.HashMiB = 8
	}
	if w.Name == "" {
		host, _ := os.Hostname()
		w.Name = fmt.Sprintf("%s:%d", host, os.Getpid())
	}
	var wg sync.WaitGroup
	start := func(i int, urgentOnly bool) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q.work(ctx, fmt.Sprintf("%s/%d", w.Name, i), urgentOnly, w)
		}()
	}
	start(0, true)
	for i := 1; i < max(w.N, 2); i++ {
		start(i, false)
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(keepEnded / 6)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				if err := q.st.PruneJobs(ctx, q.cfg.Now().Add(-keepEnded)); err != nil && ctx.Err() == nil {
					q.cfg.Logger.Error("engine work: prune", "err", err)
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	wg.Wait()
}

// work is one worker: it claims jobs and runs them until ctx ends.
func (q *Queue) work(ctx context.Context, name string, urgentOnly bool, w Workers) {
	var se *player.Searcher // made at the first job
	tick := time.NewTicker(q.cfg.Poll)
	defer tick.Stop()
	for ctx.Err() == nil {
		queued := q.queuedChan()
		j, err := q.st.ClaimJob(ctx, name, urgentOnly, q.cfg.Now(), q.cfg.Lease)
		if err != nil && ctx.Err() == nil {
			q.cfg.Logger.Error("engine work: claim", "worker", name, "err", err)
		}
		if j == nil {
			select {
			case <-queued:
			case <-tick.C:
			case <-ctx.Done():
			}
			continue
		}
		if se == nil {
			se = player.NewSearcher(player.SearchOptions{HashMiB: w.HashMiB})
		}
		q.run(ctx, j, se, w.Apply)
	}
}

// run runs the claimed job j, renewing its lease, and writes back what
// came of it.
func (q *Queue) run(ctx context.Context, j *Job, se *player.Searcher, apply Apply) {
	q.running.Add(1)
	defer q.running.Add(-1)
	jctx, lost := context.WithCancel(ctx)
	defer lost()
	q.mu.Lock()
	q.runs[j.ID] = lost
	q.mu.Unlock()
	defer func() {
		q.mu.Lock()
		delete(q.runs, j.ID)
		q.mu.Unlock()
	}()
	beat := make(chan struct{})
	go func() {
		defer close(beat)
		tick := time.NewTicker(q.cfg.Lease / 3)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				err := q.st.RenewJob(jctx, j, q.cfg.Now().Add(q.cfg.Lease))
				if errors.Is(err, ErrLost) {
					lost()
					return
				}
				if err != nil && jctx.Err() == nil {
					q.cfg.Logger.Error("engine work: renew", "job", j.ID, "err", err)
				}
			case <-jctx.Done():
				return
			}
		}
	}()
	res, err := q.exec(jctx, ctx, j, se, apply)
	gone := jctx.Err() != nil
	lost() // stops the renewals
	<-beat
	j.Error = "" // of an earlier claim
	switch {
	case err == nil:
		j.State, j.Result = Done, res
	case ctx.Err() != nil:
		// The worker stops: the job goes back to the queue.
		j.State = Queued
	case gone:
		return // the claim was lost: the job is another's, or dropped
	case errors.Is(err, ErrStale):
		j.State = Dropped
	case j.Kind == Move && !errors.Is(err, errBadTask):
		j.State, j.Error = Queued, err.Error() // to be tried again
	default:
		j.State, j.Error = Failed, err.Error()
	}
	j.Finished = q.cfg.Now()
	if err := q.st.FinishJob(context.WithoutCancel(ctx), j); err != nil && !errors.Is(err, ErrLost) {
		q.cfg.Logger.Error("engine work: finish", "job", j.ID, "err", err)
	}
	if j.State == Failed {
		q.cfg.Logger.Error("engine work failed", "job", j.ID, "kind", j.Kind, "game", j.Game, "err", j.Error)
	}
	q.end(j.ID)
}

// errBadTask is a job that no worker can do: it fails at once.
var errBadTask = errors.New("enginework: bad task")

// exec searches for j on se within jctx, the claim's context, and plays
// a move within ctx, the worker's: a move found is played even if the
// claim is lost meanwhile, since the game's version decides whether it
// counts.
func (q *Queue) exec(jctx, ctx context.Context, j *Job, se *player.Searcher, apply Apply) (Result, error) {
	g, err := j.Task.Game()
	if err != nil {
		return Result{}, fmt.Errorf("%w: %v", errBadTask, err)
	}
	se.NewGame()
	if j.Kind != Move {
		res := se.Search(jctx, g, player.Limits{Depth: j.Task.Depth, MoveTime: j.Task.MoveTime}, nil)
		if jctx.Err() != nil {
			return Result{}, jctx.Err() // cut short: not the result asked for
		}
		return resultOf(g, res), nil
	}
	e, err := player.NewEngine(j.Task.Level, player.EngineOptions{Seed: j.Task.Seed, Search: se})
	if err != nil {
		return Result{}, fmt.Errorf("%w: %v", errBadTask, err)
	}
	m, err := e.Move(jctx, g, j.Task.Clock)
	if err != nil {
		return Result{}, fmt.Errorf("%w: %v", errBadTask, err)
	}
	if jctx.Err() != nil {
		return Result{}, jctx.Err() // cut short: not a move to play
	}
	text := m.Text(g.Geometry())
	if err := apply(ctx, j, text); err != nil {
		return Result{}, err
	}
	return Result{Move: text}, nil
}

// resultOf is the result of a search of g.
func resultOf(g *rules.Game, res player.Result) Result {
	geo := g.Geometry()
	out := Result{Score: res.Score, Depth: res.Depth, Nodes: res.Nodes}
	if !res.Move.IsZero() {
		out.Move = res.Move.Text(geo)
	}
	if len(res.Lines) > 0 {
		for _, m := range res.Lines[0].PV {
			out.PV = append(out.PV, m.Text(geo))
		}
	}
	return out
}
