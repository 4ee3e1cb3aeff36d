package places

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"tripplan/internal/planner"
)

const testKey = "AIzaSyTEST-not-a-real-key-0123456789"

// Both providers satisfy the interface the web layer will consume.

// fakeServer serves handle on a local port until the test ends.
func fakeServer(t *testing.T, handle http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(handle)
	t.Cleanup(srv.Close)
	return srv
}

// answer returns a handler that writes status and body as JSON.
func answer(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		w.WriteHeader(status)
		w.Write([]byte(body))
	}
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// googlePlacesServer checks each request the way places.googleapis.com would receive it and
// answers with the recorded Text Search response.
func googlePlacesServer(t *testing.T, query string, response []byte) *httptest.Server {
	return fakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		bad := func(format string, args ...any) {
			t.Errorf(format, args...)
			http.Error(w, `{"error":{"code":400,"message":"test: bad request","status":"INVALID_ARGUMENT"}}`, 400)
		}
		if r.Method != http.MethodPost || r.URL.Path != "/v1/places:searchText" || r.URL.RawQuery != "" {
			bad("request %s %s, want POST /v1/places:searchText with no query string", r.Method, r.URL)
			return
		}
		for header, want := range map[string]string{
			"X-Goog-Api-Key":   testKey,
			"X-Goog-FieldMask": "places.id,places.displayName,places.formattedAddress,places.location,places.types,places.primaryType,places.primaryTypeDisplayName,places.googleMapsUri",
			"Content-Type":     "application/json",
		} {
			if got := r.Header.Get(header); got != want {
				bad("%s = %q, want %q", header, got, want)
				return
			}
		}
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			bad("body: %v", err)
			return
		}
		want := map[string]any{"textQuery": query, "pageSize": 10.0, "languageCode": "en"}
		if !reflect.DeepEqual(body, want) {
			bad("body %v, want %v", body, want)
			return
		}
		answer(200, string(response))(w, r)
	})
}

func TestGoogleSearch(t *testing.T) {
	srv := googlePlacesServer(t, "Gyeongbokgung", readFixture(t, "google_gyeongbokgung.json"))
	g := &Google{Key: testKey, BaseURL: srv.URL + "/"}
	got, err := g.Search(context.Background(), "  Gyeongbokgung ")
	if err != nil {
		t.Fatal(err)
	}
	want := []planner.Place{{
		Provider: "GOOGLE", ProviderPlaceID: "ChIJod7tSseifDUR9hXHLFNGMIs",
		Name: "Gyeongbokgung Palace", Names: []string{}, Address: "161 Sajik-ro, Jongno District, Seoul, South Korea",
		CategoryLevel1: "300000", CategoryLevel2: "301000", CategoryLevel3: "301002",
		PrimaryType: "historical_landmark", PrimaryTypeName: "Historical Landmark",
		MapsURI: "https://maps.google.com/?cid=10002706427318753782", Photos: []string{},
		Latitude: "37.579617", Longitude: "126.977041",
	}}
	if len(got) != 5 {
		t.Fatalf("%d places, want 5: %+v", len(got), got)
	}
	if !reflect.DeepEqual(got[:1], want) {
		t.Errorf("first place\n got %+v\nwant %+v", got[0], want[0])
	}
	// The rest, in Google's order: each lands on the leaf of its primary type.
	for i, w := range []struct{ id, name, leaf, primaryType, typeName, lat, lng string }{
		{"ChIJ_ZAvMdWifDURnbDoRxKtHbs", "National Palace Museum of Korea", "302001", "museum", "Museum", "37.576585", "126.975311"},
		{"ChIJB2HcW8SifDURfY0U3nbQQ0Y", "Gyeongbokgung Station", "903001", "subway_station", "Subway Station", "37.575762", "126.973505"},
		{"ChIJD7AA_cSifDURyNMXGi3Ydi0", "Tosokchon Samgyetang", "101002", "korean_restaurant", "Korean Restaurant", "37.577941", "126.971294"},
		// Only generic types and no primary type: General › Other › Other.
		{"ChIJ3aTuT5-ifDURwPhtRf2KH6A", "Gyeongbokgung Hanbok Rental", OtherLeaf, "", "", "37.576652", "126.971736"},
	} {
		type placeShape struct {
			Provider, ID, ProviderPlaceID, Name, Leaf, PrimaryType, TypeName, Lat, Lng string
			GoogleMapsLink                                                             bool
			Photos                                                                     int
		}
		p := got[i+1]
		if diff := cmp.Diff(placeShape{Provider: "GOOGLE", ProviderPlaceID: w.id, Name: w.name, Leaf: w.leaf, PrimaryType: w.primaryType,
			TypeName: w.typeName, Lat: w.lat, Lng: w.lng, GoogleMapsLink: true},
			placeShape{Provider: p.Provider, ID: p.ID, ProviderPlaceID: p.ProviderPlaceID, Name: p.Name, Leaf: p.CategoryLevel3, PrimaryType: p.PrimaryType,
				TypeName: p.PrimaryTypeName, Lat: p.Latitude, Lng: p.Longitude, GoogleMapsLink: strings.HasPrefix(p.MapsURI, "https://maps.google.com/?cid="),
				Photos: len(p.Photos)}); diff != "" {
			t.Errorf("place %d (-want +got):\n%s", i+1, diff)
		}
	}
	if got[4].CategoryLevel1 != "900000" || got[4].CategoryLevel2 != "905000" {
		t.Errorf("unknown type in %s › %s, want General › Other", got[4].CategoryLevel1, got[4].CategoryLevel2)
	}
	// Never put the key where a browser or a log could see it.
	if s := fmt.Sprint(got); strings.Contains(s, testKey) {
		t.Errorf("the API key leaked into a place: %s", s)
	}
}

func TestGoogleMapsMissingFields(t *testing.T) {
	srv := fakeServer(t, answer(200, `{"places":[
		{"id":"ChIJx","displayName":{"text":"Somewhere"},"primaryType":"spaceport","types":["spaceport","establishment"]},
		{"id":"ChIJy","displayName":{"text":"Cafe Onion Anguk"},"primaryType":"cafe","location":{"latitude":37.5779,"longitude":126.9864}},
		{"id":"","displayName":{"text":"no id"}},
		{"id":"ChIJz","displayName":{"text":""}}]}`))
	got, err := (&Google{Key: testKey, BaseURL: srv.URL}).Search(context.Background(), "x")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d places, want the 2 with an id and a name: %+v", len(got), got)
	}
	if p := got[0]; p.CategoryLevel3 != OtherLeaf || p.PrimaryType != "spaceport" || p.PrimaryTypeName != "Spaceport" ||
		p.Latitude != "" || p.Longitude != "" {
		t.Errorf("unknown type without location: %+v", p)
	}
	if p := got[1]; p.CategoryLevel3 != "201001" || p.PrimaryTypeName != "Cafe" || p.Latitude != "37.577900" || p.Longitude != "126.986400" {
		t.Errorf("cafe without display type name: %+v", p)
	}
}

func TestGoogleAtMostTen(t *testing.T) {
	many := make([]string, 15)
	for i := range many {
		many[i] = `{"id":"ChIJ` + strings.Repeat("a", i+1) + `","displayName":{"text":"P"}}`
	}
	srv := fakeServer(t, answer(200, `{"places":[`+strings.Join(many, ",")+`]}`))
	got, err := (&Google{Key: testKey, BaseURL: srv.URL}).Search(context.Background(), "x")
	if err != nil || len(got) != 10 {
		t.Fatalf("%d places, %v; want 10", len(got), err)
	}
}

func TestGoogleNoResults(t *testing.T) {
	// Google answers {} when nothing matches.
	srv := googlePlacesServer(t, "qwxzv", []byte("{}\n"))
	got, err := (&Google{Key: testKey, BaseURL: srv.URL}).Search(context.Background(), "qwxzv")
	if err != nil || got == nil || len(got) != 0 {
		t.Fatalf("%#v, %v; want an empty list", got, err)
	}
}

func TestGoogleErrorStatus(t *testing.T) {
	for _, c := range []struct {
		status     int
		body, want string
	}{
		{400, `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com","metadata":{"service":"places.googleapis.com"}}]}}`,
			"HTTP 400 Bad Request: INVALID_ARGUMENT: API key not valid. Please pass a valid API key."},
		{403, `{"error":{"code":403,"message":"Places API (New) has not been used in project 123456789012 before or it is disabled.","status":"PERMISSION_DENIED"}}`,
			"HTTP 403 Forbidden: PERMISSION_DENIED: Places API (New) has not been used"},
		{429, `{"error":{"code":429,"message":"Quota exceeded for quota metric 'SearchTextRequest' and limit 'SearchTextRequest per minute' of service 'places.googleapis.com'.","status":"RESOURCE_EXHAUSTED"}}`,
			"HTTP 429 Too Many Requests: RESOURCE_EXHAUSTED: Quota exceeded"},
		// A front end's HTML page carries no message: the status alone is reported.
		{502, `<!DOCTYPE html><html><title>Error 502 (Server Error)!!1</title></html>`, "HTTP 502 Bad Gateway"},
		// Should a message ever quote the key, the error must not.
		{400, `{"error":{"code":400,"message":"Invalid key ` + testKey + `","status":"INVALID_ARGUMENT"}}`,
			"INVALID_ARGUMENT: Invalid key [redacted]"},
	} {
		srv := fakeServer(t, answer(c.status, c.body))
		_, err := (&Google{Key: testKey, BaseURL: srv.URL}).Search(context.Background(), "Gyeongbokgung")
		var he *HTTPError
		if !errors.As(err, &he) || he.Status != c.status || !strings.Contains(err.Error(), c.want) {
			t.Errorf("status %d: error %v, want an HTTPError containing %q", c.status, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), testKey) {
			t.Errorf("status %d: the error shows the API key: %v", c.status, err)
		}
	}
}

func TestGoogleDoesNotFollowRedirects(t *testing.T) {
	elsewhere := fakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the redirect was followed, carrying X-Goog-Api-Key %q", r.Header.Get("X-Goog-Api-Key"))
	})
	srv := fakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/steal", http.StatusTemporaryRedirect)
	})
	_, err := (&Google{Key: testKey, BaseURL: srv.URL}).Search(context.Background(), "Gyeongbokgung")
	var he *HTTPError
	if !errors.As(err, &he) || he.Status != http.StatusTemporaryRedirect {
		t.Errorf("error %v, want HTTP 307", err)
	}
}

func TestGoogleTimeout(t *testing.T) {
	srv := fakeServer(t, hang)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	// The server answers nothing until the client gives up: the deadline is what ends it.
	_, err := (&Google{Key: testKey, BaseURL: srv.URL}).Search(ctx, "Gyeongbokgung")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want the context's deadline", err)
	}
}

// hang answers nothing until the client gives up. The server notices a closed connection
// only once the request body is read; the time limit keeps a broken client from hanging the
// test's server shutdown.
func hang(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

func TestGoogleBadBodies(t *testing.T) {
	huge := `{"places":[` + strings.Repeat(" ", maxBody) + `]}`
	for name, body := range map[string]string{
		"over 2 MB":   huge,
		"truncated":   `{"places":[{"id":"ChIJod7tSseifDUR9hXHLFNGMIs","displayName":{"te`,
		"wrong shape": `{"places":{"id":"ChIJ"}}`,
		"not JSON":    `<html>Service Unavailable</html>`,
		"empty":       ``,
	} {
		srv := fakeServer(t, answer(200, body))
		got, err := (&Google{Key: testKey, BaseURL: srv.URL}).Search(context.Background(), "Gyeongbokgung")
		if err == nil {
			t.Errorf("%s: no error, places %+v", name, got)
		} else if name == "over 2 MB" && !strings.Contains(err.Error(), "larger than") {
			t.Errorf("%s: %v, want the size limit named", name, err)
		}
	}
}

func TestGoogleNeedsKeyAndQuery(t *testing.T) {
	srv := fakeServer(t, func(w http.ResponseWriter, r *http.Request) { t.Error("a request was sent") })
	if _, err := (&Google{BaseURL: srv.URL}).Search(context.Background(), "Gyeongbokgung"); err == nil {
		t.Error("no error without a key")
	}
	if got, err := (&Google{Key: testKey, BaseURL: srv.URL}).Search(context.Background(), " "); err != nil || len(got) != 0 {
		t.Errorf("blank query: %v, %v", got, err)
	}
}
