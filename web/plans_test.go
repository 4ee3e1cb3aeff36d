package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"tripplan/static"
)

func TestPlans(t *testing.T) {
	a := newTestApp(t)
	ana, ben, eve := a.member("pl-ana", "Ana"), a.member("pl-ben", "Ben"), a.member("pl-eve", "Eve")

	res := a.do(req{Method: "POST", Path: "/plans", Token: ana, Body: map[string]string{"title": "Kyoto", "start_date": "2026-05-01", "end_date": "2026-05-04"}})
	var p planJSON
	if json.Unmarshal(res.Body, &p); res.Status != http.StatusCreated || res.Header.Get("Location") != "/plans/"+p.PlanID ||
		p.DurationDays != 4 || p.MemberCount != 1 || p.CollectionCount != 0 || p.Thumbnail != nil || p.StartDate != "2026-05-01" {
		t.Fatalf("create: %d %s", res.Status, res.Body)
	}
	for _, bad := range []struct {
		body map[string]string
		code string
	}{
		{map[string]string{"title": "", "start_date": "2026-05-01", "end_date": "2026-05-02"}, "INVALID_REQUEST"},
		{map[string]string{"title": "x", "start_date": "May 1", "end_date": "2026-05-02"}, "INVALID_REQUEST"},
		{map[string]string{"title": "x", "start_date": "2026-05-03", "end_date": "2026-05-02"}, "INVALID_DATE_RANGE"},
		{map[string]string{"title": "x", "start_date": "2026-05-01", "end_date": "2026-05-31"}, "INVALID_DATE_RANGE"},
	} {
		a.do(req{Method: "POST", Path: "/plans", Token: ana, Body: bad.body}).problem(t, 400, bad.code)
	}
	// Thirty days is the limit, inclusive.
	a.createPlan(ana, "Long", "2026-05-01", "2026-05-30")

	path := "/plans/" + p.PlanID
	a.joinPlan(p.PlanID, "pl-ben")
	var list pageJSON[planJSON]
	res = a.do(req{Method: "GET", Path: "/plans?size=1", Token: ana})
	if json.Unmarshal(res.Body, &list); len(list.Contents) != 1 || !list.HasNext || list.Contents[0].Title != "Long" {
		t.Fatalf("list: %s", res.Body)
	}
	a.do(req{Method: "GET", Path: path, Token: eve}).problem(t, 403, "FORBIDDEN_NOT_MEMBER")

	// Shrinking asks first, then deletes the removed days with their blocks.
	a.do(req{Method: "POST", Path: path + "/blocks", Token: ben, Body: map[string]any{"type": "FREE", "day": 4, "start_time": "09:00", "end_time": "10:00"}})
	var u planUpdateJSON
	res = a.do(req{Method: "PUT", Path: path, Token: ben, Body: map[string]any{"title": "Kyoto", "start_date": "2026-05-01", "end_date": "2026-05-02"}})
	// updateShape is what a plan update said: its status, whether it asks first and why, and the plan.
	type updateShape struct {
		Status               int
		RequiresConfirmation bool
		UpdateType           *string
		HasPlan              bool
		DurationDays         int
		Title                string
		AffectedDays         []affectedDayJSON
	}
	shape := func(res response, u planUpdateJSON) updateShape {
		s := updateShape{Status: res.Status, RequiresConfirmation: u.RequiresConfirmation, UpdateType: u.UpdateType, HasPlan: u.Plan != nil, AffectedDays: u.AffectedDays}
		if u.Plan != nil {
			s.DurationDays, s.Title = u.Plan.DurationDays, u.Plan.Title
		}
		return s
	}
	decrease := "DECREASE"
	json.Unmarshal(res.Body, &u)
	if diff := cmp.Diff(updateShape{Status: 200, RequiresConfirmation: true, UpdateType: &decrease,
		AffectedDays: []affectedDayJSON{{Day: 3}, {Day: 4, ScheduleCount: 1}}}, shape(res, u)); diff != "" {
		t.Fatalf("unconfirmed decrease (-want +got):\n%s", diff)
	}
	res = a.do(req{Method: "PUT", Path: path, Token: ben, Body: map[string]any{"title": "Kyoto 2", "start_date": "2026-05-01", "end_date": "2026-05-02", "confirm": true}})
	json.Unmarshal(res.Body, &u)
	if diff := cmp.Diff(updateShape{Status: 200, HasPlan: true, DurationDays: 2, Title: "Kyoto 2"}, shape(res, u),
		cmpopts.IgnoreFields(updateShape{}, "UpdateType", "AffectedDays")); diff != "" {
		t.Fatalf("confirmed decrease (-want +got):\n%s", diff)
	}
	a.do(req{Method: "GET", Path: path + "/blocks?day=4", Token: ben}).problem(t, 404, "PLAN_DAY_NOT_FOUND")
	// A title-only change applies at once, with no update type.
	res = a.do(req{Method: "PUT", Path: path, Token: ben, Body: map[string]any{"title": "Kyoto 3", "start_date": "2026-05-01", "end_date": "2026-05-02"}})
	json.Unmarshal(res.Body, &u)
	if diff := cmp.Diff(updateShape{HasPlan: true, Title: "Kyoto 3"}, shape(res, u), cmpopts.IgnoreFields(updateShape{}, "Status", "DurationDays")); diff != "" {
		t.Fatalf("title only (-want +got):\n%s", diff)
	}

	// Members, owner change, leave and delete.
	var g memberGroupJSON[planMemberJSON]
	res = a.do(req{Method: "GET", Path: path + "/members", Token: ben})
	if json.Unmarshal(res.Body, &g); len(g.Members) != 2 || g.Me == nil || g.Me.Nickname != "Ben" || g.Members[0].Role != "OWNER" {
		t.Fatalf("members: %s", res.Body)
	}
	benMember := g.Me.PlanMemberID
	a.do(req{Method: "DELETE", Path: path, Token: ben}).problem(t, 403, "FORBIDDEN_NOT_OWNER")
	a.do(req{Method: "DELETE", Path: path + "/members/me", Token: ana}).problem(t, 409, "NEED_TO_DELEGATE_OWNERSHIP")
	if r := a.do(req{Method: "PATCH", Path: path + "/owner", Token: ana, Body: map[string]string{"plan_member_id": benMember}}); r.Status != 204 {
		t.Fatalf("owner change: %d %s", r.Status, r.Body)
	}
	if r := a.do(req{Method: "DELETE", Path: path + "/members/me", Token: ana}); r.Status != 204 {
		t.Fatalf("leave: %d %s", r.Status, r.Body)
	}
	a.do(req{Method: "GET", Path: path, Token: ana}).problem(t, 403, "FORBIDDEN_NOT_MEMBER")
	if r := a.do(req{Method: "DELETE", Path: path, Token: ben}); r.Status != 204 {
		t.Fatalf("delete: %d", r.Status)
	}
	a.do(req{Method: "GET", Path: path, Token: ben}).problem(t, 404, "PLAN_NOT_FOUND")
}

func TestPlanCollections(t *testing.T) {
	f := newPlanFixture(t)
	a, path := f.a, "/plans/"+f.plan.PlanID+"/collections"
	var linked []planCollectionJSON
	res := a.do(req{Method: "GET", Path: path, Token: f.ben})
	if json.Unmarshal(res.Body, &linked); len(linked) != 1 || linked[0].CollectionID != f.collection || linked[0].AddedBy.Nickname != "Ana" {
		t.Fatalf("linked: %s", res.Body)
	}
	a.do(req{Method: "POST", Path: path, Token: f.ana, Body: map[string]any{"collection_ids": []string{f.collection}}}).problem(t, 409, "PLAN_COLLECTION_ALREADY_EXISTS")
	a.do(req{Method: "POST", Path: path, Token: f.ana, Body: map[string]any{"collection_ids": []string{}}}).problem(t, 400, "INVALID_REQUEST")
	mine := a.createCollection(f.eve, "Eve's")
	a.do(req{Method: "POST", Path: path, Token: f.ben, Body: map[string]any{"collection_ids": []string{mine.CollectionID}}}).problem(t, 403, "FORBIDDEN_NOT_MEMBER")

	var places pageJSON[collectionPlaceJSON]
	res = a.do(req{Method: "GET", Path: path + "/" + f.collection + "/places?sort=OLDEST", Token: f.ben})
	if json.Unmarshal(res.Body, &places); len(places.Contents) != 3 || places.Contents[0].Place.Name != "Gyeongbokgung Palace" {
		t.Fatalf("places: %s", res.Body)
	}
	res = a.do(req{Method: "GET", Path: path + "/" + f.collection + "/places/" + f.places[1].CollectionPlaceID, Token: f.ben})
	if res.Status != 200 || !strings.Contains(string(res.Body), `"social_media":null`) {
		t.Fatalf("place: %d %s", res.Status, res.Body)
	}
	if r := a.do(req{Method: "DELETE", Path: path + "/" + f.collection, Token: f.ben}); r.Status != 204 {
		t.Fatalf("unlink: %d %s", r.Status, r.Body)
	}
	a.do(req{Method: "GET", Path: path + "/" + f.collection + "/places", Token: f.ben}).problem(t, 404, "PLAN_COLLECTION_NOT_FOUND")
}

func TestPlanPageInABrowser(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	ana := a.signedInBrowser(t, "pf-ana", "Ana")

	// The new-plan form creates the plan and sends the browser to it.
	form := "title=" + url.QueryEscape("Busan <3") + "&start_date=2026-06-01&end_date=2026-06-02"
	res := a.do(req{Method: "POST", Path: "/plans", Client: ana, Body: form,
		Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html", "Sec-Fetch-Site": "same-origin"}})
	if res.Status != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/plans/") {
		t.Fatalf("form create: %d %q", res.Status, res.Header.Get("Location"))
	}
	if !strings.Contains(a.page(t, ana, "/plans"), "Busan &lt;3") {
		t.Error("plans page lacks the new plan")
	}
	if !strings.Contains(a.page(t, ana, "/plans/new"), `name="start_date"`) {
		t.Error("new plan form")
	}

	// The plan page shows the day grid, the linked collection's draggable places and the dialogs.
	page := a.page(t, ana, "/plans/"+f.plan.PlanID)
	for _, want := range []string{`id="day"`, `data-slot="540"`, `data-collection-place-id="` + f.places[0].CollectionPlaceID + `"`,
		"Gyeongbokgung Palace", `id="block-dialog"`, `id="picker-dialog"`, static.URL("js/plan.js"), "Day 3"} {
		if !strings.Contains(page, want) {
			t.Errorf("plan page lacks %s", want)
		}
	}

	// Dropping a place and saving the dialog answers the day's grid with the new block in it.
	blocks := "/plans/" + f.plan.PlanID + "/blocks"
	add := "type=PLACE&collection_place_id=" + f.places[0].CollectionPlaceID + "&day=2&start_time=10:00&end_time=11:00&memo=go"
	day := fragment(t, a.htmx(ana, "POST", blocks, add), http.StatusOK)
	if !strings.Contains(day, `id="day"`) || !strings.Contains(day, `data-day="2"`) || !strings.Contains(day, "Gyeongbokgung Palace") ||
		!strings.Contains(day, "row-start-41") || !strings.Contains(day, "row-end-45") {
		t.Fatalf("day partial after add: %s", day)
	}
	timeBlockID := regexp.MustCompile(`data-time-block-id="([^"]+)"`).FindStringSubmatch(day)[1]

	// The same slot again: the message, and an offer to add the place as a candidate there.
	conflict := a.htmx(ana, "POST", blocks, "type=PLACE&collection_place_id="+f.places[1].CollectionPlaceID+"&day=2&start_time=10:00&end_time=11:00")
	body := string(conflict.Body)
	if conflict.Status != http.StatusConflict || !strings.Contains(body, "Add as a candidate") ||
		!strings.Contains(body, `hx-post="/plans/`+f.plan.PlanID+`/blocks/`+timeBlockID+`/candidates?day=2"`) ||
		!strings.Contains(body, `value="`+f.places[1].CollectionPlaceID+`"`) {
		t.Fatalf("conflict partial: %d %s", conflict.Status, body)
	}
	day = fragment(t, a.htmx(ana, "POST", blocks+"/"+timeBlockID+"/candidates?day=2", "collection_place_ids="+f.places[1].CollectionPlaceID), http.StatusOK)
	if !strings.Contains(day, "Deciding") || !strings.Contains(day, "2 candidates") {
		t.Fatalf("after adding a candidate: %s", day)
	}
	// An overlap names the block in the way and the next free start, in words.
	overlap := a.htmx(ana, "POST", blocks, "type=FREE&day=2&start_time=10:30&end_time=11:30")
	if overlap.Status != http.StatusConflict ||
		!strings.Contains(string(overlap.Body), "Overlaps “Gyeongbokgung Palace or Gwangjang Market” 10:00–11:00 — the next free start is 11:00.") {
		t.Fatalf("overlap: %d %s", overlap.Status, overlap.Body)
	}

	// The picker lists the candidates; confirming one answers the grid with it confirmed.
	picker := fragment(t, a.htmx(ana, "GET", blocks+"/"+timeBlockID+"/candidates", ""), http.StatusOK)
	ids := regexp.MustCompile(`name="block_id" value="([^"]+)"`).FindAllStringSubmatch(picker, -1)
	if len(ids) != 2 || !strings.Contains(picker, "Gwangjang Market") {
		t.Fatalf("picker: %s", picker)
	}
	day = fragment(t, a.htmx(ana, "PATCH", blocks+"/"+timeBlockID+"/selection?day=2", "block_id="+ids[1][1]), http.StatusOK)
	if !strings.Contains(day, "Confirmed") || !strings.Contains(day, "Gwangjang Market") {
		t.Fatalf("after confirm: %s", day)
	}

	// Switching days answers that day's grid; deleting a block answers the grid without it.
	if d1 := fragment(t, a.htmx(ana, "GET", blocks+"?size=100&day=1", ""), http.StatusOK); !strings.Contains(d1, `data-day="1"`) {
		t.Fatalf("day 1: %s", d1)
	}
	day = fragment(t, a.htmx(ana, "DELETE", blocks+"/"+timeBlockID+"?day=2", ""), http.StatusOK)
	if strings.Contains(day, "data-time-block-id") {
		t.Fatalf("after delete: %s", day)
	}

	// Editing dates that shorten the plan asks in a dialog first.
	confirm := fragment(t, a.htmx(ana, "PUT", "/plans/"+f.plan.PlanID, "title=Seoul+trip&start_date=2026-04-01&end_date=2026-04-01"), http.StatusOK)
	if !strings.Contains(confirm, "<dialog") || !strings.Contains(confirm, "Day 3") || !strings.Contains(confirm, `name="confirm" value="true"`) {
		t.Fatalf("date change dialog: %s", confirm)
	}
	done := a.htmx(ana, "PUT", "/plans/"+f.plan.PlanID, "title=Seoul+trip&start_date=2026-04-01&end_date=2026-04-01&confirm=true")
	if done.Header.Get("HX-Redirect") != "/plans/"+f.plan.PlanID {
		t.Fatalf("confirmed change: %d %v", done.Status, done.Header)
	}
	if !strings.Contains(a.page(t, ana, "/plans/"+f.plan.PlanID+"/edit"), `value="2026-04-01"`) {
		t.Error("edit page")
	}
}
