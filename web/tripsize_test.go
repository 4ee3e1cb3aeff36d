package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// trip is a plan seeded in bulk for the reads-by-size measures: every day holds perDay PLACE
// blocks of three candidates each (two blocks of three confirmed, the third undecided), the
// candidates' places drawn in turn from a pool of 150 places with a photo each (a trip's
// collection: the same places come back), each of the four members' opinion on one candidate of each block, an
// expense of two items for each candidate and an additional expense each day.
type trip struct {
	plan  string // /plans/{id}
	id    string
	days  int
	owner string       // access token, for the JSON reads
	web   *http.Client // the owner's browser, signed in with a cookie, for the pages
}

// seedTrip makes a plan of days days owned by owner's user, with three more members, and fills
// it with SQL (thousands of HTTP calls would take minutes): the plan and memberships through
// the API, its blocks, candidates, opinions and expenses in a few statements. Candidates' places
// are the catalog's, in turn (the catalog must be loaded).
// sizedTrips is an app with the catalog, Ana's token, and her two plans: a 3-day plan of 4
// blocks a day (small) and a 30-day plan of 10 (large), or only the large one.
func sizedTrips(tb testing.TB, withSmall bool) (a *testApp, owner string, small, large trip) {
	a = newTestApp(tb)
	a.loadCatalog()
	owner = a.member("size-owner", "Ana")
	if withSmall {
		small = seedTrip(tb, a, owner, "size-owner", "small", 3, 4)
	}
	return a, owner, small, seedTrip(tb, a, owner, "size-owner", "large", 30, 10)
}

func seedTrip(tb testing.TB, a *testApp, owner, ownerID, name string, days, perDay int) trip {
	tb.Helper()
	start := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	p := a.createPlan(owner, name, start.Format(time.DateOnly), start.AddDate(0, 0, days-1).Format(time.DateOnly))
	for i := range 3 {
		id := fmt.Sprintf("%s-friend-%d", name, i)
		a.member(id, fmt.Sprintf("Friend%d", i))
		a.joinPlan(p.PlanID, id)
	}
	for _, q := range []string{
		// The pool's places have a photo, as the provider's places have (the catalog's have
		// none): the plan's thumbnail is the first.
		`UPDATE places SET photos = ARRAY['https://img.example/' || id || '.jpg']
		WHERE id IN (SELECT id FROM places WHERE latitude IS NOT NULL ORDER BY id LIMIT 150) AND cardinality(photos) = 0 AND $2 > 0 AND $1 <> ''`,
		// Blocks every 90 minutes from 06:00, an hour each.
		`INSERT INTO time_blocks (id, plan_id, plan_day_id, type, start_time, end_time)
		SELECT substr(md5(d.id || k), 1, 21), $1, d.id, 'PLACE',
		       time '06:00' + k * interval '90 minutes', time '07:00' + k * interval '90 minutes'
		FROM plan_days d CROSS JOIN generate_series(0, $2 - 1) k WHERE d.plan_id = $1`,
		// Three candidates a block, the places of a pool of 150 of the catalog's in turn; the
		// first selected in two blocks of three.
		`WITH b AS (SELECT tb.id, row_number() OVER (ORDER BY d.day, tb.start_time) - 1 AS n
		            FROM time_blocks tb JOIN plan_days d ON d.id = tb.plan_day_id WHERE tb.plan_id = $1),
		      p AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n, count(*) OVER () AS total
		            FROM (SELECT id FROM places WHERE latitude IS NOT NULL ORDER BY id LIMIT 150) pool),
		      o AS (SELECT id FROM plan_members WHERE plan_id = $1 AND role = 'OWNER')
		INSERT INTO candidates (id, time_block_id, place_id, added_by, memo, selected)
		SELECT substr(md5(b.id || c), 1, 21), b.id, p.id, o.id, 'Booked by ' || c, c = 0 AND b.n % 3 <> 2
		FROM b CROSS JOIN generate_series(0, 2) c JOIN p ON p.n = (b.n * 3 + c) % p.total CROSS JOIN o
		WHERE $2 > 0
		ORDER BY b.n, c`,
		// Each member's opinion on one candidate of each block.
		`WITH c AS (SELECT c.id, row_number() OVER (PARTITION BY c.time_block_id ORDER BY c.created_at, c.id) - 1 AS n
		            FROM candidates c JOIN time_blocks tb ON tb.id = c.time_block_id AND tb.plan_id = $1),
		      m AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM plan_members WHERE plan_id = $1)
		INSERT INTO opinions (id, candidate_id, member_id, type, comment)
		SELECT substr(md5(c.id || m.id), 1, 21), c.id, m.id, (ARRAY['POSITIVE','NEUTRAL','NEGATIVE'])[1 + m.n % 3], 'Worth it ' || m.n
		FROM c JOIN m ON m.n % 3 = c.n
		WHERE $2 > 0`,
		// An expense of each candidate, paid by the members in turn, and one more each day.
		`INSERT INTO expenses (id, plan_id, kind, candidate_id, paid_by)
		SELECT substr(md5('e' || c.id), 1, 21), $1, 'BLOCK', c.id,
		       (SELECT id FROM plan_members WHERE plan_id = $1 ORDER BY id OFFSET (hashtext(c.id) & 3) LIMIT 1)
		FROM candidates c JOIN time_blocks tb ON tb.id = c.time_block_id AND tb.plan_id = $1
		WHERE $2 > 0`,
		`INSERT INTO expenses (id, plan_id, kind, plan_day_id, rank)
		SELECT substr(md5('a' || d.id), 1, 21), $1, 'ADDITIONAL', d.id, 1 FROM plan_days d WHERE d.plan_id = $1 AND $2 > 0`,
		`INSERT INTO expense_items (id, expense_id, name, cost, position)
		SELECT substr(md5(e.id || i), 1, 21), e.id, (ARRAY['Tickets', 'Lunch'])[i + 1], 1000 * (3 + i + (hashtext(e.id) & 7)), i
		FROM expenses e CROSS JOIN generate_series(0, 1) i WHERE e.plan_id = $1 AND $2 > 0`,
	} {
		if _, err := a.db.Exec(q, p.PlanID, perDay); err != nil {
			tb.Fatalf("seed %s: %v\n%s", name, err, q)
		}
	}
	// The planner's statistics, as autovacuum would soon gather them after such a load.
	if _, err := a.db.Exec(`ANALYZE`); err != nil {
		tb.Fatal(err)
	}
	return trip{plan: "/plans/" + p.PlanID, id: p.PlanID, days: days, owner: owner, web: a.signedInBrowser(tb, ownerID, "Ana")}
}

// planRead is a read of a plan: a page or partial (HTML, asked for by the browser) or an
// answer in JSON or a file (asked for with the access token). Whole reports the reads whose
// output is the whole plan (the exports and the print page): theirs grow with it; every other
// read's output is a day, a page or a total.
type planRead struct {
	name   string
	path   string // after /plans/{p}; a day is day 2
	header map[string]string
	whole  bool
	budget int // SQL statements, the day cache filled
}

var (
	asHTML  = map[string]string{"Accept": "text/html"}
	asHTMX  = map[string]string{"Accept": "text/html", "HX-Request": "true", "Sec-Fetch-Site": "same-origin"}
	asJSONs = map[string]string{"Accept": "application/json"}
)

// request is the read of the trip, as the browser or with the access token.
func (rd planRead) request(tr trip) req {
	rq := req{Method: "GET", Path: tr.plan + rd.path, Header: rd.header}
	if rd.header["Accept"] == "text/html" {
		rq.Client = tr.web
	} else {
		rq.Token = tr.owner
	}
	return rq
}

// planReads are every read of a plan (GET routes of /plans/{p}). A day's listing the day
// cache keeps still costs one statement, confirming it against the plan's events (another
// instance may have written): hence the page's, the day partial's, the day blocks' and the
// day route's one more than when the cache was trusted alone.
var planReads = []planRead{
	{"page", "?day=2", asHTML, false, 12},
	{"day partial", "?day=2", asHTMX, false, 5},
	{"header", "/header", asHTML, false, 6},
	{"panel", "/panel", asHTML, false, 5},
	{"print page", "/print", asHTML, true, 10},
	{"budget page", "/budget?day=2", asHTML, false, 17},
	{"plan", "", asJSONs, false, 2},
	{"members", "/members", asJSONs, false, 2},
	{"activity", "/activity?size=100", asJSONs, false, 3},
	{"day blocks", "/blocks?day=2", asJSONs, false, 2},
	{"day route", "/days/2/route", asJSONs, false, 1},
	{"budget", "/budgets", asJSONs, false, 3},
	{"day expenses", "/expenses?day=2", asJSONs, false, 6},
	{"settlement", "/settlement", asJSONs, false, 4},
	{"settlements", "/settlements", asJSONs, false, 2},
	{"export.ics", "/export.ics", nil, true, 7},
	{"export.gpx", "/export.gpx", nil, true, 7},
	{"expenses.csv", "/expenses.csv", nil, true, 10},
	{"export.json", "/export.json", nil, true, 15},
}

// TestPlanReadsCostTheSameStatementsWhateverTheSize: every read of a plan sends as many SQL
// statements for a 30-day plan of 300 time blocks as for a 3-day plan of 12 (no statement per
// day, block, candidate or place), within its budget. Each is counted on its second read, the
// day cache filled by the first.
func TestPlanReadsCostTheSameStatementsWhateverTheSize(t *testing.T) {
	a, _, small, large := sizedTrips(t, true)
	count := func(tr trip, rd planRead) int {
		rq := rd.request(tr)
		for range 2 {
			a.queries.Reset()
			if res := a.do(rq); res.Status != 200 {
				t.Fatalf("%s: %d %.300s", rq.Path, res.Status, res.Body)
			}
		}
		return a.queries.Count()
	}
	for _, rd := range planReads {
		s, l := count(small, rd), count(large, rd)
		t.Logf("%-14s %2d statements, %2d on the large plan (budget %d)", rd.name, s, l, rd.budget)
		if s != l {
			t.Errorf("%s: %d statements on the small plan, %d on the large one", rd.name, s, l)
		}
		if s > rd.budget {
			t.Errorf("%s: %d statements, budget %d", rd.name, s, rd.budget)
		}
	}
}

// TestLargePlanExportJSONListsEachPlaceOnce: the backup of a 30-day plan of 300 time blocks,
// 900 candidates, 1,200 opinions and 930 expenses stays under 1 MB: each place is listed once, in places,
// and every candidate names its place by an id found there; the document reads back into the
// same document.
func TestLargePlanExportJSONListsEachPlaceOnce(t *testing.T) {
	a, owner, _, large := sizedTrips(t, false)
	res := a.do(req{Method: "GET", Path: large.plan + "/export.json", Token: owner})
	if res.Status != 200 {
		t.Fatalf("%d %.300s", res.Status, res.Body)
	}
	t.Logf("export.json of the large plan: %d bytes", len(res.Body))
	if len(res.Body) > 1<<20 {
		t.Errorf("export.json is %d bytes, more than 1 MB", len(res.Body))
	}
	var x planExportJSON
	if err := json.Unmarshal(res.Body, &x); err != nil {
		t.Fatal(err)
	}
	listed := map[string]int{}
	for _, p := range x.Places {
		listed[p.PlaceID]++
		if p.Name == "" {
			t.Errorf("place %s has no name", p.PlaceID)
		}
	}
	named := map[string]bool{}
	var blocks, candidates, opinions int
	for _, d := range x.Days {
		for _, b := range d.Blocks {
			blocks++
			for _, c := range b.Candidates {
				candidates++
				opinions += len(b.Opinions[c.BlockID])
				if c.PlaceID == nil || listed[*c.PlaceID] != 1 {
					t.Fatalf("candidate %s names place %v, listed %d times", c.BlockID, c.PlaceID, listed[deref(c.PlaceID)])
				}
				named[*c.PlaceID] = true
			}
		}
	}
	// Every place listed is named by a candidate, and listed once.
	type sizeShape struct {
		Version, Days, Blocks, Candidates, Opinions, Members, Expenses int
		PlacesNamed, PlacesListedDistinct                              int
	}
	if diff := cmp.Diff(sizeShape{Version: 2, Days: 30, Blocks: 300, Candidates: 900, Opinions: 1200, Members: 4, Expenses: 930,
		PlacesNamed: len(x.Places), PlacesListedDistinct: len(x.Places)},
		sizeShape{Version: x.Version, Days: len(x.Days), Blocks: blocks, Candidates: candidates, Opinions: opinions, Members: len(x.Members), Expenses: len(x.Expenses),
			PlacesNamed: len(named), PlacesListedDistinct: len(listed)}); diff != "" {
		t.Fatalf("the export (-want +got):\n%s", diff)
	}
	again, err := json.Marshal(x)
	if err != nil || string(again) != string(res.Body) {
		t.Errorf("the document does not read back into itself (%v)", err)
	}
}
