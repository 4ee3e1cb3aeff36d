package route

import "testing"

// leg is a leg whose walk is walkM metres and walkS seconds and whose transit takes transitS
// seconds (drive is slower than both).
func leg(walkM, walkS, transitS int) Leg {
	return Leg{StraightM: walkM, By: map[Mode]Measure{
		Walk:    {DistanceM: walkM, DurationS: walkS},
		Transit: {DistanceM: walkM, DurationS: transitS},
		Drive:   {DistanceM: walkM, DurationS: max(walkS, transitS) + 1},
	}}
}

func TestFitAtTheEdges(t *testing.T) {
	for _, tc := range []struct {
		name string
		leg  Leg
		gapS int
		want Timing
	}{
		{"no measures (a place without coordinates)", Leg{}, 0, Fits},
		{"zero-length leg", leg(0, 0, 0), 0, Fits},
		{"299 m walk, back to back", leg(299, 224, 700), 0, Fits},
		{"299 m walk that would take an hour still fits", leg(299, 3600, 3600), 0, Fits},
		{"300 m walk, back to back: 225 s over, within 10 min", leg(300, 225, 700), 0, Tight},
		{"300 m walk with the gap it needs", leg(300, 225, 700), 225, Fits},
		{"gap longer than the way", leg(1000, 750, 900), 3600, Fits},
		{"exactly the gap", leg(1000, 750, 900), 750, Fits},
		{"1 s over", leg(1000, 750, 900), 749, Tight},
		{"10 min over: still tight", leg(2000, 1500, 1200), 600, Tight},
		{"10 min 1 s over: not enough", leg(2000, 1500, 1200), 599, NotEnough},
		{"a 760 m walk of 9 min, back to back: tight", leg(760, 540, 660), 0, Tight},
		// A 60-minute ride may be 12 minutes (20 %) over.
		{"60 min ride, 12 min over", leg(20000, 15000, 3600), 2880, Tight},
		{"60 min ride, 12 min 1 s over", leg(20000, 15000, 3600), 2879, NotEnough},
		{"59 min 59 s ride rounds its share to 720 s", leg(20000, 15000, 3599), 2879, Tight},
		// Walking over MaxWalkM is never the quickest way, however fast it is measured.
		{"long walk does not count", leg(MaxWalkM+1, 60, 1800), 1200, Tight},
		{"long walk does not count, far over", leg(MaxWalkM+1, 60, 1800), 0, NotEnough},
	} {
		if got := tc.leg.Fit(tc.gapS); got != tc.want {
			t.Errorf("%s: Fit(%d) = %q, want %q", tc.name, tc.gapS, got, tc.want)
		}
	}
}
