package views

import (
	"encoding/json"
	"html"
	"regexp"
	"strings"
	"testing"
)

// attr is the unescaped value of the first name="…" attribute in page.
func attr(t *testing.T, page, name string) string {
	t.Helper()
	m := regexp.MustCompile(` ` + regexp.QuoteMeta(name) + `="([^"]*)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no %s attribute in %s", name, page)
	}
	return html.UnescapeString(m[1])
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
	page := render(t, Day(v))
	for _, want := range []string{`id="day-map" hx-preserve`, `data-day-map`, `data-day-views hidden`, `data-day-view="map" aria-pressed="false"`,
		`data-time-block-id="b0"`, `data-time-block-id="b1"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the day lacks %s", want)
		}
	}
	var stops, pending []map[string]any
	if err := json.Unmarshal([]byte(attr(t, page, "data-stops")), &stops); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(attr(t, page, "data-pending")), &pending); err != nil {
		t.Fatal(err)
	}
	if len(stops) != 1 || stops[0]["time_block_id"] != "b0" || stops[0]["n"] != float64(1) || stops[0]["name"] != "Gyeongbokgung Palace" {
		t.Errorf("stops: %v", stops)
	}
	if len(pending) != 2 || pending[0]["time_block_id"] != "b1" || pending[1]["time_block_id"] != "b1" || pending[1]["name"] != "Bukchon <Village>" || pending[0]["n"] != nil {
		t.Errorf("pending: %v", pending)
	}
	if got := attr(t, page, "data-centre"); got != "" {
		t.Errorf("a day with places has a centre: %q", got)
	}
	if got := attr(t, page, "data-map-label"); got != "Map of the day's places, numbered in time order" {
		t.Errorf("the map's name: %q", got)
	}

	// A day without places shows the destination, named so, and no block.
	v.Route = DayRouteView{Centre: &MapStop{Name: "Seoul", Lat: 37.5665, Lon: 126.978}}
	page = render(t, Day(v))
	var centre []map[string]any
	if err := json.Unmarshal([]byte(attr(t, page, "data-centre")), &centre); err != nil || len(centre) != 1 || centre[0]["name"] != "Seoul" || centre[0]["time_block_id"] != nil {
		t.Errorf("centre: %v %v", centre, err)
	}
	if got := attr(t, page, "data-map-label"); got != "Map of Seoul" || !strings.Contains(page, `id="day-map"`) {
		t.Errorf("the destination's map: %q", got)
	}
	// Without places or a destination there is no map to keep.
	v.Route = DayRouteView{}
	if page = render(t, Day(v)); strings.Contains(page, `id="day-map"`) {
		t.Errorf("a map without points")
	}
}
