package web

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// joinCollection makes the user with providerID a MEMBER of the collection (the invite flow
// arrives with the sharing issue) and returns the collection member id.
func (a *testApp) joinCollection(collectionID, providerID string) string {
	a.t.Helper()
	var id string
	if err := a.db.Get(&id, `
		INSERT INTO collection_members (id, collection_id, user_id, role, nickname)
		SELECT substr(md5(random()::text), 1, 21), $1, id, 'MEMBER', nickname FROM users WHERE provider_id = $2
		RETURNING id`, collectionID, providerID); err != nil {
		a.t.Fatal(err)
	}
	return id
}

func (a *testApp) placeID(token, query string) string {
	a.t.Helper()
	found := a.search(token, query)
	if len(found) == 0 {
		a.t.Fatalf("no place for %q", query)
	}
	return found[0].PlaceID
}

func (a *testApp) addPlace(token, collectionID, placeID string) collectionPlaceJSON {
	a.t.Helper()
	res := a.do(req{Method: "POST", Path: "/collections/" + collectionID + "/places", Token: token, Body: map[string]string{"place_id": placeID}})
	if res.Status != http.StatusCreated {
		a.t.Fatalf("add place: %d %s", res.Status, res.Body)
	}
	var cp collectionPlaceJSON
	json.Unmarshal(res.Body, &cp)
	return cp
}

func TestCollectionPlaces(t *testing.T) {
	a := newTestApp(t)
	a.loadCatalog()
	ana, ben, eve := a.member("cp-ana", "Ana"), a.member("cp-ben", "Ben"), a.member("cp-eve", "Eve")
	col := a.createCollection(ana, "Seoul")
	benMember := a.joinCollection(col.CollectionID, "cp-ben")
	base := "/collections/" + col.CollectionID + "/places"

	palace := a.addPlace(ana, col.CollectionID, a.placeID(ana, "Gyeongbokgung Palace"))
	if palace.Place.Name != "Gyeongbokgung Palace" || palace.AddedBy.Nickname != "Ana" || palace.AddedBy.Role != "OWNER" ||
		palace.Memo != nil || palace.PickPass.MyPreference != "NOTHING" || palace.PickPass.Picked.Members == nil {
		t.Fatalf("added: %+v", palace)
	}
	market := a.addPlace(ben, col.CollectionID, a.placeID(ben, "Gwangjang Market"))
	a.addPlace(ben, col.CollectionID, a.placeID(ben, "N Seoul Tower"))

	// Duplicates, unknown places, bad bodies, outsiders.
	a.do(req{Method: "POST", Path: base, Token: ben, Body: map[string]string{"place_id": palace.Place.PlaceID}}).problem(t, http.StatusConflict, "COLLECTION_PLACE_ALREADY_EXISTS")
	a.do(req{Method: "POST", Path: base, Token: ana, Body: map[string]string{"place_id": "AAAAAAAAAAAAAAAAAAAAA"}}).problem(t, http.StatusNotFound, "PLACE_NOT_FOUND")
	a.do(req{Method: "POST", Path: base, Token: ana, Body: map[string]string{}}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	a.do(req{Method: "POST", Path: base, Token: eve, Body: map[string]string{"place_id": palace.Place.PlaceID}}).problem(t, http.StatusForbidden, "FORBIDDEN_NOT_MEMBER")
	a.do(req{Method: "GET", Path: base, Token: eve}).problem(t, http.StatusForbidden, "FORBIDDEN_NOT_MEMBER")

	// Pick and pass: the same type again removes it, the other type switches.
	pref := func(token, cpID, typ string) pickPassJSON {
		res := a.do(req{Method: "POST", Path: base + "/" + cpID + "/preference?type=" + typ, Token: token})
		if res.Status != 200 {
			t.Fatalf("preference %s: %d %s", typ, res.Status, res.Body)
		}
		var pp pickPassJSON
		json.Unmarshal(res.Body, &pp)
		return pp
	}
	if pp := pref(ana, market.CollectionPlaceID, "PICK"); pp.Picked.Count != 1 || pp.MyPreference != "PICK" || pp.Picked.Members[0].Nickname != "Ana" {
		t.Fatalf("ana picks: %+v", pp)
	}
	if pp := pref(ben, market.CollectionPlaceID, "PASS"); pp.Picked.Count != 1 || pp.Passed.Count != 1 || pp.MyPreference != "PASS" || pp.Passed.Members[0].CollectionMemberID != benMember {
		t.Fatalf("ben passes: %+v", pp)
	}
	if pp := pref(ben, market.CollectionPlaceID, "PICK"); pp.Picked.Count != 2 || pp.Passed.Count != 0 || pp.MyPreference != "PICK" {
		t.Fatalf("ben switches: %+v", pp)
	}
	if pp := pref(ana, market.CollectionPlaceID, "PICK"); pp.Picked.Count != 1 || pp.MyPreference != "NOTHING" {
		t.Fatalf("ana removes: %+v", pp)
	}
	a.do(req{Method: "POST", Path: base + "/" + market.CollectionPlaceID + "/preference?type=LOVE", Token: ana}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	a.do(req{Method: "POST", Path: base + "/AAAAAAAAAAAAAAAAAAAAA/preference?type=PICK", Token: ana}).problem(t, http.StatusNotFound, "COLLECTION_PLACE_NOT_FOUND")

	// Listing: newest first by default, with each viewer's own preference.
	list := func(token, query string) pageJSON[collectionPlaceJSON] {
		res := a.do(req{Method: "GET", Path: base + query, Token: token})
		if res.Status != 200 {
			t.Fatalf("list %s: %d %s", query, res.Status, res.Body)
		}
		var p pageJSON[collectionPlaceJSON]
		json.Unmarshal(res.Body, &p)
		return p
	}
	all := list(ana, "")
	if len(all.Contents) != 3 || all.Contents[0].Place.Name != "N Seoul Tower" || all.Contents[2].Place.Name != "Gyeongbokgung Palace" {
		t.Fatalf("default order: %+v", all.Contents)
	}
	if m := list(ben, "?sort=OLDEST").Contents[1]; m.Place.Name != "Gwangjang Market" || m.PickPass.MyPreference != "PICK" || m.PickPass.Picked.Count != 1 {
		t.Fatalf("ben's view of the market: %+v", m)
	}
	if byBen := list(ana, "?addedByMemberId="+benMember); len(byBen.Contents) != 2 {
		t.Fatalf("added_by filter (camelCase alias): %d", len(byBen.Contents))
	}
	if paged := list(ana, "?size=2&page=1"); len(paged.Contents) != 1 || paged.HasNext {
		t.Fatalf("page 1 of size 2: %+v", paged)
	}
	a.do(req{Method: "GET", Path: base + "?sort=RANDOM", Token: ana}).problem(t, http.StatusBadRequest, "INVALID_SORT_TYPE")

	// Memo: set, too long, cleared with null; the update moves it first in UPDATED_AT_DESC.
	memoPath := base + "/" + palace.CollectionPlaceID + "/memo"
	if res := a.do(req{Method: "PATCH", Path: memoPath, Token: ben, Body: map[string]string{"memo": "Rent a hanbok"}}); res.Status != 204 {
		t.Fatalf("memo: %d %s", res.Status, res.Body)
	}
	if first := list(ana, "?sort=UPDATED_AT_DESC").Contents[0]; first.Memo == nil || *first.Memo != "Rent a hanbok" {
		t.Fatalf("updated first: %+v", first)
	}
	a.do(req{Method: "PATCH", Path: memoPath, Token: ben, Body: map[string]string{"memo": strings.Repeat("메", 301)}}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	a.do(req{Method: "PATCH", Path: memoPath, Token: ben, Body: `{"memo": null}`})
	detail := a.do(req{Method: "GET", Path: base + "/" + palace.CollectionPlaceID, Token: ana})
	if d := detail.json(t); detail.Status != 200 || d["memo"] != nil || d["social_media"] != nil || !strings.Contains(string(detail.Body), `"social_media":null`) {
		t.Fatalf("detail: %d %s", detail.Status, detail.Body)
	}

	// Delete; then it is gone, and a place id of another collection is not found here.
	if res := a.do(req{Method: "DELETE", Path: base + "/" + palace.CollectionPlaceID, Token: ben}); res.Status != 204 {
		t.Fatalf("delete: %d", res.Status)
	}
	a.do(req{Method: "GET", Path: base + "/" + palace.CollectionPlaceID, Token: ana}).problem(t, http.StatusNotFound, "COLLECTION_PLACE_NOT_FOUND")
	a.do(req{Method: "DELETE", Path: base + "/" + palace.CollectionPlaceID, Token: ana}).problem(t, http.StatusNotFound, "COLLECTION_PLACE_NOT_FOUND")
	other := a.createCollection(eve, "Eve's")
	evePlace := a.addPlace(eve, other.CollectionID, palace.Place.PlaceID)
	a.do(req{Method: "GET", Path: base + "/" + evePlace.CollectionPlaceID, Token: ana}).problem(t, http.StatusNotFound, "COLLECTION_PLACE_NOT_FOUND")

	// Counts on the collection follow.
	if c := a.do(req{Method: "GET", Path: "/collections/" + col.CollectionID, Token: ana}).json(t); c["place_count"] != 2.0 || c["member_count"] != 2.0 {
		t.Fatalf("collection counts: %v", c)
	}
}

// TestListingCollectionPlacesHasAQueryBudget: four statements per page, whatever its size
// (membership, the page with places and authors, the page's picks and passes; the reader's
// language setting).
func TestListingCollectionPlacesHasAQueryBudget(t *testing.T) {
	a := newTestApp(t)
	a.loadCatalog()
	ana := a.member("qb-ana", "Ana")
	ben := a.member("qb-ben", "Ben")
	col := a.createCollection(ana, "Budget")
	a.joinCollection(col.CollectionID, "qb-ben")
	for _, q := range []string{"Kyoto", "Osaka", "Tokyo"} {
		for _, p := range a.search(ana, q) {
			cp := a.addPlace(ana, col.CollectionID, p.PlaceID)
			a.do(req{Method: "POST", Path: "/collections/" + col.CollectionID + "/places/" + cp.CollectionPlaceID + "/preference?type=PICK", Token: ben})
		}
	}
	for _, size := range []int{1, 5, 20} {
		a.queries.Reset()
		res := a.do(req{Method: "GET", Path: "/collections/" + col.CollectionID + "/places?size=" + strconv.Itoa(size), Token: ana})
		if res.Status != 200 {
			t.Fatalf("list: %d %s", res.Status, res.Body)
		}
		// Ana's language setting (the language of the places' category names, docs/API.md
		// §Languages) is read with every answer (postgres.DB.Language).
		if n := a.queries.Count(); n != 4 {
			t.Errorf("a page of %d ran %d statements, budget 4", size, n)
		}
	}
}
