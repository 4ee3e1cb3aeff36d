package places

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"tripplan/internal/planner"
)

// nominatimServer checks each request the way a Nominatim server would receive it under
// prefix and answers with the recorded jsonv2 response.
func nominatimServer(t *testing.T, prefix, query, userAgent string, response []byte) *httptest.Server {
	return fakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		bad := func(format string, args ...any) {
			t.Errorf(format, args...)
			http.Error(w, `{"error":{"code":400,"message":"test: bad request"}}`, 400)
		}
		if r.Method != http.MethodGet || r.URL.Path != prefix+"/search" || r.ContentLength > 0 {
			bad("request %s %s, want GET %s/search without a body", r.Method, r.URL.Path, prefix)
			return
		}
		want := url.Values{"q": {query}, "format": {"jsonv2"}, "limit": {"10"}, "addressdetails": {"1"},
			"namedetails": {"1"}, "accept-language": {"en"}}
		if got := r.URL.Query(); !reflect.DeepEqual(got, want) {
			bad("query %v, want %v", got, want)
			return
		}
		// The usage policy blocks requests without an identifying User-Agent.
		if got := r.Header.Get("User-Agent"); got != userAgent {
			w.WriteHeader(http.StatusForbidden)
			t.Errorf("User-Agent %q, want %q", got, userAgent)
			return
		}
		answer(200, string(response))(w, r)
	})
}

func TestNominatimSearch(t *testing.T) {
	srv := nominatimServer(t, "/nominatim", "Eiffel Tower", "Tripplan/1.0", readFixture(t, "nominatim_eiffel_tower.json"))
	n := &Nominatim{BaseURL: srv.URL + "/nominatim/"}
	got, err := n.Search(context.Background(), "Eiffel Tower")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 {
		t.Fatalf("%d places, want 5: %+v", len(got), got)
	}
	want := planner.Place{
		Provider: "OSM", ProviderPlaceID: "W5013364",
		// The English name, then the local one and the translations Tripplan's users read.
		Name: "Eiffel Tower", Names: []string{"Tour Eiffel", "에펠탑", "エッフェル塔", "埃菲尔铁塔", "Eiffelturm"},
		Address: "Eiffel Tower, 5, Avenue Anatole France, Quartier du Gros-Caillou, Paris 7e Arrondissement, Paris, " +
			"Ile-de-France, Metropolitan France, 75007, France",
		City:           "Paris",
		CategoryLevel1: "300000", CategoryLevel2: "301000", CategoryLevel3: "301001",
		PrimaryType: "man_made:tower", PrimaryTypeName: "Tower",
		MapsURI: "https://www.openstreetmap.org/way/5013364", Photos: []string{},
		Latitude: "48.858260", Longitude: "2.294501",
	}
	if !reflect.DeepEqual(got[0], want) {
		t.Errorf("first place\n got %+v\nwant %+v", got[0], want)
	}
	for i, w := range []struct {
		id, name, city, leaf, primaryType, typeName, maps, lat, lng string
		names                                                       []string
	}{
		{"N243496029", "Champ de Mars - Tour Eiffel", "Paris", "903001", "railway:station", "Station",
			"https://www.openstreetmap.org/node/243496029", "48.855932", "2.289372", []string{}},
		// A relation; the city comes from "town".
		{"R7463578", "Paris Las Vegas", "Paradise", "401001", "tourism:hotel", "Hotel",
			"https://www.openstreetmap.org/relation/7463578", "36.112425", "-115.171331", []string{"패리스 라스베이거스"}},
		// The city comes from "village".
		{"N2638389395", "Eiffel Tower", "Paris", "301001", "tourism:attraction", "Attraction",
			"https://www.openstreetmap.org/node/2638389395", "36.288167", "-88.313109", []string{}},
		// A tag Tripplan does not map: General › Other › Other, the tag kept as the type.
		{"N3220178512", "Tour Eiffel", "Paris", OtherLeaf, "highway:bus_stop", "Bus stop",
			"https://www.openstreetmap.org/node/3220178512", "48.857407", "2.292031", []string{}},
	} {
		p := got[i+1]
		if diff := cmp.Diff(osmShape{Provider: "OSM", ProviderPlaceID: w.id, Name: w.name, City: w.city, Leaf: w.leaf, PrimaryType: w.primaryType,
			TypeName: w.typeName, Maps: w.maps, Lat: w.lat, Lng: w.lng, Names: w.names}, osmShapeOf(p)); diff != "" {
			t.Errorf("place %d (-want +got):\n%s", i+1, diff)
		}
	}
	if got[4].CategoryLevel1 != "900000" || got[4].CategoryLevel2 != "905000" {
		t.Errorf("unknown tag in %s › %s, want General › Other", got[4].CategoryLevel1, got[4].CategoryLevel2)
	}
}

func TestNominatimUserAgent(t *testing.T) {
	ua := "Tripplan/1.0 (ops@example.org)"
	srv := nominatimServer(t, "", "Namsan", ua, []byte("[]"))
	got, err := (&Nominatim{BaseURL: srv.URL, UserAgent: ua}).Search(context.Background(), "Namsan")
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("%#v, %v; want an empty list", got, err)
	}
}

func TestNominatimOddResults(t *testing.T) {
	srv := fakeServer(t, answer(200, `[
		{"place_id":1,"lat":"40.7","lon":"-74.0","category":"place","type":"postcode","display_name":"10001, New York, United States"},
		{"place_id":2,"osm_type":"node","osm_id":42,"lat":"north","lon":"2.3","category":"amenity","type":"cafe",
		 "name":"","display_name":"Café de Flore, 172, Boulevard Saint-Germain, Paris, France","address":null,"namedetails":null},
		{"place_id":3,"osm_type":"way","osm_id":43,"lat":"95.0","lon":"2.3","category":"amenity","type":"place_of_worship",
		 "name":"Bulguksa","display_name":"Bulguksa, Gyeongju, South Korea",
		 "namedetails":{"name":"불국사","name:en":"Bulguksa","name:ko":"불국사","name:ja":"仏国寺","name:ko-Latn":"Bulguksa"}}]`))
	got, err := (&Nominatim{BaseURL: srv.URL}).Search(context.Background(), "x")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d places, want 2 (a result without an OSM element has no stable id): %+v", len(got), got)
	}
	// No name anywhere but the display name; bad coordinates are unknown ones.
	if diff := cmp.Diff(osmShape{Name: "Café de Flore", ProviderPlaceID: "N42", Leaf: "201001"}, osmShapeOf(got[0]),
		cmpopts.IgnoreFields(osmShape{}, "Provider", "PrimaryType", "TypeName", "Maps"), cmpopts.EquateEmpty()); diff != "" { // no names: nil or empty
		t.Errorf("cafe (-want +got):\n%s", diff)
	}
	// Religion is not in the result: a place of worship lands on the religious-site group.
	if p := got[1]; p.CategoryLevel2 != "305000" || p.Latitude != "" ||
		!reflect.DeepEqual(p.Names, []string{"불국사", "仏国寺"}) {
		t.Errorf("temple: %+v", p)
	}
}

func TestNominatimErrorStatus(t *testing.T) {
	for _, c := range []struct {
		status     int
		body, want string
	}{
		{400, `{"error":{"code":400,"message":"Parameter 'limit' must be a number."}}`,
			"nominatim: HTTP 400 Bad Request: Parameter 'limit' must be a number."},
		{429, `{"error":"Too many requests"}`, "HTTP 429 Too Many Requests: Too many requests"},
		{403, `<html><head><title>Access blocked</title></head><body><h1>Access blocked</h1></body></html>`,
			"nominatim: HTTP 403 Forbidden"},
	} {
		srv := fakeServer(t, answer(c.status, c.body))
		_, err := (&Nominatim{BaseURL: srv.URL}).Search(context.Background(), "Eiffel Tower")
		var he *HTTPError
		if !errors.As(err, &he) || he.Status != c.status || !strings.Contains(err.Error(), c.want) {
			t.Errorf("status %d: error %v, want an HTTPError containing %q", c.status, err, c.want)
		}
	}
}

func TestNominatimTimeout(t *testing.T) {
	srv := fakeServer(t, hang)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	// The server answers nothing until the client gives up: the deadline is what ends it.
	_, err := (&Nominatim{BaseURL: srv.URL}).Search(ctx, "Eiffel Tower")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want the context's deadline", err)
	}
}

func TestNominatimBadBodies(t *testing.T) {
	for name, body := range map[string]string{
		"over 2 MB":     `[` + strings.Repeat(" ", maxBody) + `]`,
		"truncated":     `[{"place_id":88066702,"osm_type":"way","osm_id":50`,
		"object":        `{"error":"Unable to geocode"}`,
		"string osm_id": `[{"osm_type":"way","osm_id":"5013364"}]`,
		"not JSON":      `<html>502 Bad Gateway</html>`,
	} {
		srv := fakeServer(t, answer(200, body))
		got, err := (&Nominatim{BaseURL: srv.URL}).Search(context.Background(), "Eiffel Tower")
		if err == nil {
			t.Errorf("%s: no error, places %+v", name, got)
		} else if name == "over 2 MB" && !strings.Contains(err.Error(), "larger than") {
			t.Errorf("%s: %v, want the size limit named", name, err)
		}
	}
}

func TestNominatimNeedsBaseURL(t *testing.T) {
	if _, err := (&Nominatim{}).Search(context.Background(), "Eiffel Tower"); err == nil {
		t.Error("no error without a BaseURL")
	}
}

func TestOSMTypesMapIntoTaxonomy(t *testing.T) {
	for tag, googleType := range osmTypes {
		if LeafForTypes(googleType) == OtherLeaf {
			t.Errorf("%s maps to %q, which LeafForTypes does not know", tag, googleType)
		}
	}
	for tag, leaf := range map[string]string{
		"amenity:restaurant": "101001", "amenity:cafe": "201001", "amenity:pub": "102002",
		"tourism:museum": "302001", "tourism:viewpoint": "307002", "historic:castle": "301004",
		"leisure:park": "303001", "natural:peak": "304002", "shop:mall": "501002",
		"amenity:place_of_worship": "305003", "railway:station": "903001", "aeroway:aerodrome": "903002",
		"amenity:marketplace": "501001", "tourism:hostel": "401002", "highway:bus_stop": OtherLeaf,
	} {
		if got := LeafForTypes(osmTypes[tag]); got != leaf {
			t.Errorf("%s → %s, want %s", tag, got, leaf)
		}
	}
}

// osmShape is what the tests ask of a place found on OpenStreetMap.
type osmShape struct {
	Provider, ProviderPlaceID, Name, City, Leaf, PrimaryType, TypeName, Maps, Lat, Lng string
	Names                                                                              []string
}

func osmShapeOf(p planner.Place) osmShape {
	return osmShape{Provider: p.Provider, ProviderPlaceID: p.ProviderPlaceID, Name: p.Name, City: p.City, Leaf: p.CategoryLevel3,
		PrimaryType: p.PrimaryType, TypeName: p.PrimaryTypeName, Maps: p.MapsURI, Lat: p.Latitude, Lng: p.Longitude, Names: p.Names}
}
