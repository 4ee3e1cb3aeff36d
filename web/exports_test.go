package web

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-ical"
	"github.com/google/go-cmp/cmp"

	"tripplan/internal/export/gpxschema"
)

// exportFixture: day 1 Gyeongbokgung 10:00–12:00 (memo) and Gwangjang Market 14:00–15:00
// (confirmed between it and N Seoul Tower), an undecided block and free time (neither is in
// the calendar), day 2 N Seoul Tower 19:00–20:30; an opinion and an expense.
type exportFixture struct {
	*planFixture
	palace, market, undecided timeBlockJSON
}

func newExportFixture(t *testing.T) *exportFixture {
	f := &exportFixture{planFixture: newPlanFixture(t)}
	a := f.a
	f.palace = decodeBlock(t, f.add(f.ana, map[string]any{"type": "PLACE", "collection_place_id": f.places[0].CollectionPlaceID,
		"day": 1, "start_time": "10:00", "end_time": "12:00", "memo": "Hanbok: free entry, gate at exit 5"}))
	f.market = decodeBlock(t, f.add(f.ana, placeBlock(f.places[1].CollectionPlaceID, 1, "14:00", "15:00")))
	withTower := decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + f.market.TimeBlockID + "/candidates", Token: f.ben,
		Body: map[string]any{"collection_place_ids": []string{f.places[2].CollectionPlaceID}}}))
	f.market = decodeBlock(t, a.do(req{Method: "PATCH", Path: f.blocks + "/" + f.market.TimeBlockID + "/selection", Token: f.ana,
		Body: map[string]any{"block_id": withTower.Candidates[1].BlockID}}))
	f.undecided = decodeBlock(t, f.add(f.ana, placeBlock(f.places[2].CollectionPlaceID, 1, "16:00", "17:00")))
	decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/" + f.undecided.TimeBlockID + "/candidates", Token: f.ana,
		Body: map[string]any{"collection_place_ids": []string{f.places[0].CollectionPlaceID}}}))
	decodeBlock(t, f.add(f.ana, map[string]any{"type": "FREE", "day": 1, "start_time": "18:00", "end_time": "19:00"}))
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[2].CollectionPlaceID, 2, "19:00", "20:30")))
	if res := a.do(req{Method: "POST", Path: "/plans/" + f.plan.PlanID + "/blocks/" + f.palace.SelectedBlock.BlockID + "/opinions", Token: f.ben,
		Body: map[string]any{"type": "POSITIVE", "comment": "Go early"}}); res.Status >= 300 {
		t.Fatalf("opinion: %d %s", res.Status, res.Body)
	}
	f.addExpense(t, map[string]any{"day": 1, "items": []map[string]any{{"name": "Taxi", "cost": 8000}}})
	return f
}

func TestPlanTakesItsFirstPlacesTimeZone(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	if f.plan.TimeZone != "UTC" {
		t.Fatalf("a new plan's zone: %q", f.plan.TimeZone)
	}
	zone := func() string {
		var p planJSON
		json.Unmarshal(a.do(req{Method: "GET", Path: plan, Token: f.ana}).Body, &p)
		return p.TimeZone
	}
	decodeBlock(t, f.add(f.ana, map[string]any{"type": "FREE", "day": 1, "start_time": "08:00", "end_time": "09:00"}))
	if z := zone(); z != "UTC" {
		t.Fatalf("free time has no place: %q", z)
	}
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "10:00", "11:00")))
	if z := zone(); z != "Asia/Seoul" {
		t.Fatalf("after the first place: %q", z)
	}
	// A later place elsewhere does not move it; a member's choice does, and sticks.
	decodeBlock(t, a.do(req{Method: "POST", Path: f.blocks + "/by-place", Token: f.ana, Body: map[string]any{
		"place_id": f.otherPlace.Place.PlaceID, "day": 2, "start_time": "10:00", "end_time": "11:00"}}))
	if z := zone(); z != "Asia/Seoul" {
		t.Fatalf("after a place in Paris: %q", z)
	}
	body := map[string]any{"title": "Seoul trip", "start_date": "2026-04-01", "end_date": "2026-04-03", "time_zone": "Asia/Tokyo"}
	if res := a.do(req{Method: "PUT", Path: plan, Token: f.ben, Body: body}); res.Status != 200 || zone() != "Asia/Tokyo" {
		t.Fatalf("set the zone: %d %s", res.Status, res.Body)
	}
	delete(body, "time_zone")
	a.do(req{Method: "PUT", Path: plan, Token: f.ben, Body: body})
	if z := zone(); z != "Asia/Tokyo" {
		t.Fatalf("an edit without a zone keeps it: %q", z)
	}
	for _, bad := range []string{"Mars/Base", "Local", "../../etc/passwd", "+09:00"} {
		body["time_zone"] = bad
		p := a.do(req{Method: "PUT", Path: plan, Token: f.ben, Body: body}).problem(t, 400, "INVALID_REQUEST")
		if !strings.Contains(string(mustJSON(t, p)), "time_zone") {
			t.Errorf("%q: %v", bad, p)
		}
	}
	created := a.do(req{Method: "POST", Path: "/plans", Token: f.ana, Body: map[string]any{
		"title": "NY", "start_date": "2026-05-01", "end_date": "2026-05-02", "time_zone": "America/New_York"}})
	var p planJSON
	if json.Unmarshal(created.Body, &p); created.Status != 201 || p.TimeZone != "America/New_York" {
		t.Fatalf("create with a zone: %d %s", created.Status, created.Body)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// events parses an iCalendar body with a real parser.
func events(t *testing.T, body []byte) (*ical.Calendar, []ical.Event) {
	t.Helper()
	cal, err := ical.NewDecoder(bytes.NewReader(body)).Decode()
	if err != nil {
		t.Fatalf("not iCalendar: %v\n%s", err, body)
	}
	return cal, cal.Events()
}

func TestCalendarExport(t *testing.T) {
	f := newExportFixture(t)
	a := f.a
	res := a.do(req{Method: "GET", Path: "/plans/" + f.plan.PlanID + "/export.ics", Token: f.ben})
	if res.Status != 200 || res.Header.Get("Content-Type") != "text/calendar; charset=utf-8" ||
		res.Header.Get("Content-Disposition") != `attachment; filename=Seoul-trip.ics` {
		t.Fatalf("%d %v", res.Status, res.Header)
	}
	cal, evs := events(t, res.Body)
	if name := cal.Props.Get("X-WR-CALNAME"); name == nil || name.Value != "Seoul trip" || cal.Props.Get("REFRESH-INTERVAL") != nil {
		t.Fatalf("calendar props: %v", cal.Props)
	}
	// The confirmed blocks only: the palace, the tower chosen at 14:00, the tower on day 2.
	seoul, _ := time.LoadLocation("Asia/Seoul")
	want := []struct {
		summary    string
		start, end time.Time
	}{
		{"Gyeongbokgung Palace", time.Date(2026, 4, 1, 10, 0, 0, 0, seoul), time.Date(2026, 4, 1, 12, 0, 0, 0, seoul)},
		{"N Seoul Tower", time.Date(2026, 4, 1, 14, 0, 0, 0, seoul), time.Date(2026, 4, 1, 15, 0, 0, 0, seoul)},
		{"N Seoul Tower", time.Date(2026, 4, 2, 19, 0, 0, 0, seoul), time.Date(2026, 4, 2, 20, 30, 0, 0, seoul)},
	}
	if len(evs) != len(want) {
		t.Fatalf("%d events, want %d:\n%s", len(evs), len(want), res.Body)
	}
	for i, w := range want {
		e := evs[i]
		start, err1 := e.DateTimeStart(nil)
		end, err2 := e.DateTimeEnd(nil)
		if err1 != nil || err2 != nil || !start.Equal(w.start) || !end.Equal(w.end) {
			t.Errorf("event %d: %v–%v (%v %v), want %v–%v", i, start, end, err1, err2, w.start, w.end)
		}
		if s, _ := e.Props.Text(ical.PropSummary); s != w.summary {
			t.Errorf("event %d summary %q", i, s)
		}
		if tz := e.Props.Get(ical.PropDateTimeStart).Params.Get(ical.ParamTimezoneID); tz != "Asia/Seoul" {
			t.Errorf("event %d TZID %q", i, tz)
		}
		if loc, _ := e.Props.Text(ical.PropLocation); !strings.HasPrefix(loc, w.summary+", ") || len(loc) < len(w.summary)+10 {
			t.Errorf("event %d location %q: the name and address", i, loc)
		}
		if e.Props.Get(ical.PropGeo) == nil || e.Props.Get(ical.PropUID) == nil {
			t.Errorf("event %d: no GEO or UID", i)
		}
	}
	if d, _ := evs[0].Props.Text(ical.PropDescription); !strings.Contains(d, "Hanbok: free entry, gate at exit 5") {
		t.Errorf("memo: %q", d)
	}
	if uid, _ := evs[0].Props.Text(ical.PropUID); !strings.HasPrefix(uid, f.palace.TimeBlockID+"@") {
		t.Errorf("uid %q", uid)
	}
}

func TestCalendarFeed(t *testing.T) {
	f := newExportFixture(t)
	a := f.a
	feed := "/plans/" + f.plan.PlanID + "/calendar-feed"
	var status calendarFeedJSON
	json.Unmarshal(a.do(req{Method: "GET", Path: feed, Token: f.ben}).Body, &status)
	if status.Active || status.URL != nil {
		t.Fatalf("before: %+v", status)
	}
	res := a.do(req{Method: "POST", Path: feed, Token: f.ben})
	var made calendarFeedJSON
	json.Unmarshal(res.Body, &made)
	type madeShape struct {
		Status                         int
		Active, CalendarURL, WebcalURL bool
	}
	gotMade := madeShape{Status: res.Status, Active: made.Active,
		CalendarURL: made.URL != nil && strings.HasPrefix(*made.URL, a.http.URL+"/calendar/"),
		WebcalURL:   made.WebcalURL != nil && strings.HasPrefix(*made.WebcalURL, "webcal://")}
	if diff := cmp.Diff(madeShape{Status: 201, Active: true, CalendarURL: true, WebcalURL: true}, gotMade); diff != "" {
		t.Fatalf("make (-want +got):\n%s\n%s", diff, res.Body)
	}
	path := strings.TrimPrefix(*made.URL, a.http.URL)
	// A calendar app: no token, no cookie.
	got := a.do(req{Method: "GET", Path: path})
	if got.Status != 200 {
		t.Fatalf("feed: %d %s", got.Status, got.Body)
	}
	cal, evs := events(t, got.Body)
	if len(evs) != 3 || cal.Props.Get("REFRESH-INTERVAL") == nil {
		t.Fatalf("feed: %d events, props %v", len(evs), cal.Props)
	}
	// It follows the plan.
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 3, "09:00", "10:00")))
	if _, evs := events(t, a.do(req{Method: "GET", Path: path}).Body); len(evs) != 4 {
		t.Fatalf("after a new block: %d events", len(evs))
	}
	json.Unmarshal(a.do(req{Method: "GET", Path: feed, Token: f.ben}).Body, &status)
	if !status.Active || status.URL != nil {
		t.Fatalf("status shows no address again: %+v", status)
	}
	// A new address turns the old one off; so does turning it off, and leaving the plan.
	res = a.do(req{Method: "POST", Path: feed, Token: f.ben})
	json.Unmarshal(res.Body, &made)
	a.do(req{Method: "GET", Path: path}).problem(t, 404, "NOT_FOUND")
	path = strings.TrimPrefix(*made.URL, a.http.URL)
	if a.do(req{Method: "GET", Path: path}).Status != 200 {
		t.Fatal("the new address does not work")
	}
	if res := a.do(req{Method: "DELETE", Path: feed, Token: f.ben}); res.Status != 204 {
		t.Fatalf("turn off: %d", res.Status)
	}
	a.do(req{Method: "GET", Path: path}).problem(t, 404, "NOT_FOUND")
	json.Unmarshal(a.do(req{Method: "POST", Path: feed, Token: f.ben}).Body, &made)
	path = strings.TrimPrefix(*made.URL, a.http.URL)
	if r := a.do(req{Method: "DELETE", Path: "/plans/" + f.plan.PlanID + "/members/me", Token: f.ben}); r.Status != 204 {
		t.Fatalf("leave: %d", r.Status)
	}
	a.do(req{Method: "GET", Path: path}).problem(t, 404, "NOT_FOUND")
	link := a.invite(f.ana, "/plans/"+f.plan.PlanID)
	if r := a.do(req{Method: "GET", Path: strings.TrimPrefix(link.URL, a.http.URL), Token: f.ben}); r.Status != 302 {
		t.Fatalf("rejoin: %d", r.Status)
	}
	a.do(req{Method: "GET", Path: path}).problem(t, 404, "NOT_FOUND") // rejoining does not revive it
	for _, bad := range []string{"x", "x.ics", strings.Repeat("a", 500) + ".ics", "%00.ics"} {
		if r := a.do(req{Method: "GET", Path: "/calendar/" + bad}); r.Status != 404 {
			t.Errorf("%s: %d", bad, r.Status)
		}
	}
}

func TestGPXExport(t *testing.T) {
	f := newExportFixture(t)
	res := f.a.do(req{Method: "GET", Path: "/plans/" + f.plan.PlanID + "/export.gpx", Token: f.ana})
	if res.Status != 200 || res.Header.Get("Content-Type") != "application/gpx+xml" {
		t.Fatalf("%d %v", res.Status, res.Header)
	}
	if err := gpxschema.Validate(t, res.Body); err != nil {
		t.Fatalf("not valid GPX 1.1: %v\n%s", err, res.Body)
	}
	var doc struct {
		Wpt []struct {
			Lat  float64 `xml:"lat,attr"`
			Name string  `xml:"name"`
		} `xml:"wpt"`
		Rte []struct {
			Name   string `xml:"name"`
			Number int    `xml:"number"`
			Pts    []struct {
				Name string `xml:"name"`
				Time string `xml:"time"`
			} `xml:"rtept"`
		} `xml:"rte"`
	}
	if err := xml.Unmarshal(res.Body, &doc); err != nil {
		t.Fatal(err)
	}
	// Two places (each once), two days.
	if len(doc.Wpt) != 2 || doc.Wpt[0].Name != "Gyeongbokgung Palace" || doc.Wpt[1].Name != "N Seoul Tower" || doc.Wpt[0].Lat < 37 {
		t.Fatalf("waypoints: %+v", doc.Wpt)
	}
	// Each day's route: its number, how many points, and the first day's first point.
	type routeShape struct{ Number, Points int }
	var routes []routeShape
	for _, r := range doc.Rte {
		routes = append(routes, routeShape{Number: r.Number, Points: len(r.Pts)})
	}
	if diff := cmp.Diff([]routeShape{{Number: 1, Points: 2}, {Number: 2, Points: 1}}, routes); diff != "" {
		t.Fatalf("routes (-want +got):\n%s", diff)
	}
	if first := doc.Rte[0].Pts[0]; first.Name != "10:00 Gyeongbokgung Palace" || first.Time != "2026-04-01T01:00:00Z" {
		t.Fatalf("the first point: %+v", first)
	}
}

func TestJSONExport(t *testing.T) {
	f := newExportFixture(t)
	res := f.a.do(req{Method: "GET", Path: "/plans/" + f.plan.PlanID + "/export.json", Token: f.ben})
	var x planExportJSON
	if err := json.Unmarshal(res.Body, &x); err != nil || res.Status != 200 || x.Format != "tripplan.plan" || x.Version != 2 {
		t.Fatalf("%d %v %.300s", res.Status, err, res.Body)
	}
	type exportShape struct {
		PlanID, TimeZone     string
		Members, Collections int
		BlocksPerDay         []int
	}
	gotExport := exportShape{PlanID: x.Plan.PlanID, TimeZone: x.Plan.TimeZone, Members: len(x.Members), Collections: len(x.Collections)}
	for _, d := range x.Days {
		gotExport.BlocksPerDay = append(gotExport.BlocksPerDay, len(d.Blocks))
	}
	if diff := cmp.Diff(exportShape{PlanID: f.plan.PlanID, TimeZone: "Asia/Seoul", Members: 2, Collections: 1, BlocksPerDay: []int{4, 1, 0}}, gotExport); diff != "" {
		t.Fatalf("export (-want +got):\n%s", diff)
	}
	palace := x.Days[0].Blocks[0]
	ops := palace.Opinions[f.palace.SelectedBlock.BlockID]
	if palace.TimeBlockID != f.palace.TimeBlockID || len(ops) != 1 || ops[0].Comment != "Go early" || palace.Candidates[0].Memo != "Hanbok: free entry, gate at exit 5" {
		t.Fatalf("palace: %+v", palace)
	}
	var taxi bool
	for _, e := range x.Expenses {
		taxi = taxi || len(e.Items) == 1 && e.Items[0].Name == "Taxi" && e.Items[0].Cost.Minor == 8000
	}
	if !taxi || x.Budget.TotalCost.Minor < 8000 {
		t.Fatalf("expenses: %+v budget %+v", x.Expenses, x.Budget)
	}
}

func TestExportsHaveAQueryBudget(t *testing.T) {
	f := newExportFixture(t)
	count := func() map[string]int {
		out := map[string]int{}
		for ext, file := range map[string]string{"ics": "export.ics", "gpx": "export.gpx", "json": "export.json", "csv": "expenses.csv"} {
			f.a.queries.Reset()
			if res := f.a.do(req{Method: "GET", Path: "/plans/" + f.plan.PlanID + "/" + file, Token: f.ana}); res.Status != 200 {
				t.Fatalf("%s: %d", ext, res.Status)
			}
			out[ext] = f.a.queries.Count()
		}
		return out
	}
	before := count()
	// The calendar and the GPX: membership, plan, days, time blocks, candidates, their places
	// (PlanSchedule). The JSON: those, then opinions, members, linked collections, budget and
	// its costs, expenses, expense items, expenses' places. The words of the calendar (its
	// events' days), the GPX (its waypoints' kinds) and the JSON (its category names) cost an
	// access token's holder the read of their language setting. The expenses' CSV: membership,
	// title, days, members, time blocks, the plan's event mark and the costs (kept, and
	// confirmed against the mark across instances), expenses, expense items, expenses'
	// places, and the language setting for its header.
	for ext, n := range before {
		if budget := map[string]int{"ics": 7, "gpx": 7, "json": 15, "csv": 11}[ext]; n > budget {
			t.Errorf("%s: %d statements, budget %d", ext, n, budget)
		}
	}
	// Twice the blocks, more expenses, the same statements.
	for d := 1; d <= 3; d++ {
		decodeBlock(t, f.add(f.ana, placeBlock(f.places[d-1].CollectionPlaceID, d, "06:00", "07:00")))
		decodeBlock(t, f.add(f.ana, map[string]any{"type": "FREE", "day": d, "start_time": "07:00", "end_time": "08:00"}))
		f.addExpense(t, map[string]any{"day": d, "items": []map[string]any{{"name": "Snack", "cost": 3000}, {"name": "Water", "cost": 1000}}})
	}
	if after := count(); !maps.Equal(after, before) {
		t.Errorf("statements grew with the plan: %v → %v", before, after)
	}
}

func TestPrintPage(t *testing.T) {
	f := newExportFixture(t)
	b := f.a.signedInBrowser(t, "pf-ben", "Ben")
	page := f.a.page(t, b, "/plans/"+f.plan.PlanID+"/print")
	for _, want := range []string{"Day 1 · Wednesday 1 April", "Day 2 · Thursday 2 April", "Day 3 · Friday 3 April", "Nothing planned.",
		"10:00–12:00", "Gyeongbokgung Palace", "Hanbok: free entry, gate at exit 5", "To decide", "One of: N Seoul Tower · Gyeongbokgung Palace",
		"Free time", "times in Asia/Seoul", "data-print", "print:hidden", "by drive from Gyeongbokgung Palace"} {
		if !strings.Contains(page, want) {
			t.Errorf("print page lacks %q", want)
		}
	}
}
