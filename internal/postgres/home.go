package postgres

import (
	"context"

	"tripplan/internal/planner"
)

// RecentPlans lists up to limit plans the user is an active member of, newest membership first.
func (db *DB) RecentPlans(ctx context.Context, userID string, limit int) ([]planner.PlanSummary, error) {
	out := []planner.PlanSummary{}
	err := db.SelectContext(ctx, &out, `
		SELECT p.id, p.title, p.start_date, p.end_date,
		       (SELECT count(*) FROM plan_members x WHERE x.plan_id = p.id AND x.left_at IS NULL) AS member_count
		FROM plan_members m JOIN plans p ON p.id = m.plan_id
		WHERE m.user_id = $1 AND m.left_at IS NULL
		ORDER BY m.joined_at DESC, p.id
		LIMIT $2`, userID, limit)
	return out, mapError(err)
}

// RecentCollections lists up to limit collections the user is an active member of, newest
// membership first, with the first photo of their places as thumbnail.
func (db *DB) RecentCollections(ctx context.Context, userID string, limit int) ([]planner.CollectionSummary, error) {
	out := []planner.CollectionSummary{}
	err := db.SelectContext(ctx, &out, `
		SELECT c.id, c.title,
		       COALESCE((SELECT pl.photos[1] FROM collection_places cp JOIN places pl ON pl.id = cp.place_id
		                 WHERE cp.collection_id = c.id AND cardinality(pl.photos) > 0
		                 ORDER BY cp.created_at, cp.id LIMIT 1), '') AS thumbnail,
		       (SELECT count(*) FROM collection_places cp WHERE cp.collection_id = c.id) AS place_count,
		       (SELECT count(*) FROM collection_members x WHERE x.collection_id = c.id AND x.left_at IS NULL) AS member_count
		FROM collection_members m JOIN collections c ON c.id = m.collection_id
		WHERE m.user_id = $1 AND m.left_at IS NULL
		ORDER BY m.joined_at DESC, c.id
		LIMIT $2`, userID, limit)
	return out, mapError(err)
}
