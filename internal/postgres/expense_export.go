package postgres

import (
	"context"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/planner"
)

// ExpenseSheet loads what a plan's expenses.csv lists, for someone who may read the plan, in a
// fixed number of statements whatever its size: the membership check, the title, the days,
// the members, the time blocks, the costs (the budget's, planCosts — kept while the plan is
// unchanged, readerCosts — of which planner.Counted keeps the ones that count) and the expenses with their items and places. The expenses are in
// the order of the days' expenses (groupDay): by day, additional ones at a day's start first,
// then each block by time followed by those placed after it; a block's is the one its budget
// counts.
func (db *DB) ExpenseSheet(ctx context.Context, viewer, planID string) (*planner.ExpenseSheet, error) {
	out := &planner.ExpenseSheet{Nicknames: map[string]string{}}
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		me, costs, err := db.readerCosts(ctx, tx, planID, viewer)
		if err != nil {
			return err
		}
		out.Currency = me.Currency
		if err := tx.GetContext(ctx, &out.Title, `SELECT title FROM plans WHERE id = $1`, planID); err != nil {
			return err
		}
		var days []struct {
			ID  string `db:"id"`
			Day int    `db:"day"`
		}
		if err := tx.SelectContext(ctx, &days, `SELECT id, day FROM plan_days WHERE plan_id = $1 ORDER BY day`, planID); err != nil {
			return err
		}
		var members []struct {
			ID       string `db:"id"`
			Nickname string `db:"nickname"`
			Active   bool   `db:"active"`
		}
		if err := tx.SelectContext(ctx, &members, `
			SELECT id, nickname, left_at IS NULL AS active FROM plan_members WHERE plan_id = $1 ORDER BY joined_at, id`, planID); err != nil {
			return err
		}
		for _, m := range members {
			out.Nicknames[m.ID] = m.Nickname
			if m.Active {
				out.Active = append(out.Active, m.ID)
			}
		}
		var blocks []struct {
			dayBlock
			DayID string  `db:"plan_day_id"`
			Start sqlTime `db:"start_time"`
			End   sqlTime `db:"end_time"`
		}
		if err := tx.SelectContext(ctx, &blocks, `
			SELECT b.id, b.type, count(c.id) AS candidates, COALESCE(min(c.id) FILTER (WHERE c.selected), '') AS selected,
			       b.plan_day_id, b.start_time, b.end_time
			FROM time_blocks b LEFT JOIN candidates c ON c.time_block_id = b.id
			WHERE b.plan_id = $1 GROUP BY b.id ORDER BY b.start_time, b.end_time, b.id`, planID); err != nil {
			return err
		}
		converted := map[string]int64{} // counted expense id → its total in the plan's currency
		for _, c := range planner.Counted(costs, me.Currency) {
			converted[c.ExpenseID] = c.Converted
		}
		expenses, err := expensesWithItems(ctx, tx, planID, `e.plan_id = $2`, planID)
		if err != nil {
			return err
		}

		dayBlocks := map[string][]dayBlock{}
		blockDay, times := map[string]string{}, map[string][2]planner.TimeOfDay{}
		for _, b := range blocks {
			dayBlocks[b.DayID] = append(dayBlocks[b.DayID], b.dayBlock)
			blockDay[b.ID] = b.DayID
			times[b.ID] = [2]planner.TimeOfDay{planner.TimeOfDay(b.Start), planner.TimeOfDay(b.End)}
		}
		dayExpenses := map[string][]placedExpense{}
		for _, e := range expenses {
			day := e.row.PlanDayID
			if e.Kind == planner.ExpenseBlock {
				day = blockDay[e.row.TimeBlockID]
			}
			dayExpenses[day] = append(dayExpenses[day], e)
		}
		for _, d := range days {
			for _, g := range groupDay(dayBlocks[d.ID], dayExpenses[d.ID]) {
				for _, e := range g.Candidates {
					if total, ok := converted[e.ID]; ok {
						t := times[g.TimeBlockID]
						out.Rows = append(out.Rows, planner.SheetExpense{Day: d.Day, Start: t[0], End: t[1], Expense: e, Converted: total})
					}
				}
				if g.Kind == planner.ExpenseAdditional {
					if total, ok := converted[g.Selected.ID]; ok {
						out.Rows = append(out.Rows, planner.SheetExpense{Day: d.Day, Expense: *g.Selected, Converted: total})
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
