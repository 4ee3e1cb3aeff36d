package planner

import (
	"strings"
	"testing"
)

func TestTextRules(t *testing.T) {
	for _, c := range []struct {
		in, want string
		required bool
		reason   string // "" when the text is fine
	}{
		{"  Lunch  ", "Lunch", true, ""},
		{"서울역", "서울역", true, ""},
		{strings.Repeat("한", 5), strings.Repeat("한", 5), true, ""},
		{strings.Repeat("한", 6), strings.Repeat("한", 6), true, "must be 1–5 characters"},
		{"   ", "", true, "must be 1–5 characters"},
		{"", "", false, ""},
		{"a\x00b", "a\x00b", false, "must be at most 5 characters"},
		{"a\xffb", "a\xffb", true, "must be 1–5 characters"},
		{"abcdef", "abcdef", false, "must be at most 5 characters"},
	} {
		var v Validation
		var got string
		if c.required {
			got = CheckText(&v, "name", c.in, 5)
		} else {
			got = CheckOptionalText(&v, "name", c.in, 5)
		}
		if got != c.want {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
		reason := ""
		if err := v.Err(); err != nil {
			reason = err.(*Error).Fields[0].Reason
		}
		if reason != c.reason {
			t.Errorf("%q (required %v): %q, want %q", c.in, c.required, reason, c.reason)
		}
	}
}

func TestDayRule(t *testing.T) {
	for day, ok := range map[int]bool{-1: false, 0: false, 1: true, MaxPlanDays: true, MaxPlanDays + 1: false} {
		var v Validation
		CheckDay(&v, "with", day)
		if v.Has("with") == ok {
			t.Errorf("day %d: bad %v", day, v.Has("with"))
		}
	}
	var v Validation
	CheckDay(&v, "day", 31)
	if f := v.Err().(*Error).Fields; f[0].Reason != "must be between 1 and 30" {
		t.Errorf("reason %q", f[0].Reason)
	}
}
