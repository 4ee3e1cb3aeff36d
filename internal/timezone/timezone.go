// Package timezone names the IANA time zone of a place from its coordinates, offline, and
// checks zone names. The boundaries come from github.com/ringsaturn/tzf's embedded data
// (timezone-boundary-builder, ODbL), loaded once on first use (about 0.6 s and 30 MB); call
// Warm at start-up to load it in the background.
package timezone

import (
	"errors"
	"log/slog"
	"sync"
	"time"
	_ "time/tzdata" // zone rules in the binary, whatever the machine has installed

	"github.com/ringsaturn/tzf"
)

var finder = sync.OnceValue(func() tzf.F {
	f, err := tzf.NewDefaultFinder()
	if err != nil {
		slog.Error("timezone: boundaries failed to load; places get no zone", "err", err)
		return nil
	}
	return f
})

// Warm loads the boundaries in the background.
func Warm() { go finder() }

// At is the IANA zone at the coordinates, or "" when none is known (at sea or out of range).
func At(lat, lon float64) string {
	if lat < -90 || lat > 90 || lon < -180 || lon > 180 {
		return ""
	}
	f := finder()
	if f == nil {
		return ""
	}
	name := f.GetTimezoneName(lon, lat)
	if _, err := Load(name); err != nil {
		return "" // a name Go's zone database does not know
	}
	return name
}

// ErrUnknown is a name that is not an IANA time zone.
var ErrUnknown = errors.New("not an IANA time zone name")

// Load is the zone of an IANA name such as "Asia/Seoul" or "UTC". Unlike time.LoadLocation it
// refuses "" and "Local": the server's own zone means nothing to a trip.
func Load(name string) (*time.Location, error) {
	if name == "" || name == "Local" || len(name) > 64 {
		return nil, ErrUnknown
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, ErrUnknown
	}
	return loc, nil
}
