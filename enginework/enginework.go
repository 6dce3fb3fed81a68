// Package enginework is the site's engine work as a queue of jobs: the
// engine's moves in games, the engine's answers that a game waits on (a
// draw offer), and the searches of the analysis board. Servers put jobs
// on the queue; workers (goroutines of a server, or processes of their
// own, `emergo worker`) claim them, search, and write the results back.
//
// Its rules:
//
//   - Priority: a game's jobs (Move, Answer) come before analysis, and
//     within a priority the clients are served in turn (Job.Client: the
//     address, or its /64, of the person whose game or search it is). A
//     job's turn is its place among its client's jobs of its priority,
//     those running first and then those waiting, oldest first; the jobs
//     of a first turn come before any of a second, and so on, and within
//     a turn the oldest first. A client with a hundred jobs waiting so
//     delays another's by one job of his at most, not by a hundred.
//   - Reserve: every process keeps one of its workers for a game's jobs,
//     so that an engine move never waits behind analysis, however much of
//     it is asked (Queue.Run).
//   - Limits: analysis is limited per client, by its address and by its
//     account, and in total (Limits); a client's analyses run one at a
//     time, so that one client cannot take every worker.
//   - Leases: a claimed job is held until its lease expires, and the
//     worker renews the lease while it searches. A worker that dies leaves
//     its job to another once the lease expires; a job abandoned MaxClaims
//     times fails.
//   - Exactly once: an engine move is played only if its game is still at
//     the version the job was for, by the store's version check, so that
//     of two workers that made the same move (one of them late, its lease
//     lost) only one plays it.
//
// The Store keeps the jobs: Memory for a server alone (SQLite), and
// store/sqlstore for servers and workers sharing a PostgreSQL database.
package enginework

import (
	"context"
	"errors"
	"fmt"
	"time"

	"emergo/notation"
	"emergo/player"
	"emergo/rules"
)

// Kind is what a job asks for.
type Kind string

// The kinds of jobs.
const (
	// Move is the engine's move in a game, which the worker plays.
	Move Kind = "move"
	// Answer is a search that a game waits on, such as the engine's
	// answer to a draw offer: as urgent as a move.
	Answer Kind = "answer"
	// Analysis is a search for the analysis board: after the game's jobs,
	// and limited per client and in total.
	Analysis Kind = "analysis"
)

// Priority is the rank of the kind's jobs in the queue, 0 first.
func (k Kind) Priority() int {
	if k == Analysis {
		return 1
	}
	return 0
}

// Urgent reports whether the kind's jobs are a game's: first in the
// queue, and run by the workers kept for them.
func (k Kind) Urgent() bool { return k.Priority() == 0 }

// State is where a job is in its life.
type State string

// The states of a job.
const (
	Queued  State = "queued"  // waiting for a worker
	Running State = "running" // claimed by a worker, until its lease expires
	Done    State = "done"    // searched; a move played
	Failed  State = "failed"  // given up: Job.Error says why
	Dropped State = "dropped" // cancelled, or a move for a game that had changed
)

// Ended reports whether the job's life is over.
func (s State) Ended() bool { return s == Done || s == Failed || s == Dropped }

// MaxClaims bounds the claims of a job: a job whose workers died or
// gave it back that many times fails, so that a job that kills its
// workers cannot go round for ever.
const MaxClaims = 3

// Task is what a job searches: a position with its history, and the
// limits of the search.
type Task struct {
	// Start is the position text of the game's start; Moves are the
	// moves played from it, in whose positions the search sees
	// repetitions (RULES 6.3).
	Start string   `json:"start"`
	Moves []string `json:"moves,omitempty"`
	// Level, Seed and Clock are the engine's for a Move.
	Level int          `json:"level,omitempty"`
	Seed  uint64       `json:"seed,omitempty"`
	Clock player.Clock `json:"clock"`
	// Depth and MoveTime bound a search (Answer, Analysis).
	Depth    int           `json:"depth,omitempty"`
	MoveTime time.Duration `json:"moveTime,omitempty"`
}

// TaskOf returns the task of searching the current position of g, with
// its history.
func TaskOf(g *rules.Game) Task {
	start := g.Start()
	t := Task{Start: notation.FormatPosition(&start)}
	geo := g.Geometry()
	for _, m := range g.Moves() {
		t.Moves = append(t.Moves, m.Text(geo))
	}
	return t
}

// Game returns the game the task searches.
func (t *Task) Game() (*rules.Game, error) {
	p, err := notation.ParsePosition(t.Start)
	if err != nil {
		return nil, fmt.Errorf("enginework: task: %w", err)
	}
	g := rules.NewGameFrom(p)
	if err := notation.PlayMoves(g, t.Moves); err != nil {
		return nil, fmt.Errorf("enginework: task: %w", err)
	}
	return g, nil
}

// Result is what a job found.
type Result struct {
	// Move is the move played (Move), or the best move (Answer,
	// Analysis); empty if there is none.
	Move string `json:"move,omitempty"`
	// Score is in hundredths of a free man for the side to move (see
	// player.Mate); Depth the depth completed, Nodes the nodes searched.
	Score int32    `json:"score"`
	Depth int      `json:"depth"`
	Nodes uint64   `json:"nodes"`
	PV    []string `json:"pv,omitempty"`
}

// Job is one piece of engine work.
type Job struct {
	ID   int64
	Kind Kind
	Task Task
	// Game and Version are the game of a Move and the version of it the
	// move is for: the move is played only in that version. An Answer
	// has the game that waits on it.
	Game    string
	Version int64
	// Client and Account are whose job it is: the client's key (its
	// address, or its /64) and its account (0 for a guest); for a game's
	// jobs, the person who plays the engine. The queue serves the clients
	// in turn (Priority), and the limits count an Analysis's.
	Client  string
	Account int64

	State State
	// Claims counts the claims of the job; the current one's number
	// identifies it (Renew and Finish refuse an older claim's).
	Claims int
	Worker string // the worker of the last claim
	// Created is when the job was queued, Started when it was last
	// claimed, Expires when the lease of that claim ends, Finished when
	// it ended.
	Created, Started, Expires, Finished time.Time
	Result                              Result
	Error                               string
}

// Wait is how long the job waited in the queue before it was (last)
// claimed.
func (j *Job) Wait() time.Duration { return j.Started.Sub(j.Created) }

// Ran is how long the job ran, from its (last) claim to its end.
func (j *Job) Ran() time.Duration { return j.Finished.Sub(j.Started) }

// Errors of the queue.
var (
	// ErrClientBusy refuses an analysis to a client (an address or an
	// account) that has Limits.PerClient waiting or running.
	ErrClientBusy = errors.New("enginework: the client has as many analyses as it may")
	// ErrQueueFull refuses an analysis while Limits.Queue wait or run.
	ErrQueueFull = errors.New("enginework: the analysis queue is full")
	// ErrLost says that a worker's claim of a job is over: the lease
	// expired and another worker claimed the job, or it was cancelled.
	ErrLost = errors.New("enginework: the job is no longer this claim's")
	// ErrNotFound: no such job.
	ErrNotFound = errors.New("enginework: no such job")
	// ErrStale is what a move's Apply returns when the game is no longer
	// at the job's version (or is gone): the move is not played.
	ErrStale = errors.New("enginework: the game changed since the move was asked for")
)

// Limits bound the analysis on the queue; the game's jobs have none.
type Limits struct {
	// PerClient is the most analyses waiting or running of one client:
	// of one address, and of one account.
	PerClient int
	// Queue is the most analyses waiting or running in all.
	Queue int
}

// DefaultLimits let a client run one analysis and queue two more, and
// the site queue 32.
var DefaultLimits = Limits{PerClient: 3, Queue: 32}

// Admit says whether a client with mine analyses waiting or running may
// ask for one more while total wait or run in all.
func (l Limits) Admit(mine, total int) error {
	switch {
	case mine >= l.PerClient:
		return ErrClientBusy
	case total >= l.Queue:
		return ErrQueueFull
	}
	return nil
}

// Store keeps the jobs of one queue; several processes may share one
// (store/sqlstore on PostgreSQL). Times are the caller's: the store reads
// no clock of its own.
type Store interface {
	// AddJob adds j (Kind, Task, Game, Version, Client, Account and
	// Created) to the queue, and sets its ID and State. A Move for a
	// game version that a job still queued or running asks for already
	// is not asked again: j gets that job's ID and state. An Analysis is
	// admitted only within lim (Limits.Admit counting the client's by its
	// address, and by its account if not 0).
	AddJob(ctx context.Context, j *Job, lim Limits) error
	// ClaimJob gives worker the next job at now, leased until now+lease: of
	// the queued jobs and the running ones whose lease has expired, the
	// first by priority, then by its client's turn (the package's
	// Priority rule), then by Created (and ID). With urgentOnly it
	// takes no Analysis; it takes no Analysis of a client or account that
	// has one running. A running job whose lease expired after MaxClaims
	// claims fails instead. It returns nil if no job is to be had.
	ClaimJob(ctx context.Context, worker string, urgentOnly bool, now time.Time, lease time.Duration) (*Job, error)
	// RenewJob extends the lease of j, running on its claim j.Claims, to
	// until. ErrLost if that claim is over.
	RenewJob(ctx context.Context, j *Job, until time.Time) error
	// FinishJob ends the claim j.Claims of j with j.State (Done, Failed or
	// Dropped, with j.Result or j.Error, at j.Finished) or gives the job
	// back (Queued: it fails instead, at j.Finished, if it was claimed
	// MaxClaims times). ErrLost if that claim is over.
	FinishJob(ctx context.Context, j *Job) error
	// Job returns the job id, or ErrNotFound.
	Job(ctx context.Context, id int64) (*Job, error)
	// CancelJob drops the job id at now, if it has not ended: a worker
	// running it learns it when it next renews its lease.
	CancelJob(ctx context.Context, id int64, now time.Time) error
	// CancelGame drops at now every job of the game (Job.Game, not empty)
	// that has not ended, as CancelJob does, and returns their IDs: the
	// game has ended, and nothing of it is to be searched.
	CancelGame(ctx context.Context, game string, now time.Time) ([]int64, error)
	// PruneJobs deletes the jobs that ended before.
	PruneJobs(ctx context.Context, before time.Time) error
}
