package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func (f *planFixture) expenses(t *testing.T, day string) []expenseGroupJSON {
	t.Helper()
	res := f.a.do(req{Method: "GET", Path: "/plans/" + f.plan.PlanID + "/expenses?day=" + day, Token: f.ben})
	var out []expenseGroupJSON
	if err := json.Unmarshal(res.Body, &out); err != nil || res.Status != http.StatusOK {
		t.Fatalf("expenses: %d %s", res.Status, res.Body)
	}
	return out
}

// layout writes a day's expense groups compactly: "+name" for an additional expense (named by
// its first item), "[block]" for a time block's group.
func layout(groups []expenseGroupJSON, names map[string]string) string {
	var parts []string
	for _, g := range groups {
		if g.Type == "ADDITIONAL" {
			parts = append(parts, "+"+g.Selected.Items[0].Name)
		} else {
			parts = append(parts, "["+names[g.TimeBlockID]+"]")
		}
	}
	return strings.Join(parts, " ")
}

func (f *planFixture) addExpense(t *testing.T, body map[string]any) expenseJSON {
	t.Helper()
	res := f.a.do(req{Method: "POST", Path: "/plans/" + f.plan.PlanID + "/expenses", Token: f.ben, Body: body})
	var out expenseAddedJSON
	if err := json.Unmarshal(res.Body, &out); err != nil || res.Status != http.StatusCreated || out.Type != "ADDITIONAL" {
		t.Fatalf("add expense %v: %d %s", body, res.Status, res.Body)
	}
	return out.Selected
}

func item(name string, cost int) []map[string]any {
	return []map[string]any{{"name": name, "cost": cost}}
}

func TestExpensesOrderMovesAndItems(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	blockA := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "09:00", "10:00")))
	blockB := decodeBlock(t, f.add(f.ana, placeBlock(f.places[1].CollectionPlaceID, 1, "11:00", "12:00")))
	blockC := decodeBlock(t, f.add(f.ana, placeBlock(f.places[2].CollectionPlaceID, 1, "13:00", "14:00")))
	names := map[string]string{blockA.TimeBlockID: "A", blockB.TimeBlockID: "B", blockC.TimeBlockID: "C"}
	groups := f.expenses(t, "1")
	if layout(groups, names) != "[A] [B] [C]" || groups[0].BlockStatus != "DIRECT" || *groups[0].CandidateCount != 1 ||
		groups[0].Selected == nil || groups[0].Selected.Block.Name != "Gyeongbokgung Palace" {
		t.Fatalf("blocks only: %s %+v", layout(groups, names), groups[0])
	}
	expA, expB := groups[0].Selected.ExpenseID, groups[1].Selected.ExpenseID

	// Placement: at the day's start, right after a block's expense, right after another
	// additional expense (before the next one).
	f.addExpense(t, map[string]any{"day": "1", "items": item("X", 1000)})
	y := f.addExpense(t, map[string]any{"prev_expense_id": expA, "items": item("Y", 2000)})
	f.addExpense(t, map[string]any{"prev_expense_id": y.ExpenseID, "items": item("Z", 3000)})
	f.addExpense(t, map[string]any{"prev_expense_id": expA, "items": item("W", 4000)})
	f.addExpense(t, map[string]any{"prev_expense_id": y.ExpenseID, "items": item("Y2", 5000)})
	f.addExpense(t, map[string]any{"prev_expense_id": expB, "items": item("U", 6000)})
	if got := layout(f.expenses(t, "1"), names); got != "+X [A] +W +Y +Y2 +Z [B] +U [C]" {
		t.Fatalf("order: %s", got)
	}
	// Many inserts at one spot keep their order (midpoints, renumbered when they get long).
	prev := y.ExpenseID
	for i := range 45 {
		prev = f.addExpense(t, map[string]any{"prev_expense_id": prev, "items": item("n"+strings.Repeat("i", i%3), 1)}).ExpenseID
	}
	var ranks []string
	a.mustSelect(t, &ranks, `SELECT rank::text FROM expenses WHERE plan_id = $1 AND kind = 'ADDITIONAL' ORDER BY rank`, f.plan.PlanID)
	for _, r := range ranks {
		if strings.Contains(r, ".") && len(r[strings.Index(r, ".")+1:]) > rankScaleLimit {
			t.Fatalf("a rank grew to %s", r)
		}
	}
	if got := layout(f.expenses(t, "1"), names); !strings.HasPrefix(got, "+X [A] +W +Y +n") || !strings.HasSuffix(got, "+Y2 +Z [B] +U [C]") {
		t.Fatalf("order after many inserts: %s", got)
	}
	for i := 0; i < 45; i++ { // tidy up for the rest of the test
		gs := f.expenses(t, "1")
		for _, g := range gs {
			if g.Type == "ADDITIONAL" && strings.HasPrefix(g.Selected.Items[0].Name, "n") {
				a.do(req{Method: "DELETE", Path: plan + "/expenses/" + g.Selected.ExpenseID, Token: f.ben})
				break
			}
		}
	}

	// Moving B away: what followed it goes to the block before it (A), after A's own.
	decodeBlockDetail(t, a.do(req{Method: "PATCH", Path: f.blocks + "/" + blockB.Candidates[0].BlockID, Token: f.ben, Body: map[string]any{"day": 2}}))
	if got := layout(f.expenses(t, "1"), names); got != "+X [A] +W +Y +Y2 +Z +U [C]" {
		t.Fatalf("after moving B: %s", got)
	}
	if got := layout(f.expenses(t, "2"), names); got != "[B]" {
		t.Fatalf("day 2: %s", got)
	}
	// Deleting A: its additional expenses go to the day's start, after X.
	a.do(req{Method: "DELETE", Path: f.blocks + "/" + blockA.TimeBlockID, Token: f.ben})
	if got := layout(f.expenses(t, "1"), names); got != "+X +W +Y +Y2 +Z +U [C]" {
		t.Fatalf("after deleting A: %s", got)
	}

	// Items: full replace keeps named ids, adds the rest, drops the missing; the object form
	// also says who paid and who shares.
	res := a.do(req{Method: "PUT", Path: plan + "/expenses/" + y.ExpenseID, Token: f.ben, Body: []map[string]any{
		{"expense_item_id": y.Items[0].ExpenseItemID, "name": "Taxi", "cost": "2500"}, {"name": "Tip", "cost": 500}}})
	var e expenseJSON
	if json.Unmarshal(res.Body, &e); res.Status != 200 || len(e.Items) != 2 || e.Items[0].ExpenseItemID != y.Items[0].ExpenseItemID ||
		e.Items[0].Cost.Minor != 2500 || e.Items[1].Name != "Tip" {
		t.Fatalf("replace items: %d %s", res.Status, res.Body)
	}
	ids := f.planMemberIDs(t) // Ben, Ana
	res = a.do(req{Method: "PUT", Path: plan + "/expenses/" + y.ExpenseID, Token: f.ben, Body: map[string]any{
		"items": []map[string]any{{"name": "Taxi", "cost": 3000}}, "paid_by": ids[0], "split_among": []string{ids[1], ids[0]}}})
	if json.Unmarshal(res.Body, &e); res.Status != 200 || e.PaidBy == nil || *e.PaidBy != ids[0] || len(e.SplitAmong) != 2 {
		t.Fatalf("payers: %d %s", res.Status, res.Body)
	}
	a.do(req{Method: "PUT", Path: plan + "/expenses/" + y.ExpenseID, Token: f.ben, Body: []map[string]any{{"expense_item_id": strings.Repeat("k", 21), "name": "X", "cost": 1}}}).
		problem(t, 404, "EXPENSE_ITEM_NOT_FOUND")
	a.do(req{Method: "PUT", Path: plan + "/expenses/" + y.ExpenseID, Token: f.ben, Body: map[string]any{"items": []any{}, "paid_by": strings.Repeat("m", 21)}}).
		problem(t, 404, "MEMBER_NOT_FOUND")

	// Deleting: an additional expense goes; a candidate's keeps existing, empty.
	a.do(req{Method: "PUT", Path: plan + "/expenses/" + expB, Token: f.ben, Body: []map[string]any{{"name": "Ticket", "cost": 9000}}})
	if r := a.do(req{Method: "DELETE", Path: plan + "/expenses/" + expB, Token: f.ben}); r.Status != 204 {
		t.Fatalf("delete block expense: %d", r.Status)
	}
	if d2 := f.expenses(t, "2"); d2[0].Selected == nil || d2[0].Selected.ExpenseID != expB || len(d2[0].Selected.Items) != 0 {
		t.Fatalf("block expense after delete: %+v", d2[0])
	}
	if r := a.do(req{Method: "DELETE", Path: plan + "/expenses/" + y.ExpenseID, Token: f.ben}); r.Status != 204 {
		t.Fatalf("delete additional: %d", r.Status)
	}
	a.do(req{Method: "DELETE", Path: plan + "/expenses/" + y.ExpenseID, Token: f.ben}).problem(t, 404, "EXPENSE_NOT_FOUND")

	// The budget counts what is left: X 1000 + W 4000 + Y2 5000 + Z 3000 + U 6000 (no block items).
	if b := f.budget(t); b.TotalCost.Minor != 19000 {
		t.Fatalf("budget total: %+v", b)
	}

	// Bad input.
	for _, bad := range []map[string]any{{"items": item("A", 1)}, {"day": 1, "prev_expense_id": expA, "items": item("A", 1)},
		{"day": 1, "items": item("", 1)}, {"day": 1, "items": item("A", -1)}, {"day": 31, "items": item("A", 1)}} {
		a.do(req{Method: "POST", Path: plan + "/expenses", Token: f.ben, Body: bad}).problem(t, 400, "INVALID_REQUEST")
	}
	a.do(req{Method: "POST", Path: plan + "/expenses", Token: f.ben, Body: map[string]any{"day": 4, "items": item("A", 1)}}).problem(t, 404, "PLAN_DAY_NOT_FOUND")
	a.do(req{Method: "POST", Path: plan + "/expenses", Token: f.ben, Body: map[string]any{"prev_expense_id": blockC.Candidates[0].BlockID, "items": item("A", 1)}}).
		problem(t, 404, "EXPENSE_NOT_FOUND")
	a.do(req{Method: "GET", Path: plan + "/expenses", Token: f.ben}).problem(t, 400, "INVALID_REQUEST")
}

// rankScaleLimit mirrors postgres.rankScaleMax: ranks are renumbered before growing past it.
const rankScaleLimit = 13

func decodeBlockDetail(t *testing.T, res response) blockDetailJSON {
	t.Helper()
	var d blockDetailJSON
	if err := json.Unmarshal(res.Body, &d); err != nil || res.Status != http.StatusOK {
		t.Fatalf("block detail: %d %s", res.Status, res.Body)
	}
	return d
}

func TestSettlementOverHTTP(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	ids := f.planMemberIDs(t)
	ben, ana := ids[0], ids[1]
	// Ana paid a 30,000 dinner for both; Ben paid a 9,001 taxi for both; an unpaid expense and
	// an undecided candidate's expense do not count.
	f.addExpense(t, map[string]any{"day": 1, "items": item("Dinner", 30000), "paid_by": ana})
	f.addExpense(t, map[string]any{"day": 1, "items": item("Taxi", 9001), "paid_by": ben, "split_among": []string{ana, ben}})
	f.addExpense(t, map[string]any{"day": 1, "items": item("Unpaid", 5000)})
	res := a.do(req{Method: "GET", Path: plan + "/settlement", Token: f.ana})
	var s settlementJSON
	if err := json.Unmarshal(res.Body, &s); err != nil || res.Status != 200 {
		t.Fatalf("settlement: %d %s", res.Status, res.Body)
	}
	shares := map[string]int64{}
	for _, m := range s.Members {
		shares[m.Nickname] = m.Balance.Minor
	}
	// Shares: dinner 15,000 each; taxi 4,501 to the first id in order, 4,500 to the other.
	first := min(ana, ben) // the taxi's odd unit goes to the first sharer by id
	wantAna := int64(30000 - 15000 - 4500)
	wantBen := int64(9001 - 15000 - 4500)
	if first == ana {
		wantAna--
	} else {
		wantBen--
	}
	if s.Currency != "KRW" || shares["Ana"] != wantAna || shares["Ben"] != wantBen || shares["Ana"]+shares["Ben"] != 0 {
		t.Fatalf("balances: %+v (want Ana %d, Ben %d)", s.Members, wantAna, wantBen)
	}
	if len(s.Transfers) != 1 || s.Transfers[0].From.Nickname != "Ben" || s.Transfers[0].To.Nickname != "Ana" || s.Transfers[0].Amount.Minor != wantAna {
		t.Fatalf("transfers: %+v", s.Transfers)
	}
}
