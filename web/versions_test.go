package web

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// versioned is one resource of docs/API.md §Concurrent writes as a client sees it: where to read it (in the
// shape its GET answers), a change to make to it (n makes each change differ) and, when it
// can be deleted here, its DELETE.
type versioned struct {
	name   string
	read   func() (map[string]any, bool) // false: it is gone
	change func(n int) req
	remove *req
}

// ifMatchHeader is If-Match naming version v.
func ifMatchHeader(v float64) map[string]string {
	return map[string]string{"If-Match": `"` + strconv.Itoa(int(v)) + `"`}
}

// withHeader returns the request with the header set.
func withHeader(rq req, h map[string]string) req {
	rq.Header = h
	return rq
}

// versionedResources builds one of each resource of §1 on the fixture's plan and collection.
func versionedResources(t *testing.T, f *planFixture) []versioned {
	a := f.a
	plan, col := "/plans/"+f.plan.PlanID, "/collections/"+f.collection
	get := func(path string) func() (map[string]any, bool) {
		return func() (map[string]any, bool) {
			res := a.do(req{Method: "GET", Path: path, Token: f.ana})
			if res.Status == http.StatusNotFound {
				return nil, false
			}
			if res.Status != http.StatusOK {
				t.Fatalf("GET %s: %d %s", path, res.Status, res.Body)
			}
			return res.json(t), true
		}
	}
	// A collection and a plan of their own, so that deleting them leaves the fixture whole.
	ownCol := a.createCollection(f.ana, "Versioned")
	ownPlan := a.createPlan(f.ana, "Versioned trip", "2026-05-01", "2026-05-02")
	tb := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 3, "08:00", "09:00")))
	candidate := tb.Candidates[0].BlockID
	res := a.do(req{Method: "POST", Path: f.blocks + "/" + candidate + "/opinions", Token: f.ana, Body: map[string]any{"type": "POSITIVE"}})
	if res.Status != http.StatusCreated {
		t.Fatalf("opinion: %d %s", res.Status, res.Body)
	}
	opinion := plan + "/blocks/" + candidate + "/opinions/" + res.json(t)["opinion_id"].(string)
	res = a.do(req{Method: "POST", Path: plan + "/expenses", Token: f.ana, Body: map[string]any{"day": 1, "items": []map[string]any{{"name": "Taxi", "cost": 10}}}})
	if res.Status != http.StatusCreated {
		t.Fatalf("expense: %d %s", res.Status, res.Body)
	}
	var added expenseAddedJSON
	json.Unmarshal(res.Body, &added)
	expenseID := added.Selected.ExpenseID
	readExpense := func() (map[string]any, bool) {
		res := a.do(req{Method: "GET", Path: plan + "/expenses?day=1", Token: f.ana})
		var groups []map[string]any
		if err := json.Unmarshal(res.Body, &groups); err != nil {
			t.Fatalf("expenses: %d %s", res.Status, res.Body)
		}
		for _, g := range groups {
			if sel, ok := g["selected"].(map[string]any); ok && sel["expense_id"] == expenseID {
				return sel, true
			}
		}
		return nil, false
	}
	cp := a.addPlace(f.ana, f.collection, a.placeID(f.ana, "Namsan"))
	cpPath := col + "/places/" + cp.CollectionPlaceID
	return []versioned{
		{name: "plan", read: get("/plans/" + ownPlan.PlanID),
			change: func(n int) req {
				return req{Method: "PUT", Path: "/plans/" + ownPlan.PlanID, Token: f.ana,
					Body: map[string]any{"title": fmt.Sprintf("Trip %d", n), "start_date": "2026-05-01", "end_date": "2026-05-02"}}
			},
			remove: &req{Method: "DELETE", Path: "/plans/" + ownPlan.PlanID, Token: f.ana}},
		{name: "collection", read: get("/collections/" + ownCol.CollectionID),
			change: func(n int) req {
				return req{Method: "PUT", Path: "/collections/" + ownCol.CollectionID, Token: f.ana, Body: map[string]any{"title": fmt.Sprintf("Places %d", n)}}
			},
			remove: &req{Method: "DELETE", Path: "/collections/" + ownCol.CollectionID, Token: f.ana}},
		{name: "collection place", read: get(cpPath),
			change: func(n int) req {
				return req{Method: "PATCH", Path: cpPath + "/memo", Token: f.ana, Body: map[string]any{"memo": fmt.Sprintf("memo %d", n)}}
			},
			remove: &req{Method: "DELETE", Path: cpPath, Token: f.ana}},
		{name: "time block (detail)", read: get(f.blocks + "/" + candidate),
			change: func(n int) req {
				return req{Method: "PATCH", Path: f.blocks + "/" + candidate, Token: f.ana, Body: map[string]any{"memo": fmt.Sprintf("memo %d", n)}}
			}},
		{name: "budget", read: get(plan + "/budgets"),
			change: func(n int) req {
				return req{Method: "PATCH", Path: plan + "/budgets", Token: f.ana, Body: map[string]any{"type": "BUDGET", "total_budget": 1000 + n}}
			}},
		{name: "expense", read: readExpense,
			change: func(n int) req {
				return req{Method: "PUT", Path: plan + "/expenses/" + expenseID, Token: f.ana, Body: []map[string]any{{"name": "Taxi", "cost": 10 + n}}}
			},
			remove: &req{Method: "DELETE", Path: plan + "/expenses/" + expenseID, Token: f.ana}},
		{name: "opinion", read: get(opinion),
			change: func(n int) req {
				return req{Method: "PUT", Path: opinion, Token: f.ana, Body: map[string]any{"type": "NEUTRAL", "comment": fmt.Sprintf("hm %d", n)}}
			},
			remove: &req{Method: "DELETE", Path: opinion, Token: f.ana}},
	}
}

// TestEveryVersionedResourceTakesIfMatch: each resource of §1 carries a version that every
// change increments by one; a change sent with If-Match naming that version applies, one
// naming another is 412 PRECONDITION_FAILED with the resource as it is now (as its GET shows
// it) and changes nothing, and one without If-Match applies whatever the version (v1).
func TestEveryVersionedResourceTakesIfMatch(t *testing.T) {
	f := newPlanFixture(t)
	for _, r := range versionedResources(t, f) {
		t.Run(r.name, func(t *testing.T) {
			version := func() float64 {
				t.Helper()
				cur, ok := r.read()
				if !ok {
					t.Fatal("gone")
				}
				v, _ := cur["version"].(float64)
				return v
			}
			apply := func(rq req, want float64) {
				t.Helper()
				res := f.a.do(rq)
				if res.Status >= 300 {
					t.Fatalf("%s %s %v: %d %s", rq.Method, rq.Path, rq.Header, res.Status, res.Body)
				}
				if got := version(); got != want {
					t.Fatalf("after %s %v: version %v, want %v", rq.Method, rq.Header, got, want)
				}
			}
			refused := func(rq req) {
				t.Helper()
				before, _ := r.read()
				res := f.a.do(rq)
				p := res.problem(t, http.StatusPreconditionFailed, "PRECONDITION_FAILED")
				if !reflect.DeepEqual(p["current"], any(before)) {
					t.Fatalf("current is not the resource as its GET shows it:\n current %v\n GET     %v", p["current"], before)
				}
				if after, ok := r.read(); !ok || !reflect.DeepEqual(after, before) {
					t.Fatalf("a refused change changed it:\n before %v\n after  %v", before, after)
				}
			}

			v := version()
			if v != 1 {
				t.Fatalf("a new %s has version %v, want 1", r.name, v)
			}
			apply(withHeader(r.change(1), ifMatchHeader(v)), v+1)
			refused(withHeader(r.change(2), ifMatchHeader(v)))   // the version it was read at
			refused(withHeader(r.change(3), ifMatchHeader(v+5))) // one it never had
			apply(r.change(4), v+2)                              // no If-Match: v1's unconditional write
			apply(withHeader(r.change(5), map[string]string{"If-Match": "*"}), v+3)
			if r.remove == nil {
				return
			}
			refused(withHeader(*r.remove, ifMatchHeader(v)))
			rq := withHeader(*r.remove, ifMatchHeader(v+3))
			res := f.a.do(rq)
			if res.Status != http.StatusNoContent {
				t.Fatalf("delete at the current version: %d %s", res.Status, res.Body)
			}
			if _, ok := r.read(); ok {
				t.Fatal("still there after its delete")
			}
		})
	}
}

// TestIfMatchMustNameOneVersion: what is not one quoted version (or *) is a client's mistake,
// 400 with a field error on If-Match, and changes nothing — a weak tag or a GET's ETag
// included, which are never versions.
func TestIfMatchMustNameOneVersion(t *testing.T) {
	f := newPlanFixture(t)
	path := "/collections/" + f.collection
	res := f.a.do(req{Method: "GET", Path: path, Token: f.ana})
	etag := res.Header.Get("ETag")
	if etag == "" {
		t.Fatal("GET has no ETag")
	}
	// The GET validator works as before: If-None-Match with the ETag is 304.
	if res := f.a.do(req{Method: "GET", Path: path, Token: f.ana, Header: map[string]string{"If-None-Match": etag}}); res.Status != http.StatusNotModified {
		t.Fatalf("If-None-Match: %d", res.Status)
	}
	for _, h := range []string{`1`, `W/"1"`, `"0"`, `"-1"`, `"01"`, `"one"`, `""`, `"1", "2"`, `"99999999999999999999"`, etag, strings.Repeat(`"1"`, 100)} {
		res := f.a.do(req{Method: "PUT", Path: path, Token: f.ana, Body: map[string]any{"title": "Changed"}, Header: map[string]string{"If-Match": h}})
		p := res.problem(t, http.StatusBadRequest, "INVALID_REQUEST")
		errs, _ := p["errors"].([]any)
		if len(errs) != 1 || errs[0].(map[string]any)["field"] != "If-Match" {
			t.Fatalf("If-Match %s: %s", h, res.Body)
		}
	}
	if got := f.a.do(req{Method: "GET", Path: path, Token: f.ana}).json(t); got["title"] != "Seoul" || got["version"] != float64(1) {
		t.Fatalf("a refused If-Match changed the collection: %v", got)
	}
}

// TestTimeBlockVersionCountsItsCandidatesAndSelection: a time block's version moves with its
// day and times, its candidates (added, removed, their memos) and its selection — once per
// change — and not with what changes nothing or belongs to others (opinions).
func TestTimeBlockVersionCountsItsCandidatesAndSelection(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	tb := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	listed := func() timeBlockJSON {
		t.Helper()
		res := a.do(req{Method: "GET", Path: f.blocks + "?day=1", Token: f.ben})
		var day dayBlocksJSON
		json.Unmarshal(res.Body, &day)
		for _, b := range day.Contents {
			if b.TimeBlockID == tb.TimeBlockID {
				return b
			}
		}
		t.Fatalf("block not listed: %s", res.Body)
		return timeBlockJSON{}
	}
	step := func(what string, rq req, want int) response {
		t.Helper()
		res := a.do(rq)
		if res.Status >= 300 {
			t.Fatalf("%s: %d %s", what, res.Status, res.Body)
		}
		if got := listed(); got.Version != want {
			t.Fatalf("%s: version %d, want %d", what, got.Version, want)
		}
		return res
	}
	if tb.Version != 1 || listed().Version != 1 {
		t.Fatalf("a new block: version %d", tb.Version)
	}
	candidates := f.blocks + "/" + tb.TimeBlockID + "/candidates"
	res := step("two candidates added", req{Method: "POST", Path: candidates, Token: f.ben,
		Body: map[string]any{"collection_place_ids": []string{f.places[1].CollectionPlaceID, f.places[2].CollectionPlaceID}}}, 2)
	if decodeBlock(t, res).Version != 2 {
		t.Fatalf("the answer carries the new version: %s", res.Body)
	}
	step("a place it already holds", req{Method: "POST", Path: candidates, Token: f.ben,
		Body: map[string]any{"collection_place_ids": []string{f.places[1].CollectionPlaceID}}}, 2)
	cands := listed().Candidates
	selection := f.blocks + "/" + tb.TimeBlockID + "/selection"
	step("a selection", req{Method: "PATCH", Path: selection, Token: f.ben, Body: map[string]any{"block_id": cands[1].BlockID}}, 3)
	step("the same selection again", req{Method: "PATCH", Path: selection, Token: f.ben, Body: map[string]any{"block_id": cands[1].BlockID}}, 3)
	step("an opinion", req{Method: "POST", Path: f.blocks + "/" + cands[1].BlockID + "/opinions", Token: f.ben, Body: map[string]any{"type": "POSITIVE"}}, 3)
	res = step("a candidate's memo", req{Method: "PATCH", Path: f.blocks + "/" + cands[2].BlockID, Token: f.ben, Body: map[string]any{"memo": "closes at 6"}}, 4)
	if decodeBlockDetail(t, res).Version != 4 {
		t.Fatalf("the detail carries the time block's version: %s", res.Body)
	}
	step("a move", req{Method: "PATCH", Path: f.blocks + "/" + cands[0].BlockID, Token: f.ben, Body: map[string]any{"start_time": "11:00", "end_time": "12:00"}}, 5)
	if res := a.do(req{Method: "PATCH", Path: f.blocks + "/" + cands[0].BlockID, Token: f.ben, Body: map[string]any{"day": 2, "memo": "moved"}}); decodeBlockDetail(t, res).Version != 6 {
		t.Fatalf("a move with a memo is one change: %s", res.Body)
	}
	res = a.do(req{Method: "GET", Path: f.blocks + "?day=2", Token: f.ben})
	var day2 dayBlocksJSON
	json.Unmarshal(res.Body, &day2)
	if len(day2.Contents) != 1 || day2.Contents[0].Version != 6 {
		t.Fatalf("moved to day 2: %s", res.Body)
	}
	// The rest runs on day 2 now.
	listed = func() timeBlockJSON {
		res := a.do(req{Method: "GET", Path: f.blocks + "?day=2", Token: f.ben})
		var day dayBlocksJSON
		json.Unmarshal(res.Body, &day)
		return day.Contents[0]
	}
	remove := func(id string) req {
		return req{Method: "DELETE", Path: candidates + "/" + id, Token: f.ben}
	}

	// If-Match on the selection and on a candidate's removal is the time block's version.
	rq := withHeader(req{Method: "PATCH", Path: selection, Token: f.ben, Body: map[string]any{"block_id": cands[0].BlockID}}, ifMatchHeader(5))
	res = a.do(rq)
	current := res.problem(t, http.StatusPreconditionFailed, "PRECONDITION_FAILED")["current"].(map[string]any)
	if current["version"] != float64(6) || current["time_block_id"] != tb.TimeBlockID || current["selected_block"].(map[string]any)["block_id"] != cands[1].BlockID {
		t.Fatalf("current: %v", current)
	}
	if listed().SelectedBlock.BlockID != cands[1].BlockID {
		t.Fatal("a refused selection changed the selection")
	}
	step("a selection at the current version", withHeader(req{Method: "PATCH", Path: selection, Token: f.ben,
		Body: map[string]any{"block_id": cands[0].BlockID}}, ifMatchHeader(6)), 7)
	rq = withHeader(remove(cands[2].BlockID), ifMatchHeader(6))
	res = a.do(rq)
	res.problem(t, http.StatusPreconditionFailed, "PRECONDITION_FAILED")
	if listed().CandidateCount != 3 {
		t.Fatal("a refused removal removed the candidate")
	}
	step("a candidate removed", withHeader(remove(cands[2].BlockID), ifMatchHeader(7)), 8)
	step("a candidate removed without If-Match", remove(cands[1].BlockID), 9)

	// Deleting the time block: its version too, the list item's shape as current.
	del := req{Method: "DELETE", Path: f.blocks + "/" + tb.TimeBlockID + "?day=2", Token: f.ben}
	rq = withHeader(del, ifMatchHeader(8))
	res = a.do(rq)
	current = res.problem(t, http.StatusPreconditionFailed, "PRECONDITION_FAILED")["current"].(map[string]any)
	want, _ := json.Marshal(listed())
	var wantMap map[string]any
	json.Unmarshal(want, &wantMap)
	if !reflect.DeepEqual(current, wantMap) {
		t.Fatalf("current is not the listed block:\n%v\n%v", current, wantMap)
	}
	if res := a.do(withHeader(del, ifMatchHeader(9))); res.Status != http.StatusNoContent {
		t.Fatalf("delete at the current version: %d %s", res.Status, res.Body)
	}
}

// TestConditionalWritesRaceSafely: writes sent at once with the same If-Match — the lost
// update of two stale dialogs — are decided by the database: exactly one applies, every other
// is 412, whichever way the store compares (under the row's lock, or in the UPDATE's WHERE).
func TestConditionalWritesRaceSafely(t *testing.T) {
	f := newPlanFixture(t)
	rs := versionedResources(t, f)
	const writers, rounds = 4, 3
	for _, r := range rs {
		t.Run(r.name, func(t *testing.T) {
			for round := range rounds {
				cur, _ := r.read()
				v := cur["version"].(float64)
				statuses := make([]int, writers)
				var wg sync.WaitGroup
				start := make(chan struct{})
				for i := range writers {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						statuses[i] = f.a.do(withHeader(r.change(round*writers+i+10), ifMatchHeader(v))).Status
					}()
				}
				close(start)
				wg.Wait()
				ok, stale := 0, 0
				for _, s := range statuses {
					switch {
					case s < 300:
						ok++
					case s == http.StatusPreconditionFailed:
						stale++
					}
				}
				if ok != 1 || stale != writers-1 {
					t.Fatalf("round %d: statuses %v, want one success and %d PRECONDITION_FAILED", round, statuses, writers-1)
				}
				if now, _ := r.read(); now["version"] != v+1 {
					t.Fatalf("round %d: version %v, want %v", round, now["version"], v+1)
				}
			}
		})
	}
}

// TestOverlapsSayWhere: a refused time names the earliest block it overlaps and the next start
// where a block of that length fits that day (null when none fits before 24:00); a block being
// moved never stands in its own way.
func TestOverlapsSayWhere(t *testing.T) {
	f := newPlanFixture(t)
	ids := map[string]string{}
	for _, b := range []struct{ name, start, end string }{
		{"A", "09:00", "10:00"}, {"B", "10:30", "11:00"}, {"C", "12:00", "13:00"}, {"E", "13:30", "14:30"}, {"D", "22:00", "23:30"},
	} {
		ids[b.name] = decodeBlock(t, f.add(f.ana, map[string]any{"type": "FREE", "day": 2, "start_time": b.start, "end_time": b.end})).TimeBlockID
	}
	// Day 1 is full where day 2 is free: other days do not count.
	decodeBlock(t, f.add(f.ana, map[string]any{"type": "FREE", "day": 1, "start_time": "11:00", "end_time": "12:00"}))
	e := decodeBlock(t, f.a.do(req{Method: "GET", Path: f.blocks + "?day=2", Token: f.ana}).withBlockList(t, ids["E"]))

	for _, tc := range []struct {
		name        string
		rq          req
		code        string
		conflicting string
		next        any
	}{
		{"one overlap", addFree(f, "09:30", "10:30"), "TIME_BLOCK_OVERLAP", "A", "11:00:00.000Z"},
		{"the earliest of two", addFree(f, "10:15", "12:30"), "TIME_BLOCK_OVERLAP", "B", "14:30:00.000Z"},
		{"nothing fits before 24:00", addFree(f, "22:30", "23:00"), "TIME_BLOCK_OVERLAP", "D", nil},
		{"exactly one", addFree(f, "12:00", "13:00"), "TIME_BLOCK_EXACT_DUPLICATE", "C", "14:30:00.000Z"},
		{"a move", req{Method: "PATCH", Path: f.blocks + "/" + e.Candidates[0].BlockID, Token: f.ben,
			Body: map[string]any{"start_time": "12:30", "end_time": "13:30"}}, "TIME_BLOCK_OVERLAP", "C", "13:00:00.000Z"},
	} {
		res := f.a.do(tc.rq)
		p := res.problem(t, http.StatusConflict, tc.code)
		if p["conflicting_time_block_id"] != ids[tc.conflicting] || p["next_free_start"] != tc.next {
			t.Errorf("%s: conflicting %v (want %s), next_free_start %v (want %v)", tc.name,
				p["conflicting_time_block_id"], tc.conflicting, p["next_free_start"], tc.next)
		}
		if tc.code == "TIME_BLOCK_EXACT_DUPLICATE" && p["time_block_id"] != ids["C"] {
			t.Errorf("%s: time_block_id %v", tc.name, p["time_block_id"])
		}
	}
	// Moved over its own old time only, a block overlaps nothing.
	if res := f.a.do(req{Method: "PATCH", Path: f.blocks + "/" + e.Candidates[0].BlockID, Token: f.ben,
		Body: map[string]any{"start_time": "13:15", "end_time": "14:15"}}); res.Status != http.StatusOK {
		t.Fatalf("a move over its own time: %d %s", res.Status, res.Body)
	}
}

// addFree is adding a FREE block on day 2 of the fixture's plan.
func addFree(f *planFixture, start, end string) req {
	return req{Method: "POST", Path: f.blocks, Token: f.ben, Body: map[string]any{"type": "FREE", "day": 2, "start_time": start, "end_time": end}}
}

// withBlockList picks one time block of a day's listing as if it had been answered alone.
func (r response) withBlockList(t *testing.T, id string) response {
	t.Helper()
	var day dayBlocksJSON
	if err := json.Unmarshal(r.Body, &day); err != nil {
		t.Fatalf("day: %d %s", r.Status, r.Body)
	}
	for _, b := range day.Contents {
		if b.TimeBlockID == id {
			body, _ := json.Marshal(b)
			return response{Status: http.StatusOK, Header: r.Header, Body: body}
		}
	}
	t.Fatalf("no block %s in %s", id, r.Body)
	return r
}

// TestPagesEditTheVersionTheyShow: the plan page's block actions, the picker, the budget
// page and the collection page carry the versions they show; an edit from a stale dialog is
// refused with a message for people that shows the current values, and a rename answers the
// form again with the new version, so renaming twice is not taken for someone else's change.
func TestPagesEditTheVersionTheyShow(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	ana := a.signedInBrowser(t, "pf-ana", "Ana")
	tb := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	candidate := tb.Candidates[0].BlockID

	day := html.UnescapeString(fragment(t, a.htmx(ana, "GET", f.blocks+"?day=1", ""), http.StatusOK))
	if !strings.Contains(day, `data-edit-block="`+candidate+`" data-version="1"`) || !strings.Contains(day, `hx-headers="{"If-Match": "\"1\""}"`) {
		t.Fatalf("the day's block actions carry no version: %s", day)
	}
	// Ben changes the block; Ana's dialog, opened on version 1, then saves.
	decodeBlockDetail(t, a.do(req{Method: "PATCH", Path: f.blocks + "/" + candidate, Token: f.ben, Body: map[string]any{"memo": "Ben's memo", "start_time": "10:30", "end_time": "11:30"}}))
	stale := a.do(req{Method: "PATCH", Path: f.blocks + "/" + candidate + "?day=1", Client: ana, Body: "start_time=10:00&end_time=12:00&memo=Ana's",
		Header: map[string]string{"Accept": "text/html", "HX-Request": "true", "Sec-Fetch-Site": "same-origin",
			"Content-Type": "application/x-www-form-urlencoded", "If-Match": `"1"`}})
	body := html.UnescapeString(string(stale.Body))
	if stale.Status != http.StatusPreconditionFailed || !strings.Contains(body, "Ben changed this block while you were editing") ||
		!strings.Contains(body, "data-keep-mine") || !strings.Contains(body, `data-theirs-memo="Ben's memo"`) ||
		!strings.Contains(body, "Day 1, 10:30–11:30") || !strings.Contains(body, "Ben's memo") || strings.Contains(body, "PRECONDITION_FAILED") {
		t.Fatalf("stale edit: %d %s", stale.Status, body)
	}
	if d := decodeBlockDetail(t, a.do(req{Method: "GET", Path: f.blocks + "/" + candidate, Token: f.ana})); d.Block.Memo != "Ben's memo" || d.Version != 2 {
		t.Fatalf("the stale edit was applied: %+v", d)
	}
	// The picker's confirmation and removal carry the block's version.
	decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + tb.TimeBlockID + "/candidates", Token: f.ben,
		Body: map[string]any{"collection_place_ids": []string{f.places[1].CollectionPlaceID}}}))
	picker := html.UnescapeString(fragment(t, a.htmx(ana, "GET", f.blocks+"/"+tb.TimeBlockID+"/candidates", ""), http.StatusOK))
	if strings.Count(picker, `hx-headers="{"If-Match": "\"3\""}"`) < 3 {
		t.Fatalf("the picker's actions carry no version: %s", picker)
	}

	// The budget page's form and an expense's form.
	plan := "/plans/" + f.plan.PlanID
	a.do(req{Method: "POST", Path: plan + "/expenses", Token: f.ana, Body: map[string]any{"day": 1, "items": []map[string]any{{"name": "Taxi", "cost": 10}}}})
	page := html.UnescapeString(string(a.do(req{Method: "GET", Path: plan + "/budget?day=1", Client: ana, Header: map[string]string{"Accept": "text/html"}}).Body))
	if strings.Count(page, `hx-headers="{"If-Match": "\"1\""}"`) < 2 {
		t.Fatalf("the budget page's forms carry no version: %s", page)
	}

	// The collection page: a memo and a rename, twice over.
	col := "/collections/" + f.collection
	page = html.UnescapeString(string(a.do(req{Method: "GET", Path: col, Client: ana, Header: map[string]string{"Accept": "text/html"}}).Body))
	if !strings.Contains(page, `id="rename-form"`) || strings.Count(page, `hx-headers="{"If-Match": "\"1\""}"`) < 1+len(f.places) {
		t.Fatalf("the collection page's forms carry no version: %s", page)
	}
	for n := 1; n <= 2; n++ {
		res := a.do(req{Method: "PUT", Path: col, Client: ana, Body: "title=Seoul+" + strconv.Itoa(n),
			Header: map[string]string{"Accept": "text/html", "HX-Request": "true", "Sec-Fetch-Site": "same-origin",
				"Content-Type": "application/x-www-form-urlencoded", "If-Match": `"` + strconv.Itoa(n) + `"`}})
		answer := html.UnescapeString(fragment(t, res, http.StatusOK))
		if !strings.Contains(answer, `hx-swap-oob="true"`) || !strings.Contains(answer, `"If-Match": "\"`+strconv.Itoa(n+1)+`\""`) {
			t.Fatalf("rename %d answers no form at the new version: %s", n, answer)
		}
	}
	res := a.do(req{Method: "PATCH", Path: col + "/places/" + f.places[0].CollectionPlaceID + "/memo", Client: ana, Body: "memo=late",
		Header: map[string]string{"Accept": "text/html", "HX-Request": "true", "Sec-Fetch-Site": "same-origin",
			"Content-Type": "application/x-www-form-urlencoded", "If-Match": `"1"`}})
	if memo := html.UnescapeString(fragment(t, res, http.StatusOK)); !strings.Contains(memo, `"If-Match": "\"2\""`) {
		t.Fatalf("the memo answers no form at the new version: %s", memo)
	}
}
