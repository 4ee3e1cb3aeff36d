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
// history. The answer is the day with all its blocks now, and its undo: the named blocks at
// the times they had, against the versions written now (read under the same lock, so no
// other change slips between). Checks, in order: GUEST_FORBIDDEN,
// PLAN_NOT_FOUND, FORBIDDEN_NOT_MEMBER, PLAN_DAY_NOT_FOUND, BLOCK_NOT_FOUND (a block not of
// that day), PRECONDITION_FAILED (the first block whose version differs, as it is now),
// TIME_BLOCK_OVERLAP when the new times overlap each other or the day's other blocks.
func (db *DB) ArrangeDay(ctx context.Context, userID, planID string, day int, blocks []planner.Arranged) (*planner.DayBlocks, []planner.Arranged, error) {
	var out *planner.DayBlocks
	var undo []planner.Arranged
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
		undo = make([]planner.Arranged, 0, len(blocks))
		for _, b := range blocks {
			i, ok := was[b.TimeBlockID]
			if !ok {
				return blockNotFound()
			}
			l := locked[i]
			undo = append(undo, planner.Arranged{TimeBlockID: l.ID, Version: l.Version + 1, Start: planner.TimeOfDay(l.Start), End: planner.TimeOfDay(l.End)})
			if l.Version != b.Version {
				now, err := loadTimeBlock(ctx, tx, planID, me.ID, b.TimeBlockID)
				if err != nil {
					return err
				}
				return planner.Stale("A block of the day was changed since you read it; nothing was changed. current holds it as it is now.", now)
			}
		}
		// Before the blocks move: the expenses after a moving block go after the nearest
		// earlier block that stays, in the order they were, following what is there already.
		if _, err := tx.ExecContext(ctx, `
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
			    SELECT src.id, src.target,
			           (SELECT COALESCE(max(y.rank), 0) FROM expenses y
			            WHERE y.kind = 'ADDITIONAL' AND y.plan_day_id = $1 AND y.after_time_block_id IS NOT DISTINCT FROM src.target)
			           + row_number() OVER (PARTITION BY src.target ORDER BY src.start_time, src.end_time, src.block_id, src.rank, src.id) AS r
			    FROM src)
			UPDATE expenses e SET after_time_block_id = ranked.target, rank = ranked.r, updated_at = now()
			FROM ranked WHERE e.id = ranked.id`,
			dayRow.ID, pq.Array(ids), pq.Array(starts), pq.Array(ends)); err != nil {
			return err
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
		return nil, nil, err
	}
	return out, undo, nil
}
