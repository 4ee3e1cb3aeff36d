package web

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func dayGapsOf(t *testing.T, f *planFixture, day, query string) dayGapsJSON {
	t.Helper()
	res := f.a.do(req{Method: "GET", Path: "/plans/" + f.plan.PlanID + "/days/" + day + "/gaps" + query, Token: f.ben})
	if res.Status != http.StatusOK {
		t.Fatalf("gaps: %d %s", res.Status, res.Body)
	}
	var out dayGapsJSON
	if err := json.Unmarshal(res.Body, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// names are the suggestions' place names, in order.
func names(g gapJSON) []string {
	out := []string{}
	for _, s := range g.Suggestions {
		out = append(out, s.Place.Name)
	}
	return out
}

// TestDayGaps: a day's gaps of an hour or more, each with the linked collections' places not
// in the plan that add the least travel (none without coordinates); open-ended gaps rank by
// the distance to their one stop, a day with no stops keeps the collection's order. A
// suggestion is added by POST …/blocks at the gap's start until its block end; then it is in
// the plan and no longer offered, and the hour left is still a gap.
func TestDayGaps(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	for _, q := range []string{"Lotte World Tower", "Bukchon Hanok Village", "Olympic Park"} {
		f.places = append(f.places, a.addPlace(f.ana, f.collection, a.placeID(f.ana, q)))
	}
	// f.places: 0 Gyeongbokgung Palace, 1 Gwangjang Market, 2 N Seoul Tower, 3 Lotte World
	// Tower, 4 Bukchon Hanok Village, 5 Olympic Park. The Olympic Park's coordinates are lost.
	if _, err := a.db.Exec(`UPDATE places SET latitude = NULL, longitude = NULL WHERE id = $1`, f.places[5].Place.PlaceID); err != nil {
		t.Fatal(err)
	}
	palace := decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "09:00", "10:00")))
	decodeBlock(t, f.add(f.ana, map[string]any{"type": "FREE", "day": 1, "start_time": "12:00", "end_time": "12:30"}))
	market := decodeBlock(t, f.add(f.ana, placeBlock(f.places[1].CollectionPlaceID, 1, "13:00", "14:00")))
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[2].CollectionPlaceID, 1, "14:30", "21:00")))

	d := dayGapsOf(t, f, "1", "")
	if d.DayInfo.Day != 1 || len(d.Gaps) != 1 {
		t.Fatalf("day 1's gaps: %+v", d)
	}
	// 10:00–12:00 (the 30 minutes between free time and the market are too short).
	g := d.Gaps[0]
	if g.StartTime != "10:00:00.000Z" || g.EndTime != "12:00:00.000Z" || g.BlockEndTime != "11:00:00.000Z" ||
		deref(g.PreviousTimeBlockID) != palace.TimeBlockID || deref(g.NextTimeBlockID) != market.TimeBlockID {
		t.Fatalf("the gap %+v", g)
	}
	// Bukchon lies between the palace and the market; Lotte World Tower is far east. The
	// palace, the market and the tower are in the plan; the park has no coordinates.
	if got := names(g); strings.Join(got, ",") != "Bukchon Hanok Village,Lotte World Tower" {
		t.Fatalf("suggestions %v", got)
	}
	if s := g.Suggestions; s[0].AddedTravelS == nil || s[1].AddedTravelS == nil || *s[0].AddedTravelS > *s[1].AddedTravelS ||
		s[0].CollectionPlaceID != f.places[4].CollectionPlaceID || s[0].Place.Category.Level1.ID == "" {
		t.Fatalf("suggestions %+v", s)
	}

	// Day 2 is empty: one gap over the usual hours, no stops, the collection's order (most
	// recently added first) and no travel.
	empty := dayGapsOf(t, f, "2", "")
	if len(empty.Gaps) != 1 || empty.Gaps[0].StartTime != "09:00:00.000Z" || empty.Gaps[0].EndTime != "21:00:00.000Z" ||
		empty.Gaps[0].PreviousTimeBlockID != nil || empty.Gaps[0].NextTimeBlockID != nil {
		t.Fatalf("day 2's gaps: %+v", empty)
	}
	if got := names(empty.Gaps[0]); strings.Join(got, ",") != "Bukchon Hanok Village,Lotte World Tower" || empty.Gaps[0].Suggestions[0].AddedTravelS != nil {
		t.Fatalf("day 2's suggestions %v", empty.Gaps[0].Suggestions)
	}

	// Filling the gap by the ordinary block API.
	s := g.Suggestions[0]
	added := decodeBlock(t, f.add(f.ben, placeBlock(s.CollectionPlaceID, 1, g.StartTime, g.BlockEndTime)))
	if added.BlockStatus != "DIRECT" || added.SelectedBlock == nil || added.SelectedBlock.Place.Name != "Bukchon Hanok Village" {
		t.Fatalf("added %+v", added)
	}
	after := dayGapsOf(t, f, "1", "")
	if len(after.Gaps) != 1 || after.Gaps[0].StartTime != "11:00:00.000Z" || deref(after.Gaps[0].PreviousTimeBlockID) != added.TimeBlockID ||
		strings.Join(names(after.Gaps[0]), ",") != "Lotte World Tower" {
		t.Fatalf("after filling, the exact hour left: %+v", after.Gaps)
	}
	// ?start= answers the gap starting then, or none.
	if one := dayGapsOf(t, f, "1", "?start=11:00"); len(one.Gaps) != 1 || one.Gaps[0].EndTime != "12:00:00.000Z" {
		t.Fatalf("?start=11:00: %+v", one)
	}
	if none := dayGapsOf(t, f, "1", "?start=10:00"); len(none.Gaps) != 0 {
		t.Fatalf("?start=10:00, filled: %+v", none)
	}
}

// TestDayGapsRefusals: bad input is a 400 naming the field; a non-member is 403, an unknown
// plan or day 404; a guest of the plan is refused (the suggestions are the linked collections',
// which guests do not read) and their plan page has no "Fill".
func TestDayGapsRefusals(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	plan := "/plans/" + f.plan.PlanID
	get := func(path string, token string) response { return a.do(req{Method: "GET", Path: path, Token: token}) }
	for _, path := range []string{plan + "/days/0/gaps", plan + "/days/x/gaps"} {
		if p := get(path, f.ben).problem(t, http.StatusBadRequest, "INVALID_REQUEST"); !strings.Contains(jsonOf(p), `"day"`) {
			t.Errorf("%s: %v", path, p)
		}
	}
	if p := get(plan+"/days/1/gaps?start=25:00", f.ben).problem(t, http.StatusBadRequest, "INVALID_REQUEST"); !strings.Contains(jsonOf(p), `"start"`) {
		t.Errorf("start=25:00: %v", p)
	}
	get(plan+"/days/1/gaps", f.eve).problem(t, http.StatusForbidden, "FORBIDDEN_NOT_MEMBER")
	get(plan+"/days/9/gaps", f.ben).problem(t, http.StatusNotFound, "PLAN_DAY_NOT_FOUND")
	get("/plans/"+strings.Repeat("x", 21)+"/days/1/gaps", f.ben).problem(t, http.StatusNotFound, "PLAN_NOT_FOUND")

	guest := a.guestOf(t, a.invite(f.ana, plan))
	a.do(req{Method: "GET", Path: plan + "/days/1/gaps", Client: guest, Header: map[string]string{"Accept": "application/json"}}).problem(t, http.StatusForbidden, "GUEST_FORBIDDEN")
	page := a.do(req{Method: "GET", Path: plan, Client: guest, Header: map[string]string{"Accept": "text/html"}})
	if page.Status != http.StatusOK || strings.Contains(string(page.Body), "data-fill-gap") || strings.Contains(string(page.Body), `id="gaps-dialog"`) {
		t.Errorf("a guest's plan page: %d, with Fill", page.Status)
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestFillAGapFromThePage: the plan page offers "Fill" on gaps of an hour or more only; the
// dialog's body lists the suggestions with their category and added travel, and a tap posts
// the ordinary add-block form, answered by the day, announced.
func TestFillAGapFromThePage(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "09:00", "10:00")))
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[1].CollectionPlaceID, 1, "10:59", "12:00")))
	ana := a.signedInBrowser(t, "pf-ana", "Ana")
	plan := "/plans/" + f.plan.PlanID
	page := a.page(t, ana, plan+"?day=1")
	mustHave(t, page, `id="gaps-dialog"`, `data-fill-gap="720"`, `/days/1/gaps?start=12:00`, "/js/gaps.")
	if strings.Contains(page, `data-fill-gap="600"`) {
		t.Error("the 59 minutes from 10:00 offer Fill")
	}
	body := fragment(t, a.htmx(ana, "GET", plan+"/days/1/gaps?start=12:00", ""), http.StatusOK)
	mustHave(t, body, "data-gap-suggestions", "N Seoul Tower", "travel", `aria-describedby="gaps-hint"`, "A tap adds one at 12:00–13:00", `hx-post="`+plan+`/blocks"`)
	start := strings.Index(body, `hx-vals="`) + len(`hx-vals="`)
	var vals map[string]any
	if err := json.Unmarshal([]byte(html.UnescapeString(body[start:start+strings.Index(body[start:], `"`)])), &vals); err != nil {
		t.Fatal(err)
	}
	form := url.Values{}
	for k, v := range vals {
		b, _ := json.Marshal(v)
		form.Set(k, strings.Trim(string(b), `"`))
	}
	added := fragment(t, a.htmx(ana, "POST", plan+"/blocks", form.Encode()), http.StatusOK)
	mustHave(t, added, `id="day"`, "N Seoul Tower", "data-just-added")
	gone := fragment(t, a.htmx(ana, "GET", plan+"/days/1/gaps?start=12:00", ""), http.StatusOK)
	mustHave(t, gone, "This free time has been filled")
}

// TestDayGapsCostTheSameStatementsWhateverTheGaps: a day with one gap and a day with many ask
// the database the same number of statements.
func TestDayGapsCostTheSameStatementsWhateverTheGaps(t *testing.T) {
	f := newPlanFixture(t)
	a := f.a
	decodeBlock(t, f.add(f.ana, placeBlock(f.places[0].CollectionPlaceID, 1, "09:00", "20:00")))
	for i, at := range [][2]string{{"10:00", "11:00"}, {"12:00", "13:00"}, {"14:00", "15:00"}} {
		decodeBlock(t, f.add(f.ana, placeBlock(f.places[1+i%2].CollectionPlaceID, 2, at[0], at[1])))
	}
	count := func(day string) (int, int) {
		for range 2 { // the second read, the day cache filled by the first
			a.queries.Reset()
			dayGapsOf(t, f, day, "")
		}
		return a.queries.Count(), len(dayGapsOf(t, f, day, "").Gaps)
	}
	one, oneGaps := count("1")
	many, manyGaps := count("2")
	if oneGaps != 1 || manyGaps != 4 {
		t.Fatalf("gaps: %d and %d", oneGaps, manyGaps)
	}
	if one != many || one > 5 {
		t.Errorf("%d statements for one gap, %d for %d", one, many, manyGaps)
	}
}
