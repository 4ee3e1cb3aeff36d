package web

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"tripplan/internal/planner"
	"tripplan/internal/route"
	"tripplan/internal/tour"
)

// lineDay is a day of n confirmed places on a line of longitude (east by 0.01° each), visited in
// a shuffled order, each 15 minutes with 5 minutes between (61 fit in a day).
func lineDay(n int, seed uint64) []planner.TimeBlock {
	r := rand.New(rand.NewPCG(seed, 1))
	order := r.Perm(n)
	out := make([]planner.TimeBlock, n)
	for i, p := range order {
		start := planner.TimeOfDay(time.Duration(i*20) * time.Minute)
		out[i] = planner.TimeBlock{ID: fmt.Sprintf("b%02d", p), Type: planner.BlockPlace, Version: 1,
			Start: start, End: start + planner.TimeOfDay(15*time.Minute),
			Candidates: []planner.Candidate{{Selected: true, Place: &planner.Place{Name: fmt.Sprint(p),
				Latitude: "37.5", Longitude: fmt.Sprintf("%.4f", 126.9+0.01*float64(p))}}}}
	}
	return out
}

// TestOptimiseDayBeyondTheExactLimit: more movable places than tour.ExactLimit are ordered by
// the heuristic (exact false), still shorter and with each block's length kept; more than
// tour.MaxStops are refused with TOO_MANY_STOPS.
func TestOptimiseDayBeyondTheExactLimit(t *testing.T) {
	s := &Server{router: route.Estimator{}}
	blocks := lineDay(tour.ExactLimit+3, 7)
	o, err := s.optimiseDay(t.Context(), planner.DayInfo{Day: 1}, blocks)
	if err != nil {
		t.Fatal(err)
	}
	if o.Exact || o.After.S >= o.Before.S || len(o.Blocks) != len(blocks) {
		t.Errorf("exact %v, travel %d → %d over %d blocks; want the heuristic's shorter day", o.Exact, o.Before.S, o.After.S, len(o.Blocks))
	}
	for _, b := range o.Blocks {
		if b.End-b.Start != planner.TimeOfDay(15*time.Minute) {
			t.Errorf("%s lasts %v, want 15 min", b.ID, time.Duration(b.End-b.Start))
		}
	}

	_, err = s.optimiseDay(t.Context(), planner.DayInfo{Day: 1}, lineDay(tour.MaxStops+1, 7))
	var pe *planner.Error
	if !errors.As(err, &pe) || pe.Code != planner.CodeTooManyStops || httpStatus(pe.Code) != 400 {
		t.Errorf("%d movable places: %v, want 400 TOO_MANY_STOPS", tour.MaxStops+1, err)
	}
}
