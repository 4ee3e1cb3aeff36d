package export

import "time"

// zone is what a location's clock says at an instant.
type zone struct {
	name   string
	offset int // seconds east of UTC
	dst    bool
}

// zoneAt returns the zone of t's location in effect at t.
func zoneAt(t time.Time) zone {
	name, offset := t.Zone()
	return zone{name: name, offset: offset, dst: t.IsDST()}
}

// observance is one period of a location's zone: a VTIMEZONE STANDARD or
// DAYLIGHT sub-component.
type observance struct {
	zone
	onset time.Time // the period's first instant; zero when the zone data knows none
	from  int       // offset before onset, seconds east of UTC
}

// onsetLocal formats the observance's DTSTART: the onset's local time in
// the offset before it, or 1 January 1970, as is conventional, for a
// period without a known start.
func (o observance) onsetLocal() string {
	if o.onset.IsZero() {
		return "19700101T000000"
	}
	return o.onset.In(time.FixedZone("", o.from)).Format(icsLocalFormat)
}

// observances returns the periods of the zone of from's location that
// overlap [from, to], oldest first, from Go's zone data.
func observances(from, to time.Time) []observance {
	t := from.Truncate(time.Second)
	obs := []observance{observanceFrom(periodStart(t), t)}
	for {
		next := nextChange(t)
		if next.IsZero() || next.After(to) {
			return obs
		}
		obs = append(obs, observanceFrom(next, next))
		t = next
	}
}

// observanceFrom describes the period containing t that began at onset.
func observanceFrom(onset, t time.Time) observance {
	o := observance{zone: zoneAt(t), onset: onset}
	o.from = o.offset
	if !onset.IsZero() {
		o.from = zoneAt(onset.Add(-time.Second)).offset
	}
	return o
}

// periodStart returns the first instant of the period containing t during
// which its location's zone stays as at t, or the zero Time when the zone
// data knows no start. Go reports bounds at the turn of each year beyond
// the last listed transition; periodStart looks past those.
func periodStart(t time.Time) time.Time {
	z := zoneAt(t)
	for {
		start, _ := t.ZoneBounds()
		if start.IsZero() {
			return start
		}
		before := start.Add(-time.Second)
		if zoneAt(before) != z {
			return start
		}
		t = before
	}
}

// nextChange returns the first instant after t at which its location's
// zone differs from the zone at t, or the zero Time when the zone data
// knows no later change.
func nextChange(t time.Time) time.Time {
	z := zoneAt(t)
	for {
		_, end := t.ZoneBounds()
		if end.IsZero() {
			return end
		}
		if !end.After(t) {
			// Beyond the last listed transition Go derives bounds from the
			// zone's rule one year at a time, and late on 31 December of a
			// leap year it reports an end already past. Step a day and,
			// if the zone changed on the way, search for the change.
			next := t.Add(24 * time.Hour)
			if zoneAt(next) != z {
				return firstChange(t, next)
			}
			t = next
			continue
		}
		if zoneAt(end) != z {
			return end
		}
		t = end
	}
}

// firstChange returns the first second in (lo, hi] whose zone differs
// from lo's, given whole seconds lo and hi, that hi's zone differs, and
// that the zone changes once between them.
func firstChange(lo, hi time.Time) time.Time {
	z := zoneAt(lo)
	for hi.Sub(lo) > time.Second {
		mid := lo.Add(hi.Sub(lo) / 2).Truncate(time.Second)
		if zoneAt(mid) == z {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// ambiguous reports whether t's wall-clock time occurs twice, in the hour
// repeated when clocks go back: RFC 5545 reads such a local time as its
// first occurrence, and readers relying on other zone code may not.
func ambiguous(t time.Time) bool {
	offset := zoneAt(t).offset
	if start := periodStart(t); !start.IsZero() {
		before := zoneAt(start.Add(-time.Second)).offset
		if before > offset && t.Sub(start) < time.Duration(before-offset)*time.Second {
			return true
		}
	}
	if next := nextChange(t); !next.IsZero() {
		after := zoneAt(next).offset
		if offset > after && next.Sub(t) <= time.Duration(offset-after)*time.Second {
			return true
		}
	}
	return false
}
