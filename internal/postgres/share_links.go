package postgres

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"time"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/planner"
)

// shareKinds is the membership a link of each type joins.
var shareKinds = map[planner.ShareType]memberKind{planner.SharePlan: planKind, planner.ShareCollection: collectionKind}

// newSecret is an unguessable code for a URL (invite links, calendar feeds): 128 random
// bits, URL-safe.
func newSecret() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// CreateShareLink makes an invite link to a plan or collection the user is a member of, valid
// for planner.ShareLinkTTL.
func (db *DB) CreateShareLink(ctx context.Context, userID string, typ planner.ShareType, referenceID string) (*planner.ShareLink, error) {
	out := planner.ShareLink{ID: planner.NewID(), Code: newSecret(), Type: typ, ReferenceID: referenceID,
		ExpiresAt: time.Now().Add(planner.ShareLinkTTL).UTC().Truncate(time.Second)}
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := shareKinds[typ].member(ctx, tx, referenceID, userID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `
			INSERT INTO share_links (id, code, type, plan_id, collection_id, created_by, expires_at)
			VALUES ($1, $2, $3, CASE WHEN $3 = 'PLAN' THEN $4 END, CASE WHEN $3 = 'COLLECTION' THEN $4 END, $5, $6)`,
			out.ID, out.Code, typ, referenceID, userID, out.ExpiresAt)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// ShareLink finds a link by its code: INVALID_LINK when there is none, EXPIRED_LINK when it
// has expired.
func (db *DB) ShareLink(ctx context.Context, code string) (*planner.ShareLink, error) {
	l, err := shareLink(ctx, db, code)
	return l, mapError(err)
}

func shareLink(ctx context.Context, q sqlx.QueryerContext, code string) (*planner.ShareLink, error) {
	invalid := planner.Errorf(planner.CodeInvalidLink, "This invite link does not exist.")
	if !validShareCode(code) {
		return nil, invalid
	}
	var row struct {
		planner.ShareLink
		Expired bool `db:"expired"`
	}
	err := sqlx.GetContext(ctx, q, &row, `
		SELECT id, code, type, COALESCE(plan_id, collection_id) AS reference_id, expires_at, expires_at <= now() AS expired
		FROM share_links WHERE code = $1`, code)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, invalid
	}
	if err != nil {
		return nil, err
	}
	if row.Expired {
		return nil, planner.Errorf(planner.CodeExpiredLink, "This invite link has expired; ask for a new one.")
	}
	return &row.ShareLink, nil
}

// JoinByLink makes the user a member of the link's plan or collection: a new MEMBER, or a
// former member restored with the same member id and a fresh nickname and picture. A current
// member stays as they are; a member the owner removed is MEMBER_REMOVED until the owner lets
// them back (LetMemberBack). A guest cannot join: they sign in first.
func (db *DB) JoinByLink(ctx context.Context, userID, code string) (*planner.ShareLink, error) {
	if err := writer(userID); err != nil {
		return nil, err
	}
	var (
		out    *planner.ShareLink
		events []int64
	)
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		l, err := shareLink(ctx, tx, code)
		if err != nil {
			return err
		}
		out = l
		k := shareKinds[l.Type]
		if _, err := tx.ExecContext(ctx, `SELECT set_config('tripplan.actor', $1, true)`, userID); err != nil {
			return err
		}
		// Returns the membership as it is after the statement: joined now (the insert or the
		// update ran), or as it was (an active member, or a removed one, left alone).
		var r struct {
			Joined   bool   `db:"joined"`
			Removed  bool   `db:"removed"`
			MemberID string `db:"member_id"`
			Nickname string `db:"nickname"`
		}
		err = tx.GetContext(ctx, &r, `
			WITH joined AS (
			    INSERT INTO `+k.table+` (id, `+k.key+`, user_id, role, nickname, picture)
			    SELECT $1, $2, u.id, 'MEMBER', u.nickname, u.picture FROM users u WHERE u.id = $3 AND u.withdrawn_at IS NULL
			    ON CONFLICT ON CONSTRAINT `+k.uniq+` DO UPDATE
			        SET left_at = NULL, joined_at = now(), nickname = EXCLUDED.nickname, picture = EXCLUDED.picture
			        WHERE `+k.table+`.left_at IS NOT NULL AND `+k.table+`.removed_at IS NULL
			    RETURNING id, nickname)
			SELECT EXISTS (SELECT 1 FROM joined) AS joined,
			       COALESCE((SELECT id FROM joined), '') AS member_id, COALESCE((SELECT nickname FROM joined), '') AS nickname,
			       EXISTS (SELECT 1 FROM `+k.table+` WHERE `+k.key+` = $2 AND user_id = $3 AND removed_at IS NOT NULL) AS removed`,
			planner.NewID(), l.ReferenceID, userID)
		if err != nil {
			return err
		}
		if r.Removed {
			return k.refuse(planner.Errorf(planner.CodeMemberRemoved, "The owner removed you from this plan; the link works for you again once they let you back in."),
				planner.Errorf(planner.CodeMemberRemoved, "The owner removed you from this collection; the link works for you again once they let you back in."))
		}
		if !r.Joined {
			return nil // a member already
		}
		if err := db.record(ctx, tx, k.did(l.ReferenceID, userID, planner.ActMemberJoined, r.MemberID, r.Nickname).toOthers(k.link(l.ReferenceID), "")); err != nil {
			return err
		}
		if l.Type == planner.SharePlan && db.days != nil {
			events, err = ownEvents(ctx, tx, l.ReferenceID)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if out.Type == planner.SharePlan {
		db.planChanged(out.ReferenceID, events)
	}
	return out, nil
}

// ShareLinks lists the links to a plan or collection that still work, newest first, each with
// the member who made it (as they were when they were last a member), for its members.
func (db *DB) ShareLinks(ctx context.Context, userID string, typ planner.ShareType, referenceID string) ([]planner.Invitation, error) {
	k := shareKinds[typ]
	out := []planner.Invitation{}
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := k.member(ctx, tx, referenceID, userID); err != nil {
			return err
		}
		return tx.SelectContext(ctx, &out, `
			SELECT s.code, s.created_at, s.expires_at,
			       COALESCE(m.id, '') AS "created_by.id", COALESCE(m.nickname, '') AS "created_by.nickname",
			       COALESCE(m.picture, '') AS "created_by.picture", COALESCE(m.role, 'MEMBER') AS "created_by.role"
			FROM share_links s
			LEFT JOIN `+k.table+` m ON m.`+k.key+` = s.`+k.key+` AND m.user_id = s.created_by
			WHERE s.`+k.key+` = $1 AND s.expires_at > now()
			ORDER BY s.created_at DESC, s.id`, referenceID)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// RevokeShareLink deletes a link to a plan or collection: its owner may, and so may the member
// who made it (else FORBIDDEN_NOT_OWNER). From then on the link is INVALID_LINK, and the guests
// it admitted can no longer read (the membership checks look for the link on every read). A
// code that is not a link of this resource is INVALID_LINK.
func (db *DB) RevokeShareLink(ctx context.Context, userID string, typ planner.ShareType, referenceID, code string) error {
	k := shareKinds[typ]
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		me, err := k.member(ctx, tx, referenceID, userID)
		if err != nil {
			return err
		}
		var rows []struct {
			Mine bool `db:"mine"`
		}
		if validShareCode(code) {
			err = tx.SelectContext(ctx, &rows, `
				SELECT created_by IS NOT DISTINCT FROM $3 AS mine FROM share_links
				WHERE code = $1 AND `+k.key+` = $2 FOR UPDATE`, code, referenceID, userID)
			if err != nil {
				return err
			}
		}
		if len(rows) == 0 {
			return k.refuse(planner.Errorf(planner.CodeInvalidLink, "This plan has no such invite link."),
				planner.Errorf(planner.CodeInvalidLink, "This collection has no such invite link."))
		}
		if !rows[0].Mine && me.Role != planner.RoleOwner {
			return planner.Errorf(planner.CodeForbiddenNotOwner, "Only the owner or the member who made this link can revoke it.")
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM share_links WHERE code = $1`, code)
		return err
	})
}

// RemovedMembers lists the members the owner removed from a plan or collection and has not
// let back in, most recently removed first (the owner only).
func (db *DB) RemovedMembers(ctx context.Context, userID string, typ planner.ShareType, referenceID string) ([]planner.Member, error) {
	k := shareKinds[typ]
	out := []planner.Member{}
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := k.owner(ctx, tx, referenceID, userID, planner.Errorf(planner.CodeForbiddenNotOwner, "Only the owner can see who was removed.")); err != nil {
			return err
		}
		return tx.SelectContext(ctx, &out, `
			SELECT id, nickname, picture, role FROM `+k.table+`
			WHERE `+k.key+` = $1 AND removed_at IS NOT NULL
			ORDER BY removed_at DESC, id`, referenceID)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// LetMemberBack lifts a removal (the owner only): the person may join again through any link,
// with the same member id. MEMBER_NOT_FOUND unless memberID is a removed member of the resource.
func (db *DB) LetMemberBack(ctx context.Context, userID string, typ planner.ShareType, referenceID, memberID string) error {
	k := shareKinds[typ]
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := k.owner(ctx, tx, referenceID, userID, planner.Errorf(planner.CodeForbiddenNotOwner, "Only the owner can let members back in.")); err != nil {
			return err
		}
		var n int64
		if planner.ValidID(memberID) {
			res, err := tx.ExecContext(ctx, `
				UPDATE `+k.table+` SET removed_at = NULL WHERE id = $1 AND `+k.key+` = $2 AND removed_at IS NOT NULL`,
				memberID, referenceID)
			if err != nil {
				return err
			}
			n, _ = res.RowsAffected()
		}
		if n == 0 {
			return k.refuse(planner.Errorf(planner.CodeMemberNotFound, "No one by that id was removed from this plan."),
				planner.Errorf(planner.CodeMemberNotFound, "No one by that id was removed from this collection."))
		}
		return nil
	})
}

// validShareCode reports whether code could be a link code: 1–64 URL-safe base64 characters.
func validShareCode(code string) bool {
	if code == "" || len(code) > 64 {
		return false
	}
	for _, r := range code {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
