package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"tripplan/internal/rates"
)

// settlementOf reads a plan's settlement as "nickname paid/share/balance" lines and
// "from→to amount" transfers, amounts as the JSON writes them.
func settlementOf(t *testing.T, f *planFixture) (balances map[string]string, transfers []string) {
	t.Helper()
	res := f.a.do(req{Method: "GET", Path: "/plans/" + f.plan.PlanID + "/settlement", Token: f.ben})
	var s settlementTestJSON
	if err := json.Unmarshal(res.Body, &s); err != nil || res.Status != http.StatusOK {
		t.Fatalf("settlement: %d %s", res.Status, res.Body)
	}
	balances = map[string]string{}
	for _, m := range s.Members {
		balances[m.Nickname] = fmt.Sprintf("%s/%s/%s", m.Paid, m.Share, m.Balance)
	}
	for _, tr := range s.Transfers {
		transfers = append(transfers, fmt.Sprintf("%s→%s %s", tr.From.Nickname, tr.To.Nickname, tr.Amount))
	}
	return balances, transfers
}

// TestMixedCurrenciesByHand (docs/API.md §Money): a plan in won with a taxi in dollars and cents,
// sushi in yen split by exact amounts and a dinner in won split by shares; each expense is
// converted once, half up, to the won; figures by hand.
func TestMixedCurrenciesByHand(t *testing.T) {
	f := newPlanFixture(t)
	plan := "/plans/" + f.plan.PlanID
	ids := f.planMemberIDs(t)
	ben, ana := ids[0], ids[1]

	// $12.50 at 1463.51805568 won = 18,293.975696 → 18,294; equally: 9,147 each.
	taxi := f.addExpense(t, map[string]any{"day": 1, "items": []map[string]any{{"name": "Taxi", "cost": "12.5"}},
		"currency": "usd", "exchange_rate": "1463.51805568", "paid_by": ana, "split_among": []string{ana, ben}})
	if got := fmt.Sprintf("%s %s %s", taxi.Currency, taxi.ExchangeRate, taxi.ConvertedTotal.String()); got != "USD 1463.51805568 18294" {
		t.Fatalf("taxi: %s", got)
	}
	// ¥3,000 at 9.05 = 27,150 won, Ana had ¥1,000 of it and Ben ¥2,000: 9,050 and 18,100.
	f.addExpense(t, map[string]any{"day": 1, "items": []map[string]any{{"name": "Sushi", "cost": 3000}}, "currency": "JPY", "exchange_rate": 9.05,
		"paid_by": ben, "split": map[string]any{"mode": "EXACT", "amounts": []map[string]any{{"plan_member_id": ana, "amount": 1000}, {"plan_member_id": ben, "amount": "2000"}}}})
	// ₩20,000 in the plan's own currency, paid ₩15,000 by Ana and ₩5,000 by Ben, shared 1:3.
	dinner := f.addExpense(t, map[string]any{"day": 2, "items": item("Dinner", 20000),
		"payers": []map[string]any{{"plan_member_id": ana, "amount": 15000}, {"plan_member_id": ben, "amount": 5000}},
		"split":  map[string]any{"mode": "SHARES", "shares": []map[string]any{{"plan_member_id": ana, "shares": 1}, {"plan_member_id": ben, "shares": 3}}}})
	if diff := cmp.Diff(expenseTerms{Currency: "KRW", ExchangeRate: "1", Payers: 2, Split: "SHARES"}, termsOf(dinner),
		cmpopts.IgnoreFields(expenseTerms{}, "ConvertedTotal")); diff != "" {
		t.Fatalf("dinner (-want +got):\n%s", diff)
	}

	// 18,294 + 27,150 + 20,000 = 65,444.
	res := f.a.do(req{Method: "GET", Path: plan + "/budgets", Token: f.ben})
	if !bodySays(res.Body, `"total_cost":65444`) {
		t.Fatalf("budget: %s", res.Body)
	}
	// Ana paid 18,294 + 15,000 = 33,294, her share 9,147 + 9,050 + 5,000 = 23,197: owed 10,097.
	// Ben paid 27,150 + 5,000 = 32,150, his share 9,147 + 18,100 + 15,000 = 42,247: owes 10,097.
	balances, transfers := settlementOf(t, f)
	if fmt.Sprint(balances) != "map[Ana:33294/23197/10097 Ben:32150/42247/-10097]" || fmt.Sprint(transfers) != "[Ben→Ana 10097]" {
		t.Fatalf("settlement: %v %v", balances, transfers)
	}
	// The day's expenses show each in its own currency and converted.
	day := string(f.a.do(req{Method: "GET", Path: plan + "/expenses?day=1", Token: f.ben}).Body)
	for _, want := range []string{`"cost":12.50`, `"total":12.50`, `"converted_total":18294`, `"cost":3000`, `"exchange_rate":9.05`, `"converted_total":27150`,
		`"split":{"mode":"EXACT","amounts":[{"plan_member_id":"` + ana + `","amount":1000}`} {
		if !strings.Contains(day, want) {
			t.Errorf("day 1 lacks %s: %s", want, day)
		}
	}
}

// ecbServer serves the ECB's daily reference rates of 25 November 2026 (KRW 1698.12 per euro)
// as of today, so that they are fresh.
func ecbServer(t *testing.T) *httptest.Server {
	t.Helper()
	doc, err := os.ReadFile("../internal/rates/testdata/eurofxref-daily.xml")
	if err != nil {
		t.Fatal(err)
	}
	doc = regexp.MustCompile(`time='\d{4}-\d{2}-\d{2}'`).ReplaceAll(doc, []byte("time='"+time.Now().UTC().Format(time.DateOnly)+"'"))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/xml")
		w.Write(doc)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestGroupOfFourSettlesInWon (issue 20, "checked by"): four friends paid in euros and won on a
// trip; the plan is in won; the hotel's rate was given by hand, the dinner's came from the rates
// source (the ECB's, KRW 1698.12 per euro, from a local server speaking its format); everyone
// settles up in won to the won, in three transfers. Figures by hand.
func TestGroupOfFourSettlesInWon(t *testing.T) {
	ecb := ecbServer(t)
	a := newTestAppWith(t, func(d *Deps) { d.Rates = rates.NewECB(ecb.URL, ecb.Client(), nil) })
	f := newPlanFixtureOn(t, a)
	ids := f.planMemberIDs(t)
	ben, ana := ids[0], ids[1]
	a.member("g4-cid", "Cid")
	a.member("g4-dan", "Dan")
	cid, dan := a.joinPlan(f.plan.PlanID, "g4-cid"), a.joinPlan(f.plan.PlanID, "g4-dan")

	// The hotel: €480.00 paid by Ana at 1450 won = 696,000, equally among all four: 174,000.
	f.addExpense(t, map[string]any{"day": 1, "items": []map[string]any{{"name": "Hotel", "cost": "480.00"}}, "currency": "EUR", "exchange_rate": 1450, "paid_by": ana})
	// Dinner: €95.30 paid by Ben at the ECB's 1698.12 = 161,830.836 → 161,831 won; Dan was not
	// there; Cid had two shares: 40,457.75, 40,457.75 and 80,915.5 → the two units left go to
	// the largest remainders (Ana's and Ben's .75): 40,458, 40,458 and 80,915.
	dinner := f.addExpense(t, map[string]any{"day": 1, "items": []map[string]any{{"name": "Dinner", "cost": 95.3}}, "currency": "EUR", "paid_by": ben,
		"split": map[string]any{"mode": "SHARES", "shares": []map[string]any{{"plan_member_id": ana, "shares": 1}, {"plan_member_id": ben, "shares": 1}, {"plan_member_id": cid, "shares": 2}}}})
	if dinner.ExchangeRate != "1698.12" || dinner.ConvertedTotal.String() != "161831" {
		t.Fatalf("dinner: rate %s, %s won", dinner.ExchangeRate, dinner.ConvertedTotal.String())
	}
	// A taxi of ₩48,000 paid by Cid for everyone: 12,000 each.
	f.addExpense(t, map[string]any{"day": 2, "items": item("Taxi", 48000), "paid_by": cid})
	// A museum, ₩60,000 paid ₩40,000 by Dan and ₩20,000 by Cid, equally: 15,000 each.
	f.addExpense(t, map[string]any{"day": 2, "items": item("Museum", 60000),
		"payers": []map[string]any{{"plan_member_id": dan, "amount": 40000}, {"plan_member_id": cid, "amount": 20000}}})

	// Ana: paid 696,000, share 174,000 + 40,458 + 12,000 + 15,000 = 241,458 → +454,542.
	// Ben: paid 161,831, share 241,458 → −79,627. Cid: paid 68,000, share 174,000 + 80,915 +
	// 12,000 + 15,000 = 281,915 → −213,915. Dan: paid 40,000, share 201,000 → −161,000.
	balances, transfers := settlementOf(t, f)
	want := "map[Ana:696000/241458/454542 Ben:161831/241458/-79627 Cid:68000/281915/-213915 Dan:40000/201000/-161000]"
	if fmt.Sprint(balances) != want {
		t.Fatalf("balances %v\nwant %s", balances, want)
	}
	if fmt.Sprint(transfers) != "[Cid→Ana 213915 Dan→Ana 161000 Ben→Ana 79627]" {
		t.Fatalf("transfers %v", transfers)
	}
	res := a.do(req{Method: "GET", Path: "/plans/" + f.plan.PlanID + "/budgets", Token: f.ben})
	if !bodySays(res.Body, `"total_cost":965831`) { // 696,000 + 161,831 + 48,000 + 60,000
		t.Fatalf("budget: %s", res.Body)
	}
	// A currency the source does not list needs its rate by hand.
	a.do(req{Method: "POST", Path: "/plans/" + f.plan.PlanID + "/expenses", Token: f.ben, Body: map[string]any{"day": 1, "items": item("Pho", 100000), "currency": "VND"}}).
		problem(t, http.StatusBadRequest, "EXCHANGE_RATE_REQUIRED")
}

// TestExpenseTermsAreChecked: currencies without a rate (no rates source here), payers' and
// exact amounts that do not add up, members twice, both forms of a field, more decimals than
// the expense's currency has, and bad rates are 400s naming the field; nothing is stored.
func TestExpenseTermsAreChecked(t *testing.T) {
	f := newPlanFixture(t)
	plan := "/plans/" + f.plan.PlanID
	ids := f.planMemberIDs(t)
	ben, ana := ids[0], ids[1]
	post := func(body map[string]any) response {
		body["day"] = 1
		if body["items"] == nil {
			body["items"] = item("Lunch", 10000)
		}
		return f.a.do(req{Method: "POST", Path: plan + "/expenses", Token: f.ben, Body: body})
	}
	post(map[string]any{"currency": "JPY"}).problem(t, http.StatusBadRequest, "EXCHANGE_RATE_REQUIRED")
	for _, c := range []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"payers short of the total", map[string]any{"payers": []map[string]any{{"plan_member_id": ana, "amount": 4000}, {"plan_member_id": ben, "amount": 5000}}}, "payers"},
		{"a payer twice", map[string]any{"payers": []map[string]any{{"plan_member_id": ana, "amount": 5000}, {"plan_member_id": ana, "amount": 5000}}}, "payers"},
		{"paid_by and payers", map[string]any{"paid_by": ana, "payers": []map[string]any{{"plan_member_id": ana, "amount": 10000}}}, "payers"},
		{"exact amounts over the total", map[string]any{"split": map[string]any{"mode": "EXACT", "amounts": []map[string]any{{"plan_member_id": ana, "amount": 10001}}}}, "split"},
		{"a sharer twice", map[string]any{"split": map[string]any{"mode": "SHARES", "shares": []map[string]any{{"plan_member_id": ana, "shares": 1}, {"plan_member_id": ana, "shares": 1}}}}, "split"},
		{"no shares", map[string]any{"split": map[string]any{"mode": "SHARES", "shares": []map[string]any{{"plan_member_id": ana, "shares": 0}}}}, "split"},
		{"an unknown mode", map[string]any{"split": map[string]any{"mode": "HALF"}}, "split"},
		{"split and split_among", map[string]any{"split": map[string]any{"mode": "EQUAL"}, "split_among": []string{ana}}, "split"},
		{"yen with decimals", map[string]any{"currency": "JPY", "exchange_rate": 9, "items": []map[string]any{{"name": "Tea", "cost": "300.5"}}}, "items"},
		{"a rate of zero", map[string]any{"currency": "JPY", "exchange_rate": 0}, "exchange_rate"},
		{"a rate that is no number", map[string]any{"currency": "JPY", "exchange_rate": "nine"}, "exchange_rate"},
		{"a rate for the plan's own currency", map[string]any{"currency": "KRW", "exchange_rate": 2}, "exchange_rate"},
		{"a currency that is none", map[string]any{"currency": "ABC", "exchange_rate": 2}, "currency"},
		{"a rate too large for the costs", map[string]any{"currency": "JPY", "exchange_rate": 1000000000, "items": item("Gold", 10000000)}, "exchange_rate"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if fields := fieldErrors(t, post(c.body).problem(t, http.StatusBadRequest, "INVALID_REQUEST")); fields[c.field] == "" {
				t.Fatalf("field errors %v, want one on %s", fields, c.field)
			}
		})
	}
	if groups := f.expenses(t, "1"); len(groups) != 0 {
		t.Fatalf("refusals stored %v", groups)
	}

	// Terms kept by an items-only replacement must still add up to the new total.
	e := f.addExpense(t, map[string]any{"day": 1, "items": item("Lunch", 10000), "currency": "JPY", "exchange_rate": "9.1",
		"split": map[string]any{"mode": "EXACT", "amounts": []map[string]any{{"plan_member_id": ana, "amount": 4000}, {"plan_member_id": ben, "amount": 6000}}}})
	put := func(body any, version int) response {
		return f.a.do(req{Method: "PUT", Path: plan + "/expenses/" + e.ExpenseID, Token: f.ben, Body: body, Header: map[string]string{"If-Match": fmt.Sprintf(`"%d"`, version)}})
	}
	if fields := fieldErrors(t, put(item("Lunch", 12000), e.Version).problem(t, http.StatusBadRequest, "INVALID_REQUEST")); fields["split"] == "" {
		t.Fatalf("field errors %v", fields)
	}
	// The same total keeps the terms, and an object without a currency keeps the currency and rate.
	res := put(item("Lunch", 10000), e.Version)
	var kept expenseJSON
	if json.Unmarshal(res.Body, &kept); res.Status != 200 {
		t.Fatalf("items only: %d %s", res.Status, res.Body)
	}
	onlyTerms := cmpopts.IgnoreFields(expenseTerms{}, "PaidBy", "Payers")
	if diff := cmp.Diff(expenseTerms{Currency: "JPY", ExchangeRate: "9.1", Split: "EXACT", ConvertedTotal: "91000"}, termsOf(kept), onlyTerms); diff != "" {
		t.Fatalf("items only (-want +got):\n%s", diff)
	}
	res = put(map[string]any{"items": item("Lunch", 12000), "paid_by": ana}, kept.Version)
	if json.Unmarshal(res.Body, &kept); res.Status != 200 {
		t.Fatalf("object without a currency: %d %s", res.Status, res.Body)
	}
	if diff := cmp.Diff(expenseTerms{Currency: "JPY", ExchangeRate: "9.1", Split: "EQUAL", ConvertedTotal: "109200"}, termsOf(kept), onlyTerms); diff != "" {
		t.Fatalf("object without a currency (-want +got):\n%s", diff)
	}
	// Back to the plan's currency: no rate any more.
	res = put(map[string]any{"items": item("Lunch", 12000), "currency": "KRW"}, kept.Version)
	if json.Unmarshal(res.Body, &kept); res.Status != 200 || kept.Currency != "KRW" || kept.ExchangeRate != "1" || kept.ConvertedTotal.String() != "12000" {
		t.Fatalf("back to won: %d %s", res.Status, res.Body)
	}
}

// TestPlanCurrencyWithForeignExpenses: a plan whose expenses are in a third currency keeps its
// currency (their rates are to it); changing it to an expense's own currency makes that
// expense one in the plan's currency, and the plan's own amounts keep their numbers.
func TestPlanCurrencyWithForeignExpenses(t *testing.T) {
	f := newPlanFixture(t)
	plan := "/plans/" + f.plan.PlanID
	yen := f.addExpense(t, map[string]any{"day": 1, "items": item("Ramen", 1200), "currency": "JPY", "exchange_rate": "9.05"})
	f.addExpense(t, map[string]any{"day": 1, "items": item("Taxi", 5000)})
	res := f.a.do(req{Method: "PATCH", Path: plan + "/budgets", Token: f.ben, Body: map[string]any{"type": "EXPENSE", "currency": "USD"}})
	if fields := fieldErrors(t, res.problem(t, http.StatusBadRequest, "INVALID_REQUEST")); !strings.Contains(fields["currency"], "JPY") {
		t.Fatalf("field errors %v", fields)
	}
	res = f.a.do(req{Method: "PATCH", Path: plan + "/budgets", Token: f.ben, Body: map[string]any{"type": "EXPENSE", "currency": "JPY"}})
	if res.Status != 200 || !bodySays(res.Body, `"total_cost":6200`) { // ¥1,200 + ¥5,000
		t.Fatalf("to yen: %d %s", res.Status, res.Body)
	}
	for _, g := range f.expenses(t, "1") {
		if e := g.Selected; e.ExpenseID == yen.ExpenseID && (e.Currency != "JPY" || e.ExchangeRate != "1") {
			t.Fatalf("the ramen: %+v", e)
		}
	}
}

// TestARestoredBlockKeepsItsExpenseTerms: a time block put back after its deletion has its
// candidates' expenses with their currency, rate, payers and split as they were.
func TestARestoredBlockKeepsItsExpenseTerms(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	ids := f.planMemberIDs(t)
	ben, ana := ids[0], ids[1]
	tb := decodeBlock(t, a.do(req{Method: "POST", Path: plan + "/blocks", Token: f.ana,
		Body: map[string]any{"type": "PLACE", "collection_place_id": f.places[0].CollectionPlaceID, "day": 1, "start_time": "10:00", "end_time": "11:00"}}))
	groups := f.expenses(t, "1")
	if len(groups) != 1 || groups[0].Selected == nil {
		t.Fatalf("the block's expenses: %+v", groups)
	}
	e := groups[0].Selected
	res := a.do(req{Method: "PUT", Path: plan + "/expenses/" + e.ExpenseID, Token: f.ben, Body: map[string]any{
		"items": []map[string]any{{"name": "Tickets", "cost": "30.00"}}, "currency": "USD", "exchange_rate": "1400",
		"payers": []map[string]any{{"plan_member_id": ana, "amount": 10}, {"plan_member_id": ben, "amount": 20}},
		"split":  map[string]any{"mode": "SHARES", "shares": []map[string]any{{"plan_member_id": ana, "shares": 2}, {"plan_member_id": ben, "shares": 1}}}}})
	if res.Status != http.StatusOK {
		t.Fatalf("PUT: %d %s", res.Status, res.Body)
	}
	before := string(f.a.do(req{Method: "GET", Path: plan + "/expenses?day=1", Token: f.ben}).Body)
	del := a.do(req{Method: "DELETE", Path: plan + "/blocks/" + tb.TimeBlockID, Token: f.ana})
	link := regexp.MustCompile(`^<([^>]+)>; rel="restore"$`).FindStringSubmatch(del.Header.Get("Link"))
	if del.Status != http.StatusNoContent || link == nil {
		t.Fatalf("DELETE: %d %q", del.Status, del.Header.Get("Link"))
	}
	if res := a.do(req{Method: "POST", Path: link[1], Token: f.ana}); res.Status != http.StatusOK && res.Status != http.StatusCreated {
		t.Fatalf("restore: %d %s", res.Status, res.Body)
	}
	after := string(f.a.do(req{Method: "GET", Path: plan + "/expenses?day=1", Token: f.ben}).Body)
	if after != before || !strings.Contains(after, `"converted_total":42000`) || !strings.Contains(after, `"mode":"SHARES"`) {
		t.Fatalf("after the restore\n%s\nwas\n%s", after, before)
	}
}

// expenseTerms is what an expense says of its money: currency, rate, converted total, who paid
// (paid_by set, and how many payers) and how it is split.
type expenseTerms struct {
	Currency, ExchangeRate, ConvertedTotal, Split string
	PaidBy                                        bool
	Payers                                        int
}

func termsOf(e expenseJSON) expenseTerms {
	return expenseTerms{Currency: e.Currency, ExchangeRate: string(e.ExchangeRate), ConvertedTotal: e.ConvertedTotal.String(),
		Split: string(e.Split.Mode), PaidBy: e.PaidBy != nil, Payers: len(e.Payers)}
}
