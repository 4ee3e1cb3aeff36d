package route

import (
	"context"
	"fmt"
	"math"
)

// Matrix is the legs between every pair of points: Matrix[i][j] goes from points[i] to
// points[j] (the diagonal is a leg of 0 m). Ordering a day's stops needs every pair, not only
// the consecutive ones Legs answers.
type Matrix [][]Leg

// Matrix estimates the leg between every pair of points, as Legs does for consecutive ones.
func (Estimator) Matrix(_ context.Context, points []Point) (Matrix, Source, error) {
	if err := checkPoints(points); err != nil {
		return nil, SourceEstimate, err
	}
	out := make(Matrix, len(points))
	for i := range out {
		out[i] = make([]Leg, len(points))
		for j := range out[i] {
			straight := greatCircleM(points[i], points[j])
			l := Leg{StraightM: int(math.Round(straight)), By: make(map[Mode]Measure, len(Modes))}
			for _, m := range Modes {
				l.By[m] = estimateMode(m, straight)
			}
			out[i][j] = l
		}
	}
	return out, SourceEstimate, nil
}

// Matrix asks the OSRM servers' table service for every pair of points: one request per
// server, as Legs makes one per server for a route. Transit is derived from driving and
// walking estimated when there is no walk server, as in Legs; any failure (including a pair
// OSRM cannot route) gives Estimator's whole answer, never a mix.
func (o *OSRM) Matrix(ctx context.Context, points []Point) (Matrix, Source, error) {
	if err := checkPoints(points); err != nil {
		return nil, SourceEstimate, err
	}
	coords := osrmCoordinates(points)
	drive, walk, err := o.both(ctx, func(ctx context.Context, base, profile string) ([]Measure, error) {
		return o.table(ctx, base, profile, coords, len(points))
	})
	if err != nil {
		return Estimator{}.Matrix(ctx, points)
	}
	n := len(points)
	out := make(Matrix, n)
	for i := range out {
		out[i] = make([]Leg, n)
		for j := range out[i] {
			straight := greatCircleM(points[i], points[j])
			d := drive[i*n+j]
			by := map[Mode]Measure{Drive: d, Transit: transitByRoad(d.DistanceM)}
			if walk != nil {
				by[Walk] = walk[i*n+j]
			} else {
				by[Walk] = estimateMode(Walk, straight)
			}
			out[i][j] = Leg{StraightM: int(math.Round(straight)), By: by}
		}
	}
	return out, SourceOSRM, nil
}

// osrmTable is the part of a table service response that Matrix reads.
type osrmTable struct {
	Code      string       `json:"code"`
	Message   string       `json:"message"`
	Durations [][]*float64 `json:"durations"` // seconds; null where no route was found
	Distances [][]*float64 `json:"distances"` // metres
}

// table asks the server at base for the profile's n×n table through coords and returns the
// measures row by row; answers come from the cache when they can.
func (o *OSRM) table(ctx context.Context, base, profile, coords string, n int) ([]Measure, error) {
	key := "table " + profile + " " + base + " " + coords
	if m, ok := o.cache.get(key); ok {
		return m, nil
	}
	var body osrmTable
	if err := o.get(ctx, base+"/table/v1/"+profile+"/"+coords+"?annotations=duration,distance", &body); err != nil {
		return nil, fmt.Errorf("route: %s table: %w", profile, err)
	}
	if body.Code != "Ok" {
		return nil, fmt.Errorf("route: %s table: code %q: %s", profile, body.Code, body.Message)
	}
	if len(body.Durations) != n || len(body.Distances) != n {
		return nil, fmt.Errorf("route: %s table: want %d rows", profile, n)
	}
	measures := make([]Measure, 0, n*n)
	for i := range n {
		if len(body.Durations[i]) != n || len(body.Distances[i]) != n {
			return nil, fmt.Errorf("route: %s table: row %d is not %d long", profile, i, n)
		}
		for j := range n {
			d, s := body.Distances[i][j], body.Durations[i][j]
			if d == nil || s == nil || !(*d >= 0 && *d <= osrmMaxValue && *s >= 0 && *s <= osrmMaxValue) {
				return nil, fmt.Errorf("route: %s table: no usable route from %d to %d", profile, i, j)
			}
			measures = append(measures, Measure{DistanceM: int(math.Round(*d)), DurationS: int(math.Round(*s))})
		}
	}
	o.cache.put(key, measures)
	return measures, nil
}
