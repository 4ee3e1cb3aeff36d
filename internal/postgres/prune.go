package postgres

import (
	"context"

	"github.com/jmoiron/sqlx"
)

// PruneExpired deletes expired refresh tokens and browser sessions, old read notifications
// old live-update events, extraction starts out of the hour, abandoned presence and stream
// places, and full rate-limit buckets.
func (db *DB) PruneExpired(ctx context.Context) error {
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM refresh_tokens WHERE expires_at < now()`); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM web_sessions WHERE expires_at < now()`); err != nil {
			return err
		}
		// Read notifications are kept 90 days; live-update events a day (catch-up is for short gaps).
		if _, err := tx.ExecContext(ctx, `DELETE FROM notifications WHERE read_at < now() - interval '90 days'`); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM events WHERE created_at < now() - interval '1 day'`); err != nil {
			return err
		}
		// Picture uploads never made before their URL expired.
		if _, err := tx.ExecContext(ctx, `DELETE FROM picture_uploads WHERE expires_at < now()`); err != nil {
			return err
		}
		// Extraction starts count toward the hourly cap for an hour.
		if _, err := tx.ExecContext(ctx, `DELETE FROM extraction_starts WHERE started_at < now() - interval '1 hour'`); err != nil {
			return err
		}
		// Presence rows left by a server that went away (live ones are touched every 15 s).
		if _, err := tx.ExecContext(ctx, `DELETE FROM presence WHERE seen_at < now() - interval '10 minutes'`); err != nil {
			return err
		}
		// Stream places likewise (live ones are touched every heartbeat).
		if _, err := tx.ExecContext(ctx, `DELETE FROM open_streams WHERE seen_at < now() - interval '10 minutes'`); err != nil {
			return err
		}
		// A bucket that has filled up again is the same as none.
		_, err := tx.ExecContext(ctx, `DELETE FROM rate_limits WHERE full_at < now()`)
		return err
	})
}
