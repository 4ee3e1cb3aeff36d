package postgres

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"tripplan/internal/paths"
	"tripplan/internal/planner"
)

// ArrangeDay gives several time blocks of one day new times at once (optimising the day, and
// its undo), each against the version it was read at: one UPDATE, so the deferrable
// time_blocks_no_overlap is checked when every block is in its new place and blocks may trade
// slots. Every named block counts a new version. The additional expenses placed after a block
// that moves stay where they were in the day: they go after the nearest earlier block that
// does not move (or to the day's start), as a single move does. Recorded once in the plan's
// history. in.Expenses (an undo's) then go after the blocks they name, in their order after
// those already there. The answer is the day with all its blocks now, and its undo: the named
// blocks at the times they had, against the versions written now, and the expenses this
// moved back after the blocks they followed (read under the same lock, so no other change
// slips between). Checks, in order: GUEST_FORBIDDEN, PLAN_NOT_FOUND, FORBIDDEN_NOT_MEMBER,
// PLAN_DAY_NOT_FOUND, BLOCK_NOT_FOUND (a block not of that day), PRECONDITION_FAILED (the
// first block whose version differs, as it is now), BLOCK_NOT_FOUND / EXPENSE_NOT_FOUND for an
// expense to put back (its block, or itself, not an additional one of that day),
// TIME_BLOCK_OVERLAP when the new times overlap each other or the day's other blocks.
func (db *DB) ArrangeDay(ctx context.Context, userID, planID string, day int, in planner.Arrangement) (*planner.DayBlocks, planner.Arrangement, error) {
	var out *planner.DayBlocks
	var undo planner.Arrangement
	blocks := in.Blocks
	err := db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		var dayRow struct {
			ID string `db:"id"`
			planner.DayInfo
		}
		if err := tx.GetContext(ctx, &dayRow, `SELECT id, day, date FROM plan_days WHERE plan_id = $1 AND day = $2`, planID, day); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return planner.Errorf(planner.CodePlanDayNotFound, "The plan has no day %d.", day)
			}
			return err
		}
		ids := make([]string, len(blocks))
		starts := make([]string, len(blocks))
		ends := make([]string, len(blocks))
		hms := func(t planner.TimeOfDay) string { return strings.TrimSuffix(t.String(), "Z") }
		for i, b := range blocks {
			ids[i], starts[i], ends[i] = b.TimeBlockID, hms(b.Start), hms(b.End)
		}
		// The day's blocks are locked, so that arrangements and moves of the day apply one
		// after the other and the versions compared are those written.
		var locked []struct {
			ID      string  `db:"id"`
			Version int     `db:"version"`
			Start   sqlTime `db:"start_time"`
			End     sqlTime `db:"end_time"`
		}
		if err := tx.SelectContext(ctx, &locked, `
			SELECT id, version, start_time, end_time FROM time_blocks WHERE plan_day_id = $1 ORDER BY id FOR UPDATE`, dayRow.ID); err != nil {
			return err
		}
		was := make(map[string]int, len(locked))
		for i, l := range locked {
			was[l.ID] = i
		}
		undo.Blocks = make([]planner.Arranged, 0, len(blocks))
		for _, b := range blocks {
			i, ok := was[b.TimeBlockID]
			if !ok {
				return blockNotFound()
			}
			l := locked[i]
			undo.Blocks = append(undo.Blocks, planner.Arranged{TimeBlockID: l.ID, Version: l.Version + 1, Start: planner.TimeOfDay(l.Start), End: planner.TimeOfDay(l.End)})
			if l.Version != b.Version {
				now, err := loadTimeBlock(ctx, tx, planID, me.ID, b.TimeBlockID)
				if err != nil {
					return err
				}
				return planner.Stale("A block of the day was changed since you read it; nothing was changed. current holds it as it is now.", now)
			}
		}
		var put []string
		for _, e := range in.Expenses {
			if _, ok := was[e.AfterTimeBlockID]; e.AfterTimeBlockID != "" && !ok {
				return blockNotFound()
			}
			put = append(put, e.ExpenseID)
		}
		if len(put) > 0 {
			var n int
			if err := tx.GetContext(ctx, &n, `
				SELECT count(*) FROM expenses WHERE id = ANY($2) AND kind = 'ADDITIONAL' AND plan_day_id = $1`,
				dayRow.ID, pq.Array(put)); err != nil {
				return err
			}
			if n != len(put) {
				return planner.Errorf(planner.CodeExpenseNotFound, "An expense to put back is not an additional expense of day %d.", day)
			}
		}
		// Before the blocks move: the expenses after a moving block go after the nearest
		// earlier block that stays, in the order they were, following what is there already.
		// Where they were is the undo's.
		var movedBack []struct {
			ID    string `db:"id"`
			After string `db:"after"`
		}
		if err := tx.SelectContext(ctx, &movedBack, `
			WITH moving AS (
			    SELECT u.id FROM unnest($2::text[], $3::time[], $4::time[]) AS u(id, s, e)
			    JOIN time_blocks b ON b.id = u.id WHERE (b.start_time, b.end_time) <> (u.s, u.e)),
			src AS (
			    SELECT x.id, x.rank, b.start_time, b.end_time, b.id AS block_id,
			           (SELECT p.id FROM time_blocks p
			            WHERE p.plan_day_id = $1 AND p.id NOT IN (SELECT id FROM moving)
			              AND (p.start_time, p.end_time, p.id) < (b.start_time, b.end_time, b.id)
			            ORDER BY p.start_time DESC, p.end_time DESC, p.id DESC LIMIT 1) AS target
			    FROM expenses x JOIN time_blocks b ON b.id = x.after_time_block_id
			    WHERE b.id IN (SELECT id FROM moving)),
			ranked AS (
			    SELECT src.id, src.target, src.block_id, src.start_time, src.end_time, src.rank AS was_rank,
			           (SELECT COALESCE(max(y.rank), 0) FROM expenses y
			            WHERE y.kind = 'ADDITIONAL' AND y.plan_day_id = $1 AND y.after_time_block_id IS NOT DISTINCT FROM src.target)
			           + row_number() OVER (PARTITION BY src.target ORDER BY src.start_time, src.end_time, src.block_id, src.rank, src.id) AS r
			    FROM src),
			moved AS (
			    UPDATE expenses e SET after_time_block_id = ranked.target, rank = ranked.r, updated_at = now()
			    FROM ranked WHERE e.id = ranked.id
			    RETURNING e.id, ranked.block_id, ranked.start_time, ranked.end_time, ranked.was_rank)
			SELECT id, block_id AS after FROM moved ORDER BY start_time, end_time, block_id, was_rank, id`,
			dayRow.ID, pq.Array(ids), pq.Array(starts), pq.Array(ends)); err != nil {
			return err
		}
		for _, m := range movedBack {
			undo.Expenses = append(undo.Expenses, planner.ExpensePlace{ExpenseID: m.ID, AfterTimeBlockID: m.After})
		}
		_, err = tx.ExecContext(ctx, `
			UPDATE time_blocks b SET start_time = u.s, end_time = u.e, version = b.version + 1, updated_at = now()
			FROM unnest($2::text[], $3::time[], $4::time[]) AS u(id, s, e)
			WHERE b.id = u.id AND b.plan_day_id = $1`,
			dayRow.ID, pq.Array(ids), pq.Array(starts), pq.Array(ends))
		var pqErr *pq.Error
		if errors.As(err, &pqErr) && pqErr.Constraint == "time_blocks_no_overlap" {
			return planner.Errorf(planner.CodeTimeBlockOverlap, "The new times overlap each other or another block of the day.")
		}
		if err != nil {
			return err
		}
		if err := placeExpenses(ctx, tx, dayRow.ID, in.Expenses); err != nil {
			return err
		}
		var rows []timeBlockRow
		if err := tx.SelectContext(ctx, &rows, `SELECT `+timeBlockColumns+timeBlockFrom+`
			WHERE b.plan_day_id = $1 ORDER BY b.start_time, b.end_time, b.id`, dayRow.ID); err != nil {
			return err
		}
		all, err := withCandidates(ctx, tx, me.ID, rows, dayRow.ID)
		if err != nil {
			return err
		}
		out = &planner.DayBlocks{Info: dayRow.DayInfo, Blocks: all}
		return db.record(ctx, tx, planDid(planID, userID, planner.ActDayOptimised, planner.TargetPlan, planID, planner.Details{Day: day}).
			toOthers(paths.Day(planID, day), ""))
	})
	if err != nil {
		return nil, planner.Arrangement{}, err
	}
	return out, undo, nil
}

// placeExpenses puts additional expenses of a day (planDayID) after the blocks the places
// name (or at the day's start), in the places' order after those already there: one
// statement whatever their number.
func placeExpenses(ctx context.Context, tx *sqlx.Tx, planDayID string, places []planner.ExpensePlace) error {
	if len(places) == 0 {
		return nil
	}
	ids, after := make([]string, len(places)), make([]string, len(places))
	for i, p := range places {
		ids[i], after[i] = p.ExpenseID, p.AfterTimeBlockID
	}
	_, err := tx.ExecContext(ctx, `
		WITH placed AS (
		    SELECT u.id, NULLIF(u.after, '') AS after, u.n FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS u(id, after, n)),
		bases AS (
		    SELECT t.after, (SELECT COALESCE(max(e.rank), 0) FROM expenses e
		                     WHERE e.kind = 'ADDITIONAL' AND e.plan_day_id = $1
		                       AND e.after_time_block_id IS NOT DISTINCT FROM t.after
		                       AND e.id NOT IN (SELECT id FROM placed)) AS r
		    FROM (SELECT DISTINCT after FROM placed) t),
		ranked AS (
		    SELECT p.id, p.after, b.r + row_number() OVER (PARTITION BY p.after ORDER BY p.n) AS r
		    FROM placed p JOIN bases b ON b.after IS NOT DISTINCT FROM p.after)
		UPDATE expenses e SET after_time_block_id = ranked.after, rank = ranked.r, updated_at = now()
		FROM ranked WHERE e.id = ranked.id AND e.plan_day_id = $1`,
		planDayID, pq.Array(ids), pq.Array(after))
	return err
}
