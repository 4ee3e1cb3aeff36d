// Package migrations holds the schema migrations, embedded into the binary and applied by
// goose at start-up (internal/postgres.Migrate): SQL files, and Go ones (NNNNN_name.go) for
// what SQL cannot know, registered with goose by their init.
package migrations

import "embed"

// FS holds every NNNNN_name.sql migration, and the Go ones' sources (goose pairs them with
// their registered functions; a changed source also names a new test template).
//
//go:embed *.sql 0*.go
var FS embed.FS
