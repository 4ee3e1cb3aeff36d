package postgres

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"tripplan/internal/planner"
)

// AppCode is a redeemed one-time code of an app's sign-in (migration 00021): the user it signs
// in, and the redirect URI and PKCE challenge (S256) the app must answer it with.
type AppCode struct {
	planner.User
	RedirectURI string `db:"redirect_uri"`
	Challenge   string `db:"challenge"`
}

// CreateAppCode keeps the hash of a new one-time code that signs the user in, for ttl, and
// deletes the codes that have expired.
func (db *DB) CreateAppCode(ctx context.Context, hash []byte, userID, redirectURI, challenge string, ttl time.Duration) (err error) {
	defer named(&err)
	_, err = db.ExecContext(ctx, `
		WITH expired AS (DELETE FROM app_sign_in_codes WHERE expires_at <= now())
		INSERT INTO app_sign_in_codes (code_hash, user_id, redirect_uri, challenge, expires_at)
		VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
		hash, userID, redirectURI, challenge, ttl.Seconds())
	return mapError(err)
}

// RedeemAppCode uses up the code with the hash — it is deleted whatever the caller decides
// next, so a code is tried once, and of two concurrent redemptions one gets it. It returns nil
// when there is no such code, it has expired, or its user has withdrawn since.
func (db *DB) RedeemAppCode(ctx context.Context, hash []byte) (_ *AppCode, err error) {
	defer named(&err)
	var code AppCode
	err = db.GetContext(ctx, &code, `
		WITH code AS (
			DELETE FROM app_sign_in_codes WHERE code_hash = $1 RETURNING user_id, redirect_uri, challenge, expires_at)
		SELECT `+userColumns+`, code.redirect_uri, code.challenge
		FROM code JOIN users ON users.id = code.user_id
		WHERE code.expires_at > now() AND users.withdrawn_at IS NULL`, hash)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, mapError(err)
	}
	return &code, nil
}
