package pgtest

import (
	"database/sql"
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
	db := sqlx.NewDb(sql.OpenDB(postgres.CountingConnector(connector, &c.n)), "postgres")
	tb.Cleanup(func() { db.Close() })
	return &postgres.DB{DB: db}, c, url
}
