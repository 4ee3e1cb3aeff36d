// Command clusterdb prints the URL of the local cluster's database (scripts/cluster.sh) on the
// server of DATABASE_ADMIN_URL (else DATABASE_URL), creating the database when it is missing:
//
//	clusterdb tripplan_cluster
//
// The database is kept between runs of the cluster, as make run keeps its own.
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
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: clusterdb DATABASE_NAME (with DATABASE_ADMIN_URL or DATABASE_URL set)")
		os.Exit(2)
	}
	url, err := ensure(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "clusterdb:", err)
		os.Exit(1)
	}
	fmt.Println(url)
}

// ensure creates the database if it is missing and answers its URL.
func ensure(name string) (string, error) {
	admin := cmp.Or(os.Getenv("DATABASE_ADMIN_URL"), os.Getenv("DATABASE_URL"))
	if admin == "" {
		return "", fmt.Errorf("DATABASE_ADMIN_URL or DATABASE_URL must be set (scripts/cluster.sh runs under cmd/withdb)")
	}
	target, err := devdb.SwitchDatabase(admin, name)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := sql.Open("postgres", admin)
	if err != nil {
		return "", err
	}
	defer db.Close()
	var exists bool
	if err := db.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", err
	}
	if !exists {
		if _, err := db.ExecContext(ctx, "CREATE DATABASE "+pq.QuoteIdentifier(name)); err != nil {
			return "", err
		}
	}
	return target, nil
}
