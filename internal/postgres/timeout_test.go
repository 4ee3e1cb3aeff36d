package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"tripplan/internal/planner"
	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
)

func TestWithStatementTimeout(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u@h:5432/db?sslmode=disable": "postgres://u@h:5432/db?sslmode=disable&statement_timeout=1500",
		"host=h dbname=db sslmode=disable":       "host=h dbname=db sslmode=disable statement_timeout=1500",
	} {
		if got, err := postgres.WithStatementTimeout(in, 1500*time.Millisecond); err != nil || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, err, want)
		}
	}
	if got, _ := postgres.WithStatementTimeout("postgres://h/db", 0); got != "postgres://h/db" {
		t.Errorf("no timeout: %q", got)
	}
}

// A statement that outlives the timeout is canceled and reads as SERVICE_UNAVAILABLE.
func TestStatementTimeoutIsUnavailable(t *testing.T) {
	url := pgtest.URL(t)
	bounded, err := postgres.WithStatementTimeout(url, 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	db, err := postgres.Open(t.Context(), bounded)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// pg_sleep(60) ends early only if the statement timeout cancels it.
	_, err = db.ExecContext(context.Background(), `SELECT pg_sleep(60)`)
	if err == nil {
		t.Fatal("pg_sleep(60) ran to its end")
	}
	if !postgres.Unavailable(err) {
		t.Fatalf("%v is not Unavailable", err)
	}
	var pe *planner.Error
	if _, err := db.PlanExport(t.Context(), "nobody", "nope"); errors.As(err, &pe) && pe.Code == planner.CodeServiceUnavailable {
		t.Fatalf("an ordinary request timed out: %v", err)
	}
}
