package postgres

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/lib/pq"

	"tripplan/internal/planner"
)

// StartPictureUpload makes key the user's one pending picture upload for ttl; it replaces an
// older pending upload, whose URL stops working.
func (db *DB) StartPictureUpload(ctx context.Context, userID, key string, ttl time.Duration) (err error) {
	defer named(&err)
	if err := writer(userID); err != nil {
		return err
	}
	res, err := db.ExecContext(ctx, `
		INSERT INTO picture_uploads (user_id, key, expires_at)
		SELECT id, $2, now() + make_interval(secs => $3) FROM users WHERE id = $1 AND withdrawn_at IS NULL
		ON CONFLICT (user_id) DO UPDATE SET key = EXCLUDED.key, expires_at = EXCLUDED.expires_at`,
		userID, key, ttl.Seconds())
	if err != nil {
		return mapError(err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return planner.Errorf(planner.CodeUserNotFound, "No such user.")
	}
	return nil
}

// ClaimPictureUpload uses up the pending upload of key and answers its user. It succeeds once
// per key: a key already used, replaced by a newer upload, expired or of a withdrawn user is
// INVALID_UPLOAD_URL.
func (db *DB) ClaimPictureUpload(ctx context.Context, key string) (userID string, err error) {
	defer named(&err)
	err = db.GetContext(ctx, &userID, `
		DELETE FROM picture_uploads WHERE key = $1 AND expires_at > now() RETURNING user_id`, key)
	if errors.Is(err, sql.ErrNoRows) {
		return "", planner.Errorf(planner.CodeInvalidUploadURL, "This upload URL was used already, or a newer one was issued, or its time is up. Ask for a new one.")
	}
	return userID, mapError(err)
}

// PictureKeysInUse answers which of the storage keys are a user's picture.
func (db *DB) PictureKeysInUse(ctx context.Context, keys []string) (_ []string, err error) {
	defer named(&err)
	var used []string
	err = db.SelectContext(ctx, &used, `SELECT picture_key FROM users WHERE picture_key = ANY($1)`, pq.Array(keys))
	return used, mapError(err)
}
