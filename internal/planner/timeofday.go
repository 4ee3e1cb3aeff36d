package planner

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// TimeOfDay is a time of day as the time since midnight, to the millisecond, in
// [00:00, 24:00). Time blocks start and end at times of day.
type TimeOfDay time.Duration

// Clock is the time of day hour:minute.
func Clock(hour, minute int) TimeOfDay {
	return TimeOfDay(time.Duration(hour)*time.Hour + time.Duration(minute)*time.Minute)
}

var errTimeOfDay = errors.New("must be a time of day as HH:MM:SS.sssZ, HH:MM:SS or HH:MM")

// ParseTimeOfDay reads the API's times of day (docs/API.md §Conventions): HH:MM:SS.sssZ, HH:MM:SS or HH:MM,
// two digits each, hours 00–23. The fraction may have one to three digits and the Z suffix
// may be left out on any form.
func ParseTimeOfDay(s string) (TimeOfDay, error) {
	s = strings.TrimSuffix(s, "Z")
	clock, frac, hasFrac := strings.Cut(s, ".")
	parts := strings.Split(clock, ":")
	if len(parts) < 2 || len(parts) > 3 || hasFrac && (len(parts) != 3 || len(frac) < 1 || len(frac) > 3) {
		return 0, errTimeOfDay
	}
	limits := []int{23, 59, 59}
	units := []time.Duration{time.Hour, time.Minute, time.Second}
	var t time.Duration
	for i, p := range parts {
		n, ok := digits(p, 2)
		if !ok || n > limits[i] {
			return 0, errTimeOfDay
		}
		t += time.Duration(n) * units[i]
	}
	if hasFrac {
		n, ok := digits(frac, len(frac))
		if !ok {
			return 0, errTimeOfDay
		}
		for range 3 - len(frac) {
			n *= 10
		}
		t += time.Duration(n) * time.Millisecond
	}
	return TimeOfDay(t), nil
}

// digits reads s as exactly width decimal digits.
func digits(s string, width int) (int, bool) {
	if len(s) != width {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// String formats the time as the API writes it: HH:MM:SS.sssZ.
func (t TimeOfDay) String() string {
	d := time.Duration(t)
	return fmt.Sprintf("%02d:%02d:%02d.%03dZ", d/time.Hour, d/time.Minute%60, d/time.Second%60, d/time.Millisecond%1000)
}

// HHMM is the time as "HH:MM", the way pages and sentences show it.
func (t TimeOfDay) HHMM() string { return t.String()[:5] }

// MarshalText writes the time as String does, so JSON encodes it as "HH:MM:SS.sssZ".
func (t TimeOfDay) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads the time as ParseTimeOfDay does, so JSON decodes it from a string.
func (t *TimeOfDay) UnmarshalText(b []byte) error {
	v, err := ParseTimeOfDay(string(b))
	if err != nil {
		return err
	}
	*t = v
	return nil
}
