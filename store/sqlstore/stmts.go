package sqlstore

import (
	"context"
	"database/sql"
	"sync"
)

// stmts keeps the prepared statements of the queries asked most often,
// whose preparing would cost more than their running: the lobby's, read
// for every viewer after every change. SQLite's driver prepares every
// query afresh; database/sql prepares a statement again, once, on each
// connection it runs on.
type stmts struct {
	mu     sync.Mutex
	m      map[string]*sql.Stmt
	closed bool
}

// query runs q (rebound) as a statement prepared once.
func (s *DB) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	st, err := s.stmt(ctx, s.rebind(q))
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

func (s *DB) stmt(ctx context.Context, q string) (*sql.Stmt, error) {
	c := &s.stmts
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.m[q]; ok {
		return st, nil
	}
	if c.closed {
		return nil, errClosed
	}
	st, err := s.db.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	c.m[q] = st
	return st, nil
}

// close closes the statements.
func (c *stmts) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for _, st := range c.m {
		st.Close()
	}
	c.m = nil
}
