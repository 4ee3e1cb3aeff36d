package route

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A day in Seoul: Gyeongbokgung, Myeongdong Cathedral, N Seoul Tower.
var seoulDay = []Point{
	{Lat: 37.579617, Lon: 126.977041},
	{Lat: 37.563600, Lon: 126.987500},
	{Lat: 37.551169, Lon: 126.988227},
}

// seoulCoordinates is seoulDay as OSRM wants it: lon,lat with 6 decimals, ";" between points.
const seoulCoordinates = "126.977041,37.579617;126.987500,37.563600;126.988227,37.551169"

// fakeOSRM is a local OSRM server for one profile. It checks every request's path and query,
// counts the requests and answers with respond.
type fakeOSRM struct {
	*httptest.Server
	requests atomic.Int32
}

// newFakeOSRM starts a fake serving the profile's route for coords under the path prefix.
func newFakeOSRM(t *testing.T, prefix, profile, coords string, respond http.HandlerFunc) *fakeOSRM {
	t.Helper()
	f := &fakeOSRM{}
	want := prefix + "/route/v1/" + profile + "/" + coords
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.requests.Add(1)
		q := r.URL.Query()
		if r.Method != http.MethodGet || r.URL.Path != want || q.Get("overview") != "false" || q.Get("steps") != "false" {
			t.Errorf("request %s %s, want GET %s?overview=false&steps=false", r.Method, r.URL, want)
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"code":"InvalidUrl","message":"URL string malformed close to position 1"}`)
			return
		}
		respond(w, r)
	}))
	t.Cleanup(f.Close)
	return f
}

// okRoute answers like osrm-routed for a route of legs, each {distance m, duration s}.
func okRoute(legs ...[2]float64) http.HandlerFunc {
	var parts []string
	var distance, duration float64
	for _, l := range legs {
		parts = append(parts, fmt.Sprintf(`{"steps":[],"summary":"","weight":%[2]g,"duration":%[2]g,"distance":%[1]g}`, l[0], l[1]))
		distance += l[0]
		duration += l[1]
	}
	var waypoints []string
	for range len(legs) + 1 {
		waypoints = append(waypoints, `{"hint":"AAAAgP___38AAAAA","distance":3.1,"name":"Sejong-daero","location":[126.977,37.5796]}`)
	}
	body := fmt.Sprintf(`{"code":"Ok","routes":[{"legs":[%s],"weight_name":"routability","weight":%[2]g,"duration":%[2]g,"distance":%[3]g}],"waypoints":[%[4]s]}`,
		strings.Join(parts, ","), duration, distance, strings.Join(waypoints, ","))
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		fmt.Fprint(w, body)
	}
}

func estimated(t *testing.T, points []Point) []Leg {
	t.Helper()
	legs, _, err := Estimator{}.Legs(context.Background(), points)
	if err != nil {
		t.Fatal(err)
	}
	return legs
}

func TestOSRMRoutes(t *testing.T) {
	drive := newFakeOSRM(t, "", "driving", seoulCoordinates, okRoute([2]float64{2000.4, 300.2}, [2]float64{1500.6, 250.7}))
	walk := newFakeOSRM(t, "/osrm/foot", "foot", seoulCoordinates, okRoute([2]float64{1800, 1350.4}, [2]float64{1400.2, 1049.6}))
	o := NewOSRM(drive.URL+"/", walk.URL+"/osrm/foot", nil)

	legs, source, err := o.Legs(context.Background(), seoulDay)
	if err != nil || source != SourceOSRM {
		t.Fatalf("Legs = source %q, error %v; want OSRM", source, err)
	}
	estimate := estimated(t, seoulDay)
	want := []Leg{
		{StraightM: estimate[0].StraightM, By: map[Mode]Measure{
			Walk:    {DistanceM: 1800, DurationS: 1350},
			Transit: {DistanceM: 2000, DurationS: 327 + 480}, // 2,000 m at 22 km/h + 8 min
			Drive:   {DistanceM: 2000, DurationS: 300},
		}},
		{StraightM: estimate[1].StraightM, By: map[Mode]Measure{
			Walk:    {DistanceM: 1400, DurationS: 1050},
			Transit: {DistanceM: 1501, DurationS: 246 + 480}, // 1,501 m at 22 km/h + 8 min
			Drive:   {DistanceM: 1501, DurationS: 251},
		}},
	}
	if !reflect.DeepEqual(legs, want) {
		t.Errorf("legs = %+v\nwant %+v", legs, want)
	}
	if d, w := drive.requests.Load(), walk.requests.Load(); d != 1 || w != 1 {
		t.Errorf("%d driving and %d foot requests, want one each for the whole day", d, w)
	}
}

func TestOSRMZeroLengthLegHasNoTransitOverhead(t *testing.T) {
	points := []Point{seoulDay[0], seoulDay[0]}
	coords := "126.977041,37.579617;126.977041,37.579617"
	drive := newFakeOSRM(t, "", "driving", coords, okRoute([2]float64{0, 0}))
	legs, source, err := NewOSRM(drive.URL, "", nil).Legs(context.Background(), points)
	if err != nil || source != SourceOSRM {
		t.Fatalf("Legs = source %q, error %v; want OSRM", source, err)
	}
	want := []Leg{{By: map[Mode]Measure{Walk: {}, Transit: {}, Drive: {}}}}
	if !reflect.DeepEqual(legs, want) {
		t.Errorf("legs = %+v, want all zero", legs)
	}
}

func TestOSRMWithoutWalkServer(t *testing.T) {
	drive := newFakeOSRM(t, "", "driving", seoulCoordinates, okRoute([2]float64{2000, 300}, [2]float64{1500, 250}))
	legs, source, err := NewOSRM(drive.URL, "", nil).Legs(context.Background(), seoulDay)
	if err != nil || source != SourceOSRM {
		t.Fatalf("Legs = source %q, error %v; want OSRM", source, err)
	}
	estimate := estimated(t, seoulDay)
	for i, leg := range legs {
		if leg.By[Walk] != estimate[i].By[Walk] {
			t.Errorf("leg %d walks %+v, want the estimate %+v", i, leg.By[Walk], estimate[i].By[Walk])
		}
	}
	if legs[0].By[Drive] != (Measure{DistanceM: 2000, DurationS: 300}) || legs[1].By[Drive] != (Measure{DistanceM: 1500, DurationS: 250}) {
		t.Errorf("drives %+v and %+v, want the server's", legs[0].By[Drive], legs[1].By[Drive])
	}
}

func TestOSRMCachesAnswers(t *testing.T) {
	drive := newFakeOSRM(t, "", "driving", seoulCoordinates, okRoute([2]float64{2000, 300}, [2]float64{1500, 250}))
	walk := newFakeOSRM(t, "", "foot", seoulCoordinates, okRoute([2]float64{1800, 1350}, [2]float64{1400, 1050}))
	o := NewOSRM(drive.URL, walk.URL, nil)
	clock := time.Date(2025, 5, 1, 9, 0, 0, 0, time.UTC)
	o.cache.now = func() time.Time { return clock }

	first, _, _ := o.Legs(context.Background(), seoulDay)
	second, source, err := o.Legs(context.Background(), seoulDay)
	if err != nil || source != SourceOSRM || !reflect.DeepEqual(first, second) {
		t.Errorf("second answer = %+v, %q, %v; want the first %+v from OSRM", second, source, err, first)
	}
	if d, w := drive.requests.Load(), walk.requests.Load(); d != 1 || w != 1 {
		t.Errorf("%d driving and %d foot requests for two identical calls, want one each", d, w)
	}

	clock = clock.Add(osrmCacheTTL)
	if _, source, _ := o.Legs(context.Background(), seoulDay); source != SourceOSRM {
		t.Errorf("after an hour: source %q, want OSRM", source)
	}
	if d, w := drive.requests.Load(), walk.requests.Load(); d != 2 || w != 2 {
		t.Errorf("after an hour: %d driving and %d foot requests, want two each", d, w)
	}
}

func TestOSRMFallsBackToTheEstimate(t *testing.T) {
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) }) // releases any handler still waiting at the end
	for _, c := range []struct {
		name    string
		respond http.HandlerFunc
		ctx     time.Duration // the caller's deadline, if any
		timeout time.Duration // the per-request limit, if not the default
	}{
		{name: "status 500", respond: func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "Internal Server Error", http.StatusInternalServerError)
		}},
		{name: "NoRoute with status 400", respond: func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"code":"NoRoute","message":"Impossible route between points","routes":[]}`)
		}},
		{name: "NoRoute with status 200", respond: func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprint(w, `{"code":"NoRoute","message":"Impossible route between points"}`)
		}},
		{name: "malformed JSON", respond: func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprint(w, `{"code":"Ok","routes":[{"legs":[{"distance":2000,`)
		}},
		{name: "no route", respond: func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprint(w, `{"code":"Ok","routes":[],"waypoints":[]}`)
		}},
		{name: "one leg for three points", respond: okRoute([2]float64{3500, 550})},
		{name: "three legs for three points", respond: okRoute([2]float64{2000, 300}, [2]float64{1500, 250}, [2]float64{10, 5})},
		{name: "a negative distance", respond: okRoute([2]float64{-2000, 300}, [2]float64{1500, 250})},
		{name: "a negative duration", respond: okRoute([2]float64{2000, 300}, [2]float64{1500, -250})},
		{name: "a body over 1 MB", respond: func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, strings.Repeat(" ", osrmMaxBody))
			okRoute([2]float64{2000, 300}, [2]float64{1500, 250})(w, r)
		}},
		{name: "past the caller's deadline", ctx: 50 * time.Millisecond, respond: func(_ http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-hang:
			}
		}},
		{name: "past the request limit", timeout: 50 * time.Millisecond, respond: func(_ http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-hang:
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			drive := newFakeOSRM(t, "", "driving", seoulCoordinates, c.respond)
			o := NewOSRM(drive.URL, "", nil)
			if c.timeout > 0 {
				o.timeout = c.timeout
			}
			for call := 1; call <= 2; call++ {
				ctx := context.Background()
				if c.ctx > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, c.ctx)
					defer cancel()
				}
				legs, source, err := o.Legs(ctx, seoulDay) // the fake never answers these two: a deadline ends them
				if err != nil || source != SourceEstimate || !reflect.DeepEqual(legs, estimated(t, seoulDay)) {
					t.Errorf("call %d: Legs = %+v, %q, %v; want the estimate", call, legs, source, err)
				}
				if n := drive.requests.Load(); n != int32(call) {
					t.Errorf("after call %d: %d requests, want %d (failures are not cached)", call, n, call)
				}
			}
		})
	}
}

func TestOSRMFallsBackWhenTheServerIsDown(t *testing.T) {
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	legs, source, err := NewOSRM(down.URL, "", nil).Legs(context.Background(), seoulDay)
	if err != nil || source != SourceEstimate || !reflect.DeepEqual(legs, estimated(t, seoulDay)) {
		t.Errorf("Legs = %+v, %q, %v; want the estimate", legs, source, err)
	}
}

func TestOSRMDoesNotMixSources(t *testing.T) {
	drive := newFakeOSRM(t, "", "driving", seoulCoordinates, okRoute([2]float64{2000, 300}, [2]float64{1500, 250}))
	walk := newFakeOSRM(t, "", "foot", seoulCoordinates, func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "Bad Gateway", http.StatusBadGateway)
	})
	legs, source, err := NewOSRM(drive.URL, walk.URL, nil).Legs(context.Background(), seoulDay)
	if err != nil || source != SourceEstimate || !reflect.DeepEqual(legs, estimated(t, seoulDay)) {
		t.Errorf("walk server failing: Legs = %+v, %q, %v; want the whole estimate", legs, source, err)
	}
}

func TestOSRMAsksNothingForFewerThanTwoPoints(t *testing.T) {
	drive := newFakeOSRM(t, "", "driving", "", okRoute())
	o := NewOSRM(drive.URL, "", nil)
	for _, points := range [][]Point{nil, seoulDay[:1]} {
		legs, source, err := o.Legs(context.Background(), points)
		if len(legs) != 0 || source != SourceOSRM || err != nil {
			t.Errorf("%d points: Legs = %+v, %q, %v; want no legs from OSRM", len(points), legs, source, err)
		}
	}
	if n := drive.requests.Load(); n != 0 {
		t.Errorf("%d requests, want none", n)
	}
}

func TestOSRMRejectsNonPositions(t *testing.T) {
	drive := newFakeOSRM(t, "", "driving", "", okRoute())
	if _, _, err := NewOSRM(drive.URL, "", nil).Legs(context.Background(), []Point{seoulDay[0], {Lat: 120, Lon: 0}}); err == nil {
		t.Error("Legs accepted latitude 120")
	}
	if n := drive.requests.Load(); n != 0 {
		t.Errorf("%d requests, want none", n)
	}
}

func TestOSRMIsSafeForConcurrentUse(t *testing.T) {
	drive := newFakeOSRM(t, "", "driving", seoulCoordinates, okRoute([2]float64{2000, 300}, [2]float64{1500, 250}))
	walk := newFakeOSRM(t, "", "foot", seoulCoordinates, okRoute([2]float64{1800, 1350}, [2]float64{1400, 1050}))
	o := NewOSRM(drive.URL, walk.URL, nil)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, source, err := o.Legs(context.Background(), seoulDay); source != SourceOSRM || err != nil {
				t.Errorf("Legs = %q, %v; want OSRM", source, err)
			}
		})
	}
	wg.Wait()
}

func TestNewOSRMNeedsADriveURL(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error(`NewOSRM("", …) did not panic`)
		}
	}()
	NewOSRM("", "http://localhost:5001", nil)
}
