package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// minimalBackup is the smallest backup a restore takes: one day, nothing on it.
func minimalBackup() map[string]any {
	return map[string]any{"format": "tripplan.plan", "version": 2,
		"plan":    map[string]any{"title": "Restored", "start_date": "2026-05-01", "end_date": "2026-05-01", "time_zone": "Asia/Seoul", "currency": "KRW"},
		"members": []any{}, "former_members": []any{}, "collections": []any{}, "budget": map[string]any{"type": "INITIAL"},
		"places": []any{}, "days": []any{map[string]any{"day": 1, "blocks": []any{}}}, "expenses": []any{}}
}

// newRestoreFixture is the export fixture with everything a backup holds: every block type
// (a confirmed place, an undecided one, free time, a custom place typed in, a custom place with
// a point brought in from a file), a fixed time, opinions by Ana and by Ben, expenses paid by
// both and split in each mode (one in another currency), a candidate's costs, and a budget.
func newRestoreFixture(t *testing.T) *exportFixture {
	f := newExportFixture(t)
	a, plan := f.a, "/plans/"+f.plan.PlanID
	setFixed(t, f.planFixture, f.palace, true)
	manual := decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/manual", Token: f.ana, Body: map[string]any{"day": 2, "start_time": "09:00", "end_time": "10:00",
		"memo": "Keys under the mat", "manual_place": map[string]string{"name": "Aunt's house", "address": "Mapo-gu, Seoul", "url": "https://maps.example/aunt"}}}))
	rq := fileReq("/collections/"+f.collection+"/imports", "mine.gpx", `<?xml version="1.0"?>
<gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="37.5512" lon="126.9882"><name>Our guesthouse</name></wpt></gpx>`)
	rq.Token = f.ana
	var report importReportJSON
	if res := a.do(rq); json.Unmarshal(res.Body, &report) != nil || report.Created != 1 {
		t.Fatalf("import: %d %s", res.Status, res.Body)
	}
	decodeBlock(t, f.add(f.ana, placeBlock(*report.Rows[0].CollectionPlaceID, 3, "21:00", "23:00")))
	f.opine(t, f.ana, f.palace.SelectedBlock.BlockID, map[string]any{"type": "NEGATIVE", "comment": "Crowded", "tag_ids": []string{"crowded"}})
	f.opine(t, f.ben, f.market.SelectedBlock.BlockID, map[string]any{"type": "NEUTRAL"})
	f.opine(t, f.ben, manual.Candidates[0].BlockID, map[string]any{"type": "NEGATIVE", "comment": "  far\nfrom everything "})
	f.setItems(t, f.market.SelectedBlock.BlockID, 12000, 3000)
	ids := f.memberIDs(t, f.ana)
	anaID, benID := ids["Ana"], ids["Ben"]
	f.addExpense(t, map[string]any{"day": 2, "items": item("Dinner", 50000), "payers": []map[string]any{{"plan_member_id": anaID, "amount": 30000}, {"plan_member_id": benID, "amount": 20000}},
		"split": map[string]any{"mode": "EXACT", "amounts": []map[string]any{{"plan_member_id": anaID, "amount": 10000}, {"plan_member_id": benID, "amount": 40000}}}})
	f.addExpense(t, map[string]any{"day": 3, "items": item("Museum", 9000), "paid_by": benID,
		"split": map[string]any{"mode": "SHARES", "shares": []map[string]any{{"plan_member_id": anaID, "shares": 1}, {"plan_member_id": benID, "shares": 2}}}})
	f.addExpense(t, map[string]any{"day": 1, "items": item("Souvenir", 12), "currency": "USD", "exchange_rate": "1400.5", "paid_by": anaID, "split_among": []string{anaID, benID}})
	if res := a.do(req{Method: "PATCH", Path: plan + "/budgets", Token: f.ana, Body: map[string]any{"type": "BUDGET", "total_budget": 900000, "traveler_count": 3}}); res.Status != http.StatusOK {
		t.Fatalf("budget: %d %s", res.Status, res.Body)
	}
	return f
}

// restore posts a backup as the JSON body.
func restore(a *testApp, token string, body []byte, header map[string]string) response {
	return a.do(req{Method: "POST", Path: "/plans/imports", Token: token, Body: body, Header: header})
}

// backupOf answers a plan's backup.
func backupOf(t *testing.T, a *testApp, token, planID string) []byte {
	t.Helper()
	res := a.do(req{Method: "GET", Path: "/plans/" + planID + "/export.json", Token: token})
	if res.Status != http.StatusOK {
		t.Fatalf("export: %d %s", res.Status, res.Body)
	}
	return res.Body
}

// The check: export → restore → export gives the same document except ids and
// authorship. The restored plan is Ana's alone, so what the first export says of Ben becomes
// Ana's: his opinions are notes in their candidates' memos, and every payment and share is hers
// (the expected document is the first one changed so, by hand).
func TestRestoreRoundTrip(t *testing.T) {
	f := newRestoreFixture(t)
	a := f.a
	first := backupOf(t, a, f.ana, f.plan.PlanID)
	res := restore(a, f.ana, first, nil)
	var p planJSON
	if err := json.Unmarshal(res.Body, &p); err != nil || res.Status != http.StatusCreated || res.Header.Get("Location") != "/plans/"+p.PlanID ||
		p.PlanID == f.plan.PlanID || p.Title != "Seoul trip" || p.MemberCount != 1 || p.TimeZone != "Asia/Seoul" || p.DurationDays != 3 {
		t.Fatalf("restore: %d %s %v", res.Status, res.Body, res.Header)
	}
	second := backupOf(t, a, f.ana, p.PlanID)

	var want, got map[string]any
	json.Unmarshal(first, &want)
	json.Unmarshal(second, &got)
	asAnaAlone(t, want)
	if diff := cmp.Diff(normalised(want), normalised(got)); diff != "" {
		t.Errorf("export → restore → export (-want +got):\n%s", diff)
	}
	// Spelled out for two of them: Ben's opinion is a line of the palace's memo, Ana's stays an
	// opinion; the custom places are new places with the same name and point.
	var x planExportJSON
	json.Unmarshal(second, &x)
	palace := x.Days[0].Blocks[0]
	if c := palace.Candidates[0]; c.Memo != "Hanbok: free entry, gate at exit 5\nBen: like — “Go early”" || !palace.FixedTime ||
		len(palace.Opinions[c.BlockID]) != 1 || palace.Opinions[c.BlockID][0].Comment != "Crowded" || palace.Opinions[c.BlockID][0].Type != "NEGATIVE" {
		t.Errorf("palace: %+v", palace)
	}
	for _, pl := range x.Places {
		if pl.Name == "Our guesthouse" && (pl.Point == nil || pl.Point.Latitude != "37.551200") {
			t.Errorf("the guesthouse: %+v", pl)
		}
	}
	// Totals stay: the budget's and each expense's.
	var b1, b2 planExportJSON
	json.Unmarshal(first, &b1)
	json.Unmarshal(second, &b2)
	if b1.Budget.TotalCost != b2.Budget.TotalCost || b2.Budget.TotalBudget == nil || *b2.Budget.TotalBudget != *b1.Budget.TotalBudget || b2.Budget.TravelerCount != 3 {
		t.Errorf("budget %+v → %+v", b1.Budget, b2.Budget)
	}
	// The history says it.
	if h := a.do(req{Method: "GET", Path: "/plans/" + p.PlanID + "/activity", Token: f.ana}); !strings.Contains(string(h.Body), "PLAN_RESTORED") {
		t.Errorf("history: %s", h.Body)
	}
	// Ben, not a member of the copy, cannot read it.
	a.do(req{Method: "GET", Path: "/plans/" + p.PlanID, Token: f.ben}).problem(t, http.StatusForbidden, "FORBIDDEN_NOT_MEMBER")
}

// asAnaAlone changes a backup as restoring it for Ana changes it: the opinions of everyone but
// Ana become lines of their candidate's memo, and every payment and share is Ana's.
func asAnaAlone(t *testing.T, doc map[string]any) {
	t.Helper()
	nick, ana := map[string]string{}, ""
	for _, m := range doc["members"].([]any) {
		m := m.(map[string]any)
		nick[m["plan_member_id"].(string)] = m["nickname"].(string)
		if m["nickname"] == "Ana" {
			ana = m["plan_member_id"].(string)
		}
	}
	word := map[string]string{"POSITIVE": "like", "NEUTRAL": "neutral", "NEGATIVE": "dislike"}
	for _, d := range doc["days"].([]any) {
		for _, b := range d.(map[string]any)["blocks"].([]any) {
			b := b.(map[string]any)
			ops := b["opinions"].(map[string]any)
			for _, c := range b["candidates"].([]any) {
				c := c.(map[string]any)
				var kept []any
				lines := []string{}
				if m := c["memo"].(string); m != "" {
					lines = append(lines, m)
				}
				for _, o := range ops[c["block_id"].(string)].([]any) {
					o := o.(map[string]any)
					if o["added_by"] == ana {
						kept = append(kept, o)
						continue
					}
					line := nick[o["added_by"].(string)] + ": " + word[o["type"].(string)]
					if cm := strings.Join(strings.Fields(o["comment"].(string)), " "); cm != "" {
						line += " — “" + cm + "”"
					}
					lines = append(lines, line)
				}
				c["memo"] = strings.Join(lines, "\n")
				ops[c["block_id"].(string)] = append([]any{}, kept...)
			}
		}
	}
	for _, e := range doc["expenses"].([]any) {
		e := e.(map[string]any)
		merge := func(parts []any, key string) []any {
			if len(parts) == 0 {
				return parts
			}
			sum := 0.0
			for _, p := range parts {
				sum += p.(map[string]any)[key].(float64)
			}
			if key == "shares" {
				sum = 1
			}
			return []any{map[string]any{"plan_member_id": ana, key: sum}}
		}
		e["payers"] = merge(e["payers"].([]any), "amount")
		if e["paid_by"] != nil {
			e["paid_by"] = ana
		}
		split := e["split"].(map[string]any)
		if amounts, ok := split["amounts"].([]any); ok {
			split["amounts"] = merge(amounts, "amount")
		}
		if shares, ok := split["shares"].([]any); ok {
			split["shares"] = merge(shares, "shares")
		}
		if members, ok := split["members"].([]any); ok && len(members) > 0 {
			split["members"], e["split_among"] = []any{ana}, []any{ana}
		}
	}
}

// normalised is a backup without what a copy cannot keep: ids become their order of first
// appearance (id1, id2, …, the opinions' keys with them), members and authors one "member",
// versions and timestamps nothing.
func normalised(doc map[string]any) any {
	ids := map[string]string{}
	rename := func(id string) string {
		if ids[id] == "" {
			ids[id] = fmt.Sprintf("id%d", len(ids)+1)
		}
		return ids[id]
	}
	idKeys := map[string]bool{"plan_id": true, "time_block_id": true, "block_id": true, "place_id": true, "expense_id": true, "opinion_id": true,
		"budget_id": true, "expense_item_id": true, "after_time_block_id": true}
	drop := map[string]bool{"version": true, "exported_at": true, "created_at": true, "updated_at": true, "members": true, "former_members": true, "member_count": true}
	authors := map[string]bool{"added_by": true, "paid_by": true, "plan_member_id": true}
	var walk func(key string, v any) any
	walk = func(key string, v any) any {
		switch v := v.(type) {
		case map[string]any:
			out := map[string]any{}
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				switch {
				case drop[k] && !(key == "split" && k == "members"):
					continue
				case authors[k] && v[k] != nil:
					out[k] = "member"
				case key == "opinions":
					out[rename(k)] = walk(k, v[k])
				default:
					out[k] = walk(k, v[k])
				}
			}
			return out
		case []any:
			out := make([]any, len(v))
			for i, e := range v {
				if key == "members" || key == "split_among" {
					out[i] = "member"
					continue
				}
				out[i] = walk(key, e)
			}
			return out
		case string:
			if idKeys[key] {
				return rename(v)
			}
		}
		return v
	}
	return walk("", doc)
}

// Restoring is all or nothing and refuses, with the JSON path of the fault, what cannot be a
// plan; any content type but JSON or a multipart file is 415, a backup over 5 MB 413.
func TestRestoreRefusals(t *testing.T) {
	f := newRestoreFixture(t)
	a := f.a
	var doc map[string]any
	json.Unmarshal(backupOf(t, a, f.ana, f.plan.PlanID), &doc)
	count := func() int {
		var n int
		if err := a.db.Get(&n, `SELECT count(*) FROM plans`); err != nil {
			t.Fatal(err)
		}
		return n
	}
	plans := count()
	with := func(change func(d map[string]any)) []byte {
		var d map[string]any
		b, _ := json.Marshal(doc)
		json.Unmarshal(b, &d)
		change(d)
		b, _ = json.Marshal(d)
		return b
	}
	block := func(d map[string]any, day, i int) map[string]any {
		return d["days"].([]any)[day].(map[string]any)["blocks"].([]any)[i].(map[string]any)
	}
	fields := func(res response) []string {
		var out []string
		list, _ := res.problem(t, http.StatusBadRequest, "INVALID_REQUEST")["errors"].([]any)
		if list == nil {
			t.Errorf("no fields: %s", res.Body)
		}
		for _, f := range list {
			out = append(out, f.(map[string]any)["field"].(string))
		}
		return out
	}
	for name, tc := range map[string]struct {
		change func(d map[string]any)
		fields []string
	}{
		"another kind of file":     {func(d map[string]any) { d["format"] = "geojson" }, []string{"format"}},
		"another version":          {func(d map[string]any) { d["version"] = 1 }, []string{"version"}},
		"overlapping blocks":       {func(d map[string]any) { block(d, 0, 1)["start_time"] = "11:00" }, []string{"days[0].blocks[1].start_time"}},
		"a bad time":               {func(d map[string]any) { block(d, 0, 2)["end_time"] = "25:00" }, []string{"days[0].blocks[2].end_time"}},
		"a time of the wrong type": {func(d map[string]any) { block(d, 0, 2)["start_time"] = 5 }, []string{"days[0].blocks[2].start_time"}},
		"an unknown place": {func(d map[string]any) {
			block(d, 1, 0)["candidates"].([]any)[0].(map[string]any)["place_id"] = "nowhere"
		}, []string{"days[1].blocks[0].candidates[0].place_id"}},
		"a candidate twice": {func(d map[string]any) {
			block(d, 0, 3)["candidates"].([]any)[0].(map[string]any)["block_id"] = block(d, 0, 0)["candidates"].([]any)[0].(map[string]any)["block_id"]
		}, []string{"days[0].blocks[3].candidates[0].block_id"}},
		"two selected": {func(d map[string]any) {
			for _, c := range block(d, 0, 1)["candidates"].([]any) {
				c.(map[string]any)["selected"] = true
			}
		}, []string{"days[0].blocks[1].candidates[1].selected"}},
		"more days than the plan": {func(d map[string]any) {
			days := d["days"].([]any)
			for len(days) <= 30 {
				days = append(days, map[string]any{"day": len(days) + 1, "blocks": []any{}})
			}
			d["days"] = days
		}, []string{"days"}},
		"a day beyond the dates": {func(d map[string]any) { d["days"].([]any)[2].(map[string]any)["day"] = 9 }, []string{"days[2].day"}},
		"too many blocks a day": {func(d map[string]any) {
			var blocks []any
			for i := range 97 {
				blocks = append(blocks, map[string]any{"time_block_id": fmt.Sprint("x", i), "type": "FREE"})
			}
			d["days"].([]any)[2].(map[string]any)["blocks"] = blocks
		}, []string{"days[2].blocks"}},
		"payments that do not add up": {func(d map[string]any) {
			for _, e := range d["expenses"].([]any) {
				if p := e.(map[string]any)["payers"].([]any); len(p) == 2 {
					p[0].(map[string]any)["amount"] = 1
				}
			}
		}, nil},
	} {
		res := restore(a, f.ana, with(tc.change), nil)
		got := fields(res)
		if tc.fields == nil && (len(got) != 1 || !strings.HasPrefix(got[0], "expenses[") || !strings.HasSuffix(got[0], "].payers")) ||
			tc.fields != nil && !slices.Equal(got, tc.fields) {
			t.Errorf("%s: fields %v, want %v", name, got, tc.fields)
		}
	}
	a.do(req{Method: "POST", Path: "/plans/imports", Token: f.ana, Body: "title=x", Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}).
		problem(t, http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE")
	a.do(req{Method: "POST", Path: "/plans/imports", Token: f.ana, Body: "{"}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	huge := with(func(d map[string]any) { d["padding"] = strings.Repeat("x", 5<<20) })
	restore(a, f.ana, huge, nil).problem(t, http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
	body, ct := multipartFile("big.json", string(huge))
	a.do(req{Method: "POST", Path: "/plans/imports", Token: f.ana, Body: body, Header: map[string]string{"Content-Type": ct}}).
		problem(t, http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
	if n := count(); n != plans {
		t.Errorf("refused restores made plans: %d → %d", plans, n)
	}
	// The file as a multipart part works as the body does; with an Idempotency-Key a retry
	// gets the same plan.
	body, ct = multipartFile("seoul.json", string(backupOf(t, a, f.ana, f.plan.PlanID)))
	key := map[string]string{"Content-Type": ct, "Idempotency-Key": "restore-once-1"}
	one := a.do(req{Method: "POST", Path: "/plans/imports", Token: f.ana, Body: body, Header: key})
	two := a.do(req{Method: "POST", Path: "/plans/imports", Token: f.ana, Body: body, Header: key})
	if one.Status != http.StatusCreated || two.Status != http.StatusCreated || two.Header.Get("Idempotent-Replayed") != "true" ||
		one.Header.Get("Location") != two.Header.Get("Location") || count() != plans+1 {
		t.Errorf("multipart with a key: %d %s / %d %v", one.Status, one.Body, two.Status, two.Header)
	}
	// Nobody else's: anonymous callers are 401.
	a.do(req{Method: "POST", Path: "/plans/imports", Body: minimalBackup()}).problem(t, http.StatusUnauthorized, "MISSING_TOKEN")
}

// A restore sends the same statements for a small backup as for one with many more blocks,
// candidates, opinions and expenses.
func TestRestoreHasAFlatQueryBudget(t *testing.T) {
	f := newRestoreFixture(t)
	a := f.a
	count := func() int {
		t.Helper()
		doc := backupOf(t, a, f.ana, f.plan.PlanID)
		a.queries.Reset()
		if res := restore(a, f.ana, doc, nil); res.Status != http.StatusCreated {
			t.Fatalf("restore: %d %s", res.Status, res.Body)
		}
		return a.queries.Count()
	}
	small := count()
	for d := 1; d <= 3; d++ {
		for h := range 4 {
			decodeBlock(t, f.add(f.ana, placeBlock(f.places[h%3].CollectionPlaceID, d, fmt.Sprintf("0%d:00", h+1), fmt.Sprintf("0%d:30", h+1))))
		}
		f.addExpense(t, map[string]any{"day": d, "items": []map[string]any{{"name": "Snack", "cost": 3000}, {"name": "Water", "cost": 1000}}})
	}
	if large := count(); large != small || small > 17 {
		t.Errorf("statements: %d for the small backup, %d for the large one (budget 17)", small, large)
	}
}

// The plans list offers the restore: a plain form post goes to the new plan, htmx is sent
// there; a file that is not a backup is said in words next to the field, in either language.
func TestRestorePage(t *testing.T) {
	f := newRestoreFixture(t)
	a := f.a
	ana := a.signedInBrowser(t, "pf-ana", "Ana")
	page := a.page(t, ana, "/plans")
	for _, want := range []string{`action="/plans/imports"`, `enctype="multipart/form-data"`, `hx-post="/plans/imports"`, `name="file" type="file"`, "Restore from backup"} {
		if !strings.Contains(page, want) {
			t.Errorf("the plans page lacks %s", want)
		}
	}
	post := func(content string, htmx bool, lang string) response {
		body, ct := multipartFile("backup.json", content)
		h := map[string]string{"Content-Type": ct, "Accept": "text/html", "Sec-Fetch-Site": "same-origin", "Accept-Language": lang}
		if htmx {
			h["HX-Request"] = "true"
		}
		return a.do(req{Method: "POST", Path: "/plans/imports", Client: ana, Body: body, Header: h})
	}
	backup := string(backupOf(t, a, f.ana, f.plan.PlanID))
	if res := post(backup, false, "en"); res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/plans/") {
		t.Errorf("plain post: %d %v", res.Status, res.Header)
	}
	if res := post(backup, true, "en"); res.Status != http.StatusNoContent || !strings.HasPrefix(res.Header.Get("HX-Redirect"), "/plans/") {
		t.Errorf("htmx post: %d %v", res.Status, res.Header)
	}
	bad := post(`{"type":"FeatureCollection","features":[]}`, true, "en")
	if body := string(bad.Body); bad.Status != http.StatusBadRequest || bad.Header.Get("HX-Retarget") != "#restore-form" ||
		!strings.Contains(body, "This file is not a Tripplan plan backup") || !strings.Contains(body, `aria-invalid`) || strings.Contains(body, "INVALID_REQUEST") {
		t.Errorf("htmx error: %d %v %s", bad.Status, bad.Header, bad.Body)
	}
	overlap := strings.Replace(backup, `"start_time":"14:00:00.000Z"`, `"start_time":"11:00:00.000Z"`, 1)
	if res := post(overlap, false, "ko"); res.Status != http.StatusBadRequest || !strings.Contains(string(res.Body), "백업을 복원할 수 없어요: days[0].blocks[1].start_time에서 days[0].blocks[0]") {
		t.Errorf("plain post error in Korean: %d %s", res.Status, res.Body)
	}
}
