package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"slices"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/shopspring/decimal"

	"tripplan/internal/paths"
	"tripplan/internal/planner"
)

// Additional expenses are ordered within their group (a day's start, or the time block they
// follow) by a numeric rank: a new one between two gets their midpoint, which numeric keeps
// exact; when the midpoints grow longer than rankScaleMax digits the group is renumbered 1..n.
const rankScaleMax = 12

// reattachAdditional moves the additional expenses placed after a time block that is about
// to move or go to the block that precedes it on its day (or the day's start), after the ones
// already there, in their order.
func reattachAdditional(ctx context.Context, tx *sqlx.Tx, timeBlockID string) error {
	_, err := tx.ExecContext(ctx, `
		WITH tb AS (SELECT id, plan_day_id, start_time, end_time FROM time_blocks WHERE id = $1),
		prev AS (
		    SELECT b.id FROM time_blocks b, tb
		    WHERE b.plan_day_id = tb.plan_day_id AND (b.start_time, b.end_time, b.id) < (tb.start_time, tb.end_time, tb.id)
		    ORDER BY b.start_time DESC, b.end_time DESC, b.id DESC LIMIT 1),
		base AS (
		    SELECT COALESCE(max(e.rank), 0) AS r FROM expenses e, tb
		    WHERE e.kind = 'ADDITIONAL' AND e.plan_day_id = tb.plan_day_id
		      AND e.after_time_block_id IS NOT DISTINCT FROM (SELECT id FROM prev)),
		moved AS (
		    SELECT e.id, row_number() OVER (ORDER BY e.rank, e.id) AS n FROM expenses e WHERE e.after_time_block_id = $1)
		UPDATE expenses e SET after_time_block_id = (SELECT id FROM prev), rank = (SELECT r FROM base) + moved.n, updated_at = now()
		FROM moved WHERE e.id = moved.id`, timeBlockID)
	return err
}

// expenseRow is an expense as scanned, with where it is.
type expenseRow struct {
	ID          string         `db:"id"`
	Kind        string         `db:"kind"`
	PlanDayID   string         `db:"plan_day_id"`
	AfterBlock  string         `db:"after_block"`
	CandidateID string         `db:"candidate_id"`
	TimeBlockID string         `db:"time_block_id"`
	Rank        sql.NullString `db:"rank"`
	termsRow
	Version int `db:"version"`
}

const expenseColumns = `e.id, e.kind, COALESCE(e.plan_day_id, '') AS plan_day_id, COALESCE(e.after_time_block_id, '') AS after_block,
	COALESCE(e.candidate_id, '') AS candidate_id, COALESCE(c.time_block_id, '') AS time_block_id, e.rank::text AS rank, ` + termsColumns + `, e.version`

// termsRow is an expense's terms as stored (migration 00026): NULLs mean the plan's currency,
// paid_by paying all, and an EQUAL split.
type termsRow struct {
	Currency   string         `db:"currency"`
	Rate       string         `db:"exchange_rate"`
	PaidBy     string         `db:"paid_by"`
	Payers     []byte         `db:"payers"`
	SplitMode  string         `db:"split_mode"`
	SplitAmong pq.StringArray `db:"split_among"`
	SplitParts []byte         `db:"split_parts"`
}

const termsColumns = `COALESCE(e.currency, '') AS currency, COALESCE(e.exchange_rate::text, '') AS exchange_rate,
	COALESCE(e.paid_by, '') AS paid_by, COALESCE(e.payers, '[]') AS payers, COALESCE(e.split_mode, 'EQUAL') AS split_mode,
	COALESCE(e.split_among, '{}') AS split_among, COALESCE(e.split_parts, '[]') AS split_parts`

// terms are the stored terms of an expense of a plan in plan (its currency).
func (r termsRow) terms(plan string) planner.Terms {
	t := planner.Terms{Currency: plan, PaidBy: r.PaidBy, Split: planner.Split{Mode: planner.SplitMode(r.SplitMode), Members: []string(r.SplitAmong)}}
	if r.Currency != "" {
		t.Currency, t.Rate = r.Currency, decimal.RequireFromString(r.Rate)
	}
	// The columns hold what termsArgs wrote.
	_ = json.Unmarshal(r.Payers, &t.Payers)
	_ = json.Unmarshal(r.SplitParts, &t.Split.Parts)
	return t
}

// termsArgs are terms as the columns of termsColumns hold them, in that order.
func termsArgs(t planner.Terms) []any {
	var currency, rate, payers, mode, parts any
	if t.Foreign() {
		currency, rate = t.Currency, t.Rate.String()
	}
	if len(t.Payers) > 0 {
		payers = mustJSON(t.Payers)
	}
	if t.Split.Mode != planner.SplitEqual {
		mode, parts = string(t.Split.Mode), mustJSON(t.Split.Parts)
	}
	return []any{currency, rate, t.PaidBy, payers, mode, splitArray(t.Split.Members), parts}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// writeTerms sets an expense's terms.
func writeTerms(ctx context.Context, tx *sqlx.Tx, expenseID string, t planner.Terms) error {
	_, err := tx.ExecContext(ctx, `
		UPDATE expenses SET currency = $2, exchange_rate = $3::numeric, paid_by = NULLIF($4, ''), payers = $5::jsonb,
		       split_mode = $6, split_among = $7, split_parts = $8::jsonb
		WHERE id = $1`, append([]any{expenseID}, termsArgs(t)...)...)
	return err
}

// priceExpense reads an expense's items and terms as a client sent them, in a plan in plan (its
// currency), for an expense whose terms are now (nil for a new one): the currency and rate
// (planner.ExpenseRate), the items' costs and the terms' amounts in that currency, its total
// within money.Max once converted, and every member it names an active member of the plan.
func priceExpense(ctx context.Context, tx *sqlx.Tx, planID, plan string, in []planner.NewItem, nt planner.NewTerms, now *planner.Terms) ([]planner.ExpenseItem, planner.Terms, error) {
	code, rate, err := planner.ExpenseRate(nt, plan, now)
	if err != nil {
		return nil, planner.Terms{}, err
	}
	items, err := planner.PriceItems(in, code)
	if err != nil {
		return nil, planner.Terms{}, err
	}
	var total int64
	for _, it := range items {
		total += it.Cost
	}
	t, err := planner.PriceTerms(nt, total, code, rate)
	if err != nil {
		return nil, t, err
	}
	if _, ok := t.Convert(total, plan); !ok {
		var v planner.Validation
		v.Add("exchange_rate", "is too large for these costs")
		return nil, t, v.Err()
	}
	return items, t, checkPayers(ctx, tx, planID, t, nt.Split.Field)
}

// planExpense loads and locks an expense of the plan, or EXPENSE_NOT_FOUND; then
// PRECONDITION_FAILED, with the expense as it is now, unless it is at the version ifMatch
// expects.
func planExpense(ctx context.Context, tx *sqlx.Tx, planID, expenseID string, ifMatch planner.IfMatch) (*expenseRow, error) {
	var r expenseRow
	err := sql.ErrNoRows
	if planner.ValidID(expenseID) {
		err = tx.GetContext(ctx, &r, `SELECT `+expenseColumns+` FROM expenses e LEFT JOIN candidates c ON c.id = e.candidate_id
			WHERE e.id = $1 AND e.plan_id = $2 FOR UPDATE OF e`, expenseID, planID)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil, planner.Errorf(planner.CodeExpenseNotFound, "No such expense in this plan.")
	}
	if err == nil && !ifMatch.Allows(r.Version) {
		now, err := loadExpense(ctx, tx, planID, expenseID)
		if err != nil {
			return nil, err
		}
		return nil, planner.Stale("The expense was changed since you read it; nothing was changed. current holds it as it is now.", now)
	}
	return &r, err
}

// checkPayers checks the members an expense's terms name, in one query whatever the lists'
// lengths: INVALID_REQUEST when payers or the split (splitField, as the client named it) list
// more members than the plan has (planner.SharersFit; the handler has refused repeats),
// MEMBER_NOT_FOUND unless every id named is an active member of the plan. The ids are matched
// only when they can all be members, by a hash join, so a long list costs one pass over it.
func checkPayers(ctx context.Context, tx *sqlx.Tx, planID string, t planner.Terms, splitField string) error {
	named := t.Named()
	if len(named) == 0 {
		return nil
	}
	slices.Sort(named)
	named = slices.Compact(named)
	var r struct {
		Members int `db:"members"`
		Known   int `db:"known"`
	}
	if err := tx.GetContext(ctx, &r, `
		WITH m AS MATERIALIZED (SELECT id FROM plan_members WHERE plan_id = $1 AND left_at IS NULL),
		     n AS (SELECT count(*) AS members FROM m)
		SELECT n.members,
		       CASE WHEN cardinality($2::text[]) <= n.members
		            THEN (SELECT count(*) FROM m JOIN unnest($2::text[]) AS u(id) ON u.id = m.id) ELSE 0 END AS known
		FROM n`, planID, pq.Array(named)); err != nil {
		return err
	}
	var v planner.Validation
	planner.SharersFit(&v, "payers", len(t.Payers), r.Members)
	planner.SharersFit(&v, splitField, len(t.Split.Members)+len(t.Split.Parts), r.Members)
	if err := v.Err(); err != nil {
		return err
	}
	if r.Known != len(named) {
		return planner.Errorf(planner.CodeMemberNotFound, "No such member of this plan.")
	}
	return nil
}

// AddExpense places an additional expense right after an expense of the plan or at the start
// of a day, with its items.
func (db *DB) AddExpense(ctx context.Context, userID, planID string, in planner.NewExpense) (*planner.Expense, error) {
	var out *planner.Expense
	err := db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		var dayID, after string
		var me membership
		var err error
		if in.AfterExpenseID == "" {
			var d planDay
			if me, d, err = planMemberDay(ctx, tx, planID, userID, in.Day); err != nil {
				return err
			}
			dayID = d.ID
		} else {
			if me, err = planMember(ctx, tx, planID, userID); err != nil {
				return err
			}
			prev, err := planExpense(ctx, tx, planID, in.AfterExpenseID, planner.AnyVersion)
			if err != nil {
				return err
			}
			if prev.Kind == string(planner.ExpenseBlock) {
				after = prev.TimeBlockID
				if err := tx.GetContext(ctx, &dayID, `SELECT plan_day_id FROM time_blocks WHERE id = $1`, after); err != nil {
					return err
				}
			} else {
				dayID, after = prev.PlanDayID, prev.AfterBlock
			}
		}
		items, terms, err := priceExpense(ctx, tx, planID, me.Currency, in.Items, in.Terms, nil)
		if err != nil {
			return err
		}
		// Right after the chosen additional expense (before the next one), else first in the group.
		var rank string
		err = tx.GetContext(ctx, &rank, `
			WITH g AS (SELECT rank FROM expenses WHERE kind = 'ADDITIONAL' AND plan_day_id = $1
			           AND after_time_block_id IS NOT DISTINCT FROM NULLIF($2, '')),
			     p AS (SELECT rank FROM expenses WHERE id = $3 AND kind = 'ADDITIONAL')
			SELECT (CASE
			    WHEN EXISTS (SELECT 1 FROM p) THEN
			        COALESCE(((SELECT rank FROM p) + (SELECT min(rank) FROM g WHERE rank > (SELECT rank FROM p))) / 2, (SELECT rank FROM p) + 1)
			    ELSE COALESCE((SELECT min(rank) FROM g) - 1, 1)
			END)::text`, dayID, after, in.AfterExpenseID)
		if err != nil {
			return err
		}
		id := planner.NewID()
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO expenses (id, plan_id, kind, plan_day_id, after_time_block_id, rank)
			VALUES ($1, $2, 'ADDITIONAL', $3, NULLIF($4, ''), $5::numeric)`, id, planID, dayID, after, rank); err != nil {
			return err
		}
		if err := writeTerms(ctx, tx, id, terms); err != nil {
			return err
		}
		if err := renumberIfCrowded(ctx, tx, dayID, after); err != nil {
			return err
		}
		if err := replaceItems(ctx, tx, id, items); err != nil {
			return err
		}
		if out, err = loadExpense(ctx, tx, planID, id); err != nil {
			return err
		}
		facts, err := expenseFacts(ctx, tx, id)
		if err != nil {
			return err
		}
		return db.record(ctx, tx, planDid(planID, userID, planner.ActExpenseAdded, planner.TargetExpense, id, facts).toOthers(paths.Budget(planID), ""))
	})
	return out, err
}

// renumberIfCrowded renumbers a group's ranks 1..n once midpoints have grown too long.
func renumberIfCrowded(ctx context.Context, tx *sqlx.Tx, dayID, after string) error {
	_, err := tx.ExecContext(ctx, `
		WITH g AS (
		    SELECT id, row_number() OVER (ORDER BY rank, id) AS n FROM expenses
		    WHERE kind = 'ADDITIONAL' AND plan_day_id = $1 AND after_time_block_id IS NOT DISTINCT FROM NULLIF($2, ''))
		UPDATE expenses e SET rank = g.n FROM g
		WHERE e.id = g.id AND EXISTS (
		    SELECT 1 FROM expenses x WHERE x.kind = 'ADDITIONAL' AND x.plan_day_id = $1
		      AND x.after_time_block_id IS NOT DISTINCT FROM NULLIF($2, '') AND scale(x.rank) > $3)`,
		dayID, after, rankScaleMax)
	return err
}

func splitArray(ids []string) any {
	if len(ids) == 0 {
		return nil
	}
	return pq.Array(ids)
}

// replaceItems makes items the expense's whole item set, in order: items naming an id of this
// expense keep it, others get new ids (EXPENSE_ITEM_NOT_FOUND for an id of another expense).
func replaceItems(ctx context.Context, tx *sqlx.Tx, expenseID string, items []planner.ExpenseItem) error {
	var existing []string
	if err := tx.SelectContext(ctx, &existing, `SELECT id FROM expense_items WHERE expense_id = $1`, expenseID); err != nil {
		return err
	}
	known := make(map[string]bool, len(existing))
	for _, id := range existing {
		known[id] = true
	}
	ids, names, costs := make([]string, len(items)), make([]string, len(items)), make([]int64, len(items))
	seen := map[string]bool{}
	for i, it := range items {
		switch {
		case it.ID == "":
			ids[i] = planner.NewID()
		case known[it.ID] && !seen[it.ID]:
			ids[i] = it.ID
		default:
			return planner.Errorf(planner.CodeExpenseItemNotFound, "No such item in this expense.")
		}
		seen[ids[i]] = true
		names[i], costs[i] = it.Name, it.Cost
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM expense_items WHERE expense_id = $1`, expenseID); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `
		INSERT INTO expense_items (id, expense_id, name, cost, position)
		SELECT u.id, $1, u.name, u.cost, u.n - 1 FROM unnest($2::text[], $3::text[], $4::bigint[]) WITH ORDINALITY AS u(id, name, cost, n)`,
		expenseID, pq.Array(ids), pq.Array(names), pq.Array(costs))
	return err
}

// SetExpense replaces an expense's items and, when terms are given, its currency, rate, payers
// and split (docs/API.md §Money): a new version of the expense, if it is at the version ifMatch
// expects. Without terms the ones it has are kept, and must still add up to the new total.
func (db *DB) SetExpense(ctx context.Context, userID, planID, expenseID string, in []planner.NewItem, nt *planner.NewTerms, ifMatch planner.IfMatch) (*planner.Expense, error) {
	var out *planner.Expense
	err := db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		row, err := planExpense(ctx, tx, planID, expenseID, ifMatch)
		if err != nil {
			return err
		}
		now := row.terms(me.Currency)
		var items []planner.ExpenseItem
		if nt != nil {
			var terms planner.Terms
			if items, terms, err = priceExpense(ctx, tx, planID, me.Currency, in, *nt, &now); err != nil {
				return err
			}
			if err := writeTerms(ctx, tx, expenseID, terms); err != nil {
				return err
			}
		} else {
			if items, err = planner.PriceItems(in, now.Currency); err != nil {
				return err
			}
			if err := now.Fits(planner.Expense{Items: items}.Total()); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE expenses SET version = version + 1, updated_at = now() WHERE id = $1`, expenseID); err != nil {
			return err
		}
		if err := replaceItems(ctx, tx, expenseID, items); err != nil {
			return err
		}
		if out, err = loadExpense(ctx, tx, planID, expenseID); err != nil {
			return err
		}
		facts, err := expenseFacts(ctx, tx, expenseID)
		if err != nil {
			return err
		}
		return db.record(ctx, tx, planDid(planID, userID, planner.ActExpenseChanged, planner.TargetExpense, expenseID, facts))
	})
	return out, err
}

// ExpenseCurrency answers a plan's currency and, for an expense of it (expenseID; "" for
// none), the expense's (its costs'), for a member who may write there.
func (db *DB) ExpenseCurrency(ctx context.Context, userID, planID, expenseID string) (plan, expense string, err error) {
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		plan = me.Currency
		if expenseID == "" || !planner.ValidID(expenseID) {
			return nil
		}
		err = tx.GetContext(ctx, &expense, `SELECT COALESCE(currency, $3) FROM expenses WHERE id = $1 AND plan_id = $2`, expenseID, planID, plan)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // the write that follows answers EXPENSE_NOT_FOUND
		}
		return err
	})
	return plan, expense, err
}

// DeleteExpense removes an additional expense; a candidate's own expense only loses its items
// (a new version of it). Either only at the version ifMatch expects.
func (db *DB) DeleteExpense(ctx context.Context, userID, planID, expenseID string, ifMatch planner.IfMatch) error {
	return db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		if _, err := planMember(ctx, tx, planID, userID); err != nil {
			return err
		}
		e, err := planExpense(ctx, tx, planID, expenseID, ifMatch)
		if err != nil {
			return err
		}
		was, err := expenseFacts(ctx, tx, expenseID)
		if err != nil {
			return err
		}
		if e.Kind == string(planner.ExpenseAdditional) {
			_, err = tx.ExecContext(ctx, `DELETE FROM expenses WHERE id = $1`, expenseID)
		} else {
			_, err = tx.ExecContext(ctx, `
				WITH emptied AS (DELETE FROM expense_items WHERE expense_id = $1)
				UPDATE expenses SET version = version + 1, updated_at = now() WHERE id = $1`, expenseID)
		}
		if err != nil {
			return err
		}
		return db.record(ctx, tx, planDid(planID, userID, planner.ActExpenseRemoved, planner.TargetExpense, expenseID, was))
	})
}

// expenseFacts reads what names an expense in the plan's history: an additional expense's
// first line and how many it has, a candidate's costs' place, the total converted to the
// plan's currency and the day.
func expenseFacts(ctx context.Context, tx *sqlx.Tx, expenseID string) (planner.Details, error) {
	var r struct {
		Expense string         `db:"expense"`
		Lines   int            `db:"lines"`
		Amount  int64          `db:"amount"`
		Plan    string         `db:"plan_currency"`
		Day     int            `db:"day"`
		Place   string         `db:"place"`
		Names   pq.StringArray `db:"names"`
		termsRow
	}
	err := tx.GetContext(ctx, &r, `
		SELECT CASE WHEN e.kind = 'ADDITIONAL' THEN COALESCE(i.first, '') ELSE '' END AS expense,
		       COALESCE(i.lines, 0) AS lines, COALESCE(i.amount, 0) AS amount, pl.currency AS plan_currency, `+termsColumns+`,
		       COALESCE(d.day, bd.day, 0) AS day, COALESCE(p.name, '') AS place, p.names
		FROM expenses e
		JOIN plans pl ON pl.id = e.plan_id
		LEFT JOIN LATERAL (
		    SELECT (array_agg(x.name ORDER BY x.position, x.id))[1] AS first, count(*) AS lines, sum(x.cost) AS amount
		    FROM expense_items x WHERE x.expense_id = e.id) i ON true
		LEFT JOIN plan_days d ON d.id = e.plan_day_id
		LEFT JOIN candidates c ON c.id = e.candidate_id
		LEFT JOIN places p ON p.id = c.place_id
		LEFT JOIN time_blocks b ON b.id = c.time_block_id
		LEFT JOIN plan_days bd ON bd.id = b.plan_day_id
		WHERE e.id = $1`, expenseID)
	if err != nil {
		return planner.Details{}, err
	}
	amount, _ := r.terms(r.Plan).Convert(r.Amount, r.Plan)
	return planner.Details{Expense: r.Expense, Lines: r.Lines, Amount: &amount, Currency: r.Plan, Day: r.Day, Place: r.Place,
		Names: planner.NamesOf(r.Place, r.Names)}, err
}

// loadExpense loads one expense with its items and, for a candidate's, its place.
func loadExpense(ctx context.Context, tx *sqlx.Tx, planID, expenseID string) (*planner.Expense, error) {
	list, err := expensesWithItems(ctx, tx, planID, `e.id = $2`, expenseID)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, planner.Errorf(planner.CodeExpenseNotFound, "No such expense in this plan.")
	}
	return &list[0].Expense, nil
}

// placedExpense is an expense with where it is.
type placedExpense struct {
	planner.Expense
	row expenseRow
}

// expensesWithItems loads the plan's expenses matching where (on e, with $2) with their items
// and candidates' places, in three queries.
func expensesWithItems(ctx context.Context, tx *sqlx.Tx, planID, where string, arg any) ([]placedExpense, error) {
	var rows []struct {
		expenseRow
		PlaceID      string `db:"place_id"`
		PlanCurrency string `db:"plan_currency"`
	}
	if err := tx.SelectContext(ctx, &rows, `
		SELECT `+expenseColumns+`, COALESCE(c.place_id, '') AS place_id, pl.currency AS plan_currency
		FROM expenses e JOIN plans pl ON pl.id = e.plan_id LEFT JOIN candidates c ON c.id = e.candidate_id
		WHERE e.plan_id = $1 AND `+where+`
		ORDER BY e.rank NULLS FIRST, c.created_at, e.id`, planID, arg); err != nil {
		return nil, err
	}
	ids, placeIDs := make([]string, len(rows)), []string{}
	for i, r := range rows {
		ids[i] = r.ID
		if r.PlaceID != "" {
			placeIDs = append(placeIDs, r.PlaceID)
		}
	}
	var items []struct {
		ExpenseID string `db:"expense_id"`
		ID        string `db:"id"`
		Name      string `db:"name"`
		Cost      int64  `db:"cost"`
	}
	if len(ids) > 0 {
		if err := tx.SelectContext(ctx, &items, `SELECT expense_id, id, name, cost FROM expense_items
			WHERE expense_id = ANY($1) ORDER BY position, id`, pq.Array(ids)); err != nil {
			return nil, err
		}
	}
	places := map[string]planner.Place{}
	if len(placeIDs) > 0 {
		var ps []placeRow
		if err := tx.SelectContext(ctx, &ps, `SELECT `+placeColumns+` FROM places p WHERE p.id = ANY($1)`, pq.Array(placeIDs)); err != nil {
			return nil, err
		}
		for _, p := range ps {
			places[p.ID] = p.place()
		}
	}
	byID := map[string][]planner.ExpenseItem{}
	for _, it := range items {
		byID[it.ExpenseID] = append(byID[it.ExpenseID], planner.ExpenseItem{ID: it.ID, Name: it.Name, Cost: it.Cost})
	}
	out := make([]placedExpense, len(rows))
	for i, r := range rows {
		e := planner.Expense{ID: r.ID, Kind: planner.ExpenseKind(r.Kind), Items: byID[r.ID], Terms: r.terms(r.PlanCurrency), PlanCurrency: r.PlanCurrency, Version: r.Version}
		if e.Items == nil {
			e.Items = []planner.ExpenseItem{}
		}
		if r.CandidateID != "" {
			p := places[r.PlaceID]
			e.Block = &planner.ExpenseOf{CandidateID: r.CandidateID, Name: p.Name, Place: p}
		}
		out[i] = placedExpense{Expense: e, row: r.expenseRow}
	}
	return out, nil
}

// DayExpenses lists a day's expenses as docs/API.md §Money groups them: the additional expenses at the
// day's start, then each time block (by time) with its candidates' expenses and the
// selected one's, followed by the additional expenses placed after it.
func (db *DB) DayExpenses(ctx context.Context, userID, planID string, day int) ([]planner.ExpenseGroup, error) {
	var out []planner.ExpenseGroup
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		_, d, err := planReaderDay(ctx, tx, planID, userID, day)
		if err != nil {
			return err
		}
		var blocks []dayBlock
		if err := tx.SelectContext(ctx, &blocks, `
			SELECT b.id, b.type, count(c.id) AS candidates, COALESCE(min(c.id) FILTER (WHERE c.selected), '') AS selected
			FROM time_blocks b LEFT JOIN candidates c ON c.time_block_id = b.id
			WHERE b.plan_day_id = $1 GROUP BY b.id ORDER BY min(b.start_time), min(b.end_time), b.id`, d.ID); err != nil {
			return err
		}
		// The day's expenses found through its own indexes (the additional ones by day, the
		// candidates' through the day's blocks), not by filtering every expense of the plan.
		expenses, err := expensesWithItems(ctx, tx, planID, `e.id IN (
			SELECT x.id FROM expenses x WHERE x.kind = 'ADDITIONAL' AND x.plan_day_id = $2
			UNION ALL
			SELECT x.id FROM time_blocks b JOIN candidates cc ON cc.time_block_id = b.id JOIN expenses x ON x.candidate_id = cc.id
			WHERE b.plan_day_id = $2)`, d.ID)
		if err != nil {
			return err
		}
		out = groupDay(blocks, expenses)
		return nil
	})
	return out, err
}

// dayBlock is a time block of a day, as its expenses are grouped under it: its candidates'
// count and the selected one's id ("" for none).
type dayBlock struct {
	ID       string `db:"id"`
	Type     string `db:"type"`
	Count    int    `db:"candidates"`
	Selected string `db:"selected"`
}

// groupDay groups a day's expenses as docs/API.md §Money does: the additional expenses at the day's start,
// then each of its blocks (in the order given: by time) with its candidates' expenses and the
// selected one's, followed by the additional expenses placed after it, each group's in the
// order given (expensesWithItems': by rank).
func groupDay(blocks []dayBlock, expenses []placedExpense) []planner.ExpenseGroup {
	after := map[string][]planner.Expense{}
	ofBlock := map[string][]planner.Expense{}
	for _, e := range expenses {
		if e.Kind == planner.ExpenseAdditional {
			after[e.row.AfterBlock] = append(after[e.row.AfterBlock], e.Expense)
		} else {
			ofBlock[e.row.TimeBlockID] = append(ofBlock[e.row.TimeBlockID], e.Expense)
		}
	}
	out := []planner.ExpenseGroup{}
	additional := func(key string) {
		for i := range after[key] {
			out = append(out, planner.ExpenseGroup{Kind: planner.ExpenseAdditional, Selected: &after[key][i]})
		}
	}
	additional("")
	for _, b := range blocks {
		tb := planner.TimeBlock{Type: planner.BlockType(b.Type), Candidates: make([]planner.Candidate, b.Count)}
		if b.Selected != "" && b.Count > 0 {
			tb.Candidates[0].Selected = true
		}
		g := planner.ExpenseGroup{Kind: planner.ExpenseBlock, TimeBlockID: b.ID, Status: tb.Status(), Candidates: ofBlock[b.ID]}
		if g.Candidates == nil {
			g.Candidates = []planner.Expense{}
		}
		for i := range g.Candidates {
			if g.Candidates[i].Block.CandidateID == b.Selected {
				g.Selected = &g.Candidates[i]
			}
		}
		out = append(out, g)
		additional(b.ID)
	}
	return out
}
