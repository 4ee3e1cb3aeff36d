package web

import (
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"tripplan/internal/planner"
)

// mapFixture is a collection of Seoul's catalog places, some added by Ana, the rest by Ben,
// with picks: more places than the list's first page, so the map must hold more than it.
type mapFixture struct {
	a                *testApp
	ana, ben         string // tokens
	anaB, benB       *http.Client
	col              string
	base             string // the JSON list
	benMember        string
	category         map[string]string // collection place id → its level-1 category
	addedByBen       map[string]bool
	pickedByAna      map[string]bool
	pickedByBen      map[string]bool
	passedByBen      map[string]bool
	anaUser, benUser string
}

func newMapFixture(t *testing.T) *mapFixture {
	a := newTestApp(t)
	a.loadCatalog()
	f := &mapFixture{a: a, ana: a.member("cm-ana", "Ana"), ben: a.member("cm-ben", "Ben"),
		category: map[string]string{}, addedByBen: map[string]bool{}, pickedByAna: map[string]bool{}, pickedByBen: map[string]bool{}, passedByBen: map[string]bool{}}
	f.anaB, f.benB = a.signedInBrowser(t, "cm-ana", "Ana"), a.signedInBrowser(t, "cm-ben", "Ben")
	f.col = a.createCollection(f.ana, "Seoul map").CollectionID
	f.base = "/collections/" + f.col + "/places"
	f.benMember = a.joinCollection(f.col, "cm-ben")
	a.mustGet(t, &f.anaUser, `SELECT id FROM users WHERE provider_id = 'cm-ana'`)
	a.mustGet(t, &f.benUser, `SELECT id FROM users WHERE provider_id = 'cm-ben'`)
	var rows []struct {
		ID       string `db:"id"`
		Category string `db:"category_level1"`
	}
	if err := a.db.Select(&rows, `SELECT id, category_level1 FROM places WHERE city = 'Seoul' AND latitude IS NOT NULL ORDER BY id LIMIT 26`); err != nil || len(rows) != 26 {
		t.Fatalf("catalog places: %d %v", len(rows), err)
	}
	for i, r := range rows {
		token := f.ana
		if i%3 == 0 {
			token = f.ben
		}
		cp := a.addPlace(token, f.col, r.ID)
		f.category[cp.CollectionPlaceID] = r.Category
		f.addedByBen[cp.CollectionPlaceID] = token == f.ben
		pref := func(token, typ string, into map[string]bool) {
			if res := a.do(req{Method: "POST", Path: f.base + "/" + cp.CollectionPlaceID + "/preference?type=" + typ, Token: token}); res.Status != http.StatusOK {
				t.Fatalf("%s: %d %s", typ, res.Status, res.Body)
			}
			into[cp.CollectionPlaceID] = true
		}
		if i%4 == 0 {
			pref(f.ana, "PICK", f.pickedByAna)
		}
		if i%5 == 0 {
			pref(f.ben, "PICK", f.pickedByBen)
		} else if i%5 == 1 {
			pref(f.ben, "PASS", f.passedByBen)
		}
	}
	return f
}

// want is the ids of the fixture's places that keep holds for, sorted.
func (f *mapFixture) want(keep func(id string) bool) []string {
	var out []string
	for id := range f.category {
		if keep(id) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// listed is every id the JSON list gives for query, page after page, sorted.
func (f *mapFixture) listed(t *testing.T, token, query string) []string {
	t.Helper()
	var out []string
	for page := 0; ; page++ {
		res := f.a.do(req{Method: "GET", Path: fmt.Sprintf("%s?size=10&page=%d&%s", f.base, page, query), Token: token})
		if res.Status != http.StatusOK {
			t.Fatalf("list %s: %d %s", query, res.Status, res.Body)
		}
		var p pageJSON[collectionPlaceJSON]
		json.Unmarshal(res.Body, &p)
		for _, cp := range p.Contents {
			out = append(out, cp.CollectionPlaceID)
		}
		if !p.HasNext {
			break
		}
	}
	slices.Sort(out)
	return out
}

var pinsAttr = regexp.MustCompile(`id="collection-map-pins" data-pins="([^"]*)"`)

// pinned is the ids the page (or partial) carries for its map, sorted.
func pinned(t *testing.T, page string) []string {
	t.Helper()
	m := pinsAttr.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no map pins in %.300s", page)
	}
	var pins []struct {
		ID, Name, Href string
		Lat, Lng       float64
	}
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &pins); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(pins))
	for i, p := range pins {
		if p.Name == "" || p.Href == "" || p.Lat == 0 || p.Lng == 0 {
			t.Errorf("pin without its name, link or place: %+v", p)
		}
		out[i] = p.ID
	}
	slices.Sort(out)
	return out
}

// TestCollectionFiltersNarrowTheListAndTheMap: category, added by and picked narrow the JSON
// list, the page's list and its map alike, alone and together; the map holds every place
// selected, past the list's first page.
func TestCollectionFiltersNarrowTheListAndTheMap(t *testing.T) {
	f := newMapFixture(t)
	a := f.a
	categories := slices.Sorted(maps.Keys(func() map[string]bool {
		m := map[string]bool{}
		for _, c := range f.category {
			m[c] = true
		}
		return m
	}()))
	if len(categories) < 2 {
		t.Fatalf("the fixture needs places of two categories at least: %v", categories)
	}
	type filterCase struct {
		name, query string
		token       string
		browser     *http.Client
		keep        func(id string) bool
	}
	cases := []filterCase{
		{"everything", "", f.ana, f.anaB, func(string) bool { return true }},
		{"added by Ben", "added_by=" + f.benMember, f.ana, f.anaB, func(id string) bool { return f.addedByBen[id] }},
		{"picked by me (Ana)", "picked=ME", f.ana, f.anaB, func(id string) bool { return f.pickedByAna[id] }},
		{"picked by me (Ben)", "picked=ME", f.ben, f.benB, func(id string) bool { return f.pickedByBen[id] }},
		{"picked by anyone", "picked=ANYONE", f.ana, f.anaB, func(id string) bool { return f.pickedByAna[id] || f.pickedByBen[id] }},
		{"picked by anyone, added by Ben", "picked=ANYONE&added_by=" + f.benMember, f.ben, f.benB,
			func(id string) bool { return (f.pickedByAna[id] || f.pickedByBen[id]) && f.addedByBen[id] }},
	}
	for _, c := range categories {
		cat := c
		cases = append(cases,
			filterCase{"category " + cat, "category=" + cat, f.ana, f.anaB, func(id string) bool { return f.category[id] == cat }},
			filterCase{"category " + cat + ", picked by me, added by Ben", "category=" + cat + "&picked=ME&added_by=" + f.benMember, f.ana, f.anaB,
				func(id string) bool { return f.category[id] == cat && f.pickedByAna[id] && f.addedByBen[id] }})
	}
	narrowed := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := f.want(c.keep)
			if len(want) < len(f.category) {
				narrowed++
			}
			if got := f.listed(t, c.token, c.query); !slices.Equal(got, want) {
				t.Errorf("JSON list: %v, want %v", got, want)
			}
			page := a.page(t, c.browser, "/collections/"+f.col+"?"+c.query)
			if got := pinned(t, page); !slices.Equal(got, want) {
				t.Errorf("page's map: %v, want %v", got, want)
			}
			cards := count(page, `<li id="place-`)
			if cards != min(len(want), planner.DefaultPageSize) {
				t.Errorf("page's list shows %d cards, want the first %d of %d", cards, min(len(want), planner.DefaultPageSize), len(want))
			}
			// The filters' form asks for the page as htmx: the list's first page, the map's pins
			// out of band, and the address of these filters.
			res := a.htmx(c.browser, "GET", "/collections/"+f.col+"?sort=LATEST&"+c.query, "")
			part := fragment(t, res, http.StatusOK)
			if got := pinned(t, part); !slices.Equal(got, want) || !strings.Contains(part, `hx-swap-oob="true"`) {
				t.Errorf("partial's map: %v, want %v out of band", got, want)
			}
			wantURL := "/collections/" + f.col
			if c.query != "" {
				wantURL += "?" + canonical(c.query)
			}
			if got := res.Header.Get("HX-Replace-Url"); got != wantURL {
				t.Errorf("HX-Replace-Url = %q, want %q", got, wantURL)
			}
		})
	}
	if narrowed < len(cases)-1 {
		t.Errorf("only %d of %d filters narrowed the fixture: it proves too little", narrowed, len(cases)-1)
	}
}

// canonical is a query's parameters in url.Values.Encode's order.
func canonical(query string) string {
	parts := strings.Split(query, "&")
	slices.Sort(parts)
	return strings.Join(parts, "&")
}

// TestCollectionFiltersRefuseUnknownValues: the JSON list answers 400 with the field at fault;
// the page, whose address may be a mistyped shared link, shows everything instead.
func TestCollectionFiltersRefuseUnknownValues(t *testing.T) {
	f := newMapFixture(t)
	for query, field := range map[string]string{
		"category=101000": "category", // level 2
		"category=food":   "category",
		"picked=YES":      "picked",
		"picked=me":       "picked",
		"added_by=x":      "added_by",
	} {
		p := f.a.do(req{Method: "GET", Path: f.base + "?" + query, Token: f.ana}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
		if !strings.Contains(fmt.Sprint(p["errors"]), "field:"+field) {
			t.Errorf("%s: errors %v, want one for %s", query, p["errors"], field)
		}
		if got := pinned(t, f.a.page(t, f.anaB, "/collections/"+f.col+"?"+query)); len(got) != len(f.category) {
			t.Errorf("page ?%s: %d pins, want all %d", query, len(got), len(f.category))
		}
	}
}

// TestCollectionMapIsBounded: the map's places are capped (the store returns at most its limit
// and how many there are in all, and the page says so), and the page and its htmx answer cost
// the same number of statements whatever the number of places and filters.
func TestCollectionMapIsBounded(t *testing.T) {
	f := newMapFixture(t)
	a := f.a
	ctx := t.Context()
	pins, total, err := a.db.CollectionMap(ctx, f.anaUser, f.col, planner.CollectionPlaceSort{}, planner.PlaceFilter{}, 3)
	if err != nil || len(pins) != 3 || total != len(f.category) {
		t.Fatalf("capped at 3: %d pins of %d, %v", len(pins), total, err)
	}
	pins, total, err = a.db.CollectionMap(ctx, f.benUser, f.col, planner.CollectionPlaceSort{}, planner.PlaceFilter{Picked: planner.PickedByMe}, 3)
	if err != nil || total != len(f.pickedByBen) || len(pins) != min(3, total) {
		t.Fatalf("capped at 3, Ben's picks: %d pins of %d, %v", len(pins), total, err)
	}
	if _, _, err := a.db.CollectionMap(ctx, "AAAAAAAAAAAAAAAAAAAAA", f.col, planner.CollectionPlaceSort{}, planner.PlaceFilter{}, 3); planner.ErrorCode(err) != planner.CodeForbiddenNotMember {
		t.Fatalf("a stranger's map: %v", err)
	}
	if page := a.page(t, f.anaB, "/collections/"+f.col); !strings.Contains(page, fmt.Sprintf("%d places on the map", len(f.category))) {
		t.Errorf("the page does not count the map's places")
	}

	statements := func(path string) int {
		a.queries.Reset()
		fragment(t, a.htmx(f.anaB, "GET", path, ""), http.StatusOK)
		return a.queries.Count()
	}
	path := "/collections/" + f.col
	all := statements(path)
	filtered := statements(path + "?picked=ANYONE&added_by=" + f.benMember)
	small := a.createCollection(f.ana, "Small").CollectionID
	a.addPlace(f.ana, small, a.placeID(f.ana, "Gyeongbokgung Palace"))
	one := statements("/collections/" + small)
	if all != filtered || all != one {
		t.Errorf("the page's htmx answer ran %d statements for %d places, %d filtered, %d for one", all, len(f.category), filtered, one)
	}
}

// TestGuestsSeeTheCollectionMap: a guest with a link sees the map and its filters, without
// "picked by me" (a guest picks nothing); asked anyway, it selects nothing.
func TestGuestsSeeTheCollectionMap(t *testing.T) {
	f := newMapFixture(t)
	g := f.a.guestOf(t, f.a.invite(f.ana, "/collections/"+f.col))
	page := f.a.page(t, g, "/collections/"+f.col+"?picked=ANYONE")
	if got, want := pinned(t, page), f.want(func(id string) bool { return f.pickedByAna[id] || f.pickedByBen[id] }); !slices.Equal(got, want) {
		t.Errorf("guest's map: %v, want %v", got, want)
	}
	if !strings.Contains(page, `data-pins-from="collection-map-pins"`) || strings.Contains(page, `value="ME"`) {
		t.Errorf("guest's page: a map without picked-by-me expected")
	}
	res := f.a.do(req{Method: "GET", Path: f.base + "?picked=ME", Client: g, Header: map[string]string{"Accept": "application/json"}})
	var p pageJSON[collectionPlaceJSON]
	json.Unmarshal(res.Body, &p)
	if res.Status != http.StatusOK || len(p.Contents) != 0 {
		t.Errorf("a guest's picks: %d %s", res.Status, res.Body)
	}
}
