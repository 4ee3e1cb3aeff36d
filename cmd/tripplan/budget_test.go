package main

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
)

// TestInstanceKeepsToItsBudget starts a server process with the smallest pool, 2, and sends it 40
// requests at once while their table is locked, so that every request that got a connection
// waits on it and the others wait for one: sampled until the requests end, the process never
// holds more connections than its budget (pool and LISTEN connections, River's included),
// and it did fill its pool.
func TestInstanceKeepsToItsBudget(t *testing.T) {
	dbURL := pgtest.URL(t)
	const maxConns = 2
	in := startInstance(t, dbURL, fmt.Sprintf("DB_MAX_CONNS=%d", maxConns))
	budget := postgres.Pool{MaxConns: maxConns}.Budget()
	name := applicationName(in.cmd.Process.Pid)
	token := in.login(t, "demo-ana", "Ana")

	db, err := sql.Open("postgres", dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := t.Context()
	held := func(where string) int {
		t.Helper()
		var n int
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`+where, name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := held(""); n < postgres.ListenConns || n > budget {
		t.Fatalf("at rest the instance holds %d connections, want %d to %d", n, postgres.ListenConns, budget)
	}

	lock, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Rollback()
	if _, err := lock.ExecContext(ctx, `LOCK TABLE plan_members IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	const requests = 40
	var wg sync.WaitGroup
	statuses := make(chan int, requests)
	for range requests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, _, err := in.try("GET", "/plans", token, nil)
			if err != nil {
				t.Error(err)
			}
			statuses <- status
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	// The whole pool waits on the lock (the other requests wait for a connection).
	for deadline := time.Now().Add(30 * time.Second); held(` AND wait_event_type = 'Lock'`) < maxConns; {
		if time.Now().After(deadline) {
			t.Fatalf("the pool never filled: %d connections wait on the lock", held(` AND wait_event_type = 'Lock'`))
		}
	}
	most := held("")
	if err := lock.Rollback(); err != nil {
		t.Fatal(err)
	}
	most = max(most, pgtest.Most(done, func() int { return held("") }))
	if most > budget {
		t.Errorf("the instance held %d connections at most, over its budget of %d", most, budget)
	}
	close(statuses)
	for status := range statuses {
		if status != 200 {
			t.Errorf("a request answered %d", status)
		}
	}
}

// TestBudgetOverTheServerRefused: an instance whose budget the server could never give
// refuses to start, in one line, before serving.
func TestBudgetOverTheServerRefused(t *testing.T) {
	dbURL := pgtest.URL(t)
	var allowed int
	db, err := sql.Open("postgres", dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow(`SELECT current_setting('max_connections')::int - current_setting('superuser_reserved_connections')::int`).Scan(&allowed); err != nil {
		t.Fatal(err)
	}
	over := allowed - postgres.ListenConns + 1
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var stdout strings.Builder
	err = run(ctx, nil, env(map[string]string{"DATABASE_URL": dbURL, "ADDR": "127.0.0.1:0", "DB_MAX_CONNS": fmt.Sprint(over)}), &stdout)
	want := fmt.Sprintf("DB_MAX_CONNS=%d: this instance needs %d connections (its pool and %d LISTEN), more than the %d the database allows",
		over, over+postgres.ListenConns, postgres.ListenConns, allowed)
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("run: %v, want one line saying %q", err, want)
	}
	if strings.Contains(stdout.String(), "Tripplan is running") {
		t.Fatal("the instance served")
	}
}
