package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestBudgetAndSettlementShowEveryWrite: a plan's costs are kept between reads while the plan
// is unchanged (internal/postgres/cache.go), so each write that changes what the budget or the
// settlement says is read back at once — a new expense, a changed rate, a recorded payment, a
// member leaving, a deleted expense — each read following a read that filled the cache;
// expenses.csv, which takes its converted totals from the same costs, too.
func TestBudgetAndSettlementShowEveryWrite(t *testing.T) {
	f := newSettleFixture(t)
	a := f.a
	budget := func(token string) string {
		t.Helper()
		var b budgetJSON
		res := a.do(req{Method: "GET", Path: f.path + "/budgets", Token: token})
		if err := json.Unmarshal(res.Body, &b); err != nil || res.Status != http.StatusOK {
			t.Fatalf("budget: %d %s", res.Status, res.Body)
		}
		return fmt.Sprintf("total %d, %d each for %d", b.TotalCost.Minor, b.CostPerPerson.Minor, b.TravelerCount)
	}
	check := func(what, wantBudget string, wantTransfers ...string) {
		t.Helper()
		for range 2 { // the first read may fill the cache, the second is served from it
			if got := budget(f.ana); got != wantBudget {
				t.Errorf("%s: budget %q, want %q", what, got, wantBudget)
			}
			_, transfers := f.settlement(t)
			sameLines(t, what+": transfers", transfers, wantTransfers)
		}
	}
	hotelInCSV := func() bool {
		t.Helper()
		res := a.mustDo(t, req{Method: "GET", Path: f.path + "/expenses.csv", Token: f.ana}, http.StatusOK)
		return strings.Contains(string(res.Body), "Hotel")
	}
	check("before", "total 30000, 15000 each for 2", "Ben → Ana: 15000")
	if hotelInCSV() {
		t.Fatal("expenses.csv lists the hotel before it is added")
	}

	// Ben pays 10,000 JPY at 10 KRW the yen for both: 100,000 KRW.
	e := f.addExpense(t, map[string]any{"day": 1, "items": []map[string]any{{"name": "Hotel", "cost": 10000}},
		"currency": "JPY", "exchange_rate": "10", "paid_by": f.benID})
	check("new expense", "total 130000, 65000 each for 2", "Ana → Ben: 35000")
	if !hotelInCSV() {
		t.Error("expenses.csv does not list the new expense")
	}

	// The rate was 5: 50,000 KRW.
	a.mustDo(t, req{Method: "PUT", Path: f.path + "/expenses/" + e.ExpenseID, Token: f.ben, Header: map[string]string{"If-Match": fmt.Sprintf(`"%d"`, e.Version)},
		Body: map[string]any{"items": []map[string]any{{"name": "Hotel", "cost": 10000}}, "currency": "JPY", "exchange_rate": "5", "paid_by": f.benID}}, http.StatusOK)
	check("changed rate", "total 80000, 40000 each for 2", "Ana → Ben: 10000")

	if res := f.record(f.ana, f.anaID, f.benID, 10000); res.Status != http.StatusCreated {
		t.Fatalf("record: %d %s", res.Status, res.Body)
	}
	check("recorded payment", "total 80000, 40000 each for 2")

	// Ben leaves: the budget counts one traveller.
	a.mustDo(t, req{Method: "DELETE", Path: f.path + "/members/me", Token: f.ben}, http.StatusNoContent)
	for range 2 {
		if got := budget(f.ana); got != "total 80000, 80000 each for 1" {
			t.Errorf("member left: budget %q", got)
		}
	}

	// And deleting an expense takes its cost away.
	a.mustDo(t, req{Method: "DELETE", Path: f.path + "/expenses/" + e.ExpenseID, Token: f.ana}, http.StatusNoContent)
	if got := budget(f.ana); got != "total 30000, 30000 each for 1" {
		t.Errorf("expense deleted: budget %q", got)
	}
	if hotelInCSV() {
		t.Error("expenses.csv still lists the deleted expense")
	}
}
