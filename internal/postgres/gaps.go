package postgres

import (
	"context"

	"tripplan/internal/planner"
)

// GapPlaces lists the places that could fill a day's free time (issue 25): the places with
// coordinates of the collections linked to the plan that are in none of the plan's blocks (as
// any candidate, on any day), collection by collection in the order they were linked, each
// one's most recently added first, each place once and at most limit of them, for a member
// (linked collections are the members' to read, as PlanPlaces). Two statements whatever the
// number of linked collections or gaps.
func (db *DB) GapPlaces(ctx context.Context, userID, planID string, limit int) ([]planner.CollectionPlace, error) {
	return db.linkedPlaces(ctx, userID, planID, limit, `p.latitude IS NOT NULL
		AND NOT EXISTS (SELECT 1 FROM time_blocks b JOIN candidates c ON c.time_block_id = b.id
		                WHERE b.plan_id = $1 AND c.place_id = cp.place_id)`)
}
