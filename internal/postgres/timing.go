package postgres

import (
	"context"
	"database/sql/driver"
	"errors"
	"sync/atomic"
	"time"
)

// Time in the database, per request: a context made by WithTiming counts the statements sent
// with it and collects the time every
// statement, BEGIN, COMMIT and ROLLBACK sent with it (or in a transaction begun with it)
// waited for the database, for the Server-Timing header. It is the time until the answer's
// first message arrived: rows read from the connection's buffer afterwards are not counted.

// DBTime is what a request spent waiting for the database, and how many statements it sent.
type DBTime struct{ ns, statements atomic.Int64 }

// Duration is the time counted so far.
func (t *DBTime) Duration() time.Duration { return time.Duration(t.ns.Load()) }

// Statements is the number of statements (queries and commands, not BEGIN, COMMIT or
// ROLLBACK) sent so far.
func (t *DBTime) Statements() int64 { return t.statements.Load() }

func (t *DBTime) since(start time.Time) {
	if t != nil {
		t.ns.Add(int64(time.Since(start)))
	}
}

// statement counts a statement sent at start.
func (t *DBTime) statement(start time.Time) {
	if t != nil {
		t.statements.Add(1)
		t.since(start)
	}
}

type dbTimeKey struct{}

// WithTiming is ctx collecting the database time of what is sent with it, and the counter.
func WithTiming(ctx context.Context) (context.Context, *DBTime) {
	t := &DBTime{}
	return context.WithValue(ctx, dbTimeKey{}, t), t
}

func timingOf(ctx context.Context) *DBTime {
	t, _ := ctx.Value(dbTimeKey{}).(*DBTime)
	return t
}

// Timed is the connector with its statements timed into their contexts' counters.
func Timed(c driver.Connector) driver.Connector { return timedConnector{c, nil} }

// TimedCounting is Timed that also counts every statement sent through it, whatever its
// context, into all (query-budget tests count a pool's statements).
func TimedCounting(c driver.Connector, all *atomic.Int64) driver.Connector {
	return timedConnector{c, all}
}

type timedConnector struct {
	driver.Connector
	all *atomic.Int64
}

func (tc timedConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := tc.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &timedConn{conn, tc.all}, nil
}

// timedConn passes everything to lib/pq's connection, timing statements and transactions.
type timedConn struct {
	driver.Conn
	all *atomic.Int64 // nil, or every statement's count
}

// statement counts a statement sent at start with ctx.
func (cn *timedConn) statement(ctx context.Context, start time.Time) {
	if cn.all != nil {
		cn.all.Add(1)
	}
	timingOf(ctx).statement(start)
}

var errNoContext = errors.New("postgres: the driver connection lacks a context method")

func (cn *timedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	q, ok := cn.Conn.(driver.QueryerContext)
	if !ok {
		return nil, errNoContext
	}
	defer cn.statement(ctx, time.Now())
	return q.QueryContext(ctx, query, args)
}

func (cn *timedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	e, ok := cn.Conn.(driver.ExecerContext)
	if !ok {
		return nil, errNoContext
	}
	defer cn.statement(ctx, time.Now())
	return e.ExecContext(ctx, query, args)
}

func (cn *timedConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	b, ok := cn.Conn.(driver.ConnBeginTx)
	if !ok {
		return nil, errNoContext
	}
	t := timingOf(ctx)
	defer t.since(time.Now())
	tx, err := b.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return timedTx{tx, t}, nil
}

func (cn *timedConn) Ping(ctx context.Context) error {
	if p, ok := cn.Conn.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

func (cn *timedConn) ResetSession(ctx context.Context) error {
	if r, ok := cn.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

// timedTx times COMMIT and ROLLBACK into the counter of the context the transaction began with.
type timedTx struct {
	driver.Tx
	t *DBTime
}

func (tx timedTx) Commit() error {
	defer tx.t.since(time.Now())
	return tx.Tx.Commit()
}

func (tx timedTx) Rollback() error {
	defer tx.t.since(time.Now())
	return tx.Tx.Rollback()
}
