package route

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

var seoul = []Point{{37.5796, 126.9770}, {37.5700, 126.9996}, {37.5512, 126.9882}}

// Every pair of the estimate's matrix is the estimate of that pair as a route.
func TestEstimatorMatrixIsEveryPair(t *testing.T) {
	m, source, err := Estimator{}.Matrix(context.Background(), seoul)
	if err != nil || source != SourceEstimate || len(m) != 3 {
		t.Fatalf("matrix: %v %s %d", err, source, len(m))
	}
	for i := range seoul {
		for j := range seoul {
			want := estimated(t, []Point{seoul[i], seoul[j]})[0]
			got := m[i][j]
			if got.StraightM != want.StraightM || fmt.Sprint(got.By) != fmt.Sprint(want.By) {
				t.Errorf("%d→%d: %+v, want %+v", i, j, got, want)
			}
		}
	}
	if _, _, err := (Estimator{}).Matrix(context.Background(), []Point{{91, 0}}); err == nil {
		t.Fatal("a latitude of 91 is not refused")
	}
}

// fakeTable answers the table service like osrm-routed: row i, column j is i*1000+j*100 metres
// and a tenth of that in seconds; a null where null is true.
func fakeTable(t *testing.T, profile string, null bool, requests *atomic.Int32) *httptest.Server {
	t.Helper()
	want := "/table/v1/" + profile + "/" + osrmCoordinates(seoul)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.URL.Path != want || r.URL.Query().Get("annotations") != "duration,distance" {
			t.Errorf("request %s, want %s?annotations=duration,distance", r.URL, want)
		}
		var durations, distances []string
		for i := range seoul {
			var ds, ss []string
			for j := range seoul {
				d := float64(i*1000 + j*100)
				if i == j {
					d = 0
				}
				ds, ss = append(ds, fmt.Sprint(d)), append(ss, fmt.Sprint(d/10))
			}
			if null && i == 1 {
				ss[2] = "null"
			}
			distances, durations = append(distances, "["+strings.Join(ds, ",")+"]"), append(durations, "["+strings.Join(ss, ",")+"]")
		}
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		fmt.Fprintf(w, `{"code":"Ok","durations":[%s],"distances":[%s],"sources":[],"destinations":[]}`, strings.Join(durations, ","), strings.Join(distances, ","))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestOSRMMatrix(t *testing.T) {
	var driveRequests, walkRequests atomic.Int32
	drive, walk := fakeTable(t, "driving", false, &driveRequests), fakeTable(t, "foot", false, &walkRequests)
	o := NewOSRM(drive.URL, walk.URL, nil)
	for range 2 { // the second answer comes from the cache
		m, source, err := o.Matrix(context.Background(), seoul)
		if err != nil || source != SourceOSRM {
			t.Fatalf("matrix: %v %s", err, source)
		}
		if l := m[2][1]; l.By[Drive] != (Measure{2100, 210}) || l.By[Walk] != (Measure{2100, 210}) || l.By[Transit] != transitByRoad(2100) {
			t.Fatalf("2→1: %+v", l)
		}
		if l := m[0][0]; l.By[Drive] != (Measure{}) || l.By[Transit] != (Measure{}) {
			t.Fatalf("0→0: %+v", l)
		}
	}
	if driveRequests.Load() != 1 || walkRequests.Load() != 1 {
		t.Fatalf("requests: drive %d, walk %d", driveRequests.Load(), walkRequests.Load())
	}
}

// A pair OSRM cannot route (null) makes the whole matrix the estimate's.
func TestOSRMMatrixFallsBackOnAPairWithoutRoute(t *testing.T) {
	var requests atomic.Int32
	o := NewOSRM(fakeTable(t, "driving", true, &requests).URL, "", nil)
	m, source, err := o.Matrix(context.Background(), seoul)
	want, _, _ := Estimator{}.Matrix(context.Background(), seoul)
	if err != nil || source != SourceEstimate || fmt.Sprint(m) != fmt.Sprint(want) {
		t.Fatalf("matrix: %v %s %v", err, source, m)
	}
}
