package views

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/go-cmp/cmp"
)

// parse is the rendered page as a document to query.
func parse(t *testing.T, page string) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(page))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return doc
}

// attr is the (unescaped) value of the first name attribute in doc.
func attr(t *testing.T, doc *goquery.Document, name string) string {
	t.Helper()
	v, ok := doc.Find("[" + name + "]").First().Attr(name)
	if !ok {
		t.Fatalf("no %s attribute in the page", name)
	}
	return v
}

// mapPoint is a point of the day map as map.js reads it; the pointers tell a missing or null
// field from an empty one.
type mapPoint struct {
	N           *float64 `json:"n"`
	Name        *string  `json:"name"`
	TimeBlockID *string  `json:"time_block_id"`
}

func ptr[T any](v T) *T { return &v }

func mapPoints(t *testing.T, doc *goquery.Document, name string) []mapPoint {
	t.Helper()
	var points []mapPoint
	if err := json.Unmarshal([]byte(attr(t, doc, name)), &points); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return points
}

// The day map's points carry their time block, so map.js can link a pin and its block's card;
// the map's box is kept across the day's swaps and its points are on the route around it.
func TestDayMapPointsNameTheirBlocks(t *testing.T) {
	v := day([2]int{9 * 60, 10 * 60}, [2]int{11 * 60, 12 * 60})
	v.ReadOnly = true // a guest sees the map too
	v.Route = DayRouteView{
		Stops: []MapStop{{N: 1, Name: "Gyeongbokgung Palace", Time: "09:00–10:00", Lat: 37.5796, Lon: 126.977, TimeBlockID: "b0"}},
		Pending: []MapStop{{Name: "Deoksugung Palace", Time: "11:00–12:00", Lat: 37.5658, Lon: 126.9751, TimeBlockID: "b1"},
			{Name: "Bukchon <Village>", Time: "11:00–12:00", Lat: 37.5826, Lon: 126.9836, TimeBlockID: "b1"}},
	}
	doc := parse(t, render(t, Day(v)))
	for sel, what := range map[string]string{
		"#day-map[hx-preserve][data-day-map]":         "the map's box, kept across swaps",
		"[data-day-views][hidden]":                    "the list/map switch, hidden until map.js shows it",
		`[data-day-view="map"][aria-pressed="false"]`: "the map button, not pressed",
		`[data-time-block-id="b0"]`:                   "block b0",
		`[data-time-block-id="b1"]`:                   "block b1",
	} {
		if doc.Find(sel).Length() == 0 {
			t.Errorf("the day lacks %s (%s)", what, sel)
		}
	}
	wantStops := []mapPoint{{N: ptr(1.0), Name: ptr("Gyeongbokgung Palace"), TimeBlockID: ptr("b0")}}
	if diff := cmp.Diff(wantStops, mapPoints(t, doc, "data-stops")); diff != "" {
		t.Errorf("stops (-want +got):\n%s", diff)
	}
	wantPending := []mapPoint{{Name: ptr("Deoksugung Palace"), TimeBlockID: ptr("b1")}, {Name: ptr("Bukchon <Village>"), TimeBlockID: ptr("b1")}}
	if diff := cmp.Diff(wantPending, mapPoints(t, doc, "data-pending")); diff != "" {
		t.Errorf("pending (-want +got):\n%s", diff)
	}
	if got := attr(t, doc, "data-centre"); got != "" {
		t.Errorf("a day with places has a centre: %q", got)
	}
	if got := attr(t, doc, "data-map-label"); got != "Map of the day's places, numbered in time order" {
		t.Errorf("the map's name: %q", got)
	}

	// A day without places shows the destination, named so, and no block.
	v.Route = DayRouteView{Centre: &MapStop{Name: "Seoul", Lat: 37.5665, Lon: 126.978}}
	doc = parse(t, render(t, Day(v)))
	if diff := cmp.Diff([]mapPoint{{Name: ptr("Seoul")}}, mapPoints(t, doc, "data-centre"), cmp.FilterPath(func(p cmp.Path) bool {
		return p.Last().String() == ".N" // the centre's number was never asked
	}, cmp.Ignore())); diff != "" {
		t.Errorf("centre (-want +got):\n%s", diff)
	}
	if got := attr(t, doc, "data-map-label"); got != "Map of Seoul" || doc.Find("#day-map").Length() != 1 {
		t.Errorf("the destination's map: %q, %d #day-map", got, doc.Find("#day-map").Length())
	}
	// Without places or a destination there is no map to keep.
	v.Route = DayRouteView{}
	if n := parse(t, render(t, Day(v))).Find("#day-map").Length(); n != 0 {
		t.Errorf("a map without points: %d #day-map", n)
	}
}
