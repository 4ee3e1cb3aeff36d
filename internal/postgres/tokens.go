package postgres

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/planner"
)

// CreateRefreshToken stores the hash of a new refresh token that starts a new family (a login).
func (db *DB) CreateRefreshToken(ctx context.Context, userID string, hash []byte, expiresAt time.Time) error {
	if err := writer(userID); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `
		INSERT INTO refresh_tokens (token_hash, family_id, user_id, expires_at) VALUES ($1, $2, $3, $4)`,
		hash, planner.NewID(), userID, expiresAt)
	return mapError(err)
}

var errInvalidRefresh = planner.Errorf(planner.CodeInvalidToken, "The refresh token is not valid; sign in again.")

// RotateRefreshToken exchanges a refresh token for a new one in the same family and returns
// the user. A token that was already rotated or revoked is a replay: the whole family is
// revoked (so the thief's and the victim's copies both stop working) and INVALID_TOKEN returned.
func (db *DB) RotateRefreshToken(ctx context.Context, oldHash, newHash []byte, expiresAt time.Time) (*planner.User, error) {
	var (
		user   planner.User
		replay bool
	)
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		var t struct {
			FamilyID  string     `db:"family_id"`
			UserID    string     `db:"user_id"`
			ExpiresAt time.Time  `db:"expires_at"`
			RotatedAt *time.Time `db:"rotated_at"`
			RevokedAt *time.Time `db:"revoked_at"`
		}
		// FOR UPDATE serialises two concurrent uses of one token: the second sees it rotated.
		err := tx.GetContext(ctx, &t, `
			SELECT family_id, user_id, expires_at, rotated_at, revoked_at
			FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE`, oldHash)
		if errors.Is(err, sql.ErrNoRows) {
			return errInvalidRefresh
		}
		if err != nil {
			return err
		}
		if t.RotatedAt != nil || t.RevokedAt != nil {
			replay = true
			_, err := tx.ExecContext(ctx, `
				UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL`, t.FamilyID)
			return err
		}
		if !t.ExpiresAt.After(time.Now()) {
			return errInvalidRefresh
		}
		if err := tx.GetContext(ctx, &user, `SELECT `+userColumns+` FROM users WHERE id = $1 AND withdrawn_at IS NULL`, t.UserID); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return errInvalidRefresh
			}
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE refresh_tokens SET rotated_at = now() WHERE token_hash = $1`, oldHash); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `
			INSERT INTO refresh_tokens (token_hash, family_id, user_id, expires_at) VALUES ($1, $2, $3, $4)`,
			newHash, t.FamilyID, t.UserID, expiresAt)
		return err
	})
	if err != nil {
		return nil, err
	}
	if replay {
		// The revocation above is committed; only then is the replay refused.
		return nil, errInvalidRefresh
	}
	return &user, nil
}

// RevokeRefreshToken revokes the family of the given token (logout). Unknown tokens are ignored.
func (db *DB) RevokeRefreshToken(ctx context.Context, hash []byte) error {
	_, err := db.ExecContext(ctx, `
		UPDATE refresh_tokens SET revoked_at = now()
		WHERE family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1) AND revoked_at IS NULL`, hash)
	return mapError(err)
}
