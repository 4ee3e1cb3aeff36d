package postgres_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"sync"
	"testing"
	"time"

	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
)

func TestWithApplicationName(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u@h:5432/db?sslmode=disable": "postgres://u@h:5432/db?application_name=tripplan%2Fweb-1%2F42&sslmode=disable",
		"host=h dbname=db":                       "host=h dbname=db application_name=tripplan/web-1/42",
	} {
		if got, err := postgres.WithApplicationName(in, "tripplan/web-1/42"); err != nil || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, err, want)
		}
	}
	if got, _ := postgres.WithApplicationName("host=h", `it's a \ name`); got != `host=h application_name='it\'s a \\ name'` {
		t.Errorf("quoted: %q", got)
	}
}

// TestPoolAndListenerKeepToTheBudget: an instance (a pool of 4 and Listen) under 40
// concurrent statements, each waiting on a lock once it has a connection, holds exactly its
// budget while the lock is held and never more until the statements end. ConnectionRoom reads
// the server's limits.
func TestPoolAndListenerKeepToTheBudget(t *testing.T) {
	dsn := pgtest.URL(t)
	name := "tripplan-budget-" + rand.Text()[:8]
	named, err := postgres.WithApplicationName(dsn, name)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(t.Context())
	defer stop()
	pool := postgres.Pool{MaxConns: 4, MaxIdle: 4, MaxIdleTime: time.Minute}
	db, err := postgres.OpenPool(ctx, named, pool)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Listen(ctx, named, nil); err != nil {
		t.Fatal(err)
	}
	admin, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	// held counts the instance's connections (that match where).
	held := func(where string) int {
		t.Helper()
		var n int
		if err := admin.QueryRowContext(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`+where, name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// At rest: the LISTEN connections and the pool's idle one (the admin connection opens here).
	if n := held(""); n != postgres.ListenConns+1 {
		t.Fatalf("at rest the instance holds %d connections, want %d", n, postgres.ListenConns+1)
	}
	room, err := db.ConnectionRoom(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	var maxConns, reserved int
	must1(t, admin.QueryRowContext(ctx, `SELECT current_setting('max_connections')::int,
		current_setting('superuser_reserved_connections')::int`).Scan(&maxConns, &reserved))
	// Others counts at least the admin connection (open: it just answered); other tests'
	// connections come and go, so no exact count is asked.
	if room.Max != maxConns || room.Reserved != reserved || room.Allowed() != maxConns-reserved || room.Others < 1 {
		t.Fatalf("room %+v, want max_connections %d and %d reserved", room, maxConns, reserved)
	}

	lock, err := admin.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	const key = 7_340_981_276_099
	if _, err := lock.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, key); err != nil {
		t.Fatal(err)
	}
	const statements = 40
	var wg sync.WaitGroup
	for range statements {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := db.ExecContext(ctx, `SELECT pg_advisory_lock_shared($1), pg_advisory_unlock_shared($1)`, key); err != nil {
				t.Error(err)
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	// Every connection of the pool waits on the lock, and the other statements for a connection.
	for deadline := time.Now().Add(30 * time.Second); ; {
		waiting, s := held(` AND wait_event_type = 'Lock'`), db.Stats()
		if waiting == pool.MaxConns && s.WaitCount >= statements-int64(pool.MaxConns) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pool never filled: %d connections wait on the lock; %+v", waiting, s)
		}
	}
	if n := held(""); n != pool.Budget() {
		t.Fatalf("with the pool full the instance holds %d connections, want its budget %d", n, pool.Budget())
	}
	if _, err := lock.ExecContext(ctx, `SELECT pg_advisory_unlock($1)`, key); err != nil {
		t.Fatal(err)
	}
	most := pgtest.Most(done, func() int { return held("") })
	if most > pool.Budget() {
		t.Errorf("the instance held %d connections at most, over its budget of %d", most, pool.Budget())
	}
}
