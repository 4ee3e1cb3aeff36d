package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// fieldErrors is the field list of a problem answer, as field → reason.
func fieldErrors(t *testing.T, p map[string]any) map[string]string {
	t.Helper()
	out := map[string]string{}
	list, _ := p["errors"].([]any)
	for _, e := range list {
		m, _ := e.(map[string]any)
		field, _ := m["field"].(string)
		reason, _ := m["reason"].(string)
		out[field] = reason
	}
	return out
}

// TestTypeErrorsNameTheJSONField sends a value of the wrong JSON type to fields of several
// bodies — top-level fields, fields of an embedded Go struct, nested objects and list
// entries — and expects the field error to name the JSON path the client sent, never a Go
// path such as "SlotRequest.start_time".
func TestTypeErrorsNameTheJSONField(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	block := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "09:00", "10:00")))
	expense := f.addExpense(t, map[string]any{"day": 1, "items": item("Taxi", 1000)})
	for _, c := range []struct {
		name, method, path string
		body               any
		field              string
	}{
		{"add block start_time", "POST", f.blocks, map[string]any{"type": "FREE", "day": 1, "start_time": 900, "end_time": "10:00"}, "start_time"},
		{"add block memo", "POST", f.blocks, map[string]any{"type": "FREE", "day": 1, "start_time": "09:00", "end_time": "10:00", "memo": []int{1}}, "memo"},
		{"add block by place end_time", "POST", f.blocks + "/by-place", map[string]any{"place_id": "x", "day": 1, "start_time": "09:00", "end_time": true}, "end_time"},
		{"manual block's place name", "POST", f.blocks + "/manual", map[string]any{"day": 1, "start_time": "09:00", "end_time": "10:00",
			"manual_place": map[string]any{"name": 3, "address": "Mapo-gu"}}, "manual_place.name"},
		{"manual block's place", "POST", f.blocks + "/manual", map[string]any{"day": 1, "start_time": "09:00", "end_time": "10:00", "manual_place": "Home"}, "manual_place"},
		{"move a block", "PATCH", f.blocks + "/" + block.Candidates[0].BlockID, map[string]any{"start_time": 9, "end_time": "10:00"}, "start_time"},
		{"candidates list entry", "POST", f.blocks + "/" + block.TimeBlockID + "/candidates", map[string]any{"collection_place_ids": []any{1}}, "collection_place_ids"},
		{"new expense paid_by", "POST", plan + "/expenses", map[string]any{"day": 1, "items": item("A", 1), "paid_by": 5}, "paid_by"},
		{"new expense item name", "POST", plan + "/expenses", map[string]any{"day": 1, "items": []any{map[string]any{"name": 5, "cost": 1}}}, "items.name"},
		{"expense object split_among", "PUT", plan + "/expenses/" + expense.ExpenseID, map[string]any{"items": item("A", 1), "split_among": "everyone"}, "split_among"},
		{"expense item list", "PUT", plan + "/expenses/" + expense.ExpenseID, []any{map[string]any{"name": 5, "cost": 1}}, "name"},
		{"opinion tags", "POST", f.blocks + "/" + block.Candidates[0].BlockID + "/opinions", map[string]any{"type": "POSITIVE", "tag_ids": "view"}, "tag_ids"},
		{"plan title", "PUT", plan, map[string]any{"title": 7, "start_date": "2026-04-01", "end_date": "2026-04-03"}, "title"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := a.do(req{Method: c.method, Path: c.path, Token: f.ana, Body: c.body}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
			fields := fieldErrors(t, p)
			if _, ok := fields[c.field]; !ok || len(fields) != 1 {
				t.Fatalf("field errors %v, want one for %q", fields, c.field)
			}
		})
	}
}

// TestJSONPathDropsOnlyEmbeddedStructNames checks the mapping from encoding/json's error path
// to the client's path on shapes the request bodies do not all have.
func TestJSONPathDropsOnlyEmbeddedStructNames(t *testing.T) {
	type inner struct {
		Cost int `json:"cost"`
	}
	type Embedded struct {
		Start string `json:"start_time"`
		Items []inner
	}
	type body struct {
		Embedded
		Slot    Embedded          `json:"slot"`
		ByKey   map[string]*inner `json:"by_key"`
		Plain   int
		Skipped int `json:"-"`
	}
	for goPath, want := range map[string]string{
		"Embedded.start_time":    "start_time",
		"Embedded.Items.cost":    "Items.cost",
		"slot.start_time":        "slot.start_time",
		"slot.Embedded":          "slot.Embedded", // not a field of Embedded: kept as it is
		"by_key.cost":            "by_key.cost",
		"Plain":                  "Plain",
		"Unknown.Embedded.x":     "Unknown.Embedded.x",
		"Embedded.Items.missing": "Items.missing",
	} {
		if got := jsonPath(reflect.TypeOf(&body{}), goPath); got != want {
			t.Errorf("jsonPath(%q) = %q, want %q", goPath, got, want)
		}
	}
	// And as encoding/json reports it.
	var b body
	var te *json.UnmarshalTypeError
	err := json.Unmarshal([]byte(`{"start_time": 1}`), &b)
	if !errors.As(err, &te) || te.Field != "Embedded.start_time" {
		t.Fatalf("encoding/json reports %v (%+v); this test's premise changed", err, te)
	}
}

// TestManualPlaceNeedsAnAddress: docs/API.md §Time blocks lists manual_place as {name, address, url?}.
func TestManualPlaceNeedsAnAddress(t *testing.T) {
	f := newPlanFixture(t)
	for _, place := range []map[string]any{{"name": "Home"}, {"name": "Home", "address": "  "}, {"name": "Home", "address": nil}} {
		p := f.a.do(req{Method: "POST", Path: f.blocks + "/manual", Token: f.ben,
			Body: map[string]any{"day": 1, "start_time": "09:00", "end_time": "10:00", "manual_place": place}}).problem(t, http.StatusBadRequest, "INVALID_REQUEST")
		if fields := fieldErrors(t, p); fields["manual_place.address"] == "" || len(fields) != 1 {
			t.Errorf("%v: field errors %v, want manual_place.address", place, fields)
		}
	}
	// The browser form sends it too.
	res := f.a.do(req{Method: "POST", Path: f.blocks + "/manual", Token: f.ben, Body: "day=1&start_time=09:00&end_time=10:00&manual_place.name=Home",
		Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}})
	if fields := fieldErrors(t, res.problem(t, http.StatusBadRequest, "INVALID_REQUEST")); fields["manual_place.address"] == "" {
		t.Errorf("form: field errors %v", fields)
	}
	decodeBlock(t, f.a.do(req{Method: "POST", Path: f.blocks + "/manual", Token: f.ben,
		Body: map[string]any{"day": 1, "start_time": "09:00", "end_time": "10:00", "manual_place": map[string]any{"name": "Home", "address": "Mapo-gu"}}}))
}

// TestHtmxGetOfAPageAnswersItsPartial: a non-boosted htmx GET of the plan page answers the day
// grid (of the day asked for) and one of the collection page its place list, as the plans
// and collections lists answer their cards; boosted navigations and history restores still
// get the whole page.
func TestHtmxGetOfAPageAnswersItsPartial(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[1].CollectionPlaceID, 2, "09:00", "10:00")))
	ana := a.signedInBrowser(t, "pf-ana", "Ana")
	plan, col := "/plans/"+f.plan.PlanID, "/collections/"+f.collection

	day := fragment(t, a.htmx(ana, "GET", plan+"?day=2", ""), http.StatusOK)
	if !strings.Contains(day, `id="day"`) || !strings.Contains(day, `data-day="2"`) || !strings.Contains(day, "Gwangjang Market") ||
		strings.Contains(day, `id="block-dialog"`) {
		t.Fatalf("plan partial: %.400s", day)
	}
	if day := fragment(t, a.htmx(ana, "GET", plan+"?day=99", ""), http.StatusOK); !strings.Contains(day, `data-day="1"`) {
		t.Fatalf("plan partial for a day out of range: %.300s", day)
	}
	places := fragment(t, a.htmx(ana, "GET", col+"?sort=OLDEST", ""), http.StatusOK)
	if !strings.Contains(places, `id="place-`+f.places[0].CollectionPlaceID+`"`) ||
		strings.Index(places, f.places[0].CollectionPlaceID) > strings.Index(places, f.places[2].CollectionPlaceID) {
		t.Fatalf("collection partial: %.400s", places)
	}
	for _, h := range []map[string]string{{"HX-Boosted": "true"}, {"HX-History-Restore-Request": "true"}} {
		h["Accept"], h["HX-Request"] = "text/html", "true"
		for _, path := range []string{plan, col} {
			res := a.do(req{Method: "GET", Path: path, Client: ana, Header: h})
			if res.Status != http.StatusOK || !strings.Contains(string(res.Body), "<html") {
				t.Errorf("%s with %v: %d, want the whole page", path, h, res.Status)
			}
		}
	}
	// JSON clients still get the resource.
	if res := a.do(req{Method: "GET", Path: plan, Token: f.ana}); res.Status != http.StatusOK || res.json(t)["plan_id"] != f.plan.PlanID {
		t.Fatalf("JSON plan: %d %s", res.Status, res.Body)
	}
}
