package planner

import (
	"errors"
	"testing"
	"time"
)

// FuzzPlanDays checks the rule on a plan's dates (docs/API.md §Resources: 1–30 days, the end not before the
// start) against a count made by stepping through the calendar one day at a time, for any
// two calendar dates, whatever their time of day and zone.
func FuzzPlanDays(f *testing.F) {
	f.Add(2026, 4, 1, 2026, 4, 3, 0, 0)
	f.Add(2026, 4, 1, 2026, 4, 30, 23, -11)
	f.Add(2026, 4, 1, 2026, 5, 1, 12, 14)
	f.Add(2026, 4, 3, 2026, 4, 1, 0, 0)
	f.Add(2024, 2, 28, 2024, 3, 1, 1, 13)
	f.Add(2026, 12, 20, 2027, 1, 18, 0, 0)
	f.Add(1, 1, 1, 9999, 12, 31, 0, 0)
	f.Add(9999, 12, 31, 1, 1, 1, 0, 0)
	f.Fuzz(func(t *testing.T, y1, m1, d1, y2, m2, d2, hour, offset int) {
		// Dates in the range a client can send (YYYY-MM-DD), possibly normalised (month 13 is
		// January of the next year, as time.Date has it); the end in a zone of its own.
		y1, y2 = 1+modulo(y1, 9999), 1+modulo(y2, 9999)
		m1, m2, d1, d2 = modulo(m1, 40), modulo(m2, 40), modulo(d1, 400), modulo(d2, 400)
		zone := time.FixedZone("", (modulo(offset, 29)-14)*3600)
		in := PlanInput{
			StartDate: time.Date(y1, time.Month(m1), d1, modulo(hour, 24), 0, 0, 0, time.UTC),
			EndDate:   time.Date(y2, time.Month(m2), d2, modulo(hour, 24), 0, 0, 0, zone),
		}
		want, ok := 0, false
		day := in.StartDate
		for n := 1; n <= MaxPlanDays; n++ {
			if sameDate(day, in.EndDate) {
				want, ok = n, true
				break
			}
			day = day.AddDate(0, 0, 1)
		}
		n, err := in.Days()
		if ok != (err == nil) || n != want {
			t.Fatalf("%s to %s: Days() = %d, %v; the calendar says %d days (within the limit: %v)",
				in.StartDate.Format(time.DateOnly), in.EndDate.Format(time.DateOnly), n, err, want, ok)
		}
		if err != nil {
			if e, isErr := errors.AsType[*Error](err); !isErr || e.Code != CodeInvalidDateRange {
				t.Fatalf("Days() error %v, want %s", err, CodeInvalidDateRange)
			}
		}
	})
}

// sameDate reports whether a and b fall on the same calendar date, each in its own zone.
func sameDate(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}

// modulo maps any n into [0, size).
func modulo(n, size int) int { return (n%size + size) % size }
