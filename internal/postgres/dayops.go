package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/paths"
	"tripplan/internal/planner"
)

// Day operations (issue 24): copying a time block to a day and time, and swapping two days.

// CopyTimeBlock adds a copy of a time block of the plan at to (see planner.BlockCopy for its
// defaults): a new time block of the same type holding the same candidates in the same order —
// each the same place from the same collection place, with its memo, its proposer and whether
// it is selected, so a confirmed block stays confirmed. Opinions and expenses stay with the
// original: each copied place starts with an empty expense, and so does the fixed-time mark (a
// reservation holds the original's time, not the copy's). Recorded as an added block.
// Checks, in order: GUEST_FORBIDDEN, PLAN_NOT_FOUND, FORBIDDEN_NOT_MEMBER, BLOCK_NOT_FOUND,
// PLAN_DAY_NOT_FOUND, then TIME_BLOCK_EXACT_DUPLICATE or TIME_BLOCK_OVERLAP (decided by the
// exclusion constraint, so of two copies into one time exactly one is made); the same when no
// free time of the block's length is left for a copy without times.
func (db *DB) CopyTimeBlock(ctx context.Context, userID, planID, timeBlockID string, to planner.BlockCopy) (*planner.TimeBlock, error) {
	var out *planner.TimeBlock
	err := db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		// Locked so that the candidates read are those of one version of the block.
		if _, _, err := lockTimeBlock(ctx, tx, planID, me.ID, timeBlockID, planner.AnyVersion); err != nil {
			return err
		}
		src, err := loadTimeBlock(ctx, tx, planID, me.ID, timeBlockID)
		if err != nil {
			return err
		}
		slot := planner.Slot{Day: src.Day.Day, Start: src.Start, End: src.End}
		if to.Day != nil {
			slot.Day = *to.Day
		}
		dayID, err := planDayID(ctx, tx, planID, slot.Day)
		if err != nil {
			return err
		}
		if to.Start != nil {
			slot.Start, slot.End = *to.Start, *to.End
		} else {
			from := src.Start
			if slot.Day == src.Day.Day {
				from = src.End
			}
			if slot.Start, err = nextFreeStart(ctx, tx, dayID, from, src.End-src.Start); err != nil {
				return err
			}
			slot.End = slot.Start + (src.End - src.Start)
		}
		id := planner.NewID()
		err = placeTimeBlock(ctx, tx, dayID, "", slot.Start, slot.End, func() error {
			_, err := tx.ExecContext(ctx, `
				INSERT INTO time_blocks (id, plan_id, plan_day_id, type, start_time, end_time) VALUES ($1, $2, $3, $4, $5, $6)`,
				id, planID, dayID, src.Type, sqlTime(slot.Start), sqlTime(slot.End))
			return err
		})
		if err != nil {
			return err
		}
		cs := make([]newCandidate, len(src.Candidates))
		for i, c := range src.Candidates {
			cs[i] = newCandidate{collectionPlaceID: c.CollectionPlaceID, memo: c.Memo, selected: c.Selected, addedBy: c.AddedBy.ID}
			if c.Place != nil {
				cs[i].placeID = c.Place.ID
			}
		}
		out, err = db.fillNewBlock(ctx, tx, planID, userID, me.ID, id, slot.Day, cs)
		return err
	})
	return out, err
}

// planDayID is the id of a day of the plan: PLAN_DAY_NOT_FOUND when the plan has no such day.
func planDayID(ctx context.Context, tx *sqlx.Tx, planID string, day int) (string, error) {
	var id string
	err := tx.GetContext(ctx, &id, `SELECT id FROM plan_days WHERE plan_id = $1 AND day = $2`, planID, day)
	if errors.Is(err, sql.ErrNoRows) {
		return "", planner.Errorf(planner.CodePlanDayNotFound, "The plan has no day %d.", day)
	}
	return id, err
}

// nextFreeStart is the earliest start at or after from where a block of length fits among the
// day's blocks and ends before 24:00 (conflictErr's next_free_start): TIME_BLOCK_OVERLAP when
// none does. The insert that follows is still checked by the exclusion constraint, which
// decides between concurrent writers.
func nextFreeStart(ctx context.Context, tx *sqlx.Tx, dayID string, from planner.TimeOfDay, length planner.TimeOfDay) (planner.TimeOfDay, error) {
	var next sql.NullString
	err := tx.GetContext(ctx, &next, `
		WITH others AS (SELECT start_time, end_time FROM time_blocks WHERE plan_day_id = $1)
		SELECT min(c.s)::text
		FROM (SELECT $2::time AS s UNION SELECT end_time FROM others WHERE end_time > $2) c
		WHERE (c.s - time '00:00') + $3::interval < interval '24 hours'
		  AND NOT EXISTS (SELECT 1 FROM others x WHERE x.start_time < c.s + $3::interval AND x.end_time > c.s)`,
		dayID, sqlTime(from), fmt.Sprintf("%d seconds", int64(time.Duration(length)/time.Second)))
	if err != nil {
		return 0, err
	}
	if !next.Valid {
		return 0, planner.Errorf(planner.CodeTimeBlockOverlap, "No free time of the block's length is left on that day after %s.", from.HHMM())
	}
	t, err := planner.ParseTimeOfDay(next.String)
	if err != nil {
		return 0, fmt.Errorf("next free start %q: %w", next.String, err)
	}
	return t, nil
}

// SwapDays swaps the time blocks of two days of the plan, in one transaction: every block of
// day a goes to day b at the same time and every block of day b to day a (one statement, so
// the deferrable time_blocks_no_overlap is checked once both days are whole), each counting a
// new version. The additional expenses of the two days go with them: those after a block
// follow it (their foreign key cascades the day), those at a day's start go to the other day's
// start. Recorded in the plan's history. Swapping them again undoes it. Checks, in order:
// GUEST_FORBIDDEN, PLAN_NOT_FOUND, FORBIDDEN_NOT_MEMBER, INVALID_REQUEST (a day with itself),
// PLAN_DAY_NOT_FOUND for a, INVALID_REQUEST on the field "with" for a b the plan does not have.
func (db *DB) SwapDays(ctx context.Context, userID, planID string, a, b int) (*planner.DaySwap, error) {
	var out planner.DaySwap
	err := db.planTx(ctx, planID, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		var v planner.Validation
		if a == b {
			v.Add("with", "must be another day than the one swapped")
			return v.Err()
		}
		// The two days are locked, so swaps of the same day apply one after the other.
		var days []struct {
			ID string `db:"id"`
			planner.DayInfo
		}
		if err := tx.SelectContext(ctx, &days, `
			SELECT id, day, date FROM plan_days WHERE plan_id = $1 AND day IN ($2, $3)
			ORDER BY day = $2 DESC FOR UPDATE`, planID, a, b); err != nil {
			return err
		}
		switch {
		case len(days) == 0 || days[0].Day != a:
			return planner.Errorf(planner.CodePlanDayNotFound, "The plan has no day %d.", a)
		case len(days) == 1:
			v.Add("with", "must be a day of the plan")
			return v.Err()
		}
		idA, idB := days[0].ID, days[1].ID
		if _, err := tx.ExecContext(ctx, `
			UPDATE time_blocks SET plan_day_id = CASE WHEN plan_day_id = $1 THEN $2 ELSE $1 END,
			       version = version + 1, updated_at = now()
			WHERE plan_day_id IN ($1, $2)`, idA, idB); err != nil {
			return err
		}
		// Those after a block have their new day already (ON UPDATE CASCADE); the rest start
		// the other day.
		if _, err := tx.ExecContext(ctx, `
			UPDATE expenses SET plan_day_id = CASE WHEN after_time_block_id IS NOT NULL THEN plan_day_id
			                                       WHEN plan_day_id = $1 THEN $2 ELSE $1 END,
			       version = version + 1, updated_at = now()
			WHERE kind = 'ADDITIONAL' AND plan_day_id IN ($1, $2)`, idA, idB); err != nil {
			return err
		}
		var rows []timeBlockRow
		if err := tx.SelectContext(ctx, &rows, `SELECT `+timeBlockColumns+timeBlockFrom+`
			WHERE b.plan_day_id IN ($1, $2)
			ORDER BY b.start_time, b.end_time, b.id`, idA, idB); err != nil {
			return err
		}
		blocks, err := withCandidates(ctx, tx, me.ID, rows, "")
		if err != nil {
			return err
		}
		for i, d := range days {
			out.Days[i] = planner.DayBlocks{Info: d.DayInfo, Blocks: []planner.TimeBlock{}}
		}
		for _, tb := range blocks {
			i := 0
			if tb.Day.Day == b {
				i = 1
			}
			out.Days[i].Blocks = append(out.Days[i].Blocks, tb)
		}
		return db.record(ctx, tx, planDid(planID, userID, planner.ActDaysSwapped, planner.TargetPlan, planID, planner.Details{Day: a, FromDay: b}).
			toOthers(paths.Day(planID, a), ""))
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
