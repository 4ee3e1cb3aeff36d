package postgres_test

import (
	"fmt"
	"strings"
	"testing"

	"tripplan/internal/planner"
	"tripplan/internal/postgres"
	"tripplan/internal/postgres/pgtest"
)

// restoreOf is a backup of days days, each with blocks time blocks of two candidates (a
// catalogue place and a custom one, the first selected) with an opinion by "mine" and one by
// "ben" on each candidate, their expenses paid by both, and an additional expense a day.
func restoreOf(catalogue planner.Place, days, blocks int) *planner.Restore {
	r := &planner.Restore{
		Plan:    planner.PlanInput{Title: "Backup", StartDate: day("2026-06-01"), EndDate: day("2026-06-01").AddDate(0, 0, days-1), TimeZone: "Asia/Seoul", Currency: "KRW"},
		Budget:  planner.RestoreBudget{Mode: planner.BudgetBudget, TotalBudget: new(int64(100000)), TravelerCount: 2},
		Members: map[string]string{"mine": "Ana", "ben": "Ben"},
		Places:  []planner.RestorePlace{{Key: catalogue.ID}, {Key: "custom", Name: "Aunt's house", Address: "Mapo-gu", Latitude: "37.550000", Longitude: "126.910000"}},
		Words:   map[planner.OpinionType]string{planner.OpinionPositive: "like", planner.OpinionNegative: "dislike"},
	}
	both := planner.Terms{Payers: []planner.Part{{MemberID: "mine", Amount: 600}, {MemberID: "ben", Amount: 400}},
		Split: planner.Split{Mode: planner.SplitShares, Parts: []planner.Part{{MemberID: "mine", Shares: 1}, {MemberID: "ben", Shares: 3}}}}
	for d := 1; d <= days; d++ {
		for b := range blocks {
			block := planner.RestoreBlock{Day: d, Type: planner.BlockPlace, Start: planner.Clock(8+b, 0), End: planner.Clock(8+b, 30), FixedTime: b == 0}
			for i, place := range []string{catalogue.ID, "custom"} {
				key := fmt.Sprintf("c-%d-%d-%d", d, b, i)
				block.Candidates = append(block.Candidates, planner.RestoreCandidate{Key: key, PlaceKey: place, Memo: "memo", Selected: i == 0, AddedBy: "ben",
					Opinions: []planner.RestoreOpinion{{Type: planner.OpinionPositive, Comment: "nice", TagIDs: []string{"view"}, AddedBy: "mine"}, {Type: planner.OpinionNegative, AddedBy: "ben"}}})
				r.Expenses = append(r.Expenses, planner.RestoreExpense{Kind: planner.ExpenseBlock, CandidateKey: key,
					Items: []planner.ExpenseItem{{Name: "Ticket", Cost: 1000}}, Terms: both})
			}
			r.Blocks = append(r.Blocks, block)
		}
		r.Expenses = append(r.Expenses, planner.RestoreExpense{Kind: planner.ExpenseAdditional, Day: d, AfterBlock: len(r.Blocks) - 1,
			Items: []planner.ExpenseItem{{Name: "Taxi", Cost: 700}, {Name: "Bus", Cost: 300}}, Terms: planner.Terms{PaidBy: "ben"}})
	}
	return r
}

// tables counts the rows a restore writes.
func tables(t *testing.T, db *postgres.DB) string {
	t.Helper()
	var out []string
	for _, table := range []string{"plans", "plan_members", "plan_days", "budgets", "places", "time_blocks", "candidates", "opinions", "expenses", "expense_items", "plan_collections", "activities"} {
		out = append(out, fmt.Sprintf("%s %d", table, count(t, db, `SELECT count(*) FROM `+table)))
	}
	return strings.Join(out, ", ")
}

// A restore is one transaction: a row refused by the database at the very end (the last item
// of the last expense, written by the last insert) leaves nothing of it; the same backup with
// that row right makes the whole plan.
func TestRestorePlanIsAllOrNothing(t *testing.T) {
	f := newImportFixture(t)
	db, ctx := f.db, t.Context()
	before := tables(t, db)
	r := restoreOf(f.palace, 2, 3)
	last := &r.Expenses[len(r.Expenses)-1]
	last.Items[len(last.Items)-1].Name = strings.Repeat("x", 101) // expense_items_name_length
	if _, err := db.RestorePlan(ctx, f.owner, r); err == nil {
		t.Fatal("a refused last row restored the plan")
	}
	if after := tables(t, db); after != before {
		t.Fatalf("a failed restore left rows:\n%s\n%s", before, after)
	}
	last.Items[len(last.Items)-1].Name = "Bus"
	p, err := db.RestorePlan(ctx, f.owner, r)
	if err != nil {
		t.Fatal(err)
	}
	if p.Title != "Backup" || p.MemberCount != 1 || p.TimeZone != "Asia/Seoul" || p.DurationDays() != 2 {
		t.Fatalf("plan: %+v", p)
	}
	// 6 blocks (2 marked fixed) of 2 candidates: the catalogue place and one custom place made
	// anew; no opinion (the key "mine" is no membership of the caller's, so every opinion is a
	// note); 12 candidates' expenses, paid and shared by her alone, and 2 additional ones.
	for query, want := range map[string]int{
		`SELECT count(*) FROM time_blocks WHERE plan_id = $1`:                                                                                          6,
		`SELECT count(*) FROM time_blocks WHERE plan_id = $1 AND fixed_time`:                                                                           2,
		`SELECT count(*) FROM candidates c JOIN time_blocks b ON b.id = c.time_block_id WHERE b.plan_id = $1`:                                          12,
		`SELECT count(*) FROM opinions o JOIN candidates c ON c.id = o.candidate_id JOIN time_blocks b ON b.id = c.time_block_id WHERE b.plan_id = $1`: 0,
		`SELECT count(*) FROM expenses WHERE plan_id = $1`:                                                                                             14,
		`SELECT count(DISTINCT c.place_id) FROM candidates c JOIN time_blocks b ON b.id = c.time_block_id WHERE b.plan_id = $1`:                        2,
		`SELECT count(*) FROM expenses WHERE plan_id = $1 AND payers @> '[{"amount": 1000}]' AND split_parts @> '[{"shares": 1}]'`:                     12,
	} {
		if n := count(t, db, query, p.ID); n != want {
			t.Errorf("%s: %d, want %d", query, n, want)
		}
	}
	var memo string
	if err := db.Get(&memo, `SELECT c.memo FROM candidates c JOIN time_blocks b ON b.id = c.time_block_id WHERE b.plan_id = $1 LIMIT 1`, p.ID); err != nil ||
		memo != "memo\nAna: like — “nice”\nBen: dislike" {
		t.Errorf("memo %q %v", memo, err)
	}
	b, err := db.PlanExport(ctx, f.owner, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if b.Budget.TotalCost != 2*(1000*3+1000) || *b.Budget.TotalBudget != 100000 || b.Budget.TravelerCount != 2 {
		t.Errorf("budget %+v", b.Budget)
	}
}

// The caller's own memberships' opinions stay theirs; a custom place of another plan is never
// reused by its id, even by a member of that plan.
func TestRestorePlanKeepsTheCallersOpinions(t *testing.T) {
	f := newImportFixture(t)
	db, ctx := f.db, t.Context()
	r := restoreOf(f.palace, 1, 1)
	first, err := db.RestorePlan(ctx, f.owner, r)
	if err != nil {
		t.Fatal(err)
	}
	x, err := db.PlanExport(ctx, f.owner, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	r.Members = map[string]string{x.Members[0].ID: "Ana", "ben": "Ben"}
	var custom string
	for i := range r.Blocks[0].Candidates {
		c := &r.Blocks[0].Candidates[i]
		if c.PlaceKey == "custom" {
			c.PlaceKey, custom = x.Blocks[0].Candidates[i].Place.ID, x.Blocks[0].Candidates[i].Place.ID
		}
		for j := range c.Opinions {
			if c.Opinions[j].AddedBy == "mine" {
				c.Opinions[j].AddedBy = x.Members[0].ID
			}
		}
	}
	r.Places[1].Key = custom
	second, err := db.RestorePlan(ctx, f.owner, r)
	if err != nil {
		t.Fatal(err)
	}
	y, err := db.PlanExport(ctx, f.owner, second.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range y.Blocks[0].Candidates {
		ops := y.Opinions[c.ID]
		if len(ops) != 1 || ops[0].Comment != "nice" || ops[0].AddedBy.ID != y.Members[0].ID || len(ops[0].TagIDs) != 1 || c.Memo != "memo\nBen: dislike" {
			t.Errorf("candidate %+v: opinions %+v", c, ops)
		}
		if c.Place.ID == custom || c.Place.Name == "Aunt's house" && c.Place.Latitude != "37.550000" {
			t.Errorf("custom place %+v", c.Place)
		}
	}
	// Guests and withdrawn users make nothing.
	if _, err := db.RestorePlan(ctx, "guest:someone", r); err == nil {
		t.Error("a guest restored a plan")
	}
}

// A restore sends the same statements for a backup of one block as for one of thirty days of
// eight blocks.
func TestRestorePlanHasAFixedNumberOfStatements(t *testing.T) {
	db, counter, _ := pgtest.Counted(t)
	ctx := t.Context()
	owner := newUser(t, db, "Ana")
	saved, err := db.SavePlaces(ctx, []planner.Place{{Provider: "GOOGLE", ProviderPlaceID: "rs-palace", Name: "Gyeongbokgung Palace", Latitude: "37.579600", Longitude: "126.977000"}})
	if err != nil {
		t.Fatal(err)
	}
	statements := func(r *planner.Restore) int {
		counter.Reset()
		if _, err := db.RestorePlan(ctx, owner, r); err != nil {
			t.Fatal(err)
		}
		return counter.Count()
	}
	small, large := statements(restoreOf(saved[0], 1, 1)), statements(restoreOf(saved[0], 30, 8))
	if small != large || small > 14 {
		t.Errorf("statements: %d for one block, %d for 240 (budget 14)", small, large)
	}
}
