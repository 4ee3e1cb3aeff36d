package importer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"tripplan/internal/planner"
)

// row is the part of an ImportRow a test states.
type row struct {
	Name, Address, Note string
	Point               bool
	Lat, Lng            float64
	Skip                planner.ImportOutcome
}

func rowsOf(in []planner.ImportRow) []row {
	out := make([]row, len(in))
	for i, r := range in {
		out[i] = row{Name: r.Name, Address: r.Address, Note: r.Note, Point: r.HasPoint, Lat: r.Lat, Lng: r.Lng, Skip: r.Skip}
	}
	return out
}

func TestParseFiles(t *testing.T) {
	for _, tc := range []struct {
		file   string
		format string
		want   []row
	}{
		{"takeout_saved_places.json", GeoJSON, []row{
			{Name: "Gyeongbokgung Palace", Address: "161 Sajik-ro, Jongno District, Seoul, South Korea", Point: true, Lat: 37.579617, Lng: 126.976944},
			// [0, 0] is no point; the link has one.
			{Name: "N Seoul Tower", Point: true, Lat: 37.5512, Lng: 126.9882},
			// Neither a point nor a name: nothing to go on.
			{Note: "No location reference is available for this saved place", Skip: planner.ImportSkipNoName},
			// The older export's spelling.
			{Name: "Gwangjang Market", Address: "88 Changgyeonggung-ro, Jongno-gu, Seoul", Point: true, Lat: 37.5707, Lng: 127.0017},
		}},
		{"my_maps.kml", KML, []row{
			{Name: "Bukchon Hanok Village", Note: "Go early\nbefore the crowds & tours", Point: true, Lat: 37.5826, Lng: 126.985},
			{Name: "Walk along Cheonggyecheon", Skip: planner.ImportSkipNotAPoint},
			{Name: "Tosokchon Samgyetang", Address: "5 Jahamun-ro 5-gil, Jongno-gu, Seoul", Point: true, Lat: 37.5778, Lng: 126.9715},
		}},
		{"waypoints.gpx", GPX, []row{
			{Name: "Gyeongbokgung Palace", Note: "Changing of the guard at 10:00", Point: true, Lat: 37.5796, Lng: 126.977},
			{Name: "Seoul City Hall", Point: true, Lat: 37.5665, Lng: 126.978},
			{Point: true, Lat: 37.5, Lng: 127, Skip: planner.ImportSkipNoName},
			// Named route points are read; unnamed ones and track points are not.
			{Name: "Insadong", Point: true, Lat: 37.57, Lng: 126.98},
		}},
		{"takeout_saved.csv", CSV, []row{
			{Name: "Gyeongbokgung Palace", Note: "Go on a Tuesday", Point: true, Lat: 37.5796, Lng: 126.977},
			// No coordinates in the link: the store looks the name up.
			{Name: "Myeongdong Kyoja"},
			{Name: "Cafe Onion, Anguk", Point: true, Lat: 37.5776, Lng: 126.9866},
		}},
		{"places_latitude.csv", CSV, []row{
			{Name: "Seoul Forest", Address: "273 Ttukseom-ro, Seongdong-gu", Note: "Picnic", Point: true, Lat: 37.5444, Lng: 127.0374},
			{Name: "Bad point", Point: true, Lat: 91.5, Lng: 127, Skip: planner.ImportSkipBadPoint},
			{Name: "No number", Skip: planner.ImportSkipBadPoint},
			{Note: "no name", Point: true, Lat: 37.5, Lng: 127, Skip: planner.ImportSkipNoName},
		}},
		{"semicolon_lat_lng.csv", CSV, []row{{Name: "N Seoul Tower", Point: true, Lat: 37.5512, Lng: 126.9882}}},
		{"korean_tabs.tsv", CSV, []row{{Name: "광장시장", Note: "빈대떡", Point: true, Lat: 37.5707, Lng: 127.0017}}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			format, rows, err := Parse(tc.file, data)
			if err != nil {
				t.Fatal(err)
			}
			if format != tc.format {
				t.Errorf("format %s, want %s", format, tc.format)
			}
			if diff := cmp.Diff(tc.want, rowsOf(rows)); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			for i, r := range rows {
				if r.Row != i+1 {
					t.Errorf("row %d numbered %d", i+1, r.Row)
				}
			}
		})
	}
}

func TestParseRejects(t *testing.T) {
	many := func(n int) []byte {
		var b strings.Builder
		b.WriteString("name,lat,lng\n")
		for i := range n {
			fmt.Fprintf(&b, "Place %d,37.5,127.%d\n", i, i)
		}
		return []byte(b.String())
	}
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	for _, tc := range []struct {
		name string
		data []byte
		code planner.Code
	}{
		{"empty.csv", []byte("  \n"), planner.CodeInvalidRequest},
		{"header only.csv", []byte("name,lat,lng\n"), planner.CodeInvalidRequest},
		{"no_point_columns.csv", read("no_point_columns.csv"), planner.CodeInvalidRequest},
		{"broken_quote.csv", read("broken_quote.csv"), planner.CodeInvalidRequest},
		{"broken.gpx", read("broken.gpx"), planner.CodeInvalidRequest},
		{"not_a_collection.geojson", read("not_a_collection.geojson"), planner.CodeInvalidRequest},
		{"rss.xml", read("rss.xml"), planner.CodeUnsupportedMediaType},
		{"places.kmz", []byte("PK\x03\x04\x00\x00"), planner.CodeUnsupportedMediaType},
		{"latin1.csv", []byte("name,lat,lng\nCaf\xe9,1,2\n"), planner.CodeUnsupportedMediaType},
		{"501 rows.csv", many(planner.ImportMaxRows + 1), planner.CodePayloadTooLarge},
		{"too big.csv", append([]byte("name,lat,lng\n"), make([]byte, planner.ImportMaxBytes)...), planner.CodePayloadTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Parse(tc.name, tc.data)
			if got := planner.ErrorCode(err); got != tc.code {
				t.Fatalf("code %q (%v), want %s", got, err, tc.code)
			}
			var pe *planner.Error
			if e, ok := err.(*planner.Error); ok {
				pe = e
			}
			if pe == nil || len(pe.Fields) != 1 || pe.Fields[0].Field != "file" {
				t.Errorf("want one field error naming the file, got %+v", pe)
			}
		})
	}
	if _, rows, err := Parse("500.csv", many(planner.ImportMaxRows)); err != nil || len(rows) != planner.ImportMaxRows {
		t.Errorf("500 rows: %d rows, %v", len(rows), err)
	}
}

func TestParseLimitsWords(t *testing.T) {
	long := strings.Repeat("가", planner.CustomPlaceNameMax+1)
	data := fmt.Sprintf("name,lat,lng,address,note\n%s,37.5,127,,\nFine,37.5,127,%s,%s\n", long, strings.Repeat("a", 300), strings.Repeat("b", 400))
	_, rows, err := Parse("x.csv", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Skip != planner.ImportSkipNameTooLong {
		t.Errorf("a name of %d characters: skip %q", planner.CustomPlaceNameMax+1, rows[0].Skip)
	}
	if len(rows[1].Address) != planner.ImportAddressMax || len(rows[1].Note) != planner.MemoMaxLength || rows[1].Skip != "" {
		t.Errorf("long address and note are cut: %d, %d, %q", len(rows[1].Address), len(rows[1].Note), rows[1].Skip)
	}
}

func TestPointInURL(t *testing.T) {
	for _, tc := range []struct {
		url      string
		lat, lng float64
		ok       bool
	}{
		{"https://www.google.com/maps/place/X/@37.1,127.2,17z/data=!3m1!4b1!4m6!3m5!1s0x0:0x0!8m2!3d37.5!4d126.9", 37.5, 126.9, true},
		{"https://www.google.com/maps/@-33.86,151.21,15z", -33.86, 151.21, true},
		{"https://maps.google.com/?q=35.1,129.04", 35.1, 129.04, true},
		{"https://maps.google.com/?q=Busan+Tower", 0, 0, false},
		{"http://maps.google.com/?cid=123", 0, 0, false},
	} {
		lat, lng, ok := pointInURL(tc.url)
		if ok != tc.ok || lat != tc.lat || lng != tc.lng {
			t.Errorf("%s: %v,%v %v", tc.url, lat, lng, ok)
		}
	}
}
