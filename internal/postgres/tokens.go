package postgres

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/planner"
)

// CreateRefreshToken stores the hash of a new refresh token that starts a new family (a
// sign-in) and returns the family's id, which names the sign-in session in access tokens.
func (db *DB) CreateRefreshToken(ctx context.Context, userID string, hash []byte, expiresAt time.Time) (session string, err error) {
	defer named(&err)
	if err := writer(userID); err != nil {
		return "", err
	}
	session = planner.NewID()
	_, err = db.ExecContext(ctx, `
		INSERT INTO refresh_tokens (token_hash, family_id, user_id, expires_at) VALUES ($1, $2, $3, $4)`,
		hash, session, userID, expiresAt)
	if err != nil {
		return "", mapError(err)
	}
	return session, nil
}

var errInvalidRefresh = planner.Errorf(planner.CodeInvalidToken, "The refresh token is not valid; sign in again.")

// RotateRefreshToken exchanges a refresh token for a new one in the same family and returns
// the user and the family (the sign-in session). A token rotated less than grace ago (several
// tabs or parallel requests refreshing at once, docs/API.md §App sign-in) is exchanged too, for another
// new token of the family. A token rotated longer ago, or revoked, is a replay: the whole family
// is revoked (so the thief's and the victim's copies both stop working, access tokens included)
// and INVALID_TOKEN returned.
func (db *DB) RotateRefreshToken(ctx context.Context, oldHash, newHash []byte, expiresAt time.Time, grace time.Duration) (*planner.User, string, error) {
	var (
		user   planner.User
		family string
		replay bool
	)
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		var t struct {
			FamilyID  string     `db:"family_id"`
			UserID    string     `db:"user_id"`
			ExpiresAt time.Time  `db:"expires_at"`
			RotatedAt *time.Time `db:"rotated_at"`
			RevokedAt *time.Time `db:"revoked_at"`
			InGrace   bool       `db:"in_grace"`
		}
		// FOR UPDATE serialises two concurrent uses of one token: the second sees it rotated.
		err := tx.GetContext(ctx, &t, `
			SELECT family_id, user_id, expires_at, rotated_at, revoked_at,
			       COALESCE(rotated_at > now() - make_interval(secs => $2), false) AS in_grace
			FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE`, oldHash, grace.Seconds())
		if errors.Is(err, sql.ErrNoRows) {
			return errInvalidRefresh
		}
		if err != nil {
			return err
		}
		family = t.FamilyID
		if t.RevokedAt != nil || t.RotatedAt != nil && !t.InGrace {
			replay = true
			var ended []string
			return tx.SelectContext(ctx, &ended, endSessions(`family_id = $1`), t.FamilyID)
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
		// Within the grace the token keeps its first rotation time: the grace does not grow.
		if _, err := tx.ExecContext(ctx, `UPDATE refresh_tokens SET rotated_at = COALESCE(rotated_at, now()) WHERE token_hash = $1`, oldHash); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `
			INSERT INTO refresh_tokens (token_hash, family_id, user_id, expires_at) VALUES ($1, $2, $3, $4)`,
			newHash, t.FamilyID, t.UserID, expiresAt)
		return err
	})
	if err != nil {
		return nil, "", err
	}
	if replay {
		// The revocation above is committed; only then is the replay refused.
		db.revokedHere("", family)
		return nil, "", errInvalidRefresh
	}
	return &user, family, nil
}

// endSessions is the statement that revokes the refresh tokens that match where and are not
// revoked yet — their sign-in sessions end, and every access token and browser session of them
// with it — and deletes the push subscriptions those sessions made, so that a device signed
// out stops receiving the account's news even when its browser could not unsubscribe. It
// answers the sessions ended, once each.
func endSessions(where string) string {
	return `WITH ended AS (
	            UPDATE refresh_tokens SET revoked_at = now() WHERE (` + where + `) AND revoked_at IS NULL
	            RETURNING family_id),
	        unsubscribed AS (DELETE FROM push_subscriptions WHERE session IN (SELECT family_id FROM ended))
	        SELECT DISTINCT family_id FROM ended`
}

// RevokeRefreshToken revokes the family of the given token (logout), its access tokens
// included. Unknown tokens are ignored.
func (db *DB) RevokeRefreshToken(ctx context.Context, hash []byte) (err error) {
	defer named(&err)
	var families []string
	err = db.SelectContext(ctx, &families, endSessions(`family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1)`), hash)
	if err != nil {
		return mapError(err)
	}
	db.revokedHere("", families...)
	return nil
}

// RevokeSession revokes the user's sign-in session (a refresh-token family, named by the
// access token or browser session that signs out): its refresh and access tokens stop working.
func (db *DB) RevokeSession(ctx context.Context, userID, session string) (err error) {
	defer named(&err)
	if err := writer(userID); err != nil {
		return err
	}
	var ended []string
	err = db.SelectContext(ctx, &ended, endSessions(`family_id = $1 AND user_id = $2`), session, userID)
	if err != nil {
		return mapError(err)
	}
	db.revokedHere("", session)
	return nil
}
