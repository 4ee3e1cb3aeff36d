package postgres_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tripplan/internal/money"
	"tripplan/internal/planner"
	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
)

func TestAddBlockErrors(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	ctx := t.Context()
	existing := f.block(t, 1, 0, "10:00", "12:00")
	place := func(cp string, d int, start, end string) planner.NewBlock {
		return planner.NewBlock{Type: planner.BlockPlace, CollectionPlaceID: cp, Slot: slot(d, start, end)}
	}
	free := func(d int, start, end string) planner.NewBlock {
		return planner.NewBlock{Type: planner.BlockFree, Slot: slot(d, start, end)}
	}
	// Each case that fails several checks names the one that comes first (docs/API.md §Time blocks, "Add block,
	// precisely").
	for _, tc := range []struct {
		name   string
		user   string
		plan   string
		block  planner.NewBlock
		want   planner.Code
		exists bool // TIME_BLOCK_EXACT_DUPLICATE carries the existing block
	}{
		{"unknown plan", f.owner, planner.NewID(), free(9, "10:00", "12:00"), planner.CodePlanNotFound, false},
		{"malformed plan id", f.owner, "../plans", free(1, "13:00", "14:00"), planner.CodePlanNotFound, false},
		{"not a member", f.stranger, f.plan.ID, place(planner.NewID(), 9, "10:00", "12:00"), planner.CodeForbiddenNotMember, false},
		{"no such day", f.member, f.plan.ID, place(planner.NewID(), 4, "10:00", "12:00"), planner.CodePlanDayNotFound, false},
		{"day 0", f.member, f.plan.ID, free(0, "10:00", "12:00"), planner.CodePlanDayNotFound, false},
		{"no such collection place", f.member, f.plan.ID, place(planner.NewID(), 1, "10:00", "12:00"), planner.CodeCollectionPlaceNotFound, false},
		{"malformed collection place id", f.member, f.plan.ID, place("x", 1, "13:00", "14:00"), planner.CodeCollectionPlaceNotFound, false},
		{"collection not linked", f.member, f.plan.ID, place(f.unlinkedCP, 1, "10:00", "12:00"), planner.CodePlanCollectionNotFound, false},
		{"exact duplicate", f.member, f.plan.ID, place(f.cps[1], 1, "10:00", "12:00"), planner.CodeTimeBlockExactDuplicate, true},
		{"exact duplicate, free", f.member, f.plan.ID, free(1, "10:00:00.000Z", "12:00:00Z"), planner.CodeTimeBlockExactDuplicate, true},
		{"overlaps the start", f.member, f.plan.ID, place(f.cps[1], 1, "09:00", "10:30"), planner.CodeTimeBlockOverlap, false},
		{"overlaps the end", f.member, f.plan.ID, free(1, "11:59", "13:00"), planner.CodeTimeBlockOverlap, false},
		{"inside", f.member, f.plan.ID, place(f.cps[0], 1, "10:30", "11:00"), planner.CodeTimeBlockOverlap, false},
		{"around", f.member, f.plan.ID, free(1, "09:00", "13:00"), planner.CodeTimeBlockOverlap, false},
		{"same start", f.member, f.plan.ID, free(1, "10:00", "11:00"), planner.CodeTimeBlockOverlap, false},
		{"same end", f.member, f.plan.ID, free(1, "11:00", "12:00"), planner.CodeTimeBlockOverlap, false},
		{"a millisecond longer", f.member, f.plan.ID, free(1, "10:00", "12:00:00.001"), planner.CodeTimeBlockOverlap, false},
		{"end before start", f.member, f.plan.ID, free(2, "12:00", "10:00"), planner.CodeInvalidRequest, false},
	} {
		_, err := db.AddBlock(ctx, tc.user, tc.plan, tc.block)
		wantCode(t, tc.name, err, tc.want)
		var pe *planner.Error
		if tc.exists && (!asError(err, &pe) || pe.Extra["time_block_id"] != existing.ID || pe.Extra["timeBlockId"] != existing.ID) {
			t.Errorf("%s: %+v does not carry the existing time block %s", tc.name, pe, existing.ID)
		}
	}
	var blocks int
	mustGet(t, db, &blocks, `SELECT count(*) FROM time_blocks`)
	if blocks != 1 {
		t.Errorf("%d time blocks after the failures, want 1", blocks)
	}

	// By place and manual blocks take the same checks.
	_, err := db.AddBlockByPlace(ctx, f.member, f.plan.ID, planner.NewID(), slot(1, "13:00", "14:00"), "")
	wantCode(t, "by place: no such place", err, planner.CodePlaceNotFound)
	_, err = db.AddBlockByPlace(ctx, f.member, f.plan.ID, f.places[3], slot(1, "11:00", "14:00"), "")
	wantCode(t, "by place: overlap", err, planner.CodeTimeBlockOverlap)
	_, err = db.AddBlockByPlace(ctx, f.stranger, f.plan.ID, planner.NewID(), slot(1, "13:00", "14:00"), "")
	wantCode(t, "by place: stranger", err, planner.CodeForbiddenNotMember)
	_, err = db.AddManualBlock(ctx, f.member, f.plan.ID, planner.ManualPlace{Name: "Aunt's"}, slot(1, "10:00", "12:00"), "")
	wantCode(t, "manual: duplicate", err, planner.CodeTimeBlockExactDuplicate)
	_, err = db.AddManualBlock(ctx, f.member, f.plan.ID, planner.ManualPlace{Name: "Aunt's"}, slot(5, "10:00", "12:00"), "")
	wantCode(t, "manual: no such day", err, planner.CodePlanDayNotFound)
	var manual int
	mustGet(t, db, &manual, `SELECT count(*) FROM places WHERE provider = 'MANUAL'`)
	if manual != 0 {
		t.Errorf("%d manual places left by failed adds", manual)
	}
}

func TestAddBlock(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	ctx := t.Context()

	b, err := db.AddBlock(ctx, f.member, f.plan.ID, planner.NewBlock{Type: planner.BlockPlace, CollectionPlaceID: f.cps[0],
		Slot: slot(2, "10:00", "12:00"), Memo: "Book ahead"})
	if err != nil {
		t.Fatal(err)
	}
	type blockShape struct {
		Status                planner.BlockStatus
		Type                  planner.BlockType
		Day                   int
		DayOfWeek, Start, End string
		Candidates            int
	}
	if diff := cmp.Diff(blockShape{Status: planner.StatusDirect, Type: planner.BlockPlace, Day: 2, DayOfWeek: "SATURDAY",
		Start: "10:00:00.000Z", End: "12:00:00.000Z", Candidates: 1},
		blockShape{Status: b.Status(), Type: b.Type, Day: b.Day.Day, DayOfWeek: b.Day.DayOfWeek(),
			Start: b.Start.String(), End: b.End.String(), Candidates: len(b.Candidates)}); diff != "" {
		t.Fatalf("block (-want +got):\n%s", diff)
	}
	c := b.Candidates[0]
	type candidateShape struct {
		Selected, SelectedIsFirst                            bool
		Memo, PlaceID, PlaceName, CollectionPlaceID, AddedBy string
		Opinions                                             planner.OpinionSummary
	}
	gotCandidate := candidateShape{Selected: c.Selected, SelectedIsFirst: b.Selected() == &b.Candidates[0], Memo: c.Memo,
		CollectionPlaceID: c.CollectionPlaceID, AddedBy: c.AddedBy.Nickname, Opinions: c.Opinions}
	if c.Place != nil {
		gotCandidate.PlaceID, gotCandidate.PlaceName = c.Place.ID, c.Place.Name
	}
	if diff := cmp.Diff(candidateShape{Selected: true, SelectedIsFirst: true, Memo: "Book ahead", PlaceID: f.places[0], PlaceName: "Place 0",
		CollectionPlaceID: f.cps[0], AddedBy: "Member"}, gotCandidate); diff != "" {
		t.Errorf("candidate (-want +got):\n%s", diff)
	}

	// Adjacent blocks do not overlap: half-open intervals.
	before := must(db.AddBlock(ctx, f.member, f.plan.ID, planner.NewBlock{Type: planner.BlockFree, Slot: slot(2, "08:00", "10:00"), Memo: "Breakfast"}))
	if before.Status() != planner.StatusNothing || len(before.Candidates) != 1 || before.Candidates[0].Place != nil ||
		before.Candidates[0].Selected || before.Candidates[0].Memo != "Breakfast" || before.Selected() != nil {
		t.Errorf("free block %+v", before)
	}
	after := must(db.AddBlockByPlace(ctx, f.member, f.plan.ID, f.places[4], slot(2, "12:00", "14:00"), ""))
	if after.Status() != planner.StatusDirect || after.Candidates[0].CollectionPlaceID != "" || after.Candidates[0].Place.ID != f.places[4] {
		t.Errorf("block by place %+v", after)
	}
	manual := must(db.AddManualBlock(ctx, f.member, f.plan.ID, planner.ManualPlace{Name: "Aunt's house", Address: "Busan", URL: "https://maps.example/aunt"},
		slot(2, "14:00", "23:59:59.999"), "Dinner"))
	type manualShape struct{ Provider, ProviderPlaceID, Name, Address, MapsURI, End string }
	gotManual := manualShape{End: manual.End.String()}
	if p := manual.Candidates[0].Place; p != nil {
		gotManual = manualShape{Provider: p.Provider, ProviderPlaceID: p.ProviderPlaceID, Name: p.Name, Address: p.Address, MapsURI: p.MapsURI, End: gotManual.End}
	}
	if diff := cmp.Diff(manualShape{Provider: "MANUAL", Name: "Aunt's house", Address: "Busan", MapsURI: "https://maps.example/aunt", End: "23:59:59.999Z"},
		gotManual); diff != "" {
		t.Errorf("manual block (-want +got):\n%s", diff)
	}
	// The same slot on another day is free.
	f.block(t, 1, 0, "10:00", "12:00")

	day, err := db.DayBlocks(ctx, f.owner, f.plan.ID, 2, planner.Page{Size: 3})
	info, blocks, hasNext := day.Info, day.Blocks, day.HasNext
	if err != nil || !hasNext || info.Day != 2 || len(blocks) != 3 {
		t.Fatalf("day 2: %+v %d blocks, %v, %v", info, len(blocks), hasNext, err)
	}
	if blocks[0].ID != before.ID || blocks[1].ID != b.ID || blocks[2].ID != after.ID {
		t.Errorf("day 2 not by time: %s %s %s", blocks[0].Start, blocks[1].Start, blocks[2].Start)
	}
	day, _ = db.DayBlocks(ctx, f.owner, f.plan.ID, 2, planner.Page{Number: 1, Size: 3})
	blocks, hasNext = day.Blocks, day.HasNext
	if hasNext || len(blocks) != 1 || blocks[0].ID != manual.ID {
		t.Errorf("day 2, second page: %+v", blocks)
	} else if cs := blocks[0].Candidates; len(cs) != 1 || cs[0].Place == nil || cs[0].Place.Name != "Aunt's house" {
		t.Errorf("day 2, second page: candidates %+v, want the manual place only", cs) // the day's candidates are read at once
	}
	// Each place candidate has its (empty) expense; the free block's entry has none.
	var expenses int
	mustGet(t, db, &expenses, `SELECT count(*) FROM expenses WHERE kind = 'BLOCK'`)
	if expenses != 4 {
		t.Errorf("%d block expenses, want 4", expenses)
	}
	day, err = db.DayBlocks(ctx, f.owner, f.plan.ID, 4, planner.Page{Size: 3})
	wantCode(t, "day 4", err, planner.CodePlanDayNotFound)
	day, err = db.DayBlocks(ctx, f.stranger, f.plan.ID, 4, planner.Page{Size: 3})
	wantCode(t, "stranger, day 4", err, planner.CodeForbiddenNotMember)
}

// TestAddBlockConcurrently fires simultaneous adds at one slot: the exclusion constraint lets
// exactly one through.
func TestAddBlockConcurrently(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	const n = 30
	for _, tc := range []struct {
		name  string
		day   int
		slot  func(i int) planner.Slot
		loser planner.Code
	}{
		{"same slot", 1, func(int) planner.Slot { return slot(1, "10:00", "12:00") }, planner.CodeTimeBlockExactDuplicate},
		// [10:00+i min, 11:00+i min) for i < 30 all share 10:29–11:00.
		{"overlapping slots", 2, func(i int) planner.Slot {
			return planner.Slot{Day: 2, Start: planner.Clock(10, i), End: planner.Clock(11, i)}
		}, planner.CodeTimeBlockOverlap},
	} {
		t.Run(tc.name, func(t *testing.T) {
			results := make([]*planner.TimeBlock, n)
			errs := make([]error, n)
			f.race(n, func(i int, user string) {
				results[i], errs[i] = db.AddBlock(t.Context(), user, f.plan.ID, planner.NewBlock{
					Type: planner.BlockPlace, CollectionPlaceID: f.cps[i%len(f.cps)], Slot: tc.slot(i)})
			})
			var winner *planner.TimeBlock
			for i, err := range errs {
				switch {
				case err == nil && winner != nil:
					t.Errorf("two adds succeeded: %s and %s", winner.ID, results[i].ID)
				case err == nil:
					winner = results[i]
				case planner.ErrorCode(err) != tc.loser:
					t.Errorf("add %d: %v, want %s", i, err, tc.loser)
				}
			}
			if winner == nil {
				t.Fatal("no add succeeded")
			}
			for _, err := range errs {
				var pe *planner.Error
				if asError(err, &pe) && pe.Code == planner.CodeTimeBlockExactDuplicate && pe.Extra["time_block_id"] != winner.ID {
					t.Errorf("duplicate points at %v, want %s", pe.Extra["time_block_id"], winner.ID)
				}
			}
			var stored, candidates int
			mustGet(t, db, &stored, `SELECT count(*) FROM time_blocks b JOIN plan_days d ON d.id = b.plan_day_id WHERE d.day = $1`, tc.day)
			mustGet(t, db, &candidates, `SELECT count(*) FROM candidates WHERE time_block_id = $1`, winner.ID)
			if stored != 1 || candidates != 1 {
				t.Errorf("%d time blocks with %d candidates stored, want 1 and 1", stored, candidates)
			}
		})
	}
}

// pendingBlock is a block on day 1 at 10:00–12:00 holding the first three linked places, none
// selected.
func pendingBlock(t *testing.T, f *tripFixture) *planner.TimeBlock {
	t.Helper()
	b := f.block(t, 1, 0, "10:00", "12:00")
	return must(f.db.AddCandidates(t.Context(), f.member, f.plan.ID, b.ID, f.cps[1:3], nil))
}

func TestChangeSelectionErrors(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	ctx := t.Context()
	pending := pendingBlock(t, f)
	direct := f.block(t, 1, 3, "13:00", "14:00")
	freeBlock := must(db.AddBlock(ctx, f.owner, f.plan.ID, planner.NewBlock{Type: planner.BlockFree, Slot: slot(1, "15:00", "16:00")}))
	other := newTrip(t, db) // another plan, whose owner is not in f's plan
	otherBlock := pendingBlock(t, other)
	candidate := pending.Candidates[1].ID

	for _, tc := range []struct {
		name                  string
		user, plan, block, of string
		want                  planner.Code
	}{
		{"unknown plan", f.owner, planner.NewID(), planner.NewID(), planner.NewID(), planner.CodePlanNotFound},
		{"malformed plan id", f.owner, "x", pending.ID, candidate, planner.CodePlanNotFound},
		{"not a member", f.stranger, f.plan.ID, planner.NewID(), planner.NewID(), planner.CodeForbiddenNotMember},
		{"member of another plan", other.owner, f.plan.ID, pending.ID, candidate, planner.CodeForbiddenNotMember},
		{"unknown time block", f.member, f.plan.ID, planner.NewID(), direct.Candidates[0].ID, planner.CodeBlockNotFound},
		{"time block of another plan", f.member, f.plan.ID, otherBlock.ID, otherBlock.Candidates[0].ID, planner.CodeBlockNotFound},
		{"unknown candidate", f.member, f.plan.ID, direct.ID, planner.NewID(), planner.CodeBlockNotFound},
		{"malformed candidate id", f.member, f.plan.ID, pending.ID, "", planner.CodeBlockNotFound},
		{"candidate of another plan", f.member, f.plan.ID, pending.ID, otherBlock.Candidates[0].ID, planner.CodeBlockNotFound},
		{"candidate of another time block", f.member, f.plan.ID, direct.ID, candidate, planner.CodeBlockNotInTimeBlock},
		{"one candidate", f.member, f.plan.ID, direct.ID, direct.Candidates[0].ID, planner.CodeCandidateCountInsufficient},
		{"free block", f.member, f.plan.ID, freeBlock.ID, freeBlock.Candidates[0].ID, planner.CodeCandidateCountInsufficient},
	} {
		_, err := db.ChangeSelection(ctx, tc.user, tc.plan, tc.block, tc.of, planner.AnyVersion)
		wantCode(t, tc.name, err, tc.want)
	}
	if b := must(loadBlock(t, db, f, pending.ID)); b.Status() != planner.StatusPending {
		t.Errorf("failed selections changed the block: %s", b.Status())
	}

	// PENDING → FIXED; another candidate moves the selection; the same one again changes nothing.
	for _, pick := range []int{1, 2, 2, 0} {
		b, err := db.ChangeSelection(ctx, f.member, f.plan.ID, pending.ID, pending.Candidates[pick].ID, planner.AnyVersion)
		if err != nil || b.Status() != planner.StatusFixed || b.Selected() == nil || b.Selected().ID != pending.Candidates[pick].ID {
			t.Fatalf("select %d: %+v, %v", pick, b, err)
		}
	}
	var selected int
	mustGet(t, db, &selected, `SELECT count(*) FROM candidates WHERE time_block_id = $1 AND selected`, pending.ID)
	if selected != 1 {
		t.Errorf("%d selected candidates, want 1", selected)
	}
}

// loadBlock finds a time block of f's plan through DayBlocks.
func loadBlock(t *testing.T, db *postgres.DB, f *tripFixture, id string) (*planner.TimeBlock, error) {
	t.Helper()
	for d := 1; d <= 3; d++ {
		day, err := db.DayBlocks(t.Context(), f.owner, f.plan.ID, d, planner.Page{Size: planner.MaxPageSize})
		blocks := day.Blocks
		if err != nil {
			return nil, err
		}
		for _, b := range blocks {
			if b.ID == id {
				return &b, nil
			}
		}
	}
	return nil, fmt.Errorf("no time block %s", id)
}

// TestChangeSelectionConcurrently races selection changes of one block: afterwards exactly one
// candidate is selected.
func TestChangeSelectionConcurrently(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	b := pendingBlock(t, f)
	b = must(db.AddCandidates(t.Context(), f.owner, f.plan.ID, b.ID, f.cps[3:], nil))
	const n = 30
	errs := make([]error, n)
	f.race(n, func(i int, _ string) { // the member each time
		_, errs[i] = db.ChangeSelection(t.Context(), f.member, f.plan.ID, b.ID, b.Candidates[i%len(b.Candidates)].ID, planner.AnyVersion)
	})
	for i, err := range errs {
		if err != nil {
			t.Errorf("change %d: %v", i, err)
		}
	}
	var selected int
	mustGet(t, db, &selected, `SELECT count(*) FROM candidates WHERE time_block_id = $1 AND selected`, b.ID)
	if selected != 1 {
		t.Errorf("%d selected candidates after concurrent changes, want 1", selected)
	}
}

func TestAddCandidates(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	ctx := t.Context()
	b := f.block(t, 1, 0, "10:00", "12:00")

	// DIRECT → PENDING; a place already there, or named twice, is added once.
	got, err := db.AddCandidates(ctx, f.member, f.plan.ID, b.ID, []string{f.cps[1], f.cps[0], f.cps[1]}, nil)
	if err != nil || got.Status() != planner.StatusPending || len(got.Candidates) != 2 || got.Candidates[1].Place.ID != f.places[1] ||
		got.Candidates[1].AddedBy.Nickname != "Member" {
		t.Fatalf("%+v, %v", got, err)
	}
	// FIXED stays FIXED with its selection.
	must(db.ChangeSelection(ctx, f.member, f.plan.ID, b.ID, got.Candidates[1].ID, planner.AnyVersion))
	got, err = db.AddCandidates(ctx, f.member, f.plan.ID, b.ID, nil, []string{f.places[2], f.places[3]})
	if err != nil || got.Status() != planner.StatusFixed || len(got.Candidates) != 4 || got.Selected().ID != got.Candidates[1].ID ||
		got.Candidates[2].Place.ID != f.places[2] || got.Candidates[3].Place.ID != f.places[3] || got.Candidates[3].CollectionPlaceID != "" {
		t.Fatalf("%+v, %v", got, err)
	}
	var expenses int
	mustGet(t, db, &expenses, `SELECT count(*) FROM expenses e JOIN candidates c ON c.id = e.candidate_id WHERE c.time_block_id = $1`, b.ID)
	if expenses != 4 {
		t.Errorf("%d expenses, want one per candidate", expenses)
	}

	freeBlock := must(db.AddBlock(ctx, f.owner, f.plan.ID, planner.NewBlock{Type: planner.BlockFree, Slot: slot(1, "13:00", "14:00")}))
	for _, tc := range []struct {
		name       string
		user, plan string
		block      string
		cps, ps    []string
		want       planner.Code
	}{
		{"unknown plan", f.member, planner.NewID(), b.ID, f.cps[4:], nil, planner.CodePlanNotFound},
		{"not a member", f.stranger, f.plan.ID, b.ID, f.cps[4:], nil, planner.CodeForbiddenNotMember},
		{"unknown time block", f.member, f.plan.ID, planner.NewID(), []string{planner.NewID()}, nil, planner.CodeBlockNotFound},
		{"free block", f.member, f.plan.ID, freeBlock.ID, []string{planner.NewID()}, nil, planner.CodeCannotAddCandidateToFreeBlock},
		{"unknown collection place", f.member, f.plan.ID, b.ID, []string{f.cps[4], planner.NewID()}, nil, planner.CodeCollectionPlaceNotFound},
		{"collection not linked", f.member, f.plan.ID, b.ID, []string{f.cps[4], f.unlinkedCP}, nil, planner.CodePlanCollectionNotFound},
		{"unknown place", f.member, f.plan.ID, b.ID, nil, []string{f.places[4], planner.NewID()}, planner.CodePlaceNotFound},
	} {
		_, err := db.AddCandidates(ctx, tc.user, tc.plan, tc.block, tc.cps, tc.ps)
		wantCode(t, tc.name, err, tc.want)
	}
	if got := must(loadBlock(t, db, f, b.ID)); len(got.Candidates) != 4 {
		t.Errorf("failed adds added candidates: %d", len(got.Candidates))
	}
}

func TestDeleteCandidate(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	ctx := t.Context()
	b := pendingBlock(t, f)
	direct := f.block(t, 2, 0, "10:00", "12:00")
	must(db.ChangeSelection(ctx, f.member, f.plan.ID, b.ID, b.Candidates[0].ID, planner.AnyVersion))

	wantCode(t, "other time block", db.DeleteCandidate(ctx, f.member, f.plan.ID, direct.ID, b.Candidates[1].ID, planner.AnyVersion), planner.CodeBlockNotInTimeBlock)
	wantCode(t, "unknown candidate", db.DeleteCandidate(ctx, f.member, f.plan.ID, b.ID, planner.NewID(), planner.AnyVersion), planner.CodeBlockNotFound)
	wantCode(t, "unknown time block", db.DeleteCandidate(ctx, f.member, f.plan.ID, planner.NewID(), b.Candidates[1].ID, planner.AnyVersion), planner.CodeBlockNotFound)
	wantCode(t, "stranger", db.DeleteCandidate(ctx, f.stranger, f.plan.ID, b.ID, b.Candidates[1].ID, planner.AnyVersion), planner.CodeForbiddenNotMember)

	// Deleting the selected one of three leaves two, none selected: PENDING.
	if err := db.DeleteCandidate(ctx, f.member, f.plan.ID, b.ID, b.Candidates[0].ID, planner.AnyVersion); err != nil {
		t.Fatal(err)
	}
	if got := must(loadBlock(t, db, f, b.ID)); got.Status() != planner.StatusPending || len(got.Candidates) != 2 {
		t.Errorf("after deleting the selected of three: %s, %d", got.Status(), len(got.Candidates))
	}
	// One left: it is selected, DIRECT.
	if err := db.DeleteCandidate(ctx, f.member, f.plan.ID, b.ID, b.Candidates[1].ID, planner.AnyVersion); err != nil {
		t.Fatal(err)
	}
	got := must(loadBlock(t, db, f, b.ID))
	if got.Status() != planner.StatusDirect || len(got.Candidates) != 1 || !got.Candidates[0].Selected || got.Candidates[0].ID != b.Candidates[2].ID {
		t.Errorf("after deleting down to one: %+v", got)
	}
	// None left: the time block goes.
	if err := db.DeleteCandidate(ctx, f.member, f.plan.ID, b.ID, b.Candidates[2].ID, planner.AnyVersion); err != nil {
		t.Fatal(err)
	}
	if _, err := loadBlock(t, db, f, b.ID); err == nil {
		t.Error("the time block outlived its last candidate")
	}
	var expenses int
	mustGet(t, db, &expenses, `SELECT count(*) FROM expenses`)
	if expenses != 1 {
		t.Errorf("%d expenses left, want only the direct block's", expenses)
	}
}

func TestUpdateBlock(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	ctx := t.Context()
	b := pendingBlock(t, f) // day 1, 10:00–12:00
	lunch := f.block(t, 1, 3, "12:00", "13:00")
	day2 := f.block(t, 2, 4, "10:00", "12:00")
	candidate := b.Candidates[1].ID
	ptr := func(s string) *planner.TimeOfDay { v := clockOf(s); return &v }
	dayPtr := func(d int) *int { return &d }
	memo := "Bring cash"

	// The memo of one candidate.
	d, err := db.UpdateBlock(ctx, f.member, f.plan.ID, candidate, planner.BlockChange{Memo: &memo}, planner.AnyVersion)
	if err != nil || d.Block.ID != candidate || d.Block.Memo != "Bring cash" || d.TimeBlockID != b.ID || d.Day.Day != 1 || d.Start != clockOf("10:00") {
		t.Fatalf("memo: %+v, %v", d, err)
	}
	// Moving within its own time is no overlap with itself.
	d, err = db.UpdateBlock(ctx, f.member, f.plan.ID, candidate, planner.BlockChange{Start: ptr("09:00"), End: ptr("11:00")}, planner.AnyVersion)
	if err != nil || d.Start != clockOf("09:00") || d.End != clockOf("11:00") || d.Block.Memo != "Bring cash" {
		t.Fatalf("move earlier: %+v, %v", d, err)
	}

	for _, tc := range []struct {
		name string
		ch   planner.BlockChange
		want planner.Code
		dup  string
	}{
		{"overlaps lunch", planner.BlockChange{Start: ptr("11:00"), End: ptr("12:30")}, planner.CodeTimeBlockOverlap, ""},
		{"onto lunch", planner.BlockChange{Start: ptr("12:00"), End: ptr("13:00")}, planner.CodeTimeBlockExactDuplicate, lunch.ID},
		{"day only, onto a block of day 2", planner.BlockChange{Day: dayPtr(2)}, planner.CodeTimeBlockOverlap, ""},
		{"day and time", planner.BlockChange{Day: dayPtr(2), Start: ptr("10:00"), End: ptr("12:00")}, planner.CodeTimeBlockExactDuplicate, day2.ID},
		{"no such day", planner.BlockChange{Day: dayPtr(4)}, planner.CodePlanDayNotFound, ""},
		{"start without end", planner.BlockChange{Start: ptr("08:00")}, planner.CodeInvalidRequest, ""},
		{"end before start", planner.BlockChange{Start: ptr("08:00"), End: ptr("07:00")}, planner.CodeInvalidRequest, ""},
		{"memo too long", planner.BlockChange{Memo: new(strings.Repeat("a", 301))}, planner.CodeInvalidRequest, ""},
	} {
		_, err := db.UpdateBlock(ctx, f.member, f.plan.ID, candidate, tc.ch, planner.AnyVersion)
		wantCode(t, tc.name, err, tc.want)
		var pe *planner.Error
		if tc.dup != "" && (!asError(err, &pe) || pe.Extra["time_block_id"] != tc.dup) {
			t.Errorf("%s: %+v does not carry %s", tc.name, pe, tc.dup)
		}
	}
	_, err = db.UpdateBlock(ctx, f.member, f.plan.ID, planner.NewID(), planner.BlockChange{Memo: &memo}, planner.AnyVersion)
	wantCode(t, "unknown candidate", err, planner.CodeBlockNotFound)
	_, err = db.UpdateBlock(ctx, f.stranger, f.plan.ID, candidate, planner.BlockChange{Memo: &memo}, planner.AnyVersion)
	wantCode(t, "stranger", err, planner.CodeForbiddenNotMember)

	// Day only, to a free time of day 3: the whole time block moves, with all its candidates.
	d, err = db.UpdateBlock(ctx, f.member, f.plan.ID, candidate, planner.BlockChange{Day: dayPtr(3)}, planner.AnyVersion)
	if err != nil || d.Day.Day != 3 || d.Start != clockOf("09:00") {
		t.Fatalf("move to day 3: %+v, %v", d, err)
	}
	if got := must(loadBlock(t, db, f, b.ID)); got.Day.Day != 3 || len(got.Candidates) != 3 {
		t.Errorf("moved block %+v", got)
	}
}

func TestBlockDetailAndCandidates(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	ctx := t.Context()
	b := pendingBlock(t, f)
	members := memberIDs(t, db, f.plan.ID)
	opine(t, db, b.Candidates[0].ID, members[f.member], "POSITIVE", "Great")
	opine(t, db, b.Candidates[0].ID, members[f.owner], "NEGATIVE", "")
	var expense string
	mustGet(t, db, &expense, `SELECT id FROM expenses WHERE candidate_id = $1`, b.Candidates[0].ID)
	for i, cost := range []int{3000, 1500} {
		db.MustExec(`INSERT INTO expense_items (id, expense_id, name, cost, position) VALUES ($1, $2, $3, $4, $5)`,
			planner.NewID(), expense, fmt.Sprintf("Item %d", i), cost, 1-i) // stored out of order
	}

	d, err := db.BlockDetail(ctx, f.member, f.plan.ID, b.Candidates[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	type opinionShape struct {
		Type             planner.OpinionType
		Comment, AddedBy string
	}
	type detailShape struct {
		ID          string
		Type        planner.BlockType
		Opinions    []opinionShape
		SocialMedia bool
	}
	gotDetail := detailShape{ID: d.Block.ID, Type: d.Type, SocialMedia: d.SocialMedia != nil}
	for _, o := range d.Opinions {
		gotDetail.Opinions = append(gotDetail.Opinions, opinionShape{Type: o.Type, Comment: o.Comment, AddedBy: o.AddedBy.Nickname})
	}
	if diff := cmp.Diff(detailShape{ID: b.Candidates[0].ID, Type: planner.BlockPlace, Opinions: []opinionShape{
		{Type: planner.OpinionPositive, Comment: "Great", AddedBy: "Member"}, {Type: planner.OpinionNegative, AddedBy: "Owner"}}}, gotDetail); diff != "" {
		t.Fatalf("detail (-want +got):\n%s", diff)
	}
	want := planner.OpinionSummary{Total: 2, Positive: 1, Negative: 1, Mine: &planner.MyOpinion{ID: d.Opinions[0].ID, Type: planner.OpinionPositive}}
	if diff := cmp.Diff(want, d.Block.Opinions); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	_, err = db.BlockDetail(ctx, f.member, f.plan.ID, b.ID) // a time block id is not a candidate id
	wantCode(t, "time block id", err, planner.CodeBlockNotFound)
	_, err = db.BlockDetail(ctx, f.stranger, f.plan.ID, b.Candidates[0].ID)
	wantCode(t, "stranger", err, planner.CodeForbiddenNotMember)

	list, err := db.Candidates(ctx, f.owner, f.plan.ID, b.ID)
	if err != nil || list.PlanTitle != "Trip" || list.TimeBlockID != b.ID || len(list.Candidates) != 3 || list.Candidates[0].ExpenseID != expense {
		t.Fatalf("candidates %+v, %v", list, err)
	}
	if items := list.Candidates[0].Items; len(items) != 2 || items[0].Name != "Item 1" || items[0].Cost != 1500 || items[1].Name != "Item 0" {
		t.Errorf("items %+v", items)
	}
	if c := list.Candidates[1]; c.Items == nil || len(c.Items) != 0 || c.ExpenseID == "" {
		t.Errorf("second candidate %+v", c)
	}
	if m := list.Candidates[0].Opinions.Mine; m == nil || m.Type != planner.OpinionNegative {
		t.Errorf("the owner's opinion %+v", m)
	}
	_, err = db.Candidates(ctx, f.owner, f.plan.ID, b.Candidates[0].ID)
	wantCode(t, "candidate id", err, planner.CodeBlockNotFound)

	// An additional expense placed after the block.
	extra, err := db.AddExpense(ctx, f.owner, f.plan.ID, planner.NewExpense{AfterExpenseID: expense, Day: 1, Items: []planner.NewItem{{Name: "Taxi", Cost: must(money.ParseDecimal("900"))}}})
	if err != nil {
		t.Fatal(err)
	}
	// Everything the block holds, as rows, to compare after the restore.
	dump := func() string {
		t.Helper()
		var out string
		if err := db.Get(&out, `SELECT jsonb_build_object(
			'blocks', (SELECT jsonb_agg(to_jsonb(b) - 'version' ORDER BY b.id) FROM time_blocks b),
			'candidates', (SELECT jsonb_agg(to_jsonb(c) ORDER BY c.id) FROM candidates c),
			'opinions', (SELECT jsonb_agg(to_jsonb(o) ORDER BY o.id) FROM opinions o),
			'expenses', (SELECT jsonb_agg(to_jsonb(e) - 'updated_at' ORDER BY e.id) FROM expenses e),
			'items', (SELECT jsonb_agg(to_jsonb(i) ORDER BY i.id) FROM expense_items i))::text`); err != nil {
			t.Fatal(err)
		}
		return out
	}
	before := dump()

	// Deleting the time block takes its candidates, opinions and expenses; the additional
	// expense after it moves to the day's start.
	_, err = db.DeleteTimeBlock(ctx, f.member, f.plan.ID, planner.NewID(), planner.AnyVersion)
	wantCode(t, "delete unknown", err, planner.CodeBlockNotFound)
	_, err = db.DeleteTimeBlock(ctx, f.stranger, f.plan.ID, b.ID, planner.AnyVersion)
	wantCode(t, "stranger deletes", err, planner.CodeForbiddenNotMember)
	del, err := db.DeleteTimeBlock(ctx, f.member, f.plan.ID, b.ID, planner.AnyVersion)
	if err != nil {
		t.Fatal(err)
	}
	if del.Block.ID != b.ID || len(del.Block.Candidates) != 3 {
		t.Errorf("the deleted block %+v", del.Block)
	}
	var left int
	mustGet(t, db, &left, `SELECT (SELECT count(*) FROM candidates) + (SELECT count(*) FROM opinions) + (SELECT count(*) FROM expenses WHERE id <> $1) + (SELECT count(*) FROM expense_items i JOIN expenses e ON e.id = i.expense_id WHERE e.id <> $1)`, extra.ID)
	if left != 0 {
		t.Errorf("%d rows of the deleted time block left", left)
	}

	// Restored, it is all back as it was, with the same ids; once only, and by members only.
	_, err = db.RestoreTimeBlock(ctx, f.stranger, f.plan.ID, del.ID)
	wantCode(t, "stranger restores", err, planner.CodeForbiddenNotMember)
	restored, err := db.RestoreTimeBlock(ctx, f.owner, f.plan.ID, del.ID)
	if err != nil {
		t.Fatal(err)
	}
	if restored.ID != b.ID || len(restored.Candidates) != 3 {
		t.Errorf("restored %+v", restored)
	}
	if after := dump(); after != before {
		t.Errorf("restored rows differ:\nbefore %s\nafter  %s", before, after)
	}
	_, err = db.RestoreTimeBlock(ctx, f.owner, f.plan.ID, del.ID)
	wantCode(t, "restored twice", err, planner.CodeDeletionNotFound)

	// Its time taken meanwhile, it cannot come back; too old, there is nothing to undo.
	del, err = db.DeleteTimeBlock(ctx, f.member, f.plan.ID, b.ID, planner.AnyVersion)
	if err != nil {
		t.Fatal(err)
	}
	taker, err := db.AddBlock(ctx, f.owner, f.plan.ID, planner.NewBlock{Type: planner.BlockFree, Slot: planner.Slot{Day: b.Day.Day, Start: b.Start, End: b.End}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.RestoreTimeBlock(ctx, f.owner, f.plan.ID, del.ID)
	wantCode(t, "restore onto a taken time", err, planner.CodeTimeBlockOverlap)
	if _, err := db.DeleteTimeBlock(ctx, f.owner, f.plan.ID, taker.ID, planner.AnyVersion); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE deleted_time_blocks SET deleted_at = now() - interval '11 minutes' WHERE id = $1`, del.ID); err != nil {
		t.Fatal(err)
	}
	_, err = db.RestoreTimeBlock(ctx, f.owner, f.plan.ID, del.ID)
	wantCode(t, "restore too late", err, planner.CodeDeletionNotFound)
}

// TestDayBlocksQueryBudget: listing a day runs a fixed number of statements whatever the
// number of blocks, candidates and opinions.
func TestDayBlocksQueryBudget(t *testing.T) {
	db, queries, _ := pgtest.Counted(t)
	f := newTrip(t, db)
	ctx := t.Context()
	var voters []string
	for i := range 3 {
		voter := newUser(t, db, fmt.Sprintf("Voter%d", i))
		join(t, db, f.plan.ID, voter)
		voters = append(voters, voter)
	}
	members := memberIDs(t, db, f.plan.ID) // five members
	types := []string{"POSITIVE", "NEUTRAL", "NEGATIVE", "POSITIVE", "POSITIVE"}
	for i := range 15 {
		b := must(db.AddBlock(ctx, f.owner, f.plan.ID, planner.NewBlock{Type: planner.BlockPlace, CollectionPlaceID: f.cps[0],
			Slot: planner.Slot{Day: 1, Start: planner.Clock(8+i, 0), End: planner.Clock(9+i, 0)}}))
		b = must(db.AddCandidates(ctx, f.member, f.plan.ID, b.ID, f.cps[1:3], nil))
		for _, c := range b.Candidates {
			j := 0
			for _, m := range members {
				opine(t, db, c.ID, m, types[j], "")
				j++
			}
		}
	}

	queries.Reset()
	day, err := db.DayBlocks(ctx, voters[0], f.plan.ID, 1, planner.Page{Size: 20})
	info, blocks, hasNext := day.Info, day.Blocks, day.HasNext
	if n := queries.Count(); n > 4 {
		t.Errorf("DayBlocks ran %d statements, want at most 4", n)
	}
	if err != nil || hasNext || info.Day != 1 || len(blocks) != 15 {
		t.Fatalf("%+v, %d blocks, %v, %v", info, len(blocks), hasNext, err)
	}
	for _, b := range blocks {
		if len(b.Candidates) != 3 || b.Status() != planner.StatusPending {
			t.Fatalf("block %+v", b)
		}
		for _, c := range b.Candidates {
			if s := c.Opinions; s.Total != 5 || s.Positive+s.Neutral+s.Negative != 5 || s.Mine == nil || c.Place == nil {
				t.Fatalf("candidate %+v", c)
			}
		}
	}
}

// TestDemoPlanBlocks reads the demo seed's first day: a block in every status.
func TestDemoPlanBlocks(t *testing.T) {
	db, demo := seededDB(t)
	ana := must(db.SignInUser(t.Context(), planner.User{Provider: planner.ProviderGoogle, ProviderID: "demo-ana"}))
	day, err := db.DayBlocks(t.Context(), ana.ID, demo.plan, 1, planner.Page{Size: 20})
	blocks := day.Blocks
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range blocks {
		got = append(got, b.Start.String()[:5]+" "+string(b.Status()))
	}
	if want := []string{"10:00 FIXED", "12:00 DIRECT", "14:00 PENDING", "16:00 NOTHING"}; !slices.Equal(got, want) {
		t.Errorf("demo day 1: %v, want %v", got, want)
	}
	palace := blocks[0].Selected()
	if palace == nil || palace.Place.Name != "Gyeongbokgung Palace" || palace.Opinions.Total != 1 || palace.Opinions.Mine != nil {
		t.Errorf("demo palace %+v", palace)
	}
}

// memberIDs maps user ids to their plan member ids.
func memberIDs(t *testing.T, db *postgres.DB, planID string) map[string]string {
	t.Helper()
	var rows []struct {
		User   string `db:"user_id"`
		Member string `db:"id"`
	}
	if err := db.Select(&rows, `SELECT user_id, id FROM plan_members WHERE plan_id = $1`, planID); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range rows {
		out[r.User] = r.Member
	}
	return out
}

// opine records a member's opinion of a candidate (the opinion endpoints come with the
// budget/opinions issue).
func opine(t *testing.T, db *postgres.DB, candidateID, memberID, typ, comment string) {
	t.Helper()
	_, err := db.Exec(`INSERT INTO opinions (id, candidate_id, member_id, type, comment) VALUES ($1, $2, $3, $4, $5)`,
		planner.NewID(), candidateID, memberID, typ, comment)
	if err != nil {
		t.Fatal(err)
	}
}

// asError is errors.As for *planner.Error.
func asError(err error, pe **planner.Error) bool { return errors.As(err, pe) }
