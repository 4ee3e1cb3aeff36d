package postgres

import (
	"context"

	"tripplan/internal/planner"
)

// RecentPlans lists up to limit plans the user is an active member of, newest membership first.
func (db *DB) RecentPlans(ctx context.Context, userID string, limit int) (_ []planner.PlanSummary, err error) {
	defer named(&err)
	out := []planner.PlanSummary{}
	err = db.SelectContext(ctx, &out, `
		SELECT p.id, p.title, p.start_date, p.end_date,
		       (SELECT count(*) FROM plan_members x WHERE x.plan_id = p.id AND x.left_at IS NULL) AS member_count
		FROM plan_members m JOIN plans p ON p.id = m.plan_id
		WHERE m.user_id = $1 AND m.left_at IS NULL
		ORDER BY m.joined_at DESC, p.id
		LIMIT $2`, userID, limit)
	return out, mapError(err)
}
