package planner

import (
	"testing"
	"time"
)

func date(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestPlanInputDays(t *testing.T) {
	for _, tc := range []struct {
		start, end string
		want       int // 0: INVALID_DATE_RANGE
	}{
		{"2026-11-27", "2026-11-27", 1},
		{"2026-11-27", "2026-11-29", 3},
		{"2026-12-31", "2027-01-01", 2},
		{"2027-01-01", "2027-01-30", 30},
		{"2027-01-01", "2027-01-31", 0},
		{"2026-11-27", "2026-11-26", 0},
		{"2027-03-27", "2027-03-29", 3}, // across a daylight saving change in some zones
	} {
		got, err := PlanInput{StartDate: date(tc.start), EndDate: date(tc.end)}.Days()
		if tc.want == 0 {
			if ErrorCode(err) != CodeInvalidDateRange {
				t.Errorf("%s..%s: %d, %v; want INVALID_DATE_RANGE", tc.start, tc.end, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s..%s: %d, %v; want %d", tc.start, tc.end, got, err, tc.want)
		}
	}
	if n := (Plan{StartDate: date("2026-11-27"), EndDate: date("2026-11-29")}).DurationDays(); n != 3 {
		t.Errorf("DurationDays = %d, want 3", n)
	}
}

func TestCompareDays(t *testing.T) {
	for _, tc := range []struct {
		from, to int
		want     DateChange
	}{{3, 3, DateChangeStay}, {3, 5, DateChangeIncrease}, {3, 1, DateChangeDecrease}} {
		if got := CompareDays(tc.from, tc.to); got != tc.want {
			t.Errorf("CompareDays(%d, %d) = %s, want %s", tc.from, tc.to, got, tc.want)
		}
	}
}

func TestDayOfWeek(t *testing.T) {
	if got := (DayInfo{Day: 1, Date: date("2026-11-27")}).DayOfWeek(); got != "FRIDAY" {
		t.Errorf("DayOfWeek = %s, want FRIDAY", got)
	}
}
