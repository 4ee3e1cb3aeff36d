package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"tripplan/internal/planner"
)

// BenchmarkPlansDuringAListBurst measures what one user sees while others send the heaviest
// bodies the list caps allow (issue 15: under a burst of 20 such requests, another user's
// GET /plans stays under 50 ms). Each iteration fires 20 requests at once — new expenses and
// replaced expenses of 50 items shared among all 10 members, 20 candidates proposed at once,
// 100 collections linked at once, and hostile expenses whose split_among fills the body limit
// with ids (refused) — while a user of other plans lists them (GET /plans) back to back until
// the burst is over. The pool has production's 20 connections. It reports that user's latency percentiles over all
// iterations (p50-ms, p95-ms, max-ms), the samples taken and how often a request waited for a
// connection of the pool (pool-waits, over the whole run); "idle" is the same listing with
// no burst, for the ratio; "mix-1MB-limit" is the mix under the body limit before issue 15,
// whose hostile bodies hold 40,000 ids.
func BenchmarkPlansDuringAListBurst(b *testing.B) {
	for _, kind := range []string{"idle", "mix", "add-expense", "set-expense", "candidates", "link-collections", "hostile-split", "mix-1MB-limit"} {
		b.Run(kind, func(b *testing.B) { benchPlansDuringBurst(b, kind) })
	}
}

// benchPlansDuringBurst runs the benchmark with bursts of one kind of request ("mix": four of
// each; "idle": no burst).
func benchPlansDuringBurst(b *testing.B, kind string) {
	burst, limit, limitBytes := kind != "idle", DefaultBodyLimit, 64<<10
	if kind == "mix-1MB-limit" {
		kind, limit, limitBytes = "mix", "1MB", 1_000_000
	}
	f := newPlanFixtureOn(b, newTestApp(b, func(c *Config) { c.BodyLimit = limit }))
	a := f.a
	a.db.SetMaxOpenConns(20) // as postgres.Open sets it
	a.db.SetMaxIdleConns(20)
	plan := "/plans/" + f.plan.PlanID
	for i := range 8 {
		id := fmt.Sprintf("burst-%d", i)
		a.member(id, fmt.Sprintf("B%d", i))
		a.joinPlan(f.plan.PlanID, id)
	}
	members := f.planMemberIDs(b)
	for i := range 5 {
		a.createPlan(f.eve, fmt.Sprintf("Eve's trip %d", i), "2026-05-01", "2026-05-03")
	}
	items := make([]map[string]any, planner.ExpenseItemsMax)
	for i := range items {
		items[i] = map[string]any{"name": fmt.Sprintf("Item %d", i), "cost": 1000 + i}
	}
	var placeIDs []string
	a.mustSelect(b, &placeIDs, `SELECT id FROM places ORDER BY id LIMIT $1`, planner.CandidatesPerAddMax)
	hostile, _ := json.Marshal(map[string]any{"day": 1, "items": item("Taxi", 1), "split_among": ids("h", (limitBytes-512)/24)})

	var cols []string
	for i := range planner.LinkCollectionsMax {
		cols = append(cols, a.createCollection(f.ben, fmt.Sprintf("Links %d", i)).CollectionID)
	}
	link, _ := json.Marshal(map[string]any{"collection_ids": cols})

	// The burst's 20 requests, prepared once.
	type request struct {
		method, path string
		body         []byte
		want         []int
	}
	var requests []request
	for i := range 20 {
		var e expenseAddedJSON
		json.Unmarshal(a.do(req{Method: "POST", Path: plan + "/expenses", Token: f.ben, Body: map[string]any{"day": 1, "items": item("Seed", 1)}}).Body, &e)
		blk := decodeBlock(b, f.add(f.ben, placeBlock(f.places[i%3].CollectionPlaceID, 2, fmtClock(i*60), fmtClock(i*60+30))))
		add, _ := json.Marshal(map[string]any{"day": 1, "items": items, "paid_by": members[0], "split_among": members})
		set, _ := json.Marshal(map[string]any{"items": items, "paid_by": members[1], "split_among": members})
		cands, _ := json.Marshal(map[string]any{"place_ids": placeIDs})
		// The links are made by the first burst; the later ones do the same checks and find
		// them made.
		linkTo := a.createPlan(f.ben, fmt.Sprintf("Linked %d", i), "2026-06-01", "2026-06-02").PlanID
		all := []request{
			{"POST", plan + "/expenses", add, []int{http.StatusCreated}},
			{"PUT", plan + "/expenses/" + e.Selected.ExpenseID, set, []int{http.StatusOK}},
			{"POST", f.blocks + "/" + blk.TimeBlockID + "/candidates", cands, []int{http.StatusOK}},
			{"POST", "/plans/" + linkTo + "/collections", link, []int{http.StatusCreated, http.StatusConflict}},
			{"POST", plan + "/expenses", hostile, []int{http.StatusBadRequest}},
		}
		if kind == "mix" {
			requests = append(requests, all[i%len(all)])
		} else if k := slices.Index([]string{"add-expense", "set-expense", "candidates", "link-collections", "hostile-split"}, kind); k >= 0 {
			requests = append(requests, all[k])
		}
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	send := func(method, path, token string, body []byte) int {
		var rd io.Reader
		if body != nil {
			rd = bytes.NewReader(body)
		}
		r, _ := http.NewRequest(method, a.http.URL+path, rd)
		r.Header.Set("Authorization", "Bearer "+token)
		r.Header.Set("Accept", "application/json")
		if body != nil {
			r.Header.Set("Content-Type", "application/json")
		}
		res, err := client.Do(r)
		if err != nil {
			b.Error(err)
			return 0
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	list := func() time.Duration {
		start := time.Now()
		if status := send("GET", "/plans", f.eve, nil); status != http.StatusOK {
			b.Fatalf("GET /plans: %d", status)
		}
		return time.Since(start)
	}
	list() // warm the connection

	var samples []time.Duration
	b.ResetTimer()
	for b.Loop() {
		if !burst {
			samples = append(samples, list())
			continue
		}
		var wg sync.WaitGroup
		done := make(chan struct{})
		for _, rq := range requests {
			wg.Go(func() {
				if status := send(rq.method, rq.path, f.ben, rq.body); !slices.Contains(rq.want, status) {
					b.Errorf("%s %s: %d, want one of %v", rq.method, rq.path, status, rq.want)
				}
			})
		}
		go func() { wg.Wait(); close(done) }()
		for running := true; running; {
			samples = append(samples, list())
			select {
			case <-done:
				running = false
			default:
			}
		}
	}
	b.StopTimer()
	slices.Sort(samples)
	pct := func(p float64) float64 {
		return float64(samples[min(len(samples)-1, int(p*float64(len(samples))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.95), "p95-ms")
	b.ReportMetric(float64(samples[len(samples)-1].Microseconds())/1000, "max-ms")
	b.ReportMetric(float64(len(samples)), "samples")
	b.ReportMetric(float64(a.db.Stats().WaitCount), "pool-waits")
}
