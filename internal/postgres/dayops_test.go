package postgres_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tripplan/internal/planner"
	"tripplan/internal/postgres/pgtest"
)

// places lists a block's candidates as what a copy must keep: place, collection place, memo,
// proposer and selection, in order.
func candidateFacts(b *planner.TimeBlock) []planner.Candidate {
	out := make([]planner.Candidate, len(b.Candidates))
	for i, c := range b.Candidates {
		out[i] = planner.Candidate{CollectionPlaceID: c.CollectionPlaceID, Memo: c.Memo, Selected: c.Selected, AddedBy: c.AddedBy}
		if c.Place != nil {
			out[i].Place = &planner.Place{ID: c.Place.ID}
		}
	}
	return out
}

func sameFacts(a, b []planner.Candidate) bool {
	return slices.EqualFunc(a, b, func(x, y planner.Candidate) bool {
		return x.CollectionPlaceID == y.CollectionPlaceID && x.Memo == y.Memo && x.Selected == y.Selected &&
			x.AddedBy == y.AddedBy && (x.Place == nil) == (y.Place == nil) && (x.Place == nil || x.Place.ID == y.Place.ID)
	})
}

func TestCopyTimeBlock(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	ctx := t.Context()
	members := memberIDs(t, db, f.plan.ID)
	orig := pendingBlock(t, f) // day 1, 10:00–12:00, three candidates
	memo := "book ahead"
	must(db.UpdateBlock(ctx, f.owner, f.plan.ID, orig.Candidates[0].ID, planner.BlockChange{Memo: &memo}, planner.AnyVersion))
	orig = must(db.ChangeSelection(ctx, f.member, f.plan.ID, orig.ID, orig.Candidates[1].ID, planner.AnyVersion))
	opine(t, db, orig.Candidates[0].ID, members[f.member], "POSITIVE", "")
	if _, err := db.Exec(`INSERT INTO expense_items (id, expense_id, name, cost, position)
		SELECT $1, id, 'Ticket', 1000, 0 FROM expenses WHERE candidate_id = $2`, planner.NewID(), orig.Candidates[0].ID); err != nil {
		t.Fatal(err)
	}
	if orig.Status() != planner.StatusFixed || orig.Candidates[0].Memo != memo {
		t.Fatalf("fixture: %s, memo %q", orig.Status(), orig.Candidates[0].Memo)
	}

	// A duplicate goes right after the block, then after the duplicate.
	dup := must(db.CopyTimeBlock(ctx, f.member, f.plan.ID, orig.ID, planner.BlockCopy{}))
	again := must(db.CopyTimeBlock(ctx, f.member, f.plan.ID, orig.ID, planner.BlockCopy{}))
	for _, tc := range []struct {
		b          *planner.TimeBlock
		start, end string
	}{{dup, "12:00", "14:00"}, {again, "14:00", "16:00"}} {
		if tc.b.Day.Day != 1 || tc.b.Start != clockOf(tc.start) || tc.b.End != clockOf(tc.end) || tc.b.ID == orig.ID {
			t.Errorf("duplicate at day %d %s–%s, want day 1 %s–%s", tc.b.Day.Day, tc.b.Start, tc.b.End, tc.start, tc.end)
		}
	}
	if !sameFacts(candidateFacts(dup), candidateFacts(orig)) || dup.Status() != planner.StatusFixed || dup.Type != orig.Type {
		t.Errorf("the copy's candidates %+v (%s), want %+v (%s)", candidateFacts(dup), dup.Status(), candidateFacts(orig), orig.Status())
	}
	for i, c := range dup.Candidates {
		if c.ID == orig.Candidates[i].ID || c.Opinions.Total != 0 {
			t.Errorf("copied candidate %d: id %s, %d opinions; want a new one without", i, c.ID, c.Opinions.Total)
		}
	}
	var copiedItems, copiedExpenses, origItems int
	mustGet(t, db, &copiedItems, `SELECT count(*) FROM expense_items i JOIN expenses e ON e.id = i.expense_id JOIN candidates c ON c.id = e.candidate_id WHERE c.time_block_id = $1`, dup.ID)
	mustGet(t, db, &copiedExpenses, `SELECT count(*) FROM expenses e JOIN candidates c ON c.id = e.candidate_id WHERE c.time_block_id = $1`, dup.ID)
	mustGet(t, db, &origItems, `SELECT count(*) FROM expense_items i JOIN expenses e ON e.id = i.expense_id WHERE e.candidate_id = $1`, orig.Candidates[0].ID)
	if copiedItems != 0 || copiedExpenses != 3 || origItems != 1 {
		t.Errorf("copy has %d expense items in %d expenses, the original %d items; want 0 in 3 (empty), 1", copiedItems, copiedExpenses, origItems)
	}

	// To another day: the same time when free; given times exactly, refused when taken.
	other := must(db.CopyTimeBlock(ctx, f.owner, f.plan.ID, orig.ID, planner.BlockCopy{Day: ptr(2)}))
	if other.Day.Day != 2 || other.Start != orig.Start || other.End != orig.End {
		t.Errorf("copy to day 2 at %d %s–%s, want its own time", other.Day.Day, other.Start, other.End)
	}
	at := func(d int, start, end string) planner.BlockCopy {
		s, e := clockOf(start), clockOf(end)
		return planner.BlockCopy{Day: ptr(d), Start: &s, End: &e}
	}
	_, err := db.CopyTimeBlock(ctx, f.owner, f.plan.ID, orig.ID, at(2, "10:00", "12:00"))
	var pe *planner.Error
	if wantCode(t, "exact duplicate", err, planner.CodeTimeBlockExactDuplicate); !asError(err, &pe) || pe.Extra["time_block_id"] != other.ID {
		t.Errorf("exact duplicate carries %+v, want %s", pe, other.ID)
	}
	_, err = db.CopyTimeBlock(ctx, f.owner, f.plan.ID, orig.ID, at(2, "11:00", "13:00"))
	wantCode(t, "overlap", err, planner.CodeTimeBlockOverlap)
	moved := must(db.CopyTimeBlock(ctx, f.owner, f.plan.ID, orig.ID, at(3, "18:00", "19:30")))
	if moved.Day.Day != 3 || moved.Start != clockOf("18:00") || moved.End != clockOf("19:30") {
		t.Errorf("copy at given times: day %d %s–%s", moved.Day.Day, moved.Start, moved.End)
	}
	// No room left for a block of 2 hours after 22:30.
	late := must(db.AddBlock(ctx, f.owner, f.plan.ID, planner.NewBlock{Type: planner.BlockFree, Slot: slot(3, "22:30", "23:00")}))
	_, err = db.CopyTimeBlock(ctx, f.owner, f.plan.ID, orig.ID, planner.BlockCopy{Day: ptr(3), Start: nil})
	if err != nil {
		t.Errorf("copy to day 3 with room at 10:00: %v", err)
	}
	_, err = db.CopyTimeBlock(ctx, f.owner, f.plan.ID, late.ID, planner.BlockCopy{})
	if err != nil {
		t.Errorf("a half hour fits at 23:00: %v", err)
	}
	_, err = db.CopyTimeBlock(ctx, f.owner, f.plan.ID, late.ID, planner.BlockCopy{})
	wantCode(t, "no room left", err, planner.CodeTimeBlockOverlap)

	// A free block's copy is free time with its memo.
	note := "rest"
	free := must(db.AddBlock(ctx, f.owner, f.plan.ID, planner.NewBlock{Type: planner.BlockFree, Slot: slot(2, "15:00", "16:00"), Memo: note}))
	freeCopy := must(db.CopyTimeBlock(ctx, f.member, f.plan.ID, free.ID, planner.BlockCopy{}))
	type freeShape struct {
		Type   planner.BlockType
		Status planner.BlockStatus
		Memos  []string
		Start  planner.TimeOfDay
	}
	gotFree := freeShape{Type: freeCopy.Type, Status: freeCopy.Status(), Start: freeCopy.Start}
	for _, c := range freeCopy.Candidates {
		gotFree.Memos = append(gotFree.Memos, c.Memo)
	}
	if diff := cmp.Diff(freeShape{Type: planner.BlockFree, Status: planner.StatusNothing, Memos: []string{note}, Start: clockOf("16:00")}, gotFree); diff != "" {
		t.Errorf("free copy (-want +got):\n%s", diff)
	}

	for _, tc := range []struct {
		name, user, plan, block string
		to                      planner.BlockCopy
		want                    planner.Code
	}{
		{"guest", planner.GuestViewer(&planner.ShareLink{Type: planner.SharePlan, ReferenceID: f.plan.ID, ID: planner.NewID()}), f.plan.ID, orig.ID, planner.BlockCopy{}, planner.CodeGuestForbidden},
		{"unknown plan", f.owner, planner.NewID(), orig.ID, planner.BlockCopy{}, planner.CodePlanNotFound},
		{"not a member", f.stranger, f.plan.ID, orig.ID, planner.BlockCopy{}, planner.CodeForbiddenNotMember},
		{"unknown block", f.member, f.plan.ID, planner.NewID(), planner.BlockCopy{}, planner.CodeBlockNotFound},
		{"a candidate's id", f.member, f.plan.ID, orig.Candidates[0].ID, planner.BlockCopy{}, planner.CodeBlockNotFound},
		{"no such day", f.member, f.plan.ID, orig.ID, planner.BlockCopy{Day: ptr(4)}, planner.CodePlanDayNotFound},
	} {
		_, err := db.CopyTimeBlock(ctx, tc.user, tc.plan, tc.block, tc.to)
		wantCode(t, tc.name, err, tc.want)
	}

	// Recorded as added blocks, which live updates and the history show.
	var added int
	mustGet(t, db, &added, `SELECT count(*) FROM activities WHERE plan_id = $1 AND kind = 'BLOCK_ADDED' AND target_id = $2`, f.plan.ID, dup.ID)
	if added != 1 {
		t.Errorf("%d BLOCK_ADDED entries for the copy, want 1", added)
	}
}

func ptr[T any](v T) *T { return &v }

// TestCopyTimeBlockConcurrently races copies into one time: the exclusion constraint lets
// exactly one through.
func TestCopyTimeBlockConcurrently(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	orig := pendingBlock(t, f)
	const n = 20
	s, e := clockOf("09:00"), clockOf("11:00")
	errs := make([]error, n)
	f.race(n, func(i int, user string) {
		_, errs[i] = db.CopyTimeBlock(t.Context(), user, f.plan.ID, orig.ID, planner.BlockCopy{Day: ptr(3), Start: &s, End: &e})
	})
	made := 0
	for i, err := range errs {
		switch code := planner.ErrorCode(err); {
		case err == nil:
			made++
		case code != planner.CodeTimeBlockExactDuplicate:
			t.Errorf("copy %d: %v, want success or TIME_BLOCK_EXACT_DUPLICATE", i, err)
		}
	}
	var stored int
	mustGet(t, db, &stored, `SELECT count(*) FROM time_blocks b JOIN plan_days d ON d.id = b.plan_day_id WHERE d.plan_id = $1 AND d.day = 3`, f.plan.ID)
	if made != 1 || stored != 1 {
		t.Errorf("%d copies made, %d stored; want 1 and 1", made, stored)
	}
}

func TestSwapDays(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	ctx := t.Context()
	// Day 1 and day 3 both hold a block at 10:00–12:00: moving them one by one would trip the
	// exclusion constraint halfway.
	a := f.block(t, 1, 0, "10:00", "12:00")
	b := f.block(t, 1, 1, "13:00", "14:00")
	c := f.block(t, 3, 2, "10:00", "12:00")
	untouched := f.block(t, 2, 3, "10:00", "12:00")
	days := struct{ One, Three string }{f.dayID(t, 1), f.dayID(t, 3)}
	startOfOne, afterA, startOfThree := f.expense(t, days.One, ""), f.expense(t, days.One, a.ID), f.expense(t, days.Three, "")

	swap, err := db.SwapDays(ctx, f.member, f.plan.ID, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(bs []planner.TimeBlock) []string {
		out := []string{}
		for _, b := range bs {
			out = append(out, b.ID)
		}
		return out
	}
	if swap.Days[0].Info.Day != 1 || swap.Days[1].Info.Day != 3 ||
		!slices.Equal(ids(swap.Days[0].Blocks), []string{c.ID}) || !slices.Equal(ids(swap.Days[1].Blocks), []string{a.ID, b.ID}) {
		t.Fatalf("after the swap day 1 holds %v and day 3 %v; want [%s] and [%s %s]", ids(swap.Days[0].Blocks), ids(swap.Days[1].Blocks), c.ID, a.ID, b.ID)
	}
	for _, tb := range append(swap.Days[0].Blocks, swap.Days[1].Blocks...) {
		if tb.Version != 2 {
			t.Errorf("block %s at version %d after the swap, want 2", tb.ID, tb.Version)
		}
	}
	if got := must(loadBlock(t, db, f, untouched.ID)); got.Day.Day != 2 || got.Version != 1 {
		t.Errorf("day 2's block moved: day %d version %d", got.Day.Day, got.Version)
	}
	where := func(expenseID string) (dayID, after string) {
		var r struct {
			Day   string `db:"plan_day_id"`
			After string `db:"after"`
		}
		mustGet(t, db, &r, `SELECT plan_day_id, COALESCE(after_time_block_id, '') AS after FROM expenses WHERE id = $1`, expenseID)
		return r.Day, r.After
	}
	for _, tc := range []struct{ name, id, day, after string }{
		{"day 1's start", startOfOne, days.Three, ""},
		{"after block a", afterA, days.Three, a.ID},
		{"day 3's start", startOfThree, days.One, ""},
	} {
		if d, after := where(tc.id); d != tc.day || after != tc.after {
			t.Errorf("%s's expense is on day %s after %q, want day %s after %q", tc.name, d, after, tc.day, tc.after)
		}
	}
	var candidateExpenses int
	mustGet(t, db, &candidateExpenses, `SELECT count(*) FROM expenses e JOIN candidates x ON x.id = e.candidate_id WHERE x.time_block_id IN ($1, $2, $3)`, a.ID, b.ID, c.ID)
	if candidateExpenses != 3 {
		t.Errorf("%d candidate expenses after the swap, want 3", candidateExpenses)
	}
	var swapped int
	mustGet(t, db, &swapped, `SELECT count(*) FROM activities WHERE plan_id = $1 AND kind = 'DAYS_SWAPPED' AND details->>'day' = '1' AND details->>'from_day' = '3'`, f.plan.ID)
	if swapped != 1 {
		t.Errorf("%d DAYS_SWAPPED entries, want 1", swapped)
	}

	// Swapping again undoes it.
	back := must(db.SwapDays(ctx, f.owner, f.plan.ID, 3, 1))
	if !slices.Equal(ids(back.Days[1].Blocks), []string{a.ID, b.ID}) || !slices.Equal(ids(back.Days[0].Blocks), []string{c.ID}) {
		t.Errorf("swapped back: day 3 %v, day 1 %v", ids(back.Days[0].Blocks), ids(back.Days[1].Blocks))
	}
	if d, after := where(afterA); d != days.One || after != a.ID {
		t.Errorf("after a swap back the expense is on %s after %q", d, after)
	}

	for _, tc := range []struct {
		name, user, plan string
		a, b             int
		want             planner.Code
		field            string
	}{
		{"guest", planner.GuestViewer(&planner.ShareLink{Type: planner.SharePlan, ReferenceID: f.plan.ID, ID: planner.NewID()}), f.plan.ID, 1, 2, planner.CodeGuestForbidden, ""},
		{"unknown plan", f.owner, planner.NewID(), 1, 2, planner.CodePlanNotFound, ""},
		{"not a member", f.stranger, f.plan.ID, 1, 2, planner.CodeForbiddenNotMember, ""},
		{"itself", f.member, f.plan.ID, 2, 2, planner.CodeInvalidRequest, "with"},
		{"no such day", f.member, f.plan.ID, 4, 2, planner.CodePlanDayNotFound, ""},
		{"no such other day", f.member, f.plan.ID, 2, 4, planner.CodeInvalidRequest, "with"},
	} {
		_, err := db.SwapDays(ctx, tc.user, tc.plan, tc.a, tc.b)
		wantCode(t, tc.name, err, tc.want)
		var pe *planner.Error
		if tc.field != "" && (!asError(err, &pe) || len(pe.Fields) != 1 || pe.Fields[0].Field != tc.field) {
			t.Errorf("%s: %+v does not name the field %s", tc.name, pe, tc.field)
		}
	}
}
