package postgres

import (
	"context"
	"fmt"
)

// pruneBatch is how many rows one statement of PruneExpired deletes at most: a backlog of
// months is deleted a batch at a time, each its own short transaction, never as one long
// lock or one huge transaction.
const pruneBatch = 5000

// expired names, per table, its key and the rows PruneExpired deletes.
var expired = []struct{ table, key, where string }{
	{"refresh_tokens", "token_hash", "expires_at < now()"},
	{"web_sessions", "id", "expires_at < now()"},
	// Read notifications are kept 90 days (notifications_read finds them); live-update events
	// a day (catch-up is for short gaps; events_created finds them).
	{"notifications", "id", "read_at < now() - interval '90 days'"},
	{"events", "id", "created_at < now() - interval '1 day'"},
	// Picture uploads never made before their URL expired.
	{"picture_uploads", "user_id", "expires_at < now()"},
	// Extraction starts count toward the hourly cap for an hour.
	{"extraction_starts", "job_id", "started_at < now() - interval '1 hour'"},
	// Presence rows left by a server that went away (live ones are touched every 15 s).
	{"presence", "connection", "seen_at < now() - interval '10 minutes'"},
	// Stream places likewise (live ones are touched every heartbeat).
	{"open_streams", "id", "seen_at < now() - interval '10 minutes'"},
	// A rate-limit bucket that has filled up again is the same as none (its key is two
	// columns: the row's ctid finds it).
	{"rate_limits", "ctid", "full_at < now()"},
}

// PruneExpired deletes expired refresh tokens and browser sessions, old read notifications,
// old live-update events, extraction starts out of the hour, abandoned presence and stream
// places, and full rate-limit buckets, at most pruneBatch rows a statement until none is left.
// Every instance prunes: rows another instance's batch holds are skipped, not waited for.
func (db *DB) PruneExpired(ctx context.Context) (err error) {
	defer named(&err)
	for _, e := range expired {
		query := pruneStatement(e.table, e.key, e.where)
		for {
			res, err := db.ExecContext(ctx, query)
			if err != nil {
				return mapError(err)
			}
			if n, _ := res.RowsAffected(); n < pruneBatch {
				break
			}
		}
	}
	return nil
}

// pruneStatement deletes one batch of the table's rows that match where. An array of keys
// (not IN, which may join against the whole table) is found by the primary key.
func pruneStatement(table, key, where string) string {
	return fmt.Sprintf(`DELETE FROM %[1]s WHERE %[2]s = ANY (ARRAY(
		SELECT %[2]s FROM %[1]s WHERE %[3]s LIMIT %[4]d FOR UPDATE SKIP LOCKED))`, table, key, where, pruneBatch)
}
