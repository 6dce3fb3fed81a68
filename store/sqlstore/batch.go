package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
)

// A batcher commits the writes that arrive while earlier ones are on their
// way to the disk together (group commit). Every caller still returns only
// after its own write is durable, with its own error.
//
// SQLite has one writer at a time, and with synchronous=FULL every commit
// waits for the disk, so one transaction per move caps the server at a few
// hundred moves a second: its batches are one transaction, each write in a
// savepoint of its own so that one failing write does not undo the others
// (sqliteCommit).
//
// On PostgreSQL a move's update was one statement and one commit of its
// own: a round trip, a wake-up of a server process and a flush of the
// write-ahead log per move, each taking its turn for the CPU with every
// other. Its batches go as one pipeline, one round trip and one commit
// (pipelineCommit).
type batcher[W any] struct {
	queue  chan *queued[W]
	commit func(ws []W) []error // one error per write, nil if it is durable
	wg     sync.WaitGroup
	mu     sync.RWMutex // held for reading while queueing, for writing to close
	closed bool
}

type queued[W any] struct {
	w    W
	done chan error
}

var errClosed = errors.New("sqlstore: the store is closed")

// newBatcher starts a batcher of at most max writes a batch, with lanes
// batches on their way at once.
func newBatcher[W any](max, lanes int, commit func(ws []W) []error) *batcher[W] {
	b := &batcher[W]{queue: make(chan *queued[W], max), commit: commit}
	b.wg.Add(lanes)
	for range lanes {
		go b.run(max)
	}
	return b
}

// close stops the batcher after the queued writes; it may be called more
// than once.
func (b *batcher[W]) close() {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.queue)
	}
	b.mu.Unlock()
	b.wg.Wait()
}

// do writes w inside a batch and returns its error, or the commit's.
func (b *batcher[W]) do(ctx context.Context, w W) error {
	op := &queued[W]{w: w, done: make(chan error, 1)}
	b.mu.RLock()
	if b.closed {
		b.mu.RUnlock()
		return errClosed
	}
	select {
	case b.queue <- op:
	case <-ctx.Done():
		b.mu.RUnlock()
		return ctx.Err()
	}
	b.mu.RUnlock()
	// Once queued the write happens; wait for it even if ctx ends, so the
	// caller never acknowledges what is not durable, nor reports as lost
	// what is.
	return <-op.done
}

func (b *batcher[W]) run(max int) {
	defer b.wg.Done()
	for op := range b.queue {
		batch := []*queued[W]{op}
	fill:
		for len(batch) < max {
			select {
			case more, ok := <-b.queue:
				if !ok {
					break fill
				}
				batch = append(batch, more)
			default:
				break fill
			}
		}
		ws := make([]W, len(batch))
		for i, p := range batch {
			ws[i] = p.w
		}
		errs := b.commit(ws)
		for i, p := range batch {
			p.done <- errs[i]
		}
	}
}

// sqliteBatch bounds the writes of one SQLite transaction.
const sqliteBatch = 256

// sqliteCommit writes ws in one transaction of db, each in a savepoint.
func sqliteCommit(db *sql.DB) func(ws []func(tx *sql.Tx) error) []error {
	return func(ws []func(tx *sql.Tx) error) []error {
		errs := make([]error, len(ws))
		err := func() error {
			tx, err := db.Begin()
			if err != nil {
				return err
			}
			defer tx.Rollback()
			for i, fn := range ws {
				if _, err := tx.Exec("SAVEPOINT w"); err != nil {
					return err
				}
				if errs[i] = fn(tx); errs[i] != nil {
					if _, err := tx.Exec("ROLLBACK TO w"); err != nil {
						return err
					}
				}
				if _, err := tx.Exec("RELEASE w"); err != nil {
					return err
				}
			}
			return tx.Commit()
		}()
		if err != nil {
			for i := range errs {
				errs[i] = fmt.Errorf("sqlstore: commit: %w", err)
			}
		}
		return errs
	}
}
