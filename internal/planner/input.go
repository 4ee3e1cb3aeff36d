package planner

import (
	"strings"
	"unicode/utf8"
)

// The rules of what people type and of the days they name, shared by every request that
// takes them (the web layer reads the fields; these decide what is acceptable).

// ValidText reports whether s is text of min to max characters (Unicode code points, so 한
// counts as one): valid UTF-8 without a NUL, which PostgreSQL's text cannot hold.
func ValidText(s string, min, max int) bool {
	n := utf8.RuneCountInString(s)
	return n >= min && n <= max && utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// CheckText trims s and records field when what is left is not 1 to max characters of text
// (ValidText). A longer text is refused, never cut. It returns the trimmed text.
func CheckText(v *Validation, field, s string, max int) string {
	s = strings.TrimSpace(s)
	v.Checkf(ValidText(s, 1, max), field, "must be 1–%d characters", max)
	return s
}

// CheckOptionalText is CheckText for text that may be empty: at most max characters.
func CheckOptionalText(v *Validation, field, s string, max int) string {
	s = strings.TrimSpace(s)
	checkOptional(v, field, s, max)
	return s
}

// checkOptional records field when s is not at most max characters of text.
func checkOptional(v *Validation, field, s string, max int) {
	v.Checkf(ValidText(s, 0, max), field, "must be at most %d characters", max)
}

// ValidDay reports whether day can be a day of a plan: 1 to MaxPlanDays.
func ValidDay(day int) bool { return day >= 1 && day <= MaxPlanDays }

// CheckDay records field when day is not a day a plan can have (ValidDay).
func CheckDay(v *Validation, field string, day int) {
	v.Checkf(ValidDay(day), field, "must be between 1 and %d", MaxPlanDays)
}
