package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestGuestExportHoldsOnlyWhatGuestsRead: a guest's export.json is the plan as the guest's
// routes show it. The linked collections are for members (GET …/collections refuses guests),
// so a guest's backup lists none, while a member's lists them.
func TestGuestExportHoldsOnlyWhatGuestsRead(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	guest := a.guestOf(t, a.invite(f.ana, plan))
	a.do(req{Method: "GET", Path: plan + "/collections", Client: guest, Header: map[string]string{"Accept": "application/json"}}).problem(t, 403, "GUEST_FORBIDDEN")

	export := func(rq req) (planExportJSON, string) {
		rq.Method, rq.Path = "GET", plan+"/export.json"
		res := a.do(rq)
		var x planExportJSON
		if err := json.Unmarshal(res.Body, &x); err != nil || res.Status != http.StatusOK {
			t.Fatalf("export: %d %v %.200s", res.Status, err, res.Body)
		}
		return x, string(res.Body)
	}
	members, _ := export(req{Token: f.ben})
	if len(members.Collections) != 1 || members.Collections[0].CollectionID != f.collection {
		t.Fatalf("a member's export: collections %+v", members.Collections)
	}
	guests, body := export(req{Client: guest})
	if guests.Collections == nil || len(guests.Collections) != 0 || strings.Contains(body, f.collection) {
		t.Fatalf("a guest's export holds the linked collections: %s", body)
	}
	// What guests may read is all there.
	if len(guests.Members) != 2 || len(guests.Days) != 3 || len(guests.Days[0].Blocks) != 1 || guests.Plan.PlanID != f.plan.PlanID {
		t.Fatalf("a guest's export: %+v", guests)
	}
}

// TestManualPlacesAreReadOnlyThroughTheirPlans: a place typed into a plan is readable only
// through the plans that hold it. Naming it by id elsewhere — a block or candidate of another
// plan, a collection — is PLACE_NOT_FOUND, as if it did not exist, so an outsider who learns
// its id cannot read it by copying it somewhere they can read. The plan that holds it may
// use it again.
func TestManualPlacesAreReadOnlyThroughTheirPlans(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	tb := decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/manual", Token: f.ana, Body: map[string]any{
		"day": 1, "start_time": "09:00", "end_time": "10:00", "manual_place": map[string]string{"name": "Grandma's house", "address": "12 Quiet Lane"}}}))
	manual := tb.Candidates[0].Place.PlaceID

	// Eve, in none of Ana's plans, tries every route that takes a place id.
	evePlan := "/plans/" + a.createPlan(f.eve, "Eve's", "2026-04-01", "2026-04-02").PlanID
	eveCol := "/collections/" + a.createCollection(f.eve, "Eve's").CollectionID
	tower := a.placeID(f.eve, "N Seoul Tower")
	own := decodeBlock(t, a.do(req{Method: "POST", Path: evePlan + "/blocks/by-place", Token: f.eve,
		Body: map[string]any{"place_id": tower, "day": 1, "start_time": "09:00", "end_time": "10:00"}}))
	a.do(req{Method: "POST", Path: evePlan + "/blocks/by-place", Token: f.eve,
		Body: map[string]any{"place_id": manual, "day": 1, "start_time": "11:00", "end_time": "12:00"}}).problem(t, 404, "PLACE_NOT_FOUND")
	a.do(req{Method: "POST", Path: evePlan + "/blocks/" + own.TimeBlockID + "/candidates", Token: f.eve,
		Body: map[string]any{"place_ids": []string{manual}}}).problem(t, 404, "PLACE_NOT_FOUND")
	a.do(req{Method: "POST", Path: eveCol + "/places", Token: f.eve, Body: map[string]any{"place_id": manual}}).problem(t, 404, "PLACE_NOT_FOUND")
	a.do(req{Method: "GET", Path: f.blocks + "/" + tb.Candidates[0].BlockID, Token: f.eve}).problem(t, 403, "FORBIDDEN_NOT_MEMBER")
	for _, path := range []string{evePlan + "/blocks?day=1", evePlan + "/export.json", eveCol + "/places"} {
		if res := a.do(req{Method: "GET", Path: path, Token: f.eve}); res.Status != http.StatusOK || strings.Contains(string(res.Body), "Grandma") {
			t.Errorf("%s: %d %s", path, res.Status, res.Body)
		}
	}

	// Ana's plan holds it: it may be a candidate again there. Collections hold no typed-in places.
	decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/by-place", Token: f.ben,
		Body: map[string]any{"place_id": manual, "day": 2, "start_time": "09:00", "end_time": "10:00"}}))
	a.do(req{Method: "POST", Path: "/collections/" + f.collection + "/places", Token: f.ana,
		Body: map[string]any{"place_id": manual}}).problem(t, 404, "PLACE_NOT_FOUND")
}
