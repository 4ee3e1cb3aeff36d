package postgres

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"tripplan/internal/planner"
)

// WithdrawnNickname is how a withdrawn user is shown where their past contributions remain.
const WithdrawnNickname = "Withdrawn user"

// WithdrawUser deletes an account: the user leaves every plan and collection (ownership passes
// to the earliest-joined remaining member; a plan or collection with nobody left is deleted),
// is shown as "Withdrawn user" beside what they added, loses their refresh tokens, browser
// sessions (their access tokens are refused from then on), picture and pending picture upload,
// and the same social account cannot sign in again. The caller deletes the picture files
// (storage.Bucket.DeleteUser).
func (db *DB) WithdrawUser(ctx context.Context, userID, reason string) error {
	if err := writer(userID); err != nil {
		return err
	}
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		var id string
		err := tx.GetContext(ctx, &id, `
			UPDATE users SET withdrawn_at = now(), withdraw_reason = $2, nickname = $3, picture = '', picture_key = NULL, email = '', updated_at = now()
			WHERE id = $1 AND withdrawn_at IS NULL
			RETURNING id`, userID, reason, WithdrawnNickname)
		if errors.Is(err, sql.ErrNoRows) {
			return planner.Errorf(planner.CodeUserNotFound, "No such user.")
		}
		if err != nil {
			return err
		}
		for _, k := range []memberKind{planKind, collectionKind} {
			if err := leaveAll(ctx, tx, k, userID); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM picture_uploads WHERE user_id = $1`, userID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM refresh_tokens WHERE user_id = $1`, userID); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM web_sessions WHERE user_id = $1`, userID)
		return err
	})
	if err == nil {
		db.revokedHere(userID)
	}
	return err
}

// leaveAll ends the user's active memberships of one kind of resource, each recorded in the
// resource's history: owned resources with other members pass to the earliest-joined of
// them, owned resources with nobody else are deleted.
func leaveAll(ctx context.Context, tx *sqlx.Tx, k memberKind, userID string) error {
	members, parent, key := k.table, k.parent, k.key
	// Resources the user owns alone go.
	if _, err := tx.ExecContext(ctx, `
		DELETE FROM `+parent+` r WHERE r.id IN (
		    SELECT m.`+key+` FROM `+members+` m
		    WHERE m.user_id = $1 AND m.role = 'OWNER' AND m.left_at IS NULL
		      AND NOT EXISTS (SELECT 1 FROM `+members+` o
		                      WHERE o.`+key+` = m.`+key+` AND o.user_id <> $1 AND o.left_at IS NULL))`, userID); err != nil {
		return err
	}
	// The others pass to their earliest-joined remaining member: demote, then promote (one
	// owner at a time, as the one-owner index wants).
	var owned []string
	if err := tx.SelectContext(ctx, &owned, `
		UPDATE `+members+` SET role = 'MEMBER'
		WHERE user_id = $1 AND role = 'OWNER' AND left_at IS NULL
		RETURNING `+key, userID); err != nil {
		return err
	}
	if len(owned) > 0 {
		if _, err := tx.ExecContext(ctx, `
			UPDATE `+members+` SET role = 'OWNER' WHERE id IN (
			    SELECT DISTINCT ON (`+key+`) id FROM `+members+`
			    WHERE `+key+` = ANY($2) AND user_id <> $1 AND left_at IS NULL
			    ORDER BY `+key+`, joined_at, id)`, userID, pq.Array(owned)); err != nil {
			return err
		}
	}
	// Each resource's history says they left, and names them "Withdrawn user" wherever it
	// named them as a member (joined, made owner, …).
	_, err := tx.ExecContext(ctx, `
		WITH gone AS (
		    UPDATE `+members+` SET left_at = now(), nickname = $2, picture = ''
		    WHERE user_id = $1 AND left_at IS NULL
		    RETURNING id, `+key+` AS resource),
		renamed AS (
		    UPDATE activities a SET details = a.details || jsonb_build_object('member', $2::text)
		    FROM `+members+` m WHERE m.user_id = $1 AND a.`+key+` = m.`+key+` AND a.target_type = $4 AND a.target_id = m.id)
		INSERT INTO activities (id, `+key+`, actor_id, kind, target_type, target_id, details)
		SELECT `+newRowID+`, gone.resource, gone.id, $3, $4, gone.id, jsonb_build_object('member', $2::text) FROM gone`,
		userID, WithdrawnNickname, planner.ActMemberLeft, planner.TargetMember)
	return err
}
