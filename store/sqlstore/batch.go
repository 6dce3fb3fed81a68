package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
)

// SQLite has one writer at a time, and with synchronous=FULL every commit
// waits for the disk, so one transaction per move caps the server at a few
// hundred moves a second. The batcher commits the writes that arrive while
// the previous commit is on its way to the disk together, in one
// transaction (group commit), each in a savepoint of its own so that one
// failing write does not undo the others. Every caller still returns only
// after its write is durable.
type batcher struct {
	db     *sql.DB
	queue  chan *writeOp
	wg     sync.WaitGroup
	mu     sync.RWMutex // held for reading while queueing, for writing to close
	closed bool
}

type writeOp struct {
	fn   func(tx *sql.Tx) error
	done chan error
}

var errClosed = errors.New("sqlstore: the store is closed")

// maxBatch bounds the writes of one transaction.
const maxBatch = 256

func newBatcher(db *sql.DB) *batcher {
	b := &batcher{db: db, queue: make(chan *writeOp, maxBatch)}
	b.wg.Add(1)
	go b.run()
	return b
}

// close stops the batcher after the queued writes; it may be called more
// than once.
func (b *batcher) close() {
	b.mu.Lock()
	if !b.closed {
		b.closed = true
		close(b.queue)
	}
	b.mu.Unlock()
	b.wg.Wait()
}

// do runs fn inside a batch and returns its error, or the commit's.
func (b *batcher) do(ctx context.Context, fn func(tx *sql.Tx) error) error {
	op := &writeOp{fn: fn, done: make(chan error, 1)}
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

func (b *batcher) run() {
	defer b.wg.Done()
	for op := range b.queue {
		batch := []*writeOp{op}
	fill:
		for len(batch) < maxBatch {
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
		b.commit(batch)
	}
}

func (b *batcher) commit(batch []*writeOp) {
	errs := make([]error, len(batch))
	err := func() error {
		tx, err := b.db.Begin()
		if err != nil {
			return err
		}
		defer tx.Rollback()
		for i, op := range batch {
			if _, err := tx.Exec("SAVEPOINT w"); err != nil {
				return err
			}
			if errs[i] = op.fn(tx); errs[i] != nil {
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
	for i, op := range batch {
		if err != nil {
			errs[i] = fmt.Errorf("sqlstore: commit: %w", err)
		}
		op.done <- errs[i]
	}
}
