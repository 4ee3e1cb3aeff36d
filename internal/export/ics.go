package export

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Calendar is an iCalendar (RFC 5545) calendar of a plan's confirmed blocks.
type Calendar struct {
	Name     string         // X-WR-CALNAME, e.g. the plan title
	Location *time.Location // the plan's time zone (IANA); events are written in it with TZID
	ProdID   string         // e.g. "-//Tripplan//Plan export//EN"
	Stamp    time.Time      // DTSTAMP for every event (UTC)
	Refresh  time.Duration  // REFRESH-INTERVAL / X-PUBLISHED-TTL for subscribed feeds; 0 = omit
	Events   []Event
}

// Event is one calendar event.
type Event struct {
	UID         string    // stable, globally unique (e.g. "<time block id>@<host>")
	Start, End  time.Time // wall-clock times; written in Calendar.Location
	Summary     string
	Location    string   // place name and address
	Description string   // memo etc.; may contain newlines
	URL         string   // optional
	Lat, Lon    *float64 // optional GEO
}

const (
	icsLocalFormat = "20060102T150405"
	icsUTCFormat   = "20060102T150405Z"
	// icsLineLimit is the longest content line RFC 5545 §3.1 allows, in
	// octets, not counting the line break.
	icsLineLimit = 75
	// zoneMargin widens the span the time zone's observances must cover on
	// either side of the events.
	zoneMargin = 7 * 24 * time.Hour
)

// WriteICS writes c to w as one VCALENDAR with a VTIMEZONE for c.Location
// and a VEVENT per event.
//
// Event times are instants: each is written as its wall-clock time in
// c.Location with TZID, except that a time whose wall-clock time occurs
// twice, in the hour repeated when clocks go back, is written in UTC so
// that no reader can take it for the other occurrence. Times are written
// to the second.
// Text values are escaped; control characters other than tab and newline,
// which TEXT cannot carry, are dropped. The VTIMEZONE's observances cover
// the events with a week's margin, or the week around Stamp when there
// are none.
//
// WriteICS returns an error, having written nothing, when c has no
// location or PRODID, or an event has no UID, an End that is not after its
// Start (to the second), an invalid URL or coordinates out of range.
func WriteICS(w io.Writer, c Calendar) error {
	if c.Location == nil {
		return errors.New("export: calendar has no time zone")
	}
	tzid := c.Location.String()
	tzParam, err := paramValue(tzid)
	if err != nil {
		return fmt.Errorf("export: time zone name: %w", err)
	}
	if c.ProdID == "" {
		return errors.New("export: calendar has no PRODID")
	}

	var b icsBuilder
	b.add("BEGIN", "VCALENDAR")
	b.add("VERSION", "2.0")
	b.add("PRODID", escapeText(c.ProdID))
	b.add("CALSCALE", "GREGORIAN")
	b.add("METHOD", "PUBLISH")
	b.add("X-WR-CALNAME", escapeText(c.Name))
	b.add("X-WR-TIMEZONE", escapeText(tzid))
	if c.Refresh > 0 {
		d := icsDuration(c.Refresh)
		b.add("REFRESH-INTERVAL;VALUE=DURATION", d)
		b.add("X-PUBLISHED-TTL", d)
	}

	from, to := c.Stamp, c.Stamp
	for i, e := range c.Events {
		if i == 0 || e.Start.Before(from) {
			from = e.Start
		}
		if i == 0 || e.End.After(to) {
			to = e.End
		}
	}
	writeTimeZone(&b, tzid, observances(from.Add(-zoneMargin).In(c.Location), to.Add(zoneMargin).In(c.Location)))

	stamp := c.Stamp.UTC().Format(icsUTCFormat)
	for i, e := range c.Events {
		if err := writeEvent(&b, e, stamp, c.Location, tzParam); err != nil {
			return fmt.Errorf("export: event %d (%q): %w", i, e.UID, err)
		}
	}
	b.add("END", "VCALENDAR")

	_, err = w.Write(b.buf.Bytes())
	return err
}

// writeEvent adds e as a VEVENT.
func writeEvent(b *icsBuilder, e Event, stamp string, loc *time.Location, tzParam string) error {
	if e.UID == "" {
		return errors.New("no UID")
	}
	start, end := e.Start.Truncate(time.Second), e.End.Truncate(time.Second)
	if !end.After(start) {
		return fmt.Errorf("end %s is not after start %s", e.End, e.Start)
	}
	var link string
	if e.URL != "" {
		u, err := url.Parse(e.URL)
		if err != nil {
			return fmt.Errorf("URL: %w", err)
		}
		if !u.IsAbs() {
			return fmt.Errorf("URL %q is not absolute", e.URL)
		}
		link = u.String()
	}
	var geo string
	if e.Lat != nil && e.Lon != nil {
		if err := checkCoordinates(*e.Lat, *e.Lon); err != nil {
			return err
		}
		geo = geoDecimal(*e.Lat) + ";" + geoDecimal(*e.Lon)
	}

	b.add("BEGIN", "VEVENT")
	b.add("UID", escapeText(e.UID))
	b.add("DTSTAMP", stamp)
	b.dateTime("DTSTART", start, loc, tzParam)
	b.dateTime("DTEND", end, loc, tzParam)
	b.add("SUMMARY", escapeText(e.Summary))
	if e.Location != "" {
		b.add("LOCATION", escapeText(e.Location))
	}
	if e.Description != "" {
		b.add("DESCRIPTION", escapeText(e.Description))
	}
	if link != "" {
		b.add("URL;VALUE=URI", link)
	}
	if geo != "" {
		b.add("GEO", geo)
	}
	b.add("END", "VEVENT")
	return nil
}

// writeTimeZone adds a VTIMEZONE named tzid with the given observances.
func writeTimeZone(b *icsBuilder, tzid string, obs []observance) {
	b.add("BEGIN", "VTIMEZONE")
	b.add("TZID", escapeText(tzid))
	for _, o := range obs {
		kind := "STANDARD"
		if o.dst {
			kind = "DAYLIGHT"
		}
		b.add("BEGIN", kind)
		b.add("DTSTART", o.onsetLocal())
		b.add("TZOFFSETFROM", utcOffset(o.from))
		b.add("TZOFFSETTO", utcOffset(o.offset))
		if o.name != "" {
			b.add("TZNAME", escapeText(o.name))
		}
		b.add("END", kind)
	}
	b.add("END", "VTIMEZONE")
}

// icsBuilder collects folded content lines.
type icsBuilder struct {
	buf bytes.Buffer
}

// add appends the content line "name:value", where name may carry
// parameters, folded so that no line exceeds icsLineLimit octets and no
// UTF-8 sequence is split.
func (b *icsBuilder) add(name, value string) {
	line := name + ":" + value
	n := 0
	for len(line) > 0 {
		_, size := utf8.DecodeRuneInString(line)
		if n+size > icsLineLimit {
			b.buf.WriteString("\r\n ")
			n = 1
		}
		b.buf.WriteString(line[:size])
		n += size
		line = line[size:]
	}
	b.buf.WriteString("\r\n")
}

// dateTime appends a DATE-TIME property for t: local time with TZID, or
// UTC when the local time is ambiguous.
func (b *icsBuilder) dateTime(name string, t time.Time, loc *time.Location, tzParam string) {
	local := t.In(loc)
	if ambiguous(local) {
		b.add(name, t.UTC().Format(icsUTCFormat))
		return
	}
	b.add(name+";TZID="+tzParam, local.Format(icsLocalFormat))
}

// escapeText escapes s as an RFC 5545 TEXT value.
func escapeText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == ';':
			b.WriteString(`\;`)
		case r == ',':
			b.WriteString(`\,`)
		case r == '\n' || r == '\r':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			// Not representable in TEXT.
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// paramValue renders s as a parameter value, quoted when it holds a
// character that would end the parameter.
func paramValue(s string) (string, error) {
	if s == "" {
		return "", errors.New("empty")
	}
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("%q is not UTF-8", s)
	}
	for _, r := range s {
		if r == '"' || (r < 0x20 && r != '\t') || r == 0x7f {
			return "", fmt.Errorf("%q cannot be a parameter value", s)
		}
	}
	if strings.ContainsAny(s, ";:,") {
		return `"` + s + `"`, nil
	}
	return s, nil
}

// icsDuration formats d, rounded up to whole seconds, as an RFC 5545
// dur-time ("PT1H30M").
func icsDuration(d time.Duration) string {
	secs := int64((d + time.Second - 1) / time.Second)
	h, m, s := secs/3600, secs/60%60, secs%60
	var b strings.Builder
	b.WriteString("PT")
	switch {
	case h > 0:
		b.WriteString(strconv.FormatInt(h, 10) + "H")
		if m > 0 || s > 0 {
			b.WriteString(strconv.FormatInt(m, 10) + "M")
		}
		if s > 0 {
			b.WriteString(strconv.FormatInt(s, 10) + "S")
		}
	case m > 0:
		b.WriteString(strconv.FormatInt(m, 10) + "M")
		if s > 0 {
			b.WriteString(strconv.FormatInt(s, 10) + "S")
		}
	default:
		b.WriteString(strconv.FormatInt(s, 10) + "S")
	}
	return b.String()
}

// utcOffset formats an offset in seconds east of UTC as an RFC 5545
// UTC-OFFSET ("+0900", "-0330", "+082752").
func utcOffset(secs int) string {
	sign := "+"
	if secs < 0 {
		sign, secs = "-", -secs
	}
	s := fmt.Sprintf("%s%02d%02d", sign, secs/3600, secs/60%60)
	if secs%60 != 0 {
		s += fmt.Sprintf("%02d", secs%60)
	}
	return s
}

// geoDecimal formats a coordinate with at most six decimals.
func geoDecimal(v float64) string {
	s := strconv.FormatFloat(v, 'f', 6, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return s
}
