// Command loaddb prepares the load test's own database on the server of DATABASE_ADMIN_URL
// (else DATABASE_URL):
//
//	loaddb fresh tripplan_load     # drop (ending its connections) and recreate it; print its URL
//	loaddb analyze tripplan_load   # ANALYZE it once the seeder has filled it
//	loaddb ensure tripplan_cluster # create it if it is missing (the local cluster's, kept between runs); print its URL
//
// ANALYZE stands in for autovacuum's, which a production server runs as tables grow but which
// may be off on a development server (it was off on the one docs/PERFORMANCE.md reports):
// without statistics the planner plans every query for empty tables.
package main

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"os"
	"time"

	"github.com/lib/pq"

	"tripplan/internal/devdb"
)

func main() {
	if len(os.Args) != 3 || (os.Args[1] != "fresh" && os.Args[1] != "analyze" && os.Args[1] != "ensure") {
		fmt.Fprintln(os.Stderr, "usage: loaddb fresh|analyze|ensure DATABASE_NAME (with DATABASE_ADMIN_URL or DATABASE_URL set)")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "loaddb:", err)
		os.Exit(1)
	}
}

func run(command, name string) error {
	admin := cmp.Or(os.Getenv("DATABASE_ADMIN_URL"), os.Getenv("DATABASE_URL"))
	if admin == "" {
		return fmt.Errorf("DATABASE_ADMIN_URL or DATABASE_URL must be set (make load and make cluster run under cmd/withdb)")
	}
	target, err := devdb.SwitchDatabase(admin, name)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	switch command {
	case "analyze":
		return exec(ctx, target, "ANALYZE")
	case "ensure":
		if err := ensure(ctx, admin, name); err != nil {
			return err
		}
	default:
		if err := exec(ctx, admin, "DROP DATABASE IF EXISTS "+pq.QuoteIdentifier(name)+" WITH (FORCE)", "CREATE DATABASE "+pq.QuoteIdentifier(name)); err != nil {
			return err
		}
	}
	fmt.Println(target)
	return nil
}

// exec runs the statements, in order, on the database at dsn.
func exec(ctx context.Context, dsn string, statements ...string) error {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	for _, stmt := range statements {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("%s: %w", stmt, err)
		}
	}
	return nil
}

// ensure creates the database name on the server of admin unless it exists.
func ensure(ctx context.Context, admin, name string) error {
	db, err := sql.Open("postgres", admin)
	if err != nil {
		return err
	}
	defer db.Close()
	var exists bool
	if err := db.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil || exists {
		return err
	}
	return exec(ctx, admin, "CREATE DATABASE "+pq.QuoteIdentifier(name))
}
