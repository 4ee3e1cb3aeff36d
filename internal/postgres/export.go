package postgres

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"

	"github.com/jmoiron/sqlx"

	"tripplan/internal/planner"
)

// PlanExport loads everything in a plan for someone who may read it, in one transaction and a
// fixed number of statements whatever the plan's size: the membership check, the plan, its
// days, its time blocks, their candidates and places, the opinions, the members, the linked
// collections (members only), the budget, and the expenses with their items and places.
func (db *DB) PlanExport(ctx context.Context, viewer, planID string) (*planner.PlanExport, error) {
	return db.planExport(ctx, viewer, planID, true)
}

// PlanSchedule loads what the calendar, the GPX and the print page show of a plan: the plan,
// its days and its time blocks with their candidates and places (PlanExport's first six
// statements); its Opinions, Members, Collections, Budget and Expenses are left empty.
func (db *DB) PlanSchedule(ctx context.Context, viewer, planID string) (*planner.PlanExport, error) {
	return db.planExport(ctx, viewer, planID, false)
}

func (db *DB) planExport(ctx context.Context, viewer, planID string, whole bool) (*planner.PlanExport, error) {
	out := &planner.PlanExport{}
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		me, err := planReader(ctx, tx, planID, viewer)
		if err != nil {
			return err
		}
		plan, err := getPlan(ctx, tx, planID)
		if err != nil {
			return err
		}
		out.Plan = *plan
		var days []struct {
			ID string `db:"id"`
			planner.DayInfo
		}
		if err := tx.SelectContext(ctx, &days, `SELECT id, day, date FROM plan_days WHERE plan_id = $1 ORDER BY day`, planID); err != nil {
			return err
		}
		dayOf := make(map[string]int, len(days))
		for _, d := range days {
			out.Days = append(out.Days, d.DayInfo)
			dayOf[d.ID] = d.Day
		}
		var rows []timeBlockRow
		if err := tx.SelectContext(ctx, &rows, `SELECT `+timeBlockColumns+timeBlockFrom+`
			WHERE b.plan_id = $1 ORDER BY d.day, b.start_time, b.end_time, b.id`, planID); err != nil {
			return err
		}
		if out.Blocks, err = withCandidates(ctx, tx, me.ID, rows, ""); err != nil || !whole {
			return err
		}
		if out.Opinions, err = selectOpinions(ctx, tx, `o.candidate_id IN (
			SELECT c.id FROM candidates c JOIN time_blocks b ON b.id = c.time_block_id WHERE b.plan_id = $1)`, planID); err != nil {
			return err
		}
		members, err := planKind.group(ctx, tx, planID, "")
		if err != nil {
			return err
		}
		out.Members = members.Members
		// A guest reads what the plan's guest routes show: not the linked collections, which
		// only members may browse.
		if me.Role != planner.RoleGuest {
			if out.Collections, err = selectPlanCollections(ctx, tx, `pc.plan_id = $1`, planID); err != nil {
				return err
			}
		}
		budget, err := loadBudget(ctx, tx, planID)
		if err != nil {
			return err
		}
		out.Budget = *budget
		expenses, err := expensesWithItems(ctx, tx, planID, `e.plan_id = $2`, planID)
		out.Placed = map[string]planner.Placement{}
		for _, e := range expenses {
			out.Expenses = append(out.Expenses, e.Expense)
			if e.row.PlanDayID != "" {
				out.Placed[e.ID] = planner.Placement{Day: dayOf[e.row.PlanDayID], AfterTimeBlockID: e.row.AfterBlock}
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CreateCalendarFeed gives the member a secret calendar feed of the plan, replacing the one
// they had (migration 00007); the token is returned once and stored as its SHA-256.
func (db *DB) CreateCalendarFeed(ctx context.Context, userID, planID string) (token string, err error) {
	token = newSecret()
	err = db.tx(ctx, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		hash := sha256.Sum256([]byte(token))
		_, err = tx.ExecContext(ctx, `
			INSERT INTO calendar_feeds (id, plan_id, member_id, token_hash) VALUES ($1, $2, $3, $4)
			ON CONFLICT ON CONSTRAINT calendar_feeds_one_per_member
			DO UPDATE SET token_hash = EXCLUDED.token_hash, created_at = now()`,
			planner.NewID(), planID, me.ID, hash[:])
		return err
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

// DeleteCalendarFeed revokes the member's calendar feed of the plan, if any.
func (db *DB) DeleteCalendarFeed(ctx context.Context, userID, planID string) error {
	return db.tx(ctx, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM calendar_feeds WHERE plan_id = $1 AND member_id = $2`, planID, me.ID)
		return err
	})
}

// HasCalendarFeed reports whether the member has a calendar feed of the plan.
func (db *DB) HasCalendarFeed(ctx context.Context, userID, planID string) (bool, error) {
	var has bool
	err := db.tx(ctx, func(tx *sqlx.Tx) error {
		me, err := planMember(ctx, tx, planID, userID)
		if err != nil {
			return err
		}
		return tx.GetContext(ctx, &has, `SELECT EXISTS (SELECT 1 FROM calendar_feeds WHERE plan_id = $1 AND member_id = $2)`, planID, me.ID)
	})
	return has, err
}

// CalendarFeed answers whose feed a token is: the member's user and the plan. A token that
// was never issued, was replaced or revoked, or whose member left since (or left and came
// back) is NOT_FOUND.
func (db *DB) CalendarFeed(ctx context.Context, token string) (userID, planID string, err error) {
	defer named(&err)
	hash := sha256.Sum256([]byte(token))
	var r struct {
		UserID string `db:"user_id"`
		PlanID string `db:"plan_id"`
	}
	err = db.GetContext(ctx, &r, `
		SELECT m.user_id, f.plan_id
		FROM calendar_feeds f JOIN plan_members m ON m.id = f.member_id
		WHERE f.token_hash = $1 AND m.left_at IS NULL AND f.created_at >= m.joined_at`, hash[:])
	if errors.Is(err, sql.ErrNoRows) {
		return "", "", planner.Errorf(planner.CodeNotFound, "This calendar link does not exist or was turned off.")
	}
	return r.UserID, r.PlanID, mapError(err)
}
