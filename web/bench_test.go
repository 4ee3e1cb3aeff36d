package web

import (
	"cmp"
	"io"
	"net/http"
	"testing"
	"time"
)

// benchGet measures one GET over loopback HTTP against the real server and database.
func benchGet(b *testing.B, a *testApp, path string, header map[string]string) {
	client := &http.Client{}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r, _ := http.NewRequest("GET", a.http.URL+path, nil)
		for k, v := range header {
			r.Header.Set(k, v)
		}
		res, err := client.Do(r)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			b.Fatalf("%s: %d", path, res.StatusCode)
		}
	}
}

func BenchmarkHealthz(b *testing.B) {
	a := newTestApp(b)
	benchGet(b, a, "/healthz", nil)
}

func BenchmarkUsersMe(b *testing.B) {
	a := newTestApp(b)
	token := a.member("bench-1", "Bench")
	benchGet(b, a, "/users/me", map[string]string{"Authorization": "Bearer " + token, "Accept": "application/json"})
}

func BenchmarkLandingPage(b *testing.B) {
	a := newTestApp(b)
	benchGet(b, a, "/", map[string]string{"Accept": "text/html"})
}

func BenchmarkSearchPlaces(b *testing.B) {
	a := newTestApp(b)
	a.loadCatalog()
	token := a.member("bench-2", "Bench")
	benchGet(b, a, "/places/search?query=Gyeongbokgung", map[string]string{"Authorization": "Bearer " + token, "Accept": "application/json"})
}

func BenchmarkSearchPlacesTypoKorean(b *testing.B) {
	a := newTestApp(b)
	a.loadCatalog()
	token := a.member("bench-3", "Bench")
	benchGet(b, a, "/places/search?query=%EA%B4%91%EC%9E%A5%EC%8B%9C%EC%9E%A5", map[string]string{"Authorization": "Bearer " + token, "Accept": "application/json"})
}

// BenchmarkSearchPlacesNear searches from a plan with a destination (the city's places
// first), beside the same search without one.
func BenchmarkSearchPlacesNear(b *testing.B) {
	a := newTestApp(b)
	a.loadCatalog()
	token := a.member("bench-4", "Bench")
	for name, q := range map[string]string{"plain": "query=market", "near": "query=market&near=Kyoto"} {
		b.Run(name, func(b *testing.B) {
			benchGet(b, a, "/places/search?"+q, map[string]string{"Authorization": "Bearer " + token, "Accept": "application/json"})
		})
	}
}

// BenchmarkListCollectionPlaces lists a page of 20 collection places, each picked by a member.
func BenchmarkListCollectionPlaces(b *testing.B) {
	a := newTestApp(b)
	a.loadCatalog()
	ana, ben := a.member("bench-ana", "Ana"), a.member("bench-ben", "Ben")
	col := a.createCollection(ana, "Bench")
	a.joinCollection(col.CollectionID, "bench-ben")
	for _, q := range []string{"Paris", "London"} {
		for _, p := range a.search(ana, q) {
			cp := a.addPlace(ana, col.CollectionID, p.PlaceID)
			a.do(req{Method: "POST", Path: "/collections/" + col.CollectionID + "/places/" + cp.CollectionPlaceID + "/preference?type=PICK", Token: ben})
		}
	}
	benchGet(b, a, "/collections/"+col.CollectionID+"/places?size=20", map[string]string{"Authorization": "Bearer " + ana, "Accept": "application/json"})
}

// BenchmarkDayBlocks lists a day of 15 time blocks × 3 candidates × 5 opinions.
func BenchmarkDayBlocks(b *testing.B) {
	f := newPlanFixture(b)
	f.fillDay(b, 1, 15)
	benchGet(b, f.a, f.blocks+"?day=1", map[string]string{"Authorization": "Bearer " + f.ben, "Accept": "application/json"})
}

// BenchmarkDayRoute answers the travel between the places of a day of 15 time blocks (from
// the day cache, with offline estimates).
func BenchmarkDayRoute(b *testing.B) {
	f := newPlanFixture(b)
	f.fillDay(b, 1, 15)
	benchGet(b, f.a, "/plans/"+f.plan.PlanID+"/days/1/route", map[string]string{"Authorization": "Bearer " + f.ben, "Accept": "application/json"})
}

// BenchmarkExportICS exports a plan whose first day holds 15 time blocks as a calendar.
func BenchmarkExportICS(b *testing.B) {
	f := newPlanFixture(b)
	f.fillDay(b, 1, 15)
	benchGet(b, f.a, "/plans/"+f.plan.PlanID+"/export.ics", map[string]string{"Authorization": "Bearer " + f.ben})
}

// BenchmarkAddBlock adds one-minute FREE blocks, each in a free minute of a 30-day plan.
func BenchmarkAddBlock(b *testing.B) {
	f := newPlanFixture(b)
	plan := f.a.createPlan(f.ana, "Long", "2026-07-01", "2026-07-30")
	path := "/plans/" + plan.PlanID + "/blocks"
	b.ResetTimer()
	i := 0
	for b.Loop() {
		day, minute := 1+i/(24*60-1), i%(24*60-1)
		res := f.a.do(req{Method: "POST", Path: path, Token: f.ana, Body: map[string]any{
			"type": "FREE", "day": day, "start_time": fmtClock(minute), "end_time": fmtClock(minute + 1)}})
		if res.Status != http.StatusOK {
			b.Fatalf("add %d: %d %s", i, res.Status, res.Body)
		}
		i++
	}
}

// BenchmarkPlanReadsBySize times every read of a plan on a 3-day plan of 4 blocks a day and a
// 30-day plan of 10 (each block three candidates with four members' opinions and expenses),
// alternating the two in one loop so that a busy machine slows both alike. It reports each
// one's time (small-ns/op, large-ns/op) and large/small; for the reads whose output is the
// whole plan (exports, print page) also the bytes out and the time per byte, large/small
// (per-byte-ratio).
func BenchmarkPlanReadsBySize(b *testing.B) {
	a, _, small, large := sizedTrips(b, true)
	api := &http.Client{}
	get := func(b *testing.B, rq req) (time.Duration, int) {
		r, _ := http.NewRequest("GET", a.http.URL+rq.Path, nil)
		if rq.Token != "" {
			r.Header.Set("Authorization", "Bearer "+rq.Token)
		}
		for k, v := range rq.Header {
			r.Header.Set(k, v)
		}
		client := cmp.Or(rq.Client, api)
		start := time.Now()
		res, err := client.Do(r)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		took := time.Since(start)
		if res.StatusCode != http.StatusOK {
			b.Fatalf("%s: %d", rq.Path, res.StatusCode)
		}
		return took, int(n)
	}
	for _, rd := range planReads {
		b.Run(rd.name, func(b *testing.B) {
			var ts, tl time.Duration
			var bs, bl, n int
			get(b, rd.request(small)) // the day caches filled, connections open
			get(b, rd.request(large))
			b.ResetTimer()
			for b.Loop() {
				d, size := get(b, rd.request(small))
				ts, bs = ts+d, size
				d, size = get(b, rd.request(large))
				tl, bl = tl+d, size
				n++
			}
			perSmall, perLarge := float64(ts)/float64(n), float64(tl)/float64(n)
			b.ReportMetric(perSmall, "small-ns/op")
			b.ReportMetric(perLarge, "large-ns/op")
			b.ReportMetric(perLarge/perSmall, "ratio")
			if rd.whole {
				b.ReportMetric(float64(bs), "small-B")
				b.ReportMetric(float64(bl), "large-B")
				b.ReportMetric((perLarge/float64(bl))/(perSmall/float64(bs)), "per-byte-ratio")
			}
		})
	}
}
