package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"tripplan/internal/places"
	"tripplan/static"
)

// The destination of a plan over the JSON API: stored, answered, kept by clients that do not
// send it (v1), cleared by null, and giving the plan its time zone unless a member chose one.
func TestPlanDestinationJSON(t *testing.T) {
	a := newTestApp(t)
	ana := a.member("dest-ana", "Ana")
	seoul := map[string]any{"name": "Seoul", "lat": 37.5665, "lng": 126.978}
	body := func(extra map[string]any) map[string]any {
		b := map[string]any{"title": "Spring", "start_date": "2026-05-01", "end_date": "2026-05-03"}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	create := func(extra map[string]any) planJSON {
		t.Helper()
		res := a.do(req{Method: "POST", Path: "/plans", Token: ana, Body: body(extra)})
		var p planJSON
		if json.Unmarshal(res.Body, &p); res.Status != http.StatusCreated {
			t.Fatalf("create %v: %d %s", extra, res.Status, res.Body)
		}
		return p
	}
	update := func(id string, extra map[string]any) planJSON {
		t.Helper()
		res := a.do(req{Method: "PUT", Path: "/plans/" + id, Token: ana, Body: body(extra)})
		var u planUpdateJSON
		if json.Unmarshal(res.Body, &u); res.Status != http.StatusOK || u.Plan == nil {
			t.Fatalf("update %v: %d %s", extra, res.Status, res.Body)
		}
		return *u.Plan
	}

	// A v1 client sends no destination: none, "destination": null, UTC until a place is added.
	res := a.do(req{Method: "POST", Path: "/plans", Token: ana, Body: body(nil)})
	if res.Status != http.StatusCreated || !strings.Contains(string(res.Body), `"destination":null`) || !strings.Contains(string(res.Body), `"time_zone":"UTC"`) {
		t.Fatalf("no destination: %d %s", res.Status, res.Body)
	}

	// With one, the plan takes the zone at its point.
	p := create(map[string]any{"destination": seoul})
	if p.Destination == nil || *p.Destination != (destinationJSON{Name: "Seoul", Lat: 37.5665, Lng: 126.978}) || p.TimeZone != "Asia/Seoul" {
		t.Fatalf("with destination: %+v", p)
	}
	var got planJSON
	json.Unmarshal(a.do(req{Method: "GET", Path: "/plans/" + p.PlanID, Token: ana}).Body, &got)
	if got.Destination == nil || got.Destination.Name != "Seoul" {
		t.Fatalf("GET: %+v", got)
	}
	var list pageJSON[planJSON]
	json.Unmarshal(a.do(req{Method: "GET", Path: "/plans", Token: ana}).Body, &list)
	if len(list.Contents) != 2 || list.Contents[0].Destination == nil || list.Contents[1].Destination != nil {
		t.Fatalf("list: %+v", list.Contents)
	}

	// A v1 edit keeps it; a new one moves the zone along; null clears it and leaves the zone.
	if q := update(p.PlanID, nil); q.Destination == nil || q.Destination.Name != "Seoul" || q.TimeZone != "Asia/Seoul" {
		t.Fatalf("v1 edit: %+v", q)
	}
	if q := update(p.PlanID, map[string]any{"destination": map[string]any{"name": "Lisbon", "lat": 38.7223, "lng": -9.1393}}); q.Destination == nil || q.Destination.Name != "Lisbon" || q.TimeZone != "Europe/Lisbon" {
		t.Fatalf("new destination: %+v", q)
	}
	if q := update(p.PlanID, map[string]any{"destination": nil}); q.Destination != nil || q.TimeZone != "Europe/Lisbon" {
		t.Fatalf("cleared: %+v", q)
	}

	// A zone a member chose wins, at creation and later.
	m := create(map[string]any{"destination": seoul, "time_zone": "Europe/Paris"})
	if m.TimeZone != "Europe/Paris" {
		t.Fatalf("member's zone at creation: %+v", m)
	}
	if q := update(m.PlanID, map[string]any{"destination": map[string]any{"name": "Tokyo", "lat": 35.68, "lng": 139.76}}); q.TimeZone != "Europe/Paris" || q.Destination.Name != "Tokyo" {
		t.Fatalf("member's zone after a new destination: %+v", q)
	}

	// Invalid destinations name their fields.
	for _, bad := range []map[string]any{
		{"name": "", "lat": 91, "lng": 0},
		{"name": strings.Repeat("x", 101), "lat": 0, "lng": -181},
	} {
		pr := a.do(req{Method: "POST", Path: "/plans", Token: ana, Body: body(map[string]any{"destination": bad})}).problem(t, 400, "INVALID_REQUEST")
		errs := fmt.Sprint(pr["errors"])
		if !strings.Contains(errs, "destination.name") || !strings.Contains(errs, "destination.l") {
			t.Errorf("%v: %v", bad, errs)
		}
	}
	a.do(req{Method: "POST", Path: "/plans", Token: ana, Body: body(map[string]any{"destination": "Seoul"})}).problem(t, 400, "INVALID_REQUEST")
}

// Titles of plans and collections take 1–50 characters, counted as characters (Korean ones
// too), over JSON and from the forms; a longer one is refused next to the field, never cut.
func TestTitleLengths(t *testing.T) {
	a := newTestApp(t)
	ana := a.member("title-ana", "Ana")
	fifty, fiftyOne := strings.Repeat("한", 50), strings.Repeat("한", 51)

	if p := a.createPlan(ana, fifty, "2026-05-01", "2026-05-01"); p.Title != fifty {
		t.Fatalf("50 Korean characters: %q", p.Title)
	}
	if c := a.createCollection(ana, strings.Repeat("a", 50)); c.Title != strings.Repeat("a", 50) {
		t.Fatalf("collection of 50: %q", c.Title)
	}
	col := a.createCollection(ana, "Short")
	for _, r := range []req{
		{Method: "POST", Path: "/plans", Body: map[string]string{"title": fiftyOne, "start_date": "2026-05-01", "end_date": "2026-05-01"}},
		{Method: "POST", Path: "/collections", Body: map[string]string{"title": fiftyOne}},
		{Method: "PUT", Path: "/collections/" + col.CollectionID, Body: map[string]string{"title": fiftyOne}},
	} {
		r.Token = ana
		p := a.do(r).problem(t, 400, "INVALID_REQUEST")
		if fmt.Sprint(p["errors"]) != "[map[field:title reason:must be 1–50 characters]]" {
			t.Errorf("%s %s: %v", r.Method, r.Path, p["errors"])
		}
	}

	b := a.signedInBrowser(t, "title-ana", "Ana")
	// The forms say the limit and show a counter.
	for _, path := range []string{"/plans/new", "/collections/new", "/collections/" + col.CollectionID} {
		page := a.page(t, b, path)
		if !strings.Contains(page, `maxlength="50"`) || !strings.Contains(page, "data-count-for=") || !strings.Contains(page, static.URL("js/forms.js")) {
			t.Errorf("%s lacks the limit or the counter", path)
		}
	}
	if page := a.page(t, b, "/collections/"+col.CollectionID); !strings.Contains(page, "5 / 50") {
		t.Error("the rename counter does not count the current title")
	}

	// htmx: the fields again, with the whole title as typed and the message next to it.
	longTitle := strings.Repeat("a", 51)
	res := a.htmx(b, "POST", "/plans", "title="+url.QueryEscape(longTitle)+"&start_date=2026-05-01&end_date=2026-05-02&destination=")
	body := fragment(t, res, http.StatusBadRequest)
	if res.Header.Get("HX-Retarget") != "#plan-fields" || res.Header.Get("HX-Reswap") != "innerHTML" ||
		!strings.Contains(body, `value="`+longTitle+`"`) || !strings.Contains(body, "Shorten the title to 50 characters or fewer; it has 51.") ||
		!strings.Contains(body, `aria-invalid="true"`) || !strings.Contains(body, `id="plan-title-error"`) || !strings.Contains(body, `hx-swap-oob`) {
		t.Fatalf("htmx plan form: %v\n%s", res.Header, body)
	}
	res = a.htmx(b, "PUT", "/collections/"+col.CollectionID, "title="+url.QueryEscape(fiftyOne))
	body = fragment(t, res, http.StatusBadRequest)
	if res.Header.Get("HX-Retarget") != "#rename-fields" || !strings.Contains(body, `value="`+fiftyOne+`"`) || !strings.Contains(body, "it has 51") {
		t.Fatalf("htmx rename: %v\n%s", res.Header, body)
	}
	// A plain form post (no script): the page again, 400, with the message and the title.
	res = a.do(req{Method: "POST", Path: "/collections", Client: b, Body: "title=" + url.QueryEscape(fiftyOne),
		Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html", "Sec-Fetch-Site": "same-origin"}})
	if page := string(res.Body); res.Status != http.StatusBadRequest || !strings.Contains(page, "<html") ||
		!strings.Contains(page, `value="`+fiftyOne+`"`) || !strings.Contains(page, "it has 51") {
		t.Fatalf("plain new collection: %d %s", res.Status, res.Body)
	}
	// Nothing was created or renamed.
	var list pageJSON[collectionJSON]
	json.Unmarshal(a.do(req{Method: "GET", Path: "/collections", Token: ana}).Body, &list)
	if len(list.Contents) != 2 {
		t.Fatalf("collections: %+v", list.Contents)
	}
}

// The plan forms: the destination is a city search over the catalog's cities; the chosen city
// is stored with its centre, gives the zone, centres the empty day's map, and the new plan
// opens on day 1.
func TestPlanFormDestination(t *testing.T) {
	a := newTestApp(t)
	ana := a.member("form-ana", "Ana")
	b := a.signedInBrowser(t, "form-ana", "Ana")

	page := a.page(t, b, "/plans/new")
	for _, want := range []string{`role="combobox"`, `aria-controls="plan-destination-list"`, `aria-expanded="false"`, `role="listbox"`,
		`list="plan-destination-options"`, `<option value="Seoul">`, `data-names="seoul|서울"`, "0 / 50"} {
		if !strings.Contains(page, want) {
			t.Errorf("new plan form lacks %s", want)
		}
	}
	if n := strings.Count(page, `role="option"`); n != 13 {
		t.Errorf("%d cities offered, want 13", n)
	}

	// The Korean name finds Seoul; the browser lands on the plan (day 1).
	form := "title=" + url.QueryEscape("봄 서울") + "&destination=" + url.QueryEscape("서울") + "&start_date=2026-04-01&end_date=2026-04-03&time_zone="
	res := a.htmx(b, "POST", "/plans", form)
	planPath := res.Header.Get("HX-Redirect")
	if res.Status != http.StatusNoContent || !strings.HasPrefix(planPath, "/plans/") {
		t.Fatalf("create: %d %v %s", res.Status, res.Header, res.Body)
	}
	var p planJSON
	json.Unmarshal(a.do(req{Method: "GET", Path: planPath, Token: ana}).Body, &p)
	seoul, _ := places.FindCity("Seoul")
	if p.Destination == nil || *p.Destination != (destinationJSON{Name: "Seoul", Lat: seoul.Lat, Lng: seoul.Lng}) || p.TimeZone != "Asia/Seoul" || p.Title != "봄 서울" {
		t.Fatalf("created: %+v", p)
	}

	// The plan page: day 1, the destination named, and the empty day's map on the city (map.js
	// shows data-centre).
	page = a.page(t, b, planPath)
	centre := `data-centre="[{&#34;name&#34;:&#34;Seoul&#34;,&#34;time&#34;:&#34;&#34;,&#34;lat&#34;:` + strconv.FormatFloat(seoul.Lat, 'f', -1, 64) +
		`,&#34;lon&#34;:` + strconv.FormatFloat(seoul.Lng, 'f', -1, 64) + `}]"`
	if !strings.Contains(page, `data-day="1"`) || !strings.Contains(page, "data-destination") ||
		!strings.Contains(page, centre) || !strings.Contains(page, `id="day-map"`) {
		t.Fatalf("plan page lacks day 1 or the map on Seoul")
	}
	// The route partial too (it is reloaded after changes).
	route := fragment(t, a.htmx(b, "GET", planPath+"/days/1/route", ""), http.StatusOK)
	if !strings.Contains(route, centre) {
		t.Fatalf("route partial: %s", route)
	}

	// A city the form does not offer is refused next to the field, the text kept.
	res = a.htmx(b, "POST", "/plans", "title=X&destination=Atlantis&start_date=2026-04-01&end_date=2026-04-01")
	body := fragment(t, res, http.StatusBadRequest)
	if !strings.Contains(body, "Choose one of the listed cities") || !strings.Contains(body, `value="Atlantis"`) || !strings.Contains(body, `id="plan-destination-error"`) {
		t.Fatalf("unknown city: %s", body)
	}
	// A date range that does not work is said under the last day.
	body = fragment(t, a.htmx(b, "POST", "/plans", "title=X&start_date=2026-04-03&end_date=2026-04-01"), http.StatusBadRequest)
	if !strings.Contains(body, `id="plan-end-error"`) {
		t.Fatalf("date range: %s", body)
	}

	// The edit form shows the destination; saving it unchanged keeps it (even one set through
	// the API that the form does not list); changing the city moves the zone.
	a.do(req{Method: "PUT", Path: planPath, Token: ana, Body: map[string]any{"title": "봄 서울", "start_date": "2026-04-01", "end_date": "2026-04-03",
		"destination": map[string]any{"name": "Lisbon", "lat": 38.7223, "lng": -9.1393}}})
	edit := a.page(t, b, planPath+"/edit")
	if !strings.Contains(edit, `value="Lisbon"`) || !strings.Contains(edit, `name="destination_current" value="Lisbon"`) || !strings.Contains(edit, "now Europe/Lisbon") {
		t.Fatalf("edit form lacks the destination")
	}
	keep := "title=Again&destination=Lisbon&destination_current=Lisbon&start_date=2026-04-01&end_date=2026-04-03&time_zone="
	if res := a.htmx(b, "PUT", planPath, keep); res.Status != http.StatusNoContent {
		t.Fatalf("keep: %d %s", res.Status, res.Body)
	}
	json.Unmarshal(a.do(req{Method: "GET", Path: planPath, Token: ana}).Body, &p)
	if p.Destination == nil || p.Destination.Name != "Lisbon" || p.Title != "Again" {
		t.Fatalf("kept: %+v", p)
	}
	// Shortening with a new city asks first; the confirmation carries the city.
	confirm := fragment(t, a.htmx(b, "PUT", planPath, "title=Again&destination=Tokyo&destination_current=Lisbon&start_date=2026-04-01&end_date=2026-04-02&time_zone="), http.StatusOK)
	if !strings.Contains(confirm, `name="destination" value="Tokyo"`) {
		t.Fatalf("confirmation lacks the city: %s", confirm)
	}
	if res := a.htmx(b, "PUT", planPath, "title=Again&destination=Tokyo&destination_current=Lisbon&start_date=2026-04-01&end_date=2026-04-02&time_zone=&confirm=true"); res.Status != http.StatusNoContent {
		t.Fatalf("confirmed: %d %s", res.Status, res.Body)
	}
	json.Unmarshal(a.do(req{Method: "GET", Path: planPath, Token: ana}).Body, &p)
	if p.Destination == nil || p.Destination.Name != "Tokyo" || p.TimeZone != "Asia/Tokyo" || p.DurationDays != 2 {
		t.Fatalf("changed: %+v", p)
	}
}

// Place search from a plan passes its destination as near=: that city's places come first.
func TestSearchNearRanksTheCityFirst(t *testing.T) {
	a := newTestApp(t)
	a.loadCatalog()
	ana := a.member("near-ana", "Ana")
	all, _, err := places.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	cityOf := map[string]string{}
	for _, p := range all {
		cityOf[p.ProviderPlaceID] = p.City
	}
	search := func(q string) []placeJSON {
		t.Helper()
		var out []placeJSON
		res := a.do(req{Method: "GET", Path: "/places/search?" + q, Token: ana})
		if err := json.Unmarshal(res.Body, &out); err != nil || res.Status != http.StatusOK {
			t.Fatalf("search %s: %d %s", q, res.Status, res.Body)
		}
		return out
	}
	plain := search("query=market")
	if len(plain) < 3 {
		t.Fatalf("market: %d results", len(plain))
	}
	// The city of the last result: not first without the bias, first with it.
	city := cityOf[plain[len(plain)-1].ProviderPlaceID]
	if cityOf[plain[0].ProviderPlaceID] == city {
		t.Fatalf("the unbiased search already starts in %s", city)
	}
	near := search("query=market&near=" + url.QueryEscape(strings.ToLower(city)))
	if len(near) != len(plain) {
		t.Fatalf("near changes what is found, not only its order: %d vs %d", len(near), len(plain))
	}
	seenOther := false
	for _, p := range near {
		in := cityOf[p.ProviderPlaceID] == city
		if in && seenOther {
			t.Fatalf("a place of %s after one of another city: %+v", city, near)
		}
		seenOther = seenOther || !in
	}
	if cityOf[near[0].ProviderPlaceID] != city {
		t.Fatalf("near=%s: first is %s", city, near[0].Name)
	}
	a.do(req{Method: "GET", Path: "/places/search?query=x&near=" + strings.Repeat("n", 101), Token: ana}).problem(t, 400, "INVALID_REQUEST")

	// "Add here" on a plan page sends the plan's destination (#plan-near) with its search, and
	// the choices found by search come in the same order as the biased search.
	b := a.signedInBrowser(t, "near-ana", "Ana")
	var p planJSON
	res := a.do(req{Method: "POST", Path: "/plans", Token: ana, Body: map[string]any{"title": "Near", "start_date": "2026-04-01", "end_date": "2026-04-01"}})
	if err := json.Unmarshal(res.Body, &p); err != nil || res.Status != http.StatusCreated {
		t.Fatalf("plan: %d %s", res.Status, res.Body)
	}
	page := a.page(t, b, "/plans/"+p.PlanID)
	mustHave(t, page, `id="plan-near" name="near" value=""`, `hx-include="#plan-near"`)
	choices := fragment(t, a.htmx(b, "GET", "/plans/"+p.PlanID+"/place-choices?query=market&near="+url.QueryEscape(city), ""), http.StatusOK)
	ids := regexp.MustCompile(`data-place-id="([^"]+)"`).FindAllStringSubmatch(choices, -1)
	if len(ids) != len(near) {
		t.Fatalf("place choices: %d places, the search %d: %s", len(ids), len(near), choices)
	}
	for i := range ids {
		if ids[i][1] != near[i].PlaceID {
			t.Fatalf("place choice %d is %s, the biased search has %s", i, ids[i][1], near[i].Name)
		}
	}
	if res := a.htmx(b, "GET", "/plans/"+p.PlanID+"/place-choices?query=x&near="+strings.Repeat("n", 101), ""); res.Status != http.StatusBadRequest {
		t.Errorf("a 101-character near: %d", res.Status)
	}
}

// Empty lists and an empty collection say what to do next, with the way to do it.
func TestEmptyStatesSayWhatNext(t *testing.T) {
	a := newTestApp(t)
	ana := a.member("empty-ana", "Ana")
	b := a.signedInBrowser(t, "empty-ana", "Ana")
	if page := a.page(t, b, "/plans"); !strings.Contains(page, "No plans yet") || !strings.Contains(page, "you land on day 1") || !strings.Contains(page, "Plan a trip") {
		t.Error("the empty plans list does not say what to do")
	}
	if page := a.page(t, b, "/collections"); !strings.Contains(page, "No collections yet") || !strings.Contains(page, "Start a collection") {
		t.Error("the empty collections list does not say what to do")
	}
	col := a.createCollection(ana, "Empty")
	if page := a.page(t, b, "/collections/"+col.CollectionID); !strings.Contains(page, "No places yet") || !strings.Contains(page, "paste a link") {
		t.Error("the empty collection does not say what to do")
	}
}
