package importer

import (
	"bytes"
	"encoding/xml"
	"errors"
	"html"
	"io"
	"strconv"
	"strings"

	"tripplan/internal/planner"
)

// gpxPoint is a GPX 1.0/1.1 waypoint or route point (element names are matched without their
// namespace, so both versions read alike).
type gpxPoint struct {
	Lat  string `xml:"lat,attr"`
	Lon  string `xml:"lon,attr"`
	Name string `xml:"name"`
	Desc string `xml:"desc"`
	Cmt  string `xml:"cmt"`
	Link struct {
		Href string `xml:"href,attr"`
	} `xml:"link"`
}

// parseGPX reads a GPX file's waypoints (wpt) and its named route points (rtept). Track points
// (trkpt) are not read: a track is a recorded line of hundreds of points, not places; a route
// point without a name is a turn, not a place, and is left out too.
func parseGPX(data []byte) ([]planner.ImportRow, error) {
	var rows []planner.ImportRow
	err := eachElement(data, func(d *xml.Decoder, se xml.StartElement) error {
		if se.Name.Local != "wpt" && se.Name.Local != "rtept" {
			return nil
		}
		var p gpxPoint
		if err := d.DecodeElement(&p, &se); err != nil {
			return err
		}
		if se.Name.Local == "rtept" && strings.TrimSpace(p.Name) == "" {
			return nil
		}
		r := planner.ImportRow{Name: p.Name, Note: strings.TrimSpace(p.Desc + "\n" + p.Cmt), URL: p.Link.Href}
		r.Lat, r.Lng, r.HasPoint = latLng(p.Lat, p.Lon)
		if !r.HasPoint {
			r.Skip = planner.ImportSkipBadPoint
		}
		return appendRow(&rows, r)
	})
	return rows, err
}

// kmlPlacemark is a KML Placemark as Google My Maps and Google Earth write them: a name, a
// description (often HTML), an address, and a Point's "lon,lat[,alt]" coordinates.
type kmlPlacemark struct {
	Name        string `xml:"name"`
	Description string `xml:"description"`
	Address     string `xml:"address"`
	Point       *struct {
		Coordinates string `xml:"coordinates"`
	} `xml:"Point"`
	// A placemark drawing a line or an area (LineString, Polygon, MultiGeometry) has no Point.
}

// parseKML reads a KML file's Placemarks, wherever their Folders nest them. One without a Point
// is a line or an area, skipped as NOT_A_POINT.
func parseKML(data []byte) ([]planner.ImportRow, error) {
	var rows []planner.ImportRow
	err := eachElement(data, func(d *xml.Decoder, se xml.StartElement) error {
		if se.Name.Local != "Placemark" {
			return nil
		}
		var p kmlPlacemark
		if err := d.DecodeElement(&p, &se); err != nil {
			return err
		}
		r := planner.ImportRow{Name: p.Name, Address: p.Address, Note: plainText(p.Description)}
		switch {
		case p.Point == nil:
			r.Skip = planner.ImportSkipNotAPoint
		default:
			parts := strings.Split(strings.TrimSpace(p.Point.Coordinates), ",")
			if len(parts) >= 2 {
				r.Lat, r.Lng, r.HasPoint = latLng(parts[1], parts[0])
			}
			if !r.HasPoint {
				r.Skip = planner.ImportSkipBadPoint
			}
		}
		return appendRow(&rows, r)
	})
	return rows, err
}

// errTooMany stops reading a file once it has more places than an import takes.
var errTooMany = errors.New("too many places")

// appendRow adds a row, stopping a file with more than one row past the limit (Parse then
// answers PAYLOAD_TOO_LARGE) rather than reading all of it.
func appendRow(rows *[]planner.ImportRow, r planner.ImportRow) error {
	*rows = append(*rows, r)
	if len(*rows) > planner.ImportMaxRows {
		return errTooMany
	}
	return nil
}

// eachElement calls f with every start element of the document, in order; f may decode the
// element (consuming it) or leave it for its children to be visited.
func eachElement(data []byte, f func(*xml.Decoder, xml.StartElement) error) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return xmlError(err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if err := f(d, se); errors.Is(err, errTooMany) {
				return nil
			} else if err != nil {
				return xmlError(err)
			}
		}
	}
}

func xmlError(err error) error {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return invalid(planner.Errorf(planner.CodeInvalidRequest, "The file is not well-formed XML (line %d).", se.Line))
	}
	return invalid(planner.Errorf(planner.CodeInvalidRequest, "The file is not well-formed XML."))
}

// latLng reads decimal degrees.
func latLng(lat, lng string) (float64, float64, bool) {
	y, err1 := strconv.ParseFloat(strings.TrimSpace(lat), 64)
	x, err2 := strconv.ParseFloat(strings.TrimSpace(lng), 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return y, x, true
}

// plainText is a description without its HTML: My Maps writes line breaks as <br>.
func plainText(s string) string {
	s = strings.NewReplacer("<br>", "\n", "<br/>", "\n", "<br />", "\n").Replace(s)
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>' && in:
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(html.UnescapeString(b.String()))
}
