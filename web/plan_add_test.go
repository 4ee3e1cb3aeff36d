package web

import (
	"encoding/json"
	"net/http"
	"testing"
)

// linkedCollections lists the collections linked to a plan.
func (a *testApp) linkedCollections(token, planID string) []planCollectionJSON {
	a.t.Helper()
	res := a.do(req{Method: "GET", Path: "/plans/" + planID + "/collections", Token: token})
	var out []planCollectionJSON
	if err := json.Unmarshal(res.Body, &out); err != nil || res.Status != http.StatusOK {
		a.t.Fatalf("plan collections: %d %s", res.Status, res.Body)
	}
	return out
}

// TestSearchedPlaceJoinsThePlansOwnCollection: a plan with no collection yet can be planned
// from place search; with collect the place joins the plan's own collection, named after the
// plan, created and linked on first use and reused after, in the same transaction as the block
// or candidate (a failed add leaves no collection behind).
func TestSearchedPlaceJoinsThePlansOwnCollection(t *testing.T) {
	a := newTestApp(t)
	a.loadCatalog()
	ana, eve := a.member("own-ana", "Ana"), a.member("own-eve", "Eve")
	plan := a.createPlan(ana, "Seoul in spring", "2026-04-01", "2026-04-02")
	blocks := "/plans/" + plan.PlanID + "/blocks"
	palace, market, tower := a.placeID(ana, "Gyeongbokgung Palace"), a.placeID(ana, "Gwangjang Market"), a.placeID(ana, "N Seoul Tower")

	// Failures first: nothing may be left behind.
	a.do(req{Method: "POST", Path: blocks + "/by-place", Token: ana,
		Body: map[string]any{"place_id": "nope", "collect": true, "day": 1, "start_time": "10:00", "end_time": "11:00"}}).problem(t, 404, "PLACE_NOT_FOUND")
	a.do(req{Method: "POST", Path: blocks + "/by-place", Token: eve,
		Body: map[string]any{"place_id": palace, "collect": true, "day": 1, "start_time": "10:00", "end_time": "11:00"}}).problem(t, 403, "FORBIDDEN_NOT_MEMBER")
	if got := a.linkedCollections(ana, plan.PlanID); len(got) != 0 {
		t.Fatalf("a failed add linked %+v", got)
	}

	tb := decodeBlock(t, a.do(req{Method: "POST", Path: blocks + "/by-place", Token: ana,
		Body: map[string]any{"place_id": palace, "collect": true, "day": 1, "start_time": "10:00", "end_time": "11:00"}}))
	if tb.BlockStatus != "DIRECT" || tb.Candidates[0].Place.PlaceID != palace {
		t.Fatalf("block: %+v", tb)
	}
	linked := a.linkedCollections(ana, plan.PlanID)
	if len(linked) != 1 || linked[0].Title != "Seoul in spring" {
		t.Fatalf("own collection: %+v", linked)
	}
	own := linked[0].CollectionID

	// A second place and a candidate from search use the same collection; a place already in
	// it is not added twice.
	decodeBlock(t, a.do(req{Method: "POST", Path: blocks + "/by-place", Token: ana,
		Body: map[string]any{"place_id": market, "collect": true, "day": 1, "start_time": "12:00", "end_time": "13:00"}}))
	withTwo := decodeBlock(t, a.do(req{Method: "POST", Path: blocks + "/" + tb.TimeBlockID + "/candidates", Token: ana,
		Body: map[string]any{"place_ids": []string{tower}, "collect": true}}))
	if withTwo.CandidateCount != 2 || withTwo.BlockStatus != "PENDING" {
		t.Fatalf("candidate from search: %+v", withTwo)
	}
	decodeBlock(t, a.do(req{Method: "POST", Path: blocks + "/by-place", Token: ana,
		Body: map[string]any{"place_id": tower, "collect": true, "day": 2, "start_time": "09:00", "end_time": "10:00"}}))
	if linked := a.linkedCollections(ana, plan.PlanID); len(linked) != 1 {
		t.Fatalf("one own collection, got %+v", linked)
	}
	res := a.do(req{Method: "GET", Path: "/collections/" + own + "/places", Token: ana})
	var page struct {
		Contents []collectionPlaceJSON `json:"contents"`
	}
	if json.Unmarshal(res.Body, &page); res.Status != 200 || len(page.Contents) != 3 {
		t.Fatalf("own collection's places: %d %s", res.Status, res.Body)
	}

	// collect takes exactly one place; a FREE block takes none and creates nothing.
	a.do(req{Method: "POST", Path: blocks + "/" + tb.TimeBlockID + "/candidates", Token: ana,
		Body: map[string]any{"place_ids": []string{tower, market}, "collect": true}}).problem(t, 400, "INVALID_REQUEST")
	other := a.createPlan(ana, "Busan", "2026-05-01", "2026-05-01")
	free := decodeBlock(t, a.do(req{Method: "POST", Path: "/plans/" + other.PlanID + "/blocks", Token: ana,
		Body: map[string]any{"type": "FREE", "day": 1, "start_time": "09:00", "end_time": "10:00"}}))
	a.do(req{Method: "POST", Path: "/plans/" + other.PlanID + "/blocks/" + free.TimeBlockID + "/candidates", Token: ana,
		Body: map[string]any{"place_ids": []string{tower}, "collect": true}}).problem(t, 400, "CANNOT_ADD_CANDIDATE_TO_FREE_BLOCK")
	if got := a.linkedCollections(ana, other.PlanID); len(got) != 0 {
		t.Fatalf("a failed candidate linked %+v", got)
	}
}
