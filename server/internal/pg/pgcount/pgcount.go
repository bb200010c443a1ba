// Package pgcount counts the round trips a piece of code makes to
// PostgreSQL, for benchmarks and tests: a fresh migrated test database
// (pgtest) opened through lib/pq wrapped by a counting driver.Connector.
//
// Every call that reaches the server is one round trip with lib/pq and
// binary_parameters=yes (which pg.Open and pgtest set): a query or an
// exec with parameters (Parse, Bind, Describe, Execute, Sync), one
// without (a simple query), BEGIN, COMMIT and ROLLBACK. Reading a query's
// rows is part of its round trip.
package pgcount

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/peterldowns/pgtestdb"

	"github.com/tatib/tatib/server/internal/pg/pgtest"
)

// Counter counts the round trips of every connection of its database, and
// keeps their statements while Record is on.
type Counter struct {
	mu     sync.Mutex
	n      int64
	record bool
	stmts  []Statement
}

// Statement is one round trip: its SQL on one line, and how long it took
// from sending it to reading its last row.
type Statement struct {
	SQL  string
	Args []any
	Took time.Duration
}

// New returns a connection to a fresh migrated database for this test,
// every round trip of which c counts.
func New(t testing.TB) (db *sqlx.DB, c *Counter) {
	t.Helper()
	conf := pgtestdb.Custom(t, pgtest.Config(t), pgtest.Migrator())
	base, err := pq.NewConnector(conf.URL())
	if err != nil {
		t.Fatal(err)
	}
	c = &Counter{}
	sdb := sql.OpenDB(connector{base: base, c: c})
	t.Cleanup(func() { sdb.Close() })
	return sqlx.NewDb(sdb, "postgres"), c
}

// Count is how many round trips were made so far.
func (c *Counter) Count() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Record starts keeping the statements sent, forgetting those kept
// before.
func (c *Counter) Record() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.record, c.stmts = true, nil
}

// Stop stops keeping statements and returns those kept since Record, in
// the order they were sent.
func (c *Counter) Stop() []Statement {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.record = false
	for i := range c.stmts {
		c.stmts[i].SQL = strings.Join(strings.Fields(c.stmts[i].SQL), " ")
	}
	return c.stmts
}

// add counts a round trip and returns what to call when it is over.
func (c *Counter) add(stmt string, args ...driver.NamedValue) func() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	if !c.record {
		return func() {}
	}
	i, start := len(c.stmts), time.Now()
	st := Statement{SQL: stmt}
	for _, a := range args {
		st.Args = append(st.Args, a.Value)
	}
	c.stmts = append(c.stmts, st)
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if i < len(c.stmts) {
			c.stmts[i].Took = time.Since(start)
		}
	}
}

type connector struct {
	base driver.Connector
	c    *Counter
}

func (k connector) Connect(ctx context.Context) (driver.Conn, error) {
	cn, err := k.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &conn{Conn: cn, c: k.c}, nil
}

func (k connector) Driver() driver.Driver { return k.base.Driver() }

// conn is lib/pq's connection with each round trip counted. It offers what
// lib/pq's offers, so database/sql takes the same paths.
type conn struct {
	driver.Conn
	c *Counter
}

func (cn *conn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	done := cn.c.add(q, args...)
	r, err := cn.Conn.(driver.QueryerContext).QueryContext(ctx, q, args)
	if err != nil {
		done()
		return nil, err
	}
	return &rows{Rows: r, done: done}, nil
}

func (cn *conn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	defer cn.c.add(q, args...)()
	return cn.Conn.(driver.ExecerContext).ExecContext(ctx, q, args)
}

func (cn *conn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	defer cn.c.add("PREPARE " + q)()
	st, err := cn.Conn.(driver.ConnPrepareContext).PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	return &stmt{Stmt: st, q: q, c: cn.c}, nil
}

func (cn *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	defer cn.c.add("BEGIN")()
	tx, err := cn.Conn.(driver.ConnBeginTx).BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &txn{Tx: tx, c: cn.c}, nil
}

func (cn *conn) Ping(ctx context.Context) error {
	defer cn.c.add("-- ping")()
	return cn.Conn.(driver.Pinger).Ping(ctx)
}

func (cn *conn) ResetSession(ctx context.Context) error {
	return cn.Conn.(driver.SessionResetter).ResetSession(ctx)
}

func (cn *conn) IsValid() bool { return cn.Conn.(driver.Validator).IsValid() }

type txn struct {
	driver.Tx
	c *Counter
}

func (t *txn) Commit() error {
	defer t.c.add("COMMIT")()
	return t.Tx.Commit()
}

func (t *txn) Rollback() error {
	defer t.c.add("ROLLBACK")()
	return t.Tx.Rollback()
}

type stmt struct {
	driver.Stmt
	q string
	c *Counter
}

func (s *stmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	defer s.c.add("EXECUTE " + s.q)()
	return s.Stmt.(driver.StmtExecContext).ExecContext(ctx, args)
}

func (s *stmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	done := s.c.add("EXECUTE " + s.q)
	r, err := s.Stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		done()
		return nil, err
	}
	return &rows{Rows: r, done: done}, nil
}

// rows ends its statement's time when they are closed.
type rows struct {
	driver.Rows
	done func()
}

func (r *rows) Close() error {
	err := r.Rows.Close()
	r.done()
	return err
}
