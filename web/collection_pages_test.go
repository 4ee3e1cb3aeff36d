package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tripplan/static"
)

// signedInBrowser signs a user in with a cookie session and accepts the terms (unless done
// before), as the sign-in and onboarding pages do.
func (a *testApp) signedInBrowser(t testing.TB, providerID, nickname string) *http.Client {
	t.Helper()
	b := browser(t)
	if res := a.do(req{Method: "POST", Path: "/dev/auth/login", Client: b, Body: map[string]string{
		"provider": "GOOGLE", "provider_id": providerID, "nickname": nickname}}); res.Status != http.StatusOK {
		t.Fatalf("login: %d %s", res.Status, res.Body)
	}
	if res := a.do(req{Method: "PATCH", Path: "/users/me/terms", Client: b, Header: sameOrigin()}); res.Status != http.StatusOK && res.Status != http.StatusConflict {
		t.Fatalf("terms: %d %s", res.Status, res.Body)
	}
	return b
}

func sameOrigin() map[string]string { return map[string]string{"Sec-Fetch-Site": "same-origin"} }

// page asks for a full HTML page, as a browser navigating does.
func (a *testApp) page(t *testing.T, b *http.Client, path string) string {
	t.Helper()
	res := a.do(req{Method: "GET", Path: path, Client: b, Header: map[string]string{"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}})
	if res.Status != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET %s: %d %s\n%s", path, res.Status, res.Header.Get("Content-Type"), res.Body)
	}
	return string(res.Body)
}

// htmx sends a request the way htmx does: Accept text/html, HX-Request, same origin, and a
// form-encoded body.
func (a *testApp) htmx(b *http.Client, method, path, form string) response {
	a.t.Helper()
	h := map[string]string{"Accept": "text/html", "HX-Request": "true", "Sec-Fetch-Site": "same-origin"}
	var body any
	if form != "" {
		body, h["Content-Type"] = form, "application/x-www-form-urlencoded"
	}
	return a.do(req{Method: method, Path: path, Client: b, Header: h, Body: body})
}

// fragment checks an htmx answer is an HTML fragment (not a whole page) and returns it.
func fragment(t *testing.T, res response, status int) string {
	t.Helper()
	if res.Status != status || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("status %d (want %d), %s: %s", res.Status, status, res.Header.Get("Content-Type"), res.Body)
	}
	if strings.Contains(string(res.Body), "<html") {
		t.Fatalf("a partial must not be a whole page: %.200s", res.Body)
	}
	return string(res.Body)
}

func count(s, sub string) int { return strings.Count(s, sub) }

func TestCollectionPagesInABrowser(t *testing.T) {
	a := newTestApp(t, func(c *Config) {
		c.MapTileURL, c.MapTileAttribution = "https://tiles.test/{z}/{x}/{y}.png", "Test tiles"
	})
	a.loadCatalog()
	ana := a.signedInBrowser(t, "web-ana", "Ana")

	// The new-collection form posts form-encoded and lands on the collection page.
	res := a.do(req{Method: "POST", Path: "/collections", Client: ana, Body: "title=" + url.QueryEscape("<b>Seoul</b> eats"),
		Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html", "Sec-Fetch-Site": "same-origin"}})
	loc := res.Header.Get("Location")
	if res.Status != http.StatusSeeOther || !strings.HasPrefix(loc, "/collections/") {
		t.Fatalf("create: %d Location=%q %s", res.Status, loc, res.Body)
	}
	colID := strings.TrimPrefix(loc, "/collections/")
	if form := a.page(t, ana, "/collections/new"); !strings.Contains(form, `action="/collections"`) {
		t.Fatalf("new-collection form: %s", form)
	}

	page := a.page(t, ana, loc)
	if !strings.Contains(page, "&lt;b&gt;Seoul&lt;/b&gt; eats") || strings.Contains(page, "<b>Seoul</b>") {
		t.Fatal("the title must be escaped on the collection page")
	}
	for _, want := range []string{`id="place-query"`, `hx-get="/places/search"`, `id="place-list"`, "No places yet", `name="added_by"`} {
		if !strings.Contains(page, want) {
			t.Errorf("collection page lacks %s", want)
		}
	}
	if list := a.page(t, ana, "/collections"); !strings.Contains(list, "&lt;b&gt;Seoul&lt;/b&gt; eats") || !strings.Contains(list, "/collections/"+colID) {
		t.Errorf("collections page lacks the collection")
	}

	// Live search answers a fragment whose results add to this collection.
	results := fragment(t, a.htmx(ana, "GET", "/places/search?query=gyeongbokgung&collection_id="+colID, ""), http.StatusOK)
	if !strings.Contains(results, "Gyeongbokgung Palace") || !strings.Contains(results, `hx-post="/collections/`+colID+`/places"`) {
		t.Fatalf("search results: %s", results)
	}
	placeID := regexp.MustCompile(`name="place_id" value="([^"]+)"`).FindStringSubmatch(results)[1]

	// Adding from the results answers the new count, out of band, and asks the page to reload
	// its list (HX-Trigger), which then holds the new card once — whether or not the live
	// update of the same change reloaded it first.
	added := a.htmx(ana, "POST", "/collections/"+colID+"/places", "place_id="+placeID)
	if body := fragment(t, added, http.StatusCreated); !strings.Contains(body, `id="place-count" hx-swap-oob="true"`) || !strings.Contains(body, "1 place") ||
		strings.Contains(body, "Gyeongbokgung") || added.Header.Get("HX-Trigger") != "places-changed" {
		t.Errorf("add answer: %q %s", added.Header.Get("HX-Trigger"), body)
	}
	if !strings.Contains(a.page(t, ana, "/collections/"+colID), `hx-trigger="sse:place, sse:preference, places-changed from:body"`) {
		t.Error("the place list does not reload on places-changed")
	}
	card := fragment(t, a.htmx(ana, "GET", "/collections/"+colID+"/places", ""), http.StatusOK)
	for _, want := range []string{"Gyeongbokgung Palace", "Added by"} {
		if !strings.Contains(card, want) || strings.Count(card, `id="place-`) != 1 || strings.Contains(card, "places-empty") {
			t.Errorf("reloaded list lacks %s (or has it twice): %s", want, card)
		}
	}
	cpID := regexp.MustCompile(`id="place-([^"]+)"`).FindStringSubmatch(card)[1]
	base := "/collections/" + colID + "/places/" + cpID

	// The same place again: the error comes back as a partial for the #flash region.
	dup := a.htmx(ana, "POST", "/collections/"+colID+"/places", "place_id="+placeID)
	if dup.Status != http.StatusConflict || !strings.Contains(string(dup.Body), "COLLECTION_PLACE_ALREADY_EXISTS") {
		t.Fatalf("duplicate add: %d %s", dup.Status, dup.Body)
	}

	// Pick toggles in place; the second click takes it back.
	picked := fragment(t, a.htmx(ana, "POST", base+"/preference?type=PICK", ""), http.StatusOK)
	if !strings.Contains(picked, `id="pickpass-`+cpID+`"`) || count(picked, `aria-pressed="true"`) != 1 || !strings.Contains(picked, `title="Ana"`) {
		t.Fatalf("after pick: %s", picked)
	}
	unpicked := fragment(t, a.htmx(ana, "POST", base+"/preference?type=PICK", ""), http.StatusOK)
	if count(unpicked, `aria-pressed="true"`) != 0 {
		t.Fatalf("after second pick: %s", unpicked)
	}
	// Without JavaScript the same form post goes back to the collection.
	res = a.do(req{Method: "POST", Path: base + "/preference?type=PASS", Client: ana, Header: map[string]string{"Accept": "text/html", "Sec-Fetch-Site": "same-origin"}})
	if res.Status != http.StatusSeeOther || res.Header.Get("Location") != "/collections/"+colID {
		t.Fatalf("plain pass: %d %q", res.Status, res.Header.Get("Location"))
	}

	// Inline memo editing answers the memo block.
	memo := fragment(t, a.htmx(ana, "PATCH", base+"/memo", "memo="+url.QueryEscape("Go at 9 <sharp>")), http.StatusOK)
	if !strings.Contains(memo, "Go at 9 &lt;sharp&gt;") || !strings.Contains(memo, `id="memo-`+cpID+`"`) {
		t.Fatalf("memo partial: %s", memo)
	}

	// The place page has the map, drawn from configured tiles, and works without it.
	detail := a.page(t, ana, base)
	for _, want := range []string{"Gyeongbokgung Palace", "경복궁", "data-map", `data-lat="37.5`, `data-tiles="https://tiles.test/{z}/{x}/{y}.png"`,
		`data-attribution="Test tiles"`, `data-leaflet-js="` + static.URL("vendor/leaflet/leaflet.js") + `"`, "Open in OpenStreetMap", "Go at 9 &lt;sharp&gt;", "data-map-offline"} {
		if !strings.Contains(detail, want) {
			t.Errorf("place page lacks %s", want)
		}
	}
	if res := a.do(req{Method: "GET", Path: static.URL("vendor/leaflet/leaflet.js")}); res.Status != http.StatusOK || !strings.Contains(string(res.Body), "Leaflet 1.9.4") {
		t.Errorf("vendored Leaflet: %d", res.Status)
	}

	// Deleting from the card answers an empty 200, so htmx swaps the card away.
	gone := a.htmx(ana, "DELETE", base, "")
	if gone.Status != http.StatusOK || len(gone.Body) != 0 {
		t.Fatalf("delete partial: %d %q", gone.Status, gone.Body)
	}
	if res := a.do(req{Method: "GET", Path: base, Client: ana}); res.Status != http.StatusNotFound {
		t.Fatalf("after delete: %d", res.Status)
	}
}

func TestCollectionPlaceListPartialsSortFilterAndMore(t *testing.T) {
	a := newTestApp(t)
	a.loadCatalog()
	anaToken := a.member("more-ana", "Ana")
	benToken := a.member("more-ben", "Ben")
	ana := a.signedInBrowser(t, "more-ana", "Ana")
	col := a.createCollection(anaToken, "Tokyo")
	benMember := a.joinCollection(col.CollectionID, "more-ben")

	var names []string
	for _, p := range a.search(anaToken, "Tokyo") {
		names = append(names, p.Name)
		a.addPlace(anaToken, col.CollectionID, p.PlaceID)
	}
	for _, q := range []string{"Kyoto", "Osaka"} {
		for _, p := range a.search(benToken, q) {
			a.addPlace(benToken, col.CollectionID, p.PlaceID)
		}
	}
	var total int
	a.mustGet(t, &total, `SELECT count(*) FROM collection_places WHERE collection_id = $1`, col.CollectionID)
	if total <= 20 {
		t.Fatalf("need more than one page of places, have %d", total)
	}

	// The page shows 20 cards and a loader for the next page with the same sort.
	base := "/collections/" + col.CollectionID
	page := a.page(t, ana, base+"?sort=OLDEST")
	if n := count(page, `<li id="place-`); n != 20 {
		t.Fatalf("first page has %d cards", n)
	}
	next := regexp.MustCompile(`hx-get="(/collections/[^"]+/places\?page=1[^"]*)"`).FindStringSubmatch(page) // the loader (not the live refresh of page 0)
	if next == nil || !strings.Contains(next[1], "page=1") || !strings.Contains(next[1], "sort=OLDEST") {
		t.Fatalf("no next-page loader: %v", next)
	}
	if !strings.Contains(page, names[0]) {
		t.Errorf("oldest first should start with %s", names[0])
	}
	more := fragment(t, a.htmx(ana, "GET", strings.ReplaceAll(next[1], "&amp;", "&"), ""), http.StatusOK)
	if n := count(more, `<li id="place-`); n != total-20 || strings.Contains(more, "Load more") {
		t.Fatalf("second page: %d cards (want %d)", n, total-20)
	}

	// The "added by" filter answers only that member's places.
	byBen := fragment(t, a.htmx(ana, "GET", base+"/places?added_by="+benMember, ""), http.StatusOK)
	if count(byBen, "Added by <span class=\"font-medium text-slate-700\">Ana") != 0 || count(byBen, `<li id="place-`) == 0 {
		t.Fatalf("filtered by Ben: %s", byBen)
	}
	// JSON clients of the same path are unaffected.
	res := a.do(req{Method: "GET", Path: base + "/places?added_by=" + benMember, Token: anaToken})
	var got pageJSON[collectionPlaceJSON]
	if err := json.Unmarshal(res.Body, &got); err != nil || len(got.Contents) == 0 {
		t.Fatalf("JSON: %v %s", err, res.Body)
	}
	for _, cp := range got.Contents {
		if cp.AddedBy.CollectionMemberID != benMember {
			t.Fatalf("JSON filter let through %s", cp.AddedBy.Nickname)
		}
	}
}

func TestCollectionMembers(t *testing.T) {
	a := newTestApp(t)
	ana, ben, eve := a.member("mem-ana", "Ana"), a.member("mem-ben", "Ben"), a.member("mem-eve", "Eve")
	col := a.createCollection(ana, "Paris")
	benMember := a.joinCollection(col.CollectionID, "mem-ben")
	path := "/collections/" + col.CollectionID + "/members"

	var group memberGroupJSON[memberJSON]
	res := a.do(req{Method: "GET", Path: path, Token: ben})
	if err := json.Unmarshal(res.Body, &group); err != nil || res.Status != http.StatusOK {
		t.Fatalf("members: %d %s", res.Status, res.Body)
	}
	type memberShape struct{ Nickname, Role string }
	type groupShape struct {
		IsAuthenticated bool
		Me              string
		Members         []memberShape
	}
	gotGroup := groupShape{IsAuthenticated: group.IsAuthenticated}
	if group.Me != nil {
		gotGroup.Me = group.Me.CollectionMemberID
	}
	for _, m := range group.Members {
		gotGroup.Members = append(gotGroup.Members, memberShape{Nickname: m.Nickname, Role: string(m.Role)})
	}
	if diff := cmp.Diff(groupShape{IsAuthenticated: true, Me: benMember, Members: []memberShape{{"Ana", "OWNER"}, {"Ben", "MEMBER"}}}, gotGroup); diff != "" {
		t.Fatalf("group (-want +got):\n%s", diff)
	}
	a.do(req{Method: "GET", Path: path, Token: eve}).problem(t, http.StatusForbidden, "FORBIDDEN_NOT_MEMBER")
	a.do(req{Method: "GET", Path: "/collections/" + strings.Repeat("x", 21) + "/members", Token: eve}).problem(t, http.StatusNotFound, "COLLECTION_NOT_FOUND")
	a.do(req{Method: "GET", Path: path}).problem(t, http.StatusUnauthorized, "MISSING_TOKEN")
}

func TestCollectionOwnerLeaveAndRemove(t *testing.T) {
	a := newTestApp(t)
	ana, ben, cid := a.member("com-ana", "Ana"), a.member("com-ben", "Ben"), a.member("com-cid", "Cid")
	col := a.createCollection(ana, "Rome")
	benMember := a.joinCollection(col.CollectionID, "com-ben")
	cidMember := a.joinCollection(col.CollectionID, "com-cid")
	base := "/collections/" + col.CollectionID

	a.do(req{Method: "PATCH", Path: base + "/owner", Token: ben, Body: map[string]string{"collection_member_id": cidMember}}).problem(t, 403, "FORBIDDEN_NOT_OWNER")
	a.do(req{Method: "PATCH", Path: base + "/owner", Token: ana, Body: map[string]string{}}).problem(t, 400, "INVALID_REQUEST")
	a.do(req{Method: "PATCH", Path: base + "/owner", Token: ana, Body: map[string]string{"collection_member_id": strings.Repeat("z", 21)}}).problem(t, 404, "MEMBER_NOT_FOUND")
	a.do(req{Method: "DELETE", Path: base + "/members/me", Token: ana}).problem(t, 409, "NEED_TO_DELEGATE_OWNERSHIP")
	a.do(req{Method: "DELETE", Path: base + "/members/" + cidMember, Token: ben}).problem(t, 403, "FORBIDDEN_NOT_OWNER")

	if r := a.do(req{Method: "PATCH", Path: base + "/owner", Token: ana, Body: map[string]string{"collection_member_id": benMember}}); r.Status != 204 {
		t.Fatalf("owner change: %d %s", r.Status, r.Body)
	}
	a.do(req{Method: "PATCH", Path: base + "/owner", Token: ben, Body: map[string]string{"collection_member_id": benMember}}).problem(t, 409, "CANNOT_DELEGATE_OWNERSHIP_TO_SELF")
	if r := a.do(req{Method: "DELETE", Path: base + "/members/me", Token: ana}); r.Status != 204 {
		t.Fatalf("leave: %d %s", r.Status, r.Body)
	}
	if r := a.do(req{Method: "DELETE", Path: base + "/members/" + cidMember, Token: ben}); r.Status != 204 {
		t.Fatalf("remove: %d %s", r.Status, r.Body)
	}
	var g memberGroupJSON[memberJSON]
	json.Unmarshal(a.do(req{Method: "GET", Path: base + "/members", Token: ben}).Body, &g)
	if len(g.Members) != 1 || g.Members[0].Role != "OWNER" || g.Members[0].CollectionMemberID != benMember {
		t.Fatalf("members: %+v", g)
	}
	var c collectionJSON
	json.Unmarshal(a.do(req{Method: "GET", Path: base, Token: ben}).Body, &c)
	if c.MemberCount != 1 {
		t.Fatalf("member count: %d", c.MemberCount)
	}
	a.do(req{Method: "GET", Path: base, Token: cid}).problem(t, 403, "FORBIDDEN_NOT_MEMBER")
}
