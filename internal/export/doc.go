// Package export writes trip plans in formats other applications read:
// iCalendar (RFC 5545) for calendars and GPX 1.1 for maps and navigation.
//
// The writers are pure: they take plain values, check them, and write
// nothing when a value cannot be represented faithfully.
package export
