package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCopyTimeBlockAnswers: POST …/blocks/{tb}/copies answers 201 with the copy in the shape
// adding a block answers, with the candidates and without their opinions; a taken time is
// 409 with the conflict's code; bad fields are 400 naming them; outsiders are refused; a
// replay with the same Idempotency-Key makes nothing more; the plan page gets the copy's day,
// announced.
func TestCopyTimeBlockAnswers(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	tb := decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks, Token: f.ana,
		Body: map[string]any{"type": "PLACE", "collection_place_id": f.places[0].CollectionPlaceID, "day": 1, "start_time": "10:00", "end_time": "11:00"}}))
	tb = decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + tb.TimeBlockID + "/candidates", Token: f.ben,
		Body: map[string]any{"collection_place_ids": []string{f.places[1].CollectionPlaceID}}}))
	a.do(req{Method: "POST", Path: f.blocks + "/" + tb.Candidates[0].BlockID + "/opinions", Token: f.ben, Body: map[string]any{"type": "POSITIVE"}})
	copies := f.blocks + "/" + tb.TimeBlockID + "/copies"

	res := a.do(req{Method: "POST", Path: copies, Token: f.ben, Body: map[string]any{}})
	if res.Status != http.StatusCreated {
		t.Fatalf("copy: %d %s", res.Status, res.Body)
	}
	var dup timeBlockJSON
	if err := json.Unmarshal(res.Body, &dup); err != nil {
		t.Fatal(err)
	}
	type copyShape struct {
		NewID                           bool
		StartTime, EndTime, BlockStatus string
		CandidateCount                  int
	}
	if diff := cmp.Diff(copyShape{NewID: true, StartTime: "11:00:00.000Z", EndTime: "12:00:00.000Z", BlockStatus: tb.BlockStatus, CandidateCount: 2},
		copyShape{NewID: dup.TimeBlockID != tb.TimeBlockID, StartTime: dup.StartTime, EndTime: dup.EndTime, BlockStatus: dup.BlockStatus, CandidateCount: dup.CandidateCount}); diff != "" {
		t.Errorf("the copy, right after the block with its candidates (-want +got):\n%s", diff)
	}
	for i, c := range dup.Candidates {
		if c.Place == nil || c.Place.PlaceID != tb.Candidates[i].Place.PlaceID || c.AddedBy.PlanMemberID != tb.Candidates[i].AddedBy.PlanMemberID || c.OpinionSummary.TotalCount != 0 {
			t.Errorf("copied candidate %d: %+v, from %+v", i, c, tb.Candidates[i])
		}
	}

	// Where it goes: a taken time is refused with its conflict; bad fields are named.
	p := a.do(req{Method: "POST", Path: copies, Token: f.ana, Body: map[string]any{"start_time": "10:00", "end_time": "11:00"}}).problem(t, 409, "TIME_BLOCK_EXACT_DUPLICATE")
	if p["time_block_id"] != tb.TimeBlockID {
		t.Errorf("the duplicate names %v, want %s", p["time_block_id"], tb.TimeBlockID)
	}
	a.do(req{Method: "POST", Path: copies, Token: f.ana, Body: map[string]any{"day": 1, "start_time": "10:30", "end_time": "11:30"}}).problem(t, 409, "TIME_BLOCK_OVERLAP")
	for _, tc := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"start_time": "10:00"}, "start_time"},
		{map[string]any{"day": 31}, "day"},
		{map[string]any{"day": "two"}, "day"},
		{map[string]any{"start_time": "12:00", "end_time": "11:00"}, "start_time"},
	} {
		p := a.do(req{Method: "POST", Path: copies, Token: f.ana, Body: tc.body}).problem(t, 400, "INVALID_REQUEST")
		if _, ok := fieldErrors(t, p)[tc.field]; !ok {
			t.Errorf("%v: errors %v do not name %s", tc.body, p["errors"], tc.field)
		}
	}
	a.do(req{Method: "POST", Path: copies, Token: f.eve, Body: map[string]any{}}).problem(t, 403, "FORBIDDEN_NOT_MEMBER")
	a.do(req{Method: "POST", Path: f.blocks + "/nope/copies", Token: f.ana, Body: map[string]any{}}).problem(t, 404, "BLOCK_NOT_FOUND")
	a.do(req{Method: "POST", Path: copies, Token: f.ana, Body: map[string]any{"day": 9}}).problem(t, 404, "PLAN_DAY_NOT_FOUND")

	// Sent twice with one key, the copy is made once.
	before := a.countRows(`SELECT count(*) FROM time_blocks WHERE plan_id = $1`, f.plan.PlanID)
	body := map[string]any{"day": 2, "start_time": "09:00", "end_time": "10:00"}
	first := a.do(req{Method: "POST", Path: copies, Token: f.ana, Body: body, Header: keyed("copy-once")})
	replay := a.do(req{Method: "POST", Path: copies, Token: f.ana, Body: body, Header: keyed("copy-once")})
	if first.Status != http.StatusCreated {
		t.Fatalf("keyed copy: %d %s", first.Status, first.Body)
	}
	sameAnswer(t, first, replay)
	if after := a.countRows(`SELECT count(*) FROM time_blocks WHERE plan_id = $1`, f.plan.PlanID); after != before+1 {
		t.Errorf("%d time blocks after a copy sent twice, want %d", after, before+1)
	}

	// The plan page: the copy's day, with the copy and what it was.
	ana := a.signedInBrowser(t, "pf-ana", "Ana")
	res = a.htmx(ana, "POST", copies, "day=3")
	day := fragment(t, res, http.StatusCreated)
	mustHave(t, day, `id="day"`, `data-day="3"`, "Copied Gyeongbokgung Palace or Gwangjang Market to day 3, 10:00–11:00", "data-just-added")
	if got := res.Header.Get("HX-Push-Url"); got != "/plans/"+f.plan.PlanID+"?day=3" {
		t.Errorf("HX-Push-Url %q, want the copy's day", got)
	}
}

// TestSwapDaysAnswers: POST …/days/{day}/swap swaps every block of the two days and answers
// both; a day with itself, a day outside 1–30 or the plan, and a missing "with" are 400
// naming the field; outsiders are refused; the history says it; the plan page gets the day
// swapped from, announced, with an Undo that swaps back and takes the toast away.
func TestSwapDaysAnswers(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	add := func(cp string, day int, start, end string) timeBlockJSON {
		return decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks, Token: f.ana,
			Body: map[string]any{"type": "PLACE", "collection_place_id": cp, "day": day, "start_time": start, "end_time": end}}))
	}
	one := add(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")
	three := add(f.places[1].CollectionPlaceID, 3, "10:00", "11:00")
	swap := "/plans/" + f.plan.PlanID + "/days/1/swap"

	res := a.do(req{Method: "POST", Path: swap, Token: f.ben, Body: map[string]any{"with": 3}})
	var out daySwapJSON
	if err := json.Unmarshal(res.Body, &out); err != nil || res.Status != http.StatusOK {
		t.Fatalf("swap: %d %s", res.Status, res.Body)
	}
	if len(out.Days) != 2 || out.Days[0].DayInfo.Day != 1 || out.Days[1].DayInfo.Day != 3 ||
		len(out.Days[0].Contents) != 1 || out.Days[0].Contents[0].TimeBlockID != three.TimeBlockID ||
		len(out.Days[1].Contents) != 1 || out.Days[1].Contents[0].TimeBlockID != one.TimeBlockID || out.Days[1].Contents[0].Version != one.Version+1 {
		t.Errorf("swapped: %s", res.Body)
	}

	for _, tc := range []struct {
		path  string
		body  map[string]any
		field string
	}{
		{swap, map[string]any{"with": 1}, "with"},
		{swap, map[string]any{"with": 31}, "with"},
		{swap, map[string]any{"with": 4}, "with"}, // a day the plan does not have
		{swap, map[string]any{}, "with"},
		{"/plans/" + f.plan.PlanID + "/days/0/swap", map[string]any{"with": 2}, "day"},
		{"/plans/" + f.plan.PlanID + "/days/x/swap", map[string]any{"with": 2}, "day"},
	} {
		p := a.do(req{Method: "POST", Path: tc.path, Token: f.ana, Body: tc.body}).problem(t, 400, "INVALID_REQUEST")
		if _, ok := fieldErrors(t, p)[tc.field]; !ok {
			t.Errorf("%s %v: errors %v do not name %s", tc.path, tc.body, p["errors"], tc.field)
		}
	}
	a.do(req{Method: "POST", Path: "/plans/" + f.plan.PlanID + "/days/5/swap", Token: f.ana, Body: map[string]any{"with": 2}}).problem(t, 404, "PLAN_DAY_NOT_FOUND")
	a.do(req{Method: "POST", Path: swap, Token: f.eve, Body: map[string]any{"with": 2}}).problem(t, 403, "FORBIDDEN_NOT_MEMBER")

	page := history[planMemberJSON](t, a, f.ana, "/plans/"+f.plan.PlanID+"/activity")
	if len(page.Contents) == 0 || page.Contents[0].Kind != "DAYS_SWAPPED" || page.Contents[0].Summary != "Ben swapped day 1 and day 3" {
		t.Errorf("the newest history entry is %+v, want Ben swapping the days", page.Contents[0])
	}

	// The plan page: day 1, holding day 3's block again, announced, with the Undo toast.
	ana := a.signedInBrowser(t, "pf-ana", "Ana")
	day := fragment(t, a.htmx(ana, "POST", swap, "with=3"), http.StatusOK)
	mustHave(t, day, `data-day="1"`, `data-time-block-id="`+one.TimeBlockID+`"`, "Swapped day 1 and day 3", "data-undo", `hx-vals="{&#34;with&#34;: &#34;3&#34;, &#34;undo&#34;: &#34;true&#34;}"`)
	undone := fragment(t, a.htmx(ana, "POST", swap, "with=3&undo=true"), http.StatusOK)
	mustHave(t, undone, `data-time-block-id="`+three.TimeBlockID+`"`, `<div id="flash" hx-swap-oob="innerHTML"></div>`)
	if strings.Contains(undone, "data-undo") {
		t.Errorf("the undo offers to undo itself")
	}
}
