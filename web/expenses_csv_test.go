package web

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"slices"
	"strconv"
	"testing"
)

// readCSV parses an expenses.csv answer: a 200 with the CSV media type, a byte-order mark,
// CRLF line ends, and RFC 4180 records of nine fields.
func readCSV(t *testing.T, res response) [][]string {
	t.Helper()
	if res.Status != http.StatusOK || res.Header.Get("Content-Type") != "text/csv; charset=utf-8" {
		t.Fatalf("expenses.csv: %d %q %s", res.Status, res.Header.Get("Content-Type"), res.Body)
	}
	body, ok := bytes.CutPrefix(res.Body, []byte("\xEF\xBB\xBF"))
	if !ok {
		t.Fatalf("no byte-order mark: %q", res.Body[:min(len(res.Body), 8)])
	}
	if !bytes.HasSuffix(body, []byte("\r\n")) || bytes.Count(body, []byte("\n")) != bytes.Count(body, []byte("\r\n")) {
		t.Errorf("lines do not end in CRLF: %q", body)
	}
	r := csv.NewReader(bytes.NewReader(body))
	r.FieldsPerRecord = 9
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, body)
	}
	return rows
}

// TestExpensesCSV builds a plan in KRW with expenses in JPY, USD (cents) and KRW, several
// payers, EXACT and SHARES splits, an undecided block and Korean names, and reads its
// expenses.csv back, every cell against hand-computed values.
func TestExpensesCSV(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	a.member("pf-cid", "Cid")
	a.joinPlan(f.plan.PlanID, "pf-cid")
	ids := f.planMemberIDs(t) // Ben, then Ana and Cid
	ben, ana, cid := ids[0], ids[1], ids[2]

	decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "12:00")))
	undecided := decodeBlock(t, f.add(f.ana, placeBlock(f.places[1].CollectionPlaceID, 1, "14:00", "15:00")))
	if b := decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + undecided.TimeBlockID + "/candidates", Token: f.ben,
		Body: map[string]any{"collection_place_ids": []string{f.places[2].CollectionPlaceID}}})); b.SelectedBlock != nil {
		t.Fatalf("the market or the tower is decided: %+v", b)
	}
	groups := f.expenses(t, "1")
	if len(groups) != 2 || groups[0].Selected == nil || groups[1].Selected != nil || len(*groups[1].Candidates) != 2 {
		t.Fatalf("day 1: %+v", groups)
	}
	palaceExpense := groups[0].Selected.ExpenseID
	candidate := map[string]string{} // place name → its candidate's expense
	for _, e := range *groups[1].Candidates {
		candidate[e.Block.Name] = e.ExpenseID
	}
	set := func(expenseID string, body map[string]any) {
		t.Helper()
		if res := a.do(req{Method: "PUT", Path: plan + "/expenses/" + expenseID, Token: f.ben, Body: body}); res.Status != http.StatusOK {
			t.Fatalf("set %v: %d %s", body, res.Status, res.Body)
		}
	}

	// Day 1 at its start: ¥3000 sushi and ¥450 tea at 9.05, Ben paid, everyone shares:
	// ¥3450 × 9.05 = ₩31222.5 → 31223, divided 3000:450 → 27150.43… and 4072.56…, the
	// unit left to the larger remainder: 27150 and 4073.
	f.addExpense(t, map[string]any{"day": 1, "items": []map[string]any{{"name": "Sushi", "cost": 3000}, {"name": "Tea", "cost": 450}},
		"currency": "JPY", "exchange_rate": "9.05", "paid_by": ben})
	// The palace: $12.50 + $7.25 at 1385.27, Ana paid $10.00 and Ben $9.75, Ana owes $5.00 and
	// Cid $14.75: $19.75 × 1385.27 = ₩27359.08… → 27359, divided 1250:725 → 17315.82… and
	// 10043.17…: 17316 and 10043.
	set(palaceExpense, map[string]any{"items": []map[string]any{{"name": "Ticket", "cost": "12.50"}, {"name": "Guide", "cost": "7.25"}},
		"currency": "USD", "exchange_rate": "1385.27",
		"payers": []map[string]any{{"plan_member_id": ana, "amount": "10.00"}, {"plan_member_id": ben, "amount": "9.75"}},
		"split":  map[string]any{"mode": "EXACT", "amounts": []map[string]any{{"plan_member_id": ana, "amount": "5"}, {"plan_member_id": cid, "amount": "14.75"}}}})
	// After the palace, in won, names a spreadsheet would take for formulas.
	f.addExpense(t, map[string]any{"prev_expense_id": palaceExpense, "items": []map[string]any{{"name": "=1+2", "cost": 3000}, {"name": "@cmd", "cost": 2000}},
		"paid_by": ben, "split_among": []string{ana, ben}})
	// The undecided block counts its costliest candidate in won: the market's ₩23000, or the
	// tower's ¥3000 × 9.05 = ₩27150 (fewer units, yet more won): the tower's lines, 13575 each.
	set(candidate["Gwangjang Market"], map[string]any{"items": []map[string]any{{"name": "빈대떡", "cost": 15000}, {"name": "막걸리", "cost": 8000}}})
	set(candidate["N Seoul Tower"], map[string]any{"items": []map[string]any{{"name": "케이블카", "cost": 1500}, {"name": "전망대", "cost": 1500}},
		"currency": "JPY", "exchange_rate": "9.05", "paid_by": cid,
		"split": map[string]any{"mode": "SHARES", "shares": []map[string]any{{"plan_member_id": ana, "shares": 1}, {"plan_member_id": cid, "shares": 2}}}})
	// Day 2: a ₩12000 taxi Ana paid.
	f.addExpense(t, map[string]any{"day": 2, "items": []map[string]any{{"name": "택시", "cost": 12000}}, "paid_by": ana})

	res := a.do(req{Method: "GET", Path: plan + "/expenses.csv", Token: f.ben})
	if got := res.Header.Get("Content-Disposition"); got != "attachment; filename=Seoul-trip-expenses.csv" {
		t.Errorf("Content-Disposition: %q", got)
	}
	rows := readCSV(t, res)
	everyone := "equal: Ana, Ben, Cid"
	want := [][]string{
		{"Day", "Time block", "Item", "Amount", "Currency", "Rate", "Amount in KRW", "Paid by", "Split"},
		{"1", "extra", "Sushi", "3000", "JPY", "9.05", "27150", "Ben", everyone},
		{"1", "extra", "Tea", "450", "JPY", "9.05", "4073", "Ben", everyone},
		{"1", "10:00–12:00 Gyeongbokgung Palace", "Ticket", "12.50", "USD", "1385.27", "17316", "Ana 10.00; Ben 9.75", "exact: Ana 5.00; Cid 14.75"},
		{"1", "10:00–12:00 Gyeongbokgung Palace", "Guide", "7.25", "USD", "1385.27", "10043", "Ana 10.00; Ben 9.75", "exact: Ana 5.00; Cid 14.75"},
		{"1", "extra", "'=1+2", "3000", "KRW", "1", "3000", "Ben", "equal: Ana, Ben"},
		{"1", "extra", "'@cmd", "2000", "KRW", "1", "2000", "Ben", "equal: Ana, Ben"},
		{"1", "14:00–15:00 N Seoul Tower", "케이블카", "1500", "JPY", "9.05", "13575", "Cid", "shares: Ana 1; Cid 2"},
		{"1", "14:00–15:00 N Seoul Tower", "전망대", "1500", "JPY", "9.05", "13575", "Cid", "shares: Ana 1; Cid 2"},
		{"2", "extra", "택시", "12000", "KRW", "1", "12000", "Ana", everyone},
	}
	if !slices.EqualFunc(rows, want, slices.Equal) {
		t.Fatalf("rows:\n%q\nwant:\n%q", rows, want)
	}
	// The won column sums to the budget's total cost: 31223 + 27359 + 5000 + 27150 + 12000.
	var sum int64
	for _, r := range rows[1:] {
		n, err := strconv.ParseInt(r[6], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		sum += n
	}
	if total := f.budget(t).TotalCost.Minor; sum != 102732 || total != sum {
		t.Errorf("the won column sums to %d, the budget's total cost is %d, want 102732", sum, total)
	}

	// In Korean: the header, the words and the places' names.
	ko := readCSV(t, a.do(req{Method: "GET", Path: plan + "/expenses.csv", Token: f.ben, Header: map[string]string{"Accept-Language": "ko"}}))
	if !slices.Equal(ko[0], []string{"일차", "일정", "항목", "금액", "통화", "환율", "KRW 환산 금액", "낸 사람", "나누는 방식"}) ||
		!slices.Equal(ko[1], []string{"1", "추가 지출", "Sushi", "3000", "JPY", "9.05", "27150", "Ben", "똑같이: Ana, Ben, Cid"}) ||
		ko[3][1] != "10:00–12:00 경복궁" || ko[3][8] != "금액 지정: Ana 5.00; Cid 14.75" ||
		ko[7][1] != "14:00–15:00 N서울타워" || ko[7][8] != "비율: Ana 1; Cid 2" {
		t.Errorf("in Korean: %q", ko)
	}

	// A guest through a share link reads the same file.
	guest := a.guestOf(t, a.invite(f.ana, plan))
	if g := a.do(req{Method: "GET", Path: plan + "/expenses.csv", Client: guest}); !bytes.Equal(g.Body, res.Body) {
		t.Errorf("a guest's file differs: %d %s", g.Status, g.Body)
	}
	// Someone else may not; nor may anyone without a session.
	a.do(req{Method: "GET", Path: plan + "/expenses.csv", Token: f.eve}).problem(t, http.StatusForbidden, "FORBIDDEN_NOT_MEMBER")
	if res := a.do(req{Method: "GET", Path: plan + "/expenses.csv"}); res.Status != http.StatusUnauthorized {
		t.Errorf("without a session: %d", res.Status)
	}

	// A Korean title: an ASCII name for old clients, the whole name in filename*.
	if res := a.do(req{Method: "PUT", Path: plan, Token: f.ana, Body: map[string]any{
		"title": "서울 여행", "start_date": "2026-04-01", "end_date": "2026-04-03"}}); res.Status != http.StatusOK {
		t.Fatalf("rename: %d %s", res.Status, res.Body)
	}
	res = a.do(req{Method: "GET", Path: plan + "/expenses.csv", Token: f.ben})
	if got := res.Header.Get("Content-Disposition"); got != "attachment; filename=expenses.csv; filename*=utf-8''%EC%84%9C%EC%9A%B8-%EC%97%AC%ED%96%89-expenses.csv" {
		t.Errorf("Content-Disposition of a Korean title: %q", got)
	}
	if got := readCSV(t, res); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("renamed, the rows changed: %q", got)
	}
}

// TestCellKeepsFormulasAsText: what a spreadsheet would evaluate gets an apostrophe; other
// text, and numbers we write, stay as they are.
func TestCellKeepsFormulasAsText(t *testing.T) {
	for in, want := range map[string]string{"=1+2": "'=1+2", "+1": "'+1", "-1": "'-1", "@SUM(A1)": "'@SUM(A1)", "\tx": "'\tx",
		"\rx": "'\rx", "Sushi": "Sushi", "택시": "택시", "": "", "a=b": "a=b", "10:00–12:00": "10:00–12:00"} {
		if got := cell(in); got != want {
			t.Errorf("cell(%q) = %q, want %q", in, got, want)
		}
	}
}
