package postgres

import (
	"context"

	"github.com/jmoiron/sqlx"
)

// Tx exposes the transaction helper (and its error mapping) to this package's external tests.
func (db *DB) Tx(ctx context.Context, fn func(tx *sqlx.Tx) error) error { return db.tx(ctx, fn) }

// ConstraintCodes exposes the constraint → code table to this package's external tests.
var ConstraintCodes = constraintCodes

// KeptStatements exposes how many statements a connection keeps prepared.
const KeptStatements = keptStatements

// PruneStatement exposes one batch of PruneExpired's deletion of the table's rows that match
// where (the table's key being id), and the batch's size.
func PruneStatement(table, where string) string { return pruneStatement(table, "id", where) }

const PruneBatch = pruneBatch
