package postgres

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"tripplan/internal/planner"
)

// planCollectionRow is a linked collection as scanned.
type planCollectionRow struct {
	CollectionID string `db:"collection_id"`
	Title        string `db:"title"`
	planner.Member
}

const planCollectionSQL = `
	SELECT c.id AS collection_id, c.title, m.id, m.nickname, m.picture, m.role
	FROM plan_collections pc
	JOIN collections c ON c.id = pc.collection_id
	JOIN plan_members m ON m.id = pc.added_by`

// selectPlanCollections runs planCollectionSQL with the given condition and order.
func selectPlanCollections(ctx context.Context, tx *sqlx.Tx, where string, args ...any) ([]planner.PlanCollection, error) {
	var rows []planCollectionRow
	if err := tx.SelectContext(ctx, &rows, planCollectionSQL+` WHERE `+where+` ORDER BY pc.created_at, c.id`, args...); err != nil {
		return nil, err
	}
	out := make([]planner.PlanCollection, len(rows))
	for i, r := range rows {
		out[i] = planner.PlanCollection{CollectionID: r.CollectionID, Title: r.Title, AddedBy: r.Member}
	}
	return out, nil
}

// LinkCollections links collections to a plan (any plan member who is also a member of each
// collection) and returns the links made. When any is linked already nothing is linked:
// PLAN_COLLECTION_ALREADY_EXISTS.
func (db *DB) LinkCollections(ctx context.Context, userID, planID string, collectionIDs []string) ([]planner.PlanCollection, error) {
	var out []planner.PlanCollection
	err := db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		ids := unique(collectionIDs)
		if err := collectionsMember(ctx, tx, ids, userID); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `
			INSERT INTO plan_collections (plan_id, collection_id, added_by)
			SELECT $1, u.id, $3 FROM unnest($2::text[]) AS u(id)`, planID, pq.Array(ids), me.ID)
		if planner.ErrorCode(mapError(err)) == planner.CodePlanCollectionAlreadyExists {
			return planner.Errorf(planner.CodePlanCollectionAlreadyExists, "A collection is linked to this plan already.")
		}
		if err != nil {
			return err
		}
		out, err = selectPlanCollections(ctx, tx, `pc.plan_id = $1 AND pc.collection_id = ANY($2)`, planID, pq.Array(ids))
		return err
	})
	return out, err
}

// collectionsMember is collectionMember for a list of collections, in one query: the first
// collection (in the list's order) that does not exist is COLLECTION_NOT_FOUND, the first the
// user is not an active member of answers as collectionMember does for it.
func collectionsMember(ctx context.Context, tx *sqlx.Tx, collectionIDs []string, userID string) error {
	if err := writer(userID); err != nil {
		return err
	}
	var rows []struct {
		ID     string `db:"id"`
		Found  bool   `db:"found"`
		Member bool   `db:"member"`
	}
	if err := tx.SelectContext(ctx, &rows, `
		SELECT u.id, c.id IS NOT NULL AS found, m.id IS NOT NULL AS member
		FROM unnest($1::text[]) WITH ORDINALITY AS u(id, n)
		LEFT JOIN collections c ON c.id = u.id
		LEFT JOIN collection_members m ON m.collection_id = c.id AND m.user_id = $2 AND m.left_at IS NULL
		WHERE c.id IS NULL OR m.id IS NULL
		ORDER BY u.n LIMIT 1`, pq.Array(collectionIDs), userID); err != nil {
		return err
	}
	if len(rows) == 0 {
		return nil
	}
	if !rows[0].Found {
		return planner.Errorf(planner.CodeCollectionNotFound, "No such collection.")
	}
	_, err := outsider(planner.ShareCollection, rows[0].ID, userID, false) // no guest gets here
	return err
}

// unique drops repeated strings, keeping the first of each.
func unique(ss []string) []string {
	seen := make(map[string]bool, len(ss))
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// PlanCollections lists the collections linked to a plan, oldest link first (members only).
func (db *DB) PlanCollections(ctx context.Context, userID, planID string) ([]planner.PlanCollection, error) {
	var out []planner.PlanCollection
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := planMember(ctx, tx, planID, userID); err != nil {
			return err
		}
		var err error
		out, err = selectPlanCollections(ctx, tx, `pc.plan_id = $1`, planID)
		return err
	})
	return out, err
}

// UnlinkCollection removes a collection from a plan; blocks made from its places stay.
func (db *DB) UnlinkCollection(ctx context.Context, userID, planID, collectionID string) error {
	return db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		if _, err := planMember(ctx, tx, planID, userID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM plan_collections WHERE plan_id = $1 AND collection_id = $2`, planID, collectionID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return planCollectionNotFound()
		}
		return nil
	})
}

func planCollectionNotFound() error {
	return planner.Errorf(planner.CodePlanCollectionNotFound, "No such collection is linked to this plan.")
}

// linkedCollection checks that the user is a member of the plan and the collection is linked
// to it (PLAN_COLLECTION_NOT_FOUND), and returns the user's collection member id, "" when the
// user is not a member of the collection: plan members see linked collections either way.
func linkedCollection(ctx context.Context, tx *sqlx.Tx, planID, collectionID, userID string) (string, error) {
	if _, err := planMember(ctx, tx, planID, userID); err != nil {
		return "", err
	}
	var me string
	err := tx.GetContext(ctx, &me, `
		SELECT COALESCE((SELECT m.id FROM collection_members m
		                 WHERE m.collection_id = pc.collection_id AND m.user_id = $3 AND m.left_at IS NULL), '')
		FROM plan_collections pc WHERE pc.plan_id = $1 AND pc.collection_id = $2`, planID, collectionID, userID)
	if errors.Is(err, sql.ErrNoRows) {
		return "", planCollectionNotFound()
	}
	return me, err
}

// PlanCollectionPlaces lists a page of the places of a collection linked to a plan, for a
// plan member, as CollectionPlaces does.
func (db *DB) PlanCollectionPlaces(ctx context.Context, userID, planID, collectionID string, page planner.Page, sort planner.CollectionPlaceSort, filter planner.PlaceFilter) (out []planner.CollectionPlace, hasNext bool, err error) {
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		me, err := linkedCollection(ctx, tx, planID, collectionID, userID)
		if err != nil {
			return err
		}
		out, hasNext, err = collectionPlacesPage(ctx, tx, collectionID, me, page, sort, filter)
		return err
	})
	return out, hasNext, err
}

// PlanPlaces lists the places of the collections linked to the plan whose name or one of
// whose other names (경복궁 for Gyeongbokgung Palace) holds needle (in any case; every place
// for ""), as linkedPlaces orders them, for a member ("Add here" offers them).
func (db *DB) PlanPlaces(ctx context.Context, userID, planID, needle string, limit int) ([]planner.CollectionPlace, error) {
	return db.linkedPlaces(ctx, userID, planID, limit, `strpos(lower(p.name), lower($3)) > 0
		OR EXISTS (SELECT 1 FROM unnest(p.names) AS n WHERE strpos(lower(n), lower($3)) > 0)`, needle)
}

// linkedPlaces lists, for a member, the places of the collections linked to the plan that
// which admits (a condition on the place p and the collection place cp; $1 is the plan, $3 on
// are args): collection by collection in the order they were linked, each one's most recently
// added first, each place once (where it first appears) and at most limit of them. Two
// statements whatever the number of linked collections.
func (db *DB) linkedPlaces(ctx context.Context, userID, planID string, limit int, which string, args ...any) ([]planner.CollectionPlace, error) {
	var out []planner.CollectionPlace
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := planMember(ctx, tx, planID, userID); err != nil {
			return err
		}
		var rows []collectionPlaceRow
		if err := tx.SelectContext(ctx, &rows, `
			WITH picked AS (
				SELECT DISTINCT ON (cp.place_id) cp.id, pc.created_at AS linked_at, pc.collection_id AS linked_id, cp.created_at AS added_at
				FROM plan_collections pc
				JOIN collection_places cp ON cp.collection_id = pc.collection_id
				JOIN places p ON p.id = cp.place_id
				WHERE pc.plan_id = $1 AND (`+which+`)
				ORDER BY cp.place_id, pc.created_at, pc.collection_id, cp.created_at DESC, cp.id
			)`+collectionPlaceSQL+`
			JOIN picked ON picked.id = cp.id
			ORDER BY picked.linked_at, picked.linked_id, picked.added_at DESC, cp.id
			LIMIT $2`, append([]any{planID, limit}, args...)...); err != nil {
			return err
		}
		out = make([]planner.CollectionPlace, len(rows))
		for i, r := range rows {
			out[i] = planner.CollectionPlace{ID: r.CPID, CollectionID: r.CollectionID, Memo: r.Memo, Place: r.placeRow.place()}
		}
		return nil
	})
	return out, err
}

// PlanCollectionPlace loads one place of a collection linked to a plan, for a plan member.
func (db *DB) PlanCollectionPlace(ctx context.Context, userID, planID, collectionID, cpID string) (*planner.CollectionPlace, error) {
	var out *planner.CollectionPlace
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		me, err := linkedCollection(ctx, tx, planID, collectionID, userID)
		if err != nil {
			return err
		}
		if out, err = loadCollectionPlace(ctx, tx, collectionID, cpID, me); err != nil {
			return err
		}
		out.SocialMedia, err = socialMediaOf(ctx, tx, cpID)
		return err
	})
	return out, err
}

// collectForPlan puts a place found by search into the plan's own collection and answers it as
// a candidate to add. The plan's own collection is the one plans.own_collection_id names; on
// first use (or once that collection is deleted) it is created, named after the plan and owned
// by the user. It is linked to the plan again if someone unlinked it, and the user joins it when
// not a member yet (or again after leaving it); someone the collection's owner removed from it
// gets MEMBER_REMOVED. Concurrent first uses create one collection: the plan's row is locked
// (FOR NO KEY UPDATE, which blocks no insert referring to the plan). A place already in the
// collection is used as it is. Checks PLACE_NOT_FOUND (no such place, or a manually entered
// one). memberID is the user's plan membership.
func collectForPlan(ctx context.Context, tx *sqlx.Tx, planID, memberID, userID, placeID string) (newCandidate, error) {
	var found bool
	if planner.ValidID(placeID) {
		if err := tx.GetContext(ctx, &found, `SELECT EXISTS (SELECT 1 FROM places WHERE id = $1 AND provider <> 'MANUAL')`, placeID); err != nil {
			return newCandidate{}, err
		}
	}
	if !found {
		return newCandidate{}, planner.Errorf(planner.CodePlaceNotFound, "No such place.")
	}
	var own struct {
		Title        string         `db:"title"`
		CollectionID sql.NullString `db:"own_collection_id"`
		MemberID     sql.NullString `db:"member_id"`
		Left         bool           `db:"has_left"`
		Removed      bool           `db:"removed"`
	}
	if err := tx.GetContext(ctx, &own, `
		SELECT p.title, p.own_collection_id, cm.id AS member_id,
		       COALESCE(cm.left_at IS NOT NULL, false) AS has_left, COALESCE(cm.removed_at IS NOT NULL, false) AS removed
		FROM plans p
		LEFT JOIN collection_members cm ON cm.collection_id = p.own_collection_id AND cm.user_id = $2
		WHERE p.id = $1
		FOR NO KEY UPDATE OF p`, planID, userID); err != nil {
		return newCandidate{}, err
	}
	collectionID, collectionMember := own.CollectionID.String, own.MemberID.String
	switch {
	case !own.CollectionID.Valid:
		// A collection takes any plan title (planner.TitleMax for both).
		id, cm, err := insertCollection(ctx, tx, userID, strings.TrimSpace(own.Title))
		if err != nil {
			return newCandidate{}, err
		}
		collectionID, collectionMember = id, cm
		if _, err := tx.ExecContext(ctx, `UPDATE plans SET own_collection_id = $2 WHERE id = $1`, planID, collectionID); err != nil {
			return newCandidate{}, err
		}
	case own.Removed:
		return newCandidate{}, planner.Errorf(planner.CodeMemberRemoved, "The owner of this plan's collection removed you from it.")
	case !own.MemberID.Valid || own.Left:
		if err := tx.GetContext(ctx, &collectionMember, `
			INSERT INTO collection_members (id, collection_id, user_id, role, nickname, picture)
			SELECT $1, $2, u.id, 'MEMBER', u.nickname, u.picture FROM users u WHERE u.id = $3
			ON CONFLICT ON CONSTRAINT collection_members_one_per_user
			DO UPDATE SET left_at = NULL, joined_at = now(), nickname = EXCLUDED.nickname, picture = EXCLUDED.picture
			RETURNING id`, planner.NewID(), collectionID, userID); err != nil {
			return newCandidate{}, err
		}
	}
	if _, err := tx.ExecContext(ctx, `
		INSERT INTO plan_collections (plan_id, collection_id, added_by) VALUES ($1, $2, $3)
		ON CONFLICT ON CONSTRAINT plan_collections_pkey DO NOTHING`,
		planID, collectionID, memberID); err != nil {
		return newCandidate{}, err
	}
	if _, err := tx.ExecContext(ctx, `
		INSERT INTO collection_places (id, collection_id, place_id, added_by) VALUES ($1, $2, $3, $4)
		ON CONFLICT ON CONSTRAINT collection_places_one_per_place DO NOTHING`,
		planner.NewID(), collectionID, placeID, collectionMember); err != nil {
		return newCandidate{}, err
	}
	c := newCandidate{placeID: placeID}
	err := tx.GetContext(ctx, &c.collectionPlaceID, `
		SELECT id FROM collection_places WHERE collection_id = $1 AND place_id = $2`, collectionID, placeID)
	return c, err
}
