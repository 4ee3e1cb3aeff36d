package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// entry is what a history entry should say.
type entry struct {
	kind, typ, id, name, summary, actor string
}

// history is a page of a plan's or collection's history as a client reads it.
func history[M any](t *testing.T, a *testApp, token, path string) pageJSON[activityJSON[M]] {
	t.Helper()
	res := a.do(req{Method: "GET", Path: path, Token: token})
	var page pageJSON[activityJSON[M]]
	if err := json.Unmarshal(res.Body, &page); err != nil || res.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, res.Status, res.Body)
	}
	return page
}

// checkHistory compares entries, newest first, with what happened, oldest first.
func checkHistory[M any](t *testing.T, got []activityJSON[M], nickname func(M) string, happened []entry) {
	t.Helper()
	if len(got) != len(happened) {
		for _, g := range got {
			t.Logf("%s %s %q: %s", g.Kind, g.Target.Type, g.Target.Name, g.Summary)
		}
		t.Fatalf("%d entries, want %d", len(got), len(happened))
	}
	for i, w := range happened {
		g := got[len(got)-1-i]
		actor := ""
		if g.Actor != nil {
			actor = nickname(*g.Actor)
		}
		type entryShape struct {
			Kind, Type, ID, Name, Summary, Actor string
			IDLength                             int
			HasCreatedAt                         bool
		}
		if diff := cmp.Diff(entryShape{Kind: w.kind, Type: w.typ, ID: w.id, Name: w.name, Summary: w.summary, Actor: w.actor, IDLength: 21, HasCreatedAt: true},
			entryShape{Kind: g.Kind, Type: g.Target.Type, ID: g.Target.ID, Name: g.Target.Name, Summary: g.Summary, Actor: actor,
				IDLength: len(g.ActivityID), HasCreatedAt: g.CreatedAt != ""}); diff != "" {
			t.Errorf("entry %d (-want +got):\n%s", i, diff)
		}
	}
}

func planNickname(m planMemberJSON) string { return m.Nickname }

func (a *testApp) mustDo(t *testing.T, rq req, status int) response {
	t.Helper()
	res := a.do(rq)
	if res.Status != status {
		t.Fatalf("%s %s: %d %s", rq.Method, rq.Path, res.Status, res.Body)
	}
	return res
}

// membersOf maps the plan's members' nicknames to their member ids.
func (f *planFixture) memberIDs(t *testing.T, token string) map[string]string {
	t.Helper()
	var g memberGroupJSON[planMemberJSON]
	json.Unmarshal(f.a.mustDo(t, req{Method: "GET", Path: "/plans/" + f.plan.PlanID + "/members", Token: token}, http.StatusOK).Body, &g)
	out := map[string]string{}
	for _, m := range g.Members {
		out[m.Nickname] = m.PlanMemberID
	}
	return out
}

// TestPlanActivityNamesWhoDidWhatToWhich: every kind of change to a plan is an entry of its
// history (docs/API.md §Activity) with the right target (type, id and name as it was then) and a
// sentence naming the actor and the target — also for blocks, opinions and expenses since
// deleted; a memo edit is not one. Newest first, paged, readable by its members, not by others;
// deleting the plan deletes it.
func TestPlanActivityNamesWhoDidWhatToWhich(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	var happened []entry
	did := func(kind, typ, id, name, summary, actor string) {
		happened = append(happened, entry{kind, typ, id, name, summary, actor})
	}

	// Time blocks: added, moved, made longer; a memo edit is no entry.
	tb := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	palace := tb.Candidates[0].BlockID
	did("BLOCK_ADDED", "TIME_BLOCK", tb.TimeBlockID, "Gyeongbokgung Palace", "Ana added Gyeongbokgung Palace to Day 1, 10:00", "Ana")
	move := func(body map[string]any) {
		a.mustDo(t, req{Method: "PATCH", Path: f.blocks + "/" + palace, Token: f.ana, Body: body}, http.StatusOK)
	}
	move(map[string]any{"day": 2, "start_time": "11:00", "end_time": "12:00"})
	did("BLOCK_MOVED", "TIME_BLOCK", tb.TimeBlockID, "Gyeongbokgung Palace", "Ana moved Gyeongbokgung Palace to Day 2, 11:00", "Ana")
	move(map[string]any{"start_time": "11:00", "end_time": "13:00"})
	did("BLOCK_MOVED", "TIME_BLOCK", tb.TimeBlockID, "Gyeongbokgung Palace", "Ana made Gyeongbokgung Palace end at 13:00 (Day 2)", "Ana")
	move(map[string]any{"memo": "tickets first"})

	// Candidates: added, confirmed; opinions: given, changed, taken back; a candidate removed.
	both := decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + tb.TimeBlockID + "/candidates", Token: f.ben,
		Body: map[string]any{"collection_place_ids": []string{f.places[1].CollectionPlaceID}}}))
	market := both.Candidates[1].BlockID
	did("CANDIDATE_ADDED", "CANDIDATE", market, "Gwangjang Market", "Ben added Gwangjang Market as a candidate for Day 2, 11:00", "Ben")
	a.mustDo(t, req{Method: "PATCH", Path: f.blocks + "/" + tb.TimeBlockID + "/selection", Token: f.ana, Body: map[string]any{"block_id": market}}, http.StatusOK)
	did("CANDIDATE_CONFIRMED", "CANDIDATE", market, "Gwangjang Market", "Ana confirmed Gwangjang Market for Day 2, 11:00", "Ana")
	opinions := plan + "/blocks/" + palace + "/opinions"
	var op opinionJSON
	json.Unmarshal(a.mustDo(t, req{Method: "POST", Path: opinions, Token: f.ben, Body: map[string]any{"type": "POSITIVE"}}, http.StatusCreated).Body, &op)
	did("OPINION_ADDED", "OPINION", op.OpinionID, "Gyeongbokgung Palace", "Ben likes Gyeongbokgung Palace", "Ben")
	a.mustDo(t, req{Method: "PUT", Path: opinions + "/" + op.OpinionID, Token: f.ben, Body: map[string]any{"type": "NEGATIVE"}}, http.StatusOK)
	did("OPINION_CHANGED", "OPINION", op.OpinionID, "Gyeongbokgung Palace", "Ben now doesn't like Gyeongbokgung Palace", "Ben")
	a.mustDo(t, req{Method: "DELETE", Path: opinions + "/" + op.OpinionID, Token: f.ben}, http.StatusNoContent)
	did("OPINION_REMOVED", "OPINION", op.OpinionID, "Gyeongbokgung Palace", "Ben took back their opinion on Gyeongbokgung Palace", "Ben")
	a.mustDo(t, req{Method: "DELETE", Path: f.blocks + "/" + tb.TimeBlockID + "/candidates/" + palace, Token: f.ana}, http.StatusNoContent)
	did("CANDIDATE_REMOVED", "CANDIDATE", palace, "Gyeongbokgung Palace", "Ana removed the candidate Gyeongbokgung Palace from Day 2, 11:00", "Ana")

	// Expenses: added, changed, a candidate's costs set, deleted — each with its amount.
	e := f.addExpense(t, map[string]any{"day": 1, "items": []map[string]any{{"name": "Taxi", "cost": 12000}, {"name": "Snacks", "cost": 3000}}})
	did("EXPENSE_ADDED", "EXPENSE", e.ExpenseID, "Taxi and 1 more", "Ben added an expense on Day 1: Taxi and 1 more, ₩15,000", "Ben")
	a.mustDo(t, req{Method: "PUT", Path: plan + "/expenses/" + e.ExpenseID, Token: f.ben, Body: item("Taxi", 15000)}, http.StatusOK)
	did("EXPENSE_CHANGED", "EXPENSE", e.ExpenseID, "Taxi", "Ben changed the expense Taxi to ₩15,000", "Ben")
	var costs string
	if err := a.db.Get(&costs, `SELECT id FROM expenses WHERE candidate_id = $1`, market); err != nil {
		t.Fatal(err)
	}
	a.mustDo(t, req{Method: "PUT", Path: plan + "/expenses/" + costs, Token: f.ana, Body: item("Lunch", 30000)}, http.StatusOK)
	did("EXPENSE_CHANGED", "EXPENSE", costs, "Gwangjang Market", "Ana set the costs of Gwangjang Market to ₩30,000", "Ana")
	a.mustDo(t, req{Method: "DELETE", Path: plan + "/expenses/" + e.ExpenseID, Token: f.ben}, http.StatusNoContent)
	did("EXPENSE_REMOVED", "EXPENSE", e.ExpenseID, "Taxi", "Ben deleted the expense Taxi (₩15,000)", "Ben")

	// The block goes; free time comes.
	a.mustDo(t, req{Method: "DELETE", Path: f.blocks + "/" + tb.TimeBlockID, Token: f.ana}, http.StatusNoContent)
	did("BLOCK_REMOVED", "TIME_BLOCK", tb.TimeBlockID, "Gwangjang Market", "Ana removed Gwangjang Market from Day 2, 11:00", "Ana")
	free := decodeBlock(t, f.add(f.ben, map[string]any{"type": "FREE", "day": 3, "start_time": "15:00", "end_time": "16:00"}))
	did("BLOCK_ADDED", "TIME_BLOCK", free.TimeBlockID, "Free time", "Ben added free time to Day 3, 15:00", "Ben")

	// The plan: renamed and its dates changed in one request.
	a.mustDo(t, req{Method: "PUT", Path: plan, Token: f.ana, Body: map[string]any{"title": "Seoul in spring",
		"start_date": "2026-04-01", "end_date": "2026-04-04", "confirm": true}}, http.StatusOK)
	did("PLAN_RENAMED", "PLAN", f.plan.PlanID, "Seoul in spring", "Ana renamed the plan from “Seoul trip” to “Seoul in spring”", "Ana")
	did("PLAN_DATES_CHANGED", "PLAN", f.plan.PlanID, "Seoul in spring", "Ana changed the dates to Apr 1 – Apr 4, 2026", "Ana")

	// Members: Eve joins by a link and is removed; Ben becomes the owner; Ana leaves.
	link := a.invite(f.ana, plan)
	a.mustDo(t, req{Method: "GET", Path: strings.TrimPrefix(link.URL, a.http.URL), Token: f.eve}, http.StatusFound)
	ids := f.memberIDs(t, f.ana)
	did("MEMBER_JOINED", "MEMBER", ids["Eve"], "Eve", "Eve joined the plan", "Eve")
	a.mustDo(t, req{Method: "DELETE", Path: plan + "/members/" + ids["Eve"], Token: f.ana}, http.StatusNoContent)
	did("MEMBER_REMOVED", "MEMBER", ids["Eve"], "Eve", "Ana removed Eve from the plan", "Ana")
	a.mustDo(t, req{Method: "PATCH", Path: plan + "/owner", Token: f.ana, Body: map[string]any{"plan_member_id": ids["Ben"]}}, http.StatusNoContent)
	did("OWNER_CHANGED", "MEMBER", ids["Ben"], "Ben", "Ana made Ben the owner", "Ana")
	a.mustDo(t, req{Method: "DELETE", Path: plan + "/members/me", Token: f.ana}, http.StatusNoContent)
	did("MEMBER_LEFT", "MEMBER", ids["Ana"], "Ana", "Ana left the plan", "Ana")

	all := history[planMemberJSON](t, a, f.ben, plan+"/activity?size=100")
	checkHistory(t, all.Contents, planNickname, happened)
	if all.HasNext || all.Page != 0 || all.Size != 100 {
		t.Errorf("envelope: %+v", all)
	}
	if first := all.Contents[len(all.Contents)-1]; first.Actor == nil || first.Actor.PlanMemberID != ids["Ana"] || first.Actor.Role != "MEMBER" {
		t.Errorf("the first entry's actor is Ana as a member now: %+v", first.Actor)
	}

	// Pages of 4, newest first, add up to the whole history; past the end, nothing.
	var paged []activityJSON[planMemberJSON]
	for n := 0; ; n++ {
		p := history[planMemberJSON](t, a, f.ben, fmt.Sprintf("%s/activity?page=%d&size=4", plan, n))
		if len(p.Contents) > 4 || p.Page != n || p.Size != 4 {
			t.Fatalf("page %d: %+v", n, p)
		}
		paged = append(paged, p.Contents...)
		if !p.HasNext {
			break
		}
	}
	checkHistory(t, paged, planNickname, happened)
	if p := history[planMemberJSON](t, a, f.ben, plan+"/activity?page=50&size=4"); len(p.Contents) != 0 || p.HasNext {
		t.Errorf("past the end: %+v", p)
	}
	a.do(req{Method: "GET", Path: plan + "/activity?size=0", Token: f.ben}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")

	// Those who left or were removed read it no more; an unknown plan is not found.
	a.do(req{Method: "GET", Path: plan + "/activity", Token: f.eve}).problem(t, http.StatusForbidden, "FORBIDDEN_NOT_MEMBER")
	a.do(req{Method: "GET", Path: "/plans/" + strings.Repeat("x", 21) + "/activity", Token: f.ben}).problem(t, http.StatusNotFound, "PLAN_NOT_FOUND")

	// The plan goes with its history.
	a.mustDo(t, req{Method: "DELETE", Path: plan, Token: f.ben}, http.StatusNoContent)
	var left int
	if err := a.db.Get(&left, `SELECT count(*) FROM activities WHERE plan_id = $1`, f.plan.PlanID); err != nil || left != 0 {
		t.Fatalf("history of a deleted plan: %d rows (%v)", left, err)
	}
}

// TestNotificationsNameWhatChanged: notifications name the place or block and its day and time
// (docs/API.md §Activity), with the plan's title as it was, and what one member thinks of one
// candidate is one notification however often it changes.
func TestNotificationsNameWhatChanged(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	message := func(token, eventType string) string {
		t.Helper()
		got := a.notificationsOf(t, token, eventType)
		if len(got) != 1 {
			t.Fatalf("%s: %+v", eventType, got)
		}
		return got[0].Message
	}
	tb := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 2, "11:00", "12:00")))
	palace := tb.Candidates[0].BlockID
	if got := message(f.ben, "BLOCK_ADDED"); got != "Ana added Gyeongbokgung Palace to Day 2, 11:00 in Seoul trip" {
		t.Errorf("block added: %q", got)
	}
	both := decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + tb.TimeBlockID + "/candidates", Token: f.ben,
		Body: map[string]any{"collection_place_ids": []string{f.places[1].CollectionPlaceID}}}))
	a.mustDo(t, req{Method: "PATCH", Path: f.blocks + "/" + tb.TimeBlockID + "/selection", Token: f.ana,
		Body: map[string]any{"block_id": both.Candidates[1].BlockID}}, http.StatusOK)
	if got := message(f.ben, "CANDIDATE_CONFIRMED"); got != "Ana confirmed Gwangjang Market, which you proposed, for Day 2, 11:00 in Seoul trip" {
		t.Errorf("confirmed: %q", got)
	}

	// Ben's opinion of Ana's candidate, given, changed and taken back: one notification, updated.
	opinions := plan + "/blocks/" + palace + "/opinions"
	var op opinionJSON
	json.Unmarshal(a.mustDo(t, req{Method: "POST", Path: opinions, Token: f.ben, Body: map[string]any{"type": "POSITIVE"}}, http.StatusCreated).Body, &op)
	if got := message(f.ana, "OPINION_ADDED"); got != "Ben likes Gyeongbokgung Palace, which you proposed for Day 2, 11:00 in Seoul trip" {
		t.Errorf("opinion: %q", got)
	}
	a.mustDo(t, req{Method: "PUT", Path: opinions + "/" + op.OpinionID, Token: f.ben, Body: map[string]any{"type": "NEUTRAL", "comment": "crowded"}}, http.StatusOK)
	a.mustDo(t, req{Method: "DELETE", Path: opinions + "/" + op.OpinionID, Token: f.ben}, http.StatusNoContent)
	got := a.notificationsOf(t, f.ana, "OPINION_REMOVED")
	if len(got) != 1 || got[0].Count != 3 || len(a.notificationsOf(t, f.ana, "OPINION_ADDED"))+len(a.notificationsOf(t, f.ana, "OPINION_CHANGED")) != 0 ||
		got[0].Message != "Ben took back their opinion on Gyeongbokgung Palace, which you proposed for Day 2, 11:00 in Seoul trip" {
		t.Errorf("an opinion changed twice: %+v", got)
	}

	// Renamed, the plan's later notifications carry the new title; earlier ones keep theirs.
	a.mustDo(t, req{Method: "PUT", Path: plan, Token: f.ana, Body: map[string]any{"title": "Seoul in spring",
		"start_date": "2026-04-01", "end_date": "2026-04-03"}}, http.StatusOK)
	f.addExpense(t, map[string]any{"day": 1, "items": item("Taxi", 12000)})
	if got := message(f.ana, "EXPENSE_ADDED"); got != "Ben added an expense to Seoul in spring: Taxi, ₩12,000 (Day 1)" {
		t.Errorf("expense: %q", got)
	}
	a.mustDo(t, req{Method: "DELETE", Path: f.blocks + "/" + tb.TimeBlockID, Token: f.ana}, http.StatusNoContent)
	if got := message(f.ben, "BLOCK_REMOVED"); got != "Ana removed Gwangjang Market (Day 2, 11:00) from Seoul in spring" {
		t.Errorf("block removed: %q", got)
	}
	if got := message(f.ben, "BLOCK_ADDED"); got != "Ana added Gyeongbokgung Palace to Day 2, 11:00 in Seoul trip" {
		t.Errorf("the earlier notification: %q", got)
	}
	// The notifications page shows the same words.
	if page := a.page(t, a.signedInBrowser(t, "pf-ben", "Ben"), "/notifications"); !strings.Contains(page, "Ana removed Gwangjang Market (Day 2, 11:00) from Seoul in spring") {
		t.Errorf("the notifications page does not name the block:\n%s", page)
	}
}

// TestCollectionActivity: a collection's history holds its places added (one by one or from a
// link) and removed, and its members joining and leaving — also by withdrawing.
func TestCollectionActivity(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	col := "/collections/" + f.collection
	cp := func(i int) string { return f.places[i].CollectionPlaceID }
	// The fixture: Ben joined (by the store, not a link: no entry), then Ana added three places.
	happened := []entry{
		{"PLACE_ADDED", "COLLECTION_PLACE", cp(0), "Gyeongbokgung Palace", "Ana added Gyeongbokgung Palace to the collection", "Ana"},
		{"PLACE_ADDED", "COLLECTION_PLACE", cp(1), "Gwangjang Market", "Ana added Gwangjang Market to the collection", "Ana"},
		{"PLACE_ADDED", "COLLECTION_PLACE", cp(2), "N Seoul Tower", "Ana added N Seoul Tower to the collection", "Ana"},
	}
	a.mustDo(t, req{Method: "DELETE", Path: col + "/places/" + cp(2), Token: f.ben}, http.StatusNoContent)
	happened = append(happened, entry{"PLACE_REMOVED", "COLLECTION_PLACE", cp(2), "N Seoul Tower", "Ben removed N Seoul Tower from the collection", "Ben"})
	link := a.invite(f.ana, col)
	a.mustDo(t, req{Method: "GET", Path: strings.TrimPrefix(link.URL, a.http.URL), Token: f.eve}, http.StatusFound)
	var g memberGroupJSON[memberJSON]
	json.Unmarshal(a.mustDo(t, req{Method: "GET", Path: col + "/members", Token: f.eve}, http.StatusOK).Body, &g)
	eve := g.Me.CollectionMemberID
	if got := history[memberJSON](t, a, f.ben, col+"/activity?size=1").Contents[0]; got.Summary != "Eve joined the collection" || got.Target.Name != "Eve" {
		t.Errorf("joined: %+v", got)
	}
	// Withdrawing, Eve leaves, and the history calls her what her memberships are called now.
	a.mustDo(t, req{Method: "DELETE", Path: "/users/me", Token: f.eve, Body: map[string]any{"reason": "testing"}}, http.StatusNoContent)
	happened = append(happened,
		entry{"MEMBER_JOINED", "MEMBER", eve, "Withdrawn user", "Withdrawn user joined the collection", "Withdrawn user"},
		entry{"MEMBER_LEFT", "MEMBER", eve, "Withdrawn user", "Withdrawn user left the collection", "Withdrawn user"})

	got := history[memberJSON](t, a, f.ben, col+"/activity")
	checkHistory(t, got.Contents, func(m memberJSON) string { return m.Nickname }, happened)
	if got.Contents[0].Actor.CollectionMemberID != eve {
		t.Errorf("a collection's actors are collection members: %+v", got.Contents[0].Actor)
	}
	if got := a.notificationsOf(t, f.ana, "PLACE_REMOVED"); len(got) != 1 || got[0].Message != "Ben removed N Seoul Tower from Seoul" {
		t.Errorf("Ana's notification: %+v", got)
	}
	a.do(req{Method: "GET", Path: col + "/activity", Token: a.member("ca-stranger", "Sam")}).problem(t, http.StatusForbidden, "FORBIDDEN_NOT_MEMBER")
}

// TestActivityPanel: the plan page has an Activity button and its dialog; the panel (the htmx
// partial of the history's first page) lists the sentences with who and when, reloads its list
// on the plan's live updates, and offers "More", which loads the next page's entries alone.
func TestActivityPanel(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	for i := range 3 {
		decodeBlock(t, f.add(f.ben, map[string]any{"type": "FREE", "day": 1, "start_time": fmtClock(9*60 + i*60), "end_time": fmtClock(9*60 + i*60 + 30)}))
	}
	b := a.signedInBrowser(t, "pf-ana", "Ana")
	page := a.page(t, b, plan)
	for _, want := range []string{`hx-get="` + plan + `/activity"`, `hx-target="#activity-body"`, `id="activity-dialog"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the plan page lacks %s", want)
		}
	}
	panel := fragment(t, a.htmx(b, "GET", plan+"/activity?size=2", ""), http.StatusOK)
	for _, want := range []string{"Activity", "Ben added free time to Day 1, 11:00", "Ben added free time to Day 1, 10:00", "just now",
		`id="activity-list"`, `hx-trigger="sse:plan, sse:member, sse:block, sse:candidate, sse:opinion, sse:expense"`,
		`hx-get="` + plan + `/activity?page=1&amp;size=2"`, ">More<", "data-close-dialog"} {
		if !strings.Contains(panel, want) {
			t.Errorf("the panel lacks %s:\n%s", want, panel)
		}
	}
	if strings.Contains(panel, "Day 1, 09:00") {
		t.Errorf("the first page of two shows the third entry:\n%s", panel)
	}
	more := fragment(t, a.htmx(b, "GET", plan+"/activity?page=1&size=2", ""), http.StatusOK)
	if !strings.Contains(more, "Ben added free time to Day 1, 09:00") || strings.Contains(more, "activity-list") || strings.Contains(more, ">More<") {
		t.Errorf("the next page:\n%s", more)
	}
}
