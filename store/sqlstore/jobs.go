package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"emergo/enginework"
)

// The DB keeps the queue of engine work too, for servers and workers
// sharing a PostgreSQL database. Claims take the first job, by priority
// and by its client's turn (turns), with SELECT ... FOR UPDATE SKIP
// LOCKED, so that racing workers take different jobs without waiting for
// each other. Analysis is admitted and claimed under
// a transaction-scoped advisory lock, so that the limits, which count
// rows, hold when servers and workers race. On SQLite, whose writes are
// one at a time, the same queries need neither.
var _ enginework.Store = (*DB)(nil)

const jobColumns = `id, kind, task, game_id, version, client, account, state, claims, worker,
	created_ms, started_ms, expires_ms, finished_ms, result, error`

// analysisLock is the advisory lock of the analysis's limits.
const analysisLock = 0x656d6572676f // "emergo"

// pending selects the jobs queued or running.
const pending = `state IN ('queued', 'running')`

// turns numbers the pending jobs by their turn in the queue (the Priority
// rule of package enginework): the place of each among its client's jobs
// of its priority, those running on a live lease (its one parameter, now)
// first, then the others oldest first. A window function, which neither
// database lets FOR UPDATE lock through: the claim joins it to the jobs
// it locks.
const turns = `SELECT id, ROW_NUMBER() OVER (PARTITION BY priority, client
	ORDER BY CASE WHEN state = 'running' AND expires_ms > ? THEN 0 ELSE 1 END, created_ms, id) AS turn
	FROM jobs WHERE ` + pending

// AddJob implements enginework.Store.
func (s *DB) AddJob(ctx context.Context, j *enginework.Job, lim enginework.Limits) error {
	task, err := json.Marshal(j.Task)
	if err != nil {
		return fmt.Errorf("sqlstore: enqueue: %w", err)
	}
	write := s.write
	if j.Kind == enginework.Analysis {
		// Counted under the lock of the analysis's limits.
		write = func(ctx context.Context, fn func(tx *sql.Tx) error) error {
			return s.serialized(ctx, lockKey(analysisLock), fn)
		}
	}
	return write(ctx, func(tx *sql.Tx) error {
		if j.Kind == enginework.Analysis {
			var mine, total int
			err := tx.QueryRowContext(ctx, s.rebind(`SELECT COUNT(*),
				COALESCE(SUM(CASE WHEN client = ? OR (? <> 0 AND account = ?) THEN 1 ELSE 0 END), 0)
				FROM jobs WHERE kind = 'analysis' AND `+pending), j.Client, j.Account, j.Account).Scan(&total, &mine)
			if err != nil {
				return fmt.Errorf("sqlstore: enqueue: %w", err)
			}
			if err := lim.Admit(mine, total); err != nil {
				return err
			}
		}
		q := s.rebind(`INSERT INTO jobs (kind, priority, task, game_id, version, client, account, state, claims, worker,
			created_ms, started_ms, expires_ms, finished_ms, result, error)
			VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', 0, '', ?, 0, 0, 0, '{}', '') ON CONFLICT DO NOTHING RETURNING id`)
		err := tx.QueryRowContext(ctx, q, string(j.Kind), j.Kind.Priority(), string(task), j.Game, j.Version,
			j.Client, j.Account, ms(j.Created)).Scan(&j.ID)
		if errors.Is(err, sql.ErrNoRows) {
			// The move is asked for already (jobs_move).
			var state string
			err = tx.QueryRowContext(ctx, s.rebind(`SELECT id, state FROM jobs
				WHERE kind = 'move' AND game_id = ? AND version = ? AND `+pending), j.Game, j.Version).Scan(&j.ID, &state)
			j.State = enginework.State(state)
			if err != nil {
				return fmt.Errorf("sqlstore: enqueue the move of %s version %d: %w", j.Game, j.Version, err)
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("sqlstore: enqueue: %w", err)
		}
		j.State, j.Claims, j.Worker, j.Result, j.Error = enginework.Queued, 0, "", enginework.Result{}, ""
		j.Started, j.Expires, j.Finished = time.Time{}, time.Time{}, time.Time{}
		return nil
	})
}

// lockAnalysis takes the advisory lock of the analysis's limits until
// tx ends, on PostgreSQL: the claim's, within its transaction (AddJob's
// is serialized's).
func (s *DB) lockAnalysis(ctx context.Context, tx *sql.Tx) error {
	if !s.postgres {
		return nil
	}
	return lockKey(analysisLock).take(ctx, tx)
}

// ClaimJob implements enginework.Store.
func (s *DB) ClaimJob(ctx context.Context, worker string, urgentOnly bool, now time.Time, lease time.Duration) (*enginework.Job, error) {
	var j *enginework.Job
	err := s.write(ctx, func(tx *sql.Tx) error {
		j = nil
		if _, err := tx.ExecContext(ctx, s.rebind(`UPDATE jobs SET state = 'failed', error = ?, finished_ms = ?
			WHERE state = 'running' AND expires_ms <= ? AND claims >= ?`),
			"abandoned: the lease of its last claim expired", ms(now), ms(now), enginework.MaxClaims); err != nil {
			return fmt.Errorf("sqlstore: claim: %w", err)
		}
		lock := ""
		if s.postgres {
			lock = ` FOR UPDATE OF j SKIP LOCKED`
		}
		claimable := `(j.state = 'queued' OR (j.state = 'running' AND j.expires_ms <= ? AND j.claims < ?))`
		pick := func(where string, args ...any) (int64, error) {
			var id int64
			err := tx.QueryRowContext(ctx, s.rebind(`SELECT j.id FROM jobs j JOIN (`+turns+`) t ON t.id = j.id
				WHERE `+claimable+` AND `+where+`
				ORDER BY j.priority, t.turn, j.created_ms, j.id LIMIT 1`+lock),
				append([]any{ms(now), ms(now), enginework.MaxClaims}, args...)...).Scan(&id)
			if errors.Is(err, sql.ErrNoRows) {
				return 0, nil
			}
			return id, err
		}
		id, err := pick(`j.priority = 0`)
		if err == nil && id == 0 && !urgentOnly {
			if err := s.lockAnalysis(ctx, tx); err != nil {
				return err
			}
			id, err = pick(`j.kind = 'analysis' AND NOT EXISTS (SELECT 1 FROM jobs r
				WHERE r.kind = 'analysis' AND r.state = 'running' AND r.expires_ms > ?
				AND (r.client = j.client OR (j.account <> 0 AND r.account = j.account)))`, ms(now))
		}
		if err != nil {
			return fmt.Errorf("sqlstore: claim: %w", err)
		}
		if id == 0 {
			return nil
		}
		j, err = scanJob(tx.QueryRowContext(ctx, s.rebind(`UPDATE jobs SET state = 'running', claims = claims + 1, worker = ?,
			started_ms = ?, expires_ms = ? WHERE id = ? RETURNING `+jobColumns), worker, ms(now), ms(now.Add(lease)), id))
		if err != nil {
			return fmt.Errorf("sqlstore: claim job %d: %w", id, err)
		}
		return nil
	})
	return j, err
}

// RenewJob implements enginework.Store.
func (s *DB) RenewJob(ctx context.Context, j *enginework.Job, until time.Time) error {
	return s.claimed(ctx, j, `expires_ms = ?`, ms(until))
}

// FinishJob implements enginework.Store.
func (s *DB) FinishJob(ctx context.Context, j *enginework.Job) error {
	if j.State == enginework.Queued && j.Claims >= enginework.MaxClaims {
		j.State = enginework.Failed // given back as often as it may be
	}
	if j.State == enginework.Queued {
		return s.claimed(ctx, j, `state = 'queued', worker = '', expires_ms = 0, error = ?`, j.Error)
	}
	res, err := json.Marshal(j.Result)
	if err != nil {
		return fmt.Errorf("sqlstore: finish job %d: %w", j.ID, err)
	}
	return s.claimed(ctx, j, `state = ?, finished_ms = ?, result = ?, error = ?`, string(j.State), ms(j.Finished), string(res), j.Error)
}

// claimed sets the columns of job j while it runs on its claim j.Claims,
// or returns enginework.ErrLost.
func (s *DB) claimed(ctx context.Context, j *enginework.Job, set string, args ...any) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.rebind(`UPDATE jobs SET `+set+` WHERE id = ? AND claims = ? AND state = 'running'`),
			append(args, j.ID, j.Claims)...)
		if err != nil {
			return fmt.Errorf("sqlstore: job %d: %w", j.ID, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("sqlstore: job %d: %w", j.ID, err)
		} else if n != 1 {
			return enginework.ErrLost
		}
		return nil
	})
}

// Job implements enginework.Store.
func (s *DB) Job(ctx context.Context, id int64) (*enginework.Job, error) {
	j, err := scanJob(s.db.QueryRowContext(ctx, s.rebind(`SELECT `+jobColumns+` FROM jobs WHERE id = ?`), id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, enginework.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("sqlstore: job %d: %w", id, err)
	}
	return j, nil
}

// CancelJob implements enginework.Store.
func (s *DB) CancelJob(ctx context.Context, id int64, now time.Time) error {
	return s.exec(ctx, "cancel job", s.rebind(`UPDATE jobs SET state = 'dropped', finished_ms = ? WHERE id = ? AND `+pending), ms(now), id)
}

// CancelGame implements enginework.Store.
func (s *DB) CancelGame(ctx context.Context, game string, now time.Time) ([]int64, error) {
	if game == "" {
		return nil, nil
	}
	var ids []int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		ids = nil
		rows, err := tx.QueryContext(ctx, s.rebind(`UPDATE jobs SET state = 'dropped', finished_ms = ?
			WHERE `+pending+` AND game_id = ? RETURNING id`), ms(now), game)
		if err != nil {
			return fmt.Errorf("sqlstore: cancel the jobs of %s: %w", game, err)
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				return fmt.Errorf("sqlstore: cancel the jobs of %s: %w", game, err)
			}
			ids = append(ids, id)
		}
		return rows.Err()
	})
	slices.Sort(ids)
	return ids, err
}

// PruneJobs implements enginework.Store.
func (s *DB) PruneJobs(ctx context.Context, before time.Time) error {
	return s.exec(ctx, "prune jobs", s.rebind(`DELETE FROM jobs WHERE state IN ('done', 'failed', 'dropped') AND finished_ms < ?`), ms(before))
}

func scanJob(row interface{ Scan(...any) error }) (*enginework.Job, error) {
	j := &enginework.Job{}
	var kind, state, task, result string
	var created, started, expires, finished int64
	if err := row.Scan(&j.ID, &kind, &task, &j.Game, &j.Version, &j.Client, &j.Account, &state, &j.Claims, &j.Worker,
		&created, &started, &expires, &finished, &result, &j.Error); err != nil {
		return nil, err
	}
	j.Kind, j.State = enginework.Kind(kind), enginework.State(state)
	j.Created, j.Started, j.Expires, j.Finished = fromMS(created), fromMS(started), fromMS(expires), fromMS(finished)
	if err := json.Unmarshal([]byte(task), &j.Task); err != nil {
		return nil, fmt.Errorf("the task of job %d: %w", j.ID, err)
	}
	if err := json.Unmarshal([]byte(result), &j.Result); err != nil {
		return nil, fmt.Errorf("the result of job %d: %w", j.ID, err)
	}
	return j, nil
}
