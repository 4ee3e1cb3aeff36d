package pgtest

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"tripplan/internal/postgres"
)

// Counter counts the SQL statements sent through a database opened by Counted. Transaction
// control (BEGIN, COMMIT, ROLLBACK) is not counted: budgets are about the work a request does.
type Counter struct{ n atomic.Int64 }

// Reset sets the count to zero.
func (c *Counter) Reset() { c.n.Store(0) }

// Count is the number of statements since the last Reset.
func (c *Counter) Count() int { return int(c.n.Load()) }

// Counted is New with a statement counter on the pool, for query-budget tests. It also
// returns the database's URL, for connections of their own (such as the change feed's).
func Counted(tb testing.TB) (*postgres.DB, *Counter, string) {
	tb.Helper()
	url := URL(tb)
	connector, err := pq.NewConnector(url)
	if err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	c := &Counter{}
	db := sqlx.NewDb(sql.OpenDB(countingConnector{postgres.Timed(connector), c}), "postgres")
	tb.Cleanup(func() { db.Close() })
	return &postgres.DB{DB: db}, c, url
}

type countingConnector struct {
	driver.Connector
	c *Counter
}

func (cc countingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := cc.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &countingConn{conn, cc.c}, nil
}

// countingConn passes everything to lib/pq's connection, counting queries and execs.
type countingConn struct {
	driver.Conn
	c *Counter
}

var errNoContext = errors.New("pgtest: the driver connection lacks a context method")

func (cn *countingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	q, ok := cn.Conn.(driver.QueryerContext)
	if !ok {
		return nil, errNoContext
	}
	cn.c.n.Add(1)
	return q.QueryContext(ctx, query, args)
}

func (cn *countingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	e, ok := cn.Conn.(driver.ExecerContext)
	if !ok {
		return nil, errNoContext
	}
	cn.c.n.Add(1)
	return e.ExecContext(ctx, query, args)
}

func (cn *countingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	b, ok := cn.Conn.(driver.ConnBeginTx)
	if !ok {
		return nil, errNoContext
	}
	return b.BeginTx(ctx, opts)
}

func (cn *countingConn) Ping(ctx context.Context) error {
	if p, ok := cn.Conn.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

func (cn *countingConn) ResetSession(ctx context.Context) error {
	if r, ok := cn.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}
