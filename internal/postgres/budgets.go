package postgres

import (
	"context"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/money"
	"tripplan/internal/planner"
)

// planCosts reads every expense of a plan as its budget counts it (planner.Cost): where it is,
// its total in its own currency (its items summed in one pass, not a query per expense) and
// its terms, in one query; planner.Counted picks and
// converts the ones that count. A candidate without an expense counts as nothing.
func planCosts(ctx context.Context, q sqlx.QueryerContext, planID string) ([]planner.Cost, error) {
	var rows []struct {
		ExpenseID   string `db:"id"`
		Kind        string `db:"kind"`
		Day         int    `db:"day"`
		TimeBlockID string `db:"time_block_id"`
		CandidateID string `db:"candidate_id"`
		Selected    bool   `db:"selected"`
		Category    string `db:"category"`
		Total       int64  `db:"total"`
		Plan        string `db:"plan_currency"`
		termsRow
	}
	if err := sqlx.SelectContext(ctx, q, &rows, `
		SELECT e.id, e.kind, COALESCE(d.day, bd.day, 0) AS day, COALESCE(c.time_block_id, '') AS time_block_id,
		       COALESCE(e.candidate_id, '') AS candidate_id, COALESCE(c.selected, false) AS selected,
		       COALESCE(p.category_level1, '') AS category,
		       COALESCE(it.total, 0) AS total,
		       pl.currency AS plan_currency, `+termsColumns+`
		FROM expenses e
		JOIN plans pl ON pl.id = e.plan_id
		LEFT JOIN plan_days d ON d.id = e.plan_day_id
		LEFT JOIN candidates c ON c.id = e.candidate_id
		LEFT JOIN places p ON p.id = c.place_id
		LEFT JOIN time_blocks b ON b.id = c.time_block_id
		LEFT JOIN plan_days bd ON bd.id = b.plan_day_id
		LEFT JOIN (SELECT i.expense_id, sum(i.cost) AS total FROM expense_items i
		           JOIN expenses x ON x.id = i.expense_id WHERE x.plan_id = $1 GROUP BY i.expense_id) it ON it.expense_id = e.id
		WHERE e.plan_id = $1 AND (e.kind = 'ADDITIONAL' OR c.id IS NOT NULL)
		ORDER BY e.id`, planID); err != nil {
		return nil, err
	}
	out := make([]planner.Cost, len(rows))
	for i, r := range rows {
		out[i] = planner.Cost{ExpenseID: r.ExpenseID, Kind: planner.ExpenseKind(r.Kind), Day: r.Day, TimeBlockID: r.TimeBlockID,
			CandidateID: r.CandidateID, Selected: r.Selected, Category: r.Category, Total: r.Total, Terms: r.terms(r.Plan)}
	}
	return out, nil
}

// readerCosts checks that the user may read the plan and reads its costs (planCosts), kept
// while the plan is unchanged (cache.go): a read inside a writing transaction, which may see
// its own uncommitted changes, calls planCosts instead.
func (db *DB) readerCosts(ctx context.Context, tx *sqlx.Tx, planID, userID string) (membership, []planner.Cost, error) {
	me, err := planReader(ctx, tx, planID, userID)
	if err != nil {
		return me, nil, err
	}
	if db.days == nil {
		costs, err := planCosts(ctx, tx, planID)
		return me, costs, err
	}
	topic := planner.PlanTopic(planID)
	if costs, m, ok := db.days.costsOf(planID); ok {
		// Another instance's write may not have reached this one's feed yet.
		same, err := unchanged(ctx, tx, topic, m)
		if err != nil {
			return me, nil, err
		}
		if same {
			return me, costs, nil
		}
	}
	at, _ := db.days.now(planID) // before reading, so a change during the read is noticed
	m, err := markOf(ctx, tx, topic)
	if err != nil {
		return me, nil, err
	}
	costs, err := planCosts(ctx, tx, planID)
	if err == nil {
		db.days.putCosts(planID, at, m, costs)
	}
	return me, costs, err
}

// loadBudget reads a plan's budget: its total cost is every additional expense, plus for each
// time block its selected candidate's costs, or with none selected the most expensive
// candidate's (the worst case), in the plan's currency (planner.Counted); the traveller count
// defaults to the active members. Two queries.
func loadBudget(ctx context.Context, q sqlx.QueryerContext, planID string) (*planner.Budget, error) {
	costs, err := planCosts(ctx, q, planID)
	if err != nil {
		return nil, err
	}
	return budgetWith(ctx, q, planID, costs)
}

// budgetWith reads a plan's budget row, with the total cost of its costs (planCosts).
func budgetWith(ctx context.Context, q sqlx.QueryerContext, planID string, costs []planner.Cost) (*planner.Budget, error) {
	var r struct {
		ID            string             `db:"id"`
		Mode          planner.BudgetMode `db:"mode"`
		TotalBudget   *int64             `db:"total_budget"`
		TravelerCount int                `db:"traveler_count"`
		Currency      string             `db:"currency"`
		Version       int                `db:"version"`
	}
	if err := sqlx.GetContext(ctx, q, &r, `
		SELECT bu.id, CASE WHEN bu.total_budget IS NULL THEN 'INITIAL' ELSE bu.mode END AS mode, bu.total_budget,
		       COALESCE(bu.traveler_count, (SELECT count(*) FROM plan_members m WHERE m.plan_id = $1 AND m.left_at IS NULL))::int AS traveler_count,
		       p.currency, bu.version
		FROM budgets bu JOIN plans p ON p.id = bu.plan_id
		WHERE bu.plan_id = $1`, planID); err != nil {
		return nil, err
	}
	return &planner.Budget{ID: r.ID, Mode: r.Mode, TotalBudget: r.TotalBudget, TotalCost: planner.TotalCost(planner.Counted(costs, r.Currency)),
		TravelerCount: r.TravelerCount, Currency: r.Currency, Version: r.Version}, nil
}

// BudgetOverview reads what a plan's budget page shows beside a day's expenses, in one
// transaction of six queries: the budget, its counted costs, what settling up starts from,
// and the newest recent payments recorded between members.
func (db *DB) BudgetOverview(ctx context.Context, userID, planID string, recent int) (*planner.BudgetOverview, error) {
	var out planner.BudgetOverview
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		me, costs, err := db.readerCosts(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		b, err := budgetWith(ctx, tx, planID, costs)
		if err != nil {
			return err
		}
		out.Me, out.Budget, out.Counted = me.ID, *b, planner.Counted(costs, me.Currency)
		l, err := ledger(ctx, tx, planID, me.Currency, out.Counted)
		if err != nil {
			return err
		}
		out.Ledger = *l
		out.Recent, out.MoreRecorded, err = settlementsPage(ctx, tx, planID, planner.Page{Size: recent})
		return err
	})
	return &out, err
}

// Budget answers a plan's budget.
func (db *DB) Budget(ctx context.Context, userID, planID string) (*planner.Budget, error) {
	var out *planner.Budget
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		_, costs, err := db.readerCosts(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		out, err = budgetWith(ctx, tx, planID, costs)
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

// rescaleAmounts keeps the plan's amounts the same numbers of major units when its currency
// changes from one with other minor digits (12.50 USD becomes 12.500 KWD): its total budget and
// its expenses in its own currency (items, payers' and exact shares' amounts) and the payments recorded between members. An expense in the
// new currency becomes one in the plan's own; one in a third currency has a rate to the old
// currency that means nothing in the new, so the change is refused (400 on currency), as it
// is when an amount has more decimals than the new currency holds.
func rescaleAmounts(ctx context.Context, tx *sqlx.Tx, planID string, from, to money.Currency) error {
	var r struct {
		Fits    bool   `db:"fits"`
		Foreign string `db:"foreign"`
	}
	if err := tx.GetContext(ctx, &r, `
		WITH f AS (SELECT power(10::numeric, $2::int) AS f),
		own AS (SELECT e.* FROM expenses e WHERE e.plan_id = $1 AND e.currency IS NULL),
		amounts AS (
		    SELECT total_budget AS a FROM budgets WHERE plan_id = $1 AND total_budget IS NOT NULL
		    UNION ALL SELECT i.cost FROM expense_items i JOIN own e ON e.id = i.expense_id
		    UNION ALL SELECT (p->>'amount')::bigint FROM own e, jsonb_array_elements(e.payers) p
		    UNION ALL SELECT (p->>'amount')::bigint FROM own e, jsonb_array_elements(e.split_parts) p WHERE e.split_mode = 'EXACT'
		    UNION ALL SELECT amount FROM settlements WHERE plan_id = $1)
		SELECT NOT EXISTS (SELECT 1 FROM amounts, f WHERE a * f.f <> trunc(a * f.f)) AS fits,
		       COALESCE((SELECT string_agg(DISTINCT currency, ', ') FROM expenses WHERE plan_id = $1 AND currency <> $3), '') AS foreign`,
		planID, to.Digits()-from.Digits(), to.Code()); err != nil {
		return err
	}
	var v planner.Validation
	v.Checkf(r.Foreign == "", "currency", "the plan has expenses in %s with rates to %s: change them first", r.Foreign, from.Code())
	v.Checkf(r.Fits, "currency", "the plan has amounts with more decimals than %s has", to.Code())
	if err := v.Err(); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `
		WITH f AS (SELECT power(10::numeric, $2::int) AS f),
		b AS (UPDATE budgets SET total_budget = (total_budget * (SELECT f FROM f))::bigint WHERE plan_id = $1),
		s AS (UPDATE settlements SET amount = (amount * (SELECT f FROM f))::bigint WHERE plan_id = $1),
		i AS (UPDATE expense_items i SET cost = (i.cost * (SELECT f FROM f))::bigint
		      FROM expenses e WHERE e.id = i.expense_id AND e.plan_id = $1 AND e.currency IS NULL),
		own AS (UPDATE expenses e SET
		          payers = (SELECT jsonb_agg(jsonb_set(p, '{amount}', to_jsonb(((p->>'amount')::numeric * (SELECT f FROM f))::bigint)))
		                    FROM jsonb_array_elements(e.payers) p),
		          split_parts = CASE WHEN e.split_mode = 'EXACT' THEN
		                   (SELECT jsonb_agg(jsonb_set(p, '{amount}', to_jsonb(((p->>'amount')::numeric * (SELECT f FROM f))::bigint)))
		                    FROM jsonb_array_elements(e.split_parts) p) ELSE e.split_parts END
		        WHERE e.plan_id = $1 AND e.currency IS NULL AND (e.payers IS NOT NULL OR e.split_mode = 'EXACT'))
		UPDATE expenses SET currency = NULL, exchange_rate = NULL WHERE plan_id = $1 AND currency = $3`,
		planID, to.Digits()-from.Digits(), to.Code())
	return err
}

// SettlementData is what settling up a plan needs (planner.Ledger): the payments that count
// (planner.Payments), the payments recorded between members (recordedPayments), the members
// they may name (the active ones and anyone a payment names), the active members' ids (whom a
// split among everyone shares with) and the currency.
func (db *DB) SettlementData(ctx context.Context, userID, planID string) (*planner.Ledger, error) {
	var out *planner.Ledger
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		me, costs, err := db.readerCosts(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		out, err = ledger(ctx, tx, planID, me.Currency, planner.Counted(costs, me.Currency))
		return err
	})
	return out, err
}

// ledger builds what settling up a plan in currency starts from, given its counted costs: two
// queries, the recorded payments and the members.
func ledger(ctx context.Context, tx *sqlx.Tx, planID, currency string, counted []planner.Cost) (*planner.Ledger, error) {
	l := &planner.Ledger{Currency: currency, Payments: planner.Payments(counted)}
	var err error
	if l.Recorded, err = recordedPayments(ctx, tx, planID); err != nil {
		return nil, err
	}
	named := map[string]bool{}
	for _, p := range l.Payments {
		for _, id := range (planner.Terms{Payers: p.Payers, Split: p.Split}).Named() {
			named[id] = true
		}
	}
	for _, t := range l.Recorded {
		named[t.From], named[t.To] = true, true
	}
	var all []struct {
		planner.Member
		Active bool `db:"active"`
	}
	if err := tx.SelectContext(ctx, &all, `
		SELECT id, nickname, picture, role, left_at IS NULL AS active FROM plan_members
		WHERE plan_id = $1 ORDER BY joined_at, id`, planID); err != nil {
		return nil, err
	}
	for _, m := range all {
		if m.Active {
			l.Active = append(l.Active, m.ID)
		}
		if m.Active || named[m.ID] {
			l.Members = append(l.Members, m.Member)
		}
	}
	return l, nil
}
