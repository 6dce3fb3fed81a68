package enginework

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"
)

// Memory is a Store in the memory of one process: the queue of a server
// that runs alone (on SQLite), whose workers are its own goroutines. Its
// jobs are gone when the process ends; the server asks again for the
// moves of the games it resumes.
type Memory struct {
	mu      sync.Mutex
	jobs    map[int64]*Job
	pending map[int64]*Job // the jobs of jobs that have not ended
	last    int64
}

// NewMemory returns an empty queue.
func NewMemory() *Memory { return &Memory{jobs: map[int64]*Job{}, pending: map[int64]*Job{}} }

var _ Store = (*Memory)(nil)

// AddJob implements Store.
func (m *Memory) AddJob(_ context.Context, j *Job, lim Limits) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	mine, total := 0, 0
	for _, o := range m.pending {
		switch {
		case j.Kind == Move && o.Kind == Move && o.Game == j.Game && o.Version == j.Version:
			j.ID, j.State = o.ID, o.State
			return nil
		case j.Kind == Analysis && o.Kind == Analysis:
			total++
			if sameClient(o, j) {
				mine++
			}
		}
	}
	if j.Kind == Analysis {
		if err := lim.Admit(mine, total); err != nil {
			return err
		}
	}
	m.last++
	j.ID, j.State, j.Claims, j.Worker = m.last, Queued, 0, ""
	j.Started, j.Expires, j.Finished = time.Time{}, time.Time{}, time.Time{}
	j.Result, j.Error = Result{}, ""
	m.jobs[j.ID] = copyJob(j)
	m.pending[j.ID] = m.jobs[j.ID]
	return nil
}

// end ends the pending job o with state at now.
func (m *Memory) end(o *Job, state State, now time.Time) {
	o.State, o.Finished = state, now
	delete(m.pending, o.ID)
}

// sameClient reports whether two analyses are of one client: one address,
// or one account.
func sameClient(a, b *Job) bool {
	return a.Client == b.Client || (a.Account != 0 && a.Account == b.Account)
}

// ClaimJob implements Store.
func (m *Memory) ClaimJob(_ context.Context, worker string, urgentOnly bool, now time.Time, lease time.Duration) (*Job, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var busy []*Job // analyses running on a live lease
	for _, o := range m.pending {
		switch {
		case o.State != Running:
		case o.Expires.After(now):
			if o.Kind == Analysis {
				busy = append(busy, o)
			}
		case o.Claims >= MaxClaims:
			o.Error = abandoned
			m.end(o, Failed, now)
		}
	}
	turn := m.turns(now)
	var best *Job
	for _, o := range m.pending {
		switch {
		case o.State == Running && o.Expires.After(now):
			continue
		case urgentOnly && !o.Kind.Urgent():
			continue
		case o.Kind == Analysis && anyClient(busy, o):
			continue
		}
		if best == nil || before(o, best, turn) {
			best = o
		}
	}
	if best == nil {
		return nil, nil
	}
	best.State, best.Claims, best.Worker = Running, best.Claims+1, worker
	best.Started, best.Expires = now, now.Add(lease)
	return copyJob(best), nil
}

// abandoned is the Error of a job whose workers all died.
const abandoned = "abandoned: the lease of its last claim expired"

// turns returns the turn of every pending job at now (the package's
// Priority rule): its place, from 1, among the pending jobs of its client
// and priority, those running on a live lease first and then the others
// oldest first.
func (m *Memory) turns(now time.Time) map[int64]int {
	type line struct {
		priority int
		client   string
	}
	lines := map[line][]*Job{}
	for _, o := range m.pending {
		l := line{o.Kind.Priority(), o.Client}
		lines[l] = append(lines[l], o)
	}
	turn := make(map[int64]int, len(m.pending))
	for _, jobs := range lines {
		slices.SortFunc(jobs, func(a, b *Job) int {
			if ra, rb := a.State == Running && a.Expires.After(now), b.State == Running && b.Expires.After(now); ra != rb {
				if ra {
					return -1
				}
				return 1
			}
			return older(a, b)
		})
		for i, o := range jobs {
			turn[o.ID] = i + 1
		}
	}
	return turn
}

// before reports whether a comes before b in the queue, whose jobs have
// their turns.
func before(a, b *Job, turn map[int64]int) bool {
	if pa, pb := a.Kind.Priority(), b.Kind.Priority(); pa != pb {
		return pa < pb
	}
	if ta, tb := turn[a.ID], turn[b.ID]; ta != tb {
		return ta < tb
	}
	return older(a, b) < 0
}

// older compares jobs by age: Created, then ID.
func older(a, b *Job) int {
	if c := a.Created.Compare(b.Created); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

func anyClient(running []*Job, j *Job) bool {
	for _, r := range running {
		if sameClient(r, j) {
			return true
		}
	}
	return false
}

// claimed returns the stored job of j's claim, or ErrLost.
func (m *Memory) claimed(j *Job) (*Job, error) {
	o := m.jobs[j.ID]
	if o == nil || o.State != Running || o.Claims != j.Claims {
		return nil, ErrLost
	}
	return o, nil
}

// RenewJob implements Store.
func (m *Memory) RenewJob(_ context.Context, j *Job, until time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	o, err := m.claimed(j)
	if err != nil {
		return err
	}
	o.Expires = until
	return nil
}

// FinishJob implements Store.
func (m *Memory) FinishJob(_ context.Context, j *Job) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	o, err := m.claimed(j)
	if err != nil {
		return err
	}
	if j.State == Queued && o.Claims < MaxClaims {
		o.State, o.Worker, o.Expires, o.Error = Queued, "", time.Time{}, j.Error
		return nil
	}
	if j.State == Queued {
		j.State = Failed // given back as often as it may be
	}
	o.Result, o.Error = j.Result, j.Error
	o.Result.PV = append([]string(nil), j.Result.PV...)
	m.end(o, j.State, j.Finished)
	return nil
}

// Job implements Store.
func (m *Memory) Job(_ context.Context, id int64) (*Job, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	o := m.jobs[id]
	if o == nil {
		return nil, ErrNotFound
	}
	return copyJob(o), nil
}

// Jobs returns every job the queue holds, in the order of their IDs: for
// tests and reports, which read the queue's own times.
func (m *Memory) Jobs() []Job {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Job, 0, len(m.jobs))
	for _, o := range m.jobs {
		out = append(out, *copyJob(o))
	}
	slices.SortFunc(out, func(a, b Job) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// CancelJob implements Store.
func (m *Memory) CancelJob(_ context.Context, id int64, now time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if o := m.pending[id]; o != nil {
		m.end(o, Dropped, now)
	}
	return nil
}

// CancelGame implements Store.
func (m *Memory) CancelGame(_ context.Context, game string, now time.Time) ([]int64, error) {
	if game == "" {
		return nil, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var ids []int64
	for _, o := range m.pending {
		if o.Game == game {
			ids = append(ids, o.ID)
			m.end(o, Dropped, now)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// PruneJobs implements Store.
func (m *Memory) PruneJobs(_ context.Context, before time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, o := range m.jobs {
		if o.State.Ended() && o.Finished.Before(before) {
			delete(m.jobs, id)
		}
	}
	return nil
}

func copyJob(j *Job) *Job {
	c := *j
	c.Task.Moves = append([]string(nil), j.Task.Moves...)
	c.Result.PV = append([]string(nil), j.Result.PV...)
	return &c
}
