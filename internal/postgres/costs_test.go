package postgres_test

import (
	"testing"
	"time"

	"tripplan/internal/money"
	"tripplan/internal/planner"
	"tripplan/internal/postgres"
)

// TestKeptCostsFollowOtherInstancesWrites: a plan's costs are read once and kept while the
// plan is unchanged (a repeated budget read runs fewer statements), and an expense added
// through another instance is counted as soon as this instance's change feed takes its event.
func TestKeptCostsFollowOtherInstancesWrites(t *testing.T) {
	db, queries, dsn := listening(t)
	f := newTrip(t, db)
	ctx := t.Context()
	other, err := postgres.Open(ctx, dsn) // another instance: no change feed of its own
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })

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

	before := db.PlanVersion(f.plan.ID)
	cost, err := money.ParseDecimal("12000")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.AddExpense(ctx, f.owner, f.plan.ID, planner.NewExpense{Day: 1,
		Items: []planner.NewItem{{Name: "Dinner", Cost: cost}}}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); db.PlanVersion(f.plan.ID) == before; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the feed never took the other instance's write")
		}
	}
	if total, _ := budget(); total != 12000 {
		t.Fatalf("total %d after the other instance's expense, want 12000", total)
	}
}
