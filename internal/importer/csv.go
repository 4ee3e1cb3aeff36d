package importer

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"tripplan/internal/planner"
)

// Header spellings, compared lower-cased with spaces, dashes and underscores removed. The
// Takeout "Saved" lists' CSV has Title, Note and URL (and lately Tags and Comment).
var (
	nameHeaders    = []string{"name", "title", "place", "placename", "이름", "장소", "장소명", "名前", "名称"}
	latHeaders     = []string{"lat", "latitude", "y", "위도"}
	lngHeaders     = []string{"lng", "lon", "long", "longitude", "x", "경도"}
	addressHeaders = []string{"address", "주소", "addr"}
	noteHeaders    = []string{"note", "notes", "description", "comment", "memo", "메모", "설명"}
	urlHeaders     = []string{"url", "link", "googlemapsurl", "mapurl", "링크"}
)

// parseCSV reads a CSV file whose first row names its columns: a name column and either
// latitude and longitude columns or a URL column (a map link holding coordinates, or a place
// to look up by the row's name). Commas, semicolons or tabs separate, whichever the header uses.
func parseCSV(data []byte) ([]planner.ImportRow, error) {
	header, _, _ := bytes.Cut(data, []byte("\n"))
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = delimiter(string(header))
	r.FieldsPerRecord = -1 // Takeout leaves trailing columns off some rows
	r.ReuseRecord = true
	head, err := r.Read()
	if err != nil {
		return nil, csvError(err)
	}
	col := func(names []string) int {
		for i, h := range head {
			h = strings.NewReplacer(" ", "", "_", "", "-", "").Replace(strings.ToLower(strings.TrimSpace(h)))
			for _, n := range names {
				if h == n {
					return i
				}
			}
		}
		return -1
	}
	name, lat, lng, addr, note, link := col(nameHeaders), col(latHeaders), col(lngHeaders), col(addressHeaders), col(noteHeaders), col(urlHeaders)
	if name < 0 || (lat < 0) != (lng < 0) || (lat < 0 && link < 0) {
		e := planner.Errorf(planner.CodeInvalidRequest, "The first row of the CSV file must name a name column and latitude and longitude columns (or a URL column).")
		e.Fields = []planner.FieldError{{Field: "file", Reason: "must have a header row with name and lat/lng columns"}}
		return nil, e
	}
	var rows []planner.ImportRow
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(err)
		}
		cell := func(i int) string {
			if i < 0 || i >= len(rec) {
				return ""
			}
			return rec[i]
		}
		if strings.TrimSpace(strings.Join(rec, "")) == "" {
			continue // Takeout puts an empty row under the header
		}
		row := planner.ImportRow{Name: cell(name), Address: cell(addr), Note: cell(note), URL: cell(link)}
		if lat >= 0 && (strings.TrimSpace(cell(lat)) != "" || strings.TrimSpace(cell(lng)) != "") {
			row.Lat, row.Lng, row.HasPoint = latLng(cell(lat), cell(lng))
			if !row.HasPoint {
				row.Skip = planner.ImportSkipBadPoint
			}
		}
		if appendRow(&rows, row) != nil {
			break
		}
	}
	return rows, nil
}

// delimiter is the separator the header row uses most: comma, semicolon (spreadsheets in
// many European settings) or tab.
func delimiter(header string) rune {
	best, n := ',', strings.Count(header, ",")
	for _, d := range []rune{';', '\t'} {
		if c := strings.Count(header, string(d)); c > n {
			best, n = d, c
		}
	}
	return best
}

func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return invalid(planner.Errorf(planner.CodeInvalidRequest, "The CSV file cannot be read (line %d).", pe.Line))
	}
	return invalid(planner.Errorf(planner.CodeInvalidRequest, "The CSV file cannot be read."))
}

// Coordinates in Google Maps links: "!3d37.57!4d126.97" (a place's own point), "@37.57,126.97"
// (the map's centre), "?q=37.57,126.97", "ll=…", and "/search/37.57,126.97".
var (
	dataPoint  = regexp.MustCompile(`!3d(-?\d+(?:\.\d+)?)!4d(-?\d+(?:\.\d+)?)`)
	pairInPath = regexp.MustCompile(`(?:@|/search/|/place/)(-?\d+(?:\.\d+)?),\s*(-?\d+(?:\.\d+)?)`)
	pairOnly   = regexp.MustCompile(`^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$`)
)

// pointInURL finds the coordinates a map link holds, if any.
func pointInURL(link string) (lat, lng float64, ok bool) {
	u, err := url.Parse(link)
	if err != nil {
		return 0, 0, false
	}
	p := u.EscapedPath()
	if m := dataPoint.FindStringSubmatch(p); m != nil {
		return parsePair(m[1], m[2])
	}
	for _, k := range []string{"q", "query", "ll", "destination"} {
		if m := pairOnly.FindStringSubmatch(u.Query().Get(k)); m != nil {
			return parsePair(m[1], m[2])
		}
	}
	if m := pairInPath.FindStringSubmatch(p); m != nil {
		return parsePair(m[1], m[2])
	}
	return 0, 0, false
}

func parsePair(a, b string) (float64, float64, bool) {
	lat, err1 := strconv.ParseFloat(a, 64)
	lng, err2 := strconv.ParseFloat(b, 64)
	return lat, lng, err1 == nil && err2 == nil
}
