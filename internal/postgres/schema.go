package postgres

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/rivermigrate"

	"tripplan/migrations"
)

// SchemaCurrent reports whether every migration this build carries, the application's and the
// job queue's, has been applied: what a server that leaves migrating to `tripplan migrate`
// waits for. It takes no lock and writes nothing.
func SchemaCurrent(ctx context.Context, db *sql.DB) (bool, error) {
	var tables int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()
		AND tablename IN ('goose_db_version', 'river_migration')`).Scan(&tables); err != nil {
		return false, err
	}
	if tables < 2 {
		return false, nil // a database never migrated
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, migrations.FS)
	if err != nil {
		return false, fmt.Errorf("migrations: %w", err)
	}
	if pending, err := p.HasPending(ctx); err != nil || pending {
		return false, err
	}
	migrator, err := rivermigrate.New(riverdatabasesql.New(db), nil)
	if err != nil {
		return false, err
	}
	queue, err := migrator.Validate(ctx)
	if err != nil {
		return false, fmt.Errorf("job queue migrations: %w", err)
	}
	return queue.OK, nil
}
