package export

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"net/url"
	"strconv"
	"time"
)

// GPX is a GPX 1.1 document.
type GPX struct {
	Name, Desc string
	Creator    string    // the creator attribute, e.g. "Tripplan"
	Time       time.Time // metadata time
	Waypoints  []Waypoint
	Routes     []Route
}

// Waypoint is a GPX waypoint, also used for a route's points. Everything
// but Lat and Lon is optional; empty fields are left out.
type Waypoint struct {
	Lat, Lon         float64
	Name, Desc, Type string // Type e.g. the category
	Time             *time.Time
	Link             string // optional href
}

// Route is a GPX route: an ordered list of points. Number 0 is left out.
type Route struct {
	Name, Desc string
	Number     int // GPX <number>, e.g. the day
	Points     []Waypoint
}

const (
	gpxNamespace      = "http://www.topografix.com/GPX/1/1"
	xsiNamespace      = "http://www.w3.org/2001/XMLSchema-instance"
	gpxSchemaLocation = gpxNamespace + " http://www.topografix.com/GPX/1/1/gpx.xsd"
)

// The xml* types lay the document out in the order the GPX 1.1 schema's
// sequences require.
type xmlGPX struct {
	XMLName        xml.Name     `xml:"gpx"`
	Version        string       `xml:"version,attr"`
	Creator        string       `xml:"creator,attr"`
	Xmlns          string       `xml:"xmlns,attr"`
	XmlnsXSI       string       `xml:"xmlns:xsi,attr"`
	SchemaLocation string       `xml:"xsi:schemaLocation,attr"`
	Metadata       *xmlMetadata `xml:"metadata"`
	Waypoints      []xmlWpt     `xml:"wpt"`
	Routes         []xmlRte     `xml:"rte"`
}

type xmlMetadata struct {
	Name   string     `xml:"name,omitempty"`
	Desc   string     `xml:"desc,omitempty"`
	Time   string     `xml:"time,omitempty"`
	Bounds *xmlBounds `xml:"bounds"`
}

type xmlBounds struct {
	MinLat string `xml:"minlat,attr"`
	MinLon string `xml:"minlon,attr"`
	MaxLat string `xml:"maxlat,attr"`
	MaxLon string `xml:"maxlon,attr"`
}

type xmlWpt struct {
	Lat  string   `xml:"lat,attr"`
	Lon  string   `xml:"lon,attr"`
	Time string   `xml:"time,omitempty"`
	Name string   `xml:"name,omitempty"`
	Desc string   `xml:"desc,omitempty"`
	Link *xmlLink `xml:"link"`
	Type string   `xml:"type,omitempty"`
}

type xmlLink struct {
	Href string `xml:"href,attr"`
}

type xmlRte struct {
	Name   string   `xml:"name,omitempty"`
	Desc   string   `xml:"desc,omitempty"`
	Number string   `xml:"number,omitempty"`
	Points []xmlWpt `xml:"rtept"`
}

// WriteGPX writes g to w as a GPX 1.1 document. The metadata carries the
// bounds of all waypoints and route points when there are any; times are
// written in UTC. It returns an error, having written nothing, when a
// coordinate is out of range (latitude −90..90, longitude −180 up to but
// not including 180), a link is not a valid URL, or a route number is
// negative.
func WriteGPX(w io.Writer, g GPX) error {
	doc := xmlGPX{
		Version:        "1.1",
		Creator:        g.Creator,
		Xmlns:          gpxNamespace,
		XmlnsXSI:       xsiNamespace,
		SchemaLocation: gpxSchemaLocation,
	}
	var box bounds
	for i, p := range g.Waypoints {
		wpt, err := gpxWaypoint(p, &box)
		if err != nil {
			return fmt.Errorf("export: waypoint %d: %w", i, err)
		}
		doc.Waypoints = append(doc.Waypoints, wpt)
	}
	for i, r := range g.Routes {
		if r.Number < 0 {
			return fmt.Errorf("export: route %d: negative number %d", i, r.Number)
		}
		rte := xmlRte{Name: r.Name, Desc: r.Desc}
		if r.Number > 0 {
			rte.Number = strconv.Itoa(r.Number)
		}
		for j, p := range r.Points {
			pt, err := gpxWaypoint(p, &box)
			if err != nil {
				return fmt.Errorf("export: route %d point %d: %w", i, j, err)
			}
			rte.Points = append(rte.Points, pt)
		}
		doc.Routes = append(doc.Routes, rte)
	}
	meta := xmlMetadata{Name: g.Name, Desc: g.Desc}
	if !g.Time.IsZero() {
		meta.Time = gpxTime(g.Time)
	}
	if box.any {
		meta.Bounds = &xmlBounds{
			MinLat: gpxDecimal(box.minLat), MinLon: gpxDecimal(box.minLon),
			MaxLat: gpxDecimal(box.maxLat), MaxLon: gpxDecimal(box.maxLon),
		}
	}
	if meta != (xmlMetadata{}) {
		doc.Metadata = &meta
	}

	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	buf.WriteString("\n")
	_, err := w.Write(buf.Bytes())
	return err
}

// gpxWaypoint checks p, widens box to include it and lays it out.
func gpxWaypoint(p Waypoint, box *bounds) (xmlWpt, error) {
	if err := checkCoordinates(p.Lat, p.Lon); err != nil {
		return xmlWpt{}, err
	}
	box.add(p.Lat, p.Lon)
	wpt := xmlWpt{
		Lat:  gpxDecimal(p.Lat),
		Lon:  gpxDecimal(p.Lon),
		Name: p.Name,
		Desc: p.Desc,
		Type: p.Type,
	}
	if p.Time != nil {
		wpt.Time = gpxTime(*p.Time)
	}
	if p.Link != "" {
		if _, err := url.Parse(p.Link); err != nil {
			return xmlWpt{}, fmt.Errorf("link: %w", err)
		}
		wpt.Link = &xmlLink{Href: p.Link}
	}
	return wpt, nil
}

// bounds is the smallest box holding the points added to it.
type bounds struct {
	any                            bool
	minLat, minLon, maxLat, maxLon float64
}

// add widens b to include the point.
func (b *bounds) add(lat, lon float64) {
	if !b.any {
		*b = bounds{any: true, minLat: lat, minLon: lon, maxLat: lat, maxLon: lon}
		return
	}
	b.minLat, b.maxLat = min(b.minLat, lat), max(b.maxLat, lat)
	b.minLon, b.maxLon = min(b.minLon, lon), max(b.maxLon, lon)
}

// checkCoordinates reports coordinates outside latitude −90..90 and
// longitude −180 up to but not including 180, the ranges GPX allows.
func checkCoordinates(lat, lon float64) error {
	if math.IsNaN(lat) || lat < -90 || lat > 90 {
		return fmt.Errorf("latitude %v out of range", lat)
	}
	if math.IsNaN(lon) || lon < -180 || lon >= 180 {
		return fmt.Errorf("longitude %v out of range", lon)
	}
	return nil
}

// gpxDecimal formats v as an xsd:decimal (never with an exponent).
func gpxDecimal(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// gpxTime formats t as an xsd:dateTime in UTC.
func gpxTime(t time.Time) string {
	return t.UTC().Format(time.RFC3339Nano)
}
