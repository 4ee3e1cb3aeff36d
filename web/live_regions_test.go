package web

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// htmxGet asks for a partial as htmx does, with the token's session.
func (a *testApp) htmxGet(token, path string) response {
	a.t.Helper()
	return a.do(req{Method: "GET", Path: path, Token: token, Header: map[string]string{"Accept": "text/html", "HX-Request": "true"}})
}

// TestPlanHeaderPartial: GET /plans/{p}/header is the plan page's header as its live reload
// asks for it — the title, dates, destination and members as they are now, the owner's
// actions only for the owner — marked as a live region that reloads on the plan's and its
// members' events and keeps the presence strip.
func TestPlanHeaderPartial(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID

	header := fragment(t, a.htmxGet(f.ben, plan+"/header"), http.StatusOK)
	for _, want := range []string{`id="plan-header"`, `data-live-reload`, `hx-get="` + plan + `/header"`, `hx-trigger="sse:plan, sse:member"`,
		`hx-select="#plan-header > *"`, "Seoul trip", "Apr 1 – Apr 3, 2026", "2 members", `id="presence"`, `hx-preserve`} {
		if !strings.Contains(header, want) {
			t.Errorf("Ben's header lacks %q:\n%s", want, header)
		}
	}
	if strings.Contains(header, `hx-delete="`+plan+`"`) {
		t.Error("Ben's header offers to delete the plan: only its owner may")
	}
	if owners := fragment(t, a.htmxGet(f.ana, plan+"/header"), http.StatusOK); !strings.Contains(owners, `hx-delete="`+plan+`"`) {
		t.Error("Ana's header has no Delete: she owns the plan")
	}

	// What another member changes is what the next reload shows.
	if res := a.do(req{Method: "PUT", Path: plan, Token: f.ben, Body: map[string]any{"title": "Seoul in spring",
		"start_date": "2026-04-01", "end_date": "2026-04-04", "confirm": true}}); res.Status != http.StatusOK {
		t.Fatalf("rename: %d %s", res.Status, res.Body)
	}
	a.joinPlan(f.plan.PlanID, "pf-eve")
	header = fragment(t, a.htmxGet(f.ana, plan+"/header"), http.StatusOK)
	for _, want := range []string{"Seoul in spring", "Apr 1 – Apr 4, 2026", "3 members", `title="Eve"`} {
		if !strings.Contains(header, want) {
			t.Errorf("after Ben's change and Eve's joining, the header lacks %q:\n%s", want, header)
		}
	}

	// A guest reads it without the members' actions; an outsider is refused.
	guest := a.guestOf(t, a.invite(f.ana, plan))
	res := a.do(req{Method: "GET", Path: plan + "/header", Client: guest, Header: map[string]string{"Accept": "text/html", "HX-Request": "true"}})
	if g := fragment(t, res, http.StatusOK); !strings.Contains(g, "Seoul in spring") || !strings.Contains(g, `class="flex flex-wrap items-center gap-2 hidden"`) {
		t.Errorf("a guest's header should show the plan with the members' actions hidden:\n%s", g)
	}
	outsider := a.member("lr-out", "Olly")
	a.do(req{Method: "GET", Path: plan + "/header", Token: outsider}).problem(t, http.StatusForbidden, "FORBIDDEN_NOT_MEMBER")
}

// TestPlacesPanelPartial: GET /plans/{p}/panel?collection= is the whole places panel with the
// chosen linked collection's places; a collection that is not (or no longer) linked falls back
// to the first linked one, so a live reload after an unlink still shows a panel.
func TestPlacesPanelPartial(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	paris := a.createCollection(f.ben, "Ben's Paris")
	if res := a.do(req{Method: "POST", Path: plan + "/collections", Token: f.ben, Body: map[string]any{"collection_ids": []string{paris.CollectionID}}}); res.Status != http.StatusCreated {
		t.Fatalf("link: %d %s", res.Status, res.Body)
	}
	a.addPlace(f.ben, paris.CollectionID, a.placeID(f.ben, "Eiffel Tower"))

	selected := regexp.MustCompile(`<option value="([^"]+)" selected>`)
	panel := fragment(t, a.htmxGet(f.ben, plan+"/panel?collection="+paris.CollectionID), http.StatusOK)
	if m := selected.FindStringSubmatch(panel); m == nil || m[1] != paris.CollectionID || !strings.Contains(panel, `data-place-name="Eiffel Tower"`) ||
		strings.Contains(panel, `data-place-name="Gwangjang Market"`) {
		t.Fatalf("the panel of Ben's Paris:\n%s", panel)
	}
	for _, want := range []string{`id="places-panel-body"`, `data-live-reload`, `hx-trigger="sse:collections"`, `hx-include="this"`, `id="panel-places"`} {
		if !strings.Contains(panel, want) {
			t.Errorf("the panel lacks %q", want)
		}
	}

	// Unlinked meanwhile: the panel shows the first linked collection instead.
	if res := a.do(req{Method: "DELETE", Path: plan + "/collections/" + paris.CollectionID, Token: f.ben}); res.Status != http.StatusNoContent {
		t.Fatalf("unlink: %d %s", res.Status, res.Body)
	}
	panel = fragment(t, a.htmxGet(f.ben, plan+"/panel?collection="+paris.CollectionID), http.StatusOK)
	if m := selected.FindStringSubmatch(panel); m == nil || m[1] != f.collection || !strings.Contains(panel, `data-place-name="Gwangjang Market"`) ||
		strings.Contains(panel, `data-place-name="Eiffel Tower"`) {
		t.Fatalf("after the unlink the panel should show Seoul:\n%s", panel)
	}
	// Ben's Paris is his to link again.
	if !strings.Contains(panel, `<option value="`+paris.CollectionID+`">Ben&#39;s Paris</option>`) {
		t.Errorf("the panel does not offer to link Ben's Paris again:\n%s", panel)
	}
	a.do(req{Method: "GET", Path: plan + "/panel", Token: f.eve}).problem(t, http.StatusForbidden, "FORBIDDEN_NOT_MEMBER")
}

// TestLinkedCollectionChangesReachThePlanStream: the plan's stream carries a "collections"
// event (id: the collection) when a place is added to or removed from a linked collection and
// when a linked collection is renamed (migration 00020), so the plan page's places panel
// reloads. Picks, and changes to a collection the plan does not link, send the plan nothing.
func TestLinkedCollectionChangesReachThePlanStream(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	stream := a.subscribe(t, plan+"/events", f.ana, "")
	change := func() sseEvent { // the next recorded change (presence comes and goes unrecorded)
		t.Helper()
		ev := stream.next(t, 5*time.Second)
		for ev.Event == "presence" {
			ev = stream.next(t, 5*time.Second)
		}
		return ev
	}
	next := func(what string) sseEvent {
		t.Helper()
		ev := change()
		if ev.Event != "collections" || ev.Data["id"] != f.collection || ev.Data["kind"] != "collections" || ev.ID == "" {
			t.Fatalf("after %s the plan's next event is %+v, want collections of %s", what, ev, f.collection)
		}
		return ev
	}

	// The fixture's own events may still be on their way: a change of the budget marks where
	// they end.
	a.mustDo(t, req{Method: "PATCH", Path: plan + "/budgets", Token: f.ana, Body: map[string]any{"type": "BUDGET", "total_budget": 500}}, http.StatusOK)
	for change().Event != "budget" {
	}

	cp := a.addPlace(f.ben, f.collection, a.placeID(f.ben, "Bukchon Hanok Village"))
	if ev := next("a place added"); ev.Data["actor"] != a.userID(f.ben) {
		t.Errorf("the event's actor is %q, want Ben", ev.Data["actor"])
	}
	// Neither a pick nor a place added to a collection the plan does not link reaches the plan:
	// the next event is the deletion's.
	a.mustDo(t, req{Method: "POST", Path: "/collections/" + f.collection + "/places/" + cp.CollectionPlaceID + "/preference?type=PICK", Token: f.ana}, http.StatusOK)
	other := a.createCollection(f.ana, "Not linked")
	a.addPlace(f.ana, other.CollectionID, a.placeID(f.ana, "Gyeongbokgung Palace"))
	a.mustDo(t, req{Method: "DELETE", Path: "/collections/" + f.collection + "/places/" + cp.CollectionPlaceID, Token: f.ben}, http.StatusNoContent)
	next("a place removed")
	a.mustDo(t, req{Method: "PUT", Path: "/collections/" + f.collection, Token: f.ben, Body: map[string]string{"title": "Seoul eats"}}, http.StatusOK)
	next("a rename")

	// A collection deleted while linked: its link goes, which the plan hears of once.
	a.mustDo(t, req{Method: "DELETE", Path: "/collections/" + f.collection, Token: f.ana}, http.StatusNoContent)
	next("the collection deleted")
	a.mustDo(t, req{Method: "PATCH", Path: plan + "/budgets", Token: f.ana, Body: map[string]any{"type": "BUDGET", "total_budget": 1000}}, http.StatusOK)
	if ev := change(); ev.Event != "budget" {
		t.Fatalf("after the deletion's one event the next is %+v, want the budget's", ev)
	}
}
