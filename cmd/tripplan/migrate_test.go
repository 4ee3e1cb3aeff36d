package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"tripplan/internal/devdb"
	"tripplan/internal/postgres/pgtest"
)

// emptyDatabase is the URL of a new database with nothing in it (pgtest's are migrated),
// dropped when the test ends. It is named like pgtest's, so a run killed before its cleanup
// leaves nothing a later run does not drop.
func emptyDatabase(t *testing.T) string {
	t.Helper()
	admin, err := devdb.SwitchDatabase(pgtest.URL(t), "postgres")
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("postgres", admin)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	name := fmt.Sprintf("tripplan_t_%d_%s", time.Now().Unix(), strings.ToLower(rand.Text()[:10]))
	if _, err := db.Exec(`CREATE DATABASE ` + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := db.Exec(`DROP DATABASE ` + name + ` WITH (FORCE)`); err != nil {
			t.Errorf("drop %s: %v", name, err)
		}
	})
	u, err := devdb.SwitchDatabase(admin, name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestMigrateThenServeWithoutMigrating is the Kubernetes arrangement: a server started with
// MIGRATE_ON_START=false on a database nobody migrated waits without serving; `tripplan
// migrate` brings the database up to date and exits; the server then serves and is ready.
func TestMigrateThenServeWithoutMigrating(t *testing.T) {
	dbURL := emptyDatabase(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, w := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- run(ctx, nil, env(map[string]string{"DATABASE_URL": dbURL, "ADDR": "127.0.0.1:0", "MIGRATE_ON_START": "false"}), w)
		w.Close()
	}()
	lines := bufio.NewScanner(out)
	urlRe := regexp.MustCompile(`Tripplan is running at (http://\S+)`)
	waiting := false
	for !waiting && lines.Scan() {
		if urlRe.MatchString(lines.Text()) {
			t.Fatal("the server serves on a database without its schema")
		}
		waiting = strings.Contains(lines.Text(), "waiting for the database schema")
	}
	if !waiting {
		t.Fatalf("the server did not say it waits for the schema; run returned %v", <-served)
	}

	// The migration Job: it migrates, seeds (development) and exits without serving. Again, it
	// finds nothing to do.
	for range 2 {
		var migrated strings.Builder
		if err := run(ctx, []string{"migrate"}, env(map[string]string{"DATABASE_URL": dbURL, "ADDR": "127.0.0.1:0"}), &migrated); err != nil {
			t.Fatalf("migrate: %v", err)
		}
		if strings.Contains(migrated.String(), "Tripplan is running") {
			t.Fatalf("migrate served: %s", migrated.String())
		}
	}

	var base string
	for base == "" && lines.Scan() {
		if m := urlRe.FindStringSubmatch(lines.Text()); m != nil {
			base = m[1]
		}
	}
	if base == "" {
		t.Fatalf("the server did not start once migrated; run returned %v", <-served)
	}
	go io.Copy(io.Discard, out)
	res, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/readyz: %d", res.StatusCode)
	}
	cancel()
	if err := <-served; err != nil {
		t.Fatalf("run: %v", err)
	}
}

// TestStopWhileWaitingForTheSchema: SIGTERM (a rollout given up, a node drained) while the
// server waits for the migration Job is a clean stop.
func TestStopWhileWaitingForTheSchema(t *testing.T) {
	dbURL := emptyDatabase(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, w := io.Pipe()
	stopped := make(chan error, 1)
	go func() {
		stopped <- run(ctx, nil, env(map[string]string{"DATABASE_URL": dbURL, "ADDR": "127.0.0.1:0", "MIGRATE_ON_START": "false"}), w)
		w.Close()
	}()
	lines := bufio.NewScanner(out)
	waiting := false
	for !waiting && lines.Scan() {
		waiting = strings.Contains(lines.Text(), "waiting for the database schema")
	}
	if !waiting {
		t.Fatalf("the server did not say it waits for the schema; run returned %v", <-stopped)
	}
	go io.Copy(io.Discard, out)
	cancel()
	if err := <-stopped; err != nil {
		t.Fatalf("run stopped while waiting: %v, want a clean stop", err)
	}
}

// TestRunRefusesUnknownArguments: migrate is the one argument; anything else is refused before
// the database is looked for.
func TestRunRefusesUnknownArguments(t *testing.T) {
	for _, args := range [][]string{{"serve"}, {"migrate", "down"}, {"-migrate"}} {
		err := run(context.Background(), args, env(map[string]string{"DATABASE_URL": "postgres://127.0.0.1:1/unreachable"}), io.Discard)
		if err == nil || !strings.Contains(err.Error(), "unexpected arguments") || !strings.Contains(err.Error(), "migrate") {
			t.Errorf("%q: %v, want unexpected arguments naming migrate", args, err)
		}
	}
}
