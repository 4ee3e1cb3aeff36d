package web

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// bodySays reports whether a JSON body holds the text of a member exactly as written ("cost":12.50):
// amounts are decimals with the currency's digits, so the text itself is the contract.
func bodySays(body []byte, member string) bool {
	return strings.Contains(string(body), member)
}

// TestAmountsInMajorUnitsOverHTTP (docs/API.md §Money): amounts go in and out as decimals in
// major units with the currency's digits, summed exactly; more decimals than the currency has,
// exponents, negatives and codes that are no currency are 400s naming the field. Figures by
// hand in USD with cents, JPY and KRW.
func TestAmountsInMajorUnitsOverHTTP(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	ids := f.planMemberIDs(t)
	ben, ana := ids[0], ids[1]

	res := a.do(req{Method: "PATCH", Path: plan + "/budgets", Token: f.ben, Body: map[string]any{"type": "BUDGET", "currency": "USD", "total_budget": "300"}})
	if res.Status != 200 || !bodySays(res.Body, `"total_budget":300.00`) || !bodySays(res.Body, `"currency":"USD"`) {
		t.Fatalf("a budget in dollars: %d %s", res.Status, res.Body)
	}
	// Dinner $45.99 + $6.90 tip paid by Ben for both; a $12.50 taxi paid by Ana for everyone.
	res = a.do(req{Method: "POST", Path: plan + "/expenses", Token: f.ben, Body: map[string]any{"day": 1, "paid_by": ben, "split_among": []string{ana, ben},
		"items": []map[string]any{{"name": "Dinner", "cost": json.Number("45.99")}, {"name": "Tip", "cost": "6.9"}}}})
	if res.Status != 201 || !bodySays(res.Body, `"cost":45.99`) || !bodySays(res.Body, `"cost":6.90`) {
		t.Fatalf("dinner: %d %s", res.Status, res.Body)
	}
	res = a.do(req{Method: "POST", Path: plan + "/expenses", Token: f.ben, Body: map[string]any{"day": 1, "paid_by": ana,
		"items": []map[string]any{{"name": "Taxi", "cost": json.Number("12.5")}}}})
	if res.Status != 201 || !bodySays(res.Body, `"cost":12.50`) {
		t.Fatalf("taxi: %d %s", res.Status, res.Body)
	}
	// 45.99 + 6.90 + 12.50 = 65.39; 300.00 − 65.39 = 234.61; 300.00 over 2 = 150.00.
	res = a.do(req{Method: "GET", Path: plan + "/budgets", Token: f.ben})
	for _, want := range []string{`"total_cost":65.39`, `"remaining_budget":234.61`, `"cost_per_person":150.00`} {
		if !bodySays(res.Body, want) {
			t.Errorf("budget lacks %s: %s", want, res.Body)
		}
	}
	// 65.39 over 3 is 21.7966… → 21.80.
	res = a.do(req{Method: "PATCH", Path: plan + "/budgets", Token: f.ben, Body: map[string]any{"type": "EXPENSE", "traveler_count": 3}})
	if !bodySays(res.Body, `"cost_per_person":21.80`) {
		t.Errorf("per person over 3: %s", res.Body)
	}
	res = a.do(req{Method: "GET", Path: plan + "/expenses?day=1", Token: f.ben})
	if !bodySays(res.Body, `"cost":45.99`) || !bodySays(res.Body, `"cost":12.50`) {
		t.Errorf("the day's expenses: %s", res.Body)
	}

	// Settling up in cents: the dinner's 52.89 splits 26.45 (the odd cent to the first id) and
	// 26.44; the taxi 6.25 each. Ana paid 12.50 and owes the rest of her share to Ben.
	anaDinner := int64(2644)
	if min(ana, ben) == ana {
		anaDinner = 2645
	}
	owed := anaDinner + 625 - 1250
	res = a.do(req{Method: "GET", Path: plan + "/settlement", Token: f.ben})
	for _, want := range []string{`"paid":12.50`, `"paid":52.89`, fmt.Sprintf(`"balance":-%d.%02d`, owed/100, owed%100),
		fmt.Sprintf(`"balance":%d.%02d`, owed/100, owed%100), fmt.Sprintf(`"amount":%d.%02d`, owed/100, owed%100), `"currency":"USD"`} {
		if !bodySays(res.Body, want) {
			t.Errorf("settlement lacks %s: %s", want, res.Body)
		}
	}

	bad := func(body any, field, reason string) {
		t.Helper()
		p := a.do(req{Method: "POST", Path: plan + "/expenses", Token: f.ben, Body: body}).problem(t, 400, "INVALID_REQUEST")
		if got := fmt.Sprint(p["errors"]); !strings.Contains(got, field) || !strings.Contains(got, reason) {
			t.Errorf("%v: errors %s, want %s: %s", body, got, field, reason)
		}
	}
	cost := func(c any) map[string]any {
		return map[string]any{"day": 1, "items": []map[string]any{{"name": "Snack", "cost": c}}}
	}
	bad(cost(json.Number("12.345")), "items", "each cost may have at most 2 decimals in USD")
	bad(cost("0.001"), "items", "each cost may have at most 2 decimals in USD")
	bad(cost(json.Number("1e2")), "items", "each cost must be an amount from 0, such as 12.50")
	bad(cost("-1.00"), "items", "each cost must be an amount from 0, such as 12.50")
	bad(cost("NaN"), "items", "each cost must be an amount from 0, such as 12.50")
	bad(cost("12,50"), "items", "each cost must be an amount from 0, such as 12.50")
	bad(cost(json.Number("100000000000000000000")), "items", "each cost is too large")
	p := a.do(req{Method: "PATCH", Path: plan + "/budgets", Token: f.ben, Body: map[string]any{"type": "BUDGET", "currency": "ABC"}}).problem(t, 400, "INVALID_REQUEST")
	if got := fmt.Sprint(p["errors"]); !strings.Contains(got, "currency") || !strings.Contains(got, "ISO 4217") {
		t.Errorf("unknown currency: %s", got)
	}
	if res := a.do(req{Method: "GET", Path: plan + "/budgets", Token: f.ben}); !bodySays(res.Body, `"total_cost":65.39`) {
		t.Errorf("refused costs changed the total: %s", res.Body)
	}

	// The budget page's form takes cents too, and the page writes dollars.
	b := a.signedInBrowser(t, "pf-ben", "Ben")
	if res := a.htmx(b, "POST", plan+"/expenses", "day=1&expense_item_id=&name=Coffee&cost=4.75&paid_by="+ben); res.Header.Get("HX-Redirect") != plan+"/budget" {
		t.Fatalf("cents from the page: %d %s", res.Status, res.Body)
	}
	if page := a.page(t, b, plan+"/budget"); !strings.Contains(page, "$70.14") || !strings.Contains(page, `value="4.75"`) || !strings.Contains(page, `step="0.01"`) {
		t.Error("the budget page does not show $70.14 (65.39 + 4.75) with the coffee's 4.75 in its form")
	}

	// Yen and won have no decimals: 1200 is written 1200, and 1200.5 is refused (1200.0 is 1200).
	for _, c := range []string{"JPY", "KRW"} {
		other := a.createPlan(f.ana, c+" trip", "2026-05-01", "2026-05-02")
		path := "/plans/" + other.PlanID
		if res := a.do(req{Method: "PATCH", Path: path + "/budgets", Token: f.ana, Body: map[string]any{"type": "BUDGET", "currency": c, "total_budget": json.Number("50000.0")}}); !bodySays(res.Body, `"total_budget":50000,`) {
			t.Fatalf("%s budget: %d %s", c, res.Status, res.Body)
		}
		res := a.do(req{Method: "POST", Path: path + "/expenses", Token: f.ana, Body: map[string]any{"day": 1,
			"items": []map[string]any{{"name": "Ramen", "cost": 1200}, {"name": "Gyoza", "cost": "450"}}}})
		if res.Status != 201 || !bodySays(res.Body, `"cost":1200}`) || !bodySays(res.Body, `"cost":450}`) {
			t.Fatalf("%s expense: %d %s", c, res.Status, res.Body)
		}
		if res := a.do(req{Method: "GET", Path: path + "/budgets", Token: f.ana}); !bodySays(res.Body, `"total_cost":1650,`) || !bodySays(res.Body, `"remaining_budget":48350,`) {
			t.Errorf("%s budget: %s", c, res.Body)
		}
		p := a.do(req{Method: "POST", Path: path + "/expenses", Token: f.ana, Body: map[string]any{"day": 1,
			"items": []map[string]any{{"name": "Tea", "cost": json.Number("1200.5")}}}}).problem(t, 400, "INVALID_REQUEST")
		if got := fmt.Sprint(p["errors"]); !strings.Contains(got, "each cost must be a whole amount in "+c) {
			t.Errorf("%s with a decimal: %s", c, got)
		}
		p = a.do(req{Method: "PATCH", Path: path + "/budgets", Token: f.ana, Body: map[string]any{"type": "BUDGET", "total_budget": "0.5"}}).problem(t, 400, "INVALID_REQUEST")
		if got := fmt.Sprint(p["errors"]); !strings.Contains(got, "total_budget") || !strings.Contains(got, "must be a whole amount in "+c) {
			t.Errorf("%s budget with a decimal: %s", c, got)
		}
	}
}

// TestPlanCurrencyIsSetAndChecked: POST /plans and PUT /plans/{p} set the plan's currency
// (ISO 4217, default KRW; any other code is 400); a change keeps the amounts as numbers of
// major units, and is refused while an amount has more decimals than the new currency.
func TestPlanCurrencyIsSetAndChecked(t *testing.T) {
	a := newTestApp(t)
	ana := a.member("pc-ana", "Ana")
	if p := a.createPlan(ana, "Seoul", "2026-06-01", "2026-06-02"); p.Currency != "KRW" {
		t.Errorf("a new plan's currency = %q, want KRW", p.Currency)
	}
	body := func(currency string) map[string]any {
		return map[string]any{"title": "Kuwait", "start_date": "2026-06-01", "end_date": "2026-06-02", "currency": currency}
	}
	p := a.do(req{Method: "POST", Path: "/plans", Token: ana, Body: body("XYZ")}).problem(t, 400, "INVALID_REQUEST")
	if got := fmt.Sprint(p["errors"]); !strings.Contains(got, "currency") {
		t.Errorf("unknown currency: %s", got)
	}
	res := a.do(req{Method: "POST", Path: "/plans", Token: ana, Body: body("usd")})
	var plan planJSON
	if err := json.Unmarshal(res.Body, &plan); err != nil || res.Status != 201 || plan.Currency != "USD" {
		t.Fatalf("a plan in dollars: %d %s", res.Status, res.Body)
	}
	path := "/plans/" + plan.PlanID
	if res := a.do(req{Method: "POST", Path: path + "/expenses", Token: ana, Body: map[string]any{"day": 1,
		"items": []map[string]any{{"name": "Taxi", "cost": "12.5"}}}}); res.Status != 201 {
		t.Fatalf("taxi: %d %s", res.Status, res.Body)
	}
	// $12.50 becomes 12.500 dinars: the same number, with the dinar's three decimals.
	if res := a.do(req{Method: "PUT", Path: path, Token: ana, Body: body("KWD")}); res.Status != 200 {
		t.Fatalf("to dinars: %d %s", res.Status, res.Body)
	}
	if res := a.do(req{Method: "GET", Path: path + "/budgets", Token: ana}); !bodySays(res.Body, `"total_cost":12.500,`) || !bodySays(res.Body, `"currency":"KWD"`) {
		t.Errorf("budget in dinars: %s", res.Body)
	}
	// 12.500 is 12.5: no yen amount.
	p = a.do(req{Method: "PUT", Path: path, Token: ana, Body: body("JPY")}).problem(t, 400, "INVALID_REQUEST")
	if got := fmt.Sprint(p["errors"]); !strings.Contains(got, "the plan has amounts with more decimals than JPY has") {
		t.Errorf("to yen: %s", got)
	}
	if res := a.do(req{Method: "GET", Path: path, Token: ana}); !bodySays(res.Body, `"currency":"KWD"`) {
		t.Errorf("after a refused change: %s", res.Body)
	}
}
