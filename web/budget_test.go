package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// setItems gives a candidate's expense these item costs (the expenses endpoints write them too).
func (f *planFixture) setItems(t *testing.T, candidateID string, costs ...int) {
	t.Helper()
	if _, err := f.a.db.Exec(`DELETE FROM expense_items WHERE expense_id = (SELECT id FROM expenses WHERE candidate_id = $1)`, candidateID); err != nil {
		t.Fatal(err)
	}
	for i, cost := range costs {
		if _, err := f.a.db.Exec(`
			INSERT INTO expense_items (id, expense_id, name, cost, position)
			SELECT substr(md5(random()::text), 1, 21), id, 'item', $2, $3 FROM expenses WHERE candidate_id = $1`, candidateID, cost, i); err != nil {
			t.Fatal(err)
		}
	}
}

func (f *planFixture) budget(t *testing.T) budgetJSON {
	t.Helper()
	res := f.a.do(req{Method: "GET", Path: "/plans/" + f.plan.PlanID + "/budgets", Token: f.ben})
	var b budgetJSON
	if err := json.Unmarshal(res.Body, &b); err != nil || res.Status != http.StatusOK {
		t.Fatalf("budget: %d %s", res.Status, res.Body)
	}
	return b
}

// TestBudgetMaths checks the contract's budget arithmetic against a hand-computed plan.
func TestBudgetMaths(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	if b := f.budget(t); b.Type != "INITIAL" || b.TotalBudget != nil || b.TotalCost.Minor != 0 || b.TravelerCount != 2 || b.Currency != "KRW" {
		t.Fatalf("new plan's budget: %+v", b)
	}
	add := func(cp string, start, end string) timeBlockJSON {
		return decodeBlock(t, f.add(f.ana, placeBlock(cp, 1, start, end)))
	}
	withCandidate := func(tb timeBlockJSON, cp string) timeBlockJSON {
		return decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + tb.TimeBlockID + "/candidates", Token: f.ana,
			Body: map[string]any{"collection_place_ids": []string{cp}}}))
	}
	// Decided (DIRECT): 10,000 + 5,000.
	direct := add(f.places[0].CollectionPlaceID, "09:00", "10:00")
	f.setItems(t, direct.Candidates[0].BlockID, 10000, 5000)
	// Undecided (PENDING): 8,000 or 12,000 → the worst case, 12,000.
	pending := withCandidate(add(f.places[1].CollectionPlaceID, "10:00", "11:00"), f.places[2].CollectionPlaceID)
	f.setItems(t, pending.Candidates[0].BlockID, 8000)
	f.setItems(t, pending.Candidates[1].BlockID, 12000)
	// Decided among two (FIXED): the chosen 3,000, not the other 9,000.
	fixed := withCandidate(add(f.places[2].CollectionPlaceID, "11:00", "12:00"), f.places[0].CollectionPlaceID)
	f.setItems(t, fixed.Candidates[0].BlockID, 3000)
	f.setItems(t, fixed.Candidates[1].BlockID, 9000)
	decodeBlock(t, a.do(req{Method: "PATCH", Path: f.blocks + "/" + fixed.TimeBlockID + "/selection", Token: f.ana,
		Body: map[string]string{"block_id": fixed.Candidates[0].BlockID}}))
	// Free time costs nothing; an additional expense of 7,000.
	decodeBlock(t, f.add(f.ana, map[string]any{"type": "FREE", "day": 1, "start_time": "13:00", "end_time": "14:00"}))
	if _, err := a.db.Exec(`
		INSERT INTO expenses (id, plan_id, kind, plan_day_id, rank)
		SELECT 'additional_expense_01', $1, 'ADDITIONAL', id, 1 FROM plan_days WHERE plan_id = $1 AND day = 1`, f.plan.PlanID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.db.Exec(`INSERT INTO expense_items (id, expense_id, name, cost, position)
		VALUES ('additional_item_00001', 'additional_expense_01', 'taxi', 7000, 0)`); err != nil {
		t.Fatal(err)
	}

	// The day's expense groups: a block's candidates are the unselected ones' expenses
	// (API-additions §3), candidate_count counts them all.
	cost := func(e expenseJSON) int64 {
		var n int64
		for _, it := range e.Items {
			n += it.Cost.Minor
		}
		return n
	}
	groups := map[string]string{}
	for _, g := range f.expenses(t, "1") {
		if g.Type != "BLOCK" {
			continue
		}
		line := fmt.Sprintf("%s %d selected=", g.BlockStatus, *g.CandidateCount)
		if g.Selected != nil {
			line += fmt.Sprint(cost(*g.Selected))
		}
		line += " others="
		for _, e := range *g.Candidates {
			line += fmt.Sprint(cost(e), ",")
		}
		groups[g.TimeBlockID] = line
	}
	for id, want := range map[string]string{direct.TimeBlockID: "DIRECT 1 selected=15000 others=",
		pending.TimeBlockID: "PENDING 2 selected= others=8000,12000,", fixed.TimeBlockID: "FIXED 2 selected=3000 others=9000,"} {
		if groups[id] != want {
			t.Errorf("expense group of %s: %q, want %q", id, groups[id], want)
		}
	}

	b := f.budget(t)
	if b.TotalCost.Minor != 15000+12000+3000+7000 || b.Type != "INITIAL" || b.RemainingBudget.Minor != -37000 || b.CostPerPerson.Minor != 18500 {
		t.Fatalf("costs: %+v", b)
	}
	patch := func(body map[string]any) budgetJSON {
		res := a.do(req{Method: "PATCH", Path: "/plans/" + f.plan.PlanID + "/budgets", Token: f.ben, Body: body})
		var out budgetJSON
		if err := json.Unmarshal(res.Body, &out); err != nil || res.Status != http.StatusOK {
			t.Fatalf("patch %v: %d %s", body, res.Status, res.Body)
		}
		return out
	}
	if b := patch(map[string]any{"type": "BUDGET", "total_budget": "100000"}); b.Type != "BUDGET" || b.TotalBudget.Minor != 100000 ||
		b.RemainingBudget.Minor != 63000 || b.CostPerPerson.Minor != 50000 {
		t.Fatalf("budget mode: %+v", b)
	}
	if b := patch(map[string]any{"type": "BUDGET", "traveler_count": 3}); b.CostPerPerson.Minor != 33333 || b.TotalBudget.Minor != 100000 {
		t.Fatalf("three travellers: %+v", b)
	}
	// Another currency keeps the numbers (₩37,000 → €37,000.00), now with cents: 37,000 over 3
	// is 12,333.33 (rounded at the cent).
	if b := patch(map[string]any{"type": "EXPENSE", "currency": "eur"}); b.Type != "EXPENSE" || b.CostPerPerson.String() != "12333.33" ||
		b.TotalCost.String() != "37000.00" || b.TotalBudget.String() != "100000.00" || b.Currency != "EUR" {
		t.Fatalf("expense mode: %+v", b)
	}
	// Halves round up to the cent: the palace now costs €100.00 + €50.01, so the total is
	// €22,150.01 (12,000 + 3,000 + 7,000 + 150.01), and over 2 it is 11,075.005 → €11,075.01.
	f.setItems(t, direct.Candidates[0].BlockID, 10000, 5001)
	if b := patch(map[string]any{"type": "EXPENSE", "traveler_count": 2}); b.TotalCost.String() != "22150.01" || b.CostPerPerson.String() != "11075.01" {
		t.Fatalf("rounding: %+v", b)
	}
	// Cents in euros (€12.30 is 12.3), none in won.
	if b := patch(map[string]any{"type": "BUDGET", "total_budget": 12.3}); b.TotalBudget.String() != "12.30" || b.RemainingBudget.String() != "-22137.71" {
		t.Fatalf("a budget with cents: %+v", b)
	}
	for _, bad := range []map[string]any{{}, {"type": "INITIAL"}, {"type": "BUDGET", "total_budget": -1}, {"type": "BUDGET", "traveler_count": 0},
		{"type": "BUDGET", "traveler_count": "many"}, {"type": "BUDGET", "currency": "euro"}, {"type": "BUDGET", "currency": "ZZZ"},
		{"type": "BUDGET", "total_budget": "12.345"}, {"type": "BUDGET", "total_budget": json.Number("1e3")}, {"type": "BUDGET", "total_budget": "ten"},
		// €50.01 of the palace cannot be written in won.
		{"type": "BUDGET", "currency": "KRW"}, {"type": "BUDGET", "currency": "KRW", "total_budget": "1.5"}} {
		a.do(req{Method: "PATCH", Path: "/plans/" + f.plan.PlanID + "/budgets", Token: f.ben, Body: bad}).problem(t, 400, "INVALID_REQUEST")
	}
	if b := f.budget(t); b.Currency != "EUR" || b.TotalCost.String() != "22150.01" {
		t.Fatalf("after refused changes: %+v", b)
	}
}

func TestBudgetPageInABrowser(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	tb := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	f.setItems(t, tb.Candidates[0].BlockID, 12000)
	b := a.signedInBrowser(t, "pf-ben", "Ben")
	var g memberGroupJSON[planMemberJSON]
	json.Unmarshal(a.do(req{Method: "GET", Path: plan + "/members", Token: f.ben}).Body, &g)

	// Adding an extra from the page's form, paid by Ben for everyone.
	res := a.htmx(b, "POST", plan+"/expenses", "day=1&expense_item_id=&name=Taxi&cost=8000&paid_by="+g.Me.PlanMemberID)
	if res.Header.Get("HX-Redirect") != plan+"/budget" {
		t.Fatalf("add from the page: %d %v %s", res.Status, res.Header, res.Body)
	}
	page := a.page(t, b, plan+"/budget")
	for _, want := range []string{"₩20,000", `data-chart="per-day"`, `data-chart="per-category"`, "Sightseeing", "Extras",
		"Gyeongbokgung Palace", "Taxi", `hx-put="` + plan + `/expenses/`, "Ana</span> pays <span class=\"font-medium\">Ben</span>"} {
		if !strings.Contains(page, want) {
			t.Errorf("budget page lacks %s", want)
		}
	}
	// Inline editing of the palace's costs: the rows replace the items.
	groups := f.expenses(t, "1") // the extra (at the day's start), then the palace's block
	if len(groups) != 2 || groups[1].Type != "BLOCK" {
		t.Fatalf("groups: %+v", groups)
	}
	palace := groups[1].Selected.ExpenseID
	res = a.htmx(b, "PUT", plan+"/expenses/"+palace, "expense_item_id="+groups[1].Selected.Items[0].ExpenseItemID+"&name=Ticket&cost=3000&expense_item_id=&name=Hanbok&cost=15000&expense_item_id=&name=&cost=&paid_by=")
	if res.Header.Get("HX-Redirect") != plan+"/budget" {
		t.Fatalf("inline edit: %d %s", res.Status, res.Body)
	}
	if b := f.budget(t); b.TotalCost.Minor != 3000+15000+8000 {
		t.Fatalf("after editing: %+v", b)
	}
	if page := a.page(t, b, plan+"/budget"); !strings.Contains(page, "₩26,000") {
		t.Fatal("the page does not show the new total")
	}
}
