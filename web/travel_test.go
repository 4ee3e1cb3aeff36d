package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tripplan/internal/i18n"
	"tripplan/internal/route"
	"tripplan/static"
)

func (f *planFixture) route(t *testing.T, token string, day int) dayRouteJSON {
	t.Helper()
	res := f.a.do(req{Method: "GET", Path: fmt.Sprintf("/plans/%s/days/%d/route", f.plan.PlanID, day), Token: token})
	var r dayRouteJSON
	if err := json.Unmarshal(res.Body, &r); err != nil || res.Status != http.StatusOK {
		t.Fatalf("route: %d %s", res.Status, res.Body)
	}
	return r
}

func pointOfJSON(t *testing.T, tb timeBlockJSON) route.Point {
	t.Helper()
	p := tb.SelectedBlock.Place
	lat, err1 := strconv.ParseFloat(p.Point.Latitude, 64)
	lon, err2 := strconv.ParseFloat(p.Point.Longitude, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("%s has no coordinates", p.Name)
	}
	return route.Point{Lat: lat, Lon: lon}
}

// A day of Gyeongbokgung 10:00–11:00, Gwangjang Market 11:00–12:00 (about 3 km away, 12 min
// by car: more than the 10 minutes a back-to-back pair may be short), an undecided block and free time (passed over), and
// N Seoul Tower 15:00–16:00 (hours later: fine).
func TestDayRouteWarnsWhenTheGapIsTooShort(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	palace := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	market := decodeBlock(t, f.add(f.ana, placeBlock(f.places[1].CollectionPlaceID, 1, "11:00", "12:00")))
	undecided := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "12:30", "13:00")))
	decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + undecided.TimeBlockID + "/candidates", Token: f.ana,
		Body: map[string]any{"collection_place_ids": []string{f.places[2].CollectionPlaceID}}}))
	decodeBlock(t, f.add(f.ana, map[string]any{"type": "FREE", "day": 1, "start_time": "13:00", "end_time": "14:00"}))
	tower := decodeBlock(t, f.add(f.ana, placeBlock(f.places[2].CollectionPlaceID, 1, "15:00", "16:00")))

	r := f.route(t, f.ben, 1)
	if r.Source != route.SourceEstimate || r.DayInfo.Day != 1 || len(r.Legs) != 2 {
		t.Fatalf("route: %+v", r)
	}
	want, _, _ := route.Estimator{}.Legs(context.Background(), []route.Point{pointOfJSON(t, palace), pointOfJSON(t, market), pointOfJSON(t, tower)})
	first, second := r.Legs[0], r.Legs[1]
	if first.FromBlockID != palace.SelectedBlock.BlockID || first.ToBlockID != market.SelectedBlock.BlockID ||
		first.FromTimeBlockID != palace.TimeBlockID || first.ToTimeBlockID != market.TimeBlockID ||
		first.GapS != 0 || first.Warning == nil || *first.Warning != "NOT_ENOUGH_TIME" {
		t.Fatalf("first leg: %+v", first)
	}
	if second.FromBlockID != market.SelectedBlock.BlockID || second.ToBlockID != tower.SelectedBlock.BlockID ||
		second.GapS != 3*3600 || second.Warning != nil {
		t.Fatalf("second leg (over the undecided and free blocks): %+v", second)
	}
	for i, l := range r.Legs {
		if *l.StraightM != want[i].StraightM || *l.StraightM < 2000 || *l.StraightM > 6000 {
			t.Errorf("leg %d straight %d, want %d (a few km)", i, *l.StraightM, want[i].StraightM)
		}
		for _, m := range route.Modes {
			if l.DistanceM[m] != want[i].By[m].DistanceM || l.DurationS[m] != want[i].By[m].DurationS {
				t.Errorf("leg %d %s: %d m %d s, want %+v", i, m, l.DistanceM[m], l.DurationS[m], want[i].By[m])
			}
		}
		if mode, s := want[i].Fastest(); *l.FastestMode != mode || (s > l.GapS) != (l.Warning != nil) {
			t.Errorf("leg %d fastest %s, want %s (%d s against a gap of %d s)", i, *l.FastestMode, mode, s, l.GapS)
		}
	}
	// One Google Maps link through the three places in order.
	if len(r.MapsURLs) != 1 {
		t.Fatalf("maps: %v", r.MapsURLs)
	}
	u, err := url.Parse(r.MapsURLs[0])
	if err != nil || u.Host != "www.google.com" || u.Path != "/maps/dir/" {
		t.Fatalf("maps url: %s", r.MapsURLs[0])
	}
	q := u.Query()
	if q.Get("api") != "1" || q.Get("origin") != palace.SelectedBlock.Place.Point.Latitude+","+palace.SelectedBlock.Place.Point.Longitude ||
		q.Get("waypoints") != market.SelectedBlock.Place.Point.Latitude+","+market.SelectedBlock.Place.Point.Longitude ||
		q.Get("destination") != tower.SelectedBlock.Place.Point.Latitude+","+tower.SelectedBlock.Place.Point.Longitude {
		t.Fatalf("maps query: %v", q)
	}

	// The plan page shows the warning on the market's card and in the legs, and the map's points.
	b := a.signedInBrowser(t, "pf-ben", "Ben")
	page := a.page(t, b, "/plans/"+f.plan.PlanID)
	card := page[strings.Index(page, `data-time-block-id="`+market.TimeBlockID+`"`):]
	card = card[:strings.Index(card, "</li>")]
	if !strings.Contains(card, `data-warning="NOT_ENOUGH_TIME"`) || !strings.Contains(card, "from Gyeongbokgung Palace, only 0 min between") {
		t.Fatalf("market card: %s", card)
	}
	for _, id := range []string{palace.TimeBlockID, tower.TimeBlockID} {
		c := page[strings.Index(page, `data-time-block-id="`+id+`"`):]
		if c = c[:strings.Index(c, "</li>")]; strings.Contains(c, "data-warning") {
			t.Errorf("card %s warns: %s", id, c)
		}
	}
	if !strings.Contains(page, "Not enough time:") || !strings.Contains(page, `data-stops="[{&#34;n&#34;:1,&#34;name&#34;:&#34;Gyeongbokgung Palace&#34;`) ||
		!strings.Contains(page, "Open in Google Maps") || !strings.Contains(page, static.URL("js/map.js")) {
		t.Fatalf("plan page lacks the route")
	}
	// The undecided block's two candidates are on the map, lighter.
	var pending []map[string]any
	pendingAttr := page[strings.Index(page, `data-pending="`)+len(`data-pending="`):]
	pendingAttr = strings.ReplaceAll(pendingAttr[:strings.Index(pendingAttr, `"`)], "&#34;", `"`)
	if err := json.Unmarshal([]byte(pendingAttr), &pending); err != nil || len(pending) != 2 {
		t.Fatalf("pending points: %v %s", err, pendingAttr)
	}
	// Each point names its time block, which map.js links to the block's card.
	for _, p := range pending {
		if p["time_block_id"] != undecided.TimeBlockID {
			t.Errorf("pending point %v, want it on the undecided block %s", p, undecided.TimeBlockID)
		}
	}
	var stops []map[string]any
	stopsAttr := page[strings.Index(page, `data-stops="`)+len(`data-stops="`):]
	stopsAttr = strings.ReplaceAll(stopsAttr[:strings.Index(stopsAttr, `"`)], "&#34;", `"`)
	if err := json.Unmarshal([]byte(stopsAttr), &stops); err != nil || len(stops) != 3 {
		t.Fatalf("stops: %v %s", err, stopsAttr)
	}
	for i, want := range []string{palace.TimeBlockID, market.TimeBlockID, tower.TimeBlockID} {
		if stops[i]["time_block_id"] != want || stops[i]["n"] != float64(i+1) {
			t.Errorf("stop %d: %v, want number %d on block %s", i, stops[i], i+1, want)
		}
	}
	// The route partial, as htmx asks for it.
	frag := fragment(t, a.htmx(b, "GET", "/plans/"+f.plan.PlanID+"/days/1/route", ""), 200)
	if strings.Count(frag, "data-leg") != 2 || strings.Count(frag, `data-warning="NOT_ENOUGH_TIME"`) != 1 {
		t.Fatalf("route partial: %s", frag)
	}

	// Moving the market an hour later clears the warning.
	a.do(req{Method: "PATCH", Path: f.blocks + "/" + market.SelectedBlock.BlockID, Token: f.ana,
		Body: map[string]any{"start_time": "12:00", "end_time": "12:30"}})
	if r := f.route(t, f.ana, 1); r.Legs[0].Warning != nil || r.Legs[0].GapS != 3600 {
		t.Fatalf("after the move: %+v", r.Legs[0])
	}
	// A day with one place has no legs and a search link; an empty day, neither.
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[2].CollectionPlaceID, 2, "09:00", "10:00")))
	if r := f.route(t, f.ana, 2); len(r.Legs) != 0 || len(r.MapsURLs) != 1 || !strings.Contains(r.MapsURLs[0], "/maps/search/") {
		t.Fatalf("one place: %+v", r)
	}
	if r := f.route(t, f.ana, 3); len(r.Legs) != 0 || len(r.MapsURLs) != 0 {
		t.Fatalf("empty day: %+v", r)
	}
	// Bad days.
	for _, d := range []string{"0", "31", "x", "1.5"} {
		a.do(req{Method: "GET", Path: "/plans/" + f.plan.PlanID + "/days/" + d + "/route", Token: f.ana}).problem(t, 400, "INVALID_REQUEST")
	}
	a.do(req{Method: "GET", Path: "/plans/" + f.plan.PlanID + "/days/4/route", Token: f.ana}).problem(t, 404, "PLAN_DAY_NOT_FOUND")
}

// A leg a minute or less over its gap is only TIGHT: a quiet hint on the card and in the legs,
// no amber ring; the same place twice, back to back (0 m apart), never warns.
func TestDayRouteTightAndShortWalks(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	palace := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	legs, _, _ := route.Estimator{}.Legs(context.Background(), []route.Point{pointOfJSON(t, palace), pointOfJSON(t, decodeBlock(t,
		f.add(f.ana, placeBlock(f.places[1].CollectionPlaceID, 2, "10:00", "11:00"))))})
	_, fastestS := legs[0].Fastest()
	gapMin := (fastestS - 1) / 60 // whole minutes, 1 to 60 s short of the quickest way
	start := 11*60 + gapMin
	market := decodeBlock(t, f.add(f.ana, placeBlock(f.places[1].CollectionPlaceID, 1, fmt.Sprintf("%02d:%02d", start/60, start%60), "15:00")))
	r := f.route(t, f.ben, 1)
	if len(r.Legs) != 1 || r.Legs[0].GapS != gapMin*60 || r.Legs[0].Warning == nil || *r.Legs[0].Warning != "TIGHT" {
		t.Fatalf("leg %d s short: %+v", fastestS-gapMin*60, r.Legs)
	}
	b := a.signedInBrowser(t, "pf-ben", "Ben")
	page := a.page(t, b, "/plans/"+f.plan.PlanID)
	card := page[strings.Index(page, `data-time-block-id="`+market.TimeBlockID+`"`):]
	card = card[:strings.Index(card, "</li>")]
	if !strings.Contains(card, `data-warning="TIGHT"`) || strings.Contains(card, "ring-amber-400") || !strings.Contains(card, "between: tight") {
		t.Fatalf("market card: %s", card)
	}
	if !strings.Contains(page, "Tight: ") || strings.Contains(page, "Not enough time:") {
		t.Fatalf("the legs do not say tight")
	}

	// The palace again right after itself: no way to go, nothing to warn about.
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 3, "10:00", "11:00")))
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 3, "11:00", "12:00")))
	if r := f.route(t, f.ana, 3); len(r.Legs) != 1 || r.Legs[0].GapS != 0 || r.Legs[0].Warning != nil {
		t.Fatalf("back to back at one place: %+v", r.Legs)
	}
}

// With OSRM configured the numbers come from it: one request per profile for the whole day.
func TestDayRouteFromOSRM(t *testing.T) {
	var requests atomic.Int32
	osrm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		coords := strings.Split(strings.TrimPrefix(r.URL.Path, "/route/v1/driving/"), ";")
		if !strings.HasPrefix(r.URL.Path, "/route/v1/driving/") || len(coords) != 3 {
			http.Error(w, `{"code":"InvalidQuery"}`, 400)
			return
		}
		fmt.Fprint(w, `{"code":"Ok","routes":[{"distance":9000,"duration":1500,"legs":[{"distance":5000,"duration":900},{"distance":4000,"duration":600}]}],"waypoints":[]}`)
	}))
	t.Cleanup(osrm.Close)
	a := newTestAppWith(t, func(d *Deps) { d.Router = route.NewOSRM(osrm.URL, "", nil) })
	f := newPlanFixtureOn(t, a)
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[1].CollectionPlaceID, 1, "11:10", "12:00")))
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[2].CollectionPlaceID, 1, "15:00", "16:00")))

	r := f.route(t, f.ana, 1)
	// The drive of each leg (its distance asked of the first), and the first's distance by transit.
	type legShape struct{ DriveM, DriveS, TransitM int }
	type routeShape struct {
		Source route.Source
		Legs   []legShape
	}
	gotRoute := routeShape{Source: r.Source}
	for i, l := range r.Legs {
		leg := legShape{DriveS: l.DurationS[route.Drive]}
		if i == 0 {
			leg.DriveM, leg.TransitM = l.DistanceM[route.Drive], l.DistanceM[route.Transit]
		}
		gotRoute.Legs = append(gotRoute.Legs, leg)
	}
	if diff := cmp.Diff(routeShape{Source: route.SourceOSRM, Legs: []legShape{{DriveM: 5000, DriveS: 900, TransitM: 5000}, {DriveS: 600}}}, gotRoute); diff != "" {
		t.Fatalf("route (-want +got):\n%s", diff)
	}
	// 15 minutes' drive (the quickest) does not fit in 10.
	if r.Legs[0].Warning == nil || *r.Legs[0].FastestMode != route.Drive || r.Legs[1].Warning != nil {
		t.Fatalf("warnings: %+v", r.Legs)
	}
	f.route(t, f.ana, 1)
	if n := requests.Load(); n != 1 {
		t.Fatalf("%d requests to OSRM, want 1 (the second answer is cached)", n)
	}
}

func TestDistanceAndDurationForPeople(t *testing.T) {
	for m, want := range map[int]string{0: "0 m", 850: "850 m", 1000: "1.0 km", 3140: "3.1 km", 42400: "42 km"} {
		if got := distance(m); got != want {
			t.Errorf("distance(%d) = %q, want %q", m, got, want)
		}
	}
	for s, want := range map[int]string{0: "0 min", 1: "1 min", 60: "1 min", 61: "2 min", 3600: "1 h", 3900: "1 h 5 min"} {
		if got := duration(context.Background(), s); got != want {
			t.Errorf("duration(%d) = %q, want %q", s, got, want)
		}
	}
	ko := i18n.With(context.Background(), i18n.For(i18n.Korean))
	for s, want := range map[int]string{60: "1분", 3600: "1시간", 3900: "1시간 5분"} {
		if got := duration(ko, s); got != want {
			t.Errorf("duration(%d) in Korean = %q, want %q", s, got, want)
		}
	}
}
