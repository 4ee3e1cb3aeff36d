// Package migrations holds the SQL schema migrations, embedded into the binary and applied by
// goose at start-up (internal/postgres.Migrate).
package migrations

import "embed"

// FS holds every NNNNN_name.sql migration.
//
//go:embed *.sql
var FS embed.FS
