package export

import (
	"bytes"
	"errors"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the zones below, where the system has no zone data
	"unicode/utf8"

	"github.com/emersion/go-ical"
)

func mustLoad(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

var testStamp = time.Date(2026, 9, 1, 8, 0, 0, 0, time.UTC)

// writeICS writes c, checks the physical lines and parses the result.
func writeICS(t *testing.T, c Calendar) (string, *ical.Calendar) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteICS(&buf, c); err != nil {
		t.Fatalf("WriteICS: %v", err)
	}
	checkPhysicalLines(t, buf.String())
	cal, err := ical.NewDecoder(bytes.NewReader(buf.Bytes())).Decode()
	if err != nil {
		t.Fatalf("parsing the output: %v\n%s", err, buf.String())
	}
	return buf.String(), cal
}

// checkPhysicalLines checks that every line ends with CRLF, holds at most
// 75 octets and whole UTF-8 characters, and that only continuation lines
// start with a space.
func checkPhysicalLines(t *testing.T, out string) {
	t.Helper()
	if !strings.HasSuffix(out, "\r\n") {
		t.Error("output does not end with CRLF")
	}
	lines := strings.Split(strings.TrimSuffix(out, "\r\n"), "\r\n")
	for i, l := range lines {
		if strings.ContainsAny(l, "\r\n") {
			t.Errorf("line %d holds a bare CR or LF: %q", i+1, l)
		}
		if len(l) > 75 {
			t.Errorf("line %d has %d octets: %q", i+1, len(l), l)
		}
		if !utf8.ValidString(l) {
			t.Errorf("line %d splits a UTF-8 character: %q", i+1, l)
		}
		if l == "" {
			t.Errorf("line %d is empty", i+1)
		}
	}
}

// vtzObservance is an observance as read back from the output.
type vtzObservance struct {
	onset time.Time
	to    time.Duration
}

// resolveByVTimezone reads a DATE-TIME property as RFC 5545 does, using the
// calendar's own VTIMEZONE rather than Go's zone data: a local time belongs
// to the observance in effect at the instant it denotes, the first such
// instant when there are two.
func resolveByVTimezone(t *testing.T, cal *ical.Calendar, p *ical.Prop) time.Time {
	t.Helper()
	if strings.HasSuffix(p.Value, "Z") {
		v, err := time.Parse("20060102T150405Z", p.Value)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tzid := p.Params.Get(ical.PropTimezoneID)
	var obs []vtzObservance
	for _, c := range cal.Children {
		if c.Name != ical.CompTimezone {
			continue
		}
		if id, _ := c.Props.Text(ical.PropTimezoneID); id != tzid {
			continue
		}
		for _, o := range c.Children {
			wall, err := time.Parse("20060102T150405", o.Props.Get(ical.PropDateTimeStart).Value)
			if err != nil {
				t.Fatal(err)
			}
			from := parseUTCOffset(t, o.Props.Get(ical.PropTimezoneOffsetFrom).Value)
			to := parseUTCOffset(t, o.Props.Get(ical.PropTimezoneOffsetTo).Value)
			obs = append(obs, vtzObservance{onset: wall.Add(-from), to: to})
		}
	}
	if len(obs) == 0 {
		t.Fatalf("no VTIMEZONE %q", tzid)
	}
	sort.Slice(obs, func(i, j int) bool { return obs[i].onset.Before(obs[j].onset) })
	wall, err := time.Parse("20060102T150405", p.Value)
	if err != nil {
		t.Fatal(err)
	}
	var best time.Time
	for i, o := range obs {
		at := wall.Add(-o.to)
		if i > 0 && at.Before(o.onset) || i+1 < len(obs) && !at.Before(obs[i+1].onset) {
			continue
		}
		if best.IsZero() || at.Before(best) {
			best = at
		}
	}
	if best.IsZero() {
		t.Fatalf("%s %s is in no observance", tzid, p.Value)
	}
	return best
}

func parseUTCOffset(t *testing.T, s string) time.Duration {
	t.Helper()
	if len(s) != 5 && len(s) != 7 || s[0] != '+' && s[0] != '-' {
		t.Fatalf("bad UTC offset %q", s)
	}
	d := 0
	for i, unit := range []int{3600, 60, 1} {
		if 1+2*i >= len(s) {
			break
		}
		n, err := strconv.Atoi(s[1+2*i : 3+2*i])
		if err != nil {
			t.Fatal(err)
		}
		d += n * unit
	}
	if s[0] == '-' {
		d = -d
	}
	return time.Duration(d) * time.Second
}

func TestWriteICSInstants(t *testing.T) {
	paris := mustLoad(t, "Europe/Paris")
	newYork := mustLoad(t, "America/New_York")
	seoul := mustLoad(t, "Asia/Seoul")
	utc := func(y int, m time.Month, d, h, min int) time.Time { return time.Date(y, m, d, h, min, 0, 0, time.UTC) }

	tests := []struct {
		name   string
		loc    *time.Location
		events [][2]time.Time // start, end
		// observances are the expected VTIMEZONE sub-components, as
		// "KIND DTSTART FROM TO NAME".
		observances []string
		// utcWritten are the times that must be written in UTC, as
		// "<event index> <property>".
		utcWritten map[string]bool
	}{
		{
			name: "Europe/Paris across the end of summer time",
			loc:  paris,
			events: [][2]time.Time{
				{time.Date(2026, 10, 24, 22, 0, 0, 0, paris), time.Date(2026, 10, 25, 9, 0, 0, 0, paris)},
				{utc(2026, 10, 25, 0, 30), utc(2026, 10, 25, 0, 45)}, // 02:30-02:45 CEST, the hour to be repeated
				{utc(2026, 10, 25, 1, 30), utc(2026, 10, 25, 2, 15)}, // 02:30 CET, the repeated hour, to 03:15
				{time.Date(2026, 10, 26, 10, 0, 0, 0, paris), time.Date(2026, 10, 26, 12, 0, 0, 0, paris)},
			},
			observances: []string{
				"DAYLIGHT 20260329T020000 +0100 +0200 CEST",
				"STANDARD 20261025T030000 +0200 +0100 CET",
			},
			utcWritten: map[string]bool{"1 DTSTART": true, "1 DTEND": true, "2 DTSTART": true},
		},
		{
			name: "America/New_York across the end of daylight time",
			loc:  newYork,
			events: [][2]time.Time{
				{time.Date(2026, 10, 31, 20, 0, 0, 0, newYork), time.Date(2026, 11, 1, 9, 0, 0, 0, newYork)},
				{utc(2026, 11, 1, 5, 30), utc(2026, 11, 1, 6, 0)}, // 01:30 EDT to 01:00 EST, both ambiguous
				{utc(2026, 11, 1, 6, 30), utc(2026, 11, 1, 7, 0)}, // 01:30 EST, the repeated hour, to 02:00
				{time.Date(2026, 11, 2, 8, 0, 0, 0, newYork), time.Date(2026, 11, 2, 9, 30, 0, 0, newYork)},
			},
			observances: []string{
				"DAYLIGHT 20260308T020000 -0500 -0400 EDT",
				"STANDARD 20261101T020000 -0400 -0500 EST",
			},
			utcWritten: map[string]bool{"1 DTSTART": true, "1 DTEND": true, "2 DTSTART": true},
		},
		{
			name: "America/New_York into spring, beyond the listed transitions",
			loc:  newYork,
			events: [][2]time.Time{
				{time.Date(2040, 12, 31, 18, 0, 0, 0, newYork), time.Date(2040, 12, 31, 23, 30, 0, 0, newYork)},
				{time.Date(2041, 3, 10, 9, 0, 0, 0, newYork), time.Date(2041, 3, 10, 10, 0, 0, 0, newYork)},
			},
			observances: []string{
				"STANDARD 20401104T020000 -0400 -0500 EST",
				"DAYLIGHT 20410310T020000 -0500 -0400 EDT",
			},
		},
		{
			name: "Asia/Seoul",
			loc:  seoul,
			events: [][2]time.Time{
				{time.Date(2026, 5, 1, 9, 0, 0, 0, seoul), time.Date(2026, 5, 1, 11, 30, 0, 0, seoul)},
				{utc(2026, 5, 2, 1, 0), utc(2026, 5, 2, 3, 0)},
			},
			observances: []string{"STANDARD 19881009T030000 +1000 +0900 KST"},
		},
		{
			name: "UTC",
			loc:  time.UTC,
			events: [][2]time.Time{
				{time.Date(2026, 5, 1, 9, 0, 0, 0, seoul), utc(2026, 5, 1, 12, 0)},
			},
			observances: []string{"STANDARD 19700101T000000 +0000 +0000 UTC"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Calendar{Name: "Trip", Location: tt.loc, ProdID: "-//Tripplan//Test//EN", Stamp: testStamp}
			for i, se := range tt.events {
				c.Events = append(c.Events, Event{UID: strconv.Itoa(i) + "@test", Start: se[0], End: se[1], Summary: "E"})
			}
			out, cal := writeICS(t, c)

			var tzs []*ical.Component
			for _, ch := range cal.Children {
				if ch.Name == ical.CompTimezone {
					tzs = append(tzs, ch)
				}
			}
			if len(tzs) != 1 {
				t.Fatalf("%d VTIMEZONEs", len(tzs))
			}
			if id, _ := tzs[0].Props.Text(ical.PropTimezoneID); id != tt.loc.String() {
				t.Errorf("TZID %q", id)
			}
			var got []string
			for _, o := range tzs[0].Children {
				name, _ := o.Props.Text(ical.PropTimezoneName)
				got = append(got, strings.Join([]string{o.Name,
					o.Props.Get(ical.PropDateTimeStart).Value,
					o.Props.Get(ical.PropTimezoneOffsetFrom).Value,
					o.Props.Get(ical.PropTimezoneOffsetTo).Value, name}, " "))
			}
			if strings.Join(got, "\n") != strings.Join(tt.observances, "\n") {
				t.Errorf("observances:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.observances, "\n"))
			}
			if !strings.Contains(out, "\r\nX-WR-TIMEZONE:"+tt.loc.String()+"\r\n") {
				t.Error("no X-WR-TIMEZONE")
			}

			events := cal.Events()
			if len(events) != len(tt.events) {
				t.Fatalf("%d events, want %d", len(events), len(tt.events))
			}
			for i, e := range events {
				if uid, _ := e.Props.Text(ical.PropUID); uid != c.Events[i].UID {
					t.Errorf("event %d: UID %q", i, uid)
				}
				if stamp, err := e.Props.DateTime(ical.PropDateTimeStamp, nil); err != nil || !stamp.Equal(testStamp) || !strings.HasSuffix(e.Props.Get(ical.PropDateTimeStamp).Value, "Z") {
					t.Errorf("event %d: DTSTAMP %v, %v", i, e.Props.Get(ical.PropDateTimeStamp), err)
				}
				for _, p := range []struct {
					name string
					want time.Time
				}{{ical.PropDateTimeStart, tt.events[i][0]}, {ical.PropDateTimeEnd, tt.events[i][1]}} {
					prop := e.Props.Get(p.name)
					inUTC := tt.utcWritten[strconv.Itoa(i)+" "+p.name]
					if tz, z := prop.Params.Get(ical.PropTimezoneID), strings.HasSuffix(prop.Value, "Z"); inUTC && (tz != "" || !z) || !inUTC && (tz != tt.loc.String() || z) {
						t.Errorf("event %d %s: TZID %q, value %s; want in UTC: %v", i, p.name, tz, prop.Value, inUTC)
					}
					at, err := prop.DateTime(nil)
					if err != nil {
						t.Fatalf("event %d %s: %v", i, p.name, err)
					}
					if !at.Equal(p.want) {
						t.Errorf("event %d %s = %s resolves to %s, want %s", i, p.name, prop.Value, at.UTC(), p.want.UTC())
					}
					if at := resolveByVTimezone(t, cal, prop); !at.Equal(p.want) {
						t.Errorf("event %d %s = %s resolves by the VTIMEZONE to %s, want %s", i, p.name, prop.Value, at.UTC(), p.want.UTC())
					}
				}
			}
		})
	}
}

func TestWriteICSCalendarProperties(t *testing.T) {
	seoul := mustLoad(t, "Asia/Seoul")
	event := Event{UID: "tb-1@example.com", Start: time.Date(2026, 5, 1, 9, 0, 0, 0, seoul), End: time.Date(2026, 5, 1, 10, 0, 0, 0, seoul)}
	c := Calendar{Name: "Seoul, spring; 2026", Location: seoul, ProdID: "-//Tripplan//Plan export//EN", Stamp: testStamp, Events: []Event{event}}

	out, cal := writeICS(t, c)
	for _, want := range []string{"VERSION:2.0", "PRODID:-//Tripplan//Plan export//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH", "X-WR-TIMEZONE:Asia/Seoul"} {
		if !strings.Contains(out, "\r\n"+want+"\r\n") {
			t.Errorf("no %q", want)
		}
	}
	if name, err := cal.Props.Text("X-WR-CALNAME"); err != nil || name != c.Name {
		t.Errorf("X-WR-CALNAME %q, %v", name, err)
	}
	if strings.Contains(out, "REFRESH-INTERVAL") || strings.Contains(out, "X-PUBLISHED-TTL") {
		t.Error("refresh written without Refresh")
	}

	c.Refresh = 12 * time.Hour
	out, cal = writeICS(t, c)
	refresh := cal.Props.Get(ical.PropRefreshInterval)
	if refresh == nil || refresh.Params.Get(ical.ParamValue) != "DURATION" {
		t.Fatalf("REFRESH-INTERVAL %v", refresh)
	}
	if d, err := refresh.Duration(); err != nil || d != 12*time.Hour {
		t.Errorf("REFRESH-INTERVAL %q = %v, %v", refresh.Value, d, err)
	}
	if !strings.Contains(out, "\r\nX-PUBLISHED-TTL:PT12H\r\n") {
		t.Error("no X-PUBLISHED-TTL:PT12H")
	}

	// With no events, the calendar still carries its time zone.
	c.Events = nil
	_, cal = writeICS(t, c)
	if len(cal.Children) != 1 || cal.Children[0].Name != ical.CompTimezone {
		t.Errorf("calendar without events has %d components", len(cal.Children))
	}
}

func TestICSDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		45 * time.Second:                  "PT45S",
		15 * time.Minute:                  "PT15M",
		90 * time.Minute:                  "PT1H30M",
		time.Hour + 5*time.Second:         "PT1H0M5S",
		2*time.Minute + 3*time.Second:     "PT2M3S",
		24 * time.Hour:                    "PT24H",
		500 * time.Millisecond:            "PT1S",
		time.Hour + 1500*time.Millisecond: "PT1H0M2S",
	} {
		if got := icsDuration(d); got != want {
			t.Errorf("icsDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestWriteICSText(t *testing.T) {
	tokyo := mustLoad(t, "Asia/Tokyo")
	longName := strings.Repeat("경복궁東京", 40) // 200 characters, 600 octets
	lat, lon := 35.681236, 139.767125
	south, west := -33.8567844, -151.2152967
	events := []Event{
		{
			UID:         "tb-1@example.com",
			Summary:     `Lunch, then a walk; bring C:\maps`,
			Location:    longName + ", 1-9-1 Marunouchi; Chiyoda",
			Description: "Line one\nLine two\r\nLine three, with a comma; and \\ backslash\tand a tab\x07",
			URL:         "https://example.com/plans/1?day=2&block=3",
			Lat:         &lat,
			Lon:         &lon,
		},
		{UID: "tb-2@example.com", Summary: "Only latitude", Lat: &lat},
		{UID: "tb-3@example.com", Summary: "South-west", Lat: &south, Lon: &west},
	}
	for i := range events {
		events[i].Start = time.Date(2026, 4, 1, 12+i, 0, 0, 0, tokyo)
		events[i].End = events[i].Start.Add(45 * time.Minute)
	}
	out, cal := writeICS(t, Calendar{Name: longName, Location: tokyo, ProdID: "-//Tripplan//Test//EN", Stamp: testStamp, Events: events})

	if !strings.Contains(out, "\r\n ") {
		t.Error("no line was folded")
	}
	if name, _ := cal.Props.Text("X-WR-CALNAME"); name != longName {
		t.Errorf("X-WR-CALNAME = %q", name)
	}
	got := cal.Events()
	for _, tt := range []struct {
		prop, want string
	}{
		{ical.PropSummary, events[0].Summary},
		{ical.PropLocation, events[0].Location},
		{ical.PropDescription, "Line one\nLine two\nLine three, with a comma; and \\ backslash\tand a tab"},
	} {
		if v, err := got[0].Props.Text(tt.prop); err != nil || v != tt.want {
			t.Errorf("%s = %q, %v; want %q", tt.prop, v, err, tt.want)
		}
	}
	if u, err := got[0].Props.URI(ical.PropURL); err != nil || u.String() != events[0].URL {
		t.Errorf("URL = %v, %v", u, err)
	}
	if geo := got[0].Props.Get(ical.PropGeo); geo == nil || geo.Value != "35.681236;139.767125" {
		t.Errorf("GEO = %v", geo)
	}
	if geo := got[1].Props.Get(ical.PropGeo); geo != nil {
		t.Errorf("GEO written with only a latitude: %v", geo.Value)
	}
	if geo := got[2].Props.Get(ical.PropGeo); geo == nil || geo.Value != "-33.856784;-151.215297" {
		t.Errorf("GEO = %v", geo)
	}
	for _, p := range []string{ical.PropLocation, ical.PropDescription, ical.PropURL} {
		if got[1].Props.Get(p) != nil {
			t.Errorf("event without %s has one", p)
		}
	}
}

func TestWriteICSRefusesInvalidInput(t *testing.T) {
	paris := mustLoad(t, "Europe/Paris")
	start := time.Date(2026, 7, 14, 10, 0, 0, 0, paris)
	valid := Event{UID: "tb@example.com", Start: start, End: start.Add(time.Hour)}
	bad := 91.0
	zero := 0.0
	tests := []struct {
		name   string
		change func(*Calendar)
	}{
		{"end equals start", func(c *Calendar) { c.Events[1].End = c.Events[1].Start }},
		{"end before start", func(c *Calendar) { c.Events[1].End = c.Events[1].Start.Add(-time.Minute) }},
		{"end within the start's second", func(c *Calendar) { c.Events[1].End = c.Events[1].Start.Add(500 * time.Millisecond) }},
		{"no UID", func(c *Calendar) { c.Events[1].UID = "" }},
		{"relative URL", func(c *Calendar) { c.Events[1].URL = "/plans/1" }},
		{"latitude out of range", func(c *Calendar) { c.Events[1].Lat, c.Events[1].Lon = &bad, &zero }},
		{"no location", func(c *Calendar) { c.Location = nil }},
		{"no PRODID", func(c *Calendar) { c.ProdID = "" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Calendar{Location: paris, ProdID: "-//Tripplan//Test//EN", Stamp: testStamp, Events: []Event{valid, valid}}
			c.Events[1].UID = "other@example.com"
			tt.change(&c)
			var buf bytes.Buffer
			if err := WriteICS(&buf, c); err == nil {
				t.Fatalf("no error; wrote\n%s", buf.String())
			}
			if buf.Len() != 0 {
				t.Errorf("wrote %d bytes before refusing", buf.Len())
			}
		})
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteICSReportsWriteErrors(t *testing.T) {
	err := WriteICS(failingWriter{}, Calendar{Location: time.UTC, ProdID: "-//Tripplan//Test//EN", Stamp: testStamp})
	if err == nil || err.Error() != "disk full" {
		t.Errorf("error %v", err)
	}
}
