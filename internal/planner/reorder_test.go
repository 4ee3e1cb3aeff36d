package planner

import (
	"slices"
	"testing"
	"time"
)

func TestRuns(t *testing.T) {
	for _, tc := range []struct {
		movable string // one letter per block: m movable, x staying
		want    [][]int
	}{
		{"", nil},
		{"m", nil},
		{"mm", [][]int{{0, 1}}},
		{"mmxmxmmm", [][]int{{0, 1}, {5, 6, 7}}},
		{"xmmx", [][]int{{1, 2}}},
		{"xxx", nil},
	} {
		got := Runs(len(tc.movable), func(i int) bool { return tc.movable[i] == 'm' })
		if !slices.EqualFunc(got, tc.want, slices.Equal) {
			t.Errorf("%q: %v, want %v", tc.movable, got, tc.want)
		}
	}
}

func TestReorderKeepsLengthsGapsAndEnds(t *testing.T) {
	h := func(hh, mm int) TimeOfDay {
		return TimeOfDay(time.Duration(hh)*time.Hour + time.Duration(mm)*time.Minute)
	}
	// 09:00–10:00, 10:30–12:30 (a 30-minute gap), 12:30–13:00 (none), 14:00–14:45 (an hour).
	run := []TimeBlock{
		{Day: DayInfo{Day: 2}, Start: h(9, 0), End: h(10, 0)},
		{Day: DayInfo{Day: 2}, Start: h(10, 30), End: h(12, 30)},
		{Day: DayInfo{Day: 2}, Start: h(12, 30), End: h(13, 0)},
		{Day: DayInfo{Day: 2}, Start: h(14, 0), End: h(14, 45)},
	}
	// Visit the last first, then the third, the first and the second.
	got := Reorder(run, []int{3, 2, 0, 1})
	// The gaps stay by position: 30 min after the 1st, none after the 2nd, 1 h after the 3rd.
	want := []Slot{
		{Day: 2, Start: h(10, 45), End: h(11, 45)}, // visited third
		{Day: 2, Start: h(12, 45), End: h(14, 45)}, // last: ends where the run ended
		{Day: 2, Start: h(10, 15), End: h(10, 45)}, // second, 30 min after the first
		{Day: 2, Start: h(9, 0), End: h(9, 45)},    // first: where the run started, its own 45 min
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	// The identity order changes nothing.
	if got := Reorder(run, []int{0, 1, 2, 3}); !slices.EqualFunc(got, run, func(s Slot, b TimeBlock) bool {
		return s.Day == 2 && s.Start == b.Start && s.End == b.End
	}) {
		t.Fatalf("identity: %v", got)
	}
}
