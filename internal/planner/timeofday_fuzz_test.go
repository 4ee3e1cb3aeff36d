package planner

import (
	"encoding/json"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// timeOfDayGrammar is the time of day of docs/API.md §Conventions, written independently of ParseTimeOfDay:
// HH:MM, HH:MM:SS or HH:MM:SS.s to .sss, hours 00–23, each form with an optional Z.
var timeOfDayGrammar = regexp.MustCompile(`^([01][0-9]|2[0-3]):([0-5][0-9])(?::([0-5][0-9])(?:\.([0-9]{1,3}))?)?Z?$`)

// FuzzParseTimeOfDay checks that ParseTimeOfDay accepts exactly the documented grammar, with
// the value the grammar's fields give, in [00:00, 24:00) to the millisecond; that whatever it
// accepts formats (HH:MM:SS.sssZ) and parses back to itself; and that JSON decodes a time of
// day as ParseTimeOfDay reads it.
func FuzzParseTimeOfDay(f *testing.F) {
	for _, s := range []string{
		"09:30:00.000Z", "09:30", "09:30Z", "23:59:59", "23:59:59.999Z", "00:00:00.1Z", "12:00:00.05",
		"24:00", "9:3", "12:00:00.", "12:00:00.1234", "12:00.5", "12:00:00ZZ", "+1:00", "١٢:٠٠", "12:00:00.-1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseTimeOfDay(s)
		m := timeOfDayGrammar.FindStringSubmatch(s)
		if (err == nil) != (m != nil) {
			t.Fatalf("ParseTimeOfDay(%q) = %v, %v; the grammar matches: %v", s, time.Duration(v), err, m != nil)
		}
		var decoded struct {
			T TimeOfDay `json:"t"`
		}
		quoted, _ := json.Marshal(s)
		jsonErr := json.Unmarshal([]byte(`{"t":`+string(quoted)+`}`), &decoded)
		if (jsonErr == nil) != (err == nil) || decoded.T != v {
			t.Fatalf("JSON decodes %q as %v, %v; ParseTimeOfDay gives %v, %v", s, time.Duration(decoded.T), jsonErr, time.Duration(v), err)
		}
		if err != nil {
			return
		}
		if want := grammarValue(m); time.Duration(v) != want {
			t.Fatalf("ParseTimeOfDay(%q) = %v, want %v", s, time.Duration(v), want)
		}
		if v < 0 || time.Duration(v) >= 24*time.Hour || time.Duration(v)%time.Millisecond != 0 {
			t.Fatalf("ParseTimeOfDay(%q) = %v: out of range", s, time.Duration(v))
		}
		out := v.String()
		if back, err := ParseTimeOfDay(out); err != nil || back != v || len(out) != len("00:00:00.000Z") {
			t.Fatalf("%q → %q → %v, %v", s, out, time.Duration(back), err)
		}
	})
}

// grammarValue is the time since midnight that timeOfDayGrammar's submatches name.
func grammarValue(m []string) time.Duration {
	n := func(s string) time.Duration {
		v, _ := strconv.Atoi(s) // "" (an absent field) is 0
		return time.Duration(v)
	}
	frac := m[4]
	for len(frac) < 3 {
		frac += "0"
	}
	return n(m[1])*time.Hour + n(m[2])*time.Minute + n(m[3])*time.Second + n(frac)*time.Millisecond
}
