package postgres

import (
	"context"
	"database/sql"
	"errors"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/planner"
)

// collectionSummarySQL selects a collection as listed (alias c), with its thumbnail (the
// first photo of its places) and counts.
const collectionSummarySQL = `
	SELECT c.id, c.title, c.version,
	       COALESCE((SELECT pl.photos[1] FROM collection_places cp JOIN places pl ON pl.id = cp.place_id
	                 WHERE cp.collection_id = c.id AND cardinality(pl.photos) > 0
	                 ORDER BY cp.created_at, cp.id LIMIT 1), '') AS thumbnail,
	       (SELECT count(*) FROM collection_places cp WHERE cp.collection_id = c.id) AS place_count,
	       (SELECT count(*) FROM collection_members x WHERE x.collection_id = c.id AND x.left_at IS NULL) AS member_count`

// CreateCollection creates a collection owned by the user.
func (db *DB) CreateCollection(ctx context.Context, userID, title string) (*planner.CollectionSummary, error) {
	if err := writer(userID); err != nil {
		return nil, err
	}
	var out planner.CollectionSummary
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		id, _, err := insertCollection(ctx, tx, userID, title)
		if err != nil {
			return err
		}
		return tx.GetContext(ctx, &out, collectionSummarySQL+` FROM collections c WHERE c.id = $1`, id)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// insertCollection creates a collection owned by the user and answers its id and the owner's
// membership id.
func insertCollection(ctx context.Context, tx *sqlx.Tx, userID, title string) (id, memberID string, err error) {
	id, memberID = planner.NewID(), planner.NewID()
	if _, err := tx.ExecContext(ctx, `INSERT INTO collections (id, title) VALUES ($1, $2)`, id, title); err != nil {
		return "", "", err
	}
	res, err := tx.ExecContext(ctx, `
		INSERT INTO collection_members (id, collection_id, user_id, role, nickname, picture)
		SELECT $1, $2, u.id, 'OWNER', u.nickname, u.picture FROM users u WHERE u.id = $3 AND u.withdrawn_at IS NULL`,
		memberID, id, userID)
	if err != nil {
		return "", "", err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return "", "", planner.Errorf(planner.CodeUserNotFound, "No such user.")
	}
	return id, memberID, nil
}

// Collections lists the collections the user is an active member of, by the user's join time
// (newest first unless oldestFirst), one page; hasNext says whether more follow.
func (db *DB) Collections(ctx context.Context, userID string, page planner.Page, oldestFirst bool) (out []planner.CollectionSummary, hasNext bool, err error) {
	defer named(&err)
	order := "m.joined_at DESC, c.id DESC"
	if oldestFirst {
		order = "m.joined_at, c.id"
	}
	out = []planner.CollectionSummary{}
	err = db.SelectContext(ctx, &out, collectionSummarySQL+`
		FROM collection_members m JOIN collections c ON c.id = m.collection_id
		WHERE m.user_id = $1 AND m.left_at IS NULL
		ORDER BY `+order+`
		LIMIT $2 OFFSET $3`, userID, page.Size+1, page.Offset())
	if err != nil {
		return nil, false, mapError(err)
	}
	if len(out) > page.Size {
		return out[:page.Size], true, nil
	}
	return out, false, nil
}

// Collection loads one collection for a user who is an active member of it.
func (db *DB) Collection(ctx context.Context, userID, id string) (*planner.CollectionSummary, error) {
	var out planner.CollectionSummary
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := collectionReader(ctx, tx, id, userID); err != nil {
			return err
		}
		return tx.GetContext(ctx, &out, collectionSummarySQL+` FROM collections c WHERE c.id = $1`, id)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// membership is the caller's active membership of a plan or collection, with a plan's
// currency (the ISO 4217 code its amounts are in).
type membership struct {
	ID       string       `db:"id"`
	Role     planner.Role `db:"role"`
	Currency string       `db:"-"`
}

// collectionMember is the user's active membership of an existing collection, for changes and
// for what only members may read: GUEST_FORBIDDEN for a guest, COLLECTION_NOT_FOUND when there
// is no such collection, FORBIDDEN_NOT_MEMBER when the user is not an active member.
func collectionMember(ctx context.Context, q sqlx.QueryerContext, collectionID, userID string) (membership, error) {
	if err := writer(userID); err != nil {
		return membership{}, err
	}
	return collectionReader(ctx, q, collectionID, userID)
}

// collectionReader is collectionMember for reads a guest of the collection may make too (see
// planReader).
func collectionReader(ctx context.Context, q sqlx.QueryerContext, collectionID, viewer string) (membership, error) {
	if !planner.ValidID(collectionID) {
		return membership{}, planner.Errorf(planner.CodeCollectionNotFound, "No such collection.")
	}
	var r memberRow
	err := sqlx.GetContext(ctx, q, &r, `
		SELECT m.id AS member_id, m.role AS member_role, `+actorColumn+`, `+guestLinkColumn("collection_id")+`
		FROM collections c
		LEFT JOIN collection_members m ON m.collection_id = c.id AND m.user_id = $2 AND m.left_at IS NULL
		WHERE c.id = $1`, collectionID, viewer, guestLink(viewer))
	if errors.Is(err, sql.ErrNoRows) {
		return membership{}, planner.Errorf(planner.CodeCollectionNotFound, "No such collection.")
	}
	if err != nil {
		return membership{}, err
	}
	if !r.ID.Valid {
		return outsider(planner.ShareCollection, collectionID, viewer, r.GuestLink)
	}
	return membership{ID: r.ID.String, Role: planner.Role(r.Role.String)}, nil
}

// RenameCollection changes a collection's title; any active member may. The collection counts
// a new version; ifMatch is compared in the same statement (PRECONDITION_FAILED, with the
// collection as it is now).
func (db *DB) RenameCollection(ctx context.Context, userID, id, title string, ifMatch planner.IfMatch) (*planner.CollectionSummary, error) {
	var out planner.CollectionSummary
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := collectionMember(ctx, tx, id, userID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `
			UPDATE collections SET title = $2, version = version + 1, updated_at = now()
			WHERE id = $1 AND ($3 = 0 OR version = $3)`, id, title, int(ifMatch))
		if err != nil {
			return err
		}
		if err := tx.GetContext(ctx, &out, collectionSummarySQL+` FROM collections c WHERE c.id = $1`, id); err != nil {
			return collectionGone(err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return planner.Stale("The collection was changed since you read it; nothing was changed. current holds it as it is now.", &out)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteCollection deletes a collection (its owner only) if it is at the version ifMatch
// expects (PRECONDITION_FAILED, with the collection as it is now). It is unlinked from plans;
// blocks made from its places stay.
func (db *DB) DeleteCollection(ctx context.Context, userID, id string, ifMatch planner.IfMatch) error {
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		m, err := collectionMember(ctx, tx, id, userID)
		if err != nil {
			return err
		}
		if m.Role != planner.RoleOwner {
			return planner.Errorf(planner.CodeForbiddenNotOwner, "Only the owner can delete the collection.")
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM collections WHERE id = $1 AND ($2 = 0 OR version = $2)`, id, int(ifMatch))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			var now planner.CollectionSummary
			if err := tx.GetContext(ctx, &now, collectionSummarySQL+` FROM collections c WHERE c.id = $1`, id); err != nil {
				return collectionGone(err)
			}
			return planner.Stale("The collection was changed since you read it; nothing was changed. current holds it as it is now.", &now)
		}
		return nil
	})
}

// collectionGone turns a collection that went away during the request (deleted by a concurrent
// one) into COLLECTION_NOT_FOUND.
func collectionGone(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return planner.Errorf(planner.CodeCollectionNotFound, "No such collection.")
	}
	return err
}

// CollectionPlans lists the plans a collection is linked to that the user is an active member
// of, newest link first.
func (db *DB) CollectionPlans(ctx context.Context, userID, collectionID string) ([]planner.PlanRef, error) {
	out := []planner.PlanRef{}
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := collectionMember(ctx, tx, collectionID, userID); err != nil {
			return err
		}
		return tx.SelectContext(ctx, &out, `
			SELECT p.id, p.title
			FROM plan_collections pc
			JOIN plans p ON p.id = pc.plan_id
			JOIN plan_members m ON m.plan_id = p.id AND m.user_id = $2 AND m.left_at IS NULL
			WHERE pc.collection_id = $1
			ORDER BY pc.created_at DESC, p.id`, collectionID, userID)
	})
	return out, err
}

// CollectionMembers lists a collection's active members, owner first then by join time, and
// which of them is the user.
func (db *DB) CollectionMembers(ctx context.Context, userID, collectionID string) (*planner.MemberGroup, error) {
	var g *planner.MemberGroup
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		m, err := collectionReader(ctx, tx, collectionID, userID)
		if err != nil {
			return err
		}
		g, err = collectionKind.group(ctx, tx, collectionID, m.ID)
		return err
	})
	return g, err
}
