package web

import (
	"io"
	"net/http"
	"testing"
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
