package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// settleFixture is the plan fixture (Ana owns the plan, in KRW; Ben is a member) with a
// 30,000 KRW dinner Ana paid for both of them, so that Ben owes Ana 15,000.
type settleFixture struct {
	*planFixture
	path, anaID, benID string // the plan's path and the members' ids
}

func newSettleFixture(t *testing.T) *settleFixture {
	f := &settleFixture{planFixture: newPlanFixture(t)}
	f.path = "/plans/" + f.plan.PlanID
	ids := f.planMemberIDs(t)
	f.benID, f.anaID = ids[0], ids[1]
	if res := f.a.do(req{Method: "POST", Path: f.path + "/expenses", Token: f.ana, Body: map[string]any{"day": 1, "paid_by": f.anaID,
		"items": []map[string]any{{"name": "Dinner", "cost": 30000}}}}); res.Status != http.StatusCreated {
		t.Fatalf("dinner: %d %s", res.Status, res.Body)
	}
	return f
}

// record posts a payment as the token's user.
func (f *settleFixture) record(token, from, to string, amount any) response {
	return f.a.do(req{Method: "POST", Path: f.path + "/settlements", Token: token,
		Body: map[string]any{"from_plan_member_id": from, "to_plan_member_id": to, "amount": amount}})
}

type settlementTestJSON struct {
	Members []struct {
		PlanMemberID string      `json:"plan_member_id"`
		Nickname     string      `json:"nickname"`
		Paid         json.Number `json:"paid"`
		Share        json.Number `json:"share"`
		Sent         json.Number `json:"sent"`
		Received     json.Number `json:"received"`
		Balance      json.Number `json:"balance"`
	} `json:"members"`
	Transfers []struct {
		From   addedByJSON `json:"from"`
		To     addedByJSON `json:"to"`
		Amount json.Number `json:"amount"`
	} `json:"transfers"`
}

// settlement reads GET /settlement as "member: paid share sent received balance" lines, in
// join order, and "from → to: amount" lines.
func (f *settleFixture) settlement(t *testing.T) (members, transfers []string) {
	t.Helper()
	res := f.a.do(req{Method: "GET", Path: f.path + "/settlement", Token: f.ben})
	if res.Status != http.StatusOK {
		t.Fatalf("settlement: %d %s", res.Status, res.Body)
	}
	var s settlementTestJSON
	if err := json.Unmarshal(res.Body, &s); err != nil {
		t.Fatal(err)
	}
	name := map[string]string{f.anaID: "Ana", f.benID: "Ben"}
	for _, m := range s.Members {
		members = append(members, fmt.Sprintf("%s: %s %s %s %s %s", name[m.PlanMemberID], m.Paid, m.Share, m.Sent, m.Received, m.Balance))
	}
	for _, tr := range s.Transfers {
		transfers = append(transfers, fmt.Sprintf("%s → %s: %s", tr.From.Nickname, tr.To.Nickname, tr.Amount))
	}
	return members, transfers
}

func sameLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n%s\nwant:\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRecordedPaymentsSettleUp (docs/API.md §Money): Ana paid 30,000 KRW for two, so Ben owes her
// 15,000. Ben records paying 10,000: Ana's balance falls from 15,000 to 5,000, Ben's rises
// from −15,000 to −5,000, and one transfer of 5,000 is left. Marking that one as paid leaves
// none; deleting the 10,000 brings a transfer of 10,000 back.
func TestRecordedPaymentsSettleUp(t *testing.T) {
	f := newSettleFixture(t)
	a := f.a
	members, transfers := f.settlement(t)
	sameLines(t, "before", members, []string{"Ana: 30000 15000 0 0 15000", "Ben: 0 15000 0 0 -15000"})
	sameLines(t, "transfers before", transfers, []string{"Ben → Ana: 15000"})

	res := f.record(f.ben, f.benID, f.anaID, 10000)
	if res.Status != http.StatusCreated {
		t.Fatalf("record: %d %s", res.Status, res.Body)
	}
	var rec settlementRecordJSON
	if err := json.Unmarshal(res.Body, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.From.PlanMemberID != f.benID || rec.To.PlanMemberID != f.anaID || rec.CreatedBy.PlanMemberID != f.benID ||
		rec.From.Nickname != "Ben" || rec.To.Nickname != "Ana" || !bodySays(res.Body, `"amount":10000,`) || rec.CreatedAt == "" {
		t.Errorf("recorded: %s", res.Body)
	}
	if loc := res.Header.Get("Location"); loc != f.path+"/settlements/"+rec.SettlementID {
		t.Errorf("Location %q", loc)
	}
	members, transfers = f.settlement(t)
	sameLines(t, "after 10,000", members, []string{"Ana: 30000 15000 0 10000 5000", "Ben: 0 15000 10000 0 -5000"})
	sameLines(t, "transfers after 10,000", transfers, []string{"Ben → Ana: 5000"})

	// "Mark as paid" on the suggested transfer records it whole (Ana may record it too).
	res = f.record(f.ana, f.benID, f.anaID, "5000")
	if res.Status != http.StatusCreated {
		t.Fatalf("mark as paid: %d %s", res.Status, res.Body)
	}
	var paid settlementRecordJSON
	json.Unmarshal(res.Body, &paid)
	if paid.CreatedBy.PlanMemberID != f.anaID {
		t.Errorf("recorded by %+v, want Ana", paid.CreatedBy)
	}
	members, transfers = f.settlement(t)
	sameLines(t, "settled", members, []string{"Ana: 30000 15000 0 15000 0", "Ben: 0 15000 15000 0 0"})
	sameLines(t, "transfers when settled", transfers, nil)

	// The list, newest first; guests of the plan read it too.
	var page pageJSON[settlementRecordJSON]
	res = a.do(req{Method: "GET", Path: f.path + "/settlements", Token: f.ben})
	if err := json.Unmarshal(res.Body, &page); err != nil || res.Status != http.StatusOK {
		t.Fatalf("list: %d %s", res.Status, res.Body)
	}
	if len(page.Contents) != 2 || page.Contents[0].SettlementID != paid.SettlementID || page.Contents[1].SettlementID != rec.SettlementID || page.HasNext {
		t.Errorf("list: %s", res.Body)
	}
	res = a.do(req{Method: "GET", Path: f.path + "/settlements?size=1&page=1", Token: f.ben})
	json.Unmarshal(res.Body, &page)
	if len(page.Contents) != 1 || page.Contents[0].SettlementID != rec.SettlementID || page.HasNext {
		t.Errorf("second page of one: %s", res.Body)
	}

	// Deleting the 10,000 restores what it settled.
	if res := a.do(req{Method: "DELETE", Path: f.path + "/settlements/" + rec.SettlementID, Token: f.ana}); res.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", res.Status, res.Body)
	}
	members, transfers = f.settlement(t)
	sameLines(t, "after the deletion", members, []string{"Ana: 30000 15000 0 5000 10000", "Ben: 0 15000 5000 0 -10000"})
	sameLines(t, "transfers after the deletion", transfers, []string{"Ben → Ana: 10000"})
	a.do(req{Method: "DELETE", Path: f.path + "/settlements/" + rec.SettlementID, Token: f.ana}).problem(t, 404, "SETTLEMENT_NOT_FOUND")
	a.do(req{Method: "DELETE", Path: f.path + "/settlements/nope", Token: f.ana}).problem(t, 404, "SETTLEMENT_NOT_FOUND")

	// The plan's history says who recorded what, and the deletion.
	res = a.do(req{Method: "GET", Path: f.path + "/activity", Token: f.ana})
	for _, want := range []string{
		`"summary":"Ben recorded that Ben paid Ana ₩10,000"`,
		`"summary":"Ana recorded that Ben paid Ana ₩5,000"`,
		`"summary":"Ana deleted the record of Ben paying Ana ₩10,000"`,
		`"type":"SETTLEMENT","id":"` + rec.SettlementID + `","name":"Ben to Ana, ₩10,000"`,
	} {
		if !strings.Contains(string(res.Body), want) {
			t.Errorf("activity lacks %s: %s", want, res.Body)
		}
	}
}

// TestRecordingAPaymentValidates: two different members of the plan and an amount above 0 in
// the plan's currency; 400 with the field, or 404 MEMBER_NOT_FOUND, and nothing recorded.
func TestRecordingAPaymentValidates(t *testing.T) {
	f := newSettleFixture(t)
	a := f.a
	bad := func(from, to string, amount any, field, reason string) {
		t.Helper()
		p := f.record(f.ben, from, to, amount).problem(t, 400, "INVALID_REQUEST")
		if got := fmt.Sprint(p["errors"]); !strings.Contains(got, field) || !strings.Contains(got, reason) {
			t.Errorf("%s → %s %v: errors %s, want %s: %s", from, to, amount, got, field, reason)
		}
	}
	bad(f.benID, f.benID, 1000, "to_plan_member_id", "must be another member than from_plan_member_id")
	bad(f.benID, f.anaID, 0, "amount", "must be an amount above 0, such as 12.50")
	bad(f.benID, f.anaID, "0.0", "amount", "must be an amount above 0, such as 12.50")
	bad(f.benID, f.anaID, -5000, "amount", "must be an amount above 0, such as 12.50")
	bad(f.benID, f.anaID, json.Number("10.5"), "amount", "must be a whole amount in KRW")
	bad(f.benID, f.anaID, "ten thousand", "amount", "must be an amount above 0, such as 12.50")
	bad(f.benID, f.anaID, nil, "amount", "is required")
	bad(f.benID, f.anaID, json.Number("100000000000000000000"), "amount", "is too large")
	bad("", f.anaID, 1000, "from_plan_member_id", "is required")

	// A member of another plan, or no member at all.
	other := a.createPlan(f.ana, "Elsewhere", "2026-05-01", "2026-05-02")
	var g memberGroupJSON[planMemberJSON]
	json.Unmarshal(a.do(req{Method: "GET", Path: "/plans/" + other.PlanID + "/members", Token: f.ana}).Body, &g)
	f.record(f.ben, f.benID, g.Members[0].PlanMemberID, 1000).problem(t, 404, "MEMBER_NOT_FOUND")
	f.record(f.ben, "xxxxxxxxxxxxxxxxxxxxx", f.anaID, 1000).problem(t, 404, "MEMBER_NOT_FOUND")
	f.record(f.ben, f.benID, "not an id", 1000).problem(t, 404, "MEMBER_NOT_FOUND")

	// Someone who is not a member may not record one, nor a guest.
	f.record(f.eve, f.benID, f.anaID, 1000).problem(t, 403, "FORBIDDEN_NOT_MEMBER")

	// Korean problem text for the same refusal.
	res := a.do(req{Method: "POST", Path: f.path + "/settlements", Token: f.ben, Header: map[string]string{"Accept-Language": "ko"},
		Body: map[string]any{"from_plan_member_id": f.benID, "to_plan_member_id": f.benID, "amount": 0}})
	if !strings.Contains(string(res.Body), "보내는 멤버(from_plan_member_id)와 다른 멤버여야 해요") || !strings.Contains(string(res.Body), "12.50처럼 0보다 큰 숫자여야 해요") {
		t.Errorf("Korean reasons: %s", res.Body)
	}

	var page pageJSON[settlementRecordJSON]
	json.Unmarshal(a.do(req{Method: "GET", Path: f.path + "/settlements", Token: f.ben}).Body, &page)
	if len(page.Contents) != 0 {
		t.Errorf("refused payments were recorded: %+v", page.Contents)
	}
}

// A member who left may still pay or be paid: they show in the settlement while a recorded
// payment names them.
func TestPaymentToAMemberWhoLeft(t *testing.T) {
	f := newSettleFixture(t)
	a := f.a
	eve := a.joinPlan(f.plan.PlanID, "pf-eve")
	if res := a.do(req{Method: "DELETE", Path: f.path + "/members/me", Token: f.eve}); res.Status != http.StatusNoContent {
		t.Fatalf("Eve leaves: %d %s", res.Status, res.Body)
	}
	if res := f.record(f.ana, f.anaID, eve, 4000); res.Status != http.StatusCreated {
		t.Fatalf("paying Eve: %d %s", res.Status, res.Body)
	}
	// Ana: 30,000 paid − 15,000 share + 4,000 sent = 19,000; Eve −4,000; Ben −15,000.
	res := a.do(req{Method: "GET", Path: f.path + "/settlement", Token: f.ben})
	var s settlementTestJSON
	json.Unmarshal(res.Body, &s)
	got := map[string]string{}
	for _, m := range s.Members {
		got[m.PlanMemberID] = fmt.Sprintf("%s %s %s", m.Sent, m.Received, m.Balance)
	}
	if got[f.anaID] != "4000 0 19000" || got[eve] != "0 4000 -4000" || got[f.benID] != "0 0 -15000" || len(s.Members) != 3 {
		t.Errorf("settlement with Eve: %s", res.Body)
	}
}

// Two members deleting the same recorded payment at once: one deletes it, the other is told
// it is gone.
func TestConcurrentDeletesOfAPayment(t *testing.T) {
	f := newSettleFixture(t)
	var rec settlementRecordJSON
	json.Unmarshal(f.record(f.ben, f.benID, f.anaID, 1000).Body, &rec)
	statuses := make([]int, 2)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, token := range []string{f.ana, f.ben} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			statuses[i] = f.a.do(req{Method: "DELETE", Path: f.path + "/settlements/" + rec.SettlementID, Token: token}).Status
		}()
	}
	close(start)
	wg.Wait()
	if min(statuses[0], statuses[1]) != http.StatusNoContent || max(statuses[0], statuses[1]) != http.StatusNotFound {
		t.Errorf("statuses %v, want one 204 and one 404", statuses)
	}
}

// The budget page posts a payment as a form and is sent back to the page.
func TestRecordingAPaymentFromTheBudgetPage(t *testing.T) {
	f := newSettleFixture(t)
	b := f.a.signedInBrowser(t, "pf-ben", "Ben")
	res := f.a.htmx(b, "POST", f.path+"/settlements", "from_plan_member_id="+f.benID+"&to_plan_member_id="+f.anaID+"&amount=15000")
	if res.Header.Get("HX-Redirect") != f.path+"/budget" {
		t.Fatalf("form: %d %v %s", res.Status, res.Header, res.Body)
	}
	if _, transfers := f.settlement(t); len(transfers) != 0 {
		t.Errorf("transfers after paying all from the page: %v", transfers)
	}
	if res := f.a.htmx(b, "POST", f.path+"/settlements", "from_plan_member_id="+f.benID+"&to_plan_member_id="+f.anaID+"&amount=1.5"); res.Status != http.StatusBadRequest {
		t.Errorf("a form with won and decimals: %d %s", res.Status, res.Body)
	}
}

// A plan's currency changes with recorded payments: 10,000 KRW become 10,000.00 USD, the same
// number in the new currency as the budget's amounts; back to KRW they are 10,000 again, and a
// payment with cents keeps the plan from going back to won.
func TestRecordedPaymentsFollowTheCurrency(t *testing.T) {
	f := newSettleFixture(t)
	a := f.a
	if res := f.record(f.ben, f.benID, f.anaID, 10000); res.Status != http.StatusCreated {
		t.Fatalf("record: %d %s", res.Status, res.Body)
	}
	if res := a.do(req{Method: "PATCH", Path: f.path + "/budgets", Token: f.ana, Body: map[string]any{"type": "EXPENSE", "currency": "USD"}}); res.Status != http.StatusOK {
		t.Fatalf("to USD: %d %s", res.Status, res.Body)
	}
	res := a.do(req{Method: "GET", Path: f.path + "/settlements", Token: f.ben})
	if !bodySays(res.Body, `"amount":10000.00,`) {
		t.Errorf("in dollars: %s", res.Body)
	}
	members, transfers := f.settlement(t)
	sameLines(t, "in dollars", members, []string{"Ana: 30000.00 15000.00 0.00 10000.00 5000.00", "Ben: 0.00 15000.00 10000.00 0.00 -5000.00"})
	sameLines(t, "transfers in dollars", transfers, []string{"Ben → Ana: 5000.00"})

	if res := f.record(f.ben, f.benID, f.anaID, "0.50"); res.Status != http.StatusCreated {
		t.Fatalf("cents: %d %s", res.Status, res.Body)
	}
	p := a.do(req{Method: "PATCH", Path: f.path + "/budgets", Token: f.ana, Body: map[string]any{"type": "EXPENSE", "currency": "KRW"}}).problem(t, 400, "INVALID_REQUEST")
	if got := fmt.Sprint(p["errors"]); !strings.Contains(got, "currency") {
		t.Errorf("back to won with cents recorded: %s", got)
	}
}

// Recording and deleting a payment are live events of the plan ("settlement", its id and the
// member's user as actor), so open pages of the plan hear of them.
func TestRecordedPaymentsAreLiveEvents(t *testing.T) {
	f := newSettleFixture(t)
	stream := f.a.subscribe(t, f.path+"/events", f.ana, "")
	var rec settlementRecordJSON
	json.Unmarshal(f.record(f.ben, f.benID, f.anaID, 1000).Body, &rec)
	next := func(what string) sseEvent {
		t.Helper()
		ev := stream.next(t, 5*time.Second)
		for ev.Event != "settlement" {
			ev = stream.next(t, 5*time.Second)
		}
		if ev.Data["id"] != rec.SettlementID || ev.Data["actor"] != f.a.userID(f.ben) {
			t.Errorf("%s: %+v", what, ev)
		}
		return ev
	}
	next("recorded")
	if res := f.a.do(req{Method: "DELETE", Path: f.path + "/settlements/" + rec.SettlementID, Token: f.ben}); res.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", res.Status, res.Body)
	}
	next("deleted")
}
