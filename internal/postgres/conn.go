package postgres

import (
	"context"
	"database/sql/driver"
	"errors"
	"sync/atomic"
	"time"

	"github.com/hashicorp/golang-lru/v2/simplelru"
	"github.com/lib/pq"
)

// The store's connections wrap lib/pq's with two things: every statement is timed into its
// context's counter (WithTiming), and every statement with arguments is kept prepared on its
// connection.
//
// lib/pq sends a statement with arguments as PostgreSQL's unnamed prepared statement: Parse
// and Describe, a round trip, then Bind and Execute, a second one — and PostgreSQL parses,
// analyses and plans it again on every call. Over a load run planning was more than half of
// PostgreSQL's statement time (docs/PERFORMANCE.md). A connection here prepares each statement
// text once under a name (lib/pq's Prepare, the same Parse and Describe) and then only binds
// and executes it: one round trip, no parsing, and after five executions PostgreSQL's plan
// cache may keep a generic plan when it costs no more than the custom ones (plan_cache_mode
// auto). Arguments are encoded exactly as before: lib/pq's unnamed path is the same prepare
// followed by the same execute.
//
// Statements without arguments keep lib/pq's simple query protocol (several statements in one
// text, as migrations send). At most keptStatements texts are kept a connection, least
// recently used first out; a statement that falls out is closed when its connection is next
// taken from the pool (it is idle then), and one PostgreSQL no longer accepts (see stale) is
// prepared again.

// keptStatements is how many statement texts a connection keeps prepared. The store sends a
// few hundred distinct texts in all (River's included); the hot ones stay.
const keptStatements = 256

// Connector is c with its statements timed and kept prepared: the connector of the store's pool.
func Connector(c driver.Connector) driver.Connector { return connector{c, nil} }

// CountingConnector is Connector that also counts every statement sent through it, whatever
// its context, into all (query-budget tests count a pool's statements).
func CountingConnector(c driver.Connector, all *atomic.Int64) driver.Connector {
	return connector{c, all}
}

type connector struct {
	driver.Connector
	all *atomic.Int64
}

func (c connector) Connect(ctx context.Context) (driver.Conn, error) {
	pqc, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	cn := &conn{Conn: pqc, all: c.all}
	cn.kept, _ = simplelru.NewLRU(keptStatements, func(_ string, st driver.Stmt) {
		cn.retired = append(cn.retired, st)
	})
	return cn, nil
}

// conn passes everything to lib/pq's connection, timing statements and transactions and
// keeping statements prepared. database/sql uses a connection from one goroutine at a time.
type conn struct {
	driver.Conn
	all     *atomic.Int64 // nil, or every statement's count
	kept    *simplelru.LRU[string, driver.Stmt]
	retired []driver.Stmt // out of kept, to close when the connection is idle
	inTx    bool          // a transaction is open
}

// statement counts a statement sent at start with ctx.
func (cn *conn) statement(ctx context.Context, start time.Time) {
	if cn.all != nil {
		cn.all.Add(1)
	}
	timingOf(ctx).statement(start)
}

var errNoContext = errors.New("postgres: the driver connection lacks a context method")

// prepared is query's statement on this connection, prepared now if it is not kept.
func (cn *conn) prepared(ctx context.Context, query string) (driver.Stmt, error) {
	if st, ok := cn.kept.Get(query); ok {
		return st, nil
	}
	p, ok := cn.Conn.(driver.ConnPrepareContext)
	if !ok {
		return nil, errNoContext
	}
	st, err := p.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	cn.kept.Add(query, st)
	return st, nil
}

// stale says whether err is PostgreSQL refusing query's kept statement as it is — the
// statement is gone (26000), or its cached plan's result columns changed with the schema
// (0A000, "cached plan must not change result type") — and forgets the statement if so. The
// refused statement did not run: outside a transaction it is prepared again and sent once
// more; inside one, the transaction is aborted and the error stands.
func (cn *conn) stale(query string, err error) bool {
	var pqErr *pq.Error
	if !errors.As(err, &pqErr) || (pqErr.Code != "26000" && pqErr.Code != "0A000") {
		return false
	}
	cn.kept.Remove(query)
	return !cn.inTx
}

// send sends query with args and times it: without arguments straight through lib/pq's
// connection (direct), with arguments as its kept statement (prepared), prepared first when it
// is not kept, and again when PostgreSQL refuses it as stale outside a transaction.
func send[C, S, T any](ctx context.Context, cn *conn, query string, args []driver.NamedValue,
	direct func(C, context.Context, string, []driver.NamedValue) (T, error),
	prepared func(S, context.Context, []driver.NamedValue) (T, error),
) (T, error) {
	defer cn.statement(ctx, time.Now())
	var none T
	if len(args) == 0 {
		c, ok := cn.Conn.(C)
		if !ok {
			return none, errNoContext
		}
		return direct(c, ctx, query, args)
	}
	for {
		st, err := cn.prepared(ctx, query)
		if err != nil {
			return none, err
		}
		s, ok := st.(S)
		if !ok {
			return none, errNoContext
		}
		out, err := prepared(s, ctx, args)
		if err != nil && cn.stale(query, err) {
			continue
		}
		return out, err
	}
}

func (cn *conn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return send(ctx, cn, query, args, driver.QueryerContext.QueryContext, driver.StmtQueryContext.QueryContext)
}

func (cn *conn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return send(ctx, cn, query, args, driver.ExecerContext.ExecContext, driver.StmtExecContext.ExecContext)
}

func (cn *conn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
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
	cn.inTx = true
	return connTx{tx, cn, t}, nil
}

func (cn *conn) Ping(ctx context.Context) error {
	if p, ok := cn.Conn.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

// ResetSession runs when database/sql takes the connection from the pool again: the
// connection is idle, so the statements that fell out of kept are closed now. A connection
// that cannot close them is not used again.
func (cn *conn) ResetSession(ctx context.Context) error {
	for len(cn.retired) > 0 {
		st := cn.retired[0]
		cn.retired = cn.retired[1:]
		if err := st.Close(); err != nil {
			return driver.ErrBadConn
		}
	}
	if r, ok := cn.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (cn *conn) IsValid() bool {
	if v, ok := cn.Conn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

// connTx times COMMIT and ROLLBACK into the counter of the context the transaction began with.
type connTx struct {
	driver.Tx
	cn *conn
	t  *DBTime
}

func (tx connTx) Commit() error {
	defer tx.t.since(time.Now())
	tx.cn.inTx = false
	return tx.Tx.Commit()
}

func (tx connTx) Rollback() error {
	defer tx.t.since(time.Now())
	tx.cn.inTx = false
	return tx.Tx.Rollback()
}

// oneOrAny is the condition that column is one of ids, with its argument ($1): "column = $1"
// for one id, "column = ANY($1)" for more. PostgreSQL keeps one (generic) plan for the first;
// for the second it cannot know the array's length and, for a join, usually plans it again
// on every call — so a statement is better written for the one id when that is what it reads.
func oneOrAny(column string, ids []string) (string, any) {
	if len(ids) == 1 {
		return column + ` = $1`, ids[0]
	}
	return column + ` = ANY($1)`, pq.Array(ids)
}
