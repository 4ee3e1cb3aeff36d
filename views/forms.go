package views

import (
	"context"
	"strconv"
	"unicode/utf8"

	"tripplan/internal/planner"
)

// TitleMax is the most characters a plan's or collection's title may have (planner.TitleMax),
// the forms' maxlength and the counter's limit.
const TitleMax = planner.TitleMax

// titleCount is the counter's text for a title: "12 / 50", in characters as the server counts.
func titleCount(title string) string {
	return strconv.Itoa(utf8.RuneCountInString(title)) + " / " + strconv.Itoa(TitleMax)
}

// CityOption is a destination the plan form offers: a catalog city, with the other names it
// is found by.
type CityOption struct {
	Name    string
	Country string
	Names   []string
}

// FieldErrors are the messages of a form's invalid fields, by field name, shown under them.
type FieldErrors map[string]string

// zoneHint explains the plan form's time zone field; current is the zone the plan follows now
// when no member chose one ("" for none yet).
func zoneHint(ctx context.Context, current string) string {
	if current != "" {
		return t(ctx, "plan.time_zone_hint_now", "Zone", current)
	}
	return t(ctx, "plan.time_zone_hint")
}
