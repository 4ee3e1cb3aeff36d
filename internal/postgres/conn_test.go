package postgres_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/lib/pq"

	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
)

// preparedCount is how many statements the pool's only connection has prepared with text
// like pattern (LIKE), and how often PostgreSQL has run them.
func preparedCount(t *testing.T, db *postgres.DB, pattern string) (statements, runs int) {
	t.Helper()
	// No arguments: sent as a simple query, so it is not itself kept.
	err := db.QueryRow(`SELECT count(*), coalesce(sum(generic_plans + custom_plans), 0)
		FROM pg_prepared_statements WHERE statement LIKE '`+pattern+`'`).Scan(&statements, &runs)
	if err != nil {
		t.Fatal(err)
	}
	return statements, runs
}

// A statement with arguments is prepared once on its connection and then only executed; one
// without arguments goes as a simple query and is not kept.
func TestStatementsAreKeptPreparedOnTheirConnection(t *testing.T) {
	db := pgtest.New(t)
	db.SetMaxOpenConns(1)
	for i := range 4 {
		var got int
		if err := db.QueryRow(`SELECT $1::int + 1`, i).Scan(&got); err != nil || got != i+1 {
			t.Fatalf("run %d: %d, %v", i, got, err)
		}
	}
	for i := range 3 {
		if _, err := db.Exec(`SELECT set_config('application_name', $1, false)`, fmt.Sprint("kept", i)); err != nil {
			t.Fatal(err)
		}
	}
	if n, runs := preparedCount(t, db, `SELECT $1::int + 1`); n != 1 || runs != 4 {
		t.Errorf("query: %d statements run %d times, want 1 run 4 times", n, runs)
	}
	if n, runs := preparedCount(t, db, `SELECT set_config(%`); n != 1 || runs != 3 {
		t.Errorf("exec: %d statements run %d times, want 1 run 3 times", n, runs)
	}
	if n, _ := preparedCount(t, db, `SELECT count(*)%`); n != 0 {
		t.Errorf("a statement without arguments was kept: %d", n)
	}
}

// A connection keeps at most KeptStatements texts; the least recently used fall out and are
// closed in PostgreSQL.
func TestKeptStatementsFallOutLeastRecentlyUsedFirst(t *testing.T) {
	db := pgtest.New(t)
	db.SetMaxOpenConns(1)
	const extra = 10
	for i := range postgres.KeptStatements + extra {
		var got int
		if err := db.QueryRow(fmt.Sprintf(`SELECT $1::int + %d`, i), 1).Scan(&got); err != nil || got != i+1 {
			t.Fatalf("statement %d: %d, %v", i, got, err)
		}
	}
	if n, _ := preparedCount(t, db, `SELECT $1::int + %`); n != postgres.KeptStatements {
		t.Errorf("%d statements prepared, want %d", n, postgres.KeptStatements)
	}
	if n, _ := preparedCount(t, db, `SELECT $1::int + 0`); n != 0 {
		t.Errorf("the least recently used statement is still prepared")
	}
	if n, _ := preparedCount(t, db, fmt.Sprintf(`SELECT $1::int + %d`, postgres.KeptStatements+extra-1)); n != 1 {
		t.Errorf("the most recently used statement is not prepared")
	}
}

// A kept statement whose result columns change with the schema is prepared again: outside a
// transaction the caller never sees it; inside one, PostgreSQL's error aborts the transaction
// and the next call works.
func TestKeptStatementsFollowTheSchema(t *testing.T) {
	db := pgtest.New(t)
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE kept (a int); INSERT INTO kept VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	const query = `SELECT * FROM kept WHERE a = $1`
	columns := func() ([]int, error) {
		rows, err := db.Query(query, 1)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		got := make([]int, len(cols))
		ptrs := make([]any, len(cols))
		for i := range got {
			ptrs[i] = &got[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				return nil, err
			}
		}
		return got, rows.Err()
	}
	if got, err := columns(); err != nil || len(got) != 1 {
		t.Fatalf("before: %v, %v", got, err)
	}
	if _, err := db.Exec(`ALTER TABLE kept ADD COLUMN b int DEFAULT 2`); err != nil {
		t.Fatal(err)
	}
	if got, err := columns(); err != nil || fmt.Sprint(got) != "[1 2]" {
		t.Fatalf("after a column was added: %v, %v; want [1 2]", got, err)
	}

	if _, err := db.Exec(`ALTER TABLE kept DROP COLUMN b`); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	_, err = tx.Query(query, 1)
	var pqErr *pq.Error
	if !errors.As(err, &pqErr) || pqErr.Code != "0A000" {
		t.Errorf("in a transaction: %v, want PostgreSQL's 0A000", err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if got, err := columns(); err != nil || fmt.Sprint(got) != "[1]" {
		t.Fatalf("after the transaction: %v, %v; want [1]", got, err)
	}
}
