package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"emergo/store"
)

// pgWrite is one statement of a PostgreSQL batch. Its query returns one
// row of one integer, the rows it wrote: a write that writes none met a
// newer version (store.ErrConflict).
type pgWrite struct {
	what  string // names the write in errors: "update g123"
	query string
	args  []any
}

const (
	// pipelineBatch bounds the statements of one pipeline.
	pipelineBatch = 64
	// pipelineLanes is the pipelines on their way at once: while one
	// waits for its commit, the next is filled and sent. Each takes a
	// connection of the pool while it runs, so the writes leave the
	// others to reads.
	pipelineLanes = 2
	// writeTimeout bounds a batch, which runs for callers that may have
	// gone (a caller waits for its write once it is queued).
	writeTimeout = time.Minute
)

var errNoPipeline = errors.New("sqlstore: the driver cannot pipeline")

// pipelineCommit writes ws on PostgreSQL: together in one pipeline, one
// transaction, when there are several; alone otherwise, or when the
// pipeline failed as a whole (one failing statement undoes its
// transaction), so that each write gets its own error.
func (s *DB) pipelineCommit(ws []pgWrite) []error {
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	errs := make([]error, len(ws))
	if len(ws) > 1 && s.pipeline(ctx, ws, errs) == nil {
		return errs
	}
	for i, w := range ws {
		errs[i] = writeOne(ctx, s.db, w)
	}
	return errs
}

// pipeline sends ws to PostgreSQL at once, between BEGIN and COMMIT, on
// one connection, and reads their answers into errs. An error returned
// means nothing was written.
func (s *DB) pipeline(ctx context.Context, ws []pgWrite, errs []error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		pc, ok := dc.(interface{ Conn() *pgx.Conn })
		if !ok {
			return errNoPipeline
		}
		var b pgx.Batch
		b.Queue("BEGIN")
		for _, w := range ws {
			b.Queue(w.query, w.args...)
		}
		b.Queue("COMMIT")
		res := pc.Conn().SendBatch(ctx, &b)
		defer res.Close()
		if _, err := res.Exec(); err != nil {
			return err
		}
		for i := range ws {
			var n int
			if err := res.QueryRow().Scan(&n); err != nil {
				return err
			}
			errs[i] = nil
			if n != 1 {
				errs[i] = store.ErrConflict
			}
		}
		// A transaction that failed ends in ROLLBACK, not an error.
		tag, err := res.Exec()
		if err != nil {
			return err
		}
		if tag.String() != "COMMIT" {
			return fmt.Errorf("sqlstore: pipeline ended in %s", tag)
		}
		return res.Close()
	})
}

// writeOne runs w alone, in q: the database (a statement is its own
// transaction) or a transaction.
func writeOne(ctx context.Context, q rowQuerier, w pgWrite) error {
	var n int
	if err := q.QueryRowContext(ctx, w.query, w.args...).Scan(&n); err != nil {
		return fmt.Errorf("sqlstore: %s: %w", w.what, err)
	}
	if n != 1 {
		return store.ErrConflict
	}
	return nil
}
