package postgres_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"tripplan/internal/planner"
	"tripplan/internal/postgres/pgtest"
)

// TestArrangeDay: blocks of a day trade slots in one change (the deferrable exclusion
// constraint checks the day once every block is in place), each counting a version; a stale
// version, a block of another day or an overlap change nothing; the expenses after a block
// that moves stay where they were in the day; it is recorded once.
func TestArrangeDay(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	ctx := t.Context()
	a := f.block(t, 1, 0, "09:00", "10:00")
	b := f.block(t, 1, 1, "10:30", "11:30")
	c := f.block(t, 1, 2, "12:00", "13:00")
	other := f.block(t, 2, 3, "09:00", "10:00")
	dayOne := f.dayID(t, 1)
	afterB := f.expense(t, dayOne, b.ID)
	otherDays := f.expense(t, f.dayID(t, 2), other.ID)
	slots := func() map[string]string {
		var rows []struct{ ID, Slot string }
		if err := db.Select(&rows, `SELECT id, start_time::text || '-' || end_time::text AS slot FROM time_blocks WHERE plan_id = $1`, f.plan.ID); err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, r := range rows {
			out[r.ID] = r.Slot
		}
		return out
	}
	same := func(x, y map[string]string) bool {
		if len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if y[k] != v {
				return false
			}
		}
		return true
	}
	at := func(tb *planner.TimeBlock, version int, start, end string) planner.Arranged {
		return planner.Arranged{TimeBlockID: tb.ID, Version: version, Start: clockOf(start), End: clockOf(end)}
	}
	before := slots()

	// Refused: a stale version, a block of another day, times overlapping a block that stays.
	for _, tc := range []struct {
		what     string
		blocks   []planner.Arranged
		expenses []planner.ExpensePlace
		code     planner.Code
	}{
		{"stale", []planner.Arranged{at(a, a.Version, "10:30", "11:30"), at(b, b.Version+1, "09:00", "10:00")}, nil, planner.CodePreconditionFailed},
		{"another day", []planner.Arranged{at(a, a.Version, "10:30", "11:30"), at(other, other.Version, "09:00", "10:00")}, nil, planner.CodeBlockNotFound},
		{"overlap", []planner.Arranged{at(a, a.Version, "11:00", "12:30")}, nil, planner.CodeTimeBlockOverlap},
		{"an expense put after another day's block", []planner.Arranged{at(a, a.Version, "10:30", "11:30"), at(b, b.Version, "09:00", "10:00")},
			[]planner.ExpensePlace{{ExpenseID: afterB, AfterTimeBlockID: other.ID}}, planner.CodeBlockNotFound},
		{"another day's expense", []planner.Arranged{at(a, a.Version, "10:30", "11:30"), at(b, b.Version, "09:00", "10:00")},
			[]planner.ExpensePlace{{ExpenseID: otherDays, AfterTimeBlockID: a.ID}}, planner.CodeExpenseNotFound},
	} {
		_, _, err := db.ArrangeDay(ctx, f.member, f.plan.ID, 1, planner.Arrangement{Blocks: tc.blocks, Expenses: tc.expenses})
		wantCode(t, tc.what, err, tc.code)
		if now := slots(); !same(before, now) {
			t.Fatalf("%s: the day changed from %v to %v", tc.what, before, now)
		}
	}
	_, _, err := db.ArrangeDay(ctx, f.stranger, f.plan.ID, 1, planner.Arrangement{Blocks: []planner.Arranged{at(a, a.Version, "10:30", "11:30")}})
	wantCode(t, "stranger", err, planner.CodeForbiddenNotMember)
	_, _, err = db.ArrangeDay(ctx, f.member, f.plan.ID, 9, planner.Arrangement{Blocks: []planner.Arranged{at(a, a.Version, "10:30", "11:30")}})
	wantCode(t, "no such day", err, planner.CodePlanDayNotFound)

	// a and b trade slots (each takes the other's: one at a time, either would overlap).
	day, undo, err := db.ArrangeDay(ctx, f.member, f.plan.ID, 1, planner.Arrangement{Blocks: []planner.Arranged{at(a, a.Version, "10:30", "11:30"), at(b, b.Version, "09:00", "10:00")}})
	if err != nil {
		t.Fatal(err)
	}
	// The undo puts each named block back where it was, against the version written now, and
	// the expense that followed b back after it.
	if diff := cmp.Diff(planner.Arrangement{Blocks: []planner.Arranged{at(a, 2, "09:00", "10:00"), at(b, 2, "10:30", "11:30")},
		Expenses: []planner.ExpensePlace{{ExpenseID: afterB, AfterTimeBlockID: b.ID}}}, undo); diff != "" {
		t.Errorf("the undo (-want +got):\n%s", diff)
	}
	var order []string
	for _, tb := range day.Blocks {
		order = append(order, tb.ID)
		want := 1
		if tb.ID == a.ID || tb.ID == b.ID {
			want = 2
		}
		if tb.Version != want {
			t.Errorf("%s at version %d, want %d", tb.ID, tb.Version, want)
		}
	}
	type dayOrder struct {
		Day   int
		Order []string
	}
	if diff := cmp.Diff(dayOrder{Day: 1, Order: []string{b.ID, a.ID, c.ID}}, dayOrder{Day: day.Info.Day, Order: order}); diff != "" {
		t.Errorf("the optimised day (-want +got):\n%s", diff)
	}
	// The expense after b stays where it was in the day: after the block before b's old
	// place that stays (none: the day's start).
	var after *string
	mustGet(t, db, &after, `SELECT after_time_block_id FROM expenses WHERE id = $1`, afterB)
	if after != nil {
		t.Errorf("the expense after b went after %s, want the day's start", *after)
	}
	var n int
	mustGet(t, db, &n, `SELECT count(*) FROM activities WHERE plan_id = $1 AND kind = 'DAY_OPTIMISED' AND details->>'day' = '1'`, f.plan.ID)
	if n != 1 {
		t.Errorf("%d DAY_OPTIMISED entries, want 1", n)
	}

	// Undo: the old slots against the new versions, and the expense after b again.
	if _, _, err := db.ArrangeDay(ctx, f.owner, f.plan.ID, 1, undo); err != nil {
		t.Fatal(err)
	}
	if now := slots(); !same(before, now) {
		t.Errorf("undone, the day is %v, want %v", now, before)
	}
	mustGet(t, db, &after, `SELECT after_time_block_id FROM expenses WHERE id = $1`, afterB)
	if after == nil || *after != b.ID {
		t.Errorf("undone, the expense after b is after %v, want b", after)
	}
}

// TestRestoreASnapshotFromBeforeFixedTime: a block deleted before migration 00035 (its
// snapshot has no fixed_time) is put back, not fixed.
func TestRestoreASnapshotFromBeforeFixedTime(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	ctx := t.Context()
	tb := f.block(t, 1, 0, "09:00", "10:00")
	del := must(db.DeleteTimeBlock(ctx, f.member, f.plan.ID, tb.ID, planner.AnyVersion))
	db.MustExec(`UPDATE deleted_time_blocks SET snapshot = snapshot #- '{block,fixed_time}' WHERE id = $1`, del.ID)
	back, err := db.RestoreTimeBlock(ctx, f.member, f.plan.ID, del.ID)
	if err != nil || back.ID != tb.ID || back.FixedTime {
		t.Fatalf("restored %+v, %v; want the block back, not fixed", back, err)
	}
}
