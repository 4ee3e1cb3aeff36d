package postgres

import (
	"context"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"tripplan/internal/money"
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
	       p.currency, bu.version
	FROM budgets bu JOIN plans p ON p.id = bu.plan_id
	WHERE bu.plan_id = $1`

type budgetRow struct {
	ID            string             `db:"id"`
	Mode          planner.BudgetMode `db:"mode"`
	TotalBudget   *int64             `db:"total_budget"`
	TotalCost     int64              `db:"total_cost"`
	TravelerCount int                `db:"traveler_count"`
	Currency      string             `db:"currency"`
	Version       int                `db:"version"`
}

func loadBudget(ctx context.Context, q sqlx.QueryerContext, planID string) (*planner.Budget, error) {
	var r budgetRow
	if err := sqlx.GetContext(ctx, q, &r, budgetSQL, planID); err != nil {
		return nil, err
	}
	return &planner.Budget{ID: r.ID, Mode: r.Mode, TotalBudget: r.TotalBudget, TotalCost: r.TotalCost,
		TravelerCount: r.TravelerCount, Currency: r.Currency, Version: r.Version}, nil
}

// Budget answers a plan's budget.
func (db *DB) Budget(ctx context.Context, userID, planID string) (*planner.Budget, error) {
	var out *planner.Budget
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := planReader(ctx, tx, planID, userID); err != nil {
			return err
		}
		var err error
		out, err = loadBudget(ctx, tx, planID)
		return err
	})
	return out, err
}

// UpdateBudget changes the budget's mode and whatever else the change sets, a new version of
// the budget (and, with a currency, of the plan), if the budget is at the version ifMatch
// expects: compared in the statement that writes, else PRECONDITION_FAILED with the budget as
// it is now.
func (db *DB) UpdateBudget(ctx context.Context, userID, planID string, ch planner.BudgetChange, ifMatch planner.IfMatch) (*planner.Budget, error) {
	var out *planner.Budget
	err := db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		cur := money.Stored(me.Currency)
		if ch.Currency != nil && *ch.Currency != me.Currency {
			next := money.Stored(*ch.Currency)
			if err := rescaleAmounts(ctx, tx, planID, cur, next); err != nil {
				return err
			}
			cur = next
		}
		var total *int64
		if ch.TotalBudget != nil {
			var v planner.Validation
			t := planner.MinorUnits(&v, "total_budget", false, *ch.TotalBudget, cur)
			if err := v.Err(); err != nil {
				return err
			}
			total = &t
		}
		res, err := tx.ExecContext(ctx, `
			UPDATE budgets SET mode = $2, total_budget = COALESCE($3, total_budget),
			       traveler_count = COALESCE($4, traveler_count), version = version + 1, updated_at = now()
			WHERE plan_id = $1 AND ($5 = 0 OR version = $5)`, planID, ch.Mode, total, ch.TravelerCount, int(ifMatch))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			now, err := loadBudget(ctx, tx, planID)
			if err != nil {
				return err
			}
			return planner.Stale("The budget was changed since you read it; nothing was changed. current holds it as it is now.", now)
		}
		if ch.Currency != nil {
			if _, err := tx.ExecContext(ctx, `UPDATE plans SET currency = $2, version = version + 1, updated_at = now() WHERE id = $1`, planID, *ch.Currency); err != nil {
				return err
			}
		}
		out, err = loadBudget(ctx, tx, planID)
		return err
	})
	return out, err
}

// rescaleAmounts keeps the plan's amounts (its total budget, expense items and recorded
// payments) the same numbers
// of major units when its currency changes from one with other minor digits (12.50 USD becomes
// 12.500 KWD): 400 on currency when one has more decimals than the new currency holds.
func rescaleAmounts(ctx context.Context, tx *sqlx.Tx, planID string, from, to money.Currency) error {
	shift := to.Digits() - from.Digits()
	if shift == 0 {
		return nil
	}
	var fits bool
	if err := tx.GetContext(ctx, &fits, `
		WITH f AS (SELECT power(10::numeric, $2::int) AS f)
		SELECT NOT EXISTS (SELECT 1 FROM budgets, f WHERE plan_id = $1 AND total_budget * f.f <> trunc(total_budget * f.f))
		   AND NOT EXISTS (SELECT 1 FROM expense_items i JOIN expenses e ON e.id = i.expense_id, f
		                   WHERE e.plan_id = $1 AND i.cost * f.f <> trunc(i.cost * f.f))
		   AND NOT EXISTS (SELECT 1 FROM settlements s, f WHERE s.plan_id = $1 AND s.amount * f.f <> trunc(s.amount * f.f))`, planID, shift); err != nil {
		return err
	}
	if !fits {
		var v planner.Validation
		v.Addf("currency", "the plan has amounts with more decimals than %s has", to.Code())
		return v.Err()
	}
	_, err := tx.ExecContext(ctx, `
		WITH f AS (SELECT power(10::numeric, $2::int) AS f),
		     b AS (UPDATE budgets SET total_budget = (total_budget * (SELECT f FROM f))::bigint WHERE plan_id = $1),
		     s AS (UPDATE settlements SET amount = (amount * (SELECT f FROM f))::bigint WHERE plan_id = $1)
		UPDATE expense_items i SET cost = (i.cost * (SELECT f FROM f))::bigint
		FROM expenses e WHERE e.id = i.expense_id AND e.plan_id = $1`, planID, shift)
	return err
}

// SettlementData is what settling up a plan needs: the payments that count (additional
// expenses and selected candidates' expenses that name who paid; those shared by everyone
// name the active members), the payments recorded
// between members (recordedPayments), the members they may name (the active ones and anyone a
// payment names), and the currency.
func (db *DB) SettlementData(ctx context.Context, userID, planID string) (members []planner.Member, payments []planner.Payment, recorded []planner.Transfer, currency string, err error) {
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		me, err := planReader(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		currency = me.Currency
		var rows []struct {
			Amount int64          `db:"amount"`
			PaidBy string         `db:"paid_by"`
			Split  pq.StringArray `db:"split"`
		}
		if err := tx.SelectContext(ctx, &rows, `
			SELECT COALESCE(sum(i.cost), 0) AS amount, e.paid_by, COALESCE(e.split_among, '{}') AS split
			FROM expenses e
			LEFT JOIN expense_items i ON i.expense_id = e.id
			LEFT JOIN candidates c ON c.id = e.candidate_id
			WHERE e.plan_id = $1 AND e.paid_by IS NOT NULL AND (e.kind = 'ADDITIONAL' OR c.selected)
			GROUP BY e.id ORDER BY e.id`, planID); err != nil {
			return err
		}
		named := map[string]bool{}
		for _, r := range rows {
			payments = append(payments, planner.Payment{Amount: r.Amount, Payers: []planner.Part{{MemberID: r.PaidBy, Amount: 1}},
				Split: planner.Split{Mode: planner.SplitEqual, Members: r.Split}})
			named[r.PaidBy] = true
			for _, id := range r.Split {
				named[id] = true
			}
		}
		if recorded, err = recordedPayments(ctx, tx, planID); err != nil {
			return err
		}
		for _, t := range recorded {
			named[t.From], named[t.To] = true, true
		}
		var all []struct {
			planner.Member
			Active bool `db:"active"`
		}
		if err := tx.SelectContext(ctx, &all, `
			SELECT id, nickname, picture, role, left_at IS NULL AS active FROM plan_members
			WHERE plan_id = $1 ORDER BY joined_at, id`, planID); err != nil {
			return err
		}
		var active []string
		for _, m := range all {
			if m.Active || named[m.ID] {
				members = append(members, m.Member)
			}
			if m.Active {
				active = append(active, m.ID)
			}
		}
		// "Everyone" is the active members: not those who left, whom a payment or a recorded
		// payment may still name (members lists them too).
		for i := range payments {
			if payments[i].Split.Mode == planner.SplitEqual && len(payments[i].Split.Members) == 0 {
				payments[i].Split.Members = active
			}
		}
		return nil
	})
	return members, payments, recorded, currency, err
}

// CostBreakdown splits the budget's total cost (same rules as the budget: selected candidate,
// else the most expensive) by day and by level-1 category of the place ("" for additional
// expenses), in one query.
func (db *DB) CostBreakdown(ctx context.Context, userID, planID string) (byDay, byCategory []planner.CostLine, err error) {
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		if _, err := planReader(ctx, tx, planID, userID); err != nil {
			return err
		}
		var lines []struct {
			Kind string `db:"kind"`
			planner.CostLine
		}
		if err := tx.SelectContext(ctx, &lines, `
			WITH cand AS (
			    SELECT c.time_block_id, d.day, c.selected, COALESCE(p.category_level1, '') AS category, COALESCE(sum(i.cost), 0) AS cost,
			           row_number() OVER (PARTITION BY c.time_block_id ORDER BY c.selected DESC, COALESCE(sum(i.cost), 0) DESC, c.id) AS pick
			    FROM candidates c
			    JOIN time_blocks b ON b.id = c.time_block_id AND b.plan_id = $1
			    JOIN plan_days d ON d.id = b.plan_day_id
			    LEFT JOIN places p ON p.id = c.place_id
			    LEFT JOIN expenses e ON e.candidate_id = c.id
			    LEFT JOIN expense_items i ON i.expense_id = e.id
			    GROUP BY c.id, c.time_block_id, d.day, c.selected, p.category_level1),
			counted AS (
			    SELECT day, category, cost FROM cand WHERE pick = 1
			    UNION ALL
			    SELECT d.day, '', COALESCE(sum(i.cost), 0) FROM expenses e
			    JOIN plan_days d ON d.id = e.plan_day_id
			    LEFT JOIN expense_items i ON i.expense_id = e.id
			    WHERE e.plan_id = $1 AND e.kind = 'ADDITIONAL' GROUP BY e.id, d.day)
			SELECT 'day' AS kind, d.day, '' AS category, COALESCE(sum(c.cost), 0) AS total
			FROM plan_days d LEFT JOIN counted c ON c.day = d.day WHERE d.plan_id = $1 GROUP BY d.day
			UNION ALL
			SELECT 'category', 0, category, sum(cost) FROM counted GROUP BY category HAVING sum(cost) > 0
			ORDER BY 1, 2, 4 DESC, 3`, planID); err != nil {
			return err
		}
		for _, l := range lines {
			if l.Kind == "day" {
				byDay = append(byDay, l.CostLine)
			} else {
				byCategory = append(byCategory, l.CostLine)
			}
		}
		return nil
	})
	return byDay, byCategory, err
}
