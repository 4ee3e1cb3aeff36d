package web

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
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

// TestPlaceChoicesOfferThePlansCollectionsThenSearch: "Add here" and "Add a candidate" offer
// the places of the plan's linked collections (all of them for no query, those whose name holds
// it otherwise), then places found by search that are not among them; members only.
func TestPlaceChoicesOfferThePlansCollectionsThenSearch(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	ben := a.signedInBrowser(t, "pf-ben", "Ben")
	path := "/plans/" + f.plan.PlanID + "/place-choices"

	all := fragment(t, a.htmx(ben, "GET", path, ""), http.StatusOK)
	for _, cp := range f.places {
		mustHave(t, all, `data-collection-place-id="`+cp.CollectionPlaceID+`"`)
	}
	if strings.Contains(all, "Found by search") {
		t.Errorf("an empty query searched: %s", all)
	}

	market := fragment(t, a.htmx(ben, "GET", path+"?query=market", ""), http.StatusOK)
	if n := count(market, `data-place-name="Gwangjang Market"`); n != 1 || !strings.Contains(market, `data-collection-place-id="`+f.places[1].CollectionPlaceID+`"`) {
		t.Errorf("Gwangjang Market offered %d times, want once, from the collection: %s", n, market)
	}
	if strings.Contains(market, "Gyeongbokgung") {
		t.Errorf("a place not matching the query offered: %s", market)
	}

	eiffel := fragment(t, a.htmx(ben, "GET", path+"?query=Eiffel", ""), http.StatusOK)
	mustHave(t, eiffel, "Found by search", `data-collection-place-id="" data-place-id="`+f.otherPlace.Place.PlaceID+`"`)

	none := fragment(t, a.htmx(ben, "GET", path+"?query=zzqqxx", ""), http.StatusOK)
	mustHave(t, none, "No places match")

	if res := a.htmx(ben, "GET", path+"?query="+strings.Repeat("a", 51), ""); res.Status != http.StatusBadRequest {
		t.Errorf("a 51-character query: %d", res.Status)
	}
	eve := a.signedInBrowser(t, "pf-eve", "Eve")
	if res := a.htmx(eve, "GET", path, ""); res.Status != http.StatusForbidden {
		t.Errorf("a stranger's choices: %d", res.Status)
	}
}

// TestAddingOnThePlanPageSaysWhatWasAdded: the plan page's answer to an add carries, out of
// band, the sentence for its live region and marks the block to bring into view; a candidate
// says which one it is.
func TestAddingOnThePlanPageSaysWhatWasAdded(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	ana := a.signedInBrowser(t, "pf-ana", "Ana")
	blocks := "/plans/" + f.plan.PlanID + "/blocks"

	day := fragment(t, a.htmx(ana, "POST", blocks+"/by-place", "place_id="+f.otherPlace.Place.PlaceID+"&collect=true&day=1&start_time=14:00&end_time=15:00"), http.StatusOK)
	mustHave(t, day, `<div id="plan-announce" hx-swap-oob="innerHTML">Added Eiffel Tower, day 1, 14:00–15:00</div>`, "data-just-added")
	tb := regexp.MustCompile(`data-time-block-id="([^"]+)"[^>]*data-just-added`).FindStringSubmatch(day)
	if tb == nil {
		t.Fatalf("no block marked as just added: %s", day)
	}
	for i, want := range []string{"Added Gwangjang Market as a 2nd candidate, day 1, 14:00–15:00", "Added N Seoul Tower as a 3rd candidate, day 1, 14:00–15:00"} {
		day = fragment(t, a.htmx(ana, "POST", blocks+"/"+tb[1]+"/candidates?day=1", "collection_place_ids="+f.places[i+1].CollectionPlaceID), http.StatusOK)
		mustHave(t, day, `hx-swap-oob="innerHTML">`+want+`</div>`)
	}
	day = fragment(t, a.htmx(ana, "POST", blocks+"/"+tb[1]+"/candidates?day=1", "collection_place_ids="+f.places[1].CollectionPlaceID), http.StatusOK)
	mustHave(t, day, `hx-swap-oob="innerHTML">Already a candidate, day 1, 14:00–15:00</div>`)

	// A live refresh of the day says nothing and marks nothing.
	refresh := fragment(t, a.htmx(ana, "GET", blocks+"?size=100&day=1", ""), http.StatusOK)
	if strings.Contains(refresh, "plan-announce") || strings.Contains(refresh, "data-just-added") {
		t.Errorf("a refresh of the day announces: %s", refresh)
	}
}

func TestOrdinal(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 23: "23rd", 101: "101st", 111: "111th"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}

func mustHave(t *testing.T, html string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(html, w) {
			t.Errorf("lacks %s in %s", w, html)
		}
	}
}

// TestPlaceChoicesCostTheSameHoweverManyCollections: "Add here" reads the places of every
// collection linked to the plan in one query, so linking more collections adds no statement,
// and a place held by several of them is offered once.
func TestPlaceChoicesCostTheSameHoweverManyCollections(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	ben := a.signedInBrowser(t, "pf-ben", "Ben")
	path := "/plans/" + f.plan.PlanID + "/place-choices?query=" + url.QueryEscape(f.otherPlace.Place.Name)
	statements := func() int {
		a.queries.Reset()
		fragment(t, a.htmx(ben, "GET", path, ""), http.StatusOK)
		return a.queries.Count()
	}
	before := statements()
	var ids []string
	for i := range 3 {
		c := a.createCollection(f.ana, fmt.Sprintf("More %d", i))
		a.addPlace(f.ana, c.CollectionID, f.otherPlace.Place.PlaceID)
		ids = append(ids, c.CollectionID)
	}
	if res := a.do(req{Method: "POST", Path: "/plans/" + f.plan.PlanID + "/collections", Token: f.ana, Body: map[string]any{"collection_ids": ids}}); res.Status != http.StatusCreated {
		t.Fatalf("link: %d %s", res.Status, res.Body)
	}
	if after := statements(); after != before {
		t.Errorf("GET place-choices ran %d statements with 4 linked collections, %d with 1", after, before)
	}
	html := fragment(t, a.htmx(ben, "GET", path, ""), http.StatusOK)
	if n := count(html, `data-place-name="`+f.otherPlace.Place.Name+`"`); n != 1 {
		t.Errorf("%s offered %d times, want once (it is in three linked collections): %s", f.otherPlace.Place.Name, n, html)
	}
}

// TestThePlansOwnCollectionIsTheSameForEveryoneAndEveryName: the plan remembers its own
// collection, so renaming the plan keeps it; every member adds to the same one (joining it, or
// rejoining after leaving it; someone its owner removed is refused); unlinked, it is linked
// again on use; deleted, the next use creates another. Concurrent first uses create one.
func TestThePlansOwnCollectionIsTheSameForEveryoneAndEveryName(t *testing.T) {
	a := newTestApp(t)
	a.loadCatalog()
	ana, ben := a.member("oc-ana", "Ana"), a.member("oc-ben", "Ben")
	plan := a.createPlan(ana, "Seoul in spring", "2026-04-01", "2026-04-02")
	a.joinPlan(plan.PlanID, "oc-ben")
	blocks := "/plans/" + plan.PlanID + "/blocks"
	places := a.catalogPlaces(t, 8)
	hour := 8
	add := func(token, placeID string) response {
		hour++
		return a.do(req{Method: "POST", Path: blocks + "/by-place", Token: token, Body: map[string]any{
			"place_id": placeID, "collect": true, "day": 1, "start_time": fmt.Sprintf("%02d:00", hour), "end_time": fmt.Sprintf("%02d:30", hour)}})
	}
	ownOf := func() string {
		t.Helper()
		var id sql.NullString
		if err := a.db.Get(&id, `SELECT own_collection_id FROM plans WHERE id = $1`, plan.PlanID); err != nil {
			t.Fatal(err)
		}
		return id.String
	}

	// Concurrent first uses by two members: one collection, linked once, both places in it.
	var wg sync.WaitGroup
	start := make(chan struct{})
	statuses := make([]int, 2)
	for i, token := range []string{ana, ben} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			res := a.do(req{Method: "POST", Path: blocks + "/by-place", Token: token, Body: map[string]any{
				"place_id": places[i], "collect": true, "day": 2, "start_time": fmt.Sprintf("%02d:00", 10+i), "end_time": fmt.Sprintf("%02d:30", 10+i)}})
			statuses[i] = res.Status
		}()
	}
	close(start)
	wg.Wait()
	if statuses[0] != http.StatusOK || statuses[1] != http.StatusOK {
		t.Fatalf("concurrent first uses: %v", statuses)
	}
	own := ownOf()
	linked := a.linkedCollections(ana, plan.PlanID)
	if own == "" || len(linked) != 1 || linked[0].CollectionID != own || linked[0].Title != "Seoul in spring" {
		t.Fatalf("own %q, linked %+v", own, linked)
	}
	countPlaces := func(collectionID string) int {
		t.Helper()
		var n int
		if err := a.db.Get(&n, `SELECT count(*) FROM collection_places WHERE collection_id = $1`, collectionID); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := countPlaces(own); n != 2 {
		t.Fatalf("own collection holds %d places, want 2", n)
	}

	// Renamed, the plan keeps its collection.
	if res := a.do(req{Method: "PUT", Path: "/plans/" + plan.PlanID, Token: ana, Body: map[string]any{
		"title": "Seoul and Busan", "start_date": "2026-04-01", "end_date": "2026-04-02"}}); res.Status != http.StatusOK {
		t.Fatalf("rename: %d %s", res.Status, res.Body)
	}
	if res := add(ben, places[2]); res.Status != http.StatusOK || ownOf() != own || countPlaces(own) != 3 {
		t.Fatalf("after a rename: %d, own %q (was %q), %d places", res.Status, ownOf(), own, countPlaces(own))
	}

	// Whoever of the two came second joined the collection; when they leave it, adding from
	// the plan brings them back in.
	owner, other := ana, ben
	var ownerProvider string
	if err := a.db.Get(&ownerProvider, `SELECT u.provider_id FROM collection_members cm JOIN users u ON u.id = cm.user_id
		WHERE cm.collection_id = $1 AND cm.role = 'OWNER'`, own); err != nil {
		t.Fatal(err)
	}
	if ownerProvider == "oc-ben" {
		owner, other = ben, ana
	}
	collection := "/collections/" + own
	if res := a.do(req{Method: "DELETE", Path: collection + "/members/me", Token: other}); res.Status != http.StatusNoContent {
		t.Fatalf("leave: %d %s", res.Status, res.Body)
	}
	if res := add(other, places[3]); res.Status != http.StatusOK || countPlaces(own) != 4 {
		t.Fatalf("after leaving: %d %s", res.Status, res.Body)
	}
	// Removed by the collection's owner, they are refused (and nothing is added).
	otherInCollection := a.myMemberID(t, other, collection, "collection_member_id")
	if res := a.do(req{Method: "DELETE", Path: collection + "/members/" + otherInCollection, Token: owner}); res.Status != http.StatusNoContent {
		t.Fatalf("remove: %d %s", res.Status, res.Body)
	}
	add(other, places[4]).problem(t, 403, "MEMBER_REMOVED")
	if n := countPlaces(own); n != 4 {
		t.Fatalf("a refused add left %d places", n)
	}

	// Unlinked, it is linked again on use.
	if res := a.do(req{Method: "DELETE", Path: "/plans/" + plan.PlanID + "/collections/" + own, Token: owner}); res.Status != http.StatusNoContent {
		t.Fatalf("unlink: %d %s", res.Status, res.Body)
	}
	if res := add(owner, places[5]); res.Status != http.StatusOK {
		t.Fatalf("after unlinking: %d %s", res.Status, res.Body)
	}
	if linked := a.linkedCollections(ana, plan.PlanID); len(linked) != 1 || linked[0].CollectionID != own {
		t.Fatalf("relinked: %+v", linked)
	}

	// Deleted, the next use creates another, named after the plan as it is now.
	if res := a.do(req{Method: "DELETE", Path: collection, Token: owner}); res.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", res.Status, res.Body)
	}
	if res := add(owner, places[6]); res.Status != http.StatusOK {
		t.Fatalf("after deleting: %d %s", res.Status, res.Body)
	}
	if linked := a.linkedCollections(ana, plan.PlanID); len(linked) != 1 || linked[0].CollectionID == own || linked[0].CollectionID != ownOf() || linked[0].Title != "Seoul and Busan" {
		t.Fatalf("a new own collection: %+v (own %q)", linked, ownOf())
	}
}
