// Package importer reads places from the files people keep them in: GPX, KML (Google My Maps),
// GeoJSON (Google Takeout's "Saved Places.json") and CSV (Takeout's saved lists among them).
// It only reads: each place becomes a planner.ImportRow, a row it cannot use carries why, and a
// file it cannot read at all is a planner.Error naming the field "file". Matching rows to places
// is the store's (postgres.ImportPlaces).
package importer

import (
	"bytes"
	"encoding/xml"
	"math"
	"path"
	"strings"
	"unicode/utf8"

	"tripplan/internal/planner"
)

// The formats, as the report names them.
const (
	GPX     = "GPX"
	KML     = "KML"
	GeoJSON = "GEOJSON"
	CSV     = "CSV"
)

// Parse reads a file's places, the format told by its content (an XML root of gpx or kml, a
// JSON object, otherwise CSV text), its name breaking no ties but giving the error a better
// sentence. Rows are numbered from 1 in file order; at most planner.ImportMaxRows places (else
// PAYLOAD_TOO_LARGE), each name and address trimmed and checked.
func Parse(filename string, data []byte) (string, []planner.ImportRow, error) {
	if len(data) > planner.ImportMaxBytes {
		return "", nil, TooLarge()
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a byte-order mark, as Excel writes
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		if bytes.HasPrefix(data, []byte("PK")) || strings.EqualFold(path.Ext(filename), ".kmz") {
			return "", nil, unsupported(planner.Errorf(planner.CodeUnsupportedMediaType, "This is a zipped file (KMZ or ZIP): unzip it and choose the file inside."))
		}
		return "", nil, unsupported(planner.Errorf(planner.CodeUnsupportedMediaType, "Choose a GPX, KML, GeoJSON or CSV file."))
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return "", nil, invalid(planner.Errorf(planner.CodeInvalidRequest, "The file is empty."))
	}
	var (
		format string
		rows   []planner.ImportRow
		err    error
	)
	switch trimmed[0] {
	case '<':
		switch xmlRoot(trimmed) {
		case "gpx":
			format = GPX
			rows, err = parseGPX(trimmed)
		case "kml":
			format = KML
			rows, err = parseKML(trimmed)
		default:
			return "", nil, unsupported(planner.Errorf(planner.CodeUnsupportedMediaType, "This XML file is neither GPX nor KML."))
		}
	case '{', '[':
		format = GeoJSON
		rows, err = parseGeoJSON(trimmed)
	default:
		format = CSV
		rows, err = parseCSV(trimmed)
	}
	if err != nil {
		return format, nil, err
	}
	if len(rows) == 0 {
		return format, nil, invalid(planner.Errorf(planner.CodeInvalidRequest, "The file has no places."))
	}
	if len(rows) > planner.ImportMaxRows {
		e := planner.Errorf(planner.CodePayloadTooLarge, "The file has more than %d places.", planner.ImportMaxRows)
		e.Fields = []planner.FieldError{{Field: "file", Reason: "must hold at most 500 places"}}
		return format, nil, e
	}
	for i := range rows {
		rows[i].Row = i + 1
		clean(&rows[i])
	}
	return format, rows, nil
}

// clean trims a row's words and checks them: a row without a name, or with a name longer than a
// custom place's, is skipped; a long address or note is cut; a point off the globe (or the
// 0,0 that Takeout writes for a place it has no point for) is no point.
func clean(r *planner.ImportRow) {
	r.Name = oneLine(r.Name)
	r.Address = cut(oneLine(r.Address), planner.ImportAddressMax)
	r.Note = cut(strings.TrimSpace(r.Note), planner.MemoMaxLength)
	r.URL = strings.TrimSpace(r.URL)
	if len(r.URL) > 2048 || !(strings.HasPrefix(r.URL, "https://") || strings.HasPrefix(r.URL, "http://")) {
		r.URL = ""
	}
	if r.HasPoint && r.Lat == 0 && r.Lng == 0 {
		r.HasPoint = false
	}
	if !r.HasPoint && r.URL != "" {
		r.Lat, r.Lng, r.HasPoint = pointInURL(r.URL)
	}
	switch {
	case r.Skip != "":
	case r.Name == "":
		r.Skip = planner.ImportSkipNoName
	case utf8.RuneCountInString(r.Name) > planner.CustomPlaceNameMax:
		r.Skip = planner.ImportSkipNameTooLong
	case r.HasPoint && (math.IsNaN(r.Lat) || math.IsNaN(r.Lng) || math.Abs(r.Lat) > 90 || math.Abs(r.Lng) > 180):
		r.Skip = planner.ImportSkipBadPoint
	}
	if r.HasPoint {
		// The places table keeps six decimals (about 10 cm).
		r.Lat, r.Lng = math.Round(r.Lat*1e6)/1e6, math.Round(r.Lng*1e6)/1e6
	}
}

// oneLine trims the text and folds its runs of white space (new lines too) into single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cut keeps at most n characters of s.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:n]))
}

// xmlRoot is the local name of the document's first element, lower-cased.
func xmlRoot(data []byte) string {
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := d.Token()
		if err != nil {
			return ""
		}
		if se, ok := tok.(xml.StartElement); ok {
			return strings.ToLower(se.Name.Local)
		}
	}
}

// invalid names the file as the field a file the reader could not read is wrong in.
func invalid(e *planner.Error) error {
	e.Fields = []planner.FieldError{{Field: "file", Reason: "cannot be read"}}
	return e
}

func unsupported(e *planner.Error) error {
	e.Fields = []planner.FieldError{{Field: "file", Reason: "must be a GPX, KML, GeoJSON or CSV file"}}
	return e
}

// TooLarge is the error for a file over planner.ImportMaxBytes.
func TooLarge() error {
	e := planner.Errorf(planner.CodePayloadTooLarge, "The file is larger than 2 MB.")
	e.Fields = []planner.FieldError{{Field: "file", Reason: "must be at most 2 MB"}}
	return e
}
