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
	out := planner.ShareLink{Code: newSecret(), Type: typ, ReferenceID: referenceID, ExpiresAt: time.Now().Add(planner.ShareLinkTTL).UTC().Truncate(time.Second)}
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := shareKinds[typ].member(ctx, tx, referenceID, userID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `
			INSERT INTO share_links (id, code, type, plan_id, collection_id, created_by, expires_at)
			VALUES ($1, $2, $3, CASE WHEN $3 = 'PLAN' THEN $4 END, CASE WHEN $3 = 'COLLECTION' THEN $4 END, $5, $6)`,
			planner.NewID(), out.Code, typ, referenceID, userID, out.ExpiresAt)
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
		SELECT code, type, COALESCE(plan_id, collection_id) AS reference_id, expires_at, expires_at <= now() AS expired
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
// member stays as they are.
func (db *DB) JoinByLink(ctx context.Context, userID, code string) (*planner.ShareLink, error) {
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
		res, err := tx.ExecContext(ctx, `
			INSERT INTO `+k.table+` (id, `+k.key+`, user_id, role, nickname, picture)
			SELECT $1, $2, u.id, 'MEMBER', u.nickname, u.picture FROM users u WHERE u.id = $3 AND u.withdrawn_at IS NULL
			ON CONFLICT ON CONSTRAINT `+k.uniq+` DO UPDATE
			    SET left_at = NULL, joined_at = now(), nickname = EXCLUDED.nickname, picture = EXCLUDED.picture
			    WHERE `+k.table+`.left_at IS NOT NULL`,
			planner.NewID(), l.ReferenceID, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // a member already
		}
		category, link := planner.NotifyCollection, "/collections/"+l.ReferenceID
		if l.Type == planner.SharePlan {
			category, link = planner.NotifyPlan, "/plans/"+l.ReferenceID
		}
		if err := notifyMembers(ctx, tx, k, l.ReferenceID, userID, notice{category, "MEMBER_JOINED", "{actor} joined {" + k.noun + "}", link}); err != nil {
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
