package postgres

import (
	"context"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/planner"
)

// GapPlaces lists the places that could fill a day's free time (issue 25): the places with
// coordinates of the collections linked to the plan that are in none of the plan's blocks (as
// any candidate, on any day), collection by collection in the order they were linked, each
// one's most recently added first, each place once and at most limit of them, for a member
// (linked collections are the members' to read, as PlanPlaces). Two statements whatever the
// number of linked collections or gaps.
func (db *DB) GapPlaces(ctx context.Context, userID, planID string, limit int) ([]planner.CollectionPlace, error) {
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
				WHERE pc.plan_id = $1 AND p.latitude IS NOT NULL
				  AND NOT EXISTS (SELECT 1 FROM time_blocks b JOIN candidates c ON c.time_block_id = b.id
				                  WHERE b.plan_id = $1 AND c.place_id = cp.place_id)
				ORDER BY cp.place_id, pc.created_at, pc.collection_id, cp.created_at DESC, cp.id
			)`+collectionPlaceSQL+`
			JOIN picked ON picked.id = cp.id
			ORDER BY picked.linked_at, picked.linked_id, picked.added_at DESC, cp.id
			LIMIT $2`, planID, limit); err != nil {
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
