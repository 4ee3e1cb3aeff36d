package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func (a *testApp) createCollection(token, title string) collectionJSON {
	a.t.Helper()
	res := a.do(req{Method: "POST", Path: "/collections", Token: token, Body: map[string]string{"title": title}})
	if res.Status != http.StatusCreated {
		a.t.Fatalf("create collection %q: %d %s", title, res.Status, res.Body)
	}
	var c collectionJSON
	if err := json.Unmarshal(res.Body, &c); err != nil {
		a.t.Fatal(err)
	}
	if res.Header.Get("Location") != "/collections/"+c.CollectionID {
		a.t.Fatalf("Location = %q", res.Header.Get("Location"))
	}
	return c
}

func TestCreateAndGetCollection(t *testing.T) {
	a := newTestApp(t)
	ana, ben := a.member("col-ana", "Ana"), a.member("col-ben", "Ben")
	c := a.createCollection(ana, "  Kyoto eats  ")
	type createdShape struct {
		Title                   string
		MemberCount, PlaceCount int
		Thumbnail               *string
		IDLength                int
	}
	if diff := cmp.Diff(createdShape{Title: "Kyoto eats", MemberCount: 1, IDLength: 21},
		createdShape{Title: c.Title, MemberCount: c.MemberCount, PlaceCount: c.PlaceCount, Thumbnail: c.Thumbnail, IDLength: len(c.CollectionID)}); diff != "" {
		t.Fatalf("created (-want +got):\n%s", diff)
	}
	res := a.do(req{Method: "GET", Path: "/collections/" + c.CollectionID, Token: ana})
	if res.Status != 200 || !strings.Contains(string(res.Body), `"thumbnail":null`) {
		t.Fatalf("get: %d %s", res.Status, res.Body)
	}
	// Another user is not a member; unknown and malformed ids are not found.
	a.do(req{Method: "GET", Path: "/collections/" + c.CollectionID, Token: ben}).problem(t, http.StatusForbidden, "FORBIDDEN_NOT_MEMBER")
	a.do(req{Method: "GET", Path: "/collections/AAAAAAAAAAAAAAAAAAAAA", Token: ana}).problem(t, http.StatusNotFound, "COLLECTION_NOT_FOUND")
	a.do(req{Method: "GET", Path: "/collections/x", Token: ana}).problem(t, http.StatusNotFound, "COLLECTION_NOT_FOUND")
	a.do(req{Method: "GET", Path: "/collections/" + c.CollectionID}).problem(t, http.StatusUnauthorized, "MISSING_TOKEN")

	for _, bad := range []string{"", "   ", strings.Repeat("가", 51)} {
		p := a.do(req{Method: "POST", Path: "/collections", Token: ana, Body: map[string]string{"title": bad}}).
			problem(t, http.StatusBadRequest, "INVALID_REQUEST")
		if !strings.Contains(fmt.Sprint(p["errors"]), "title") {
			t.Fatalf("title %q: %v", bad, p)
		}
	}
	if got := a.createCollection(ana, strings.Repeat("가", 50)); got.Title != strings.Repeat("가", 50) {
		t.Fatal("50 Korean characters refused")
	}
}

func TestListCollectionsPagingAndSort(t *testing.T) {
	a := newTestApp(t)
	ana, ben := a.member("list-ana", "Ana"), a.member("list-ben", "Ben")
	var titles []string
	for i := range 5 {
		titles = append(titles, a.createCollection(ana, fmt.Sprintf("Trip %d", i)).Title)
	}
	a.createCollection(ben, "Ben's own")
	list := func(query string) pageJSON[collectionJSON] {
		res := a.do(req{Method: "GET", Path: "/collections" + query, Token: ana})
		if res.Status != 200 {
			t.Fatalf("list %s: %d %s", query, res.Status, res.Body)
		}
		var p pageJSON[collectionJSON]
		json.Unmarshal(res.Body, &p)
		return p
	}
	first := list("?size=2")
	type pageShape struct {
		Contents, Page, Size int
		HasNext              bool
		FirstTitle           string
	}
	gotFirst := pageShape{Contents: len(first.Contents), Page: first.Page, Size: first.Size, HasNext: first.HasNext}
	if len(first.Contents) > 0 {
		gotFirst.FirstTitle = first.Contents[0].Title
	}
	if diff := cmp.Diff(pageShape{Contents: 2, Page: 0, Size: 2, HasNext: true, FirstTitle: "Trip 4"}, gotFirst); diff != "" {
		t.Fatalf("first page (-want +got):\n%s", diff)
	}
	last := list("?size=2&page=2")
	if len(last.Contents) != 1 || last.HasNext || last.Contents[0].Title != "Trip 0" {
		t.Fatalf("last page: %+v", last)
	}
	asc := list("?sortType=CREATED_AT_ASC")
	var ascTitles []string
	for _, c := range asc.Contents {
		ascTitles = append(ascTitles, c.Title)
	}
	if !slices.Equal(ascTitles, titles) || asc.Size != 20 {
		t.Fatalf("oldest first (camelCase alias): %q, want %q (%+v)", ascTitles, titles, asc)
	}
	if clamped := list("?size=1000"); clamped.Size != 100 {
		t.Fatalf("size 1000 → %d, want 100", clamped.Size)
	}
	if empty := list("?page=9"); len(empty.Contents) != 0 || empty.HasNext || !strings.Contains(string(a.do(req{Method: "GET", Path: "/collections?page=9", Token: ana}).Body), `"contents":[]`) {
		t.Fatalf("page past the end: %+v", empty)
	}
	a.do(req{Method: "GET", Path: "/collections?sort=NAME", Token: ana}).problem(t, http.StatusBadRequest, "INVALID_SORT_TYPE")
	for _, q := range []string{"?page=-1", "?size=0", "?size=abc", "?page=x"} {
		a.do(req{Method: "GET", Path: "/collections" + q, Token: ana}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	}
}

func TestRenameAndDeleteCollection(t *testing.T) {
	a := newTestApp(t)
	ana, ben := a.member("rd-ana", "Ana"), a.member("rd-ben", "Ben")
	c := a.createCollection(ana, "Old name")
	path := "/collections/" + c.CollectionID
	res := a.do(req{Method: "PUT", Path: path, Token: ana, Body: map[string]string{"title": "New name"}})
	if res.Status != 200 || res.json(t)["title"] != "New name" {
		t.Fatalf("rename: %d %s", res.Status, res.Body)
	}
	a.do(req{Method: "PUT", Path: path, Token: ana, Body: map[string]string{"title": ""}}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
	a.do(req{Method: "PUT", Path: path, Token: ben, Body: map[string]string{"title": "Hijack"}}).problem(t, http.StatusForbidden, "FORBIDDEN_NOT_MEMBER")
	a.do(req{Method: "DELETE", Path: path, Token: ben}).problem(t, http.StatusForbidden, "FORBIDDEN_NOT_MEMBER")

	// A member who is not the owner cannot delete it.
	var collectionMember string
	if err := a.db.Get(&collectionMember, `
		INSERT INTO collection_members (id, collection_id, user_id, role, nickname)
		SELECT 'benmemberbenmemberben', $1, id, 'MEMBER', nickname FROM users WHERE provider_id = 'rd-ben'
		RETURNING id`, c.CollectionID); err != nil {
		t.Fatal(err)
	}
	a.do(req{Method: "DELETE", Path: path, Token: ben}).problem(t, http.StatusForbidden, "FORBIDDEN_NOT_OWNER")
	if res := a.do(req{Method: "DELETE", Path: path, Token: ana}); res.Status != http.StatusNoContent {
		t.Fatalf("owner delete: %d %s", res.Status, res.Body)
	}
	a.do(req{Method: "GET", Path: path, Token: ana}).problem(t, http.StatusNotFound, "COLLECTION_NOT_FOUND")
}

func TestCollectionPlansAreTheLinkedPlansTheCallerSees(t *testing.T) {
	a := newTestApp(t)
	a.loadCatalog()
	if _, err := a.db.SeedDemo(t.Context()); err != nil {
		t.Fatal(err)
	}
	ana := a.login("demo-ana", "Ana").AccessToken
	var collectionID string
	if err := a.db.Get(&collectionID, `SELECT id FROM collections WHERE title = 'Seoul food & sights'`); err != nil {
		t.Fatal(err)
	}
	res := a.do(req{Method: "GET", Path: "/collections/" + collectionID + "/plans", Token: ana})
	if res.Status != 200 || !strings.Contains(string(res.Body), `"title":"Seoul weekend"`) {
		t.Fatalf("linked plans: %d %s", res.Status, res.Body)
	}
	// Ben is a member of the collection but, once he leaves the plan, does not see it.
	if _, err := a.db.Exec(`UPDATE plan_members SET left_at = now() WHERE nickname = 'Ben'`); err != nil {
		t.Fatal(err)
	}
	ben := a.login("demo-ben", "Ben").AccessToken
	if res := a.do(req{Method: "GET", Path: "/collections/" + collectionID + "/plans", Token: ben}); res.Status != 200 || string(res.Body) != "[]\n" {
		t.Fatalf("ben's linked plans: %d %q", res.Status, res.Body)
	}
	outsider := a.member("cpl-eve", "Eve")
	a.do(req{Method: "GET", Path: "/collections/" + collectionID + "/plans", Token: outsider}).problem(t, http.StatusForbidden, "FORBIDDEN_NOT_MEMBER")
}
