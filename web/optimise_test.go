package web

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"tripplan/internal/planner"
)

// zigzagDay puts on day 1 of the plan fixture four Seoul places in a bad order (palace, far
// east, back by the palace, far east again), then free time, a reservation and one more place:
// the blocks by name, as added.
func zigzagDay(t *testing.T, f *planFixture) map[string]timeBlockJSON {
	t.Helper()
	a := f.a
	for _, q := range []string{"Lotte World Tower", "Bukchon Hanok Village", "Olympic Park"} {
		f.places = append(f.places, a.addPlace(f.ana, f.collection, a.placeID(f.ana, q)))
	}
	// f.places: 0 Gyeongbokgung Palace, 1 Gwangjang Market, 2 N Seoul Tower, 3 Lotte World
	// Tower, 4 Bukchon Hanok Village, 5 Olympic Park.
	out := map[string]timeBlockJSON{}
	for _, b := range []struct {
		name       string
		place      int // -1: free time
		start, end string
	}{
		{"palace", 0, "09:00", "10:00"},
		{"lotte", 3, "10:30", "12:00"},
		{"bukchon", 4, "12:30", "13:00"},
		{"olympic", 5, "13:30", "14:30"},
		{"free", -1, "15:00", "16:00"},
		{"tower", 2, "17:00", "18:00"},
		{"market", 1, "19:00", "20:00"},
	} {
		body := map[string]any{"type": "FREE", "day": 1, "start_time": b.start, "end_time": b.end}
		if b.place >= 0 {
			body = placeBlock(f.places[b.place].CollectionPlaceID, 1, b.start, b.end)
		}
		out[b.name] = decodeBlock(t, f.add(f.ana, body))
	}
	return out
}

// setFixed marks a block "fixed time" through the versioned PATCH and answers its detail.
func setFixed(t *testing.T, f *planFixture, tb timeBlockJSON, fixed bool) blockDetailJSON {
	t.Helper()
	res := f.a.do(req{Method: "PATCH", Path: f.blocks + "/" + tb.Candidates[0].BlockID, Token: f.ana,
		Header: map[string]string{"If-Match": `"` + strconv.Itoa(tb.Version) + `"`}, Body: map[string]any{"fixed_time": fixed}})
	return decodeBlockDetail(t, res)
}

func dayOptimised(t *testing.T, f *planFixture, token string) optimisedJSON {
	t.Helper()
	res := f.a.do(req{Method: "GET", Path: "/plans/" + f.plan.PlanID + "/days/1/optimised", Token: token})
	if res.Status != http.StatusOK {
		t.Fatalf("optimised: %d %s", res.Status, res.Body)
	}
	var o optimisedJSON
	if err := json.Unmarshal(res.Body, &o); err != nil {
		t.Fatal(err)
	}
	return o
}

// slots are the day's blocks' times by id, as the database has them.
func slots(t *testing.T, f *planFixture) map[string]string {
	t.Helper()
	rows, err := f.a.db.Query(`SELECT id, start_time::text || '-' || end_time::text FROM time_blocks WHERE plan_id = $1`, f.plan.PlanID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, s string
		if err := rows.Scan(&id, &s); err != nil {
			t.Fatal(err)
		}
		out[id] = s
	}
	return out
}

func minutesOf(t *testing.T, s string) int {
	t.Helper()
	h, err1 := strconv.Atoi(s[0:2])
	m, err2 := strconv.Atoi(s[3:5])
	if err1 != nil || err2 != nil {
		t.Fatalf("time %q", s)
	}
	return h*60 + m
}

// TestOptimiseDay: a zig-zag day's optimisation travels less than the day does now; it moves
// only the movable places (not free time, not the reservation, not a place alone between
// them), each keeping its length, within the stretch they held; applying it is one change
// Undo (the same endpoint with the old times and the new versions) takes back; a stale
// version is 412 and changes nothing; the "fixed time" mark is set by the block's PATCH and
// shown on the card.
func TestOptimiseDay(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	blocks := zigzagDay(t, f)
	if d := setFixed(t, f, blocks["tower"], true); !d.FixedTime || d.Version != blocks["tower"].Version+1 {
		t.Fatalf("fixed_time PATCH answered %+v", d)
	}

	o := dayOptimised(t, f, f.ben)
	if !o.Exact || o.Source != "ESTIMATE" || o.After.TravelS >= o.Before.TravelS || len(o.Blocks) == 0 {
		t.Fatalf("optimised %+v: want exact, estimated and shorter", o)
	}
	for _, d := range []travelJSON{o.Before, o.After} {
		sum := 0
		for _, l := range d.Legs {
			sum += l.TravelS
		}
		// Seven blocks, six confirmed places with coordinates: five legs.
		if len(d.Legs) != 5 || sum != d.TravelS {
			t.Errorf("travel %+v: want 5 legs adding up to travel_s", d)
		}
	}
	stay := map[string]bool{blocks["free"].TimeBlockID: true, blocks["tower"].TimeBlockID: true, blocks["market"].TimeBlockID: true}
	byID := map[string]timeBlockJSON{}
	for _, b := range blocks {
		byID[b.TimeBlockID] = b
	}
	for _, m := range o.Blocks {
		was, ok := byID[m.TimeBlockID]
		switch {
		case !ok || stay[m.TimeBlockID]:
			t.Errorf("%s moves, but it must stay", m.TimeBlockID)
		case minutesOf(t, *m.EndTime)-minutesOf(t, *m.StartTime) != minutesOf(t, was.EndTime)-minutesOf(t, was.StartTime):
			t.Errorf("%s moves to %s–%s, from %s–%s: another length", m.TimeBlockID, *m.StartTime, *m.EndTime, was.StartTime, was.EndTime)
		case minutesOf(t, *m.StartTime) < 9*60 || minutesOf(t, *m.EndTime) > 14*60+30:
			t.Errorf("%s moves to %s–%s, out of its stretch", m.TimeBlockID, *m.StartTime, *m.EndTime)
		case m.Version != was.Version:
			t.Errorf("%s carries version %d, want %d", m.TimeBlockID, m.Version, was.Version)
		}
	}

	// A taxi (an additional expense) after a block that moves.
	moving, taxi := o.Blocks[0].TimeBlockID, planner.NewID()
	if _, err := a.db.Exec(`INSERT INTO expenses (id, plan_id, kind, plan_day_id, after_time_block_id, rank)
		SELECT $1, $2, 'ADDITIONAL', d.id, $3, 1 FROM plan_days d WHERE d.plan_id = $2 AND d.day = 1`, taxi, f.plan.PlanID, moving); err != nil {
		t.Fatal(err)
	}
	taxiAfter := func() string {
		t.Helper()
		var after *string
		a.mustGet(t, &after, `SELECT after_time_block_id FROM expenses WHERE id = $1`, taxi)
		return deref(after)
	}

	// A stale version is refused and nothing moves.
	before := slots(t, f)
	stale := make([]arrangedJSON, len(o.Blocks))
	copy(stale, o.Blocks)
	stale[0].Version++
	arrangement := "/plans/" + f.plan.PlanID + "/days/1/arrangement"
	a.do(req{Method: "POST", Path: arrangement, Token: f.ana, Body: map[string]any{"blocks": stale}}).problem(t, http.StatusPreconditionFailed, "PRECONDITION_FAILED")
	if after := slots(t, f); !sameMap(before, after) {
		t.Errorf("a stale arrangement changed %v to %v", before, after)
	}
	a.do(req{Method: "POST", Path: arrangement, Token: f.eve, Body: map[string]any{"blocks": o.Blocks}}).problem(t, http.StatusForbidden, "FORBIDDEN_NOT_MEMBER")
	a.do(req{Method: "POST", Path: arrangement, Token: f.ana, Body: map[string]any{"blocks": []arrangedJSON{}}}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")

	// Applied: the day is the preview's, and optimising again gains nothing.
	res := a.do(req{Method: "POST", Path: arrangement, Token: f.ana, Body: map[string]any{"blocks": o.Blocks}, Header: keyed("optimise-once")})
	if res.Status != http.StatusOK {
		t.Fatalf("arrangement: %d %s", res.Status, res.Body)
	}
	var day arrangedDayJSON
	if err := json.Unmarshal(res.Body, &day); err != nil {
		t.Fatal(err)
	}
	now := map[string]timeBlockJSON{}
	for _, b := range day.Contents {
		now[b.TimeBlockID] = b
	}
	for _, m := range o.Blocks {
		if b := now[m.TimeBlockID]; b.StartTime != *m.StartTime || b.EndTime != *m.EndTime || b.Version != m.Version+1 {
			t.Errorf("after applying, %s is %s–%s v%d; want %s–%s v%d", m.TimeBlockID, b.StartTime, b.EndTime, b.Version, *m.StartTime, *m.EndTime, m.Version+1)
		}
	}
	if !now[blocks["tower"].TimeBlockID].FixedTime {
		t.Error("the reservation lost its fixed_time")
	}
	sameAnswer(t, res, a.do(req{Method: "POST", Path: arrangement, Token: f.ana, Body: map[string]any{"blocks": o.Blocks}, Header: keyed("optimise-once")}))
	if again := dayOptimised(t, f, f.ana); len(again.Blocks) != 0 || again.After.TravelS != o.After.TravelS || again.Before.TravelS != o.After.TravelS {
		t.Errorf("optimising the optimised day: %+v, want nothing to move at %d s", again, o.After.TravelS)
	}
	if n := a.countRows(`SELECT count(*) FROM activities WHERE plan_id = $1 AND kind = 'DAY_OPTIMISED'`, f.plan.PlanID); n != 1 {
		t.Errorf("%d DAY_OPTIMISED entries, want 1", n)
	}
	if page := history[planMemberJSON](t, a, f.ben, "/plans/"+f.plan.PlanID+"/activity"); len(page.Contents) == 0 || page.Contents[0].Summary != "Ana optimised day 1" {
		t.Errorf("the newest history entry is %+v, want Ana optimising day 1", page.Contents)
	}

	if got := taxiAfter(); got == moving {
		t.Error("the taxi stayed after the block that moved")
	}

	// Undo, as the answer gives it: the old times against the new versions, and the taxi back
	// after its block, put the day back.
	back := arrangementJSON{Expenses: []expensePlaceJSON{{ExpenseID: taxi, AfterTimeBlockID: &moving}}}
	for _, m := range o.Blocks {
		was := byID[m.TimeBlockID]
		back.Blocks = append(back.Blocks, arrangedJSON{TimeBlockID: m.TimeBlockID, Version: now[m.TimeBlockID].Version, StartTime: &was.StartTime, EndTime: &was.EndTime})
	}
	if diff := cmp.Diff(back, day.Undo, cmpopts.SortSlices(func(x, y arrangedJSON) bool { return x.TimeBlockID < y.TimeBlockID })); diff != "" {
		t.Errorf("the answer's undo (-want +got):\n%s", diff)
	}
	if res := a.do(req{Method: "POST", Path: arrangement, Token: f.ben, Body: day.Undo}); res.Status != http.StatusOK {
		t.Fatalf("undo: %d %s", res.Status, res.Body)
	}
	if after := slots(t, f); !sameMap(before, after) {
		t.Errorf("undone, the day is %v, want %v", after, before)
	}
	if got := taxiAfter(); got != moving {
		t.Errorf("undone, the taxi is after %q, want its block %q", got, moving)
	}

	// The plan page: the card's lock, the dialog's before and after, Apply with an Undo toast
	// whose values put the day back.
	ana := a.signedInBrowser(t, "pf-ana", "Ana")
	page := a.page(t, ana, "/plans/"+f.plan.PlanID+"?day=1")
	mustHave(t, page, "data-fixed-time-mark", "Fixed time", "Optimise the day…", `data-fixed-time="true"`, "Fixed time (a reservation)")
	preview := fragment(t, a.htmx(ana, "GET", "/plans/"+f.plan.PlanID+"/days/1/optimised", ""), http.StatusOK)
	mustHave(t, preview, "of travel", "→", "This is the shortest order", "data-optimise-apply", "Bukchon Hanok Village")
	// hxVals is the form the button with hx-vals in the fragment sends.
	hxVals := func(fragment string) string {
		t.Helper()
		var vals map[string]string
		start := strings.Index(fragment, `hx-vals="`) + len(`hx-vals="`)
		raw := fragment[start : start+strings.Index(fragment[start:], `"`)]
		if err := json.Unmarshal([]byte(html.UnescapeString(raw)), &vals); err != nil {
			t.Fatalf("hx-vals %q: %v", raw, err)
		}
		form := url.Values{}
		for k, v := range vals {
			form.Set(k, v)
		}
		return form.Encode()
	}
	applied := fragment(t, a.htmx(ana, "POST", arrangement, hxVals(preview)), http.StatusOK)
	mustHave(t, applied, `id="day"`, "Optimised day 1", "data-undo")
	if got := slots(t, f); sameMap(before, got) {
		t.Error("Apply from the page changed nothing")
	}
	undone := fragment(t, a.htmx(ana, "POST", arrangement, hxVals(applied[strings.Index(applied, "data-undo"):])), http.StatusOK)
	mustHave(t, undone, `id="day"`, "Put day 1 back as it was")
	if got := slots(t, f); !sameMap(before, got) {
		t.Errorf("the page's Undo left the day at %v, want %v", got, before)
	}
	if got := taxiAfter(); got != moving {
		t.Errorf("the page's Undo left the taxi after %q, want its block %q", got, moving)
	}
}

// TestOptimiseDayFixedAndAlone: a day whose movable places are each alone between blocks that
// stay has nothing to optimise: the same travel, no blocks, and the page says so.
func TestOptimiseDayFixedAndAlone(t *testing.T) {
	f := newPlanFixture(t)
	blocks := zigzagDay(t, f)
	for _, name := range []string{"lotte", "olympic", "tower"} {
		setFixed(t, f, blocks[name], true)
	}
	o := dayOptimised(t, f, f.ana)
	if len(o.Blocks) != 0 || o.After.TravelS != o.Before.TravelS || o.Before.TravelS == 0 {
		t.Errorf("optimised %+v: want nothing to move and the same travel", o)
	}
	ana := f.a.signedInBrowser(t, "pf-ana", "Ana")
	preview := fragment(t, f.a.htmx(ana, "GET", "/plans/"+f.plan.PlanID+"/days/1/optimised", ""), http.StatusOK)
	mustHave(t, preview, "The order is already the shortest")
	if strings.Contains(preview, "data-optimise-apply") {
		t.Error("Apply offered with nothing to change")
	}
}

func sameMap(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestFixedTimeFromTheEditForm: the edit dialog sends its checkbox's "true" before a hidden
// "false"; the first value counts, so checked is true and unchecked (the hidden one alone) is
// false.
func TestFixedTimeFromTheEditForm(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	tb := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	ana := a.signedInBrowser(t, "pf-ana", "Ana")
	version := tb.Version
	for _, tc := range []struct {
		form string
		want bool
	}{
		{"day=1&start_time=10:00&end_time=11:00&memo=&fixed_time=true&fixed_time=false", true},
		{"day=1&start_time=10:00&end_time=11:00&memo=&fixed_time=false", false},
	} {
		res := a.do(req{Method: "PATCH", Path: f.blocks + "/" + tb.Candidates[0].BlockID + "?day=1", Client: ana, Body: tc.form,
			Header: map[string]string{"Accept": "text/html", "HX-Request": "true", "Sec-Fetch-Site": "same-origin",
				"Content-Type": "application/x-www-form-urlencoded", "If-Match": `"` + strconv.Itoa(version) + `"`}})
		day := fragment(t, res, http.StatusOK)
		if got := strings.Contains(day, "data-fixed-time-mark"); got != tc.want {
			t.Errorf("%s: the card's lock shown %v, want %v", tc.form, got, tc.want)
		}
		version++
		if n := a.countRows(`SELECT count(*) FROM time_blocks WHERE id = $1 AND fixed_time = $2 AND version = $3`, tb.TimeBlockID, tc.want, version); n != 1 {
			t.Errorf("%s: the block is not at fixed_time %v, version %d", tc.form, tc.want, version)
		}
	}
}

// TestOptimiseDayLeavesUndecidedBlocks: a block still undecided between candidates is not a
// stop: it stays where it is and ends the stretch before it.
func TestOptimiseDayLeavesUndecidedBlocks(t *testing.T) {
	f := newPlanFixture(t)
	blocks := zigzagDay(t, f)
	bukchon := decodeBlock(t, f.a.do(req{Method: "POST", Path: f.blocks + "/" + blocks["bukchon"].TimeBlockID + "/candidates", Token: f.ana,
		Body: map[string]any{"collection_place_ids": []string{f.places[1].CollectionPlaceID}}}))
	if bukchon.BlockStatus != "PENDING" {
		t.Fatalf("fixture: Bukchon's block is %s, want PENDING", bukchon.BlockStatus)
	}
	setFixed(t, f, blocks["tower"], true) // the evening's two places stay as they are
	o := dayOptimised(t, f, f.ana)
	for _, m := range o.Blocks {
		if m.TimeBlockID != blocks["palace"].TimeBlockID && m.TimeBlockID != blocks["lotte"].TimeBlockID {
			t.Errorf("%s moves; only the palace and Lotte World Tower (the stretch before the undecided block) may", m.TimeBlockID)
		}
	}
	for _, l := range append(o.Before.Legs, o.After.Legs...) {
		if l.FromTimeBlockID == bukchon.TimeBlockID || l.ToTimeBlockID == bukchon.TimeBlockID {
			t.Errorf("a leg %+v counts the undecided block", l)
		}
	}
}
