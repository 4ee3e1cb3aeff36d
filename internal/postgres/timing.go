package postgres

import (
	"context"
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
