package postgres

import (
	"context"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/planner"
)

// budgetSQL computes a plan's budget in one statement: every additional expense, plus for each
// time block its selected candidate's items, or with none selected the most expensive
// candidate's (the worst case); the traveller count defaults to the active members.
const budgetSQL = `
	WITH cand AS (
	    SELECT c.time_block_id, c.selected, COALESCE(sum(i.cost), 0) AS cost
	    FROM candidates c
	    JOIN time_blocks b ON b.id = c.time_block_id AND b.plan_id = $1
	    LEFT JOIN expenses e ON e.candidate_id = c.id
	    LEFT JOIN expense_items i ON i.expense_id = e.id
	    GROUP BY c.id, c.time_block_id, c.selected),
	blocks AS (
	    SELECT COALESCE(max(cost) FILTER (WHERE selected), max(cost)) AS cost FROM cand GROUP BY time_block_id)
	SELECT bu.id, CASE WHEN bu.total_budget IS NULL THEN 'INITIAL' ELSE bu.mode END AS mode, bu.total_budget,
	       COALESCE((SELECT sum(cost) FROM blocks), 0)
	         + COALESCE((SELECT sum(i.cost) FROM expenses e JOIN expense_items i ON i.expense_id = e.id
	                     WHERE e.plan_id = $1 AND e.kind = 'ADDITIONAL'), 0) AS total_cost,
	       COALESCE(bu.traveler_count, (SELECT count(*) FROM plan_members m WHERE m.plan_id = $1 AND m.left_at IS NULL))::int AS traveler_count,
	       p.currency
	FROM budgets bu JOIN plans p ON p.id = bu.plan_id
	WHERE bu.plan_id = $1`

type budgetRow struct {
	ID            string             `db:"id"`
	Mode          planner.BudgetMode `db:"mode"`
	TotalBudget   *int64             `db:"total_budget"`
	TotalCost     int64              `db:"total_cost"`
	TravelerCount int                `db:"traveler_count"`
	Currency      string             `db:"currency"`
}

func loadBudget(ctx context.Context, q sqlx.QueryerContext, planID string) (*planner.Budget, error) {
	var r budgetRow
	if err := sqlx.GetContext(ctx, q, &r, budgetSQL, planID); err != nil {
		return nil, err
	}
	return &planner.Budget{ID: r.ID, Mode: r.Mode, TotalBudget: r.TotalBudget, TotalCost: r.TotalCost,
		TravelerCount: r.TravelerCount, Currency: r.Currency}, nil
}

// Budget answers a plan's budget.
func (db *DB) Budget(ctx context.Context, userID, planID string) (*planner.Budget, error) {
	var out *planner.Budget
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := planMember(ctx, tx, planID, userID); err != nil {
			return err
		}
		var err error
		out, err = loadBudget(ctx, tx, planID)
		return err
	})
	return out, err
}

// UpdateBudget changes the budget's mode and whatever else the change sets.
func (db *DB) UpdateBudget(ctx context.Context, userID, planID string, ch planner.BudgetChange) (*planner.Budget, error) {
	var out *planner.Budget
	err := db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		if _, err := planMember(ctx, tx, planID, userID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `
			UPDATE budgets SET mode = $2, total_budget = COALESCE($3, total_budget),
			       traveler_count = COALESCE($4, traveler_count), updated_at = now()
			WHERE plan_id = $1`, planID, ch.Mode, ch.TotalBudget, ch.TravelerCount); err != nil {
			return err
		}
		if ch.Currency != nil {
			if _, err := tx.ExecContext(ctx, `UPDATE plans SET currency = $2, updated_at = now() WHERE id = $1`, planID, *ch.Currency); err != nil {
				return err
			}
		}
		var err error
		out, err = loadBudget(ctx, tx, planID)
		return err
	})
	return out, err
}
