package route_test

import (
	"context"
	"math"
	"reflect"
	"testing"

	"tripplan/internal/route"
)

var (
	gyeongbokgung  = route.Point{Lat: 37.579617, Lon: 126.977041}
	myeongdong     = route.Point{Lat: 37.563600, Lon: 126.987500}
	nSeoulTower    = route.Point{Lat: 37.551169, Lon: 126.988227}
	eiffelTower    = route.Point{Lat: 48.858370, Lon: 2.294481}
	louvre         = route.Point{Lat: 48.860611, Lon: 2.337644}
	equator        = route.Point{Lat: 0, Lon: 0}
	equatorPlus001 = route.Point{Lat: 0.01, Lon: 0}
	equatorPlusOne = route.Point{Lat: 1, Lon: 0}
	westOfDateLine = route.Point{Lat: 0, Lon: 179.99}
	eastOfDateLine = route.Point{Lat: 0, Lon: -179.99}
)

// estimatedOneLeg is Estimator's leg from a to b.
func estimatedOneLeg(t *testing.T, a, b route.Point) route.Leg {
	t.Helper()
	return estimateLegs(t, a, b)[0]
}

// estimateLegs is Estimator's answer for points, which must succeed.
func estimateLegs(t *testing.T, points ...route.Point) []route.Leg {
	t.Helper()
	legs, source, err := route.Estimator{}.Legs(context.Background(), points)
	if err != nil || source != route.SourceEstimate {
		t.Fatalf("Estimator.Legs(%v) = source %q, error %v", points, source, err)
	}
	return legs
}

// The expected distances were computed independently with the spherical law of cosines.
func TestEstimatorGreatCircle(t *testing.T) {
	for _, c := range []struct {
		name  string
		a, b  route.Point
		wantM float64
	}{
		{"Gyeongbokgung to N Seoul Tower", gyeongbokgung, nSeoulTower, 3313.4},
		{"Eiffel Tower to Louvre", eiffelTower, louvre, 3167.5},
		{"a hundredth of a degree of meridian", equator, equatorPlus001, 1111.95},
		{"across the date line", westOfDateLine, eastOfDateLine, 2223.9},
	} {
		got := estimatedOneLeg(t, c.a, c.b).StraightM
		if math.Abs(float64(got)-c.wantM) > 0.01*c.wantM {
			t.Errorf("%s: StraightM = %d, want %.1f ± 1 %%", c.name, got, c.wantM)
		}
		if back := estimatedOneLeg(t, c.b, c.a).StraightM; back != got {
			t.Errorf("%s: %d m there but %d m back", c.name, got, back)
		}
	}
}

// The expected measures are worked out by hand from the table in the package documentation:
// distance = straight × detour, duration = distance ÷ speed + overhead.
func TestEstimatorModes(t *testing.T) {
	for _, c := range []struct {
		name string
		a, b route.Point
		want route.Leg
	}{
		{"1,111.95 m", equator, equatorPlus001, route.Leg{StraightM: 1112, By: map[route.Mode]route.Measure{
			route.Walk:    {DistanceM: 1446, DurationS: 1084},      // 1,445.54 m at 1.3333 m/s
			route.Transit: {DistanceM: 1557, DurationS: 255 + 480}, // 1,556.73 m at 6.1111 m/s + 8 min
			route.Drive:   {DistanceM: 1557, DurationS: 200 + 300}, // 1,556.73 m at 7.7778 m/s + 5 min
		}}},
		{"111,195.08 m", equator, equatorPlusOne, route.Leg{StraightM: 111195, By: map[route.Mode]route.Measure{
			route.Walk:    {DistanceM: 144554, DurationS: 108415},
			route.Transit: {DistanceM: 155673, DurationS: 25474 + 480},
			route.Drive:   {DistanceM: 155673, DurationS: 20015 + 300},
		}}},
	} {
		if got := estimatedOneLeg(t, c.a, c.b); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestEstimatorZeroLengthLeg(t *testing.T) {
	got := estimatedOneLeg(t, louvre, louvre)
	want := route.Leg{StraightM: 0, By: map[route.Mode]route.Measure{route.Walk: {}, route.Transit: {}, route.Drive: {}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("identical points: got %+v, want all zero", got)
	}
	if mode, s := got.Fastest(); mode != route.Walk || s != 0 {
		t.Errorf("identical points: Fastest = %s %d s, want walk 0 s", mode, s)
	}
}

func TestEstimatorLegsFollowThePoints(t *testing.T) {
	legs := estimateLegs(t, gyeongbokgung, myeongdong, nSeoulTower)
	if len(legs) != 2 {
		t.Fatalf("3 points gave %d legs, want 2", len(legs))
	}
	if first := estimatedOneLeg(t, gyeongbokgung, myeongdong); !reflect.DeepEqual(legs[0], first) {
		t.Errorf("leg 0 = %+v, want the leg from Gyeongbokgung to Myeongdong %+v", legs[0], first)
	}
	if second := estimatedOneLeg(t, myeongdong, nSeoulTower); !reflect.DeepEqual(legs[1], second) {
		t.Errorf("leg 1 = %+v, want the leg from Myeongdong to N Seoul Tower %+v", legs[1], second)
	}
	for i, leg := range legs {
		for _, m := range route.Modes {
			if _, ok := leg.By[m]; !ok {
				t.Errorf("leg %d has no %s measure", i, m)
			}
		}
	}
}

func TestEstimatorFewerThanTwoPoints(t *testing.T) {
	for _, points := range [][]route.Point{nil, {louvre}} {
		if legs := estimateLegs(t, points...); len(legs) != 0 {
			t.Errorf("%d points gave %d legs, want none", len(points), len(legs))
		}
	}
}

func TestEstimatorRejectsNonPositions(t *testing.T) {
	for _, p := range []route.Point{{Lat: 90.5, Lon: 0}, {Lat: 0, Lon: -180.5}, {Lat: math.NaN(), Lon: 0}, {Lat: 0, Lon: math.Inf(1)}} {
		if _, _, err := (route.Estimator{}).Legs(context.Background(), []route.Point{louvre, p}); err == nil {
			t.Errorf("Legs accepted the point %v", p)
		}
	}
}

func TestFastest(t *testing.T) {
	leg := func(walkM, walkS, transitS, driveS int) route.Leg {
		return route.Leg{By: map[route.Mode]route.Measure{
			route.Walk:    {DistanceM: walkM, DurationS: walkS},
			route.Transit: {DistanceM: walkM, DurationS: transitS},
			route.Drive:   {DistanceM: walkM, DurationS: driveS},
		}}
	}
	for _, c := range []struct {
		name  string
		leg   route.Leg
		mode  route.Mode
		takes int
	}{
		{"a short walk beats waiting for transit", leg(800, 600, 900, 700), route.Walk, 600},
		{"transit beats a long walk", leg(3000, 2250, 1400, 1500), route.Transit, 1400},
		{"driving beats transit", leg(4000, 3000, 1400, 1200), route.Drive, 1200},
		{"a walk of exactly MaxWalkM still counts", leg(route.MaxWalkM, 100, 200, 300), route.Walk, 100},
		{"a walk beyond MaxWalkM never counts", leg(route.MaxWalkM+1, 100, 200, 300), route.Transit, 200},
		{"ties go to the first mode", leg(500, 400, 400, 400), route.Walk, 400},
		{"no measures", route.Leg{}, "", 0},
	} {
		if mode, takes := c.leg.Fastest(); mode != c.mode || takes != c.takes {
			t.Errorf("%s: Fastest = %q %d s, want %q %d s", c.name, mode, takes, c.mode, c.takes)
		}
	}
}
