package web

import (
	"fmt"
	"net/http"
	"testing"
)

// TestHotEndpointsHaveQueryBudgets counts the SQL statements each hot endpoint sends (the
// test database handle counts them; BEGIN and COMMIT are not counted) and fails when one
// exceeds its budget — and when the count grows with the data: each is measured on a small
// plan and again after the collection, the day and the members have grown.
func TestHotEndpointsHaveQueryBudgets(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan, col := "/plans/"+f.plan.PlanID, "/collections/"+f.collection
	f.fillDay(t, 1, 3)
	free := 0 // the next free quarter hour of day 3 for added blocks
	nextFree := func() (string, string) {
		free++
		return fmtClock(free * 15), fmtClock(free*15 + 10)
	}
	moving := decodeBlock(t, f.add(f.ana, map[string]any{"type": "FREE", "day": 2, "start_time": "00:00", "end_time": "00:10"}))
	pending := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 2, "12:00", "13:00")))
	pending = decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + pending.TimeBlockID + "/candidates", Token: f.ana,
		Body: map[string]any{"collection_place_ids": []string{f.places[1].CollectionPlaceID}}}))
	moveTo, picks, keys := 0, 0, 0
	// A keyed POST adds two statements (claiming the key, recording the answer); its replay
	// is the claim and one read. Without the header nothing is added.
	replayed := req{Method: "POST", Path: f.blocks, Token: f.ben, Header: keyed("budget-replay"),
		Body: map[string]any{"type": "FREE", "day": 2, "start_time": "23:00", "end_time": "23:10"}}
	if res := a.do(replayed); res.Status != http.StatusOK {
		t.Fatalf("the request to replay: %d %s", res.Status, res.Body)
	}

	type endpoint struct {
		name   string
		budget int
		call   func() req
	}
	// Plan writes include one statement reading the ids of the events they recorded (the day
	// cache's versions follow event ids). Answers that hold words (search, collection places,
	// a day's blocks, a block after a selection, notifications, history, pages) name them in
	// the reader's language (docs/API.md §Languages): the budgets count the read of the reader's
	// language setting, one primary-key lookup each time (postgres.DB.Language). Plan views the
	// day cache keeps (a day's listing, the costs) cost one statement reading the plan's event
	// mark when loaded, or one confirming it when kept: another instance may have written.
	endpoints := []endpoint{
		{"GET /users/me", 1, func() req { return req{Method: "GET", Path: "/users/me", Token: f.ben} }},
		{"GET /places/search", 3, func() req { return req{Method: "GET", Path: "/places/search?query=palace", Token: f.ben} }},
		{"GET /collections", 1, func() req { return req{Method: "GET", Path: "/collections", Token: f.ben} }},
		{"GET /collections/{c}/places", 4, func() req { return req{Method: "GET", Path: col + "/places?size=20", Token: f.ben} }},
		{"GET /collections/{c}/places/{cp}", 5, func() req {
			return req{Method: "GET", Path: col + "/places/" + f.places[0].CollectionPlaceID, Token: f.ben}
		}},
		{"POST pick/pass", 7, func() req { // a new pick each time (taking one back is another path)
			picks++
			return req{Method: "POST", Path: col + "/places/" + f.places[picks].CollectionPlaceID + "/preference?type=PICK", Token: f.ben}
		}},
		// The list, then the thumbnails the day cache does not keep (none once kept).
		{"GET /plans", 2, func() req { return req{Method: "GET", Path: "/plans", Token: f.ben} }},
		{"GET /plans/{p}", 2, func() req { return req{Method: "GET", Path: plan, Token: f.ben} }},
		{"GET /plans/{p}/blocks?day", 6, func() req { return req{Method: "GET", Path: f.blocks + "?day=1", Token: f.ben} }},
		{"GET /plans/{p}/days/{d}/route", 5, func() req { return req{Method: "GET", Path: plan + "/days/1/route", Token: f.ben} }},
		{"POST /plans/{p}/blocks", 9, func() req {
			start, end := nextFree()
			return req{Method: "POST", Path: f.blocks, Token: f.ben, Body: map[string]any{"type": "FREE", "day": 3, "start_time": start, "end_time": end}}
		}},
		{"POST /plans/{p}/blocks with a key", 11, func() req {
			start, end := nextFree()
			keys++
			return req{Method: "POST", Path: f.blocks, Token: f.ben, Header: keyed(fmt.Sprintf("budget-%d", keys)),
				Body: map[string]any{"type": "FREE", "day": 3, "start_time": start, "end_time": end}}
		}},
		{"POST /plans/{p}/blocks replayed", 2, func() req { return replayed }},
		{"PATCH move a block", 11, func() req { // the move is kept in the plan's history
			moveTo++
			return req{Method: "PATCH", Path: f.blocks + "/" + moving.Candidates[0].BlockID, Token: f.ben,
				Body: map[string]any{"start_time": fmtClock(moveTo * 15), "end_time": fmtClock(moveTo*15 + 10)}}
		}},
		{"PATCH selection", 12, func() req {
			return req{Method: "PATCH", Path: f.blocks + "/" + pending.TimeBlockID + "/selection", Token: f.ben,
				Body: map[string]any{"block_id": pending.Candidates[moveTo%2].BlockID}}
		}},
		// Notifications, and a page of history (the membership check, then the page with its
		// actors), in the reader's language.
		{"GET /notifications", 3, func() req { return req{Method: "GET", Path: "/notifications", Token: f.ana} }},
		{"GET /plans/{p}/activity", 3, func() req { return req{Method: "GET", Path: plan + "/activity?size=100", Token: f.ben} }},
		{"GET /collections/{c}/activity", 3, func() req { return req{Method: "GET", Path: col + "/activity?size=100", Token: f.ben} }},
		// What live updates reload on the pages of everyone who has them open: the plan page's
		// header (the plan, its members) and places panel (the links, the viewer's collections
		// and a page of places), and the budget page (the plan, the day's expenses, and the
		// budget overview — budget, costs, ledger and recorded payments — each checking access).
		{"GET /plans/{p}/header", 5, func() req { return req{Method: "GET", Path: plan + "/header", Token: f.ben} }},
		{"GET /plans/{p}/panel", 8, func() req { return req{Method: "GET", Path: plan + "/panel?collection=" + f.collection, Token: f.ben} }},
		{"GET /plans/{p}/budget", 17, func() req { return req{Method: "GET", Path: plan + "/budget?day=1", Token: f.ben} }},
	}
	measure := func() map[string]int {
		out := map[string]int{}
		for _, e := range endpoints {
			rq := e.call()
			a.queries.Reset()
			if res := a.do(rq); res.Status >= 300 {
				t.Fatalf("%s: %d %s", e.name, res.Status, res.Body)
			}
			out[e.name] = a.queries.Count()
		}
		return out
	}
	for _, token := range []string{f.ana, f.ben} { // their language settings, remembered from now on
		a.do(req{Method: "GET", Path: "/places/search?query=palace", Token: token})
	}
	small := measure()
	// Grow everything the endpoints read: more places, a fuller day, more members, more
	// notifications.
	for _, q := range []string{"Bukchon", "Myeongdong", "Insadong", "Namsan"} {
		for _, p := range a.search(f.ana, q) {
			a.do(req{Method: "POST", Path: col + "/places", Token: f.ana, Body: map[string]any{"place_id": p.PlaceID}})
		}
	}
	for i := range 6 {
		decodeBlock(t, f.add(f.ana, placeBlock(f.places[i%3].CollectionPlaceID, 1, fmtClock(20*60+i*30), fmtClock(20*60+i*30+20))))
	}
	for i := range 4 {
		id := fmt.Sprintf("qb-extra-%d", i)
		a.member(id, "Extra")
		a.joinPlan(f.plan.PlanID, id)
		a.joinCollection(f.collection, id)
	}
	large := measure()
	for _, e := range endpoints {
		t.Logf("%-34s %2d statements (budget %d), %2d after the data grew", e.name, small[e.name], e.budget, large[e.name])
		if small[e.name] > e.budget || large[e.name] > e.budget {
			t.Errorf("%s: %d then %d statements, budget %d", e.name, small[e.name], large[e.name], e.budget)
		}
		if large[e.name] != small[e.name] {
			t.Errorf("%s: %d statements grew to %d with the data (N+1?)", e.name, small[e.name], large[e.name])
		}
	}
}
