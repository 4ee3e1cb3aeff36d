package postgres_test

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"tripplan/internal/planner"
	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
)

func TestCreatePlan(t *testing.T) {
	db := pgtest.New(t)
	ctx := t.Context()
	owner := newUser(t, db, "Owner")
	p, err := db.CreatePlan(ctx, owner, planner.PlanInput{Title: "Seoul", StartDate: day("2026-12-30"), EndDate: day("2027-01-02")})
	if err != nil {
		t.Fatal(err)
	}
	if p.Title != "Seoul" || p.StartDate.Format(time.DateOnly) != "2026-12-30" || p.EndDate.Format(time.DateOnly) != "2027-01-02" ||
		p.DurationDays() != 4 || p.MemberCount != 1 || p.CollectionCount != 0 || p.Thumbnail != "" || !planner.ValidID(p.ID) {
		t.Errorf("created %+v", p)
	}
	var days []string
	if err := db.Select(&days, `SELECT day || ' ' || date FROM plan_days WHERE plan_id = $1 ORDER BY day`, p.ID); err != nil {
		t.Fatal(err)
	}
	if want := []string{"1 2026-12-30", "2 2026-12-31", "3 2027-01-01", "4 2027-01-02"}; !slices.Equal(days, want) {
		t.Errorf("days %v, want %v", days, want)
	}
	var budgets, owners int
	mustGet(t, db, &budgets, `SELECT count(*) FROM budgets WHERE plan_id = $1 AND mode = 'INITIAL'`, p.ID)
	mustGet(t, db, &owners, `SELECT count(*) FROM plan_members WHERE plan_id = $1 AND role = 'OWNER' AND user_id = $2`, p.ID, owner)
	if budgets != 1 || owners != 1 {
		t.Errorf("%d budgets, %d owners; want 1 and 1", budgets, owners)
	}

	for _, tc := range []struct{ start, end string }{{"2027-01-01", "2027-01-31"}, {"2027-01-02", "2027-01-01"}} {
		_, err := db.CreatePlan(ctx, owner, planner.PlanInput{Title: "Bad", StartDate: day(tc.start), EndDate: day(tc.end)})
		wantCode(t, tc.start+".."+tc.end, err, planner.CodeInvalidDateRange)
	}
	// The database holds titles of up to 50 characters (Unicode characters, not bytes).
	if _, err := db.CreatePlan(ctx, owner, planner.PlanInput{Title: strings.Repeat("한", 50), StartDate: day("2027-01-01"), EndDate: day("2027-01-01")}); err != nil {
		t.Errorf("50-character title: %v", err)
	}
	_, err = db.CreatePlan(ctx, owner, planner.PlanInput{Title: strings.Repeat("x", 51), StartDate: day("2027-01-01"), EndDate: day("2027-01-01")})
	wantCode(t, "long title", err, planner.CodeInvalidRequest)
	_, err = db.CreatePlan(ctx, planner.NewID(), planner.PlanInput{Title: "Nobody", StartDate: day("2027-01-01"), EndDate: day("2027-01-01")})
	wantCode(t, "unknown user", err, planner.CodeUserNotFound)
}

func TestPlansAndPlan(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	ctx := t.Context()
	second := must(db.CreatePlan(ctx, f.member, planner.PlanInput{Title: "Second", StartDate: day("2027-02-01"), EndDate: day("2027-02-01")}))

	// The member joined the fixture's plan before creating the second: newest membership first.
	page, hasNext, err := db.Plans(ctx, f.member, planner.Page{Size: 1})
	if err != nil || !hasNext || len(page) != 1 || page[0].ID != second.ID {
		t.Fatalf("first page: %+v, %v, %v", page, hasNext, err)
	}
	page, hasNext, err = db.Plans(ctx, f.member, planner.Page{Number: 1, Size: 1})
	if err != nil || hasNext || len(page) != 1 || page[0].ID != f.plan.ID {
		t.Fatalf("second page: %+v, %v, %v", page, hasNext, err)
	}
	// Counts, and the thumbnail from the linked collection until a block has a photo.
	if p := page[0]; p.MemberCount != 2 || p.CollectionCount != 1 || p.Thumbnail != "https://img.example/0.jpg" {
		t.Errorf("listed %+v", p)
	}
	f.block(t, 2, 3, "10:00", "11:00")
	f.block(t, 1, 2, "18:00", "19:00")
	if p := must(db.Plan(ctx, f.owner, f.plan.ID)); p.Thumbnail != "https://img.example/2.jpg" {
		t.Errorf("thumbnail %q, want the first block's photo", p.Thumbnail)
	}
	if page, _, _ := db.Plans(ctx, f.stranger, planner.Page{Size: 10}); len(page) != 0 {
		t.Errorf("a stranger lists %+v", page)
	}

	_, err = db.Plan(ctx, f.stranger, f.plan.ID)
	wantCode(t, "stranger", err, planner.CodeForbiddenNotMember)
	_, err = db.Plan(ctx, f.owner, planner.NewID())
	wantCode(t, "unknown plan", err, planner.CodePlanNotFound)
	_, err = db.Plan(ctx, f.owner, "not an id")
	wantCode(t, "malformed id", err, planner.CodePlanNotFound)
}

// planDays returns "day date" of each day of a plan.
func planDays(t *testing.T, db *postgres.DB, planID string) []string {
	t.Helper()
	var days []string
	if err := db.Select(&days, `SELECT day || ' ' || date FROM plan_days WHERE plan_id = $1 ORDER BY day`, planID); err != nil {
		t.Fatal(err)
	}
	return days
}

func TestUpdatePlanConfirmation(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	ctx := t.Context()
	f.block(t, 2, 0, "10:00", "11:00")
	f.block(t, 3, 1, "10:00", "11:00")
	f.block(t, 3, 2, "12:00", "13:00")
	change := func(start, end string) planner.PlanInput {
		return planner.PlanInput{Title: "Renamed", StartDate: day(start), EndDate: day(end)}
	}

	t.Run("title only applies at once", func(t *testing.T) {
		u, err := db.UpdatePlan(ctx, f.member, f.plan.ID, change("2026-11-27", "2026-11-29"), false, planner.AnyVersion)
		if err != nil || u.RequiresConfirmation || u.Type != "" || u.AffectedDays != nil || u.Plan == nil || u.Plan.Title != "Renamed" {
			t.Fatalf("%+v, %v", u, err)
		}
	})

	t.Run("decrease asks first", func(t *testing.T) {
		u, err := db.UpdatePlan(ctx, f.member, f.plan.ID, planner.PlanInput{Title: "Shorter", StartDate: day("2026-11-27"), EndDate: day("2026-11-27")}, false, planner.AnyVersion)
		want := []planner.AffectedDay{{Day: 2, BlockCount: 1}, {Day: 3, BlockCount: 2}}
		if err != nil || !u.RequiresConfirmation || u.Type != planner.DateChangeDecrease || u.Plan != nil || !slices.Equal(u.AffectedDays, want) {
			t.Fatalf("%+v, %v", u, err)
		}
		p := must(db.Plan(ctx, f.owner, f.plan.ID))
		if p.Title != "Renamed" || p.DurationDays() != 3 || len(planDays(t, db, f.plan.ID)) != 3 {
			t.Errorf("unconfirmed change applied: %+v", p)
		}
	})

	t.Run("decrease confirmed deletes the days and their blocks", func(t *testing.T) {
		u, err := db.UpdatePlan(ctx, f.member, f.plan.ID, change("2026-11-28", "2026-11-29"), true, planner.AnyVersion)
		want := []planner.AffectedDay{{Day: 3, BlockCount: 2}}
		if err != nil || u.RequiresConfirmation || u.Type != planner.DateChangeDecrease || u.Plan == nil || !slices.Equal(u.AffectedDays, want) {
			t.Fatalf("%+v, %v", u, err)
		}
		if days := planDays(t, db, f.plan.ID); !slices.Equal(days, []string{"1 2026-11-28", "2 2026-11-29"}) {
			t.Errorf("days %v", days)
		}
		var blocks, candidates, expenses int
		mustGet(t, db, &blocks, `SELECT count(*) FROM time_blocks WHERE plan_id = $1`, f.plan.ID)
		mustGet(t, db, &candidates, `SELECT count(*) FROM candidates`)
		mustGet(t, db, &expenses, `SELECT count(*) FROM expenses`)
		if blocks != 1 || candidates != 1 || expenses != 1 {
			t.Errorf("%d blocks, %d candidates, %d expenses left; want 1 each", blocks, candidates, expenses)
		}
	})

	t.Run("increase", func(t *testing.T) {
		u, err := db.UpdatePlan(ctx, f.member, f.plan.ID, change("2026-11-28", "2026-12-01"), false, planner.AnyVersion)
		if err != nil || !u.RequiresConfirmation || u.Type != planner.DateChangeIncrease || len(u.AffectedDays) != 0 || u.AffectedDays == nil {
			t.Fatalf("%+v, %v", u, err)
		}
		u, err = db.UpdatePlan(ctx, f.member, f.plan.ID, change("2026-11-28", "2026-12-01"), true, planner.AnyVersion)
		if err != nil || u.Plan == nil || u.Plan.DurationDays() != 4 {
			t.Fatalf("%+v, %v", u, err)
		}
		if days := planDays(t, db, f.plan.ID); !slices.Equal(days, []string{"1 2026-11-28", "2 2026-11-29", "3 2026-11-30", "4 2026-12-01"}) {
			t.Errorf("days %v", days)
		}
	})

	t.Run("stay moves the dates and keeps the blocks", func(t *testing.T) {
		u, err := db.UpdatePlan(ctx, f.member, f.plan.ID, change("2027-03-01", "2027-03-04"), true, planner.AnyVersion)
		if err != nil || u.Type != planner.DateChangeStay || u.Plan == nil {
			t.Fatalf("%+v, %v", u, err)
		}
		if days := planDays(t, db, f.plan.ID); !slices.Equal(days, []string{"1 2027-03-01", "2 2027-03-02", "3 2027-03-03", "4 2027-03-04"}) {
			t.Errorf("days %v", days)
		}
		day, err := db.DayBlocks(ctx, f.owner, f.plan.ID, 2, planner.Page{Size: 10})
		info, blocks := day.Info, day.Blocks
		if err != nil || len(blocks) != 1 || info.Date.Format(time.DateOnly) != "2027-03-02" || info.DayOfWeek() != "TUESDAY" {
			t.Errorf("day 2: %+v %+v %v", info, blocks, err)
		}
	})

	t.Run("errors", func(t *testing.T) {
		_, err := db.UpdatePlan(ctx, f.member, f.plan.ID, change("2027-03-01", "2027-04-01"), true, planner.AnyVersion)
		wantCode(t, "31 days", err, planner.CodeInvalidDateRange)
		_, err = db.UpdatePlan(ctx, f.stranger, f.plan.ID, change("2027-03-01", "2027-03-02"), true, planner.AnyVersion)
		wantCode(t, "stranger", err, planner.CodeForbiddenNotMember)
		_, err = db.UpdatePlan(ctx, f.member, planner.NewID(), change("2027-03-01", "2027-03-02"), true, planner.AnyVersion)
		wantCode(t, "unknown plan", err, planner.CodePlanNotFound)
	})
}

func TestPlanMembership(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	ctx := t.Context()
	third := newUser(t, db, "Third")
	thirdMember := join(t, db, f.plan.ID, third)

	g, err := db.PlanMembers(ctx, f.member, f.plan.ID)
	if err != nil || len(g.Members) != 3 || g.Members[0].Role != planner.RoleOwner || g.Me == nil || g.Me.Nickname != "Member" {
		t.Fatalf("members %+v, %v", g, err)
	}
	ownerMember, memberMember := g.Members[0].ID, g.Members[1].ID

	wantCode(t, "member deletes", db.DeletePlan(ctx, f.member, f.plan.ID, planner.AnyVersion), planner.CodeForbiddenNotOwner)
	wantCode(t, "member hands over", db.ChangePlanOwner(ctx, f.member, f.plan.ID, memberMember), planner.CodeForbiddenNotOwner)
	wantCode(t, "member removes", db.RemovePlanMember(ctx, f.member, f.plan.ID, thirdMember), planner.CodeForbiddenNotOwner)
	wantCode(t, "owner leaves", db.LeavePlan(ctx, f.owner, f.plan.ID), planner.CodeNeedToDelegateOwnership)
	wantCode(t, "owner removes self", db.RemovePlanMember(ctx, f.owner, f.plan.ID, ownerMember), planner.CodeNeedToDelegateOwnership)
	wantCode(t, "hand over to self", db.ChangePlanOwner(ctx, f.owner, f.plan.ID, ownerMember), planner.CodeCannotDelegateOwnershipToSelf)
	wantCode(t, "hand over to nobody", db.ChangePlanOwner(ctx, f.owner, f.plan.ID, planner.NewID()), planner.CodeMemberNotFound)
	wantCode(t, "stranger leaves", db.LeavePlan(ctx, f.stranger, f.plan.ID), planner.CodeForbiddenNotMember)

	// The third member is removed, the owner hands over to the member, then can leave.
	if err := db.RemovePlanMember(ctx, f.owner, f.plan.ID, thirdMember); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "removed twice", db.RemovePlanMember(ctx, f.owner, f.plan.ID, thirdMember), planner.CodeMemberNotFound)
	_, err = db.Plan(ctx, third, f.plan.ID)
	wantCode(t, "removed member reads", err, planner.CodeForbiddenNotMember)
	if err := db.ChangePlanOwner(ctx, f.owner, f.plan.ID, memberMember); err != nil {
		t.Fatal(err)
	}
	if err := db.LeavePlan(ctx, f.owner, f.plan.ID); err != nil {
		t.Fatal(err)
	}
	g = must(db.PlanMembers(ctx, f.member, f.plan.ID))
	if len(g.Members) != 1 || g.Members[0].ID != memberMember || g.Members[0].Role != planner.RoleOwner {
		t.Errorf("members after hand-over and leave: %+v", g.Members)
	}

	// Only the (new) owner deletes the plan, with everything in it.
	must(db.AddBlock(ctx, f.member, f.plan.ID, planner.NewBlock{Type: planner.BlockFree, Slot: slot(1, "10:00", "11:00")}))
	if err := db.DeletePlan(ctx, f.member, f.plan.ID, planner.AnyVersion); err != nil {
		t.Fatal(err)
	}
	_, err = db.Plan(ctx, f.member, f.plan.ID)
	wantCode(t, "deleted plan", err, planner.CodePlanNotFound)
	var left int
	mustGet(t, db, &left, `SELECT (SELECT count(*) FROM time_blocks) + (SELECT count(*) FROM plan_days) + (SELECT count(*) FROM budgets)`)
	if left != 0 {
		t.Errorf("%d rows of the deleted plan left", left)
	}
}

// TestThumbnailsSkipPlacesWithoutPhotos: a plan's and a collection's thumbnail is the first
// place that has a photo (migration 00029's places_with_photo holds only those), passing over
// earlier places without one — in the plan's blocks, in its linked collections and in a
// collection.
func TestThumbnailsSkipPlacesWithoutPhotos(t *testing.T) {
	db := pgtest.New(t)
	f := newTrip(t, db)
	ctx := t.Context()
	bare := must(db.SavePlaces(ctx, []planner.Place{{Provider: "GOOGLE", ProviderPlaceID: "no-photo", Name: "No photo"}}))[0]

	// A collection whose first place has no photo: its thumbnail is its second place's.
	mixed := must(db.CreateCollection(ctx, f.owner, "Mixed")).ID
	must(db.AddCollectionPlace(ctx, f.owner, mixed, bare.ID))
	must(db.AddCollectionPlace(ctx, f.owner, mixed, f.places[3]))
	if c := must(db.Collection(ctx, f.owner, mixed)); c.Thumbnail != "https://img.example/3.jpg" {
		t.Errorf("collection thumbnail %q, want the first place with a photo", c.Thumbnail)
	}
	listed, _, err := db.Collections(ctx, f.owner, planner.Page{Size: 10}, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range listed {
		if c.ID == mixed && c.Thumbnail != "https://img.example/3.jpg" {
			t.Errorf("listed collection thumbnail %q, want the first place with a photo", c.Thumbnail)
		}
	}

	// A plan without blocks, linked to it: the linked collection's first place with a photo.
	other := must(db.CreatePlan(ctx, f.owner, planner.PlanInput{Title: "Other", StartDate: day("2027-03-01"), EndDate: day("2027-03-02")}))
	must(db.LinkCollections(ctx, f.owner, other.ID, []string{mixed}))
	if p := must(db.Plan(ctx, f.owner, other.ID)); p.Thumbnail != "https://img.example/3.jpg" {
		t.Errorf("plan thumbnail %q from its collection, want the first place with a photo", p.Thumbnail)
	}

	// The fixture's plan: the first block of day 1 has a place without a photo, the next one has.
	bareCP := must(db.AddCollectionPlace(ctx, f.owner, f.linked, bare.ID)).ID
	must(db.AddBlock(ctx, f.owner, f.plan.ID, planner.NewBlock{Type: planner.BlockPlace, CollectionPlaceID: bareCP, Slot: slot(1, "08:00", "09:00")}))
	f.block(t, 1, 4, "09:00", "10:00")
	f.block(t, 2, 1, "08:00", "09:00")
	page, _, err := db.Plans(ctx, f.owner, planner.Page{Size: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range page {
		want := map[string]string{f.plan.ID: "https://img.example/4.jpg", other.ID: "https://img.example/3.jpg"}[p.ID]
		if p.Thumbnail != want {
			t.Errorf("listed plan %q: thumbnail %q, want %q", p.Title, p.Thumbnail, want)
		}
	}
}

// TestPlanListKeepsThumbnails: with the change feed followed, the plan list finds a plan's
// thumbnail once and then reads it from the day cache (the list and one statement confirming
// every kept thumbnail's plan unchanged, rather than the list and the search), until the
// plan changes: a block with a photo (applied at once by the writing instance), or a place
// taken out of a linked collection (which records an event of the plan too, learnt from the
// feed).
func TestPlanListKeepsThumbnails(t *testing.T) {
	db, statements, url := pgtest.Counted(t)
	if err := db.Listen(t.Context(), url, nil); err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	f := newTrip(t, db)
	bare := must(db.SavePlaces(ctx, []planner.Place{{Provider: "GOOGLE", ProviderPlaceID: "no-photo", Name: "No photo"}}))[0]
	plain := must(db.CreateCollection(ctx, f.owner, "Plain")).ID
	must(db.AddCollectionPlace(ctx, f.owner, plain, bare.ID))
	withPhoto := must(db.AddCollectionPlace(ctx, f.owner, plain, f.places[3])).ID
	other := must(db.CreatePlan(ctx, f.owner, planner.PlanInput{Title: "Other", StartDate: day("2027-03-01"), EndDate: day("2027-03-02")}))
	// Notifications arrive in the order their transactions committed: once the link's has
	// arrived, so have those of everything before it, and plans change only when the test
	// says.
	linked, cancelLinked, err := db.Subscribe(planner.PlanTopic(other.ID))
	if err != nil {
		t.Fatal(err)
	}
	must(db.LinkCollections(ctx, f.owner, other.ID, []string{plain}))
	for ev := range linked {
		if ev.Kind == "collections" {
			break
		}
	}
	cancelLinked()

	list := func() (map[string]string, int) { return thumbnails(t, db, f.owner, statements) }
	want := map[string]string{f.plan.ID: "https://img.example/0.jpg", other.ID: "https://img.example/3.jpg"}
	if got, n := list(); !maps.Equal(got, want) || n != 2 {
		t.Fatalf("first list: %v in %d statements, want %v in 2", got, n, want)
	}
	if got, n := list(); !maps.Equal(got, want) || n != 2 {
		t.Fatalf("second list: %v in %d statements, want %v kept, in 2", got, n, want)
	}

	// A block with a photo: the writing instance knows at once.
	f.block(t, 1, 2, "10:00", "11:00")
	want[f.plan.ID] = "https://img.example/2.jpg"
	if got, n := list(); !maps.Equal(got, want) || n != 3 {
		t.Fatalf("after a block: %v in %d statements, want %v in 3", got, n, want)
	}

	// The place with a photo taken out of the other plan's linked collection: known from the
	// feed, which moves the cache's versions before it hands the event to subscribers.
	events, cancel, err := db.Subscribe(planner.PlanTopic(other.ID))
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	if err := db.DeleteCollectionPlace(ctx, f.owner, plain, withPhoto, planner.AnyVersion); err != nil {
		t.Fatal(err)
	}
	for ev := range events {
		if ev.Kind == "collections" {
			break
		}
	}
	want[other.ID] = ""
	if got, n := list(); !maps.Equal(got, want) || n != 3 {
		t.Fatalf("after the collection's place was taken out: %v in %d statements, want %v in 3", got, n, want)
	}
	if got, n := list(); !maps.Equal(got, want) || n != 2 {
		t.Fatalf("listed again: %v in %d statements, want %v kept, in 2", got, n, want)
	}
}

// thumbnails lists the owner's plans: each plan's thumbnail, and the statements the list took.
func thumbnails(t *testing.T, db *postgres.DB, owner string, statements *pgtest.Counter) (map[string]string, int) {
	t.Helper()
	statements.Reset()
	page, _, err := db.Plans(t.Context(), owner, planner.Page{Size: 10})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range page {
		got[p.ID] = p.Thumbnail
	}
	return got, statements.Count()
}
