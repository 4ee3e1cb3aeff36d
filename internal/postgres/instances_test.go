package postgres_test

import (
	"maps"
	"sync"
	"testing"
	"time"

	"tripplan/internal/money"
	"tripplan/internal/planner"
	"tripplan/internal/postgres"
)

// Many instances, one truth: what an instance keeps in memory is confirmed against the
// database before it is served, so a write through another instance is seen on the next read
// even when this instance's change feed has not taken the write's notification yet. The tests
// hold the reading instance's feed so that it cannot, whatever the machine's speed.

// otherInstance opens another instance on the database of dsn, without a change feed.
func otherInstance(t *testing.T, dsn string) *postgres.DB {
	t.Helper()
	other, err := postgres.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	return other
}

// holdFeed stops db's change feed from taking events until the test ends. Once everything
// written so far has gone through it, the feed is held at a change to the plan made through
// other; every notification after that waits, as a late one would.
func holdFeed(t *testing.T, db, other *postgres.DB, plan string) {
	t.Helper()
	events, cancel, err := db.Subscribe(planner.PlanTopic(plan))
	if err != nil {
		t.Fatal(err)
	}
	rename := func(title string) {
		t.Helper()
		if _, err := other.Exec(`UPDATE plans SET title = $2 WHERE id = $1`, plan, title); err != nil {
			t.Fatal(err)
		}
	}
	rename("Synced")
	awaitEvent(t, events, plan, newestEvent(t, db)-1) // the feed has taken everything before
	cancel()
	release := sync.OnceFunc(db.HoldFeed())
	t.Cleanup(release)
	before := db.PlanVersion(plan)
	rename("Held") // the feed takes this one and waits before the next
	for deadline := time.Now().Add(10 * time.Second); db.PlanVersion(plan) == before; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the feed never took the change")
		}
	}
}

// TestDayListingSeesAnotherInstancesWriteAtOnce: a kept day listing is served after one
// statement confirms the plan unchanged, and not once another instance added a block.
func TestDayListingSeesAnotherInstancesWriteAtOnce(t *testing.T) {
	db, queries, dsn := listening(t)
	f := newTrip(t, db)
	ctx := t.Context()
	first := f.block(t, 1, 0, "10:00", "11:00")
	other := otherInstance(t, dsn)
	holdFeed(t, db, other, f.plan.ID)

	listed := func() ([]string, int) {
		t.Helper()
		queries.Reset()
		day, err := db.DayBlocks(ctx, f.member, f.plan.ID, 1, planner.Page{Size: 20})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, b := range day.Blocks {
			ids = append(ids, b.ID)
		}
		return ids, queries.Count()
	}
	if ids, _ := listed(); len(ids) != 1 || ids[0] != first.ID {
		t.Fatalf("day 1: %v, want [%s]", ids, first.ID)
	}
	if ids, n := listed(); len(ids) != 1 || n != 1 {
		t.Fatalf("day 1 again: %v in %d statements, want the kept listing after 1", ids, n)
	}
	g := *f
	g.db = other
	second := g.block(t, 1, 1, "12:00", "13:00")
	if ids, _ := listed(); len(ids) != 2 || ids[0] != first.ID || ids[1] != second.ID {
		t.Fatalf("day 1 after another instance's block: %v, want [%s %s]", ids, first.ID, second.ID)
	}
}

// TestKeptCostsFollowOtherInstancesWrites: a plan's costs are read once and kept while the
// plan is unchanged (a repeated budget read runs fewer statements), and an expense added
// through another instance is counted on the next read, before this instance's change feed
// takes its event.
func TestKeptCostsFollowOtherInstancesWrites(t *testing.T) {
	db, queries, dsn := listening(t)
	f := newTrip(t, db)
	ctx := t.Context()
	other := otherInstance(t, dsn)
	holdFeed(t, db, other, f.plan.ID)

	budget := func() (total int64, statements int) {
		t.Helper()
		queries.Reset()
		b, err := db.Budget(ctx, f.member, f.plan.ID)
		if err != nil {
			t.Fatal(err)
		}
		return b.TotalCost, queries.Count()
	}
	total, cold := budget()
	if total != 0 {
		t.Fatalf("total %d before any expense", total)
	}
	if _, warm := budget(); warm >= cold {
		t.Fatalf("statements: %d reading the costs, then %d with them kept", cold, warm)
	}

	cost, err := money.ParseDecimal("12000")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.AddExpense(ctx, f.owner, f.plan.ID, planner.NewExpense{Day: 1,
		Items: []planner.NewItem{{Name: "Dinner", Cost: cost}}}); err != nil {
		t.Fatal(err)
	}
	if total, _ := budget(); total != 12000 {
		t.Fatalf("total %d after the other instance's expense, want 12000", total)
	}
}

// TestPlanListSeesAnotherInstancesThumbnailAtOnce: kept thumbnails are served after one
// statement confirms their plans unchanged, and a plan whose thumbnail another instance
// changed is looked at again.
func TestPlanListSeesAnotherInstancesThumbnailAtOnce(t *testing.T) {
	db, queries, dsn := listening(t)
	f := newTrip(t, db)
	ctx := t.Context()
	other := otherInstance(t, dsn)
	second := must(db.CreatePlan(ctx, f.owner, planner.PlanInput{Title: "Second", StartDate: day("2027-03-01"), EndDate: day("2027-03-02")}))
	holdFeed(t, db, other, f.plan.ID)

	list := func() (map[string]string, int) { return thumbnails(t, db, f.owner, queries) }
	want := map[string]string{f.plan.ID: "https://img.example/0.jpg", second.ID: ""}
	if got, n := list(); !maps.Equal(got, want) || n != 2 {
		t.Fatalf("first list: %v in %d statements, want %v in 2", got, n, want)
	}
	if got, n := list(); !maps.Equal(got, want) || n != 2 {
		t.Fatalf("second list: %v in %d statements, want %v kept, in 2", got, n, want)
	}
	g := *f
	g.db = other
	g.block(t, 1, 2, "10:00", "11:00")
	want[f.plan.ID] = "https://img.example/2.jpg"
	if got, n := list(); !maps.Equal(got, want) || n != 3 {
		t.Fatalf("after another instance's block: %v in %d statements, want %v in 3", got, n, want)
	}
}

// TestLanguageSettingIsSeenByEveryInstanceAtOnce: a user's language setting changed through
// one instance is what another answers next, in one statement.
func TestLanguageSettingIsSeenByEveryInstanceAtOnce(t *testing.T) {
	db, queries, dsn := listening(t)
	f := newTrip(t, db)
	ctx := t.Context()
	other := otherInstance(t, dsn)
	holdFeed(t, db, other, f.plan.ID)
	lang := func() (string, int) {
		t.Helper()
		queries.Reset()
		l, err := db.Language(ctx, f.member)
		if err != nil {
			t.Fatal(err)
		}
		if l == nil {
			return "", queries.Count()
		}
		return *l, queries.Count()
	}
	if l, _ := lang(); l != "" {
		t.Fatalf("a new user's language setting is %q", l)
	}
	ko := "ko"
	if _, err := other.UpdateProfile(ctx, f.member, planner.ProfileChange{SetLanguage: true, Language: &ko}); err != nil {
		t.Fatal(err)
	}
	if l, n := lang(); l != "ko" || n != 1 {
		t.Fatalf("after the other instance's change: %q in %d statements, want ko in 1", l, n)
	}
}
