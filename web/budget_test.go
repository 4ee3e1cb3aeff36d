package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
	type budgetShape struct {
		Type, Currency string
		HasTotalBudget bool
		TotalCost      int64
		TravelerCount  int
	}
	fresh := f.budget(t)
	if diff := cmp.Diff(budgetShape{Type: "INITIAL", Currency: "KRW", TravelerCount: 2}, budgetShape{Type: fresh.Type, Currency: fresh.Currency,
		HasTotalBudget: fresh.TotalBudget != nil, TotalCost: fresh.TotalCost.Minor, TravelerCount: fresh.TravelerCount}); diff != "" {
		t.Fatalf("new plan's budget (-want +got):\n%s", diff)
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
	// (docs/API.md §Money), candidate_count counts them all.
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
	for _, want := range []string{"₩20,000", `data-chart="per-day"`, `href="` + plan + `/expenses.csv" download`, `data-chart="per-category"`, "Sightseeing", "Extras",
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

// TestBudgetPageSaysWhoPaysWhat: the budget page's forms with their More options add an
// expense split by EXACT amounts and one in yen with a rate (as the plan's JSON API then tells);
// an EXACT split that does not add up is answered with its field named for the form. The page
// says who paid and how each expense is split, writes the yen expense as ¥3,000 → ₩27,150 with
// its rate, puts the amounts on the chart bars, lists each member's paid, share and balance
// with the viewer first, and offers "Mark as paid" on the suggested payment, with the payment
// in hidden fields, to members only; in English and Korean. Figures by hand: a ₩30,000 dinner
// Ben paid, Ana's part ₩10,000 and Ben's ₩20,000; ¥3,000 of ramen at 9.05 is ₩27,150, Ana
// paid, split equally: ₩13,575 each. Ana paid 27,150 of a 23,575 share (+3,575), Ben 30,000 of
// 33,575 (−3,575): Ben pays Ana ₩3,575.
func TestBudgetPageSaysWhoPaysWhat(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	var g memberGroupJSON[planMemberJSON]
	json.Unmarshal(a.do(req{Method: "GET", Path: plan + "/members", Token: f.ben}).Body, &g)
	ben := g.Me.PlanMemberID
	var ana string
	for _, m := range g.Members {
		if m.Nickname == "Ana" {
			ana = m.PlanMemberID
		}
	}
	b := a.signedInBrowser(t, "pf-ben", "Ben")

	// Before anything: the add form has Ben (the viewer) as the payer and an equal split.
	page := a.page(t, b, plan+"/budget")
	for _, want := range []string{`<option value="` + ben + `" selected>Ben (you)</option>`, `name="split_mode" value="EQUAL" checked`,
		"More options", "You paid · split equally among 2", `data-form-errors`, `sse:settlement`} {
		if !strings.Contains(page, want) {
			t.Errorf("the budget page's add form lacks %s", want)
		}
	}

	exact := func(anaPart, benPart string) string {
		return "day=1&expense_item_id=&name=Dinner&cost=30000&currency=KRW&exchange_rate=&paid_by=" + ben +
			"&split_mode=EXACT&split_member=" + ana + "&split_amount_" + ana + "=" + anaPart + "&split_shares_" + ana + "=1" +
			"&split_member=" + ben + "&split_amount_" + ben + "=" + benPart + "&split_shares_" + ben + "=1&split_among=" + ana + "&split_among=" + ben
	}
	res := a.htmx(b, "POST", plan+"/expenses", exact("10000", "15000"))
	if res.Status != http.StatusBadRequest || !strings.Contains(string(res.Body), `data-error-field="split"`) {
		t.Fatalf("an EXACT split short of the total: %d %s", res.Status, res.Body)
	}
	if res := a.htmx(b, "POST", plan+"/expenses", exact("10000", "20000")); res.Header.Get("HX-Redirect") != plan+"/budget" {
		t.Fatalf("an EXACT split from the page: %d %s", res.Status, res.Body)
	}
	if res := a.htmx(b, "POST", plan+"/expenses", "day=1&expense_item_id=&name=Ramen&cost=3000&currency=jpy&exchange_rate=9.05&paid_by="+ana+
		"&split_mode=EQUAL&split_among="+ana+"&split_among="+ben); res.Header.Get("HX-Redirect") != plan+"/budget" {
		t.Fatalf("yen from the page: %d %s", res.Status, res.Body)
	}
	res = a.do(req{Method: "GET", Path: plan + "/expenses?day=1", Token: f.ana})
	var groups []struct {
		Selected struct {
			Items []struct {
				Name string `json:"name"`
			} `json:"items"`
			Currency       string          `json:"currency"`
			ExchangeRate   json.Number     `json:"exchange_rate"`
			ConvertedTotal json.Number     `json:"converted_total"`
			PaidBy         *string         `json:"paid_by"`
			Split          json.RawMessage `json:"split"`
		} `json:"selected"`
	}
	if err := json.Unmarshal(res.Body, &groups); err != nil || len(groups) != 2 {
		t.Fatalf("the day's expenses: %v %s", err, res.Body)
	}
	stored := map[string]string{}
	for _, gr := range groups {
		e := gr.Selected
		stored[e.Items[0].Name] = fmt.Sprintf("%s %s %s paid by %s split %s", e.Currency, e.ExchangeRate, e.ConvertedTotal, *e.PaidBy, e.Split)
	}
	if got, want := stored["Dinner"], fmt.Sprintf(`KRW 1 30000 paid by %s split {"mode":"EXACT","amounts":[{"plan_member_id":"%s","amount":10000},{"plan_member_id":"%s","amount":20000}]}`, ben, ana, ben); got != want {
		t.Errorf("the dinner was stored as %s, want %s", got, want)
	}
	if got, want := stored["Ramen"], fmt.Sprintf(`JPY 9.05 27150 paid by %s split {"mode":"EQUAL","members":["%s","%s"]}`, ana, ana, ben); got != want {
		t.Errorf("the ramen was stored as %s, want %s", got, want)
	}

	page = a.page(t, b, plan+"/budget")
	for _, want := range []string{
		"You paid · split by exact amounts", "Ana paid · split equally among 2: Ana, Ben",
		"¥3,000 → ₩27,150", "at 1 JPY = 9.05 KRW",
		`data-bar-amount>₩57,150</text>`, // day 1's bar: 30,000 + 27,150
		`<a href="` + plan + `/budget?day=1"`,
		`data-balance="` + ben + `" data-me`, "You owe ₩3,575", "is owed ₩3,575",
		`<form hx-post="` + plan + `/settlements" class="shrink-0" data-mark-paid><input type="hidden" name="from_plan_member_id" value="` + ben +
			`"> <input type="hidden" name="to_plan_member_id" value="` + ana + `"> <input type="hidden" name="amount" value="3575"> <button type="submit" class="btn btn-secondary btn-sm" aria-label="Mark as paid: Ben pays Ana ₩3,575">Mark as paid</button>`,
		`name="split_amount_` + ana + `" min="0" step="any" inputmode="decimal" class="input w-28 py-1.5" value="10000"`,
		`name="exchange_rate" class="input" inputmode="decimal" autocomplete="off" value="9.05"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the budget page lacks %s", want)
		}
	}
	if you, other := strings.Index(page, `data-balance="`+ben+`"`), strings.Index(page, `data-balance="`+ana+`"`); you < 0 || other < you {
		t.Errorf("Ben's own row is not first: at %d, Ana's at %d", you, other)
	}

	ko := a.answerIn(t, b, false, "GET", plan+"/budget", "", koreanBrowser, http.StatusOK)
	for _, want := range []string{"내가 냈어요 · 금액을 정해서 나눠요", "Ana 님이 냈어요 · Ana, Ben 2명이 똑같이 나눠요", "3,575원 보내야 해요", "3,575원 받아야 해요", "송금 완료", "환율 1 JPY = 9.05 KRW"} {
		if !strings.Contains(ko, want) {
			t.Errorf("the Korean budget page lacks %s", want)
		}
	}

	// A guest reads the same figures, without the forms.
	guest := a.guestOf(t, a.invite(f.ana, plan))
	gp := a.page(t, guest, plan+"/budget")
	if !strings.Contains(gp, "Ben pays Ana") && !strings.Contains(gp, "Ben</span> pays <span class=\"font-medium\">Ana") {
		t.Error("the guest's budget page lacks the suggested payment")
	}
	for _, unwanted := range []string{"data-mark-paid", "data-expense-form", `hx-post="` + plan + `/settlements"`} {
		if strings.Contains(gp, unwanted) {
			t.Errorf("the guest's budget page offers %s", unwanted)
		}
	}
}
