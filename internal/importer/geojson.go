package importer

import (
	"fmt"
	"strings"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"

	"tripplan/internal/planner"
)

// parseGeoJSON reads a FeatureCollection's features: a Point's [lon, lat] and, for the name,
// address and link, the properties as plain GeoJSON writes them (name, address, description)
// or as Google Takeout's "Saved Places.json" does: properties.location.name and .address and
// properties.google_maps_url in today's export, properties.Title, .Location.Address and
// ."Google Maps URL" in older ones (keys are matched without regard to case). Takeout gives
// [0, 0] for a place it has no point for: such a row is looked up by its name (see clean).
func parseGeoJSON(data []byte) ([]planner.ImportRow, error) {
	fc, err := geojson.UnmarshalFeatureCollection(data)
	if err != nil {
		return nil, invalid(planner.Errorf(planner.CodeInvalidRequest, "The file is not a GeoJSON FeatureCollection."))
	}
	var rows []planner.ImportRow
	for _, f := range fc.Features {
		props := map[string]any(f.Properties)
		loc, _ := prop(props, "location").(map[string]any)
		r := planner.ImportRow{
			Name:    first(str(prop(props, "name")), str(prop(props, "title")), str(prop(loc, "name")), str(prop(loc, "business name"))),
			Address: first(str(prop(props, "address")), str(prop(loc, "address"))),
			Note:    first(str(prop(props, "description")), str(prop(props, "note")), str(prop(props, "comment"))),
			URL:     first(str(prop(props, "google_maps_url")), str(prop(props, "google maps url")), str(prop(props, "url"))),
		}
		switch g := geometryOf(f); p := g.(type) {
		case orb.Point:
			r.Lng, r.Lat, r.HasPoint = p[0], p[1], true
		case nil:
			// No geometry: Takeout writes some places so; the URL or the name may still find it.
		default:
			r.Skip = planner.ImportSkipNotAPoint
		}
		if err := appendRow(&rows, r); err != nil {
			break
		}
	}
	return rows, nil
}

func geometryOf(f *geojson.Feature) orb.Geometry {
	if f == nil {
		return nil
	}
	return f.Geometry
}

// prop is the property of that name, in any case.
func prop(m map[string]any, key string) any {
	if v, ok := m[key]; ok {
		return v
	}
	for k, v := range m {
		if strings.EqualFold(k, key) {
			return v
		}
	}
	return nil
}

// str is a property's text: strings as they are, numbers written out, anything else nothing.
func str(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return fmt.Sprint(v)
	}
	return ""
}

// first is the first of its arguments with text.
func first(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}
