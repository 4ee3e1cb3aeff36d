package export

import (
	"bytes"
	"encoding/xml"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"tripplan/internal/export/gpxschema"
)

// The gpxDoc types read a GPX document back independently of the writer's
// own types; pointers tell a missing element from an empty one.
type gpxDoc struct {
	XMLName        xml.Name     `xml:"http://www.topografix.com/GPX/1/1 gpx"`
	Version        string       `xml:"version,attr"`
	Creator        string       `xml:"creator,attr"`
	SchemaLocation string       `xml:"http://www.w3.org/2001/XMLSchema-instance schemaLocation,attr"`
	Metadata       *gpxDocMeta  `xml:"http://www.topografix.com/GPX/1/1 metadata"`
	Waypoints      []gpxDocWpt  `xml:"http://www.topografix.com/GPX/1/1 wpt"`
	Routes         []gpxDocRte  `xml:"http://www.topografix.com/GPX/1/1 rte"`
	Tracks         []xml.Name   `xml:"http://www.topografix.com/GPX/1/1 trk"`
	Extra          []gpxAnyElem `xml:",any"`
}

type gpxDocMeta struct {
	Name   *string `xml:"http://www.topografix.com/GPX/1/1 name"`
	Desc   *string `xml:"http://www.topografix.com/GPX/1/1 desc"`
	Time   *string `xml:"http://www.topografix.com/GPX/1/1 time"`
	Bounds *struct {
		MinLat float64 `xml:"minlat,attr"`
		MinLon float64 `xml:"minlon,attr"`
		MaxLat float64 `xml:"maxlat,attr"`
		MaxLon float64 `xml:"maxlon,attr"`
	} `xml:"http://www.topografix.com/GPX/1/1 bounds"`
}

type gpxDocWpt struct {
	Lat  string  `xml:"lat,attr"`
	Lon  string  `xml:"lon,attr"`
	Time *string `xml:"http://www.topografix.com/GPX/1/1 time"`
	Name *string `xml:"http://www.topografix.com/GPX/1/1 name"`
	Desc *string `xml:"http://www.topografix.com/GPX/1/1 desc"`
	Link *struct {
		Href string `xml:"href,attr"`
	} `xml:"http://www.topografix.com/GPX/1/1 link"`
	Type  *string      `xml:"http://www.topografix.com/GPX/1/1 type"`
	Extra []gpxAnyElem `xml:",any"`
}

type gpxDocRte struct {
	Name   *string      `xml:"http://www.topografix.com/GPX/1/1 name"`
	Desc   *string      `xml:"http://www.topografix.com/GPX/1/1 desc"`
	Number *int         `xml:"http://www.topografix.com/GPX/1/1 number"`
	Points []gpxDocWpt  `xml:"http://www.topografix.com/GPX/1/1 rtept"`
	Extra  []gpxAnyElem `xml:",any"`
}

type gpxAnyElem struct {
	XMLName xml.Name
}

func sampleGPX() GPX {
	at := time.Date(2026, 5, 1, 9, 30, 0, 0, time.FixedZone("KST", 9*3600))
	later := at.Add(90 * time.Minute)
	return GPX{
		Name:    "Seoul & Tokyo <spring>",
		Desc:    "Two cities,\nfive days",
		Creator: "Tripplan",
		Time:    time.Date(2026, 4, 20, 12, 0, 0, 0, time.UTC),
		Waypoints: []Waypoint{
			{Lat: 37.579617, Lon: 126.977041, Name: "경복궁 (Gyeongbokgung)", Desc: `"Palace" & 'gardens' <closed Tue>`, Type: "sight", Time: &at, Link: "https://example.com/places/1?a=1&b=2"},
			{Lat: 35.681236, Lon: 139.767125},
			{Lat: -90, Lon: -180, Name: "Edge"},
		},
		Routes: []Route{
			{Name: "Day 1", Desc: "Palace, then market", Number: 1, Points: []Waypoint{
				{Lat: 37.579617, Lon: 126.977041, Name: "경복궁", Time: &at},
				{Lat: 37.570028, Lon: 126.999669, Name: "광장시장", Time: &later, Type: "food"},
			}},
			{Name: "Unnumbered"},
		},
	}
}

func writeGPX(t *testing.T, g GPX) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteGPX(&buf, g); err != nil {
		t.Fatalf("WriteGPX: %v", err)
	}
	return buf.Bytes()
}

func TestWriteGPXRoundTrip(t *testing.T) {
	g := sampleGPX()
	out := writeGPX(t, g)
	const header = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<gpx version="1.1" creator="Tripplan" xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">`
	if !bytes.HasPrefix(out, []byte(header)) {
		t.Errorf("document starts\n%s", out[:min(len(out), len(header))])
	}

	var doc gpxDoc
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("decoding: %v\n%s", err, out)
	}
	if doc.Version != "1.1" || doc.Creator != "Tripplan" || doc.SchemaLocation != gpxSchemaLocation {
		t.Errorf("root attributes %q %q %q", doc.Version, doc.Creator, doc.SchemaLocation)
	}
	if len(doc.Extra) > 0 || len(doc.Tracks) > 0 {
		t.Errorf("unexpected elements %v %v", doc.Extra, doc.Tracks)
	}
	m := doc.Metadata
	if m == nil {
		t.Fatal("no metadata")
	}
	checkText(t, "metadata name", m.Name, g.Name)
	checkText(t, "metadata desc", m.Desc, g.Desc)
	checkText(t, "metadata time", m.Time, "2026-04-20T12:00:00Z")
	type bounds struct{ MinLat, MinLon, MaxLat, MaxLon float64 }
	if b := m.Bounds; b == nil {
		t.Errorf("no bounds")
	} else if diff := cmp.Diff(bounds{MinLat: -90, MinLon: -180, MaxLat: 37.579617, MaxLon: 139.767125}, bounds{b.MinLat, b.MinLon, b.MaxLat, b.MaxLon}); diff != "" {
		t.Errorf("bounds (-want +got):\n%s", diff)
	}

	if len(doc.Waypoints) != len(g.Waypoints) {
		t.Fatalf("%d waypoints", len(doc.Waypoints))
	}
	for i, w := range doc.Waypoints {
		checkWaypoint(t, "waypoint "+strconv.Itoa(i), w, g.Waypoints[i])
	}
	if len(doc.Routes) != len(g.Routes) {
		t.Fatalf("%d routes", len(doc.Routes))
	}
	for i, r := range doc.Routes {
		want := g.Routes[i]
		name := "route " + strconv.Itoa(i)
		checkText(t, name+" name", r.Name, want.Name)
		checkText(t, name+" desc", r.Desc, want.Desc)
		if want.Number == 0 && r.Number != nil || want.Number != 0 && (r.Number == nil || *r.Number != want.Number) {
			t.Errorf("%s number %v, want %d", name, r.Number, want.Number)
		}
		if len(r.Extra) > 0 {
			t.Errorf("%s: unexpected elements %v", name, r.Extra)
		}
		if len(r.Points) != len(want.Points) {
			t.Fatalf("%s: %d points", name, len(r.Points))
		}
		for j, p := range r.Points {
			checkWaypoint(t, name+" point "+strconv.Itoa(j), p, want.Points[j])
		}
	}
}

// checkText checks an optional element: absent when want is empty.
func checkText(t *testing.T, what string, got *string, want string) {
	t.Helper()
	switch {
	case want == "" && got != nil:
		t.Errorf("%s: empty element written: %q", what, *got)
	case want != "" && got == nil:
		t.Errorf("%s: missing, want %q", what, want)
	case want != "" && *got != want:
		t.Errorf("%s = %q, want %q", what, *got, want)
	}
}

func checkWaypoint(t *testing.T, what string, got gpxDocWpt, want Waypoint) {
	t.Helper()
	if lat, err := strconv.ParseFloat(got.Lat, 64); err != nil || lat != want.Lat {
		t.Errorf("%s lat %q", what, got.Lat)
	}
	if lon, err := strconv.ParseFloat(got.Lon, 64); err != nil || lon != want.Lon {
		t.Errorf("%s lon %q", what, got.Lon)
	}
	checkText(t, what+" name", got.Name, want.Name)
	checkText(t, what+" desc", got.Desc, want.Desc)
	checkText(t, what+" type", got.Type, want.Type)
	var wantTime string
	if want.Time != nil {
		wantTime = want.Time.UTC().Format(time.RFC3339)
	}
	checkText(t, what+" time", got.Time, wantTime)
	switch {
	case want.Link == "" && got.Link != nil:
		t.Errorf("%s: link written: %+v", what, got.Link)
	case want.Link != "" && (got.Link == nil || got.Link.Href != want.Link):
		t.Errorf("%s: link %+v, want %q", what, got.Link, want.Link)
	}
	if len(got.Extra) > 0 {
		t.Errorf("%s: unexpected elements %v", what, got.Extra)
	}
}

func TestWriteGPXWithoutPoints(t *testing.T) {
	out := writeGPX(t, GPX{Creator: "Tripplan"})
	var doc gpxDoc
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Metadata != nil || len(doc.Waypoints) != 0 || len(doc.Routes) != 0 {
		t.Errorf("empty document holds elements:\n%s", out)
	}
}

func TestWriteGPXRefusesInvalidInput(t *testing.T) {
	tests := []struct {
		name   string
		change func(*GPX)
	}{
		{"latitude above 90", func(g *GPX) { g.Waypoints[0].Lat = 90.000001 }},
		{"latitude below -90", func(g *GPX) { g.Waypoints[0].Lat = -91 }},
		{"longitude 180", func(g *GPX) { g.Waypoints[0].Lon = 180 }},
		{"longitude below -180", func(g *GPX) { g.Waypoints[0].Lon = -180.5 }},
		{"latitude NaN", func(g *GPX) { g.Waypoints[0].Lat = math.NaN() }},
		{"longitude infinite", func(g *GPX) { g.Waypoints[0].Lon = math.Inf(1) }},
		{"route point out of range", func(g *GPX) { g.Routes[0].Points[1].Lat = 100 }},
		{"negative route number", func(g *GPX) { g.Routes[0].Number = -1 }},
		{"invalid link", func(g *GPX) { g.Waypoints[0].Link = "http://[::1" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := sampleGPX()
			tt.change(&g)
			var buf bytes.Buffer
			if err := WriteGPX(&buf, g); err == nil {
				t.Fatalf("no error; wrote\n%s", buf.String())
			}
			if buf.Len() != 0 {
				t.Errorf("wrote %d bytes before refusing", buf.Len())
			}
		})
	}
}

func TestWriteGPXReportsWriteErrors(t *testing.T) {
	if err := WriteGPX(failingWriter{}, sampleGPX()); err == nil || err.Error() != "disk full" {
		t.Errorf("error %v", err)
	}
}

func TestWriteGPXMatchesSchema(t *testing.T) {
	one := sampleGPX()
	one.Routes = one.Routes[:1]
	for name, g := range map[string]GPX{
		"sample":           sampleGPX(),
		"empty":            {Creator: "Tripplan"},
		"routes only":      {Creator: "Tripplan", Routes: one.Routes},
		"waypoints only":   {Creator: "Tripplan", Name: "W", Waypoints: one.Waypoints},
		"no creator given": {Waypoints: []Waypoint{{Lat: 0, Lon: 0}}},
	} {
		t.Run(name, func(t *testing.T) {
			if err := gpxschema.Validate(t, writeGPX(t, g)); err != nil {
				t.Errorf("invalid GPX:\n%s\n%s", err, writeGPX(t, g))
			}
		})
	}
}

// schemaProbe is a valid GPX 1.1 document using every type of the schema;
// the cases of TestGPXSchemaRejects each break it in one place.
const schemaProbe = `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="hand" xmlns="http://www.topografix.com/GPX/1/1" xmlns:x="urn:example">
  <metadata>
    <name>Probe</name>
    <author><name>A</name><email id="a" domain="example.com"/><link href="https://example.com"><text>site</text><type>text/html</type></link></author>
    <copyright author="A"><year>2026</year><license>https://example.com/license</license></copyright>
    <link href="https://example.com/1"/>
    <time>2026-05-01T00:00:00Z</time>
    <keywords>k</keywords>
    <bounds minlat="-1" minlon="-2" maxlat="1" maxlon="2"/>
    <extensions><x:any/></extensions>
  </metadata>
  <wpt lat="1" lon="2">
    <ele>10.5</ele><time>2026-05-01T00:00:00Z</time><magvar>359.9</magvar><geoidheight>1</geoidheight>
    <name>N</name><cmt>C</cmt><desc>D</desc><src>S</src><link href="https://example.com/2"/><sym>Flag</sym><type>T</type>
    <fix>dgps</fix><sat>4</sat><hdop>1</hdop><vdop>1</vdop><pdop>1</pdop><ageofdgpsdata>2</ageofdgpsdata><dgpsid>1023</dgpsid>
    <extensions><x:any/></extensions>
  </wpt>
  <rte>
    <name>R</name><number>1</number><type>walk</type>
    <rtept lat="-1" lon="-2"/>
  </rte>
  <trk>
    <name>T</name><number>2</number>
    <trkseg><trkpt lat="0.5" lon="179.999999"><time>2026-05-01T01:00:00Z</time></trkpt><extensions/></trkseg>
  </trk>
  <extensions><x:any/></extensions>
</gpx>
`

func TestGPXSchemaRejects(t *testing.T) {
	if err := gpxschema.Validate(t, []byte(schemaProbe)); err != nil {
		t.Fatalf("the probe document is valid GPX 1.1, but:\n%s", err)
	}
	for _, tt := range []struct {
		name, old, new string
	}{
		{"latitude 91", `<wpt lat="1"`, `<wpt lat="91"`},
		{"longitude 180", `lon="179.999999"`, `lon="180"`},
		{"time after name in a waypoint", `<time>2026-05-01T00:00:00Z</time><magvar>359.9</magvar><geoidheight>1</geoidheight>
    <name>N</name>`, `<magvar>359.9</magvar><geoidheight>1</geoidheight>
    <name>N</name><time>2026-05-01T00:00:00Z</time>`},
		{"number after the route's points", `<number>1</number><type>walk</type>
    <rtept lat="-1" lon="-2"/>`, `<type>walk</type>
    <rtept lat="-1" lon="-2"/><number>1</number>`},
		{"waypoint after a route", `  <rte>`, `  <rte><name>R0</name></rte><wpt lat="0" lon="0"/>
  <rte>`},
		{"metadata time before link", `<link href="https://example.com/1"/>
    <time>2026-05-01T00:00:00Z</time>`, `<time>2026-05-01T00:00:00Z</time>
    <link href="https://example.com/1"/>`},
		{"no creator", ` creator="hand"`, ``},
		{"version 1.0", `version="1.1"`, `version="1.0"`},
		{"unknown fix", `<fix>dgps</fix>`, `<fix>4d</fix>`},
		{"dgps station 1024", `<dgpsid>1023</dgpsid>`, `<dgpsid>1024</dgpsid>`},
		{"magnetic variation 360", `<magvar>359.9</magvar>`, `<magvar>360</magvar>`},
		{"link without href", `<link href="https://example.com/2"/>`, `<link/>`},
		{"time without a date", `<time>2026-05-01T01:00:00Z</time>`, `<time>01:00:00</time>`},
		{"GPX element in extensions", `<extensions><x:any/></extensions>
  </metadata>`, `<extensions><name>N</name></extensions>
  </metadata>`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(schemaProbe, tt.old) {
				t.Fatalf("the probe has no %q", tt.old)
			}
			if err := gpxschema.Validate(t, []byte(strings.Replace(schemaProbe, tt.old, tt.new, 1))); err == nil {
				t.Error("the schema check accepted it")
			}
		})
	}
}
