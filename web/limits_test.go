package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"tripplan/internal/planner"
)

// ids makes n distinct well-formed ids that name nothing.
func ids(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%0*d", prefix, 21-len(prefix), i)
	}
	return out
}

// planMemberIDs answers the plan's active member ids, the caller's first.
func (f *planFixture) planMemberIDs(t testing.TB) []string {
	t.Helper()
	var g memberGroupJSON[planMemberJSON]
	res := f.a.do(req{Method: "GET", Path: "/plans/" + f.plan.PlanID + "/members", Token: f.ben})
	if err := json.Unmarshal(res.Body, &g); err != nil || res.Status != http.StatusOK {
		t.Fatalf("members: %d %s", res.Status, res.Body)
	}
	out := []string{g.Me.PlanMemberID}
	for _, m := range g.Members {
		if m.PlanMemberID != g.Me.PlanMemberID {
			out = append(out, m.PlanMemberID)
		}
	}
	return out
}

// catalogPlaces answers n place ids of the built-in catalog that no collection holds.
func (a *testApp) catalogPlaces(t *testing.T, n int) []string {
	t.Helper()
	var out []string
	if err := a.db.Select(&out, `SELECT id FROM places WHERE id NOT IN (SELECT place_id FROM collection_places) ORDER BY id LIMIT $1`, n); err != nil || len(out) != n {
		t.Fatalf("catalog places: %d, %v", len(out), err)
	}
	return out
}

// completedJob starts an extraction job for Ben and completes it (no worker runs) with the
// given places as its result.
func (f *planFixture) completedJob(t *testing.T, url string, placeIDs []string) string {
	t.Helper()
	j := f.startJob(t, f.ben, url)
	r := &planner.ExtractionResult{URL: url, MediaType: "BLOG", Title: "A list", DetectedCount: len(placeIDs), MatchedCount: len(placeIDs)}
	for _, id := range placeIDs {
		r.Places = append(r.Places, planner.ResultPlace{PlaceID: id, Name: id})
	}
	if err := f.a.db.CompleteJob(t.Context(), j.JobID, r); err != nil {
		t.Fatal(err)
	}
	return j.JobID
}

// TestSplitAmongHoldsEachMemberOnce: split_among lists at most the plan's members, none twice
// (docs/API.md §Money, safety), on adding and on replacing an expense, as JSON and as the budget
// page's form; ids within the count that are not members stay MEMBER_NOT_FOUND.
func TestSplitAmongHoldsEachMemberOnce(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	members := f.planMemberIDs(t) // Ben, Ana
	ben, ana := members[0], members[1]
	e := f.addExpense(t, map[string]any{"day": 1, "items": item("Dinner", 30000), "paid_by": ben, "split_among": []string{ana, ben}})
	if len(e.SplitAmong) != 2 {
		t.Fatalf("split: %+v", e)
	}
	splitError := func(t *testing.T, res response, want string) {
		t.Helper()
		fields := fieldErrors(t, res.problem(t, http.StatusBadRequest, "INVALID_REQUEST"))
		if !strings.Contains(fields["split_among"], want) || len(fields) != 1 {
			t.Fatalf("field errors %v, want split_among %q", fields, want)
		}
	}
	for _, c := range []struct {
		name  string
		split []string
		want  string
	}{
		{"a member twice", []string{ana, ben, ana}, "twice"},
		{"the same member twice only", []string{ben, ben}, "twice"},
		{"more entries than members", append([]string{ana, ben}, ids("x", 1)...), "at most the plan's members (2)"},
		{"far more entries than members (as many as the body limit holds)", ids("y", 1800), "at most the plan's members (2)"},
		{"an empty id", []string{ana, " "}, "empty"},
	} {
		t.Run(c.name, func(t *testing.T) {
			splitError(t, a.do(req{Method: "POST", Path: plan + "/expenses", Token: f.ben,
				Body: map[string]any{"day": 1, "items": item("Taxi", 1000), "split_among": c.split}}), c.want)
			splitError(t, a.do(req{Method: "PUT", Path: plan + "/expenses/" + e.ExpenseID, Token: f.ben,
				Body: map[string]any{"items": item("Taxi", 1000), "paid_by": ben, "split_among": c.split}}), c.want)
			form := url.Values{"day": {"1"}, "name": {"Taxi"}, "cost": {"1000"}, "split_among": c.split}
			splitError(t, a.do(req{Method: "POST", Path: plan + "/expenses", Token: f.ben, Body: form.Encode(),
				Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}), c.want)
		})
	}
	// Within the count but not a member (or a member of another plan): not found, as before.
	other := f.a.createPlan(f.eve, "Elsewhere", "2026-04-01", "2026-04-02")
	var g memberGroupJSON[planMemberJSON]
	json.Unmarshal(a.do(req{Method: "GET", Path: "/plans/" + other.PlanID + "/members", Token: f.eve}).Body, &g)
	for _, split := range [][]string{{ana, g.Me.PlanMemberID}, ids("z", 1)} {
		a.do(req{Method: "POST", Path: plan + "/expenses", Token: f.ben, Body: map[string]any{"day": 1, "items": item("Taxi", 1000), "split_among": split}}).
			problem(t, http.StatusNotFound, "MEMBER_NOT_FOUND")
	}
	a.do(req{Method: "POST", Path: plan + "/expenses", Token: f.ben, Body: map[string]any{"day": 1, "items": item("Taxi", 1000), "paid_by": g.Me.PlanMemberID}}).
		problem(t, http.StatusNotFound, "MEMBER_NOT_FOUND")
	// Nothing was changed by the refusals.
	var stored expenseJSON
	for _, grp := range f.expenses(t, "1") {
		if grp.Selected != nil && grp.Selected.ExpenseID == e.ExpenseID {
			stored = *grp.Selected
		}
	}
	if stored.Items[0].Name != "Dinner" || len(stored.SplitAmong) != 2 {
		t.Fatalf("after refusals: %+v", stored)
	}
	// A member who left no longer counts.
	eve := a.joinPlan(f.plan.PlanID, "pf-eve")
	f.addExpense(t, map[string]any{"day": 1, "items": item("Taxi", 1000), "split_among": []string{ana, ben, eve}})
	if _, err := a.db.Exec(`UPDATE plan_members SET left_at = now() WHERE id = $1`, eve); err != nil {
		t.Fatal(err)
	}
	splitError(t, a.do(req{Method: "POST", Path: plan + "/expenses", Token: f.ben,
		Body: map[string]any{"day": 1, "items": item("Taxi", 1000), "split_among": []string{ana, ben, eve}}}), "at most the plan's members (2)")
}

// TestRequestListsHaveCaps: each list a body may hold is capped by its meaning
// (planner.*Max); one more entry is a field error naming the list.
func TestRequestListsHaveCaps(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	block := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "09:00", "10:00")))
	job := f.completedJob(t, "https://example.com/caps", a.catalogPlaces(t, 1))
	items := make([]map[string]any, planner.ExpenseItemsMax+1)
	for i := range items {
		items[i] = map[string]any{"name": "x", "cost": 1}
	}
	tags := make([]string, planner.OpinionTagsMax+1)
	for i := range tags {
		tags[i] = fmt.Sprintf("tag%d", i)
	}
	for _, c := range []struct {
		name, method, path string
		body               map[string]any
		field              string
	}{
		{"candidates by collection place", "POST", f.blocks + "/" + block.TimeBlockID + "/candidates",
			map[string]any{"collection_place_ids": ids("c", planner.CandidatesPerAddMax+1)}, "collection_place_ids"},
		{"candidates by place", "POST", f.blocks + "/" + block.TimeBlockID + "/candidates",
			map[string]any{"place_ids": ids("p", planner.CandidatesPerAddMax+1)}, "place_ids"},
		{"linked collections", "POST", plan + "/collections", map[string]any{"collection_ids": ids("l", planner.LinkCollectionsMax+1)}, "collection_ids"},
		{"places from a job", "POST", "/collections/" + f.collection + "/extraction-jobs/" + job + "/places",
			map[string]any{"place_ids": ids("e", planner.ExtractionPicksMax+1)}, "place_ids"},
		{"expense items", "POST", plan + "/expenses", map[string]any{"day": 1, "items": items}, "items"},
		{"opinion tags", "POST", f.blocks + "/" + block.Candidates[0].BlockID + "/opinions", map[string]any{"type": "POSITIVE", "tag_ids": tags}, "tag_ids"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fields := fieldErrors(t, a.do(req{Method: c.method, Path: c.path, Token: f.ben, Body: c.body}).problem(t, http.StatusBadRequest, "INVALID_REQUEST"))
			if !strings.Contains(fields[c.field], "at most") && !strings.Contains(fields[c.field], " to ") {
				t.Fatalf("field errors %v, want a cap on %s", fields, c.field)
			}
		})
	}
}

// TestLinkingCollectionsChecksThemAllInOneQuery: every collection of the list is checked (the
// first failing one in the list's order answers) and nothing is linked when one fails.
func TestLinkingCollectionsChecksThemAllInOneQuery(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	mine := []string{a.createCollection(f.ben, "Busan").CollectionID, a.createCollection(f.ben, "Jeju").CollectionID}
	evesOwn := a.createCollection(f.eve, "Eve's").CollectionID
	link := func(ids ...string) response {
		return a.do(req{Method: "POST", Path: plan + "/collections", Token: f.ben, Body: map[string]any{"collection_ids": ids}})
	}
	link(mine[0], evesOwn, ids("n", 1)[0]).problem(t, http.StatusForbidden, "FORBIDDEN_NOT_MEMBER")
	link(mine[0], ids("n", 1)[0], evesOwn).problem(t, http.StatusNotFound, "COLLECTION_NOT_FOUND")
	link(mine[1], f.collection).problem(t, http.StatusConflict, "PLAN_COLLECTION_ALREADY_EXISTS")
	var linked []planCollectionJSON
	json.Unmarshal(a.do(req{Method: "GET", Path: plan + "/collections", Token: f.ben}).Body, &linked)
	if len(linked) != 1 {
		t.Fatalf("a refused link linked something: %+v", linked)
	}
	res := link(mine[1], mine[0], mine[1])
	if json.Unmarshal(res.Body, &linked); res.Status != http.StatusCreated || len(linked) != 2 {
		t.Fatalf("link two: %d %s", res.Status, res.Body)
	}
}

// TestListRoutesHaveFlatQueryBudgets: the statements a body route sends do not grow with the
// length of the lists it carries — one entry and the most its cap allows cost the same.
func TestListRoutesHaveFlatQueryBudgets(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	for i := range 6 { // eight members to share among
		id := fmt.Sprintf("qb-list-%d", i)
		a.member(id, "M"+fmt.Sprint(i))
		a.joinPlan(f.plan.PlanID, id)
	}
	members := f.planMemberIDs(t)
	manyItems := make([]map[string]any, planner.ExpenseItemsMax)
	for i := range manyItems {
		manyItems[i] = map[string]any{"name": fmt.Sprintf("item %d", i), "cost": i}
	}
	places := a.catalogPlaces(t, 2*planner.CandidatesPerAddMax+2)
	blockA := decodeBlock(t, f.add(f.ben, placeBlock(f.places[0].CollectionPlaceID, 1, "09:00", "10:00")))
	blockB := decodeBlock(t, f.add(f.ben, placeBlock(f.places[0].CollectionPlaceID, 1, "11:00", "12:00")))
	var cols []string
	for i := range 12 {
		cols = append(cols, a.createCollection(f.ben, fmt.Sprintf("C%d", i)).CollectionID)
	}
	other := a.createPlan(f.ben, "Other trip", "2026-05-01", "2026-05-02")
	extracted := a.catalogPlaces(t, 40)[2:]
	job1 := f.completedJob(t, "https://example.com/one", extracted[:1])
	expense := f.addExpense(t, map[string]any{"day": 1, "items": item("Seed", 1)})

	type route struct {
		name      string
		one, many req
		before    func() // runs between the two calls (not counted)
	}
	var routes []route
	routes = []route{
		{name: "POST /plans/{p}/expenses",
			one:  req{Method: "POST", Path: plan + "/expenses", Token: f.ben, Body: map[string]any{"day": 1, "items": item("A", 1), "paid_by": members[0], "split_among": members[:1]}},
			many: req{Method: "POST", Path: plan + "/expenses", Token: f.ben, Body: map[string]any{"day": 1, "items": manyItems, "paid_by": members[0], "split_among": members}}},
		{name: "PUT /plans/{p}/expenses/{e}",
			one:  req{Method: "PUT", Path: plan + "/expenses/" + expense.ExpenseID, Token: f.ben, Body: map[string]any{"items": item("A", 1), "paid_by": members[1], "split_among": members[:1]}},
			many: req{Method: "PUT", Path: plan + "/expenses/" + expense.ExpenseID, Token: f.ben, Body: map[string]any{"items": manyItems, "paid_by": members[1], "split_among": members}}},
		{name: "POST /plans/{p}/collections",
			one:  req{Method: "POST", Path: plan + "/collections", Token: f.ben, Body: map[string]any{"collection_ids": cols[:1]}},
			many: req{Method: "POST", Path: "/plans/" + other.PlanID + "/collections", Token: f.ben, Body: map[string]any{"collection_ids": cols}}},
		{name: "POST candidates by place",
			one: req{Method: "POST", Path: f.blocks + "/" + blockA.TimeBlockID + "/candidates", Token: f.ben, Body: map[string]any{"place_ids": places[:1]}},
			many: req{Method: "POST", Path: f.blocks + "/" + blockB.TimeBlockID + "/candidates", Token: f.ben,
				Body: map[string]any{"place_ids": places[2 : 2+planner.CandidatesPerAddMax]}}},
		{name: "POST places from a job",
			one: req{Method: "POST", Path: "/collections/" + f.collection + "/extraction-jobs/" + job1 + "/places", Token: f.ben, Body: map[string]any{"place_ids": extracted[:1]}},
			before: func() {
				job := f.completedJob(t, "https://example.com/many", extracted[1:])
				routes[len(routes)-1].many = req{Method: "POST", Path: "/collections/" + f.collection + "/extraction-jobs/" + job + "/places", Token: f.ben,
					Body: map[string]any{"place_ids": extracted[1:]}}
			}},
	}
	count := func(rq req) int {
		t.Helper()
		a.queries.Reset()
		if res := a.do(rq); res.Status >= 300 {
			t.Fatalf("%s %s: %d %s", rq.Method, rq.Path, res.Status, res.Body)
		}
		return a.queries.Count()
	}
	for i := range routes {
		r := &routes[i]
		one := count(r.one)
		if r.before != nil {
			r.before()
		}
		many := count(r.many)
		t.Logf("%-30s %2d statements with one entry, %2d with the most", r.name, one, many)
		if many != one {
			t.Errorf("%s: %d statements with one entry, %d with the most: a statement per entry", r.name, one, many)
		}
	}
}

// TestBodyLimitFitsTheLargestBody: the body limit holds the largest body a route takes — an
// expense of the most items, each named with 100 Korean characters that the client escapes as
// \uXXXX, shared among the members — and refuses a body one byte over the limit.
func TestBodyLimitFitsTheLargestBody(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	name := strings.Repeat(`\uac00`, 100)
	var body strings.Builder
	body.WriteString(`{"day":1,"items":[`)
	for i := range planner.ExpenseItemsMax {
		if i > 0 {
			body.WriteString(",")
		}
		fmt.Fprintf(&body, `{"name":"%s","cost":"%d"}`, name, 1_000_000+i)
	}
	members := f.planMemberIDs(t)
	fmt.Fprintf(&body, `],"paid_by":%q,"split_among":[%q,%q]}`, members[0], members[0], members[1])
	res := a.do(req{Method: "POST", Path: plan + "/expenses", Token: f.ben, Body: body.String()})
	var e expenseAddedJSON
	if json.Unmarshal(res.Body, &e); res.Status != http.StatusCreated || len(e.Selected.Items) != planner.ExpenseItemsMax ||
		e.Selected.Items[0].Name != strings.Repeat("가", 100) {
		t.Fatalf("largest body (%d bytes): %d %.300s", body.Len(), res.Status, res.Body)
	}
	over := `{"day":1,"items":[],"split_among":["` + strings.Repeat("x", 64<<10) + `"]}`
	a.do(req{Method: "POST", Path: plan + "/expenses", Token: f.ben, Body: over}).problem(t, http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE")
}
